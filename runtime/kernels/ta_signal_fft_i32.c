/* ta_signal_fft_i32.c - the int32 real FFT and its inverse; see the header.
 *
 * KISS FFT's 32-bit fixed-point arithmetic: a product is formed in 64
 * bits and rounded, (a * b + 2^30) >> 31, then kept in int32; dividing by
 * the radix is a product by 2147483647 / radix; sums and differences wrap
 * in int32 as TFLite Micro's build stores them. Run stage by stage as the
 * int16 kernel (ta_signal_rfft.c) explains. */
#include "ta_signal_fft_i32.h"

#include <stddef.h>

#include "../include/ta_status.h"

typedef struct {
    int32_t r, i;
} cpx_t;

/* int32 wrap-around without signed overflow. */
static inline int32_t wrap32(int64_t v)
{
    const uint32_t low = (uint32_t)((uint64_t)v & 0xFFFFFFFFu);
    return low >= 0x80000000u ? (int32_t)(low - 0x80000000u) - 0x7FFFFFFF - 1 : (int32_t)low;
}

static inline int32_t round_q31(int64_t x)
{
    return wrap32((x + (1 << 30)) >> 31);
}

static inline int32_t plus(int32_t a, int32_t b)
{
    return wrap32((int64_t)a + b);
}
static inline int32_t minus(int32_t a, int32_t b)
{
    return wrap32((int64_t)a - b);
}

static inline cpx_t load(const int32_t *buf, int32_t k)
{
    const cpx_t c = {buf[2 * k], buf[2 * k + 1]};
    return c;
}

static inline void store(int32_t *buf, int32_t k, cpx_t c)
{
    buf[2 * k] = c.r;
    buf[2 * k + 1] = c.i;
}

static inline cpx_t add(cpx_t a, cpx_t b)
{
    const cpx_t c = {plus(a.r, b.r), plus(a.i, b.i)};
    return c;
}

static inline cpx_t sub(cpx_t a, cpx_t b)
{
    const cpx_t c = {minus(a.r, b.r), minus(a.i, b.i)};
    return c;
}

static inline cpx_t mul(cpx_t a, cpx_t b)
{
    const cpx_t c = {round_q31((int64_t)a.r * b.r - (int64_t)a.i * b.i),
                     round_q31((int64_t)a.r * b.i + (int64_t)a.i * b.r)};
    return c;
}

/* KISS FFT's S_MUL: one rounded product. */
static inline int32_t smul(int32_t a, int32_t b)
{
    return round_q31((int64_t)a * b);
}

static inline cpx_t scale(cpx_t a, int32_t s)
{
    const cpx_t c = {smul(a.r, s), smul(a.i, s)};
    return c;
}

static inline cpx_t divide(cpx_t a, int32_t radix)
{
    return scale(a, 2147483647 / radix);
}

static void radix2(int32_t *f, const int32_t *tw, int32_t stride, int32_t m)
{
    for (int32_t k = 0; k < m; k++) {
        const cpx_t a = divide(load(f, k), 2);
        const cpx_t t = mul(divide(load(f, k + m), 2), load(tw, k * stride));
        store(f, k + m, sub(a, t));
        store(f, k, add(a, t));
    }
}

static void radix3(int32_t *f, const int32_t *tw, int32_t stride, int32_t m)
{
    const int32_t epi3_im = load(tw, stride * m).i;
    for (int32_t k = 0; k < m; k++) {
        const cpx_t a = divide(load(f, k), 3);
        const cpx_t s1 = mul(divide(load(f, k + m), 3), load(tw, k * stride));
        const cpx_t s2 = mul(divide(load(f, k + 2 * m), 3), load(tw, 2 * k * stride));
        const cpx_t sum = add(s1, s2);
        const cpx_t diff = scale(sub(s1, s2), epi3_im);
        const cpx_t mid = {minus(a.r, sum.r >> 1), minus(a.i, sum.i >> 1)};
        store(f, k, add(a, sum));
        const cpx_t o2 = {plus(mid.r, diff.i), minus(mid.i, diff.r)};
        const cpx_t o1 = {minus(mid.r, diff.i), plus(mid.i, diff.r)};
        store(f, k + 2 * m, o2);
        store(f, k + m, o1);
    }
}

