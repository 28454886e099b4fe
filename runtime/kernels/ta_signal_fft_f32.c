/* ta_signal_fft_f32.c - the float32 real FFT and its inverse; see the
 * header. Every expression keeps KISS FFT's grouping: a + b + c is
 * (a + b) + c, and the build's -ffp-contract=off keeps products unfused.
 * Run stage by stage as the int16 kernel (ta_signal_rfft.c) explains. */
#include "ta_signal_fft_f32.h"

#include <stddef.h>

#include "../include/ta_status.h"

typedef struct {
    float r, i;
} cpx_t;

static inline cpx_t load(const float *buf, int32_t k)
{
    const cpx_t c = {buf[2 * k], buf[2 * k + 1]};
    return c;
}

static inline void store(float *buf, int32_t k, cpx_t c)
{
    buf[2 * k] = c.r;
    buf[2 * k + 1] = c.i;
}

static inline cpx_t add(cpx_t a, cpx_t b)
{
    const cpx_t c = {a.r + b.r, a.i + b.i};
    return c;
}

static inline cpx_t sub(cpx_t a, cpx_t b)
{
    const cpx_t c = {a.r - b.r, a.i - b.i};
    return c;
}

static inline cpx_t mul(cpx_t a, cpx_t b)
{
    const cpx_t c = {a.r * b.r - a.i * b.i, a.r * b.i + a.i * b.r};
    return c;
}

static void radix2(float *f, const float *tw, int32_t stride, int32_t m)
{
    for (int32_t k = 0; k < m; k++) {
        const cpx_t a = load(f, k);
        const cpx_t t = mul(load(f, k + m), load(tw, k * stride));
        store(f, k + m, sub(a, t));
        store(f, k, add(a, t));
    }
}

static void radix3(float *f, const float *tw, int32_t stride, int32_t m)
{
    const float epi3_im = load(tw, stride * m).i;
    for (int32_t k = 0; k < m; k++) {
        const cpx_t a = load(f, k);
        const cpx_t s1 = mul(load(f, k + m), load(tw, k * stride));
        const cpx_t s2 = mul(load(f, k + 2 * m), load(tw, 2 * k * stride));
        const cpx_t sum = add(s1, s2);
        const cpx_t d = sub(s1, s2);
        const cpx_t diff = {d.r * epi3_im, d.i * epi3_im};
        const cpx_t mid = {a.r - sum.r * 0.5f, a.i - sum.i * 0.5f};
        store(f, k, add(a, sum));
        const cpx_t o2 = {mid.r + diff.i, mid.i - diff.r};
        const cpx_t o1 = {mid.r - diff.i, mid.i + diff.r};
        store(f, k + 2 * m, o2);
        store(f, k + m, o1);
    }
}

/* The inverse turns the odd outputs the other way. */
static void radix4(float *f, const float *tw, int32_t stride, int32_t m, int inverse)
{
    for (int32_t k = 0; k < m; k++) {
        const cpx_t a = load(f, k);
        const cpx_t s0 = mul(load(f, k + m), load(tw, k * stride));
        const cpx_t s1 = mul(load(f, k + 2 * m), load(tw, 2 * k * stride));
        const cpx_t s2 = mul(load(f, k + 3 * m), load(tw, 3 * k * stride));
        const cpx_t s5 = sub(a, s1);
        const cpx_t a1 = add(a, s1);
        const cpx_t s3 = add(s0, s2);
        const cpx_t s4 = sub(s0, s2);
        store(f, k + 2 * m, sub(a1, s3));
        store(f, k, add(a1, s3));
        if (inverse) {
            const cpx_t o1 = {s5.r - s4.i, s5.i + s4.r};
            const cpx_t o3 = {s5.r + s4.i, s5.i - s4.r};
            store(f, k + m, o1);
            store(f, k + 3 * m, o3);
        } else {
            const cpx_t o1 = {s5.r + s4.i, s5.i - s4.r};
            const cpx_t o3 = {s5.r - s4.i, s5.i + s4.r};
            store(f, k + m, o1);
            store(f, k + 3 * m, o3);
        }
    }
}

static void radix5(float *f, const float *tw, int32_t stride, int32_t m)
{
    const cpx_t ya = load(tw, stride * m), yb = load(tw, stride * 2 * m);
    for (int32_t u = 0; u < m; u++) {
        const cpx_t s0 = load(f, u);
        const cpx_t s1 = mul(load(f, u + m), load(tw, u * stride));
        const cpx_t s2 = mul(load(f, u + 2 * m), load(tw, 2 * u * stride));
        const cpx_t s3 = mul(load(f, u + 3 * m), load(tw, 3 * u * stride));
        const cpx_t s4 = mul(load(f, u + 4 * m), load(tw, 4 * u * stride));
        const cpx_t s7 = add(s1, s4), s10 = sub(s1, s4);
        const cpx_t s8 = add(s2, s3), s9 = sub(s2, s3);
        const cpx_t o0 = {s0.r + (s7.r + s8.r), s0.i + (s7.i + s8.i)};
        store(f, u, o0);
        const cpx_t s5 = {s0.r + s7.r * ya.r + s8.r * yb.r, s0.i + s7.i * ya.r + s8.i * yb.r};
        const cpx_t s6 = {s10.i * ya.i + s9.i * yb.i, -(s10.r * ya.i) - s9.r * yb.i};
        store(f, u + m, sub(s5, s6));
        store(f, u + 4 * m, add(s5, s6));
        const cpx_t s11 = {s0.r + s7.r * yb.r + s8.r * ya.r, s0.i + s7.i * yb.r + s8.i * ya.r};
        const cpx_t s12 = {-(s10.i * yb.i) + s9.i * ya.i, s10.r * yb.i - s9.r * ya.i};
        store(f, u + 2 * m, add(s11, s12));
        store(f, u + 3 * m, sub(s11, s12));
    }
}

