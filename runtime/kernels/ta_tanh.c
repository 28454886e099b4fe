/* ta_tanh.c - integer TANH; see the header. */
#include "ta_tanh.h"

#include "../include/ta_status.h"
#include "ta_lookup.h"
#include "ta_sigmoid_table.h"

int ta_tanh_s8(const ta_tanh_params_t *p, const int8_t *input, const int8_t *table, int8_t *output)
{
    ta_lookup_s8(p->size, input, table, output);
    return TA_OK;
}

int ta_tanh_s16(const ta_tanh_params_t *p, const int16_t *input, int16_t *output)
{
    const int shift = (int)p->input_left_shift;
    const int32_t round = shift > 0 ? (int32_t)1 << (shift - 1) : 0;
    for (int32_t i = 0; i < p->size; i++) {
        /* The converter bounds multiplier and shift so this cannot overflow. */
        const int32_t x = ((int32_t)input[i] * p->input_multiplier + round) >> shift;
        const uint32_t ax = (uint32_t)(x < 0 ? -x : x);
        /* 8 fraction bits between table entries: the table is read at 2x. */
        const uint32_t index = ax >> 8;
        int32_t r;
        if (index >= 255) {
            r = 0xFFFF << 8;
        } else {
            const uint32_t a = ta_sigmoid_table_u16[index];
            const uint32_t b = ta_sigmoid_table_u16[index + 1];
            r = (int32_t)((a << 8) + (ax & 0xFF) * (b - a));
        }
        /* 2 * sigmoid - 1, mirrored for negative x, rounded as TFLite. */
        r = x >= 0 ? r - (1 << 23) + (1 << 7) : -r + (1 << 23) + (1 << 7) - 1;
        output[i] = (int16_t)(r >> 8);
    }
    return TA_OK;
}
