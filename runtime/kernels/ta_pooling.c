/* ta_pooling.c - pooling kernels; see the header.
 *
 * int8 pools walk one output pixel at a time over vectors of channels
 * (NHWC: a window position's channels are contiguous): Helium sums 16
 * channels in int32 lanes and divides by a reciprocal product where that
 * is exact, DSP sums four channels in int16 halves (and divides by a
 * reciprocal product too, stored a word at a time) and takes maxima with
 * SSUB8/SEL. Each gives the portable path's bytes. */
#include "ta_pooling.h"

#include "../include/ta_dw_simd.h"
#include "../include/ta_element.h"
#include "../include/ta_elementwise_simd.h"
#include "../include/ta_quant.h"
#include "../include/ta_status.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* The part of one filter window that lies inside the input: rows
   [y0, y1), columns [x0, x1). Empty only for output sizes the converter
   rejects. */
typedef struct {
    int32_t y0, y1, x0, x1;
} window_t;

static window_t pool_window(const ta_pool_params_t *p, int32_t oy, int32_t ox)
{
    window_t w;
    const int32_t iy = oy * p->stride_height - p->pad_height;
    const int32_t ix = ox * p->stride_width - p->pad_width;
    w.y0 = iy < 0 ? 0 : iy;
    w.x0 = ix < 0 ? 0 : ix;
    w.y1 = iy + p->filter_height < p->input_height ? iy + p->filter_height : p->input_height;
    w.x1 = ix + p->filter_width < p->input_width ? ix + p->filter_width : p->input_width;
    return w;
}

static size_t image_size(const ta_pool_params_t *p)
{
    return (size_t)p->input_height * (size_t)p->input_width * (size_t)p->depth;
}

static size_t pixel(const ta_pool_params_t *p, int32_t y, int32_t x)
{
    return ((size_t)y * (size_t)p->input_width + (size_t)x) * (size_t)p->depth;
}

/* sum / count rounded half away from zero (C division truncates). */
static int32_t rounded_average(int32_t sum, int32_t count)
{
    return sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
}

/* One output pixel of an average pool, channel by channel: the
   reference. `base` is the window's first input pixel. */
TA_ALWAYS_INLINE void average_pixel_portable(const ta_pool_params_t *p, const void *base,
                                             int32_t rows, int32_t cols, void *out, bool wide)
{
    const size_t depth = (size_t)p->depth, row_stride = (size_t)p->input_width * depth;
    const int32_t count = rows * cols;
    for (size_t ch = 0; ch < depth; ch++) {
        int32_t sum = 0;
        for (int32_t y = 0; y < rows; y++)
            for (int32_t x = 0; x < cols; x++)
                sum += ta_load_element(base, (size_t)y * row_stride + (size_t)x * depth + ch, wide);
        ta_store_element(
            out, ch,
            ta_clamp_i32(rounded_average(sum, count), p->activation_min, p->activation_max), wide);
    }
}

/* One output pixel of a max pool, channel by channel: the reference. */
TA_ALWAYS_INLINE void max_pixel_portable(const ta_pool_params_t *p, const void *base, int32_t rows,
                                         int32_t cols, void *out, bool wide)
{
    const size_t depth = (size_t)p->depth, row_stride = (size_t)p->input_width * depth;
    for (size_t ch = 0; ch < depth; ch++) {
        int32_t m = wide ? INT16_MIN : INT8_MIN;
        for (int32_t y = 0; y < rows; y++)
            for (int32_t x = 0; x < cols; x++) {
                const int32_t v = ta_load_element(
                    base, (size_t)y * row_stride + (size_t)x * depth + ch, wide);
                m = v > m ? v : m;
            }
        ta_store_element(out, ch, ta_clamp_i32(m, p->activation_min, p->activation_max), wide);
    }
}

#if defined(TA_EW_MVE)
/* rounded_average on four lanes: |sum| + count / 2 divided by count as
   the high half of a product with ceil(2^32 / count), exact while
   (|sum| + count / 2) * (count - 1) < 2^32 (averaging_by_product says
   when), then the sign put back. */
