/* ta_signal_filter_bank.c - filter bank, square root and log; see the
 * header. */
#include "ta_signal_filter_bank.h"

#include "../include/ta_status.h"

#include "ta_signal_math.h"

/* acc + (uint64)(int64)w * bin, modulo 2^64, as the library widens an
   int16 coefficient: the product with w's low 32 bits (UMLAL), less
   bin * 2^32 when w is negative (its high 32 bits are all ones). */
static inline uint64_t weighted(uint64_t acc, int16_t w, uint32_t bin)
{
    const uint32_t low = (uint32_t)(int32_t)w;
#if defined(__ARM_ARCH_7EM__) || defined(__ARM_ARCH_8M_MAIN__) || defined(__ARM_ARCH_8_1M_MAIN__)
    /* in one block: gcc splits the sum into UMULL, ADDS and ADC, and
       copies the high word around the subtraction */
    uint32_t t;
    __asm__("umlal %Q0, %R0, %2, %3\n\t"
            "and   %1, %3, %2, asr #31\n\t"
            "sub   %R0, %R0, %1"
            : "+r"(acc), "=&r"(t)
            : "r"(low), "r"(bin));
    return acc;
#else
    return acc + (uint64_t)low * bin - ((uint64_t)(w < 0 ? bin : 0u) << 32);
#endif
}

int ta_signal_filter_bank_u32(const ta_signal_filter_bank_params_t *p, const uint32_t *input,
                              const int16_t *weights, const int16_t *unweights,
                              const int16_t *freq_starts, const int16_t *weight_starts,
                              const int16_t *widths, uint64_t *output)
{
    uint64_t rising = 0, falling = 0;
    for (int32_t ch = 0; ch <= p->num_channels; ch++) {
        const int32_t freq = freq_starts[ch], w = weight_starts[ch];
        for (int32_t j = 0; j < widths[ch]; j++) {
            const uint32_t bin = input[freq + j];
            rising = weighted(rising, weights[w + j], bin);
            falling = weighted(falling, unweights[w + j], bin);
        }
        if (ch > 0)
            output[ch - 1] = rising;
        rising = falling;
        falling = 0;
    }
    return TA_OK;
}

int ta_signal_filter_bank_sqrt_u64(const ta_signal_filter_bank_sqrt_params_t *p,
                                   const uint64_t *input, const int32_t *scale_bits,
                                   uint32_t *output)
{
    /* The auto-scale shift is 0 to 15; a shift the library could not make
       (C leaves it undefined) gives 0. */
    const int32_t bits = *scale_bits;
    for (int32_t i = 0; i < p->count; i++) {
        const uint32_t root = ta_signal_sqrt64(input[i]);
        output[i] = bits >= 0 && bits < 32 ? root >> bits : 0;
    }
    return TA_OK;
}

/* The library's log correction table (kLogLut): about how far log2(1 + f)
   lies above the straight line f, Q16, at f = 0, 1/128, ..., 1 (one
   extra entry), interpolated between. */
static const uint16_t log_bulge[130] = {
    0,    224,  442,  654,  861,  1063, 1259, 1450, 1636, 1817, 1992, 2163, 2329, 2490, 2646,
    2797, 2944, 3087, 3224, 3358, 3487, 3611, 3732, 3848, 3960, 4068, 4172, 4272, 4368, 4460,
    4549, 4633, 4714, 4791, 4864, 4934, 5001, 5063, 5123, 5178, 5231, 5280, 5326, 5368, 5408,
    5444, 5477, 5507, 5533, 5557, 5578, 5595, 5610, 5622, 5631, 5637, 5640, 5641, 5638, 5633,
    5626, 5615, 5602, 5586, 5568, 5547, 5524, 5498, 5470, 5439, 5406, 5370, 5332, 5291, 5249,
    5203, 5156, 5106, 5054, 5000, 4944, 4885, 4825, 4762, 4697, 4630, 4561, 4490, 4416, 4341,
    4264, 4184, 4103, 4020, 3935, 3848, 3759, 3668, 3575, 3481, 3384, 3286, 3186, 3084, 2981,
    2875, 2768, 2659, 2549, 2437, 2323, 2207, 2090, 1971, 1851, 1729, 1605, 1480, 1353, 1224,
    1094, 963,  830,  695,  559,  421,  282,  142,  0,    0};

/* The fractional part of log2(x), Q16, for x with its top bit at
   `exponent` (x >= 2). */
static uint32_t log2_fraction(uint32_t x, uint32_t exponent)
{
    int32_t frac = (int32_t)((int64_t)x - ((int64_t)1 << exponent));
    if (exponent < 16)
        frac = (int32_t)((uint32_t)frac << (16 - exponent));
    else
        frac >>= exponent - 16;
    const uint32_t seg = (uint32_t)frac >> 9; /* 128 segments of 512 */
    const int32_t c0 = log_bulge[seg], c1 = log_bulge[seg + 1];
    const int32_t rel = ((c1 - c0) * (frac - (int32_t)(seg << 9))) >> 16;
    return (uint32_t)(frac + c0 + rel);
}

/* ln(x) * scale, rounded, as the library's Log32. */
static uint32_t log_scaled(uint32_t x, uint32_t scale)
{
    const uint32_t exponent = ta_signal_msb32(x) - 1;
    const uint32_t log2 = (exponent << 16) + log2_fraction(x, exponent);
    const uint32_t ln = (uint32_t)(((uint64_t)45426 * log2 + 32768) >> 16); /* * ln 2, Q16 */
    return (scale * ln + 32768) >> 16;
}

int ta_signal_filter_bank_log_u32(const ta_signal_filter_bank_log_params_t *p,
                                  const uint32_t *input, int16_t *output)
{
    for (int32_t i = 0; i < p->count; i++) {
        const uint32_t scaled = input[i] << p->correction_bits;
        if (scaled > 1) {
            const uint32_t v = log_scaled(scaled, p->output_scale);
            output[i] = (int16_t)(v < (uint32_t)INT16_MAX ? v : (uint32_t)INT16_MAX);
        } else {
            output[i] = 0;
        }
    }
    return TA_OK;
}
