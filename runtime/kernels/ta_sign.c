/* ta_sign.c - SIGN on float32 and int32; see the header. */
#include "ta_sign.h"

#include "../include/ta_status.h"

/* A NaN is copied, bits and all (LiteRT's output keeps even a signalling
   NaN's payload); -0.0 gives 0.0. */
static float sign_f32(float x)
{
    if (x != x)
        return x;
    return (float)((x > 0.0f) - (x < 0.0f));
}

int ta_sign_f32(const ta_sign_params_t *p, const float *input, float *output)
{
    for (int32_t i = 0; i < p->size; i++)
        output[i] = sign_f32(input[i]);
    return TA_OK;
}

int ta_sign_i32(const ta_sign_params_t *p, const int32_t *input, int32_t *output)
{
    for (int32_t i = 0; i < p->size; i++)
        output[i] = (input[i] > 0) - (input[i] < 0);
    return TA_OK;
}
