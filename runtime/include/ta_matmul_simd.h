/*
 * ta_matmul_simd.h - the matrix-times-vector inner loops shared by
 * FULLY_CONNECTED, BATCH_MATMUL and the gate products of LSTM and SVDF:
 * int32 sums of weight rows times one input vector, four rows per pass so
 * every input load serves four rows, plus TFLite's requantization on four
 * lanes.
 *
 * Three paths give the same sums (integer sums are exact; int32 sums wrap
 * the same way in all of them):
 *  - Helium (MVE, Cortex-M55/M85): a tail-predicated low-overhead loop
 *    (WLSTP/LETP) in inline assembly, because gcc 12 does not form one:
 *    per 16 bytes of depth, one input load and per row one weight load and
 *    one VMLADAVA. All the assembly of this runtime's matrix kernels is in
 *    this file.
 *  - DSP (SIMD32, Cortex-M4/M7/M33): SXTB16 sign-extends bytes 0,2 and,
 *    rotated, 1,3 into halfword pairs; SMLAD multiplies two pairs. The
 *    input word is extended once and serves four rows.
 *  - portable C99.
 */
#ifndef TA_MATMUL_SIMD_H
#define TA_MATMUL_SIMD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ta_quant.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1) && !defined(TA_NO_SIMD)
#define TA_MM_MVE 1
#include <arm_mve.h>
#elif defined(__ARM_FEATURE_DSP) && !defined(TA_NO_SIMD)
#define TA_MM_DSP 1
#include <arm_acle.h>
#endif

#if defined(TA_MM_DSP)
/* SXTB16 of x rotated right by 8 (bytes 1 and 3): gcc 12 does not fold
   the rotation into the instruction by itself. */
static inline uint32_t ta_mm_sxtb16_ror8(uint32_t x)
{
    uint32_t r;
    __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(x));
    return r;
}

static inline uint32_t ta_mm_load32(const void *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}
#endif

#if defined(TA_MM_DSP)
/* acc[r] += sum_{k<n4} w[r * stride + k] * x[k] for r = 0..3, n4 a
   positive multiple of 4. Four accumulators, three row pointers/strides,
   the input pointer and its end and five temporaries need fourteen
   registers: more than inline assembly can claim (gcc spills the C form's
   pointers in the inner loop), so this is a whole function in assembly
   that saves the registers it uses (acc's pointer too, r0 being one of the
   temporaries). Rows 1 and 3 are read at a register offset (the stride)
   from rows 0 and 2; the loop body is unrolled four times (one compare
   and branch per 64 MACs), entered at the copy that leaves words % 4
   copies to run. Per 4 bytes: the input word is
   sign-extended once into halfword pairs (bytes 0,2 and 1,3), and each
   row's word is extended the same way and multiplied in by two SMLADs.
   The loads come in runs (the input and rows 0-1, then rows 2-3), which
   the Cortex-M4 pipelines: 25 cycles per 16 MACs, against 28 with each
   row's load on its own. */
/* One input word against rows 0-3 (the loop body, four copies). */
/* clang-format off */
#define TA_MM_DOT4_WORD \
    "   ldr    r10, [r3], #4\n" \
    "   ldr    r11, [r1, r2]\n" \
    "   ldr    r0, [r1], #4\n" \
    "   sxtb16 r9, r10\n" \
    "   sxtb16 r10, r10, ror #8\n" \
    "   sxtb16 lr, r11\n" \
    "   smlad  r5, lr, r9, r5\n" \
    "   sxtb16 r11, r11, ror #8\n" \
    "   smlad  r5, r11, r10, r5\n" \
    "   sxtb16 lr, r0\n" \
    "   smlad  r4, lr, r9, r4\n" \
    "   sxtb16 r0, r0, ror #8\n" \
    "   smlad  r4, r0, r10, r4\n" \
    "   ldr    r11, [r8, r2]\n" \
    "   ldr    r0, [r8], #4\n" \
    "   sxtb16 lr, r11\n" \
    "   smlad  r7, lr, r9, r7\n" \
    "   sxtb16 r11, r11, ror #8\n" \
    "   smlad  r7, r11, r10, r7\n" \
    "   sxtb16 lr, r0\n" \
    "   smlad  r6, lr, r9, r6\n" \
    "   sxtb16 r0, r0, ror #8\n" \
    "   smlad  r6, r0, r10, r6\n"