/* The inverse turns the odd outputs the other way. */
static void radix4(int32_t *f, const int32_t *tw, int32_t stride, int32_t m, int inverse)
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
        if (inverse) {
            const cpx_t o1 = {minus(s5.r, s4.i), plus(s5.i, s4.r)};
            const cpx_t o3 = {plus(s5.r, s4.i), minus(s5.i, s4.r)};
            store(f, k + m, o1);
            store(f, k + 3 * m, o3);
        } else {
            const cpx_t o1 = {plus(s5.r, s4.i), minus(s5.i, s4.r)};
            const cpx_t o3 = {minus(s5.r, s4.i), plus(s5.i, s4.r)};
            store(f, k + m, o1);
            store(f, k + 3 * m, o3);
        }
    }
}

static void radix5(int32_t *f, const int32_t *tw, int32_t stride, int32_t m)
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
        const cpx_t o0 = {plus(s0.r, plus(s7.r, s8.r)), plus(s0.i, plus(s7.i, s8.i))};
        store(f, u, o0);
        const cpx_t s5 = {plus(plus(s0.r, smul(s7.r, ya.r)), smul(s8.r, yb.r)),
                          plus(plus(s0.i, smul(s7.i, ya.r)), smul(s8.i, yb.r))};
        const cpx_t s6 = {plus(smul(s10.i, ya.i), smul(s9.i, yb.i)),
                          minus(minus(0, smul(s10.r, ya.i)), smul(s9.r, yb.i))};
        store(f, u + m, sub(s5, s6));
        store(f, u + 4 * m, add(s5, s6));
        const cpx_t s11 = {plus(plus(s0.r, smul(s7.r, yb.r)), smul(s8.r, ya.r)),
                           plus(plus(s0.i, smul(s7.i, yb.r)), smul(s8.i, ya.r))};
        const cpx_t s12 = {plus(minus(0, smul(s10.i, yb.i)), smul(s9.i, ya.i)),
                           minus(smul(s10.r, yb.i), smul(s9.r, ya.i))};
        store(f, u + 2 * m, add(s11, s12));
        store(f, u + 3 * m, sub(s11, s12));
    }
}

/* The complex FFT of src (length values, zero past them, read in (re, im)
   pairs) into work: the leaves in mixed-radix digit-reversed order, then
   the stages, innermost (last) first, each over all its blocks. */
static void complex_fft(const ta_signal_rfft_params_t *p, const int32_t *src, int32_t length,
                        const int32_t *tw, int inverse, int32_t *work)
{
    const int32_t n = p->fft_length / 2;
    int32_t digit[TA_SIGNAL_RFFT_MAX_STAGES] = {0}, stride[TA_SIGNAL_RFFT_MAX_STAGES] = {0};
    stride[0] = 1;
    for (int32_t s = 1; s < p->stages; s++)
        stride[s] = stride[s - 1] * p->radix[s - 1];
    int32_t from = 0;
    for (int32_t out = 0; out < n; out++) {
        work[2 * out] = 2 * from < length ? src[2 * from] : 0;
        work[2 * out + 1] = 2 * from + 1 < length ? src[2 * from + 1] : 0;
        for (int32_t s = p->stages - 1; s >= 0; s--) {
            from += stride[s];
            if (++digit[s] < p->radix[s])
                break;
            from -= stride[s] * p->radix[s];
            digit[s] = 0;
        }
    }
    for (int32_t s = p->stages - 1; s >= 0; s--) {
        const int32_t radix = p->radix[s], m = p->span[s], block = radix * m;
        for (int32_t b = 0; b < n; b += block) {
            int32_t *f = work + 2 * b;
            switch (radix) {
            case 2: radix2(f, tw, stride[s], m); break;
            case 3: radix3(f, tw, stride[s], m); break;
            case 4: radix4(f, tw, stride[s], m, inverse); break;
            default: radix5(f, tw, stride[s], m); break;
            }
        }
    }
}

