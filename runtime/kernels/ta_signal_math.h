/*
 * ta_signal_math.h - the integer helpers of TFLite Micro's Signal library
 * that several Signal kernels share: the most significant bit and the
 * rounded integer square roots, with the library's results to the bit.
 */
#ifndef TA_SIGNAL_MATH_H
#define TA_SIGNAL_MATH_H

#include <stdint.h>

/* The number of bits below and including the highest set one; 0 for 0.
   GCC and Clang have CLZ (one instruction on Cortex-M3 and up). */
static inline uint32_t ta_signal_bit_length(uint32_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return x ? 32u - (uint32_t)__builtin_clz(x) : 0u;
#else
    uint32_t n = 0;
    while (x) {
        x >>= 1;
        n++;
    }
    return n;
#endif
}

/* The position of the highest set bit, counting from 1; the width for 0
   (what the library's GCC path, __builtin_clz, gives, and the oracle uses). */
static inline uint32_t ta_signal_msb32(uint32_t x)
{
    return x ? ta_signal_bit_length(x) : 32;
}

/* Counted on 32-bit halves: no 64-bit shifts in the loop on Cortex-M. */
static inline uint32_t ta_signal_msb64(uint64_t x)
{
    const uint32_t high = (uint32_t)(x >> 32);
    if (high)
        return 32 + ta_signal_bit_length(high);
    return x ? ta_signal_bit_length((uint32_t)x) : 64;
}

#if defined(__ARM_FP) && (__ARM_FP & 4) && !defined(TA_NO_SIMD)
#define TA_SIGNAL_SQRT_FPU 1
/* VSQRT.F32 (the builtin would keep a call to libm's sqrtf for errno). */
static inline float ta_signal_vsqrt(float x)
{
    float r;
    __asm__("vsqrt.f32 %0, %1" : "=t"(r) : "t"(x));
    return r;
}

/* (float)v by halves: Cortex-M's FPU converts 32-bit integers only. */
static inline float ta_signal_u64_to_float(uint64_t v)
{
    return (float)(uint32_t)(v >> 32) * 4294967296.0f + (float)(uint32_t)v;
}

/* floor(sqrt(n)): an estimate from single precision (n to 24 bits: within
   a few hundred), one Newton step on the exact remainder, then integer
   steps, which make it exact whatever the estimate. One copy for both
   widths. */
static __attribute__((noinline, unused)) uint32_t ta_signal_floor_sqrt(uint64_t n)
{
    const float s = ta_signal_vsqrt(ta_signal_u64_to_float(n));
    uint32_t r = s >= 4294967040.0f ? 0xFFFFFFFFu : (uint32_t)s;
    if (r != 0) {
        const uint64_t square = (uint64_t)r * r;
        float step = ta_signal_u64_to_float(n >= square ? n - square : square - n) /
                     (2.0f * (float)r);
        step = step > 1e9f ? 1e9f : step;
        step = n >= square ? step : -step;
        const int64_t next = (int64_t)r + (int32_t)(step >= 0.0f ? step + 0.5f : step - 0.5f);
        r = next < 0 ? 0u : (next > 0xFFFFFFFF ? 0xFFFFFFFFu : (uint32_t)next);
    }
    while ((uint64_t)r * r > n)
        r--;
    while (r != 0xFFFFFFFFu && (uint64_t)(r + 1) * (r + 1) <= n)
        r++;
    return r;
}
#endif

/* Square root rounded to nearest (never past 0xFFFF), the library's:
   digit by digit, or floor by the FPU and the same rounding. */
static inline uint16_t ta_signal_sqrt32(uint32_t num)
{
#if defined(TA_SIGNAL_SQRT_FPU)
    const uint32_t root = ta_signal_floor_sqrt(num);
    return (uint16_t)(num - root * root > root && root != 0xFFFFu ? root + 1 : root);
#else
    if (num == 0)
        return 0;
    uint32_t res = 0;
    const int top = (int)((32 - ta_signal_msb32(num)) | 1u);
    uint32_t bit = 1u << (31 - top);
    for (int steps = (31 - top) / 2 + 1; steps > 0; steps--) {
        if (num >= res + bit) {
            num -= res + bit;
            res = (res >> 1) + bit;
        } else {
            res >>= 1;
        }
        bit >>= 2;
    }
    if (num > res && res != 0xFFFFu)
        ++res;
    return (uint16_t)res;
#endif
}

/* The same for 64 bits (never past 0xFFFFFFFF; values under 2^32 as
   ta_signal_sqrt32, as the library). */
static inline uint32_t ta_signal_sqrt64(uint64_t num)
{
    if ((num >> 32) == 0)
        return ta_signal_sqrt32((uint32_t)num);
#if defined(TA_SIGNAL_SQRT_FPU)
    const uint32_t root = ta_signal_floor_sqrt(num);
    return num - (uint64_t)root * root > root && root != 0xFFFFFFFFu ? root + 1 : root;
#else
    uint64_t res = 0;
    const int top = (int)((64 - ta_signal_msb64(num)) | 1u);
    uint64_t bit = (uint64_t)1 << (63 - top);
    for (int steps = (63 - top) / 2 + 1; steps > 0; steps--) {
        if (num >= res + bit) {
            num -= res + bit;
            res = (res >> 1) + bit;
        } else {
            res >>= 1;
        }
        bit >>= 2;
    }
    if (num > res && res != 0xFFFFFFFFu)
        ++res;
    return (uint32_t)res;
#endif
}

/* The low 16 bits as a signed value, as the library's int16 stores keep
   them, without the implementation-defined narrowing conversion. */
static inline int16_t ta_signal_wrap16(int32_t v)
{
    const int32_t low = (int32_t)((uint32_t)v & 0xFFFFu);
    return (int16_t)(low >= 0x8000 ? low - 0x10000 : low);
}

#endif /* TA_SIGNAL_MATH_H */