typedef struct {
    int32_t half;
    uint32_t reciprocal;
    int32x4_t lo, hi;
} mve_divisor_t;

static bool averaging_by_product(int32_t count)
{
    const uint64_t largest = (uint64_t)count * 128u + (uint64_t)count / 2u;
    return count > 1 && largest * (uint64_t)(count - 1) < ((uint64_t)1 << 32);
}

static inline void mve_average_store(int32x4_t sum, const mve_divisor_t *d, int8_t *out,
                                     mve_pred16_t pred)
{
    const mve_pred16_t negative = vcmpltq_n_s32(sum, 0);
    const uint32x4_t n = vreinterpretq_u32_s32(vaddq_n_s32(vabsq_s32(sum), d->half));
    const int32x4_t q = vreinterpretq_s32_u32(vmulhq_u32(n, vdupq_n_u32(d->reciprocal)));
    const int32x4_t v = vnegq_m_s32(q, q, negative);
    vstrbq_p_s32(out, vminq_s32(vmaxq_s32(v, d->lo), d->hi), pred);
}

/* Sums 16 channels at a time in four int32 lanes each, then the last
   channels four at a time under a predicate. */
static void average_pixel_mve(const ta_pool_params_t *p, const int8_t *base, int32_t rows,
                              int32_t cols, int8_t *out)
{
    const int32_t depth = p->depth, count = rows * cols;
    const size_t row_stride = (size_t)p->input_width * (size_t)depth;
    mve_divisor_t d;
    d.half = count / 2;
    d.reciprocal = 0xFFFFFFFFu / (uint32_t)count + 1u;
    d.lo = vdupq_n_s32(p->activation_min);
    d.hi = vdupq_n_s32(p->activation_max);
    int32_t ch = 0;
    for (; ch + 16 <= depth; ch += 16) {
        int32x4_t s0 = vdupq_n_s32(0), s1 = s0, s2 = s0, s3 = s0;
        for (int32_t y = 0; y < rows; y++) {
            const int8_t *px = base + (size_t)y * row_stride + (size_t)ch;
            for (int32_t x = 0; x < cols; x++, px += depth) {
                s0 = vaddq_s32(s0, vldrbq_s32(px));
                s1 = vaddq_s32(s1, vldrbq_s32(px + 4));
                s2 = vaddq_s32(s2, vldrbq_s32(px + 8));
                s3 = vaddq_s32(s3, vldrbq_s32(px + 12));
            }
        }
        const mve_pred16_t all = vctp32q(4);
        mve_average_store(s0, &d, out + ch, all);
        mve_average_store(s1, &d, out + ch + 4, all);
        mve_average_store(s2, &d, out + ch + 8, all);
        mve_average_store(s3, &d, out + ch + 12, all);
    }
    for (; ch < depth; ch += 4) {
        const mve_pred16_t pred = vctp32q((uint32_t)(depth - ch));
        int32x4_t s = vdupq_n_s32(0);
        for (int32_t y = 0; y < rows; y++) {
            const int8_t *px = base + (size_t)y * row_stride + (size_t)ch;
            for (int32_t x = 0; x < cols; x++, px += depth)
                s = vaddq_s32(s, vldrbq_z_s32(px, pred));
        }
        mve_average_store(s, &d, out + ch, pred);
    }
}
#elif defined(TA_EW_DSP)
static inline uint32_t load_word(const int8_t *p)
{
    uint32_t w;
    memcpy(&w, p, sizeof w);
    return w;
}

/* rounded_average(sum, count) for |sum| <= 128 * count, count > 1, with
   no division and no branch: rounding half away from zero is the floor of
   (sum + half) / count for sum >= 0, and of (sum + count - 1 - half) /
   count below (one less for even counts), moved by 128 * count to be
   nonnegative; that floor is one UMULL by ceil(2^32 / count), exact while
   the dividend times (count - 1) stays below 2^32 (dsp_by_product). */
