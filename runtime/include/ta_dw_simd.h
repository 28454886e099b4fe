/*
 * ta_dw_simd.h - requantization helpers of the depthwise kernels for
 * Helium (MVE) and the DSP extension, bit for bit as ta_quant.h.
 *
 * The depthwise Helium kernel multiplies int16 lanes with VMULLB/VMULLT,
 * which leaves the even channels of 8 in one int32 vector and the odd ones
 * in another; these helpers load per-channel constants in that order and
 * store the requantized bytes back in channel order.
 */
#ifndef TA_DW_SIMD_H
#define TA_DW_SIMD_H

#include <stdint.h>

#include "ta_simd.h"

#if defined(TA_HAVE_MVE)
/* Values v[0], v[2], v[4], v[6] (even) and v[1], v[3], v[5], v[7] (odd);
   lanes past n (n <= 8) read zero. */
static inline void ta_dw_load_even_odd(const int32_t *v, int32_t n, int32x4_t *even, int32x4_t *odd)
{
    if (n >= 8) {
        const int32x4x2_t pair = vld2q_s32(v);
        *even = pair.val[0];
        *odd = pair.val[1];
    } else {
        const uint32x4_t offsets = vidupq_n_u32(0, 2);
        *even = vldrwq_gather_shifted_offset_z_s32(v, offsets, vctp32q((uint32_t)(n + 1) / 2));
        *odd = vldrwq_gather_shifted_offset_z_s32(v + 1, offsets, vctp32q((uint32_t)n / 2));
    }
}

/* ta_mul_by_quantized_multiplier for shifts s < 0 (a right shift only):
   VQRDMULH is TFLite's saturating rounding doubling high multiply, and
   VRSHL by s rounds ties up, so negative lanes step down by one first
   (saturating, which keeps INT32_MIN exact) to round ties away from zero. */
static inline int32x4_t ta_dw_mul_right_mve(int32x4_t x, int32x4_t m, int32x4_t s)
{
    const int32x4_t h = vqrdmulhq_s32(x, m);
    return vrshlq_s32(ta_ties_away_mve(h), s);
}

/* Eight requantized channels from even/odd accumulators in channel order
   as int16 lanes, the output offset added, saturated (the int8 clamp that
   follows makes that exact: |offset| <= 128, and a saturated lane stays
   outside int8 on the same side, as in int32). */
static inline int16x8_t ta_dw_narrow_mve(int32x4_t even, int32x4_t odd, int32_t offset)
{
    /* The narrowing writes half the lanes: start from even itself (an
       uninitialized vector would live on the stack). */
    int16x8_t t = vqmovnbq_s32(vreinterpretq_s16_s32(even), even);
    t = vqmovntq_s32(t, odd);
    return vqaddq_n_s16(t, (int16_t)offset);
}

/* ta_dw_narrow_mve with the narrowing pair in assembly: together the two
   write every lane, so t needs no start value, where the intrinsics copy
   one in (a VMOV per call). The depthwise kernel's stores take it; in
   MUL's loop gcc's schedule around the intrinsics comes out faster. */
static inline int16x8_t ta_dw_narrow_fresh_mve(int32x4_t even, int32x4_t odd, int32_t offset)
{
    int16x8_t t;
    __asm__("vqmovnb.s32 %q[t], %q[e]\n\t"
            "vqmovnt.s32 %q[t], %q[o]"
            : [t] "=&w"(t)
            : [e] "w"(even), [o] "w"(odd));
    return vqaddq_n_s16(t, (int16_t)offset);
}

/* The int16 lanes of t saturated to int8 in the low byte of each lane
   (what VSTRB.16 stores; the high bytes are left undefined, so no start
   value is copied in). */
static inline int16x8_t ta_dw_saturate_low_bytes(int16x8_t t)
{
    int16x8_t v;
    __asm__("vqmovnb.s16 %q[v], %q[t]" : [v] "=w"(v) : [t] "w"(t));
    return v;
}

/* The same clamped to [lo, hi] (within int8), as int8 in the low byte of
   each int16 lane (what VSTRB.16 stores): the full int8 range is one
   saturating narrow. */
static inline int16x8_t ta_dw_narrow_clamp_mve(int32x4_t even, int32x4_t odd, int32_t offset,
                                               int32_t lo, int32_t hi)
{
    const int16x8_t t = ta_dw_narrow_fresh_mve(even, odd, offset);
    if (lo == INT8_MIN && hi == INT8_MAX)
        return ta_dw_saturate_low_bytes(t);
    return vminq_s16(vmaxq_s16(t, vdupq_n_s16((int16_t)lo)), vdupq_n_s16((int16_t)hi));
}
#endif

#if defined(TA_HAVE_DSP)
/* The low bytes of b0..b3 as bytes 0..3 of one word: three BFIs (gcc
   masks and ORs each byte instead). */
static inline uint32_t ta_dw_pack_bytes(int32_t b0, int32_t b1, int32_t b2, int32_t b3)
{
    uint32_t v = (uint32_t)b0;
    /* clang-format off */
    __asm__("bfi %0, %1, #8, #8\n\t"
            "bfi %0, %2, #16, #8\n\t"
            "bfi %0, %3, #24, #8"
            : "+r"(v)
            : "r"(b1), "r"(b2), "r"(b3));
    /* clang-format on */
    return v;
}

/* Both halfwords of x sign-extended from bytes 1 and 3 (SXTB16 with the
   rotation, which gcc does not fold from a shift). */
