/*
 * transpose.c - TRANSPOSE, DEPTH_TO_SPACE and SPACE_TO_DEPTH: permutations
 * of the input's elements, each one strided copy. The permutation operand
 * is a constant read here; DEPTH_TO_SPACE and SPACE_TO_DEPTH are 6-D
 * transposes with the block split out of height, width and depth.
 */
#include "common/copy_nd.h"

static bool lower_transpose(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 2, 2, 1))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    int64_t perm[TA_MAX_RANK], istr[TA_MAX_RANK], ostr[TA_MAX_RANK];
    int n;
    if (!ta_expect_dtype(L, op, out, "output", in->dtype, -1) ||
        !ta_const_ints(L, op, op->inputs[1], "perm", false, perm, TA_MAX_RANK, &n))
        return false;
    bool seen[TA_MAX_RANK] = {false};
    bool ok = n == in->rank && out->rank == in->rank;
    for (int d = 0; d < n && ok; d++) {
        ok = perm[d] >= 0 && perm[d] < n && !seen[perm[d]] && out->dims[d] == in->dims[perm[d]];
        if (ok)
            seen[perm[d]] = true;
    }
    if (!ok) {
        ta_op_error(L, op, "perm is not a permutation taking %s to %s", ta_shape_text(L->pool, in),
                    ta_shape_text(L->pool, out));
        return false;
    }
    ta_row_major_strides(in, istr);
    ta_row_major_strides(out, ostr);
    TaCopyNd c = {0};
    for (int d = 0; d < n; d++)
        ta_copy_nd_dim(&c, out->dims[d], istr[perm[d]], ostr[d]);
    return ta_lower_move(L, op, 0, &c);
}

typedef struct BlockAttrs {
    int block;
} BlockAttrs;

static bool parse_block(TaLower *L, TaOp *op)
{
    TaFbReader r;
    TaFbTable t = ta_op_options(L, op, &r);
    BlockAttrs *a = ta_alloc(L->pool, sizeof *a);
    a->block = ta_fb_i32(t, 0, 0);
    op->attrs = a;
    return !r.failed;
}

/* The NHWC tensors of a depth/space rearrangement: `space` has the larger
   height and width, `depth` the larger channel count. */
static bool block_shapes(TaLower *L, TaOp *op, const TaTensor *space, const TaTensor *depth,
                         int block)
{
    if (!ta_expect_dtype(L, op, op->outputs[0], "output", op->inputs[0]->dtype, -1))
        return false;
    const int64_t b = block;
    if (b < 1 || b > 65536 || space->rank != 4 || depth->rank != 4 ||
        space->dims[0] != depth->dims[0] || space->dims[1] != depth->dims[1] * b ||
        space->dims[2] != depth->dims[2] * b || depth->dims[3] != space->dims[3] * b * b) {
        ta_op_error(L, op, "block size %d does not take %s to %s", block,
                    ta_shape_text(L->pool, op->inputs[0]), ta_shape_text(L->pool, op->outputs[0]));
        return false;
    }
    return true;
}

static bool lower_depth_to_space(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 1, 1, 1))
        return false;
    const int bs = ((const BlockAttrs *)op->attrs)->block;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (!block_shapes(L, op, out, in, bs))
        return false;
    /* Output [n, h, by, w, bx, c] reads input [n, h, w, (by * bs + bx) * C + c]. */
    const int64_t H = in->dims[1], W = in->dims[2], C = out->dims[3], IC = in->dims[3];
    TaCopyNd c = {0};
    ta_copy_nd_dim(&c, in->dims[0], H * W * IC, H * bs * W * bs * C);
    ta_copy_nd_dim(&c, H, W * IC, bs * W * bs * C);
    ta_copy_nd_dim(&c, bs, bs * C, W * bs * C);
    ta_copy_nd_dim(&c, W, IC, bs * C);
    ta_copy_nd_dim(&c, bs, C, C);
    ta_copy_nd_dim(&c, C, 1, 1);
    return ta_lower_move(L, op, 0, &c);
}

static bool lower_space_to_depth(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 1, 1, 1))
        return false;
    const int bs = ((const BlockAttrs *)op->attrs)->block;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (!block_shapes(L, op, in, out, bs))
        return false;
    /* Output [n, h, w, by, bx, c] reads input [n, h * bs + by, w * bs + bx, c]. */
    const int64_t H = out->dims[1], W = out->dims[2], C = in->dims[3], OC = out->dims[3];
    const int64_t IW = W * bs;
    TaCopyNd c = {0};
    ta_copy_nd_dim(&c, in->dims[0], H * bs * IW * C, H * W * OC);
    ta_copy_nd_dim(&c, H, bs * IW * C, W * OC);
    ta_copy_nd_dim(&c, W, bs * C, OC);
    ta_copy_nd_dim(&c, bs, IW * C, bs * C);
    ta_copy_nd_dim(&c, bs, C, C);
    ta_copy_nd_dim(&c, C, 1, 1);
    return ta_lower_move(L, op, 0, &c);
}

const TaOpDef ta_op_transpose = {NULL, lower_transpose};
const TaOpDef ta_op_depth_to_space = {parse_block, lower_depth_to_space};
const TaOpDef ta_op_space_to_depth = {parse_block, lower_space_to_depth};
