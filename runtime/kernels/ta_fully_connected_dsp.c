/*
 * ta_fully_connected_dsp.c - FULLY_CONNECTED int8 with the DSP extension
 * (SIMD32: Cortex-M4/M7/M33): four rows per pass share each input word,
 * their sums requantized together, the four bytes one word store when
 * every shift is a right shift. Compiles to nothing on other cores.
 */
#include "ta_fully_connected_dsp.h"

#include "../include/ta_dw_simd.h"
#include "../include/ta_matmul_simd.h"
#include "../include/ta_quant.h"

#include <stddef.h>
#include <string.h>

#if defined(TA_MM_DSP)
/* ta_mm_requant_s8 of four sums whose shifts are all right shifts (nearly
   every layer): the 32-bit rounding of ta_dw_requantize_right, the full
   int8 range one SSAT, the four bytes one word store. Returns 0 (nothing
   stored) when a shift is not negative. */
static int requant4_right_dsp(const int32_t acc[4], const int32_t *multipliers,
                              const int32_t *shifts, const ta_fully_connected_params_t *p,
                              int8_t *out)
{
    int32_t v[4];
    for (int32_t k = 0; k < 4; k++) {
        const int32_t m = multipliers ? multipliers[k] : p->multiplier;
        const int32_t sh = shifts ? shifts[k] : p->shift;
        if (sh >= 0)
            return 0;
        v[k] = ta_dw_requantize_right(acc[k], m, sh) + p->output_offset;
    }
    if (p->activation_min == INT8_MIN && p->activation_max == INT8_MAX) {
        const uint32_t w = ta_dw_pack_bytes(__ssat(v[0], 8), __ssat(v[1], 8), __ssat(v[2], 8),
                                            __ssat(v[3], 8));
        memcpy(out, &w, 4);
        return 1;
    }
    for (int32_t k = 0; k < 4; k++)
        out[k] = (int8_t)ta_clamp_i32(v[k], p->activation_min, p->activation_max);
    return 1;
}

void ta_fully_connected_s8_groups_dsp(const ta_fully_connected_params_t *p, const int8_t *in,
                                      const int8_t *weights, const int32_t *bias_sum,
                                      const int32_t *multipliers, const int32_t *shifts,
                                      int8_t *out)
{
    static const int32_t zeros[4] = {0, 0, 0, 0};
    const int32_t depth = p->accum_depth, full = p->output_depth & ~3;
    for (int32_t o = 0; o < full; o += 4) {
        int32_t acc[4];
        memcpy(acc, bias_sum ? bias_sum + o : zeros, sizeof acc);
        ta_mm_dot4_s8(acc, weights + (size_t)o * (size_t)depth, depth, in, depth);
        /* per-channel arrays come in pairs */
        if (requant4_right_dsp(acc, multipliers && shifts ? multipliers + o : NULL,
                               multipliers && shifts ? shifts + o : NULL, p, out + o))
            continue;
        ta_mm_requant_s8(acc, 4, multipliers ? multipliers + o : NULL, shifts ? shifts + o : NULL,
                         p->multiplier, p->shift, p->output_offset, p->activation_min,
                         p->activation_max, out + o);
    }
}
#endif
