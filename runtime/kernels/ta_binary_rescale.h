/*
 * ta_binary_rescale.h - the input rescale that ADD/SUB,
 * SQUARED_DIFFERENCE and the comparisons share (the fields of
 * TA_BINARY_RESCALE_PARAMS in ta_broadcast.h), as TFLite computes it:
 *
 *   x = requant((q + offset) << left_shift) by (multiplier, shift <= 0)
 *
 * and the same on four Helium lanes, which give the same values.
 */
#ifndef TA_BINARY_RESCALE_H
#define TA_BINARY_RESCALE_H

#include <stdbool.h>
#include <stdint.h>

#include "../include/ta_elementwise_simd.h"
#include "../include/ta_quant.h"

#include "ta_broadcast_rows.h"

/* The multiplier is below 1 (the converter checks it). The wrapping
   shift only keeps UBSan quiet on odd models: for valid quantizations
   |q + offset| << left_shift fits. */
static inline int32_t ta_binary_rescale(int32_t q, int32_t offset, int32_t left_shift,
                                        int32_t multiplier, int32_t shift)
{
    const int32_t shifted = ta_shift_left_wrap(q + offset, (int)left_shift);
    return ta_mul_by_quantized_multiplier_lt_one(shifted, multiplier, (int)shift);
}

#if defined(TA_EW_MVE)
/* Both inputs' rescales as the Helium lanes use them. */
typedef struct {
    int32_t left_shift;
    int32_t offset1, offset2; /* the input offsets shifted left by left_shift */
    ta_ew_scale_t in1, in2;
} ta_binary_rescale_mve_t;

/* Lane by lane the reference for left shifts in [0, 30] and input shifts
   in [-31, 0] (the converter's); false otherwise. */
static inline bool ta_binary_rescale_mve_init(int32_t left_shift, int32_t offset1,
                                              int32_t multiplier1, int32_t shift1, int32_t offset2,
                                              int32_t multiplier2, int32_t shift2,
                                              ta_binary_rescale_mve_t *r)
{
    if (left_shift < 0 || left_shift > 30 || shift1 > 0 || shift2 > 0 || shift1 < -31 ||
        shift2 < -31)
        return false;
    r->left_shift = left_shift;
    r->offset1 = ta_shift_left_wrap(offset1, (int)left_shift);
    r->offset2 = ta_shift_left_wrap(offset2, (int)left_shift);
    r->in1 = ta_ew_scale(multiplier1, shift1);
    r->in2 = ta_ew_scale(multiplier2, shift2);
    return true;
}

/* (q + offset) << left_shift as one multiply-add (shift_mul holds
   2^left_shift, offset the shifted offset), then the input's scale. */
TA_ALWAYS_INLINE int32x4_t ta_binary_rescale_mve(int32x4_t q, int32x4_t shift_mul, int32_t offset,
                                                 const ta_ew_scale_t *s)
{
    const int32x4_t x = vmlasq_n_s32(q, shift_mul, offset);
    return ta_ew_divide_by_pot_mve(vqrdmulhq_n_s32(x, s->multiplier), s->fix_shift, -s->exponent);
}

/* Both inputs of four lanes rescaled (qa, qb: their raw values); the
   row's broadcast input, if kind names one, is `fixed`, rescaled once per
   row by the caller. */
TA_ALWAYS_INLINE void ta_binary_rescale_lanes_mve(const ta_binary_rescale_mve_t *r, int32x4_t qa,
                                                  int32x4_t qb, int32x4_t fixed,
                                                  int32x4_t shift_mul, int kind, int32x4_t *x,
                                                  int32x4_t *y)
{
    *x = kind == TA_ROW_FIRST_FIXED ? fixed
                                    : ta_binary_rescale_mve(qa, shift_mul, r->offset1, &r->in1);
    *y = kind == TA_ROW_SECOND_FIXED ? fixed
                                     : ta_binary_rescale_mve(qb, shift_mul, r->offset2, &r->in2);
}
#endif

#endif /* TA_BINARY_RESCALE_H */
