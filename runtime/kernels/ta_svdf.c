/* ta_svdf.c - SVDF kernels; see the header. */
#include "ta_svdf.h"

#include "../include/ta_dw_simd.h"
#include "../include/ta_element.h"
#include "../include/ta_matmul_simd.h"
#include "../include/ta_quant.h"
#include "../include/ta_status.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#if defined(__ARM_FEATURE_SAT) && !defined(TA_NO_SIMD)
#include <arm_acle.h>
#endif

/* Stores the low 8 / 16 (wide) bits of v at element `at` of the state: the
   two's complement wrap TFLite's int8 / int16 store relies on, spelled
   through an unsigned conversion (C's conversion of an out-of-range value
   to a signed type is implementation-defined). */
static inline void store_state(void *state, size_t at, int32_t v, bool wide)
{
    if (wide) {
        const uint16_t u = (uint16_t)(uint32_t)v;
        memcpy((uint8_t *)state + at * sizeof u, &u, sizeof u);
    } else {
        ((uint8_t *)state)[at] = (uint8_t)(uint32_t)v;
    }
}

/* v clamped to the state's range: int16 (wide) or int8. */
static inline int32_t clamp_state(int32_t v, bool wide)
{
#if defined(__ARM_FEATURE_SAT) && !defined(TA_NO_SIMD)
    return wide ? __ssat(v, 16) : __ssat(v, 8);
#else
    return wide ? ta_clamp_i32(v, INT16_MIN, INT16_MAX) : ta_clamp_i32(v, INT8_MIN, INT8_MAX);
#endif
}

/* Drops the oldest value of every state row: the whole state moves one
   element towards its start (each row's last value is then rewritten). A
   forward copy, so overlapping is safe chunk by chunk. */
static void shift_state(void *state, size_t elements, size_t element_size)
{
    if (elements < 2)
        return;
    uint8_t *dst = (uint8_t *)state;
    const uint8_t *src = dst + element_size;
    size_t bytes = (elements - 1) * element_size;
#if defined(TA_MM_MVE)
    for (; bytes >= 16; bytes -= 16, src += 16, dst += 16)
        vstrbq_u8(dst, vldrbq_u8(src));
    if (bytes) {
        const mve_pred16_t p = vctp8q((uint32_t)bytes);
        vstrbq_p_u8(dst, vldrbq_z_u8(src, p), p);
    }
#else
    /* Four words, then word by word (unaligned word accesses where the
       core has them: memcpy of 4 bytes compiles to one load or store), each
       chunk read before the bytes after it are written. */
    for (; bytes >= 16; bytes -= 16, src += 16, dst += 16) {
        uint32_t a, b, c, d;
        memcpy(&a, src, 4);
        memcpy(&b, src + 4, 4);
        memcpy(&c, src + 8, 4);
        memcpy(&d, src + 12, 4);
        memcpy(dst, &a, 4);
        memcpy(dst + 4, &b, 4);
        memcpy(dst + 8, &c, 4);
        memcpy(dst + 12, &d, 4);
    }
    for (; bytes >= 4; bytes -= 4, src += 4, dst += 4) {
        uint32_t v;
        memcpy(&v, src, 4);
        memcpy(dst, &v, 4);
    }
    for (; bytes > 0; bytes--)
        *dst++ = *src++;
#endif
}

#if defined(TA_MM_MVE)
/* Helium's groups requantize on their own; the scalar leftovers keep the
   plain form. */
typedef ta_mm_requant_t svdf_requant_t;

static inline svdf_requant_t svdf_requant_prepare(int32_t multiplier, int32_t shift)
{
    return ta_mm_requant_prepare(multiplier, shift);
}

static inline int32_t svdf_requant(const svdf_requant_t *r, int32_t x)
{
    return ta_mm_requant(r, x);
}
#else
/* A requantization of the layer: a right shift (nearly every layer) takes
   ta_dw_requantize_right's 32-bit rounding, which ta_mm_requant equals
   there at a third of its instructions on cores with the DSP extension; a
   left shift (or none) ta_dw_srdhm's, after the shift. Both need a
   multiplier other than INT32_MIN (every quantized one). */
typedef struct {
    ta_mm_requant_t q;
    int32_t multiplier, shift;
    bool right, left;
} svdf_requant_t;

static svdf_requant_t svdf_requant_prepare(int32_t multiplier, int32_t shift)
{
    const bool usual = multiplier != INT32_MIN;
    const svdf_requant_t r = {ta_mm_requant_prepare(multiplier, shift), multiplier, shift,
                              usual && shift < 0 && shift >= -31, usual && shift >= 0};
    return r;
}

