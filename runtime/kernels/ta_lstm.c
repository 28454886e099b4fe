/* ta_lstm.c - integer LSTM kernel; see the header. */
#include "ta_lstm.h"
#include "ta_sigmoid_table.h"

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

enum { GATE_INPUT = 0, GATE_FORGET = 1, GATE_CELL = 2, GATE_OUTPUT = 3 };

/* Saturation to int16 / int8: one SSAT where the core has it. */
static inline int32_t sat16(int32_t x)
{
#if defined(__ARM_FEATURE_SAT) && !defined(TA_NO_SIMD)
    return __ssat(x, 16);
#else
    return ta_clamp_i32(x, INT16_MIN, INT16_MAX);
#endif
}

#if !defined(TA_MM_MVE)
static inline int32_t sat8(int32_t x)
{
#if defined(__ARM_FEATURE_SAT) && !defined(TA_NO_SIMD)
    return __ssat(x, 8);
#else
    return ta_clamp_i32(x, INT8_MIN, INT8_MAX);
#endif
}
#endif

/* Q3.12 -> Q0.15 sigmoid by table interpolation, as TFLite's int16
   Logistic with its default input scaling (x * 3). */
static inline int16_t sigmoid_q3_12(int16_t x)
{
    const int32_t in = (int32_t)x * 3;
    const uint32_t a = (uint32_t)(in < 0 ? -in : in);
    const uint32_t i = a >> 9;
    uint32_t r;
    if (i >= 255) {
        r = 0x7FFFu << 10;
    } else {
        const uint32_t lo = ta_sigmoid_table_u16[i], hi = ta_sigmoid_table_u16[i + 1];
        r = (lo << 9) + (a & 0x1FFu) * (hi - lo);
    }
    r = in >= 0 ? r + (1u << 9) : (1u << 25) - r + (1u << 9) - 1u;
    return (int16_t)(r >> 10);
}

/* tanh into Q0.15 by the same table (tanh(x) = 2 sigmoid(2x) - 1), as
   TFLite's int16 Tanh: the input is first scaled by
   (x * multiplier + rounding) >> shift. */
static inline int16_t tanh_q15(int16_t x, int32_t multiplier, int32_t shift)
{
    const int32_t round = shift > 0 ? (int32_t)1 << (shift - 1) : 0;
    const int32_t in = ((int32_t)x * multiplier + round) >> shift;
    const uint32_t a = (uint32_t)(in < 0 ? -in : in);
    const uint32_t i = a >> 8;
    int32_t r;
    if (i >= 255) {
        r = 0xFFFF << 8;
    } else {
        const uint32_t lo = ta_sigmoid_table_u16[i], hi = ta_sigmoid_table_u16[i + 1];
        r = (int32_t)((lo << 8) + (a & 0xFFu) * (hi - lo));
    }
    r = in >= 0 ? r - (1 << 23) + (1 << 7) : -r + (1 << 23) + (1 << 7) - 1;
    return (int16_t)(r >> 8);
}

#if !defined(TA_MM_MVE)
/* How a loop requantizes, chosen once per loop: any shift (ta_mm_mul_q);
   right shifts (ta_dw_requantize_right's 32-bit rounding, equal there and
   about half the instructions); right shifts of values under 2^30 in
   magnitude (one SMMULR, with the DSP extension). */
enum { RQ_ANY, RQ_RIGHT, RQ_SMALL };

/* Whether ta_dw_requantize_right computes ta_mm_mul_q for this multiplier
   and shift: a right shift, the gates' and the cell's usual case. */
static inline bool right_shift(int32_t multiplier, int32_t shift)
{
    return shift < 0 && shift >= -31 && multiplier != INT32_MIN;
}

/* ta_mm_mul_q in the given mode. */
static inline int32_t mul_q(int32_t x, int32_t multiplier, int32_t shift, int mode)
{
    if (mode == RQ_SMALL)
        return ta_dw_requantize_right_bounded(x, multiplier, shift);
    return mode != RQ_ANY ? ta_dw_requantize_right(x, multiplier, shift)
                          : ta_mm_mul_q(x, multiplier, shift);
}

/* sat16 of one gate product's requantization (to Q3.12). */
static inline int32_t to_q3_12(int32_t acc, int32_t multiplier, int32_t shift, int mode)
{
    return sat16(mul_q(acc, multiplier, shift, mode));
}