typedef struct {
    int32_t bias;  /* half + 128 * count */
    uint32_t even; /* 1 for even counts: what negative sums add less */
    uint32_t reciprocal;
} dsp_divisor_t;

static bool dsp_by_product(int32_t count)
{
    const uint64_t largest = (uint64_t)count * 256u + (uint64_t)count / 2u;
    return count > 1 && largest * (uint64_t)(count - 1) < ((uint64_t)1 << 32);
}

static inline int32_t average_by_product(int32_t sum, const dsp_divisor_t *d)
{
    // cppcheck-suppress shiftTooManyBitsSigned
    const uint32_t negative = (uint32_t)(sum >> 31);
    const uint32_t t = (uint32_t)(sum + d->bias) - (negative & d->even);
    return (int32_t)(((uint64_t)t * d->reciprocal) >> 32) - 128;
}

/* The averages of channels [0, end) (a multiple of 4) of one window over
   the full int8 range, four channels per word: sums in int16 halves, then
   average_by_product, the bytes stored as one word. */
static __attribute__((noinline)) void average_quads_dsp(const int8_t *base, int32_t rows,
                                                        int32_t cols, int32_t depth,
                                                        ptrdiff_t row_stride, int32_t end,
                                                        int8_t *out)
{
    const int32_t count = rows * cols;
    const dsp_divisor_t d = {count / 2 + 128 * count, (uint32_t)(count + 1) & 1u,
                             0xFFFFFFFFu / (uint32_t)count + 1u};
    const ptrdiff_t row_width = (ptrdiff_t)cols * depth, next_row = row_stride - row_width;
    for (int32_t ch = 0; ch < end; ch += 4) {
        const int8_t *px = base + ch;
        uint32_t even = 0, odd = 0;
        for (int32_t y = 0; y < rows; y++, px += next_row) {
            const int8_t *row_end = px + row_width;
            do {
                const uint32_t w = load_word(px);
                even = __sxtab16(even, w);
                odd = ta_sxtab16_ror8(odd, w);
                px += depth;
            } while (px != row_end);
        }
        const uint32_t word = ta_dw_pack_bytes(average_by_product((int16_t)even, &d),
                                               average_by_product((int16_t)odd, &d),
                                               average_by_product((int32_t)even >> 16, &d),
                                               average_by_product((int32_t)odd >> 16, &d));
        memcpy(out + ch, &word, sizeof word);
    }
}

/* Four channels at a time in two pairs of int16 halves (SXTAB16 adds
   bytes 0 and 2, or 1 and 3 after a rotate): exact for windows of at
   most 256 positions, where no sum leaves int16. */
static void average_pixel_dsp(const ta_pool_params_t *p, const int8_t *base, int32_t rows,
                              int32_t cols, int8_t *out)
{
    const int32_t depth = p->depth, count = rows * cols;
    const size_t row_stride = (size_t)p->input_width * (size_t)depth;
    const int32_t lo = p->activation_min, hi = p->activation_max;
    int32_t ch = 0;
    /* The full int8 range: averages need no clamp. */
    if (lo == INT8_MIN && hi == INT8_MAX && dsp_by_product(count)) {
        ch = depth & ~3;
        average_quads_dsp(base, rows, cols, depth, (ptrdiff_t)row_stride, ch, out);
    }
    for (; ch + 4 <= depth; ch += 4) {
        uint32_t even = 0, odd = 0;
        for (int32_t y = 0; y < rows; y++) {
            const int8_t *px = base + (size_t)y * row_stride + (size_t)ch;
            for (int32_t x = 0; x < cols; x++, px += depth) {
                const uint32_t w = load_word(px);
                even = __sxtab16(even, w);
                odd = __sxtab16(odd, (w >> 8) | (w << 24));
            }
        }
        const int32_t sums[4] = {(int16_t)(even & 0xFFFFu), (int16_t)(odd & 0xFFFFu),
                                 (int16_t)(even >> 16), (int16_t)(odd >> 16)};
        for (int k = 0; k < 4; k++)
            out[ch + k] = (int8_t)ta_clamp_i32(rounded_average(sums[k], count), lo, hi);
    }
    for (; ch < depth; ch++) {
        int32_t sum = 0;
        for (int32_t y = 0; y < rows; y++)
            for (int32_t x = 0; x < cols; x++)
                sum += base[(size_t)y * row_stride + (size_t)x * (size_t)depth + (size_t)ch];
        out[ch] = (int8_t)ta_clamp_i32(rounded_average(sum, count), lo, hi);
    }
}
#endif

