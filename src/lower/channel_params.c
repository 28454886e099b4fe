/*
 * channel_params.c - the per-channel parameters of a layer whose weights
 * are stored coded, made compact too (runtime/kernels/ta_channel_params.h):
 * the requantization shifts as one byte a channel instead of four, and
 * DEPTHWISE_CONV_2D's unfolded bias, which the folded one and the decoded
 * taps give, not stored at all. A call after the weights' decode rebuilds
 * them into scratch, so the kernels read what they read before.
 *
 * Only where the weights are decoded anyway (a compressed model: its
 * constants stay near the compressed model's); dense modules keep the
 * int32 arrays, with no call.
 */
#include "weight_table.h"

#include <string.h>

/* Below this the call's own code and parameters outweigh the bytes saved. */
enum { MIN_SAVED = 64 };

/* The argument of call `c` that is `op`'s local int32 constant of this
   role ("op<N>.<role>"), or NULL. */
static TaTensor *local_constant_arg(const TaOp *op, const TaKernelCall *c, const char *role)
{
    const size_t n = strlen(role);
    for (int a = 0; a < c->args.len; a++) {
        TaTensor *t = c->args.items[a];
        if (!t || t->owner != op || t->role != TA_REGION_CONSTANT || t->dtype != TA_INT32 ||
            !t->data)
            continue;
        const size_t len = strlen(t->id);
        if (len > n && t->id[len - n - 1] == '.' && strcmp(t->id + len - n, role) == 0)
            return t;
    }
    return NULL;
}

/* Whether a call of `op` other than `c` reads `t` (the rebuilt copy is
   written right before `c` only). */
static bool read_elsewhere(const TaOp *op, const TaKernelCall *c, const TaTensor *t)
{
    for (int k = 0; k < op->lowered.calls.len; k++) {
        const TaKernelCall *other = op->lowered.calls.items[k];
        for (int a = 0; other != c && a < other->args.len; a++)
            if (other->args.items[a] == t)
                return true;
    }
    return false;
}

static int32_t channels_of(const TaTensor *t)
{
    return (int32_t)(t->data_size / sizeof(int32_t));
}

/* The shifts, when each fits a byte. */
static TaTensor *narrow_shifts(const TaOp *op, const TaKernelCall *c)
{
    TaTensor *s = local_constant_arg(op, c, "shifts");
    if (!s || read_elsewhere(op, c, s))
        return NULL;
    const int32_t *v = (const int32_t *)s->data;
    for (int32_t i = 0; i < channels_of(s); i++)
        if (v[i] < INT8_MIN || v[i] > INT8_MAX)
            return NULL;
    return s;
}

/* DEPTHWISE_CONV_2D's unfolded bias when the folded one, the dense
   weights (taps rows of the channels) and a zero point rebuild it
   exactly: checked here, value by value, as the kernel computes it. */
static TaTensor *rebuildable_bias(const TaOp *op, const TaKernelCall *c, const TaTensor *dense,
                                  TaTensor **bias_sum, int32_t *taps, int32_t *zero_point)
{
    if (op->builtin != TA_BUILTIN_DEPTHWISE_CONV_2D || c->args.len < 1 || !c->args.items[0])
        return NULL;
    TaTensor *bias = local_constant_arg(op, c, "bias");
    *bias_sum = local_constant_arg(op, c, "bias_sum");
    if (!bias || !*bias_sum || bias == *bias_sum || read_elsewhere(op, c, bias))
        return NULL;
    const int32_t channels = channels_of(bias);
    const size_t n = ta_tensor_bytes(dense);
    if (channels < 1 || channels_of(*bias_sum) != channels || n % (size_t)channels != 0)
        return NULL;
    *taps = (int32_t)(n / (size_t)channels);
    *zero_point = ta_zero_point(c->args.items[0]);
    const int32_t *plain = (const int32_t *)bias->data, *sum = (const int32_t *)(*bias_sum)->data;
    const int8_t *w = (const int8_t *)dense->data;
    for (int32_t o = 0; o < channels; o++) {
        uint32_t v = (uint32_t)sum[o];
        for (int32_t t = 0; t < *taps; t++)
            v += (uint32_t)*zero_point * (uint32_t)w[(size_t)t * (size_t)channels + (size_t)o];
        if ((int32_t)v != plain[o])
            return NULL;
    }
    return bias;
}

static void replace_arg(TaKernelCall *c, const TaTensor *from, TaTensor *to)
{
    for (int a = 0; a < c->args.len; a++)
        if (c->args.items[a] == from)
            c->args.items[a] = to;
}

TaKernelCall *ta_compact_channel_params(TaLower *L, TaOp *op, TaKernelCall *c,
                                        const TaTensor *dense, TaTensor *decoded)
{
    TaTensor *shifts = narrow_shifts(op, c);
    TaTensor *bias_sum = NULL;
    int32_t taps = 0, zero_point = 0;
    TaTensor *bias = rebuildable_bias(op, c, dense, &bias_sum, &taps, &zero_point);
    const int32_t channels = shifts ? channels_of(shifts) : bias ? channels_of(bias) : 0;
    if ((shifts && bias && channels_of(bias) != channels) ||
        (shifts ? 3 * channels : 0) + (bias ? 4 * channels : 0) < MIN_SAVED)
        return NULL;
    TaKernelCall *p = ta_alloc(L->pool, sizeof *p);
    p->role = "run";
    p->function = "ta_channel_params";
    p->header = "runtime/kernels/ta_channel_params.h";
    ta_channel_params_params_t *params = TA_CALL_PARAMS(L, p, ta_channel_params_params_t);
    params->channels = channels;
    params->taps = bias ? taps : 0;
    params->zero_point = bias ? zero_point : 0;
    TaTensor *shifts_s8 = NULL, *shifts_out = NULL, *bias_out = NULL;
    if (shifts) {
        int8_t *v = ta_alloc_array(L->pool, (size_t)channels, 1);
        for (int32_t i = 0; i < channels; i++)
            v[i] = (int8_t)((const int32_t *)shifts->data)[i];
        shifts_s8 = ta_local_constant(L, op, "shifts_s8", TA_INT8, channels, v);
        shifts_out = ta_local_scratch_of(L, op, "shifts_decoded", TA_INT32, channels);
        replace_arg(c, shifts, shifts_out);
    }
    if (bias) {
        bias_out = ta_local_scratch_of(L, op, "bias_decoded", TA_INT32, channels);
        replace_arg(c, bias, bias_out);
    }
    ta_call_arg(L, p, shifts_s8);
    ta_call_arg(L, p, bias ? bias_sum : NULL);
    ta_call_arg(L, p, bias ? decoded : NULL);
    ta_call_arg(L, p, shifts_out);
    ta_call_arg(L, p, bias_out);
    return p;
}