static inline int32_t svdf_requant(const svdf_requant_t *r, int32_t x)
{
    /* With the DSP extension one SMMULR when the (left-shifted) value is
       under 2^30 in magnitude: a right shift's rounding after it, none
       after a left shift (or none). */
    if (r->right)
        return ta_dw_requantize_right_fast(x, r->multiplier, r->shift);
    if (r->left)
        return ta_dw_srdhm_fast((int32_t)((uint32_t)x << r->q.left), r->multiplier);
    return ta_mm_requant(&r->q, x);
}
#endif

/* Feature values of filters f0 .. f0 + count - 1 (count <= 4): the dot
   products with the input (its zero point folded into feature_biases),
   requantized and clamped to the state's range. */
TA_ALWAYS_INLINE void features(const ta_svdf_params_t *p, const svdf_requant_t *q, const int8_t *in,
                               const int8_t *weights_feature, const int32_t *feature_biases,
                               int32_t f0, int32_t count, bool wide, int32_t out[4])
{
    const int32_t n = p->input_size;
    const int8_t *w = weights_feature + (size_t)f0 * (size_t)n;
    if (count == 4) {
        memcpy(out, feature_biases + f0, 4 * sizeof *out);
        ta_mm_dot4_s8(out, w, n, in, n);
    } else {
        for (int32_t k = 0; k < count; k++)
            out[k] = ta_mm_dot1_s8(feature_biases[f0 + k], w + (size_t)k * (size_t)n, in, n);
    }
    for (int32_t k = 0; k < count; k++)
        out[k] = clamp_state(svdf_requant(q, out[k]), wide);
}

static inline int8_t output_value(const svdf_requant_t *q, int32_t zero_point, int32_t acc)
{
    return (int8_t)ta_clamp_i32(svdf_requant(q, acc) + zero_point, INT8_MIN, INT8_MAX);
}

#if defined(TA_MM_MVE)
/* Four filters f0 .. f0 + 3 of rank 1 (each its own output unit) on
   Helium: the feature sums as one vector, requantized, clamped to the
   state range and offset by the state zero point, stored into the four
   rows' last slots by one narrowing scatter (which wraps as the scalar
   store does); then the four time filters and the outputs requantized
   together. `last` holds the element offsets of those slots. */
static inline int32x4_t features4_mve(const ta_svdf_params_t *p, const int8_t *in,
                                      const int8_t *weights_feature, const int32_t *feature_biases,
                                      int32_t lo, int32_t hi)
{
    int32x4_t v = ta_mm_dot4_s8_mve(&feature_biases, weights_feature, in, p->input_size);
    v = ta_mm_requant_mve(v, vdupq_n_s32(p->feature_multiplier), vdupq_n_s32(p->feature_shift));
    v = vminq_s32(vmaxq_s32(v, vdupq_n_s32(lo)), vdupq_n_s32(hi));
    return vaddq_n_s32(v, p->state_zero_point);
}

static inline void outputs4_mve(const ta_svdf_params_t *p, const int32_t t[4],
                                const int32_t *output_biases, int8_t *out)
{
    int32x4_t v = vaddq_s32(vldrwq_s32(t), vldrwq_s32(output_biases));
    v = ta_mm_requant_mve(v, vdupq_n_s32(p->output_multiplier), vdupq_n_s32(p->output_shift));
    v = vaddq_n_s32(v, p->output_zero_point);
    vstrbq_s32(out, vminq_s32(vmaxq_s32(v, vdupq_n_s32(INT8_MIN)), vdupq_n_s32(INT8_MAX)));
}

static void group4_s8_mve(const ta_svdf_params_t *p, const int8_t *in, const int8_t *wf,
                          const int32_t *fb, const int8_t *wt, int8_t *rows, uint32x4_t last,
                          const int32_t *ob, int8_t *out)
{
    const int32_t mem = p->memory;
    vstrbq_scatter_offset_s32(rows, last, features4_mve(p, in, wf, fb, INT8_MIN, INT8_MAX));
    int32_t t[4];
    for (int32_t k = 0; k < 4; k++)
        t[k] = ta_mm_dot1_s8(0, wt + (size_t)k * (size_t)mem, rows + (size_t)k * (size_t)mem, mem);
    outputs4_mve(p, t, ob, out);
}