/* One output pixel of an int8 average pool, by the fastest exact path. */
TA_ALWAYS_INLINE void average_pixel_s8(const ta_pool_params_t *p, const int8_t *base, int32_t rows,
                                       int32_t cols, int8_t *out)
{
#if defined(TA_EW_MVE)
    if (averaging_by_product(rows * cols)) {
        average_pixel_mve(p, base, rows, cols, out);
        return;
    }
#elif defined(TA_EW_DSP)
    if (rows * cols <= 256) {
        average_pixel_dsp(p, base, rows, cols, out);
        return;
    }
#endif
    average_pixel_portable(p, base, rows, cols, out, false);
}

#if defined(TA_EW_MVE)
/* One output pixel, 16 channels per vector maximum. */
static void max_pixel_mve(const ta_pool_params_t *p, const int8_t *base, int32_t rows, int32_t cols,
                          int8_t *out)
{
    const int32_t depth = p->depth;
    const size_t row_stride = (size_t)p->input_width * (size_t)depth;
    const int8x16_t lo = vdupq_n_s8((int8_t)p->activation_min);
    const int8x16_t hi = vdupq_n_s8((int8_t)p->activation_max);
    for (int32_t ch = 0; ch < depth; ch += 16) {
        const mve_pred16_t pred = vctp8q((uint32_t)(depth - ch));
        int8x16_t m = vdupq_n_s8(INT8_MIN);
        for (int32_t y = 0; y < rows; y++) {
            const int8_t *px = base + (size_t)y * row_stride + (size_t)ch;
            for (int32_t x = 0; x < cols; x++, px += depth)
                m = vmaxq_s8(m, vldrbq_z_s8(px, pred));
        }
        vstrbq_p_s8(out + ch, vminq_s8(vmaxq_s8(m, lo), hi), pred);
    }
}
#elif defined(TA_EW_DSP)
/* Four channels per word: SSUB8 sets a GE flag per byte where the new
   byte is >= the running maximum, SEL takes those bytes; the clamp and
   the store a word at a time too. */
static inline uint32_t max_bytes(uint32_t a, uint32_t b)
{
    (void)__ssub8(a, b);
    return __sel(a, b);
}

/* Bytes of a below those of b: b's; the other half of the clamp. */
static inline uint32_t min_bytes(uint32_t a, uint32_t b)
{
    (void)__ssub8(a, b);
    return __sel(b, a);
}

/* Four channels' maxima m clamped to the activation range (lo4, hi4: its
   ends in every byte; clamp 0 when it is int8's whole range), stored as
   one word. */
static inline void store_max4(int8_t *out, uint32_t m, int clamp, uint32_t lo4, uint32_t hi4)
{
    if (clamp)
        m = min_bytes(max_bytes(m, lo4), hi4);
    memcpy(out, &m, 4);
}

