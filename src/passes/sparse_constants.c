/*
 * sparse_constants.c - SPARSE_CHANNELS, part 1: an output channel of an
 * int8 CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED whose weights are all
 * zero holds one value at every position. TFLite Micro's accumulator for
 * it is the bias alone (padding taps are skipped, and a zero weight adds
 * nothing whatever the input), so the value is the bias requantized with
 * the channel's multiplier, offset by the output zero point and clamped
 * to the fused activation's range, exactly as the kernel would.
 *
 * A reader that is a 1x1 CONV_2D (every output position reads one input
 * position, never padding) or a FULLY_CONNECTED over the channel
 * dimension adds (value - input zero point) * w[o][c] to its accumulator
 * for that channel: that goes into its bias (modulo 2^32, like the int32
 * accumulator), and its weights for the channel become zero, so that the
 * channel is read by nothing and sparse_live.c finds it dead. Readers with
 * a spatial window and padding (3x3 convolutions, depthwise, pooling) see
 * the padding value at the border instead of the constant: left alone.
 */
#include "sparse_channels.h"

#include "../../runtime/include/ta_quant.h"
#include "../lower/lower.h"
#include "../model/conv_options.h"

#include <string.h>

enum { FC_OPT_ACTIVATION = 0 };

static void quiet(void *user, int level, const char *line)
{
    (void)user;
    (void)level;
    (void)line;
}

/* The fused activation from the options table; false when unreadable
   (lowering reports it). */
static bool activation_of(TaPassCtx *ctx, TaDiag *d, const TaOp *op, int *act)
{
    TaFbReader r = {
        .buf = op->options_buf, .len = op->options_buf_len, .path = ctx->model_path, .diag = d};
    TaFbTable t = op->options_pos ? ta_fb_table_at(&r, op->options_pos) : (TaFbTable){.r = &r};
    if (op->builtin == TA_BUILTIN_FULLY_CONNECTED) {
        *act = ta_fb_i8(t, FC_OPT_ACTIVATION, 0);
        return !r.failed;
    }
    TaConvAttrs a;
    if (op->attrs) /* set by DEPTHWISE_TO_CONV or TRANSPOSE_REVERSE_CONV */
        a = *(const TaConvAttrs *)op->attrs;
    else if (!ta_conv_read_attrs(
                 t, op->builtin == TA_BUILTIN_CONV_2D ? &ta_conv_2d_fields : &ta_depthwise_fields,
                 &a))
        return false;
    *act = a.activation;
    return true;
}

static int64_t bias_at(const TaTensor *b, int32_t o)
{
    if (!b)
        return 0;
    if (b->dtype == TA_INT64) {
        int64_t v;
        memcpy(&v, b->data + (size_t)o * 8, 8);
        return v;
    }
    int32_t v;
    memcpy(&v, b->data + (size_t)o * 4, 4);
    return v;
}

static bool zero_channel(const TaSparseOp *so, int32_t o)
{
    const int8_t *w = (const int8_t *)so->weights->data;
    for (int32_t t = 0; t < so->taps; t++)
        if (so->depthwise) {
            if (w[(size_t)t * (size_t)so->depth + (size_t)o])
                return false;
        } else {
            for (int32_t c = 0; c < so->depth; c++)
                if (w[((size_t)o * (size_t)so->taps + (size_t)t) * (size_t)so->depth + (size_t)c])
                    return false;
        }
    return true;
}

/* The output value of every zero channel (*has true), as the kernel
   computes it; false when the operator is not int8 or its requantization
   is one lowering refuses. */
static bool constant_values(TaSparseGraph *s, TaOp *op, const TaSparseOp *so, int32_t *value,
                            bool *has)
{
    if (so->in->dtype != TA_INT8 || (so->bias && so->bias->dtype != TA_INT32))
        return false;
    TaDiag d = {.pool = s->ctx->pool, .sink = quiet};
    TaLower L = {.pool = s->ctx->pool, .diag = &d, .graph = s->g, .model_path = s->ctx->model_path};
    int act;
    int32_t lo, hi;
    if (!activation_of(s->ctx, &d, op, &act) ||
        !ta_activation_range(&L, op, act, so->out, &lo, &hi))
        return false;
    const TaQuant *wq = so->weights->quant;
    if (!wq || wq->num_scales < 1)
        return false;
    const int32_t channels = so->depthwise ? so->depth : so->rows;
    const int32_t out_zp = ta_zero_point(so->out);
    for (int32_t o = 0; o < channels; o++) {
        if (!(has[o] = zero_channel(so, o)))
            continue;
        const float ws = wq->scale[wq->num_scales > 1 ? o : 0];
        const double eff = (double)ta_scale(so->in) * (double)ws / (double)ta_scale(so->out);
        int32_t m;
        int shift;
        ta_quantize_multiplier(eff, &m, &shift);
        if (shift > TA_SHIFT_MAX_INT32 || !(ws >= 0.0f))
            return false;
        const int32_t acc = (int32_t)bias_at(so->bias, o);
        const int32_t v = ta_mul_by_quantized_multiplier(acc, m, shift) + out_zp;
        value[o] = v < lo ? lo : v > hi ? hi : v;
    }
    return true;
}

