/*
 * fold_shapes.c - FOLD_STATIC_SHAPE_EXPRESSIONS.
 *
 * Converters often emit shape arithmetic: SHAPE of a tensor, then
 * STRIDED_SLICE, PACK, CONCATENATION, GATHER, CAST or integer ADD/SUB/MUL
 * on the result, feeding the shape operand of a RESHAPE. Every shape in the
 * model is static, so such an expression is a constant: this pass computes
 * it here, makes its result a constant tensor and removes the operators.
 * Only small (at most 64 elements) int32/int64 vectors are folded; anything
 * else is left for lowering to handle or reject.
 */
#include "transforms.h"

#include "../lower/ops.h"

#include "../model/fb.h"

#include <string.h>

enum { OP_SHAPE = 77 }; /* folded here, never lowered: not in ops.def */

enum { MAX_ELEMS = 64 };

/* A small integer vector being folded. */
typedef struct Vec {
    int n;
    int64_t v[MAX_ELEMS];
} Vec;

static bool is_int(const TaTensor *t)
{
    return t->dtype == TA_INT32 || t->dtype == TA_INT64;
}

static bool read_vec(const TaTensor *t, Vec *out)
{
    size_t n = ta_tensor_elements(t);
    if (t->role != TA_REGION_CONSTANT || !t->data || !is_int(t) || n > MAX_ELEMS)
        return false;
    out->n = (int)n;
    for (size_t i = 0; i < n; i++) {
        if (t->dtype == TA_INT32) {
            int32_t x;
            memcpy(&x, t->data + i * 4, 4);
            out->v[i] = x;
        } else {
            memcpy(&out->v[i], t->data + i * 8, 8);
        }
    }
    return true;
}

/* Makes `t` a constant holding `v` in its own dtype. */
static void make_constant(TaPassCtx *ctx, TaTensor *t, const Vec *v)
{
    size_t size = ta_dtype_size(t->dtype);
    uint8_t *data = ta_alloc(ctx->pool, (size_t)v->n * size + 1);
    for (int i = 0; i < v->n; i++) {
        if (t->dtype == TA_INT32) {
            int32_t x = (int32_t)v->v[i];
            memcpy(data + (size_t)i * 4, &x, 4);
        } else {
            memcpy(data + (size_t)i * 8, &v->v[i], 8);
        }
    }
    t->data = data;
    t->data_size = (size_t)v->n * size;
    t->role = TA_REGION_CONSTANT;
}

static TaFbTable options(TaOp *op, TaFbReader *r, TaPassCtx *ctx)
{
    *r = (TaFbReader){.buf = op->options_buf,
                      .len = op->options_buf_len,
                      .path = ctx->model_path,
                      .diag = ctx->diag};
    return op->options_pos ? ta_fb_table_at(r, op->options_pos) : (TaFbTable){.r = r};
}

/* 1-D strided slice with TFLite's begin/end/mask/shrink rules. */
static bool strided_slice(TaPassCtx *ctx, TaOp *op, const Vec *in, Vec *out)
{
    Vec b, e, s;
    if (op->num_inputs != 4 || !read_vec(op->inputs[1], &b) || !read_vec(op->inputs[2], &e) ||
        !read_vec(op->inputs[3], &s) || b.n != 1 || e.n != 1 || s.n != 1 ||
        op->inputs[0]->rank != 1 || s.v[0] == 0)
        return false;
    TaFbReader r;
    TaFbTable t = options(op, &r, ctx);
    int begin_mask = ta_fb_i32(t, 0, 0), end_mask = ta_fb_i32(t, 1, 0);
    int ellipsis = ta_fb_i32(t, 2, 0), new_axis = ta_fb_i32(t, 3, 0);
    int shrink = ta_fb_i32(t, 4, 0);
    if (r.failed || ellipsis || new_axis)
        return false;
    int64_t size = in->n, stride = s.v[0];
    int64_t start = (begin_mask & 1) ? (stride > 0 ? 0 : size - 1) : b.v[0];
    if (start < 0)
        start += size;
    start = stride > 0 ? (start < 0      ? 0
                          : start > size ? size
                                         : start)
                       : (start < -1         ? -1
                          : start > size - 1 ? size - 1
                                             : start);
    int64_t stop;
    if (shrink & 1) {
        stop = start + 1;
    } else {
        stop = (end_mask & 1) ? (stride > 0 ? size : -1) : e.v[0];
        if (!(end_mask & 1) && stop < 0)
            stop += size;
        stop = stride > 0 ? (stop < 0      ? 0
                             : stop > size ? size
                                           : stop)
                          : (stop < -1         ? -1
                             : stop > size - 1 ? size - 1
                                               : stop);
    }
    out->n = 0;
    for (int64_t i = start; stride > 0 ? i < stop : i > stop; i += stride)
        if (i >= 0 && i < size && out->n < MAX_ELEMS)
            out->v[out->n++] = in->v[i];
    return true;
}