/* clang-format on */
#define TA_MM_ARG __attribute__((unused)) /* read by the assembly, not by C */
__attribute__((naked, noinline, unused)) static void
ta_mm_dot4_s8_dsp(TA_MM_ARG int32_t acc[4], TA_MM_ARG const int8_t *w, TA_MM_ARG int32_t stride,
                  TA_MM_ARG const int8_t *x, TA_MM_ARG int32_t n4)
{
    /* clang-format off */
    __asm__ volatile("   push   {r0, r4-r11, lr}\n"
                     "   ldr    r12, [sp, #40]\n" /* n4, the fifth argument */
                     "   lsls   r9, r12, #29\n"  /* C: words & 2, N: words & 1 */
                     "   add    r12, r3, r12\n"   /* end of the input */
                     "   ldm    r0, {r4-r7}\n"
                     "   add    r8, r1, r2, lsl #1\n" /* row 2 */
                     /* enter the four-word body at words % 4 from its end */
                     "   bcs    5f\n"
                     "   bpl    1f\n"
                     "   b      4f\n"
                     "5: bmi    2f\n"
                     "   b      3f\n"
                     "1:\n"
                     TA_MM_DOT4_WORD
                     "2:\n"
                     TA_MM_DOT4_WORD
                     "3:\n"
                     TA_MM_DOT4_WORD
                     "4:\n"
                     TA_MM_DOT4_WORD
                     "   cmp    r3, r12\n"
                     "   bne    1b\n"
                     "   pop    {r0}\n"
                     "   stm    r0, {r4-r7}\n"
                     "   pop    {r4-r11, pc}\n");
    /* clang-format on */
}
#undef TA_MM_ARG
#undef TA_MM_DOT4_WORD
#endif

/* acc[r] += sum_{k<n} w[r * stride + k] * x[k] for r = 0..3. */
static inline void ta_mm_dot4_s8(int32_t acc[4], const int8_t *w, int32_t stride, const int8_t *x,
                                 int32_t n)
{
    const int8_t *w0 = w, *w1 = w + stride, *w2 = w1 + stride, *w3 = w2 + stride;
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
#if defined(TA_MM_MVE)
    /* VMLADAVA needs even accumulator registers ("Te"); inactive lanes of
       the last, tail-predicated iteration load zeros and add nothing. */
    /* clang-format off */
    __asm__ volatile("   wlstp.8     lr, %[n], 2f\n"
                     "1: vldrb.8     q0, [%[x]], #16\n"
                     "   vldrb.8     q1, [%[w0]], #16\n"
                     "   vmladava.s8 %[a0], q1, q0\n"
                     "   vldrb.8     q2, [%[w1]], #16\n"
                     "   vmladava.s8 %[a1], q2, q0\n"
                     "   vldrb.8     q3, [%[w2]], #16\n"
                     "   vmladava.s8 %[a2], q3, q0\n"
                     "   vldrb.8     q1, [%[w3]], #16\n"
                     "   vmladava.s8 %[a3], q1, q0\n"
                     "   letp        lr, 1b\n"
                     "2:\n"
                     : [a0] "+Te"(a0), [a1] "+Te"(a1), [a2] "+Te"(a2), [a3] "+Te"(a3),
                       [x] "+r"(x), [w0] "+r"(w0), [w1] "+r"(w1), [w2] "+r"(w2), [w3] "+r"(w3)
                     : [n] "r"(n)
                     : "q0", "q1", "q2", "q3", "lr", "memory");
    /* clang-format on */
#else
    int32_t k = 0;
#if defined(TA_MM_DSP)
    if (n >= 4) {
        /* The assembly works on acc in memory. */
        ta_mm_dot4_s8_dsp(acc, w, stride, x, n & ~3);
        if ((n & 3) == 0)
            return;
        a0 = acc[0];
        a1 = acc[1];
        a2 = acc[2];
        a3 = acc[3];
        k = n & ~3;
    }
#endif
    /* Unsigned sums: int32 wrap-around without undefined behaviour. */
    for (; k < n; k++) {
        const int32_t xv = x[k];
        a0 = (int32_t)((uint32_t)a0 + (uint32_t)(w0[k] * xv));
        a1 = (int32_t)((uint32_t)a1 + (uint32_t)(w1[k] * xv));
        a2 = (int32_t)((uint32_t)a2 + (uint32_t)(w2[k] * xv));
        a3 = (int32_t)((uint32_t)a3 + (uint32_t)(w3[k] * xv));
    }
#endif
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
}