/* Whether every one of n sums is in [-2^30, 2^30). */
static inline bool sums_small(const int32_t *a, const int32_t *b, int32_t n)
{
    uint32_t top = 0;
    for (int32_t k = 0; k < n; k++)
        top |= ((uint32_t)a[k] + 0x40000000u) | ((uint32_t)b[k] + 0x40000000u);
    return (top >> 31) == 0;
}
#endif

#if defined(TA_MM_MVE)
/* The same functions on four int32 lanes, table entries by gather loads;
   lanes past the table's end take the saturated value as above. */
static inline int32x4_t sat16_mve(int32x4_t v)
{
    return vminq_s32(vmaxq_s32(v, vdupq_n_s32(INT16_MIN)), vdupq_n_s32(INT16_MAX));
}

static inline int32x4_t sigmoid_q3_12_mve(int32x4_t x)
{
    const int32x4_t in = vmulq_n_s32(x, 3);
    const uint32x4_t a = vreinterpretq_u32_s32(vabsq_s32(in));
    const uint32x4_t i = vshrq_n_u32(a, 9);
    const uint32x4_t at = vminq_u32(i, vdupq_n_u32(254));
    const uint32x4_t lo = vldrhq_gather_shifted_offset_u32(ta_sigmoid_table_u16, at);
    const uint32x4_t hi = vldrhq_gather_shifted_offset_u32(ta_sigmoid_table_u16 + 1, at);
    uint32x4_t r = vaddq_u32(vshlq_n_u32(lo, 9),
                             vmulq_u32(vandq_u32(a, vdupq_n_u32(0x1FFu)), vsubq_u32(hi, lo)));
    r = vpselq_u32(vdupq_n_u32(0x7FFFu << 10), r, vcmpcsq_n_u32(i, 255));
    r = vpselq_u32(vaddq_n_u32(r, 1u << 9), vsubq_u32(vdupq_n_u32((1u << 25) + (1u << 9) - 1u), r),
                   vcmpgeq_n_s32(in, 0));
    return vreinterpretq_s32_u32(vshrq_n_u32(r, 10));
}

static inline int32x4_t tanh_q15_mve(int32x4_t x, int32_t multiplier, int32_t shift)
{
    int32x4_t in = vmulq_n_s32(x, multiplier);
    if (shift > 0)
        in = vshlq_r_s32(vaddq_n_s32(in, (int32_t)1 << (shift - 1)), -shift);
    const uint32x4_t a = vreinterpretq_u32_s32(vabsq_s32(in));
    const uint32x4_t i = vshrq_n_u32(a, 8);
    const uint32x4_t at = vminq_u32(i, vdupq_n_u32(254));
    const uint32x4_t lo = vldrhq_gather_shifted_offset_u32(ta_sigmoid_table_u16, at);
    const uint32x4_t hi = vldrhq_gather_shifted_offset_u32(ta_sigmoid_table_u16 + 1, at);
    int32x4_t r = vreinterpretq_s32_u32(vaddq_u32(
        vshlq_n_u32(lo, 8), vmulq_u32(vandq_u32(a, vdupq_n_u32(0xFFu)), vsubq_u32(hi, lo))));
    r = vpselq_s32(vdupq_n_s32(0xFFFF << 8), r, vcmpcsq_n_u32(i, 255));
    r = vpselq_s32(vaddq_n_s32(r, (1 << 7) - (1 << 23)),
                   vsubq_s32(vdupq_n_s32((1 << 23) + (1 << 7) - 1), r), vcmpgeq_n_s32(in, 0));
    return vshrq_n_s32(r, 8);
}

static inline int32x4_t requant_mve(int32x4_t x, int32_t multiplier, int32_t shift)
{
    return ta_mm_requant_mve(x, vdupq_n_s32(multiplier), vdupq_n_s32(shift));
}