static void group4_s16_mve(const ta_svdf_params_t *p, const int8_t *in, const int8_t *wf,
                           const int32_t *fb, const int16_t *wt, int16_t *rows, uint32x4_t last,
                           const int32_t *ob, int8_t *out)
{
    const int32_t mem = p->memory;
    vstrhq_scatter_shifted_offset_s32(rows, last,
                                      features4_mve(p, in, wf, fb, INT16_MIN, INT16_MAX));
    int32_t t[4];
    for (int32_t k = 0; k < 4; k++)
        t[k] = ta_mm_dot1_s16(0, wt + (size_t)k * (size_t)mem, rows + (size_t)k * (size_t)mem, mem);
    outputs4_mve(p, t, ob, out);
}

/* Element offsets of the last slots of four consecutive state rows. */
static uint32x4_t last_slots(int32_t mem)
{
    return vaddq_n_u32(vmulq_n_u32(vidupq_n_u32(0, 1), (uint32_t)mem), (uint32_t)(mem - 1));
}
#endif

#if !defined(TA_MM_MVE)
/* The outputs of `count` rank-1 filters with a right-shift output
   requantization (keyword models' usual case), int8 or int16 (wide) state
   and time weights, rows of whole words (memory a multiple of 4 int8 or 2
   int16 values, as keyword models have: no tail loop) or not: the filters'
   rows follow each other in the weights and in the state, so two pointers
   walk them all, in one short loop with few live values; with the DSP
   extension the sums are requantized by one SMMULR when under 2^30 in
   magnitude (nearly always). */
TA_ALWAYS_INLINE void rank1_rows(const ta_svdf_params_t *p, const void *wt, const void *rows,
                                 int32_t count, const int32_t *output_biases, int8_t *out,
                                 bool wide, bool whole_words)
{
    const int32_t mem = p->memory, multiplier = p->output_multiplier, shift = p->output_shift;
    const int32_t zero_point = p->output_zero_point;
    const int16_t *w16 = wt, *x16 = rows;
    const int8_t *w8 = wt, *x8 = rows;
    for (int32_t f = 0; f < count; f++) {
        int32_t acc;
        if (whole_words) {
            acc = wide ? ta_mm_dot1_s16_words(output_biases[f], &w16, &x16, mem / 2)
                       : ta_mm_dot1_s8_words(output_biases[f], &w8, &x8, mem / 4);
        } else if (wide) {
            acc = ta_mm_dot1_s16(output_biases[f], w16, x16, mem);
            w16 += mem;
            x16 += mem;
        } else {
            acc = ta_mm_dot1_s8(output_biases[f], w8, x8, mem);
            w8 += mem;
            x8 += mem;
        }
        const int32_t v = ta_dw_requantize_right_fast(acc, multiplier, shift) + zero_point;
#if defined(__ARM_FEATURE_SAT) && !defined(TA_NO_SIMD)
        out[f] = (int8_t)__ssat(v, 8);
#else
        out[f] = (int8_t)ta_clamp_i32(v, INT8_MIN, INT8_MAX);
#endif
    }
}

TA_ALWAYS_INLINE void outputs_rank1(const ta_svdf_params_t *p, const void *wt, const void *rows,
                                    int32_t count, const int32_t *output_biases, int8_t *out,
                                    bool wide)
{
    if (p->memory > 0 && p->memory % (wide ? 2 : 4) == 0)
        rank1_rows(p, wt, rows, count, output_biases, out, wide, true);
    else
        rank1_rows(p, wt, rows, count, output_biases, out, wide, false);
}

/* Out of line, one per state type: the loop has the core's registers to
   itself. */
static __attribute__((noinline)) void outputs_rank1_s8(const ta_svdf_params_t *p, const void *wt,
                                                       const void *rows, int32_t count,
                                                       const int32_t *output_biases, int8_t *out)
{
    outputs_rank1(p, wt, rows, count, output_biases, out, false);
}

static __attribute__((noinline)) void outputs_rank1_s16(const ta_svdf_params_t *p, const void *wt,
                                                        const void *rows, int32_t count,
                                                        const int32_t *output_biases, int8_t *out)
{
    outputs_rank1(p, wt, rows, count, output_biases, out, true);
}
#endif

/* Filters f0 .. filters - 1 of one batch row without Helium's groups, in
   two passes, each with few live values: every filter's new state value,
   then the time filters and the outputs. The state zero point is folded
   into output_biases; `rows` is the batch's first state element. */