#if defined(TA_MM_MVE)
/* (*init)[r] + sum_{k<n} w[r * n + k] * x[k] for r = 0..3, as one vector;
   *init then points 4 further (the next group's biases). The four sums
   leave the loop in even registers and are packed into lanes one at a
   time: the two-register VMOV (Qd[2], Qd[0], Rt, Rt2) fills its lanes in
   the opposite order under QEMU 7.2 to the Arm ARM's, so code tested
   there could be wrong on silicon; the single-lane form has one meaning. The block takes few registers so that the caller's loop keeps
   its own in registers. */
static inline int32x4_t ta_mm_dot4_s8_mve(const int32_t **init, const int8_t *w, const int8_t *x,
                                          int32_t n)
{
    int32_t a0, a1, a2, a3;
    const int8_t *w1, *w2, *w3;
    const int32_t *b = *init;
    int32x4_t v;
    /* clang-format off */
    __asm__ volatile("   ldrd        %[a0], %[a1], [%[b]], #8\n"
                     "   ldrd        %[a2], %[a3], [%[b]], #8\n"
                     "   add         %[w1], %[w0], %[n]\n"
                     "   add         %[w2], %[w1], %[n]\n"
                     "   add         %[w3], %[w2], %[n]\n"
                     "   wlstp.8     lr, %[n], 2f\n"
                     "1: vldrb.8     q0, [%[x]], #16\n"
                     "   vldrb.8     q1, [%[w0]], #16\n"
                     "   vmladava.s8 %[a0], q1, q0\n"
                     "   vldrb.8     q2, [%[w1]], #16\n"
                     "   vmladava.s8 %[a1], q2, q0\n"
                     "   vldrb.8     q3, [%[w2]], #16\n"
                     "   vmladava.s8 %[a2], q3, q0\n"
                     "   vldrb.8     q1, [%[w3]], #16\n"
                     "   vmladava.s8 %[a3], q1, q0\n"
                     "   letp        lr, 1b\n"
                     "2: vmov.32     %q[v][0], %[a0]\n"
                     "   vmov.32     %q[v][1], %[a1]\n"
                     "   vmov.32     %q[v][2], %[a2]\n"
                     "   vmov.32     %q[v][3], %[a3]\n"
                     : [a0] "=&Te"(a0), [a1] "=&Te"(a1), [a2] "=&Te"(a2), [a3] "=&Te"(a3),
                       [v] "=w"(v), [b] "+r"(b), [x] "+r"(x), [w0] "+r"(w), [w1] "=&r"(w1),
                       [w2] "=&r"(w2), [w3] "=&r"(w3)
                     : [n] "r"(n)
                     : "q0", "q1", "q2", "q3", "lr", "memory");
    /* clang-format on */
    *init = b;
    return v;
}
#endif

#if defined(TA_MM_MVE)
/* acc += the dot product of the n bytes at x with 16-byte chunks of
   weights STEP bytes apart from w (16: a row in order; 64: one row of a
   block of four interleaved rows); acc, w and x are variables. */
/* clang-format off */
#define TA_MM_DOT1_MVE(acc, w, x, n, STEP)                                      \
    __asm__ volatile("   wlstp.8     lr, %[n], 2f\n"                            \
                     "1: vldrb.8     q0, [%[x]], #16\n"                        \
                     "   vldrb.8     q1, [%[w]], #" #STEP "\n"                 \
                     "   vmladava.s8 %[a], q1, q0\n"                           \
                     "   letp        lr, 1b\n"                                 \
                     "2:\n"                                                    \
                     : [a] "+Te"(acc), [x] "+r"(x), [w] "+r"(w)                \
                     : [n] "r"(n)                                              \
                     : "q0", "q1", "lr", "memory")
/* clang-format on */
#endif

/* acc + sum_{k<n} w[k] * x[k]. */
static inline int32_t ta_mm_dot1_s8(int32_t acc, const int8_t *w, const int8_t *x, int32_t n)
{
#if defined(TA_MM_MVE)
    TA_MM_DOT1_MVE(acc, w, x, n, 16);
    return acc;
#else
    int32_t k = 0;
#if defined(TA_MM_DSP)
    for (; k + 4 <= n; k += 4) {
        const uint32_t xw = ta_mm_load32(x + k), v = ta_mm_load32(w + k);
        acc = __smlad(__sxtb16(v), __sxtb16(xw), acc);
        acc = __smlad(ta_mm_sxtb16_ror8(v), ta_mm_sxtb16_ror8(xw), acc);
    }
#endif
    for (; k < n; k++)
        acc = (int32_t)((uint32_t)acc + (uint32_t)(w[k] * x[k]));
    return acc;
#endif
}

