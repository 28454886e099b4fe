/* ta_channel_params.c - compact per-channel parameters rebuilt; see the header. */
#include "ta_channel_params.h"

#include "../include/ta_status.h"

int ta_channel_params(const ta_channel_params_params_t *p, const int8_t *shifts_s8,
                      const int32_t *bias_sum, const int8_t *weights, int32_t *shifts,
                      int32_t *bias)
{
    const int32_t channels = p->channels;
    if (shifts_s8)
        for (int32_t c = 0; c < channels; c++)
            shifts[c] = shifts_s8[c];
    /* unsigned: the folding wraps modulo 2^32 as the lowering's did */
    for (int32_t c = 0; c < channels && p->taps > 0; c++) {
        const int8_t *w = weights + c;
        uint32_t sum = (uint32_t)*w;
        for (int32_t t = 1; t < p->taps; t++)
            sum += (uint32_t) * (w += channels);
        bias[c] = (int32_t)((uint32_t)bias_sum[c] + (uint32_t)p->zero_point * sum);
    }
    return TA_OK;
}
