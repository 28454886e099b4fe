/* ta_rsqrt.c - see the header. */
#include "ta_rsqrt.h"

#include "../include/ta_inv_sqrt.h"
#include "../include/ta_status.h"

int ta_rsqrt_s16(const ta_rsqrt_params_t *p, const int16_t *input, int16_t *output)
{
    /* Checked before any write, so a rejected input leaves the output as
       it was even when it shares the input's bytes. */
    for (int32_t i = 0; i < p->size; i++)
        if (input[i] < 0)
            return TA_ERR_KERNEL;
    for (int32_t i = 0; i < p->size; i++)
        output[i] = (int16_t)ta_rsqrt_quantized(input[i], p->multiplier, p->shift, 0, INT16_MIN,
                                                INT16_MAX);
    return TA_OK;
}