/* acc + sum_{k<n} w[k] * x[k] for int16 vectors (SVDF's time filter with
   an int16 state). */
static inline int32_t ta_mm_dot1_s16(int32_t acc, const int16_t *w, const int16_t *x, int32_t n)
{
#if defined(TA_MM_MVE)
    /* clang-format off */
    __asm__ volatile("   wlstp.16     lr, %[n], 2f\n"
                     "1: vldrh.16     q0, [%[x]], #16\n"
                     "   vldrh.16     q1, [%[w]], #16\n"
                     "   vmladava.s16 %[a], q1, q0\n"
                     "   letp         lr, 1b\n"
                     "2:\n"
                     : [a] "+Te"(acc), [x] "+r"(x), [w] "+r"(w)
                     : [n] "r"(n)
                     : "q0", "q1", "lr", "memory");
    /* clang-format on */
    return acc;
#else
    int32_t k = 0;
#if defined(TA_MM_DSP)
    for (; k + 2 <= n; k += 2)
        acc = __smlad(ta_mm_load32(w + k), ta_mm_load32(x + k), acc);
#endif
    for (; k < n; k++)
        acc = (int32_t)((uint32_t)acc + (uint32_t)((int32_t)w[k] * (int32_t)x[k]));
    return acc;
#endif
}

/* ta_mm_dot1_s8 over n = 4 * words values (words >= 1) and ta_mm_dot1_s16
   over n = 2 * words, from *w and *x, which then point past them: whole
   words only, no tail loop (the DSP extension's loop of one SMLAD pair a
   word; elsewhere the general forms), for callers that walk rows that
   follow each other. */
static inline int32_t ta_mm_dot1_s8_words(int32_t acc, const int8_t **w, const int8_t **x,
                                          int32_t words)
{
    const int8_t *a = *w, *b = *x, *end = b + 4 * (size_t)words;
#if defined(TA_MM_DSP)
    do {
        const uint32_t v = ta_mm_load32(a), xw = ta_mm_load32(b);
        acc = __smlad(__sxtb16(v), __sxtb16(xw), acc);
        acc = __smlad(ta_mm_sxtb16_ror8(v), ta_mm_sxtb16_ror8(xw), acc);
        a += 4;
        b += 4;
    } while (b != end);
#else
    acc = ta_mm_dot1_s8(acc, a, b, 4 * words);
    a += 4 * (size_t)words;
#endif
    *w = a;
    *x = end;
    return acc;
}

static inline int32_t ta_mm_dot1_s16_words(int32_t acc, const int16_t **w, const int16_t **x,
                                           int32_t words)
{
    const int16_t *a = *w, *b = *x, *end = b + 2 * (size_t)words;
#if defined(TA_MM_DSP)
    do {
        acc = __smlad(ta_mm_load32(a), ta_mm_load32(b), acc);
        a += 2;
        b += 2;
    } while (b != end);
#else
    acc = ta_mm_dot1_s16(acc, a, b, 2 * words);
    a += 2 * (size_t)words;
#endif
    *w = a;
    *x = end;
    return acc;
}

/* TFLite's MultiplyByQuantizedMultiplier (ta_mul_by_quantized_multiplier)
   in fewer instructions on 32-bit cores: the rounding doubling high
   multiply as (x * m + 2^30) >> 31 on the 64-bit product (equal to
   TFLite's nudge-and-truncate form for every product), then the rounding
   right shift with ties away from zero. The shift is taken apart first
   (ta_mm_requant_prepare), once per call in loops that requantize value
   by value with one multiplier. */
typedef struct {
    int32_t multiplier, left, right, mask, half;
} ta_mm_requant_t;

static inline ta_mm_requant_t ta_mm_requant_prepare(int32_t multiplier, int32_t shift)
{
    const int32_t right = shift > 0 ? 0 : -shift;
    const int32_t mask = (int32_t)(((uint32_t)1 << right) - 1u);
    const ta_mm_requant_t q = {multiplier, shift > 0 ? shift : 0, right, mask, mask >> 1};
    return q;
}

