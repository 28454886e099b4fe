/* ta_signal_rfft.c - the int16 real FFT and its inverse; see the header.
 *
 * KISS FFT's fixed-point arithmetic, as TFLite Micro builds it (16-bit
 * samples, Q15 twiddles): a product is rounded, (a * b + 2^14) >> 15;
 * dividing by the radix is a product by 32767 / radix; sums are stored
 * back in int16 (wrapping). The recursion of KISS FFT is run here stage by
 * stage: its sub-transforms of one stage are independent, so combining all
 * of one stage before the next gives the same numbers. */
#include "ta_signal_rfft.h"

#include <stddef.h>
#include <string.h>

#include "../include/ta_status.h"

#include "ta_signal_math.h"
#include "ta_signal_rfft_dsp.h"

typedef struct {
    int32_t r, i; /* int16 values, widened */
} cpx_t;

static inline int16_t round_q15(int32_t x)
{
    return ta_signal_wrap16((x + (1 << 14)) >> 15);
}

static inline cpx_t load(const int16_t *buf, int32_t k)
{
    const cpx_t c = {buf[2 * k], buf[2 * k + 1]};
    return c;
}

static inline void store(int16_t *buf, int32_t k, cpx_t c)
{
    buf[2 * k] = ta_signal_wrap16(c.r);
    buf[2 * k + 1] = ta_signal_wrap16(c.i);
}

/* Sums and differences as the int16 stores keep them. */
static inline cpx_t add(cpx_t a, cpx_t b)
{
    const cpx_t c = {ta_signal_wrap16(a.r + b.r), ta_signal_wrap16(a.i + b.i)};
    return c;
}

static inline cpx_t sub(cpx_t a, cpx_t b)
{
    const cpx_t c = {ta_signal_wrap16(a.r - b.r), ta_signal_wrap16(a.i - b.i)};
    return c;
}

static inline cpx_t mul(cpx_t a, cpx_t b)
{
    const cpx_t c = {round_q15(a.r * b.r - a.i * b.i), round_q15(a.r * b.i + a.i * b.r)};
    return c;
}

static inline cpx_t scale(cpx_t a, int32_t s)
{
    const cpx_t c = {round_q15(a.r * s), round_q15(a.i * s)};
    return c;
}

/* The stage's division by its radix. */
static inline cpx_t divide(cpx_t a, int32_t radix)
{
    return scale(a, 32767 / radix);
}

/* With the DSP extension the hot steps (radix 2 and 4, the real split) are
   ta_signal_rfft_dsp.c's, value for value the same. */
#if defined(TA_SIGNAL_RFFT_DSP)
#define radix2 ta_signal_rfft_radix2_dsp
#define radix4 ta_signal_rfft_radix4_dsp
#define split_real ta_signal_rfft_split_dsp
#else
static void radix2(int16_t *f, const int16_t *tw, int32_t stride, int32_t m)
{
    for (int32_t k = 0; k < m; k++) {
        const cpx_t a = divide(load(f, k), 2);
        const cpx_t t = mul(divide(load(f, k + m), 2), load(tw, k * stride));
        store(f, k + m, sub(a, t));
        store(f, k, add(a, t));
    }
}

#endif

static void radix3(int16_t *f, const int16_t *tw, int32_t stride, int32_t m)
{
    const int32_t epi3_im = load(tw, stride * m).i;
    for (int32_t k = 0; k < m; k++) {
        const cpx_t a = divide(load(f, k), 3);
        const cpx_t s1 = mul(divide(load(f, k + m), 3), load(tw, k * stride));
        const cpx_t s2 = mul(divide(load(f, k + 2 * m), 3), load(tw, 2 * k * stride));
        const cpx_t sum = add(s1, s2);
        const cpx_t diff = scale(sub(s1, s2), epi3_im);
        const cpx_t mid = {ta_signal_wrap16(a.r - (sum.r >> 1)),
                           ta_signal_wrap16(a.i - (sum.i >> 1))};
        store(f, k, add(a, sum));
        const cpx_t o2 = {mid.r + diff.i, mid.i - diff.r};
        const cpx_t o1 = {mid.r - diff.i, mid.i + diff.r};
        store(f, k + 2 * m, o2);
        store(f, k + m, o1);
    }
}

#if !defined(TA_SIGNAL_RFFT_DSP)
/* KISS FFT's only direction-dependent butterfly: the inverse turns the
   odd outputs the other way. */
