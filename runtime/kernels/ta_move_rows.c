/* ta_move_rows.c - see the header. */
#include "ta_move_rows.h"

#include <string.h>

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1) && !defined(TA_NO_SIMD)
#include <arm_mve.h>

/* Forward, 32 bytes a step: a step stores below the bytes it loaded
   (to <= from), so every byte it overwrites was already read. */
void ta_move_rows(int8_t *to, const int8_t *from, size_t n)
{
    for (; n >= 32; n -= 32, to += 32, from += 32) {
        const int8x16_t a = vldrbq_s8(from), b = vldrbq_s8(from + 16);
        vstrbq_s8(to, a);
        vstrbq_s8(to + 16, b);
    }
    if (n > 0) { /* under 32 bytes: two predicated steps */
        const mve_pred16_t first = vctp8q((uint32_t)n);
        const mve_pred16_t second = vctp8q(n > 16 ? (uint32_t)(n - 16) : 0u);
        const int8x16_t a = vldrbq_z_s8(from, first), b = vldrbq_z_s8(from + 16, second);
        vstrbq_p_s8(to, a, first);
        vstrbq_p_s8(to + 16, b, second);
    }
}
#else
void ta_move_rows(int8_t *to, const int8_t *from, size_t n)
{
    memmove(to, from, n);
}
#endif
