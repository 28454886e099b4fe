/* ta_squared_difference.c - SQUARED_DIFFERENCE kernels; see the header. */
#include "ta_squared_difference.h"

#include "../include/ta_quant.h"
#include "../include/ta_status.h"

/* The input multipliers are at most 1/2. */
static inline int32_t rescale(int32_t q, int32_t offset, int left_shift, int32_t multiplier,
                              int shift)
{
    const int32_t shifted = ta_shift_left_wrap(q + offset, left_shift);
    return ta_mul_by_quantized_multiplier_lt_one(shifted, multiplier, shift);
}

/* With int8 zero points in range (shift 7) or int16 zero points 0 (shift
   0) and multipliers <= 1/2, |x - y| <= 2^15: the square fits in int32. */
static inline int32_t finish(const ta_squared_difference_params_t *p, int32_t x, int32_t y)
{
    const int32_t d = x - y;
    const int32_t out =
        ta_mul_by_quantized_multiplier(d * d, p->output_multiplier, (int)p->output_shift) +
        p->output_offset;
    return ta_clamp_i32(out, p->activation_min, p->activation_max);
}

#define X1(v) rescale((v), p->input1_offset, (int)p->left_shift, p->input1_multiplier, \
                      (int)p->input1_shift)
#define X2(v) rescale((v), p->input2_offset, (int)p->left_shift, p->input2_multiplier, \
                      (int)p->input2_shift)

/* Within a row each input steps by one element or stays on a broadcast
   one, rescaled once. Each output element is written after its inputs are
   read, so the output may share a non-broadcast input's bytes. `restrict`:
   the params are never written, so they need not be reloaded after every
   int8 store (which may alias anything). */
#define DEFINE_KERNEL(name, T)                                                            \
    int name(const ta_squared_difference_params_t *restrict p, const T *input1,          \
             const T *input2, T *output)                                                  \
    {                                                                                     \
        const int32_t n = p->dims[p->rank - 1];                                           \
        const int step1 = p->stride1[p->rank - 1] != 0;                                   \
        const int step2 = p->stride2[p->rank - 1] != 0;                                   \
        if (n <= 0)                                                                       \
            return TA_OK;                                                                 \
        ta_broadcast_iter_t it;                                                           \
        ta_broadcast_begin(&it);                                                          \
        do {                                                                              \
            const T *a = input1 + it.in1, *b = input2 + it.in2;                           \
            T *o = output + it.out;                                                       \
            if (step1 && step2) {                                                         \
                for (int32_t i = 0; i < n; i++)                                           \
                    o[i] = (T)finish(p, X1(a[i]), X2(b[i]));                              \
            } else if (step1) {                                                           \
                const int32_t y = X2(b[0]);                                               \
                for (int32_t i = 0; i < n; i++)                                           \
                    o[i] = (T)finish(p, X1(a[i]), y);                                     \
            } else {                                                                      \
                const int32_t x = X1(a[0]);                                               \
                for (int32_t i = 0; i < n; i++)                                           \
                    o[i] = (T)finish(p, x, X2(b[i]));                                     \
            }                                                                             \
        } while (ta_broadcast_next(&it, p->rank, p->dims, p->stride1, p->stride2));       \
        return TA_OK;                                                                     \
    }

DEFINE_KERNEL(ta_squared_difference_s8, int8_t)
DEFINE_KERNEL(ta_squared_difference_s16, int16_t)
