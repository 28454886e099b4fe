/* ta_add_n_f32.c - float32 ADD_N; see the header. */
#include "ta_add_n_f32.h"

#include "../include/ta_status.h"

int ta_add_n_f32_first(const ta_add_n_f32_params_t *p, const float *input, float *output)
{
    for (int32_t i = 0; i < p->size; i++)
        output[i] = 0.0f + input[i];
    return TA_OK;
}

int ta_add_n_f32_accumulate(const ta_add_n_f32_params_t *p, const float *input, float *output)
{
    for (int32_t i = 0; i < p->size; i++)
        output[i] += input[i];
    return TA_OK;
}
