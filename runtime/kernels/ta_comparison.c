/* ta_comparison.c - the comparison kernel; see the header. */
#include "ta_comparison.h"

#include "../include/ta_quant.h"
#include "../include/ta_status.h"

/* The multipliers are the input scales, below 1 (the converter checks). */
static inline int32_t rescale(int32_t q, int32_t offset, int left_shift, int32_t multiplier,
                              int shift)
{
    /* |q + offset| <= 255 and left_shift is 8: no overflow. */
    const int32_t shifted = ta_shift_left_wrap(q + offset, left_shift);
    return ta_mul_by_quantized_multiplier_lt_one(shifted, multiplier, shift);
}

/* The mask bit for x < y (0), x == y (1) or x > y (2). */
static inline bool compare(int32_t mask, int32_t x, int32_t y)
{
    const int order = (x >= y) + (x > y);
    return (mask >> order) & 1;
}

#define X1(v) rescale((v), p->input1_offset, (int)p->left_shift, p->input1_multiplier, \
                      (int)p->input1_shift)
#define X2(v) rescale((v), p->input2_offset, (int)p->left_shift, p->input2_multiplier, \
                      (int)p->input2_shift)

/* Within a row each input steps by one element or stays on a broadcast
   one, rescaled once. Each output byte is written after its inputs are
   read, so the output may share a non-broadcast input's bytes. `restrict`:
   the params are never written, so they need not be reloaded after every
   bool store. */
int ta_comparison_s8(const ta_comparison_params_t *restrict p, const int8_t *input1,
                     const int8_t *input2, bool *output)
{
    const int32_t n = p->dims[p->rank - 1];
    const int step1 = p->stride1[p->rank - 1] != 0;
    const int step2 = p->stride2[p->rank - 1] != 0;
    const int32_t mask = p->mask;
    if (n <= 0)
        return TA_OK;
    ta_broadcast_iter_t it;
    ta_broadcast_begin(&it);
    do {
        const int8_t *a = input1 + it.in1, *b = input2 + it.in2;
        bool *o = output + it.out;
        if (step1 && step2) {
            for (int32_t i = 0; i < n; i++)
                o[i] = compare(mask, X1(a[i]), X2(b[i]));
        } else if (step1) {
            const int32_t y = X2(b[0]);
            for (int32_t i = 0; i < n; i++)
                o[i] = compare(mask, X1(a[i]), y);
        } else {
            const int32_t x = X1(a[0]);
            for (int32_t i = 0; i < n; i++)
                o[i] = compare(mask, x, X2(b[i]));
        }
    } while (ta_broadcast_next(&it, p->rank, p->dims, p->stride1, p->stride2));
    return TA_OK;
}
