/* ta_add_n.c - int8 ADD_N; see the header. */
#include "ta_add_n.h"

#include "../include/ta_quant.h"
#include "../include/ta_status.h"

/* An input value at the common scale. */
static int32_t scaled(const ta_add_n_s8_params_t *p, int32_t value)
{
    const int32_t shifted = (value + p->input_offset) * (1 << p->left_shift);
    return ta_mul_by_quantized_multiplier_lt_one(shifted, p->input_multiplier, p->input_shift);
}

/* sum + term with two's-complement wrap (no signed overflow). */
static int32_t add_wrap(int32_t sum, int32_t term)
{
    return (int32_t)((uint32_t)sum + (uint32_t)term);
}

int ta_add_n_s8_first(const ta_add_n_s8_params_t *p, const int8_t *input, void *scratch)
{
    int32_t *sum = (int32_t *)scratch;
    /* The reference's sum starts at the scaled offset: scaled(0). */
    const int32_t start = scaled(p, 0);
    for (int32_t i = 0; i < p->size; i++)
        sum[i] = add_wrap(start, scaled(p, input[i]));
    return TA_OK;
}

int ta_add_n_s8_accumulate(const ta_add_n_s8_params_t *p, const int8_t *input, void *scratch)
{
    int32_t *sum = (int32_t *)scratch;
    for (int32_t i = 0; i < p->size; i++)
        sum[i] = add_wrap(sum[i], scaled(p, input[i]));
    return TA_OK;
}

int ta_add_n_s8_finish(const ta_add_n_s8_params_t *p, const int8_t *input, void *scratch,
                       int8_t *output)
{
    const int32_t *sum = (const int32_t *)scratch;
    for (int32_t i = 0; i < p->size; i++) {
        const int32_t total = add_wrap(sum[i], scaled(p, input[i]));
        const int32_t raw = ta_mul_by_quantized_multiplier_lt_one(total, p->output_multiplier,
                                                                  p->output_shift) +
                            p->output_offset;
        output[i] = (int8_t)ta_clamp_i32(raw, p->activation_min, p->activation_max);
    }
    return TA_OK;
}
