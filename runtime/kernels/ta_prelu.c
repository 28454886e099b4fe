/* ta_prelu.c - PRELU; see the header. */
#include "ta_prelu.h"

#include "../include/ta_quant.h"
#include "../include/ta_status.h"

static int32_t prelu_one(const ta_prelu_params_t *p, int32_t x, int32_t a, int32_t lo, int32_t hi)
{
    const int32_t v = p->input_offset + x;
    int32_t out;
    if (v >= 0)
        out = ta_mul_by_quantized_multiplier(v, p->multiplier_identity, (int)p->shift_identity);
    else
        out = ta_mul_by_quantized_multiplier(v * (p->alpha_offset + a), p->multiplier_alpha,
                                             (int)p->shift_alpha);
    return ta_clamp_i32(out + p->output_offset, lo, hi);
}

/* One innermost row of n outputs; the input and alpha start at element
   in_pos / a_pos and step by in_step / a_step elements. */
typedef void (*prelu_row_fn)(const ta_prelu_params_t *p, const void *input, int32_t in_pos,
                             int32_t in_step, const int8_t *alpha, void *output, int32_t out_pos,
                             int32_t n);

static void row_s8(const ta_prelu_params_t *p, const void *input, int32_t in_pos, int32_t in_step,
                   const int8_t *alpha, void *output, int32_t out_pos, int32_t n)
{
    const int8_t *in = (const int8_t *)input + in_pos;
    int8_t *out = (int8_t *)output + out_pos;
    const int32_t a_step = p->alpha_strides[p->rank - 1];
    for (int32_t j = 0; j < n; j++)
        out[j] = (int8_t)prelu_one(p, in[j * in_step], alpha[j * a_step], INT8_MIN, INT8_MAX);
}

static void row_s16(const ta_prelu_params_t *p, const void *input, int32_t in_pos, int32_t in_step,
                    const int8_t *alpha, void *output, int32_t out_pos, int32_t n)
{
    const int16_t *in = (const int16_t *)input + in_pos;
    int16_t *out = (int16_t *)output + out_pos;
    const int32_t a_step = p->alpha_strides[p->rank - 1];
    for (int32_t j = 0; j < n; j++)
        out[j] = (int16_t)prelu_one(p, in[j * in_step], alpha[j * a_step], INT16_MIN, INT16_MAX);
}

/* Runs `row` over the innermost dimension, odometer over the others. */
static int walk(const ta_prelu_params_t *p, const void *input, const int8_t *alpha, void *output,
                prelu_row_fn row)
{
    const int32_t rank = p->rank;
    if (rank < 1 || rank > TA_PRELU_MAX_RANK)
        return TA_ERR_KERNEL;
    const int32_t inner = p->dims[rank - 1];
    const int32_t in_step = p->input_strides[rank - 1];
    int32_t outer = 1;
    for (int32_t d = 0; d < rank - 1; d++)
        outer *= p->dims[d];

    int32_t index[TA_PRELU_MAX_RANK] = {0};
    int32_t in_pos = 0, a_pos = 0, out_pos = 0;
    for (int32_t o = 0; o < outer; o++) {
        row(p, input, in_pos, in_step, alpha + a_pos, output, out_pos, inner);
        out_pos += inner;
        /* Odometer over the outer dimensions, last one fastest. */
        for (int32_t d = rank - 2; d >= 0; d--) {
            in_pos += p->input_strides[d];
            a_pos += p->alpha_strides[d];
            if (++index[d] < p->dims[d])
                break;
            in_pos -= p->input_strides[d] * p->dims[d];
            a_pos -= p->alpha_strides[d] * p->dims[d];
            index[d] = 0;
        }
    }
    return TA_OK;
}

int ta_prelu_s8(const ta_prelu_params_t *p, const int8_t *input, const int8_t *alpha,
                int8_t *output)
{
    return walk(p, input, alpha, output, row_s8);
}

int ta_prelu_s16(const ta_prelu_params_t *p, const int16_t *input, const int8_t *alpha,
                 int16_t *output)
{
    return walk(p, input, alpha, output, row_s16);
}
