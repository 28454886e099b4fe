/*
 * space_batch.c - SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND on [N, H, W, C]
 * (or [N, H, C], a width of 1) tensors, as TFLite Micro: the block shape
 * and the paddings / crops are constants read here. Batch index
 * (sh * block_w + sw) * N + n holds the pixels of offset (sh, sw) in each
 * block, so each offset is one strided copy; SPACE_TO_BATCH_ND first fills
 * the output where it pads.
 */
#include "../../runtime/kernels/ta_copy_nd.h"
#include "common/copy_nd.h"

/* One spatial dimension: the block size, the padding (or crop) before and
   after it. */
typedef struct SpatialDim {
    int64_t block, before, after;
} SpatialDim;

/* The indices i in [0, n) with i * block + shift - before in [0, limit):
   [*lo, *hi). */
static void block_range(int64_t n, int64_t block, int64_t shift, int64_t before, int64_t limit,
                        int64_t *lo, int64_t *hi)
{
    const int64_t from = before - shift;       /* i * block >= from */
    const int64_t to = limit + before - shift; /* i * block < to */
    *lo = from <= 0 ? 0 : (from + block - 1) / block;
    *hi = to <= 0 ? 0 : (to + block - 1) / block;
    if (*hi > n)
        *hi = n;
    if (*lo > *hi)
        *lo = *hi;
}

/* Reads the block shape and the [spatial, 2] paddings or crops; checks the
   rank, the dtypes and that they take `space` to `batch`. */
static bool read_blocks(TaLower *L, TaOp *op, const char *what, const TaTensor *space,
                        const TaTensor *batch, SpatialDim dims[2])
{
    if (!ta_expect_counts(L, op, 3, 3, 1))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in, "input", TA_INT8, TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, out, "output", in->dtype, -1))
        return false;
    if ((in->rank != 3 && in->rank != 4) || out->rank != in->rank) {
        ta_op_error(L, op, "input %s and output %s must both be rank 3 or 4",
                    ta_shape_text(L->pool, in), ta_shape_text(L->pool, out));
        return false;
    }
    const int spatial = in->rank - 2;
    int64_t block[2], pads[4];
    int nb, np;
    if (!ta_const_ints(L, op, op->inputs[1], "block_shape", false, block, 2, &nb) ||
        !ta_const_ints(L, op, op->inputs[2], what, false, pads, 4, &np))
        return false;
    if (nb != spatial || np != 2 * spatial) {
        ta_op_error(L, op, "block_shape needs %d values and %s %d for a rank-%d input", spatial,
                    what, 2 * spatial, in->rank);
        return false;
    }
    dims[1] = (SpatialDim){1, 0, 0};
    bool ok = true;
    for (int d = 0; d < spatial; d++) {
        dims[d] = (SpatialDim){block[d], pads[2 * d], pads[2 * d + 1]};
        ok = ok && block[d] >= 1 && block[d] <= 65536 && pads[2 * d] >= 0 && pads[2 * d + 1] >= 0 &&
             pads[2 * d] + pads[2 * d + 1] <= 65536;
    }
    int64_t blocks = dims[0].block * dims[1].block;
    ok = ok && batch->dims[0] == space->dims[0] * blocks &&
         batch->dims[in->rank - 1] == space->dims[in->rank - 1];
    for (int d = 0; d < spatial && ok; d++)
        ok = space->dims[1 + d] + dims[d].before + dims[d].after ==
             batch->dims[1 + d] * dims[d].block;
    if (!ok) {
        ta_op_error(L, op, "block_shape and %s do not take %s to %s (block >= 1, %s >= 0)", what,
                    ta_shape_text(L->pool, in), ta_shape_text(L->pool, out), what);
        return false;
    }
    return true;
}

/* [N, H, W, C] of a rank-3 or rank-4 tensor. */
static void nhwc(const TaTensor *t, int64_t s[4])
{
    s[0] = t->dims[0];
    s[1] = t->dims[1];
    s[2] = t->rank == 4 ? t->dims[2] : 1;
    s[3] = t->dims[t->rank - 1];
}