static void max_pixel_dsp(const ta_pool_params_t *p, const int8_t *base, int32_t rows, int32_t cols,
                          int8_t *out)
{
    const int32_t depth = p->depth;
    const size_t row_stride = (size_t)p->input_width * (size_t)depth;
    const int32_t lo = p->activation_min, hi = p->activation_max;
    const uint32_t lo4 = ((uint32_t)lo & 0xffu) * 0x01010101u;
    const uint32_t hi4 = ((uint32_t)hi & 0xffu) * 0x01010101u;
    const int clamp = lo > INT8_MIN || hi < INT8_MAX;
    int32_t ch = 0;
    if (rows == 2 && cols == 2) /* the usual 2x2 window: its four loads in a row */
        for (; ch + 4 <= depth; ch += 4) {
            const int8_t *px = base + ch;
            const uint32_t a = load_word(px), b = load_word(px + depth),
                           c = load_word(px + row_stride), d = load_word(px + row_stride + depth);
            store_max4(out + ch, max_bytes(max_bytes(a, b), max_bytes(c, d)), clamp, lo4, hi4);
        }
    for (; ch + 4 <= depth; ch += 4) {
        uint32_t m = 0x80808080u;
        for (int32_t y = 0; y < rows; y++) {
            const int8_t *px = base + (size_t)y * row_stride + (size_t)ch;
            for (int32_t x = 0; x < cols; x++, px += depth)
                m = max_bytes(load_word(px), m);
        }
        store_max4(out + ch, m, clamp, lo4, hi4);
    }
    for (; ch < depth; ch++) {
        int32_t m = INT8_MIN;
        for (int32_t y = 0; y < rows; y++)
            for (int32_t x = 0; x < cols; x++) {
                const int32_t v =
                    base[(size_t)y * row_stride + (size_t)x * (size_t)depth + (size_t)ch];
                m = v > m ? v : m;
            }
        out[ch] = (int8_t)ta_clamp_i32(m, lo, hi);
    }
}
#endif

/* One output pixel of an int8 max pool, by the fastest path. */
TA_ALWAYS_INLINE void max_pixel_s8(const ta_pool_params_t *p, const int8_t *base, int32_t rows,
                                   int32_t cols, int8_t *out)
{
#if defined(TA_EW_MVE)
    max_pixel_mve(p, base, rows, cols, out);
#elif defined(TA_EW_DSP)
    max_pixel_dsp(p, base, rows, cols, out);
#else
    max_pixel_portable(p, base, rows, cols, out, false);
#endif
}

/* Walks the output pixels of an int8 or int16 (wide) pool, average or
   maximum. An average needs a nonempty window (the converter makes sure);
   a max pool's empty window gives the dtype's minimum, clamped. */
TA_ALWAYS_INLINE int pool(const ta_pool_params_t *p, const void *input, void *output, bool wide,
                          bool average)
{
    const size_t element = wide ? sizeof(int16_t) : sizeof(int8_t);
    char *out = output;
    for (int32_t b = 0; b < p->batches; b++) {
        const char *in = (const char *)input + (size_t)b * image_size(p) * element;
        for (int32_t oy = 0; oy < p->output_height; oy++) {
            for (int32_t ox = 0; ox < p->output_width; ox++) {
                const window_t w = pool_window(p, oy, ox);
                const bool empty = w.y1 <= w.y0 || w.x1 <= w.x0;
                if (average && empty)
                    return TA_ERR_KERNEL;
                const char *base = in + (empty ? 0 : pixel(p, w.y0, w.x0) * element);
                const int32_t rows = empty ? 0 : w.y1 - w.y0, cols = empty ? 0 : w.x1 - w.x0;
                if (average && !wide)
                    average_pixel_s8(p, (const int8_t *)base, rows, cols, (int8_t *)out);
                else if (average)
                    average_pixel_portable(p, base, rows, cols, out, true);
                else if (!wide && !empty)
                    max_pixel_s8(p, (const int8_t *)base, rows, cols, (int8_t *)out);
                else
                    max_pixel_portable(p, base, rows, cols, out, wide);
                out += (size_t)p->depth * element;
            }
        }
    }
    return TA_OK;
}

int ta_average_pool_s8(const ta_pool_params_t *p, const int8_t *input, int8_t *output)
{
    return pool(p, input, output, false, true);
}

int ta_average_pool_s16(const ta_pool_params_t *p, const int16_t *input, int16_t *output)
{
    return pool(p, input, output, true, true);
}

int ta_max_pool_s8(const ta_pool_params_t *p, const int8_t *input, int8_t *output)
{
    return pool(p, input, output, false, false);
}

int ta_max_pool_s16(const ta_pool_params_t *p, const int16_t *input, int16_t *output)
{
    return pool(p, input, output, true, false);
}