/* Four gate rows r0 .. r0 + 3 of one gate (r0 % n + 4 <= n). */
static void gate_rows4_mve(const ta_lstm_params_t *p, const int8_t *xb, const int8_t *hb,
                           const int8_t *input_weights, const int8_t *recurrent_weights,
                           const int32_t *input_biases, const int32_t *recurrent_biases, int32_t r0,
                           int16_t *gate_out, int32_t g)
{
    const int32_t n_in = p->input_size, n = p->state_size;
    const int32_t *bi = input_biases + r0, *bh = recurrent_biases + r0;
    int32x4_t vi = ta_mm_dot4_s8_mve(&bi, input_weights + (size_t)r0 * (size_t)n_in, xb, n_in);
    int32x4_t vh = ta_mm_dot4_s8_mve(&bh, recurrent_weights + (size_t)r0 * (size_t)n, hb, n);
    vi = sat16_mve(requant_mve(vi, p->input_multiplier[g], p->input_shift[g]));
    vh = sat16_mve(requant_mve(vh, p->recurrent_multiplier[g], p->recurrent_shift[g]));
    const int32x4_t pre = sat16_mve(vaddq_s32(vi, vh));
    vstrhq_s32(gate_out, g == GATE_CELL ? tanh_q15_mve(pre, 3, 0) : sigmoid_q3_12_mve(pre));
}

/* The cell and hidden state update of step(), four lanes at a time. */
static void update_mve(const ta_lstm_params_t *p, const int16_t *in_gate, const int16_t *forget,
                       const int16_t *cell_gate, const int16_t *out_gate, int16_t *c, int8_t *h,
                       int32_t count)
{
    for (int32_t k = 0; k < count; k += 4) {
        const mve_pred16_t pr = vctp32q((uint32_t)(count - k));
        const int32x4_t kept = sat16_mve(
            requant_mve(vmulq_s32(vldrhq_z_s32(forget + k, pr), vldrhq_z_s32(c + k, pr)),
                        p->forget_multiplier, p->forget_shift));
        const int32x4_t added = sat16_mve(
            requant_mve(vmulq_s32(vldrhq_z_s32(in_gate + k, pr), vldrhq_z_s32(cell_gate + k, pr)),
                        p->input_cell_multiplier, p->input_cell_shift));
        int32x4_t cell = sat16_mve(vaddq_s32(kept, added));
        if (p->use_cell_clip)
            cell = vminq_s32(vmaxq_s32(cell, vdupq_n_s32(-p->cell_clip)),
                             vdupq_n_s32(p->cell_clip));
        vstrhq_p_s32(c + k, cell, pr);
        const int32x4_t t = tanh_q15_mve(cell, p->cell_tanh_multiplier, p->cell_tanh_shift);
        int32x4_t hv = requant_mve(vmulq_s32(t, vldrhq_z_s32(out_gate + k, pr)),
                                   p->hidden_multiplier, p->hidden_shift);
        hv = vminq_s32(vmaxq_s32(vaddq_n_s32(hv, p->hidden_zero_point), vdupq_n_s32(INT8_MIN)),
                       vdupq_n_s32(INT8_MAX));
        vstrbq_p_s32(h + k, hv, pr);
    }
}
#endif

#if defined(TA_MM_MVE)
/* to_q3_12 for any shift, out of line: Helium's rare scalar rows. */
static int32_t to_q3_12_any(int32_t acc, int32_t multiplier, int32_t shift)
{
    return sat16(ta_mm_mul_q(acc, multiplier, shift));
}
#else
/* Gate g's values of `count` rows from their two sums, requantized in
   `mode`. */
TA_ALWAYS_INLINE void gate_values(const int32_t from_input[4], const int32_t from_hidden[4],
                                  int32_t mi, int32_t si, int32_t mh, int32_t sh, int32_t g,
                                  int32_t count, int16_t *out, int mode)
{
    for (int32_t k = 0; k < count; k++) {
        const int16_t pre = (int16_t)sat16(to_q3_12(from_input[k], mi, si, mode) +
                                           to_q3_12(from_hidden[k], mh, sh, mode));
        out[k] = g == GATE_CELL ? tanh_q15(pre, 3, 0) : sigmoid_q3_12(pre);
    }
}

/* The cell and hidden state update of step() on `count` lanes, its three
   requantizations in `mode`. */
