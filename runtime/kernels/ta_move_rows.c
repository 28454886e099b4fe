/* ta_move_rows.c - see the header. */
#include "ta_move_rows.h"

#include <string.h>

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1) && !defined(TA_NO_SIMD)
#include <arm_mve.h>

/* Forward, 64 bytes a step, then 16: a step stores below the bytes it
   loaded (to <= from), so every byte it overwrites was already read. */
void ta_move_rows(int8_t *to, const int8_t *from, size_t n)
{
    const size_t steps = n / 64;
    if (steps > 0) {
        /* a low-overhead loop, the pointers stepped by the loads and
           stores: 9 instructions a step, against 12 from C */
        /* clang-format off */
        __asm volatile("   dls      lr, %[c]\n"
                       "1: vldrb.8  q0, [%[f]], #16\n"
                       "   vldrb.8  q1, [%[f]], #16\n"
                       "   vldrb.8  q2, [%[f]], #16\n"
                       "   vldrb.8  q3, [%[f]], #16\n"
                       "   vstrb.8  q0, [%[t]], #16\n"
                       "   vstrb.8  q1, [%[t]], #16\n"
                       "   vstrb.8  q2, [%[t]], #16\n"
                       "   vstrb.8  q3, [%[t]], #16\n"
                       "   le       lr, 1b\n"
                       : [t] "+r"(to), [f] "+r"(from)
                       : [c] "r"(steps)
                       : "q0", "q1", "q2", "q3", "lr", "memory");
        /* clang-format on */
        n %= 64;
    }
    for (; n >= 16; n -= 16, to += 16, from += 16)
        vstrbq_s8(to, vldrbq_s8(from));
    if (n > 0) { /* under 16 bytes: one predicated step */
        const mve_pred16_t lanes = vctp8q((uint32_t)n);
        vstrbq_p_s8(to, vldrbq_z_s8(from, lanes), lanes);
    }
}
#elif defined(__ARM_FEATURE_DSP) && !defined(TA_NO_SIMD)
/* From word-aligned ends (row buffers' rows mostly are): forward, 32 bytes
   a step as two LDM/STM pairs of four registers (each pair's stores below
   the bytes it loaded), about a quarter of memmove's instructions; the
   rest, or everything from other ends, by memmove. */
void ta_move_rows(int8_t *to, const int8_t *from, size_t n)
{
    size_t steps = ((uintptr_t)to | (uintptr_t)from) % 4u == 0 ? n / 32 : 0;
    if (steps > 0) {
        n %= 32;
        /* clang-format off */
        __asm volatile("1:\n"
                       "   ldmia    %[f]!, {r3, r4, r5, r6}\n"
                       "   stmia    %[t]!, {r3, r4, r5, r6}\n"
                       "   ldmia    %[f]!, {r3, r4, r5, r6}\n"
                       "   stmia    %[t]!, {r3, r4, r5, r6}\n"
                       "   subs     %[c], %[c], #1\n"
                       "   bne      1b\n"
                       : [t] "+r"(to), [f] "+r"(from), [c] "+r"(steps)
                       :
                       : "r3", "r4", "r5", "r6", "cc", "memory");
        /* clang-format on */
    }
    if (n > 0)
        memmove(to, from, n);
}
#else
void ta_move_rows(int8_t *to, const int8_t *from, size_t n)
{
    memmove(to, from, n);
}
#endif
