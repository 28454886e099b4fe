/*
 * ta_elementwise_simd.h - what the elementwise kernels (ADD, SUB, MUL,
 * pooling, ...) share for their Helium (MVE, Cortex-M55/M85) and DSP
 * (Cortex-M4/M7/M33) paths: feature selection and TFLite's rounding steps
 * in the forms those instruction sets compute cheaply. Every form here
 * returns what ta_quant.h returns for the operand ranges its comment
 * states; the kernels check those ranges before taking a SIMD path.
 *
 * TA_NO_SIMD (or a CPU without either extension) leaves only the portable
 * C99 paths.
 */
#ifndef TA_ELEMENTWISE_SIMD_H
#define TA_ELEMENTWISE_SIMD_H

#include <stdint.h>

#include "ta_compiler.h"
#include "ta_quant.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1) && !defined(TA_NO_SIMD)
#define TA_EW_MVE 1
#include <arm_mve.h>
#elif defined(__ARM_FEATURE_DSP) && !defined(TA_NO_SIMD)
#define TA_EW_DSP 1
#include <arm_acle.h>
#endif

/* Row helpers are inlined (TA_ALWAYS_INLINE) into each of their few call
   sites, where the row's kind is a constant, so that each loop is compiled
   for one kind. */
/* The portable rows, the fallback of the SIMD ones, stay one function
   per kernel that takes the kind as an argument: small code. */
#if defined(__GNUC__) || defined(__clang__)
#define TA_EW_NOINLINE static __attribute__((noinline))
#else
#define TA_EW_NOINLINE static
#endif

/* TFLite's x / 2^exponent rounded half away from zero, split into
   constants computed once per kernel call (exponent in [0, 31]). */
typedef struct {
    int32_t multiplier; /* the Q0.31 multiplier applied before the shift */
    int32_t exponent;   /* right shift, >= 0 */
    int32_t round;      /* 2^(exponent - 1); 0 for exponent 0 */
    int32_t fix_mask;   /* -1 for exponent > 0: negative values step down first */
    int32_t fix_shift;  /* -31 for exponent > 0, else -32 (MVE: a shift that yields 0) */
} ta_ew_scale_t;

/* shift <= 0 as ta_mul_by_quantized_multiplier_lt_one takes it. */
static inline ta_ew_scale_t ta_ew_scale(int32_t multiplier, int32_t shift)
{
    ta_ew_scale_t s;
    s.multiplier = multiplier;
    s.exponent = -shift;
    s.round = s.exponent > 0 ? (int32_t)1 << (s.exponent - 1) : 0;
    s.fix_mask = s.exponent > 0 ? -1 : 0;
    s.fix_shift = s.exponent > 0 ? -31 : -32;
    return s;
}

/* ta_rounding_divide_by_pot for |x| < 2^30: rounding half up after
   negative values step down by one (ties then go away from zero). */
static inline int32_t ta_ew_divide_by_pot(int32_t x, const ta_ew_scale_t *s)
{
    return (x + s->round + ((x < 0 ? -1 : 0) & s->fix_mask)) >> s->exponent;
}

#if defined(TA_EW_DSP)
/* round(x * m / 2^32), ties up (SMMULR, which ACLE does not name): for
   even x this is ta_sat_rounding_doubling_high_mul(x / 2, m), so callers
   pass their operand doubled, which must fit in int32. */
static inline int32_t ta_ew_smmulr(int32_t x, int32_t m)
{
    int32_t r;
    __asm__("smmulr %0, %1, %2" : "=r"(r) : "r"(x), "r"(m));
    return r;
}

/* ta_ew_smmulr(x, m) + acc in one instruction (SMMLAR adds acc * 2^32
   before the rounding high half is taken). */
static inline int32_t ta_ew_smmlar(int32_t x, int32_t m, int32_t acc)
{
    int32_t r;
    __asm__("smmlar %0, %1, %2, %3" : "=r"(r) : "r"(x), "r"(m), "r"(acc));
    return r;
}
#endif

#if defined(TA_EW_MVE)
/* ta_ew_divide_by_pot on four lanes, any int32 x: the logical shift by
   fix_shift gives 1 in negative lanes (0 for exponent 0), and VRSHL
   rounds half up. Saturating, so INT32_MIN stays exact. */
static inline int32x4_t ta_ew_divide_by_pot_mve(int32x4_t x, int32_t fix_shift,
                                                int32_t neg_exponent)
{
    const int32x4_t fix = vreinterpretq_s32_u32(vshlq_r_u32(vreinterpretq_u32_s32(x), fix_shift));
    return vrshlq_n_s32(vqsubq_s32(x, fix), neg_exponent);
}

/* ta_ew_divide_by_pot_mve for exponents >= 1 (neg_exponent = -exponent):
   the step down of negative values is the sign bit, an immediate shift
   that keeps x (the shift by a register above overwrites its operand, so
   it costs a copy and the shift's register). */
static inline int32x4_t ta_ew_divide_rounding_mve(int32x4_t x, int32_t neg_exponent)
{
    const int32x4_t fix = vreinterpretq_s32_u32(vshrq_n_u32(vreinterpretq_u32_s32(x), 31));
    return vrshlq_n_s32(vqsubq_s32(x, fix), neg_exponent);
}
#endif

#endif /* TA_ELEMENTWISE_SIMD_H */
