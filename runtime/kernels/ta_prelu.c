/* ta_prelu.c - PRELU; see the header. */
#include "ta_prelu.h"

#include "../include/ta_quant.h"
#include "../include/ta_status.h"

static int8_t prelu_one(const ta_prelu_params_t *p, int32_t x, int32_t a)
{
    const int32_t v = p->input_offset + x;
    int32_t out;
    if (v >= 0)
        out = ta_mul_by_quantized_multiplier(v, p->multiplier_identity, (int)p->shift_identity);
    else
        out = ta_mul_by_quantized_multiplier(v * (p->alpha_offset + a), p->multiplier_alpha,
                                             (int)p->shift_alpha);
    return (int8_t)ta_clamp_i32(out + p->output_offset, INT8_MIN, INT8_MAX);
}

int ta_prelu_s8(const ta_prelu_params_t *p, const int8_t *input, const int8_t *alpha,
                int8_t *output)
{
    const int32_t rank = p->rank;
    if (rank < 1 || rank > TA_PRELU_MAX_RANK)
        return TA_ERR_KERNEL;
    const int32_t inner = p->dims[rank - 1];
    const int32_t in_step = p->input_strides[rank - 1];
    const int32_t a_step = p->alpha_strides[rank - 1];
    int32_t outer = 1;
    for (int32_t d = 0; d < rank - 1; d++)
        outer *= p->dims[d];

    int32_t index[TA_PRELU_MAX_RANK] = {0};
    int32_t in_pos = 0, a_pos = 0;
    for (int32_t o = 0; o < outer; o++) {
        for (int32_t j = 0; j < inner; j++)
            output[j] = prelu_one(p, input[in_pos + j * in_step], alpha[a_pos + j * a_step]);
        output += inner;
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
