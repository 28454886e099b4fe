/* ta_lookup.c - table lookup; see the header. Helium gathers 16 table
   bytes per instruction; elsewhere it is one load per element. */
#include "ta_lookup.h"

#include "../include/ta_elementwise_simd.h"

void ta_lookup_s8(int32_t size, const int8_t *input, const int8_t *table, int8_t *output)
{
#if defined(TA_EW_MVE)
    for (int32_t n = size; n > 0; n -= 16) {
        const mve_pred16_t pred = vctp8q((uint32_t)n);
        const uint8x16_t index = vldrbq_z_u8((const uint8_t *)input, pred);
        vstrbq_p_s8(output, vldrbq_gather_offset_z_s8(table, index, pred), pred);
        input += 16;
        output += 16;
    }
#else
    const uint8_t *in = (const uint8_t *)input;
    for (int32_t i = 0; i < size; i++)
        output[i] = table[in[i]];
#endif
}