static void radix4(int16_t *f, const int16_t *tw, int32_t stride, int32_t m, int inverse)
{
    for (int32_t k = 0; k < m; k++) {
        const cpx_t a = divide(load(f, k), 4);
        const cpx_t s0 = mul(divide(load(f, k + m), 4), load(tw, k * stride));
        const cpx_t s1 = mul(divide(load(f, k + 2 * m), 4), load(tw, 2 * k * stride));
        const cpx_t s2 = mul(divide(load(f, k + 3 * m), 4), load(tw, 3 * k * stride));
        const cpx_t s5 = sub(a, s1);
        const cpx_t a1 = add(a, s1);
        const cpx_t s3 = add(s0, s2);
        const cpx_t s4 = sub(s0, s2);
        store(f, k + 2 * m, sub(a1, s3));
        store(f, k, add(a1, s3));
        const cpx_t turned = {inverse ? -s4.i : s4.i, inverse ? s4.r : -s4.r};
        const cpx_t o1 = {s5.r + turned.r, s5.i + turned.i};
        const cpx_t o3 = {s5.r - turned.r, s5.i - turned.i};
        store(f, k + m, o1);
        store(f, k + 3 * m, o3);
    }
}
#endif

/* Each S_MUL of KISS FFT is rounded to int16 before it is summed. */
static inline int32_t smul(int32_t a, int32_t b)
{
    return round_q15(a * b);
}

static void radix5(int16_t *f, const int16_t *tw, int32_t stride, int32_t m)
{
    const cpx_t ya = load(tw, stride * m), yb = load(tw, stride * 2 * m);
    for (int32_t u = 0; u < m; u++) {
        const cpx_t s0 = divide(load(f, u), 5);
        const cpx_t s1 = mul(divide(load(f, u + m), 5), load(tw, u * stride));
        const cpx_t s2 = mul(divide(load(f, u + 2 * m), 5), load(tw, 2 * u * stride));
        const cpx_t s3 = mul(divide(load(f, u + 3 * m), 5), load(tw, 3 * u * stride));
        const cpx_t s4 = mul(divide(load(f, u + 4 * m), 5), load(tw, 4 * u * stride));
        const cpx_t s7 = add(s1, s4), s10 = sub(s1, s4);
        const cpx_t s8 = add(s2, s3), s9 = sub(s2, s3);
        const cpx_t o0 = {s0.r + (s7.r + s8.r), s0.i + (s7.i + s8.i)};
        store(f, u, o0);
        const cpx_t s5 = {ta_signal_wrap16(s0.r + smul(s7.r, ya.r) + smul(s8.r, yb.r)),
                          ta_signal_wrap16(s0.i + smul(s7.i, ya.r) + smul(s8.i, yb.r))};
        const cpx_t s6 = {ta_signal_wrap16(smul(s10.i, ya.i) + smul(s9.i, yb.i)),
                          ta_signal_wrap16(-smul(s10.r, ya.i) - smul(s9.r, yb.i))};
        store(f, u + m, sub(s5, s6));
        store(f, u + 4 * m, add(s5, s6));
        const cpx_t s11 = {ta_signal_wrap16(s0.r + smul(s7.r, yb.r) + smul(s8.r, ya.r)),
                           ta_signal_wrap16(s0.i + smul(s7.i, yb.r) + smul(s8.i, ya.r))};
        const cpx_t s12 = {ta_signal_wrap16(-smul(s10.i, yb.i) + smul(s9.i, ya.i)),
                           ta_signal_wrap16(smul(s10.r, yb.i) - smul(s9.r, ya.i))};
        store(f, u + 2 * m, add(s11, s12));
        store(f, u + 3 * m, sub(s11, s12));
    }
}

/* One frame's sample k, zero past the frame. */
static inline int32_t sample(const int16_t *frame, int32_t length, int32_t k)
{
    return k < length ? frame[k] : 0;
}

/* The complex FFT of src (length values, zero past them, read in (re, im)
   pairs) into work. */
static void complex_fft(const ta_signal_rfft_params_t *p, const int16_t *frame, int32_t length,
                        const int16_t *tw, int inverse, int16_t *work)
{
    const int32_t n = p->fft_length / 2;
    /* The leaves: output position sum(digit[s] * span[s]) takes input
       sum(digit[s] * stride[s]), stride[s] the product of the radices
       before stage s (a mixed-radix digit reversal). */
    int32_t digit[TA_SIGNAL_RFFT_MAX_STAGES] = {0}, stride[TA_SIGNAL_RFFT_MAX_STAGES] = {0};
    stride[0] = 1;
    for (int32_t s = 1; s < p->stages; s++)
        stride[s] = stride[s - 1] * p->radix[s - 1];
    /* The last digit is the fastest: one run of radix[last] leaves per
       turn, then the other digits count on. */
    const int32_t last = p->stages - 1, run = p->radix[last], step = stride[last];
    int32_t src = 0;
    for (int32_t out = 0; out < n; out += run) {
        for (int32_t d = 0; d < run; d++) {
            const int32_t i = 2 * (src + d * step);
            int16_t *leaf = work + 2 * (out + d);
            if (i + 1 < length) {
                memcpy(leaf, frame + i, 2 * sizeof *leaf); /* one word, both in the frame */
            } else {
                leaf[0] = (int16_t)sample(frame, length, i);
                leaf[1] = (int16_t)sample(frame, length, i + 1);
            }
        }
        for (int32_t s = last - 1; s >= 0; s--) {
            src += stride[s];
            if (++digit[s] < p->radix[s])
                break;
            src -= stride[s] * p->radix[s];
            digit[s] = 0;
        }
    }
    /* The stages, innermost (last) first, each over all its blocks. */
    for (int32_t s = p->stages - 1; s >= 0; s--) {
        const int32_t radix = p->radix[s], m = p->span[s], block = radix * m;
        for (int32_t b = 0; b < n; b += block) {
            int16_t *f = work + 2 * b;
            switch (radix) {
            case 2: radix2(f, tw, stride[s], m); break;
            case 3: radix3(f, tw, stride[s], m); break;
            case 4: radix4(f, tw, stride[s], m, inverse); break;
            default: radix5(f, tw, stride[s], m); break;
            }
        }
    }
}