TA_ALWAYS_INLINE void scalar_filters(const ta_svdf_params_t *p, const int8_t *in,
                                     const int8_t *weights_feature, const void *weights_time,
                                     const int32_t *feature_biases, const int32_t *output_biases,
                                     void *state, size_t rows, int8_t *out, int32_t f0, bool wide)
{
    const int32_t mem = p->memory, filters = p->filters;
    const svdf_requant_t feature_q = svdf_requant_prepare(p->feature_multiplier, p->feature_shift);
    const svdf_requant_t output_q = svdf_requant_prepare(p->output_multiplier, p->output_shift);
    const int32_t output_zero_point = p->output_zero_point, state_zero_point = p->state_zero_point;
    for (int32_t g = f0; g < filters; g += 4) {
        int32_t x[4];
        const int32_t count = filters - g < 4 ? filters - g : 4;
        features(p, &feature_q, in, weights_feature, feature_biases, g, count, wide, x);
        for (int32_t k = 0; k < count; k++)
            store_state(state, rows + (size_t)(g + k) * (size_t)mem + (size_t)mem - 1,
                        state_zero_point + x[k], wide);
    }
#if !defined(TA_MM_MVE)
    if (p->rank == 1 && output_q.right) {
        const size_t at = (size_t)f0 * (size_t)mem, element = wide ? 2 : 1;
        (wide ? outputs_rank1_s16
              : outputs_rank1_s8)(p, (const uint8_t *)weights_time + at * element,
                                  (const uint8_t *)state + (rows + at) * element, filters - f0,
                                  output_biases + f0, out + f0);
        return;
    }
#endif
    /* The output unit of filter f0 (Helium's groups are rank 1) and the
       filters it still sums. */
    int32_t unit = f0 / p->rank, left = p->rank, acc = 0;
    for (int32_t f = f0; f < filters; f++) {
        const size_t row = rows + (size_t)f * (size_t)mem, wt = (size_t)f * (size_t)mem;
        if (wide)
            acc = ta_mm_dot1_s16(acc, (const int16_t *)weights_time + wt,
                                 (const int16_t *)state + row, mem);
        else
            acc = ta_mm_dot1_s8(acc, (const int8_t *)weights_time + wt, (const int8_t *)state + row,
                                mem);
        if (--left == 0) {
            out[unit] = output_value(&output_q, output_zero_point,
                                     (int32_t)((uint32_t)acc + (uint32_t)output_biases[unit]));
            unit++;
            left = p->rank;
            acc = 0;
        }
    }
}

/* int8 (wide false) or int16 (wide true) state and time weights; the
   input, feature weights and output are int8 either way. */
TA_ALWAYS_INLINE int svdf(const ta_svdf_params_t *p, const int8_t *input,
                          const int8_t *weights_feature, const void *weights_time,
                          const int32_t *feature_biases, const int32_t *output_biases, void *state,
                          int8_t *output, bool wide)
{
    const int32_t mem = p->memory, filters = p->filters;
    const size_t element = wide ? sizeof(int16_t) : sizeof(int8_t);
    shift_state(state, (size_t)p->batches * (size_t)filters * (size_t)mem, element);
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *in = input + (size_t)b * (size_t)p->input_size;
        const size_t rows = (size_t)b * (size_t)filters * (size_t)mem; /* in elements */
        int8_t *out = output + (size_t)b * (size_t)(filters / p->rank);
        int32_t f0 = 0;
#if defined(TA_MM_MVE)
        if (p->rank == 1) {
            const uint32x4_t last = last_slots(mem);
            for (; f0 + 4 <= filters; f0 += 4) {
                const size_t at = (size_t)f0 * (size_t)mem;
                const int8_t *wf = weights_feature + (size_t)f0 * (size_t)p->input_size;
                if (wide)
                    group4_s16_mve(p, in, wf, feature_biases + f0,
                                   (const int16_t *)weights_time + at, (int16_t *)state + rows + at,
                                   last, output_biases + f0, out + f0);
                else
                    group4_s8_mve(p, in, wf, feature_biases + f0, (const int8_t *)weights_time + at,
                                  (int8_t *)state + rows + at, last, output_biases + f0, out + f0);
            }
        }
#endif
        if (f0 < filters)
            scalar_filters(p, in, weights_feature, weights_time, feature_biases, output_biases,
                           state, rows, out, f0, wide);
    }
    return TA_OK;
}

int ta_svdf_s8(const ta_svdf_params_t *p, const int8_t *input, const int8_t *weights_feature,
               const int8_t *weights_time, const int32_t *feature_biases,
               const int32_t *output_biases, int8_t *state, int8_t *output)
{
    return svdf(p, input, weights_feature, weights_time, feature_biases, output_biases, state,
                output, false);
}

int ta_svdf_s16(const ta_svdf_params_t *p, const int8_t *input, const int8_t *weights_feature,
                const int16_t *weights_time, const int32_t *feature_biases,
                const int32_t *output_biases, int16_t *state, int8_t *output)
{
    return svdf(p, input, weights_feature, weights_time, feature_biases, output_biases, state,
                output, true);
}
