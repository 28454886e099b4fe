/* ta_logistic.c - integer LOGISTIC; see the header. */
#include "ta_logistic.h"

#include "../include/ta_status.h"
#include "ta_lookup.h"
#include "ta_sigmoid_table.h"

int ta_logistic_s8(const ta_logistic_params_t *p, const int8_t *input, const int8_t *table,
                   int8_t *output)
{
    ta_lookup_s8(p->size, input, table, output);
    return TA_OK;
}

int ta_logistic_s16(const ta_logistic_params_t *p, const int16_t *input, int16_t *output)
{
    const int shift = (int)p->input_left_shift;
    const int32_t round = shift > 0 ? (int32_t)1 << (shift - 1) : 0;
    for (int32_t i = 0; i < p->size; i++) {
        /* The converter bounds multiplier and shift so this cannot overflow. */
        const int32_t x = ((int32_t)input[i] * p->input_multiplier + round) >> shift;
        const uint32_t ax = (uint32_t)(x < 0 ? -x : x);
        /* 9 fraction bits between table entries. */
        const uint32_t index = ax >> 9;
        uint32_t r;
        if (index >= 255) {
            r = (uint32_t)0x7FFF << 10;
        } else {
            const uint32_t a = ta_sigmoid_table_u16[index];
            const uint32_t b = ta_sigmoid_table_u16[index + 1];
            r = (a << 9) + (ax & 0x1FF) * (b - a);
        }
        /* sigmoid(-x) = 1 - sigmoid(x), rounded as TFLite does. */
        r = x >= 0 ? r + (1u << 9) : (1u << 25) - r + (1u << 9) - 1;
        output[i] = (int16_t)(r >> 10);
    }
    return TA_OK;
}
