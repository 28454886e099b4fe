/* ta_signal_rfft_dsp.c - the int16 FFT's butterflies with SIMD32; see the
 * header. Every step mirrors one of ta_signal_rfft.c's portable helpers. */
#include "ta_signal_rfft_dsp.h"

#if defined(TA_SIGNAL_RFFT_DSP)
#include <arm_acle.h>
#include <string.h>

#define ROUND_Q15 (1 << 14)

/* Words at any 2-byte aligned address (Cortex-M loads unaligned words). */
static inline uint32_t get(const int16_t *buf, int32_t k)
{
    uint32_t v;
    memcpy(&v, buf + 2 * k, 4);
    return v;
}

static inline void put(int16_t *buf, int32_t k, uint32_t v)
{
    memcpy(buf + 2 * k, &v, 4);
}

/* Two rounded Q15 sums (x + 2^14, not yet shifted) as one word: bits 15-30
   of each, which are the int16 that the portable round_q15 stores. */
static inline uint32_t pack(int32_t re, int32_t im)
{
    uint32_t word; /* GCC writes the masks as three instructions, PKHTB is one */
    __asm__("pkhtb %0, %1, %2, asr #15" : "=r"(word) : "r"((uint32_t)im << 1), "r"(re));
    return word;
}

/* scale(): both parts times k (int16 in the low half of k). */
static inline uint32_t scale(uint32_t a, int32_t k)
{
    return pack(__smlabb((int32_t)a, k, ROUND_Q15), __smlatb((int32_t)a, k, ROUND_Q15));
}

/* mul(): (a.r t.r - a.i t.i, a.r t.i + a.i t.r), each rounded. */
static inline uint32_t mul(uint32_t a, uint32_t t)
{
    return pack(__smlsd((int32_t)a, (int32_t)t, ROUND_Q15),
                __smladx((int32_t)a, (int32_t)t, ROUND_Q15));
}

static inline uint32_t add(uint32_t a, uint32_t b)
{
    return (uint32_t)__sadd16((int32_t)a, (int32_t)b);
}

static inline uint32_t sub(uint32_t a, uint32_t b)
{
    return (uint32_t)__ssub16((int32_t)a, (int32_t)b);
}

void ta_signal_rfft_radix2_dsp(int16_t *f, const int16_t *tw, int32_t stride, int32_t m)
{
    const int32_t half = 32767 / 2;
    for (int32_t k = 0; k < m; k++) {
        const uint32_t a = scale(get(f, k), half);
        const uint32_t t = mul(scale(get(f, k + m), half), get(tw, k * stride));
        put(f, k + m, sub(a, t));
        put(f, k, add(a, t));
    }
}

void ta_signal_rfft_radix4_dsp(int16_t *f, const int16_t *tw, int32_t stride, int32_t m,
                               int inverse)
{
    const int32_t quarter = 32767 / 4;
    const int16_t *tw1 = tw, *tw2 = tw, *tw3 = tw;
    const int32_t forward = !inverse;
    for (int32_t k = 0; k < m; k++) {
        const uint32_t a = scale(get(f, k), quarter);
        const uint32_t s0 = mul(scale(get(f, k + m), quarter), get(tw1, 0));
        const uint32_t s1 = mul(scale(get(f, k + 2 * m), quarter), get(tw2, 0));
        const uint32_t s2 = mul(scale(get(f, k + 3 * m), quarter), get(tw3, 0));
        tw1 += 2 * stride;
        tw2 += 4 * stride;
        tw3 += 6 * stride;
        const uint32_t s5 = sub(a, s1), a1 = add(a, s1);
        const uint32_t s3 = add(s0, s2), s4 = sub(s0, s2);
        put(f, k + 2 * m, sub(a1, s3));
        put(f, k, add(a1, s3));
        /* s5 plus and minus s4 turned a quarter: (s5.r + s4.i, s5.i - s4.r)
           is SSAX, its mirror SASX; the inverse turns the other way. */
        const uint32_t plus = (uint32_t)__ssax((int32_t)s5, (int32_t)s4);
        const uint32_t minus = (uint32_t)__sasx((int32_t)s5, (int32_t)s4);
        put(f, k + m, forward ? plus : minus);
        put(f, k + 3 * m, forward ? minus : plus);
    }
}

void ta_signal_rfft_split_dsp(int32_t n, const int16_t *work, const int16_t *super_tw, int16_t *out)
{
    const int32_t half = 32767 / 2;
    const uint32_t dc = scale(get(work, 0), half);
    const int32_t dc_r = (int16_t)(dc & 0xFFFFu), dc_i = (int16_t)(dc >> 16);
    put(out, 0, (uint32_t)(dc_r + dc_i) & 0xFFFFu);
    put(out, n, (uint32_t)(dc_r - dc_i) & 0xFFFFu);
    for (int32_t k = 1; k <= n / 2; k++) {
        const uint32_t mirror = get(work, n - k);
        /* The mirror's conjugate, its imaginary part negated as int16. */
        const uint32_t negated = sub(0, mirror);
        const uint32_t conj = (mirror & 0xFFFFu) | (negated & 0xFFFF0000u);
        const uint32_t fpk = scale(get(work, k), half), fpnk = scale(conj, half);
        const uint32_t f1k = add(fpk, fpnk), f2k = sub(fpk, fpnk);
        const uint32_t t = mul(f2k, get(super_tw, k - 1));
        /* lo = (f1k + t) / 2 and hi = (f1k.r - t.r, t.i - f1k.i) / 2, each
           an arithmetic shift of the exact sum: SHADD16 and SHSUB16. */
        const uint32_t lo = (uint32_t)__shadd16((int32_t)f1k, (int32_t)t);
        const uint32_t x = (f1k & 0xFFFFu) | (t & 0xFFFF0000u);
        const uint32_t y = (t & 0xFFFFu) | (f1k & 0xFFFF0000u);
        const uint32_t hi = (uint32_t)__shsub16((int32_t)x, (int32_t)y);
        /* At k = n / 2 both writes land on one bin; the second wins. */
        put(out, k, lo);
        put(out, n - k, hi);
    }
}
#endif
