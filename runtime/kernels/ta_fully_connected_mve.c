/*
 * ta_fully_connected_mve.c - FULLY_CONNECTED int8 on Helium (MVE,
 * Cortex-M55/M85): four rows per pass share each input load, their sums
 * requantized in one vector. Compiles to nothing on other cores.
 */
#include "ta_fully_connected_mve.h"

#include "../include/ta_matmul_simd.h"

#if defined(TA_MM_MVE)
/* The four sums of rows *w, *w + n, *w + 2n, *w + 3n with x, started
   from (*init)[0..3], *init advanced past them and *w to where the fourth
   row's loads ended (the next group's first row when n % 16 == 0). The
   input chunk lives in the result register: the loop needs three others.
   The sums enter the vector one lane per VMOV: the two-lane form means
   opposite lane orders under QEMU 7.2 and in the Arm ARM (see
   ta_mm_dot4_s8_mve), so only the one-lane form is exact on silicon. */
static inline int32x4_t fc_dot4_mve(const int32_t **init, const int8_t **w, const int8_t *x,
                                    int32_t n)
{
    int32_t a0, a1, a2, a3;
    const int8_t *w0 = *w, *w1, *w2;
    const int32_t *b = *init;
    int32x4_t v;
    /* clang-format off */
    __asm__ volatile("   ldrd        %[a0], %[a1], [%[b]], #8\n"
                     "   ldrd        %[a2], %[a3], [%[b]], #8\n"
                     "   add         %[w1], %[w0], %[n]\n"
                     "   add         %[w2], %[w1], %[n]\n"
                     "   add         %[w3], %[w2], %[n]\n"
                     "   wlstp.8     lr, %[n], 2f\n"
                     "1: vldrb.8     %q[v], [%[x]], #16\n"
                     "   vldrb.8     q1, [%[w0]], #16\n"
                     "   vmladava.s8 %[a0], q1, %q[v]\n"
                     "   vldrb.8     q2, [%[w1]], #16\n"
                     "   vmladava.s8 %[a1], q2, %q[v]\n"
                     "   vldrb.8     q3, [%[w2]], #16\n"
                     "   vmladava.s8 %[a2], q3, %q[v]\n"
                     "   vldrb.8     q1, [%[w3]], #16\n"
                     "   vmladava.s8 %[a3], q1, %q[v]\n"
                     "   letp        lr, 1b\n"
                     "2:\n"
                     "   vmov.32     %q[v][0], %[a0]\n"
                     "   vmov.32     %q[v][1], %[a1]\n"
                     "   vmov.32     %q[v][2], %[a2]\n"
                     "   vmov.32     %q[v][3], %[a3]\n"
                     : [a0] "=&Te"(a0), [a1] "=&Te"(a1), [a2] "=&Te"(a2), [a3] "=&Te"(a3),
                       [v] "=&w"(v), [b] "+r"(b), [x] "+r"(x), [w0] "+r"(w0), [w1] "=&r"(w1),
                       [w2] "=&r"(w2), [w3] "=&r"(*w)
                     : [n] "r"(n)
                     : "q1", "q2", "q3", "lr", "memory");
    /* clang-format on */
    *init = b;
    return v;
}

/* The full groups of four rows of one input row, per-tensor
   requantization: one loop per sign of the shift, so that neither needs
   the other's steps. */
static void groups_per_tensor_mve(const int32_t *bias, const int8_t *w, int32_t depth,
                                  const int8_t *in, int8_t *o, const int8_t *o_end, int32_t m,
                                  int32_t shift, int32_t offset, int32x4_t lo, int32x4_t hi)
{
    const int32_t pad = -depth & 15; /* fc_dot4_mve's overshoot past the fourth row */
    if (shift >= 0) {
        for (; o < o_end; o += 4, w -= pad) {
            const int32x4_t v = ta_mm_requant_left_mve(fc_dot4_mve(&bias, &w, in, depth), m, shift);
            vstrbq_s32(o, vminq_s32(vmaxq_s32(vaddq_n_s32(v, offset), lo), hi));
        }
    } else {
        for (; o < o_end; o += 4, w -= pad) {
            const int32x4_t v = ta_mm_requant_right_mve(fc_dot4_mve(&bias, &w, in, depth), m,
                                                        shift);
            vstrbq_s32(o, vminq_s32(vmaxq_s32(vaddq_n_s32(v, offset), lo), hi));
        }
    }
}

/* The same with a multiplier and shift per output channel. */
static void groups_per_channel_mve(const int32_t *bias, const int8_t *w, int32_t depth,
                                   const int8_t *in, int8_t *o, const int8_t *o_end,
                                   const int32_t *m, const int32_t *s, int32_t offset, int32x4_t lo,
                                   int32x4_t hi)
{
    const int32_t pad = -depth & 15; /* fc_dot4_mve's overshoot past the fourth row */
    for (; o < o_end; o += 4, w -= pad, m += 4, s += 4) {
        const int32x4_t v = ta_mm_requant_mve(fc_dot4_mve(&bias, &w, in, depth), vldrwq_s32(m),
                                              vldrwq_s32(s));
        vstrbq_s32(o, vminq_s32(vmaxq_s32(vaddq_n_s32(v, offset), lo), hi));
    }
}

void ta_fully_connected_s8_groups_mve(const ta_fully_connected_params_t *p, const int8_t *in,
                                      const int8_t *weights, const int32_t *bias_sum,
                                      const int32_t *multipliers, const int32_t *shifts,
                                      int8_t *out)
{
    const int32_t depth = p->accum_depth, full = p->output_depth & ~3;
    const int32x4_t lo = vdupq_n_s32(p->activation_min), hi = vdupq_n_s32(p->activation_max);
    if (multipliers)
        groups_per_channel_mve(bias_sum, weights, depth, in, out, out + full, multipliers, shifts,
                               p->output_offset, lo, hi);
    else
        groups_per_tensor_mve(bias_sum, weights, depth, in, out, out + full, p->multiplier,
                              p->shift, p->output_offset, lo, hi);
}
#endif