/* The complex FFT of src (length values, zero past them, read in (re, im)
   pairs) into work: the leaves in mixed-radix digit-reversed order, then
   the stages, innermost (last) first, each over all its blocks. */
static void complex_fft(const ta_signal_rfft_params_t *p, const float *src, int32_t length,
                        const float *tw, int inverse, float *work)
{
    const int32_t n = p->fft_length / 2;
    int32_t digit[TA_SIGNAL_RFFT_MAX_STAGES] = {0}, stride[TA_SIGNAL_RFFT_MAX_STAGES] = {0};
    stride[0] = 1;
    for (int32_t s = 1; s < p->stages; s++)
        stride[s] = stride[s - 1] * p->radix[s - 1];
    int32_t from = 0;
    for (int32_t out = 0; out < n; out++) {
        work[2 * out] = 2 * from < length ? src[2 * from] : 0.0f;
        work[2 * out + 1] = 2 * from + 1 < length ? src[2 * from + 1] : 0.0f;
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
            float *f = work + 2 * b;
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
static void split_real(int32_t n, const float *work, const float *super_tw, float *out)
{
    const cpx_t dc = load(work, 0);
    out[0] = dc.r + dc.i;
    out[1] = 0.0f;
    out[2 * n] = dc.r - dc.i;
    out[2 * n + 1] = 0.0f;
    for (int32_t k = 1; k <= n / 2; k++) {
        const cpx_t mirror = load(work, n - k);
        const cpx_t fpk = load(work, k), fpnk = {mirror.r, -mirror.i};
        const cpx_t f1k = add(fpk, fpnk), f2k = sub(fpk, fpnk);
        const cpx_t t = mul(f2k, load(super_tw, k - 1));
        /* At k = n / 2 both writes land on one bin; the second wins. */
        const cpx_t lo = {(f1k.r + t.r) * 0.5f, (f1k.i + t.i) * 0.5f};
        const cpx_t hi = {(f1k.r - t.r) * 0.5f, (t.i - f1k.i) * 0.5f};
        store(out, k, lo);
        store(out, n - k, hi);
    }
}

/* The packed spectrum of one frame's bins (KISS FFT's kiss_fftri). */
static void fold_real(int32_t n, const float *bins, const float *super_tw, float *work)
{
    const cpx_t first = load(bins, 0), last = load(bins, n);
    const cpx_t dc = {first.r + last.r, first.r - last.r};
    store(work, 0, dc);
    for (int32_t k = 1; k <= n / 2; k++) {
        const cpx_t mirror = load(bins, n - k);
        const cpx_t fk = load(bins, k), fnkc = {mirror.r, -mirror.i};
        const cpx_t even = add(fk, fnkc);
        const cpx_t odd = mul(sub(fk, fnkc), load(super_tw, k - 1));
        /* At k = n / 2 both writes land on one value; the second wins. */
        store(work, k, add(even, odd));
        const cpx_t hi = sub(even, odd);
        const cpx_t hi_conj = {hi.r, hi.i * -1.0f};
        store(work, n - k, hi_conj);
    }
}

int ta_signal_rfft_f32(const ta_signal_rfft_params_t *p, const float *input, const float *twiddles,
                       const float *super_twiddles, void *work, float *output)
{
    const int32_t n = p->fft_length / 2;
    float *buf = work;
    for (int32_t frame = 0; frame < p->frames; frame++) {
        complex_fft(p, input + (size_t)frame * (size_t)p->input_length, p->input_length, twiddles,
                    0, buf);
        split_real(n, buf, super_twiddles, output + (size_t)frame * (size_t)(2 * n + 2));
    }
    return TA_OK;
}

int ta_signal_irfft_f32(const ta_signal_rfft_params_t *p, const float *input, const float *twiddles,
                        const float *super_twiddles, void *work, float *output)
{
    const int32_t n = p->fft_length / 2;
    const float length = (float)p->fft_length;
    float *buf = work;
    for (int32_t frame = 0; frame < p->frames; frame++) {
        float *samples = output + (size_t)frame * (size_t)p->fft_length;
        fold_real(n, input + (size_t)frame * (size_t)p->input_length, super_twiddles, buf);
        complex_fft(p, buf, p->fft_length, twiddles, 1, samples);
        for (int32_t i = 0; i < p->fft_length; i++)
            samples[i] /= length;
    }
    return TA_OK;
}
