/* ta_softmax.c - integer SOFTMAX; see the header. */
#include "ta_softmax.h"

#include "../include/ta_fixedpoint.h"
#include "../include/ta_status.h"

#include <stddef.h>

enum { ACCUM_BITS = 12 };

typedef struct {
    int8_t max;
    int32_t scale; /* reciprocal of the sum of exps, Q0.31 */
    int exponent;  /* final rounding shift */
} row_stats_t;

static row_stats_t row_stats(const ta_softmax_params_t *p, const int8_t *in,
                             const int32_t *exp_table, int out_bits)
{
    row_stats_t st;
    st.max = INT8_MIN;
    for (int32_t c = 0; c < p->depth; c++)
        st.max = in[c] > st.max ? in[c] : st.max;

    int32_t sum = 0; /* Q12.19 */
    for (int32_t c = 0; c < p->depth; c++)
        sum = ta_fp_add(sum, ta_rounding_divide_by_pot(exp_table[st.max - in[c]], ACCUM_BITS));
    int bits_over_unit;
    st.scale = ta_fp_reciprocal(sum, ACCUM_BITS, &bits_over_unit);
    st.exponent = bits_over_unit + 31 - out_bits;
    return st;
}

/* The output of one element, offset so that 0.0 maps to out_min. A
   difference below diff_min has a table entry 0, which gives out_min as
   the reference's explicit test does. */
static inline int32_t element(const row_stats_t *st, const int32_t *exp_table, int8_t x,
                              int32_t out_min, int32_t out_max)
{
    const int32_t unsat = ta_rounding_divide_by_pot(ta_fp_mul(st->scale, exp_table[st->max - x]),
                                                    st->exponent);
    return ta_clamp_i32(unsat + out_min, out_min, out_max);
}

int ta_softmax_s8(const ta_softmax_params_t *p, const int8_t *input, const int32_t *exp_table,
                  int8_t *output)
{
    for (int32_t i = 0; i < p->outer_size; i++) {
        const int8_t *in = input + (size_t)i * (size_t)p->depth;
        int8_t *out = output + (size_t)i * (size_t)p->depth;
        const row_stats_t st = row_stats(p, in, exp_table, 8);
        if (st.exponent < 0 || st.exponent > 31)
            return TA_ERR_KERNEL;
        for (int32_t c = 0; c < p->depth; c++)
            out[c] = (int8_t)element(&st, exp_table, in[c], INT8_MIN, INT8_MAX);
    }
    return TA_OK;
}

int ta_softmax_s8_s16(const ta_softmax_params_t *p, const int8_t *input, const int32_t *exp_table,
                      int16_t *output)
{
    for (int32_t i = 0; i < p->outer_size; i++) {
        const int8_t *in = input + (size_t)i * (size_t)p->depth;
        int16_t *out = output + (size_t)i * (size_t)p->depth;
        const row_stats_t st = row_stats(p, in, exp_table, 16);
        if (st.exponent < 0 || st.exponent > 31)
            return TA_ERR_KERNEL;
        for (int32_t c = 0; c < p->depth; c++)
            out[c] = (int16_t)element(&st, exp_table, in[c], INT16_MIN, INT16_MAX);
    }
    return TA_OK;
}

/* ---- int16 ---------------------------------------------------------------- */

static int16_t wrap16(int32_t v)
{
    return (int16_t)(((v + 32768) & 0xFFFF) - 32768);
}

/* Table lookup with linear interpolation: the top 9 bits of the value pick
   an entry, the low 7 interpolate towards the next (TFLite's LUTLookup). */
static int16_t lut_lookup(int16_t value, const int16_t *lut)
{
    const int32_t index = 256 + (value >> 7);
    const int32_t offset = value & 0x7F;
    const int16_t slope = wrap16(lut[index + 1] - lut[index]);
    const int32_t delta = (slope * offset + 64) >> 7;
    return wrap16(lut[index] + delta);
}

static int16_t clamp16(int32_t v)
{
    return (int16_t)ta_clamp_i32(v, INT16_MIN, INT16_MAX);
}

static int count_leading_zeros(uint32_t x)
{
    int n = 0;
    while (n < 32 && !(x & 0x80000000u)) {
        x <<= 1;
        n++;
    }
    return n;
}

int ta_softmax_s16(const ta_softmax_params_t *p, const int16_t *input, const int16_t *exp_lut,
                   const int16_t *one_over_one_plus_x_lut, int16_t *output)
{
    for (int32_t i = 0; i < p->outer_size; i++) {
        const int16_t *in = input + (size_t)i * (size_t)p->depth;
        int16_t *out = output + (size_t)i * (size_t)p->depth;
        int16_t max = INT16_MIN;
        for (int32_t c = 0; c < p->depth; c++)
            max = in[c] > max ? in[c] : max;

        /* exp(x - max) in Q0.15, kept in the output row; their sum in Q16.15
           (the converter bounds depth so it cannot overflow). */
        int32_t sum = 0;
        for (int32_t c = 0; c < p->depth; c++) {
            const int32_t scaled = ta_mul_by_quantized_multiplier(
                (int32_t)in[c] - max, p->input_multiplier, (int)p->input_left_shift);
            /* [-65535, 0] recentred on the table's [-32768, 32767]. */
            out[c] = lut_lookup(clamp16(scaled + 32767), exp_lut);
            sum += out[c];
        }
        if (sum < 2) /* the row maximum alone contributes about 32767 */
            return TA_ERR_KERNEL;

        /* 1 / sum: normalise sum to [1, 2), the table takes sum - 1 recentred. */
        const int headroom_plus_one = count_leading_zeros((uint32_t)sum);
        const int32_t shifted_sum = (int32_t)((((int64_t)sum << (headroom_plus_one - 1)) +
                                               (1 << 13)) >>
                                              14);
        const int16_t reciprocal = lut_lookup(clamp16(shifted_sum - ((1 << 15) + (1 << 16))),
                                              one_over_one_plus_x_lut);
        const int right_shift = 31 - headroom_plus_one;
        const int64_t round = (int64_t)1 << (right_shift - 1);
        for (int32_t c = 0; c < p->depth; c++) {
            const int32_t r = (int32_t)(((int64_t)out[c] * reciprocal + round) >> right_shift);
            out[c] = (int16_t)ta_clamp_i32(r, 0, INT16_MAX);
        }
    }
    return TA_OK;
}