static inline int32_t ta_mm_requant(const ta_mm_requant_t *q, int32_t x)
{
    x = (int32_t)((uint32_t)x << q->left);
    int32_t h = INT32_MAX;
    if (!(x == INT32_MIN && q->multiplier == INT32_MIN))
        h = (int32_t)(((int64_t)x * q->multiplier + ((int64_t)1 << 30)) >> 31);
    const int32_t threshold = q->half + (h < 0 ? 1 : 0);
    return (h >> q->right) + ((h & q->mask) > threshold ? 1 : 0);
}

static inline int32_t ta_mm_mul_q(int32_t x, int32_t m, int32_t shift)
{
    const ta_mm_requant_t q = ta_mm_requant_prepare(m, shift);
    return ta_mm_requant(&q, x);
}

#if defined(TA_MM_MVE)
/* TFLite's MultiplyByQuantizedMultiplier on four lanes, shift per lane:
   x * 2^max(s,0) wrapping, VQRDMULH (exactly TFLite's saturating rounding
   doubling high multiply), then a rounding right shift by max(-s,0) with
   ties away from zero: VRSHL rounds ties up, so negative lanes that shift
   first step down by one (saturating, which keeps INT32_MIN exact). */
static inline int32x4_t ta_mm_requant_mve(int32x4_t x, int32x4_t m, int32x4_t s)
{
    const int32x4_t zero = vdupq_n_s32(0);
    const int32x4_t right = vminq_s32(s, zero); /* <= 0: VRSHL shifts right */
    x = vqrdmulhq_s32(vshlq_s32(x, vmaxq_s32(s, zero)), m);
    const int32x4_t fixup = vpselq_s32(vshrq_n_s32(x, 31), zero, vcmpltq_n_s32(s, 0));
    return vrshlq_s32(vqaddq_s32(x, fixup), right);
}

/* One multiplier and shift (>= 0) for every lane: no rounding shift. */
static inline int32x4_t ta_mm_requant_left_mve(int32x4_t x, int32_t m, int32_t shift)
{
    return vqrdmulhq_n_s32(vshlq_r_s32(x, shift), m);
}

/* One multiplier and shift (< 0) for every lane: the rounding right shift,
   with the ties-away-from-zero step for negative lanes. */
static inline int32x4_t ta_mm_requant_right_mve(int32x4_t x, int32_t m, int32_t shift)
{
    x = vqrdmulhq_n_s32(x, m);
    return vrshlq_n_s32(vqaddq_s32(x, vshrq_n_s32(x, 31)), shift);
}

#endif

/* out[k] = clamp(requant(acc[k]) + offset, lo, hi) as int8 for k < n, with
   per-channel multipliers/shifts or, when those are NULL, m and s. */
static inline void ta_mm_requant_s8(const int32_t *acc, int32_t n, const int32_t *multipliers,
                                    const int32_t *shifts, int32_t m, int32_t s, int32_t offset,
                                    int32_t lo, int32_t hi, int8_t *out)
{
#if defined(TA_MM_MVE)
    for (int32_t k = 0; k < n; k += 4) {
        const mve_pred16_t p = vctp32q((uint32_t)(n - k));
        const int32x4_t a = vldrwq_z_s32(acc + k, p);
        int32x4_t v = multipliers && shifts ? ta_mm_requant_mve(a, vldrwq_z_s32(multipliers + k, p),
                                                                vldrwq_z_s32(shifts + k, p))
                      : s >= 0              ? ta_mm_requant_left_mve(a, m, s)
                                            : ta_mm_requant_right_mve(a, m, s);
        v = vminq_s32(vmaxq_s32(vaddq_n_s32(v, offset), vdupq_n_s32(lo)), vdupq_n_s32(hi));
        vstrbq_p_s32(out + k, v, p);
    }
#else
    for (int32_t k = 0; k < n; k++) {
        /* per-channel arrays come in pairs */
        const int32_t mk = multipliers && shifts ? multipliers[k] : m;
        const int32_t sk = multipliers && shifts ? shifts[k] : s;
        const int32_t v = ta_mm_mul_q(acc[k], mk, sk) + offset;
        out[k] = (int8_t)ta_clamp_i32(v, lo, hi);
    }
#endif
}

#endif /* TA_MATMUL_SIMD_H */