TA_ALWAYS_INLINE void update_scalar(const ta_lstm_params_t *p, const int16_t *in_gate,
                                    const int16_t *forget, const int16_t *cell_gate,
                                    const int16_t *out_gate, int16_t *c, int8_t *h, size_t count,
                                    int mode)
{
    /* The parameters in locals: the int8 stores to h may alias *p. */
    const int32_t fm = p->forget_multiplier, fs = p->forget_shift;
    const int32_t im = p->input_cell_multiplier, is = p->input_cell_shift;
    const int32_t hm = p->hidden_multiplier, hs = p->hidden_shift, hzp = p->hidden_zero_point;
    const int32_t tm = p->cell_tanh_multiplier, ts = p->cell_tanh_shift;
    const int32_t use_clip = p->use_cell_clip, clip = p->cell_clip;
    for (size_t k = 0; k < count; k++) {
        const int32_t kept = sat16(mul_q((int32_t)forget[k] * (int32_t)c[k], fm, fs, mode));
        const int32_t added = sat16(
            mul_q((int32_t)in_gate[k] * (int32_t)cell_gate[k], im, is, mode));
        int32_t cell = sat16(kept + added);
        if (use_clip)
            cell = ta_clamp_i32(cell, -clip, clip);
        c[k] = (int16_t)cell;
        const int16_t t = tanh_q15((int16_t)cell, tm, ts);
        const int32_t hv = mul_q((int32_t)t * (int32_t)out_gate[k], hm, hs, mode) + hzp;
        h[k] = (int8_t)sat8(hv);
    }
}
#endif

#if !defined(TA_MM_MVE)
/* Gate g's state_size values for one batch row (input xb, hidden state
   hb) into out, four rows at a time; each group's sums requantized in the
   cheapest mode exact for them. One gate at a time: its factors and
   pointers stay loop invariants. */
static void gate_block(const ta_lstm_params_t *p, int32_t g, const int8_t *xb, const int8_t *hb,
                       const int8_t *wi, const int8_t *wh, const int32_t *bi, const int32_t *bh,
                       int16_t *out)
{
    const int32_t n_in = p->input_size, n = p->state_size;
    const int32_t mi = p->input_multiplier[g], si = p->input_shift[g];
    const int32_t mh = p->recurrent_multiplier[g], sh = p->recurrent_shift[g];
    const bool right = right_shift(mi, si) && right_shift(mh, sh);
    for (int32_t s0 = 0; s0 < n; s0 += 4) {
        const int32_t count = n - s0 < 4 ? n - s0 : 4;
        const size_t row = (size_t)s0;
        int32_t from_input[4], from_hidden[4];
        if (count == 4) {
            memcpy(from_input, bi + row, sizeof from_input);
            memcpy(from_hidden, bh + row, sizeof from_hidden);
            ta_mm_dot4_s8(from_input, wi + row * (size_t)n_in, n_in, xb, n_in);
            ta_mm_dot4_s8(from_hidden, wh + row * (size_t)n, n, hb, n);
        } else {
            for (int32_t k = 0; k < count; k++) {
                from_input[k] = ta_mm_dot1_s8(bi[row + k], wi + (row + k) * (size_t)n_in, xb, n_in);
                from_hidden[k] = ta_mm_dot1_s8(bh[row + k], wh + (row + k) * (size_t)n, hb, n);
            }
        }
        if (!right)
            gate_values(from_input, from_hidden, mi, si, mh, sh, g, count, out + s0, RQ_ANY);
        else if (sums_small(from_input, from_hidden, count))
            gate_values(from_input, from_hidden, mi, si, mh, sh, g, count, out + s0, RQ_SMALL);
        else
            gate_values(from_input, from_hidden, mi, si, mh, sh, g, count, out + s0, RQ_RIGHT);
    }
}
#endif

/* One time step over `rows` rows: x [rows][input_size], h and c
   [rows][state_size], y the output rows. The gate pre-activations of all
   four gates are rows of the stacked weights, four rows at a time. */
