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
 *
 * Through a depthwise layer (multiplier 1) a constant input channel stays a
 * constant where the layer's own arithmetic gives one value at every
 * output position: its accumulator there is the bias plus (value - input
 * zero point) times the sum of the weights of the taps inside the input,
 * so the border differs unless the value is the zero point, the padding is
 * never read, or requantization and clamping make them equal. Each such
 * channel is evaluated at every position at conversion and, when uniform,
 * folded into the 1x1 readers like a zero channel. Average and max
 * pooling pass every constant on (the mean or maximum of equal values,
 * clamped) when no window lies in the padding only.
 */
#include "sparse_channels.h"

#include "../../runtime/include/ta_quant.h"
#include "../lower/lower.h"
#include "../model/conv_options.h"

#include <math.h>
#include <string.h>

enum { FC_OPT_ACTIVATION = 0 };

static void quiet(void *user, int level, const char *line)
{
    (void)user;
    (void)level;
    (void)line;
}

/* The convolution's attributes from the options table; false when
   unreadable (lowering reports it). */
static bool conv_attrs_of(TaPassCtx *ctx, TaDiag *d, const TaOp *op, TaConvAttrs *a)
{
    if (op->attrs) { /* set by DEPTHWISE_TO_CONV or TRANSPOSE_REVERSE_CONV */
        *a = *(const TaConvAttrs *)op->attrs;
        return true;
    }
    TaFbReader r = {
        .buf = op->options_buf, .len = op->options_buf_len, .path = ctx->model_path, .diag = d};
    TaFbTable t = op->options_pos ? ta_fb_table_at(&r, op->options_pos) : (TaFbTable){.r = &r};
    return ta_conv_read_attrs(
        t, op->builtin == TA_BUILTIN_CONV_2D ? &ta_conv_2d_fields : &ta_depthwise_fields, a);
}