static bool binary(TaOp *op, Vec *out)
{
    Vec a, b;
    if (op->num_inputs != 2 || !read_vec(op->inputs[0], &a) || !read_vec(op->inputs[1], &b))
        return false;
    if (a.n != b.n && a.n != 1 && b.n != 1)
        return false;
    /* TFLite's broadcasting: a one-element side takes the other's length,
       so an empty vector with a one-element one gives an empty vector
       (never a read of the empty side's first element). */
    out->n = a.n == 1 ? b.n : a.n;
    for (int i = 0; i < out->n; i++) {
        int64_t x = a.v[a.n == 1 ? 0 : i], y = b.v[b.n == 1 ? 0 : i];
        out->v[i] = op->builtin == TA_BUILTIN_ADD   ? x + y
                    : op->builtin == TA_BUILTIN_SUB ? x - y
                                                    : x * y;
    }
    return true;
}

/* Concatenates the (1-D or scalar) inputs: PACK of scalars and
   CONCATENATION of vectors both come down to this. */
static bool join(TaOp *op, Vec *out)
{
    out->n = 0;
    for (int k = 0; k < op->num_inputs; k++) {
        Vec v;
        if (!op->inputs[k] || !read_vec(op->inputs[k], &v) || op->inputs[k]->rank > 1 ||
            out->n + v.n > MAX_ELEMS)
            return false;
        memcpy(out->v + out->n, v.v, (size_t)v.n * sizeof v.v[0]);
        out->n += v.n;
    }
    return true;
}

static bool gather(TaOp *op, Vec *out)
{
    Vec p, idx;
    if (op->num_inputs != 2 || !read_vec(op->inputs[0], &p) || !read_vec(op->inputs[1], &idx) ||
        op->inputs[0]->rank != 1)
        return false;
    out->n = idx.n;
    for (int i = 0; i < idx.n; i++) {
        if (idx.v[i] < 0 || idx.v[i] >= p.n)
            return false;
        out->v[i] = p.v[idx.v[i]];
    }
    return true;
}

/* Evaluates one operator if it is shape arithmetic on constants. */
static bool evaluate(TaPassCtx *ctx, TaOp *op, Vec *out)
{
    if (op->num_outputs != 1 || !is_int(op->outputs[0]))
        return false;
    Vec in;
    switch (op->builtin) {
    case OP_SHAPE: {
        const TaTensor *t = op->inputs[0];
        if (op->num_inputs != 1 || !t || t->rank > MAX_ELEMS)
            return false;
        out->n = t->rank;
        for (int i = 0; i < t->rank; i++)
            out->v[i] = t->dims[i];
        return true;
    }
    case TA_BUILTIN_STRIDED_SLICE:
        return op->inputs[0] && read_vec(op->inputs[0], &in) && strided_slice(ctx, op, &in, out);
    case TA_BUILTIN_ADD:
    case TA_BUILTIN_SUB:
    case TA_BUILTIN_MUL: return binary(op, out);
    case TA_BUILTIN_PACK:
    case TA_BUILTIN_CONCATENATION: return join(op, out);
    case TA_BUILTIN_GATHER: return gather(op, out);
    case TA_BUILTIN_CAST:
    case TA_BUILTIN_RESHAPE:
    case TA_BUILTIN_SQUEEZE:
    case TA_BUILTIN_EXPAND_DIMS: return op->inputs[0] && read_vec(op->inputs[0], out);
    default: return false;
    }
}

bool ta_pass_fold_static_shapes(TaPassCtx *ctx)
{
    TaGraph *g = ctx->graph;
    for (int i = 0; i < g->ops.len; i++) {
        TaOp *op = TA_OP(g, i);
        Vec v;
        if (op->removed || !evaluate(ctx, op, &v))
            continue;
        TaTensor *out = op->outputs[0];
        /* A model output stays computed: the application reads it. */
        if (out->output_index >= 0 || (size_t)v.n != ta_tensor_elements(out))
            continue;
        make_constant(ctx, out, &v);
        op->removed = true;
    }
    return true;
}