#if !defined(TA_SIGNAL_RFFT_DSP)
/* The real spectrum from the packed transform (KISS FFT's kiss_fftr). */
static void split_real(int32_t n, const int16_t *work, const int16_t *super_tw, int16_t *out)
{
    const cpx_t dc = divide(load(work, 0), 2);
    out[0] = ta_signal_wrap16(dc.r + dc.i);
    out[1] = 0;
    out[2 * n] = ta_signal_wrap16(dc.r - dc.i);
    out[2 * n + 1] = 0;
    for (int32_t k = 1; k <= n / 2; k++) {
        const cpx_t mirror = load(work, n - k);
        const cpx_t conj = {mirror.r, ta_signal_wrap16(-mirror.i)};
        const cpx_t fpk = divide(load(work, k), 2), fpnk = divide(conj, 2);
        const cpx_t f1k = add(fpk, fpnk), f2k = sub(fpk, fpnk);
        const cpx_t t = mul(f2k, load(super_tw, k - 1));
        /* At k = n / 2 both writes land on one bin; the second wins. */
        const cpx_t lo = {(f1k.r + t.r) >> 1, (f1k.i + t.i) >> 1};
        const cpx_t hi = {(f1k.r - t.r) >> 1, (t.i - f1k.i) >> 1};
        store(out, k, lo);
        store(out, n - k, hi);
    }
}
#endif

int ta_signal_rfft_i16(const ta_signal_rfft_params_t *p, const int16_t *input,
                       const int16_t *twiddles, const int16_t *super_twiddles, void *work,
                       int16_t *output)
{
    const int32_t n = p->fft_length / 2;
    int16_t *buf = work; /* n (re, im) pairs */
    for (int32_t frame = 0; frame < p->frames; frame++) {
        complex_fft(p, input + (size_t)frame * (size_t)p->input_length, p->input_length, twiddles,
                    0, buf);
        split_real(n, buf, super_twiddles, output + (size_t)frame * (size_t)(2 * n + 2));
    }
    return TA_OK;
}

/* The packed spectrum of one frame's bins (KISS FFT's kiss_fftri), into
   work: the halves of the even and odd samples' transforms. */
static void fold_real(int32_t n, const int16_t *bins, const int16_t *super_tw, int16_t *work)
{
    const cpx_t first = load(bins, 0), last = load(bins, n);
    const cpx_t dc = {ta_signal_wrap16(first.r + last.r), ta_signal_wrap16(first.r - last.r)};
    store(work, 0, divide(dc, 2));
    for (int32_t k = 1; k <= n / 2; k++) {
        const cpx_t mirror = load(bins, n - k);
        const cpx_t conj = {mirror.r, ta_signal_wrap16(-mirror.i)};
        const cpx_t fk = divide(load(bins, k), 2), fnkc = divide(conj, 2);
        const cpx_t even = add(fk, fnkc);
        const cpx_t odd = mul(sub(fk, fnkc), load(super_tw, k - 1));
        /* At k = n / 2 both writes land on one value; the second wins. */
        store(work, k, add(even, odd));
        const cpx_t hi = sub(even, odd);
        const cpx_t hi_conj = {hi.r, ta_signal_wrap16(-hi.i)};
        store(work, n - k, hi_conj);
    }
}

int ta_signal_irfft_i16(const ta_signal_rfft_params_t *p, const int16_t *input,
                        const int16_t *twiddles, const int16_t *super_twiddles, void *work,
                        int16_t *output)
{
    const int32_t n = p->fft_length / 2;
    int16_t *buf = work; /* n (re, im) pairs */
    for (int32_t frame = 0; frame < p->frames; frame++) {
        fold_real(n, input + (size_t)frame * (size_t)p->input_length, super_twiddles, buf);
        complex_fft(p, buf, p->fft_length, twiddles, 1,
                    output + (size_t)frame * (size_t)p->fft_length);
    }
    return TA_OK;
}
