/*
 * mirror_pad.c - MIRROR_PAD (REFLECT and SYMMETRIC), as TFLite Micro: each
 * dimension of the output is three runs, the mirrored padding before, the
 * input, the mirrored padding after; every combination of runs is one
 * strided copy from the input (stepping backwards in the mirrored runs).
 * Paddings may exceed neither the input's size (SYMMETRIC) nor its size
 * less one (REFLECT), where TFLite Micro would read outside the input.
 */
#include "common/copy_nd.h"

typedef struct MirrorAttrs {
    int offset; /* REFLECT 1 (the border is not repeated), SYMMETRIC 0 */
} MirrorAttrs;

static bool parse(TaLower *L, TaOp *op)
{
    TaFbReader r;
    TaFbTable t = ta_op_options(L, op, &r);
    MirrorAttrs *a = ta_alloc(L->pool, sizeof *a);
    const int mode = ta_fb_i8(t, 0, 0);
    if (mode != 0 && mode != 1) {
        ta_op_error(L, op, "mirror pad mode %d is neither REFLECT (0) nor SYMMETRIC (1)", mode);
        return false;
    }
    a->offset = mode == 0 ? 1 : 0;
    op->attrs = a;
    return !r.failed;
}

/* One run of an output dimension: its length, where it starts in the
   output and in the input, and the input step. */
typedef struct Run {
    int64_t size, out_start, in_start, in_step;
} Run;

typedef struct Mirror {
    TaTensor *in, *out;
    int rank;
    Run runs[TA_MAX_RANK][3];
    int64_t istr[TA_MAX_RANK], ostr[TA_MAX_RANK];
} Mirror;

/* Records the copies for every choice of run in dimensions d and after. */
static bool copy_runs(TaLower *L, TaOp *op, const Mirror *m, int d, const int choice[])
{
    if (d == m->rank) {
        TaCopyNd c = {0};
        for (int k = 0; k < m->rank; k++) {
            const Run *r = &m->runs[k][choice[k]];
            ta_copy_nd_dim(&c, r->size, r->in_step * m->istr[k], m->ostr[k]);
            c.src_offset += r->in_start * m->istr[k];
            c.dst_offset += r->out_start * m->ostr[k];
        }
        return ta_lower_copy_nd(L, op, m->in, m->out, &c);
    }
    int next[TA_MAX_RANK];
    for (int k = 0; k < d; k++)
        next[k] = choice[k];
    for (int r = 0; r < 3; r++) {
        if (m->runs[d][r].size == 0)
            continue;
        next[d] = r;
        if (!copy_runs(L, op, m, d + 1, next))
            return false;
    }
    return true;
}

static bool lower(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 2, 2, 1))
        return false;
    const int offset = ((const MirrorAttrs *)op->attrs)->offset;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in, "input", TA_INT8, TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, out, "output", in->dtype, -1))
        return false;
    int64_t pads[2 * TA_MAX_RANK];
    int n;
    if (!ta_const_ints(L, op, op->inputs[1], "paddings", true, pads, 2 * TA_MAX_RANK, &n))
        return false;
    bool ok = op->inputs[1]->rank == 2 && n == 2 * in->rank && out->rank == in->rank;
    for (int d = 0; d < in->rank && ok; d++) {
        const int64_t before = pads[2 * d], after = pads[2 * d + 1], size = in->dims[d];
        ok = before >= 0 && after >= 0 && before <= size - offset && after <= size - offset &&
             out->dims[d] == size + before + after;
    }
    if (!ok) {
        ta_op_error(L, op,
                    "paddings do not take %s to %s (they must be [rank, 2], >= 0 and at most "
                    "the dimension%s)",
                    ta_shape_text(L->pool, in), ta_shape_text(L->pool, out),
                    offset ? " less one (REFLECT)" : "");
        return false;
    }
    Mirror m = {.in = in, .out = out, .rank = in->rank};
    ta_row_major_strides(in, m.istr);
    ta_row_major_strides(out, m.ostr);
    for (int d = 0; d < in->rank; d++) {
        const int64_t before = pads[2 * d], after = pads[2 * d + 1], size = in->dims[d];
        /* Output i < before reads before + offset - 1 - i; after the input,
           output size + before + k reads size - 1 - offset - k. */
        m.runs[d][0] = (Run){before, 0, before + offset - 1, -1};
        m.runs[d][1] = (Run){size, before, 0, 1};
        m.runs[d][2] = (Run){after, before + size, size - 1 - offset, -1};
    }
    if (ta_tensor_elements(out) == ta_tensor_elements(in)) {
        TaCopyNd c = {0}; /* no padding */
        for (int d = 0; d < in->rank; d++)
            ta_copy_nd_dim(&c, in->dims[d], m.istr[d], m.ostr[d]);
        return ta_lower_move(L, op, 0, &c);
    }
    int choice[TA_MAX_RANK] = {0};
    return copy_runs(L, op, &m, 0, choice);
}

const TaOpDef ta_op_mirror_pad = {parse, lower};