/* The fused activation from the options table; false when unreadable. */
static bool activation_of(TaPassCtx *ctx, TaDiag *d, const TaOp *op, int *act)
{
    if (op->builtin == TA_BUILTIN_FULLY_CONNECTED) {
        TaFbReader r = {
            .buf = op->options_buf, .len = op->options_buf_len, .path = ctx->model_path, .diag = d};
        TaFbTable t = op->options_pos ? ta_fb_table_at(&r, op->options_pos) : (TaFbTable){.r = &r};
        *act = ta_fb_i8(t, FC_OPT_ACTIVATION, 0);
        return !r.failed;
    }
    TaConvAttrs a;
    if (!conv_attrs_of(ctx, d, op, &a))
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

/* The taps [lo, hi) of a window that lie inside the input along one axis. */
typedef struct TapRange {
    int32_t lo, hi;
} TapRange;

/* The distinct tap ranges of a depthwise layer's windows, per axis: every
   output position takes one of each, so the layer's value over a constant
   input channel is uniform when it is over these pairs. */
typedef struct DwRanges {
    TapRange *rows, *cols;
    int32_t n_rows, n_cols, k_w;
} DwRanges;

/* Evaluating more pairs of ranges and taps than this a channel is not
   worth a conversion's time (a 3x3 window has at most 3 x 3 pairs). */
enum { DW_UNIFORM_WORK = 1 << 16 };
/* Sizes a model declares (a pool's window is only options): larger ones
   are not searched for ranges at all. */
enum { TAP_RANGES_MAX = 1 << 20 };

/* The distinct ranges along an axis of `in` positions (-1: too many to
   search): both ends fall as the output position grows, each at most k
   times, so there are at most 2k + 1. */
static int32_t tap_ranges(TaPool *pool, int32_t in, int32_t out, int32_t k, int32_t stride,
                          int32_t dilation, int32_t pad, TapRange **ranges)
{
    if (out > TAP_RANGES_MAX || k > TAP_RANGES_MAX)
        return -1;
    TapRange *r = ta_alloc_array(pool, (size_t)k * 2 + 1, sizeof(TapRange));
    int32_t n = 0;
    for (int32_t o = 0; o < out; o++) {
        const int64_t base = (int64_t)o * stride - pad;
        int64_t lo = base >= 0 ? 0 : (-base + dilation - 1) / dilation;
        int64_t hi = in > base ? (in - base + dilation - 1) / dilation : 0;
        hi = hi < k ? hi : k;
        lo = lo < hi ? lo : hi;
        /* Both ends only fall as o grows: a range never comes back. */
        if (n > 0 && r[n - 1].lo == lo && r[n - 1].hi == hi)
            continue;
        if (n == 2 * k + 1)
            return -1; /* cannot happen, by the above */
        r[n++] = (TapRange){(int32_t)lo, (int32_t)hi};
    }
    *ranges = r;
    return n;
}

enum { PADDING_SAME = 0, PADDING_VALID = 1 }; /* schema.fbs Padding */

/* The padding before the first position along one axis of a window over
   `in` positions giving `out` (TFLite's sizes; half the total padding,
   the odd one after); false when the options are bad or the sizes
   disagree (lowering reports both). */
static bool window_padding(int padding, int32_t in, int32_t out, int32_t filter, int32_t stride,
                           int32_t dilation, int32_t *pad)
{
    if ((padding != PADDING_SAME && padding != PADDING_VALID) || in < 1 || filter < 1 ||
        stride < 1 || dilation < 1)
        return false;
    const int64_t effective = ((int64_t)filter - 1) * dilation + 1;
    const int64_t size = padding == PADDING_SAME ? ((int64_t)in + stride - 1) / stride
                                                 : ((int64_t)in + stride - effective) / stride;
    if (size < 1 || size != out)
        return false;
    const int64_t total = (size - 1) * stride + effective - in;
    *pad = padding == PADDING_SAME && total > 0 ? (int32_t)(total / 2) : 0;
    return true;
}

/* False when the options, the window or the shapes disagree (lowering
   reports it) or the evaluation would cost too much. */
static bool dw_ranges_of(TaSparseGraph *s, TaDiag *d, const TaOp *op, const TaSparseOp *so,
                         DwRanges *dr)
{
    TaConvAttrs a;
    const int32_t in_h = so->in->dims[1], in_w = so->in->dims[2];
    const int32_t k_h = so->weights->dims[1], k_w = so->weights->dims[2];
    const int32_t out_h = so->out->dims[1], out_w = so->out->dims[2];
    int32_t pad_h, pad_w;
    if (!conv_attrs_of(s->ctx, d, op, &a) ||
        !window_padding(a.padding, in_h, out_h, k_h, a.stride_h, a.dilation_h, &pad_h) ||
        !window_padding(a.padding, in_w, out_w, k_w, a.stride_w, a.dilation_w, &pad_w))
        return false;
    dr->k_w = k_w;
    dr->n_rows = tap_ranges(s->ctx->pool, in_h, out_h, k_h, a.stride_h, a.dilation_h, pad_h,
                            &dr->rows);
    dr->n_cols = tap_ranges(s->ctx->pool, in_w, out_w, k_w, a.stride_w, a.dilation_w, pad_w,
                            &dr->cols);
    return dr->n_rows >= 0 && dr->n_cols >= 0 &&
           (int64_t)dr->n_rows * dr->n_cols * k_h * k_w <= DW_UNIFORM_WORK;
}

/* The requantized, clamped output of accumulator acc, as the kernel gives it. */
typedef struct ChannelRequant {
    int32_t multiplier, out_zp, lo, hi;
    int shift;
} ChannelRequant;

static int32_t requantized(const ChannelRequant *q, int64_t acc)
{
    const int32_t v = ta_mul_by_quantized_multiplier((int32_t)(uint32_t)(uint64_t)acc,
                                                     q->multiplier, q->shift) +
                      q->out_zp;
    return v < q->lo ? q->lo : v > q->hi ? q->hi : v;
}

/* Depthwise channel o over an input channel constant at x (less the input
   zero point): its value when every output position gives the same one.
   TFLite Micro sums the taps inside the input only. */
static bool depthwise_uniform(const TaSparseOp *so, const DwRanges *dr, const ChannelRequant *q,
                              int32_t o, int64_t x, int32_t *value)
{
    const int8_t *w = (const int8_t *)so->weights->data;
    const int64_t bias = bias_at(so->bias, o);
    for (int32_t i = 0; i < dr->n_rows; i++)
        for (int32_t j = 0; j < dr->n_cols; j++) {
            int64_t sum = 0;
            for (int32_t ky = dr->rows[i].lo; ky < dr->rows[i].hi; ky++)
                for (int32_t kx = dr->cols[j].lo; kx < dr->cols[j].hi; kx++)
                    sum += w[((size_t)ky * (size_t)dr->k_w + (size_t)kx) * (size_t)so->depth +
                             (size_t)o];
            const int32_t v = requantized(q, bias + x * sum);
            if ((i || j) && v != *value)
                return false;
            *value = v;
        }
    return dr->n_rows > 0 && dr->n_cols > 0;
}

/* The output value of every constant channel (*has true), as the kernel
   computes it: the zero channels, and a depthwise layer's channels over
   constant input channels (in_has, in_value; NULL: none) where uniform.
   False when the operator is not int8 or its requantization is one
   lowering refuses. */
static bool constant_values(TaSparseGraph *s, TaOp *op, const TaSparseOp *so, const bool *in_has,
                            const int32_t *in_value, int32_t *value, bool *has)
{
    if (so->in->dtype != TA_INT8 || (so->bias && so->bias->dtype != TA_INT32))
        return false;
    TaDiag d = {.pool = s->ctx->pool, .sink = quiet};
    TaLower L = {.pool = s->ctx->pool, .diag = &d, .graph = s->g, .model_path = s->ctx->model_path};
    int act;
    ChannelRequant q = {.out_zp = ta_zero_point(so->out)};
    if (!activation_of(s->ctx, &d, op, &act) ||
        !ta_activation_range(&L, op, act, so->out, &q.lo, &q.hi))
        return false;
    const TaQuant *wq = so->weights->quant;
    if (!wq || wq->num_scales < 1)
        return false;
    DwRanges dr;
    if (in_has && !(so->depthwise && dw_ranges_of(s, &d, op, so, &dr)))
        in_has = NULL;
    const int32_t channels = so->depthwise ? so->depth : so->rows;
    for (int32_t o = 0; o < channels; o++) {
        const bool zero = zero_channel(so, o);
        has[o] = false;
        if (!zero && !(in_has && in_has[o]))
            continue;
        const float ws = wq->scale[wq->num_scales > 1 ? o : 0];
        const double eff = (double)ta_scale(so->in) * (double)ws / (double)ta_scale(so->out);
        ta_quantize_multiplier(eff, &q.multiplier, &q.shift);
        if (q.shift > TA_SHIFT_MAX_INT32 || !(ws >= 0.0f))
            return false;
        if (zero) {
            value[o] = requantized(&q, bias_at(so->bias, o));
            has[o] = true;
        } else {
            has[o] = depthwise_uniform(so, &dr, &q, o, (int64_t)in_value[o] - ta_zero_point(so->in),
                                       &value[o]);
        }
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

/* Per tensor index, the constant channels its writer gave (NULL: none). */
typedef struct ConstantChannels {
    bool **has;
    int32_t **value;
} ConstantChannels;

/* Folds the constant channels (has, value) of tensor t, written by
   operator p, into the 1x1 readers after it; returns how many. */
static int fold_readers(TaSparseGraph *s, int p, const TaTensor *t, const bool *has,
                        const int32_t *value)
{
    const int32_t channels = ta_sparse_channels(t);
    int folded = 0;
    for (int i = p + 1; i < s->g->ops.len; i++) {
        TaSparseOp *rs = &s->ops[i];
        if (!foldable_reader(rs, t))
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

static int fold_producer(TaSparseGraph *s, int p, ConstantChannels *known)
{
    TaOp *op = TA_OP(s->g, p);
    const TaSparseOp *so = &s->ops[p];
    const int32_t channels = so->depthwise ? so->depth : so->rows;
    int32_t *value = ta_alloc_array(s->ctx->pool, (size_t)channels, sizeof(int32_t));
    bool *has = ta_alloc_array(s->ctx->pool, (size_t)channels, sizeof(bool));
    const int in = so->in->index;
    if (!constant_values(s, op, so, known->has[in], known->value[in], value, has))
        return 0;
    known->has[so->out->index] = has;
    known->value[so->out->index] = value;
    return fold_readers(s, p, so->out, has, value);
}

enum {
    POOL_OPT_PADDING = 0,
    POOL_OPT_STRIDE_W,
    POOL_OPT_STRIDE_H,
    POOL_OPT_FILTER_W,
    POOL_OPT_FILTER_H,
    POOL_OPT_ACTIVATION
};

/* AVERAGE_POOL_2D or MAX_POOL_2D over constant input channels: TFLite
   Micro takes the maximum, or the rounded mean, of the window's taps
   inside the input, which is the constant itself when every window has
   one, then clamps it to the fused activation's range (a pool keeps the
   input's quantization). */
static int fold_pool(TaSparseGraph *s, int p, ConstantChannels *known)
{
    TaOp *op = TA_OP(s->g, p);
    const TaTensor *in = op->inputs[0], *out = op->outputs[0];
    const bool *in_has = known->has[in->index];
    if (!in_has || in->rank != 4 || out->rank != 4 || ta_zero_point(in) != ta_zero_point(out) ||
        fabs((double)ta_scale(in) - (double)ta_scale(out)) > 1.0e-6)
        return 0;
    TaDiag d = {.pool = s->ctx->pool, .sink = quiet};
    TaLower L = {.pool = s->ctx->pool, .diag = &d, .graph = s->g, .model_path = s->ctx->model_path};
    TaFbReader r = {
        .buf = op->options_buf, .len = op->options_buf_len, .path = s->ctx->model_path, .diag = &d};
    TaFbTable t = op->options_pos ? ta_fb_table_at(&r, op->options_pos) : (TaFbTable){.r = &r};
    const int padding = ta_fb_i8(t, POOL_OPT_PADDING, PADDING_SAME);
    const int32_t stride_w = ta_fb_i32(t, POOL_OPT_STRIDE_W, 0);
    const int32_t stride_h = ta_fb_i32(t, POOL_OPT_STRIDE_H, 0);
    const int32_t filter_w = ta_fb_i32(t, POOL_OPT_FILTER_W, 0);
    const int32_t filter_h = ta_fb_i32(t, POOL_OPT_FILTER_H, 0);
    const int act = ta_fb_i8(t, POOL_OPT_ACTIVATION, TA_ACT_NONE);
    const int32_t out_h = out->dims[1], out_w = out->dims[2];
    int32_t pad_h, pad_w, lo, hi;
    if (r.failed || !window_padding(padding, in->dims[1], out_h, filter_h, stride_h, 1, &pad_h) ||
        !window_padding(padding, in->dims[2], out_w, filter_w, stride_w, 1, &pad_w) ||
        !ta_activation_range(&L, op, act, out, &lo, &hi))
        return 0;
    TapRange *rows, *cols;
    const int32_t n_rows = tap_ranges(s->ctx->pool, in->dims[1], out_h, filter_h, stride_h, 1,
                                      pad_h, &rows);
    const int32_t n_cols = tap_ranges(s->ctx->pool, in->dims[2], out_w, filter_w, stride_w, 1,
                                      pad_w, &cols);
    if (n_rows < 1 || n_cols < 1)
        return 0;
    for (int32_t i = 0; i < n_rows; i++)
        if (rows[i].lo == rows[i].hi)
            return 0; /* a window of padding only */
    for (int32_t j = 0; j < n_cols; j++)
        if (cols[j].lo == cols[j].hi)
            return 0;
    const int32_t channels = ta_sparse_channels(out);
    const int32_t *in_value = known->value[in->index];
    bool *has = ta_alloc_array(s->ctx->pool, (size_t)channels, sizeof(bool));
    int32_t *value = ta_alloc_array(s->ctx->pool, (size_t)channels, sizeof(int32_t));
    for (int32_t c = 0; c < channels; c++) {
        has[c] = in_has[c];
        value[c] = in_value[c] < lo ? lo : in_value[c] > hi ? hi : in_value[c];
    }
    known->has[out->index] = has;
    known->value[out->index] = value;
    return fold_readers(s, p, out, has, value);
}

static bool is_pool(const TaOp *op)
{
    return op->builtin == TA_BUILTIN_AVERAGE_POOL_2D || op->builtin == TA_BUILTIN_MAX_POOL_2D;
}

int ta_sparse_fold_constants(TaSparseGraph *s)
{
    const size_t n = (size_t)s->g->tensors.len + 1;
    ConstantChannels known = {.has = ta_alloc_array(s->ctx->pool, n, sizeof(bool *)),
                              .value = ta_alloc_array(s->ctx->pool, n, sizeof(int32_t *))};
    int folded = 0;
    for (int i = 0; i < s->g->ops.len; i++) {
        const TaSparseOp *so = &s->ops[i];
        if (so->role == TA_SPARSE_ROWS || so->depthwise)
            folded += fold_producer(s, i, &known);
        else if (so->role == TA_SPARSE_CHANNELWISE && is_pool(TA_OP(s->g, i)))
            folded += fold_pool(s, i, &known);
    }
    return folded;
}