static bool lower_space_to_batch(TaLower *L, TaOp *op)
{
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    SpatialDim sd[2];
    if (!read_blocks(L, op, "paddings", in, out, sd))
        return false;
    int64_t i[4], o[4];
    nhwc(in, i);
    nhwc(out, o);
    if (sd[0].before || sd[0].after || sd[1].before || sd[1].after) {
        /* TFLite Micro pads with SpaceToBatchParams::output_offset, which
           its Prepare never sets (the wheel pads whatever its arena held):
           pad with the output zero point, as LiteRT does. */
        TaKernelCall *f = ta_call(L, op, "ta_fill", "runtime/kernels/ta_copy_nd.h");
        ta_fill_params_t *p = TA_CALL_PARAMS(L, f, ta_fill_params_t);
        p->count = (int64_t)ta_tensor_elements(out);
        p->elem_size = (int64_t)ta_dtype_size(out->dtype);
        p->value = out->dtype == TA_INT8 ? ta_zero_point(out) : 0;
        ta_call_arg(L, f, out);
    }
    for (int64_t sh = 0; sh < sd[0].block; sh++) {
        for (int64_t sw = 0; sw < sd[1].block; sw++) {
            int64_t h0, h1, w0, w1;
            block_range(o[1], sd[0].block, sh, sd[0].before, i[1], &h0, &h1);
            block_range(o[2], sd[1].block, sw, sd[1].before, i[2], &w0, &w1);
            const int64_t ih0 = h0 * sd[0].block + sh - sd[0].before;
            const int64_t iw0 = w0 * sd[1].block + sw - sd[1].before;
            TaCopyNd c = {0};
            ta_copy_nd_dim(&c, i[0], i[1] * i[2] * i[3], o[1] * o[2] * o[3]);
            ta_copy_nd_dim(&c, h1 - h0, sd[0].block * i[2] * i[3], o[2] * o[3]);
            ta_copy_nd_dim(&c, w1 - w0, sd[1].block * i[3], o[3]);
            ta_copy_nd_dim(&c, i[3], 1, 1);
            c.src_offset = (ih0 * i[2] + iw0) * i[3];
            c.dst_offset = ((sh * sd[1].block + sw) * i[0] * o[1] + h0) * o[2] * o[3] + w0 * o[3];
            if (!ta_lower_copy_nd(L, op, in, out, &c))
                return false;
        }
    }
    return true;
}

static bool lower_batch_to_space(TaLower *L, TaOp *op)
{
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    SpatialDim sd[2];
    if (!read_blocks(L, op, "crops", out, in, sd))
        return false;
    int64_t i[4], o[4];
    nhwc(in, i);
    nhwc(out, o);
    if (sd[0].block * sd[1].block == 1) {
        TaCopyNd c = {0}; /* no block: a crop */
        ta_copy_nd_dim(&c, o[0], i[1] * i[2] * i[3], o[1] * o[2] * o[3]);
        ta_copy_nd_dim(&c, o[1], i[2] * i[3], o[2] * o[3]);
        ta_copy_nd_dim(&c, o[2], i[3], o[3]);
        ta_copy_nd_dim(&c, o[3], 1, 1);
        c.src_offset = (sd[0].before * i[2] + sd[1].before) * i[3];
        return ta_lower_move(L, op, 0, &c);
    }
    for (int64_t sh = 0; sh < sd[0].block; sh++) {
        for (int64_t sw = 0; sw < sd[1].block; sw++) {
            int64_t h0, h1, w0, w1;
            block_range(i[1], sd[0].block, sh, sd[0].before, o[1], &h0, &h1);
            block_range(i[2], sd[1].block, sw, sd[1].before, o[2], &w0, &w1);
            const int64_t oh0 = h0 * sd[0].block + sh - sd[0].before;
            const int64_t ow0 = w0 * sd[1].block + sw - sd[1].before;
            TaCopyNd c = {0};
            ta_copy_nd_dim(&c, o[0], i[1] * i[2] * i[3], o[1] * o[2] * o[3]);
            ta_copy_nd_dim(&c, h1 - h0, i[2] * i[3], sd[0].block * o[2] * o[3]);
            ta_copy_nd_dim(&c, w1 - w0, i[3], sd[1].block * o[3]);
            ta_copy_nd_dim(&c, o[3], 1, 1);
            c.src_offset = ((sh * sd[1].block + sw) * o[0] * i[1] + h0) * i[2] * i[3] + w0 * i[3];
            c.dst_offset = (oh0 * o[2] + ow0) * o[3];
            if (!ta_lower_copy_nd(L, op, in, out, &c))
                return false;
        }
    }
    return true;
}

const TaOpDef ta_op_space_to_batch_nd = {NULL, lower_space_to_batch};
const TaOpDef ta_op_batch_to_space_nd = {NULL, lower_batch_to_space};