static inline uint32_t ta_dw_sxtb16_ror8(uint32_t x)
{
    uint32_t r;
    __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(x));
    return r;
}
#endif

/* ta_sat_rounding_doubling_high_mul for b != INT32_MIN (every quantized
   multiplier): round(a * b / 2^31) rounds ties up for either sign, which
   is (a * b + 2^30) >> 31. */
static inline int32_t ta_dw_srdhm(int32_t a, int32_t b)
{
    return (int32_t)(((int64_t)a * (int64_t)b + ((int64_t)1 << 30)) >> 31);
}

/* ta_rounding_divide_by_pot in 32-bit arithmetic, 0 <= e <= 31. */
static inline int32_t ta_dw_rdbp(int32_t x, int32_t e)
{
    const int32_t mask = (int32_t)((1u << e) - 1u);
    const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
    return (x >> e) + ((x & mask) > threshold);
}

/* ta_mul_by_quantized_multiplier for shift < 0 and multiplier !=
   INT32_MIN. The rounding shift by e = -shift >= 1: stepping negative
   values down by one (saturating, which keeps INT32_MIN exact) turns ties
   away from zero into ties up, and with y = x >> (e - 1), rounding y / 2
   up is y - (y >> 1), which cannot overflow. */
static inline int32_t ta_dw_requantize_right(int32_t x, int32_t multiplier, int32_t shift)
{
    int32_t h = ta_dw_srdhm(x, multiplier);
#if defined(TA_HAVE_DSP)
    h = __qadd(h, h >> 31);
#else
    h = h == INT32_MIN || h >= 0 ? h : h - 1;
#endif
    /* Right shifts of negative values are arithmetic on every compiler the
       runtime supports (C99 leaves it to the implementation; TFLite relies on it too). */
    // cppcheck-suppress shiftNegativeLHS
    const int32_t y = h >> (-shift - 1);
    return y - (y >> 1);
}

#if defined(TA_HAVE_DSP)
/* ta_dw_srdhm for |x| < 2^30: SMMULR rounds (2x * m) / 2^32 half up, which
   is (x * m + 2^30) >> 31 exactly, and |result| <= 2^30. */
static inline int32_t ta_dw_srdhm_small(int32_t x, int32_t multiplier)
{
    int32_t h;
    __asm__("smmulr %0, %1, %2" : "=r"(h) : "r"(x * 2), "r"(multiplier));
    return h;
}

/* ta_dw_requantize_right for |x| < 2^30 (ta_dw_srdhm_small): |h| <= 2^30,
   so the step down of negative values needs no saturation. */
static inline int32_t ta_dw_requantize_right_small(int32_t x, int32_t multiplier, int32_t shift)
{
    int32_t h = ta_dw_srdhm_small(x, multiplier);
    h += h >> 31;
    /* Right shifts of negative values are arithmetic on every compiler the
       runtime supports (C99 leaves it to the implementation; TFLite relies on it too). */
    // cppcheck-suppress shiftNegativeLHS
    const int32_t y = h >> (-shift - 1);
    return y - (y >> 1);
}

/* ta_dw_requantize_right_small of x from x2 = 2 * x, with right1 = -shift
   - 1 (the shift less one, ready for ASR). */
static inline int32_t ta_dw_requantize_right_doubled(int32_t x2, int32_t multiplier, int32_t right1)
{
    int32_t h;
    __asm__("smmulr %0, %1, %2" : "=r"(h) : "r"(x2), "r"(multiplier));
    h += h >> 31;
    // cppcheck-suppress shiftNegativeLHS
    const int32_t y = h >> right1;
    return y - (y >> 1);
}
#endif

/* Whether |x| < 2^30 (x in [-2^30, 2^30)), where the SMMULR forms above
   are exact. */
static inline int ta_dw_small(int32_t x)
{
    return (((uint32_t)x + 0x40000000u) >> 31) == 0;
}

/* ta_dw_srdhm by one SMMULR where the core has it and x is small. */
static inline int32_t ta_dw_srdhm_fast(int32_t x, int32_t multiplier)
{
#if defined(TA_HAVE_DSP)
    if (ta_dw_small(x))
        return ta_dw_srdhm_small(x, multiplier);
#endif
    return ta_dw_srdhm(x, multiplier);
}

/* ta_dw_requantize_right by one SMMULR where the core has it and x is
   small. */
static inline int32_t ta_dw_requantize_right_fast(int32_t x, int32_t multiplier, int32_t shift)
{
#if defined(TA_HAVE_DSP)
    if (ta_dw_small(x))
        return ta_dw_requantize_right_small(x, multiplier, shift);
#endif
    return ta_dw_requantize_right(x, multiplier, shift);
}

/* ta_dw_requantize_right of an x the caller knows is small: one SMMULR
   where the core has it, no check. */
static inline int32_t ta_dw_requantize_right_bounded(int32_t x, int32_t multiplier, int32_t shift)
{
#if defined(TA_HAVE_DSP)
    return ta_dw_requantize_right_small(x, multiplier, shift);
#else
    return ta_dw_requantize_right(x, multiplier, shift);
#endif
}

/* ta_mul_by_quantized_multiplier for multiplier != INT32_MIN. */
static inline int32_t ta_dw_requantize(int32_t x, int32_t multiplier, int32_t shift)
{
    if (shift > 0)
        return ta_dw_srdhm((int32_t)((uint32_t)x << shift), multiplier);
    return ta_dw_rdbp(ta_dw_srdhm(x, multiplier), -shift);
}

#endif /* TA_DW_SIMD_H */
