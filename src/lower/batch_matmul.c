/*
 * batch_matmul.c - BATCH_MATMUL, int8 (any zero points) and int16 (zero
 * points 0), ranks 2 to 5 with broadcast batch dimensions, adj_x / adj_y,
 * either operand constant or not.
 *
 * Produces: for a constant rhs, a transposed copy ([batches.., n, k], so the
 * kernel's inner loop is contiguous) and, with a non-zero lhs zero point,
 * the per-column zero-point terms; for a variable rhs with a non-zero lhs
 * zero point, a scratch row for those terms.
 */
#include "../../runtime/kernels/ta_batch_matmul.h"
#include "../../runtime/kernels/ta_batch_matmul_f32.h"
#include "lower.h"

#include <string.h>

enum { OPT_ADJ_X = 0, OPT_ADJ_Y };

typedef struct BmmAttrs {
    bool adj_x, adj_y;
} BmmAttrs;

static bool parse(TaLower *L, TaOp *op)
{
    TaFbReader r;
    TaFbTable t = ta_op_options(L, op, &r);
    BmmAttrs *a = ta_alloc(L->pool, sizeof *a);
    a->adj_x = ta_fb_bool(t, OPT_ADJ_X, false);
    a->adj_y = ta_fb_bool(t, OPT_ADJ_Y, false);
    if (r.failed)
        return false;
    op->attrs = a;
    return true;
}

/* The shape padded with leading 1s to rank 5 (three batch dimensions). */
static void extend5(const TaTensor *t, int32_t d[5])
{
    for (int i = 0; i < 5; i++)
        d[i] = i < 5 - t->rank ? 1 : t->dims[i - (5 - t->rank)];
}

/* Element strides of the three batch dimensions of matrices of `size`
   elements; 0 where the operand has 1 (broadcast). */
static void batch_strides(const int32_t d[5], int64_t size, int64_t s[3])
{
    int64_t step = size;
    for (int i = 2; i >= 0; i--) {
        s[i] = d[i] == 1 ? 0 : step;
        step *= d[i];
    }
}

static int64_t element(const TaTensor *t, size_t i)
{
    if (t->dtype == TA_INT8)
        return ((const int8_t *)t->data)[i];
    int16_t v;
    memcpy(&v, t->data + 2 * i, 2);
    return v;
}

/* float32: TFLite's float reference (ta_batch_matmul_f32.h). */
static bool lower_float(TaLower *L, TaOp *op, const ta_batch_matmul_f32_params_t *geometry,
                        TaTensor *lhs, TaTensor *rhs, TaTensor *out, int64_t batches)
{
    TaKernelCall *c = ta_call(L, op, "ta_batch_matmul_f32",
                              "runtime/kernels/ta_batch_matmul_f32.h");
    *(ta_batch_matmul_f32_params_t *)TA_CALL_PARAMS(L, c, ta_batch_matmul_f32_params_t) = *geometry;
    ta_call_arg(L, c, lhs);
    ta_call_arg(L, c, rhs);
    ta_call_arg(L, c, out);
    op->lowered.has_macs = op->lowered.has_parameters = true;
    op->lowered.macs = batches * geometry->rows * geometry->cols * (int64_t)geometry->depth;
    op->lowered.parameters = (lhs->role == TA_REGION_CONSTANT ? (int64_t)ta_tensor_elements(lhs)
                                                              : 0) +
                             (rhs->role == TA_REGION_CONSTANT ? (int64_t)ta_tensor_elements(rhs)
                                                              : 0);
    return true;
}