/* A bias the reader owns, made when the model gives none. */
static void give_bias(TaSparseGraph *s, TaOp *r, TaSparseOp *rs)
{
    if (rs->bias)
        return;
    int32_t dims[1] = {rs->rows};
    TaTensor *b = ta_graph_new_tensor(s->ctx->pool, s->g,
                                      ta_format(s->ctx->pool, "%s.sparse_bias", rs->weights->id),
                                      TA_INT32, 1, dims);
    b->role = TA_REGION_CONSTANT;
    b->data_size = (size_t)rs->rows * 4;
    b->data = ta_alloc_array(s->ctx->pool, b->data_size, 1);
    memset((void *)b->data, 0, b->data_size);
    b->derived_from = rs->weights;
    TaTensor **inputs = ta_alloc_array(s->ctx->pool, 3, sizeof(TaTensor *));
    inputs[0] = r->inputs[0];
    inputs[1] = r->inputs[1];
    inputs[2] = b;
    r->inputs = inputs;
    r->num_inputs = 3;
    rs->bias = b;
}

/* Folds constant input channel c (value v) of reader r into its bias;
   false when its weights never read the channel. */
static bool fold_into(TaSparseGraph *s, TaOp *r, TaSparseOp *rs, int32_t c, int32_t v)
{
    int8_t *w = (int8_t *)rs->weights->data;
    bool read = false;
    for (int32_t o = 0; o < rs->rows; o++)
        read |= w[(size_t)o * (size_t)rs->depth + (size_t)c] != 0;
    if (!read)
        return false;
    give_bias(s, r, rs);
    int32_t *b = (int32_t *)rs->bias->data;
    const int64_t x = (int64_t)v - ta_zero_point(rs->in);
    for (int32_t o = 0; o < rs->rows; o++) {
        int8_t *wc = &w[(size_t)o * (size_t)rs->depth + (size_t)c];
        b[o] = (int32_t)(uint32_t)((uint64_t)b[o] + (uint64_t)(x * *wc));
        *wc = 0;
    }
    return true;
}

/* Weights and bias copied out of the model's bytes before they change. */
static void own_data(TaPool *pool, TaTensor *t)
{
    if (!t)
        return;
    uint8_t *copy = ta_alloc_array(pool, t->data_size + 1, 1);
    memcpy(copy, t->data, t->data_size);
    t->data = copy;
}

static void own_operands(TaPool *pool, TaSparseOp *so)
{
    if (so->owned)
        return;
    own_data(pool, so->weights);
    own_data(pool, so->bias);
    so->owned = true;
}

static bool foldable_reader(const TaSparseOp *rs, const TaTensor *t)
{
    return rs->role == TA_SPARSE_ROWS && rs->one_by_one && rs->in == t &&
           rs->in->dtype == TA_INT8 && (!rs->bias || rs->bias->dtype == TA_INT32);
}

static int fold_producer(TaSparseGraph *s, int p)
{
    TaOp *op = TA_OP(s->g, p);
    const TaSparseOp *so = &s->ops[p];
    const int32_t channels = so->depthwise ? so->depth : so->rows;
    int32_t *value = ta_alloc_array(s->ctx->pool, (size_t)channels, sizeof(int32_t));
    bool *has = ta_alloc_array(s->ctx->pool, (size_t)channels, sizeof(bool));
    if (!constant_values(s, op, so, value, has))
        return 0;
    int folded = 0;
    for (int i = p + 1; i < s->g->ops.len; i++) {
        TaSparseOp *rs = &s->ops[i];
        if (!foldable_reader(rs, so->out))
            continue;
        TaOp *r = TA_OP(s->g, i);
        own_operands(s->ctx->pool, rs);
        for (int32_t c = 0; c < channels; c++)
            if (has[c] && fold_into(s, r, rs, c, value[c])) {
                r->rewrites.sparse_folded++;
                folded++;
            }
    }
    return folded;
}

int ta_sparse_fold_constants(TaSparseGraph *s)
{
    int folded = 0;
    for (int i = 0; i < s->g->ops.len; i++) {
        const TaSparseOp *so = &s->ops[i];
        if (so->role == TA_SPARSE_ROWS || so->depthwise)
            folded += fold_producer(s, i);
    }
    return folded;
}