static void step(const ta_lstm_params_t *p, const int8_t *x, const int8_t *input_weights,
                 const int8_t *recurrent_weights, const int32_t *input_biases,
                 const int32_t *recurrent_biases, int8_t *h, int16_t *c, int16_t *gates, int8_t *y,
                 int32_t rows)
{
    const int32_t n_in = p->input_size, n = p->state_size;
    const size_t per_gate = (size_t)rows * (size_t)n;
    /* Every gate reads the hidden state of the previous step. Gate by
       gate, four rows at a time, so a group never mixes two gates'
       multipliers. */
    for (int32_t b = 0; b < rows; b++) {
        const int8_t *xb = x + (size_t)b * (size_t)n_in;
        const int8_t *hb = h + (size_t)b * (size_t)n;
        for (int32_t g = 0; g < 4; g++) {
            int16_t *out = gates + (size_t)g * per_gate + (size_t)b * (size_t)n;
#if defined(TA_MM_MVE)
            const int32_t mi = p->input_multiplier[g], si = p->input_shift[g];
            const int32_t mh = p->recurrent_multiplier[g], sh = p->recurrent_shift[g];
            for (int32_t s0 = 0; s0 < n; s0 += 4) {
                const int32_t r0 = g * n + s0, count = n - s0 < 4 ? n - s0 : 4;
                if (count == 4) {
                    gate_rows4_mve(p, xb, hb, input_weights, recurrent_weights, input_biases,
                                   recurrent_biases, r0, out + s0, g);
                    continue;
                }
                int32_t from_input[4], from_hidden[4];
                for (int32_t k = 0; k < count; k++) {
                    const size_t row = (size_t)(r0 + k);
                    from_input[k] = ta_mm_dot1_s8(input_biases[row],
                                                  input_weights + row * (size_t)n_in, xb, n_in);
                    from_hidden[k] = ta_mm_dot1_s8(recurrent_biases[row],
                                                   recurrent_weights + row * (size_t)n, hb, n);
                }
                /* only the rows past the last group of four: one copy */
                for (int32_t k = 0; k < count; k++) {
                    const int16_t pre = (int16_t)sat16(to_q3_12_any(from_input[k], mi, si) +
                                                       to_q3_12_any(from_hidden[k], mh, sh));
                    out[s0 + k] = g == GATE_CELL ? tanh_q15(pre, 3, 0) : sigmoid_q3_12(pre);
                }
            }
#else
            const size_t first = (size_t)g * (size_t)n;
            gate_block(p, g, xb, hb, input_weights + first * (size_t)n_in,
                       recurrent_weights + first * (size_t)n, input_biases + first,
                       recurrent_biases + first, out);
#endif
        }
    }
    const int16_t *in_gate = gates + GATE_INPUT * per_gate;
    const int16_t *forget = gates + GATE_FORGET * per_gate;
    const int16_t *cell_gate = gates + GATE_CELL * per_gate;
    const int16_t *out_gate = gates + GATE_OUTPUT * per_gate;
#if defined(TA_MM_MVE)
    update_mve(p, in_gate, forget, cell_gate, out_gate, c, h, (int32_t)per_gate);
#else
    /* Every product requantized here is of two int16 values one of which
       is a sigmoid (0 < s < 2^15) or, forget * c, of a sigmoid and the
       cell: under 2^30 in magnitude, small for SMMULR. */
    if (right_shift(p->forget_multiplier, p->forget_shift) &&
        right_shift(p->input_cell_multiplier, p->input_cell_shift) &&
        right_shift(p->hidden_multiplier, p->hidden_shift))
        update_scalar(p, in_gate, forget, cell_gate, out_gate, c, h, per_gate, RQ_SMALL);
    else
        update_scalar(p, in_gate, forget, cell_gate, out_gate, c, h, per_gate, RQ_ANY);
#endif
    memcpy(y, h, per_gate);
}

int ta_lstm_s8(const ta_lstm_params_t *p, const int8_t *input, const int8_t *input_weights,
               const int8_t *recurrent_weights, const int32_t *input_biases,
               const int32_t *recurrent_biases, int8_t *hidden_state, int16_t *cell_state,
               int16_t *scratch, int8_t *output)
{
    const size_t n_in = (size_t)p->input_size, n = (size_t)p->state_size;
    if (p->time_major) {
        const size_t rows = (size_t)p->batches;
        for (int32_t t = 0; t < p->time_steps; t++)
            step(p, input + (size_t)t * rows * n_in, input_weights, recurrent_weights, input_biases,
                 recurrent_biases, hidden_state, cell_state, scratch, output + (size_t)t * rows * n,
                 p->batches);
        return TA_OK;
    }
    for (int32_t b = 0; b < p->batches; b++) {
        for (int32_t t = 0; t < p->time_steps; t++) {
            const size_t at = (size_t)b * (size_t)p->time_steps + (size_t)t;
            step(p, input + at * n_in, input_weights, recurrent_weights, input_biases,
                 recurrent_biases, hidden_state + (size_t)b * n, cell_state + (size_t)b * n,
                 scratch, output + at * n, 1);
        }
    }
    return TA_OK;
}