/* The real spectrum from the packed transform (KISS FFT's kiss_fftr). */
static void split_real(int32_t n, const int32_t *work, const int32_t *super_tw, int32_t *out)
{
    const cpx_t dc = divide(load(work, 0), 2);
    out[0] = plus(dc.r, dc.i);
    out[1] = 0;
    out[2 * n] = minus(dc.r, dc.i);
    out[2 * n + 1] = 0;
    for (int32_t k = 1; k <= n / 2; k++) {
        const cpx_t mirror = load(work, n - k);
        const cpx_t conj = {mirror.r, minus(0, mirror.i)};
        const cpx_t fpk = divide(load(work, k), 2), fpnk = divide(conj, 2);
        const cpx_t f1k = add(fpk, fpnk), f2k = sub(fpk, fpnk);
        const cpx_t t = mul(f2k, load(super_tw, k - 1));
        /* At k = n / 2 both writes land on one bin; the second wins. */
        const cpx_t lo = {plus(f1k.r, t.r) >> 1, plus(f1k.i, t.i) >> 1};
        const cpx_t hi = {minus(f1k.r, t.r) >> 1, minus(t.i, f1k.i) >> 1};
        store(out, k, lo);
        store(out, n - k, hi);
    }
}

/* The packed spectrum of one frame's bins (KISS FFT's kiss_fftri). */
static void fold_real(int32_t n, const int32_t *bins, const int32_t *super_tw, int32_t *work)
{
    const cpx_t first = load(bins, 0), last = load(bins, n);
    const cpx_t dc = {plus(first.r, last.r), minus(first.r, last.r)};
    store(work, 0, divide(dc, 2));
    for (int32_t k = 1; k <= n / 2; k++) {
        const cpx_t mirror = load(bins, n - k);
        const cpx_t conj = {mirror.r, minus(0, mirror.i)};
        const cpx_t fk = divide(load(bins, k), 2), fnkc = divide(conj, 2);
        const cpx_t even = add(fk, fnkc);
        const cpx_t odd = mul(sub(fk, fnkc), load(super_tw, k - 1));
        /* At k = n / 2 both writes land on one value; the second wins. */
        store(work, k, add(even, odd));
        const cpx_t hi = sub(even, odd);
        const cpx_t hi_conj = {hi.r, minus(0, hi.i)};
        store(work, n - k, hi_conj);
    }
}

int ta_signal_rfft_i32(const ta_signal_rfft_params_t *p, const int32_t *input,
                       const int32_t *twiddles, const int32_t *super_twiddles, void *work,
                       int32_t *output)
{
    const int32_t n = p->fft_length / 2;
    int32_t *buf = work;
    for (int32_t frame = 0; frame < p->frames; frame++) {
        complex_fft(p, input + (size_t)frame * (size_t)p->input_length, p->input_length, twiddles,
                    0, buf);
        split_real(n, buf, super_twiddles, output + (size_t)frame * (size_t)(2 * n + 2));
    }
    return TA_OK;
}

int ta_signal_irfft_i32(const ta_signal_rfft_params_t *p, const int32_t *input,
                        const int32_t *twiddles, const int32_t *super_twiddles, void *work,
                        int32_t *output)
{
    const int32_t n = p->fft_length / 2;
    int32_t *buf = work;
    for (int32_t frame = 0; frame < p->frames; frame++) {
        fold_real(n, input + (size_t)frame * (size_t)p->input_length, super_twiddles, buf);
        complex_fft(p, buf, p->fft_length, twiddles, 1,
                    output + (size_t)frame * (size_t)p->fft_length);
    }
    return TA_OK;
}