static bool lower(TaLower *L, TaOp *op)
{
    const BmmAttrs *a = op->attrs;
    if (!ta_expect_counts(L, op, 2, 2, 1))
        return false;
    TaTensor *lhs = op->inputs[0], *rhs = op->inputs[1], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, lhs, "lhs", TA_INT8, TA_INT16, TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, rhs, "rhs", lhs->dtype, -1) ||
        !ta_expect_dtype(L, op, out, "output", lhs->dtype, -1))
        return false;
    const bool is_float = lhs->dtype == TA_FLOAT32;
    if (!is_float &&
        (!ta_expect_per_tensor(L, op, lhs, "lhs") || !ta_expect_per_tensor(L, op, rhs, "rhs") ||
         !ta_expect_per_tensor(L, op, out, "output")))
        return false;
    const bool wide = lhs->dtype == TA_INT16;
    if (wide && (ta_zero_point(lhs) != 0 || ta_zero_point(rhs) != 0 || ta_zero_point(out) != 0)) {
        ta_op_error(L, op, "int16 operands and output need zero point 0");
        return false;
    }
    const int out_rank = lhs->rank > rhs->rank ? lhs->rank : rhs->rank;
    if (lhs->rank < 2 || lhs->rank > 5 || rhs->rank < 2 || rhs->rank > 5 || out->rank != out_rank) {
        ta_op_error(L, op, "operands need rank 2 to 5 and the output their larger rank");
        return false;
    }
    int32_t ld[5], rd[5], od[5];
    extend5(lhs, ld);
    extend5(rhs, rd);
    extend5(out, od);
    const int32_t m = a->adj_x ? ld[4] : ld[3], k = a->adj_x ? ld[3] : ld[4];
    const int32_t n = a->adj_y ? rd[3] : rd[4], k_r = a->adj_y ? rd[4] : rd[3];
    bool ok = k == k_r && od[3] == m && od[4] == n;
    int64_t batches = 1;
    for (int i = 0; i < 3; i++) {
        ok = ok && (ld[i] == rd[i] || ld[i] == 1 || rd[i] == 1) &&
             od[i] == (ld[i] == 1 ? rd[i] : ld[i]);
        batches *= od[i];
    }
    if (!ok) {
        ta_op_error(L, op, "shapes %s x %s (adj_x %d, adj_y %d) do not give output %s",
                    ta_shape_text(L->pool, lhs), ta_shape_text(L->pool, rhs), a->adj_x, a->adj_y,
                    ta_shape_text(L->pool, out));
        return false;
    }

    if (is_float) {
        ta_batch_matmul_f32_params_t geometry = {
            .rows = m,
            .cols = n,
            .depth = k,
            .lhs_row_stride = a->adj_x ? 1 : k,
            .lhs_depth_stride = a->adj_x ? m : 1,
            .rhs_col_stride = a->adj_y ? k : 1,
            .rhs_depth_stride = a->adj_y ? 1 : n,
        };
        int64_t lhs_bs[3], rhs_bs[3];
        batch_strides(ld, (int64_t)m * k, lhs_bs);
        batch_strides(rd, (int64_t)k * n, rhs_bs);
        for (int i = 0; i < 3; i++) {
            geometry.batch_dims[i] = od[i];
            geometry.lhs_batch_strides[i] = (int32_t)lhs_bs[i];
            geometry.rhs_batch_strides[i] = (int32_t)rhs_bs[i];
        }
        return lower_float(L, op, &geometry, lhs, rhs, out, batches);
    }

    /* In double throughout. TFLite Micro's source (GetQuantizedConvolution-
       Multipler) multiplies the two scales in float, but the oracle (the
       tflite-micro wheel) multiplies in double: models whose two candidate
       multipliers give different outputs follow the double product. */
    const double real = (double)ta_scale(lhs) * (double)ta_scale(rhs) / (double)ta_scale(out);
    int32_t multiplier;
    int shift;
    if (!ta_requant(L, op, "output", real, wide ? TA_SHIFT_MAX_INT64 : TA_SHIFT_MAX_INT32,
                    &multiplier, &shift))
        return false;
    int32_t act_min, act_max; /* no fused activation: the type's range */
    ta_dtype_range(out->dtype, &act_min, &act_max);

    const int32_t lhs_offset = -ta_zero_point(lhs), rhs_offset = -ta_zero_point(rhs);
    int64_t lhs_bs[3], rhs_bs[3], term_bs[3];
    batch_strides(ld, (int64_t)m * k, lhs_bs);
    batch_strides(rd, (int64_t)k * n, rhs_bs);
    batch_strides(rd, n, term_bs);
    int64_t rhs_col_stride = a->adj_y ? k : 1, rhs_depth_stride = a->adj_y ? 1 : n;

    TaTensor *rhs_arg = rhs, *terms = NULL, *scratch = NULL;
    const bool rhs_const = rhs->role == TA_REGION_CONSTANT && rhs->data;
    if (rhs_const) {
        const size_t count = ta_tensor_elements(rhs);
        const size_t mat_size = (size_t)k * (size_t)n;
        const size_t mats = mat_size != 0 ? count / mat_size : 0;
        if (!a->adj_y && count) {
            /* Store [k, n] matrices as [n, k]. */
            void *t = ta_alloc_array(L->pool, count, wide ? 2 : 1);
            for (size_t b = 0; b < mats; b++)
                for (int32_t kk = 0; kk < k; kk++)
                    for (int32_t i = 0; i < n; i++) {
                        const size_t from = (b * (size_t)k + (size_t)kk) * (size_t)n + (size_t)i;
                        const size_t to = (b * (size_t)n + (size_t)i) * (size_t)k + (size_t)kk;
                        if (wide)
                            ((int16_t *)t)[to] = (int16_t)element(rhs, from);
                        else
                            ((int8_t *)t)[to] = (int8_t)element(rhs, from);
                    }
            rhs_arg = ta_local_constant(L, op, "rhs_t", rhs->dtype, (int32_t)count, t);
            ta_derived_from(rhs_arg, rhs);
            rhs_col_stride = k;
            rhs_depth_stride = 1;
        }
        if (!wide && lhs_offset != 0 && mats != 0 && n != 0) {
            /* lhs_offset * (sum_k r + k * rhs_offset) per column, modulo 2^32. */
            int32_t *v = ta_alloc_array(L->pool, mats * (size_t)n, sizeof(int32_t));
            for (size_t b = 0; b < mats; b++)
                for (int32_t i = 0; i < n; i++) {
                    int64_t sum = 0;
                    for (int32_t kk = 0; kk < k; kk++)
                        sum += element(
                            rhs, a->adj_y ? (b * (size_t)n + (size_t)i) * (size_t)k + (size_t)kk
                                          : (b * (size_t)k + (size_t)kk) * (size_t)n + (size_t)i);
                    const int64_t term = (int64_t)lhs_offset * (sum + (int64_t)k * rhs_offset);
                    v[b * (size_t)n + (size_t)i] = (int32_t)(uint32_t)(uint64_t)term;
                }
            terms = ta_local_constant(L, op, "col_terms", TA_INT32, (int32_t)(mats * (size_t)n), v);
            ta_derived_from(terms, rhs);
        }
    } else if (!wide && lhs_offset != 0) {
        scratch = ta_local_scratch(L, op, "col_terms", n * 4);
    }

    TaKernelCall *c = ta_call(L, op, wide ? "ta_batch_matmul_s16" : "ta_batch_matmul_s8",
                              "runtime/kernels/ta_batch_matmul.h");
    ta_batch_matmul_params_t *p = TA_CALL_PARAMS(L, c, ta_batch_matmul_params_t);
    for (int i = 0; i < 3; i++) {
        p->batch_dims[i] = od[i];
        p->lhs_batch_strides[i] = lhs_bs[i];
        p->rhs_batch_strides[i] = rhs_bs[i];
        p->col_term_strides[i] = term_bs[i];
    }
    p->rows = m;
    p->cols = n;
    p->depth = k;
    p->lhs_row_stride = a->adj_x ? 1 : k;
    p->lhs_depth_stride = a->adj_x ? m : 1;
    p->rhs_col_stride = rhs_col_stride;
    p->rhs_depth_stride = rhs_depth_stride;
    p->lhs_offset = lhs_offset;
    p->rhs_offset = rhs_offset;
    p->output_offset = ta_zero_point(out);
    p->multiplier = multiplier;
    p->shift = shift;
    p->activation_min = act_min;
    p->activation_max = act_max;
    ta_call_arg(L, c, lhs);
    ta_call_arg(L, c, rhs_arg);
    if (!wide) {
        ta_call_arg(L, c, terms);
        ta_call_arg(L, c, scratch);
    }
    ta_call_arg(L, c, out);

    op->lowered.has_macs = op->lowered.has_parameters = true;
    op->lowered.macs = batches * m * n * (int64_t)k;
    op->lowered.parameters = (lhs->role == TA_REGION_CONSTANT ? (int64_t)ta_tensor_elements(lhs)
                                                              : 0) +
                             (rhs_const ? (int64_t)ta_tensor_elements(rhs) : 0);
    return true;
}

const TaOpDef ta_op_batch_matmul = {parse, lower};
