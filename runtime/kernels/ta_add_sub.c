/* ta_add_sub.c - ADD and SUB kernels; see the header. */
#include "ta_add_sub.h"

#include "../include/ta_fixedpoint.h"
#include "../include/ta_status.h"

/* All three multipliers are below 1 (the converter checks it). */
static inline int32_t rescale(int32_t q, int32_t offset, int left_shift, int32_t multiplier,
                              int shift)
{
    /* |q + offset| < 2^16 and left_shift is 15 (int16) or 20 (int8): no
       overflow; the wrapping shift only keeps UBSan quiet on odd models. */
    const int32_t shifted = ta_shift_left_wrap(q + offset, left_shift);
    return ta_mul_by_quantized_multiplier_lt_one(shifted, multiplier, shift);
}

static inline int32_t finish(const ta_add_params_t *p, int32_t raw)
{
    const int32_t out =
        ta_mul_by_quantized_multiplier_lt_one(raw, p->output_multiplier, (int)p->output_shift);
    return ta_clamp_i32(out + p->output_offset, p->activation_min, p->activation_max);
}

#define X1(v) rescale((v), p->input1_offset, (int)p->left_shift, p->input1_multiplier, \
                      (int)p->input1_shift)
#define X2(v) rescale((v), p->input2_offset, (int)p->left_shift, p->input2_multiplier, \
                      (int)p->input2_shift)

/* One kernel per (type, combine). Within a row each input steps by one
   element or stays on a broadcast one, whose rescaled value is computed
   once. Each output element is written after its inputs are read, so the
   output may share a non-broadcast input's bytes. `restrict`: the params
   are never written, so the compiler need not reload them after every
   int8 store (which may alias anything). */
#define DEFINE_KERNEL(name, T, COMBINE)                                                   \
    int name(const ta_add_params_t *restrict p, const T *input1, const T *input2,        \
             T *output)                                                                   \
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
                    o[i] = (T)finish(p, COMBINE(X1(a[i]), X2(b[i])));                     \
            } else if (step1) {                                                           \
                const int32_t y = X2(b[0]);                                               \
                for (int32_t i = 0; i < n; i++)                                           \
                    o[i] = (T)finish(p, COMBINE(X1(a[i]), y));                            \
            } else {                                                                      \
                const int32_t x = X1(a[0]);                                               \
                for (int32_t i = 0; i < n; i++)                                           \
                    o[i] = (T)finish(p, COMBINE(x, X2(b[i])));                            \
            }                                                                             \
        } while (ta_broadcast_next(&it, p->rank, p->dims, p->stride1, p->stride2));       \
        return TA_OK;                                                                     \
    }

/* TFLite's sums of two rescaled inputs fit in int32 for every valid
   quantization; wrapping keeps the kernel defined for any other. */
DEFINE_KERNEL(ta_add_s8, int8_t, ta_fp_add)
DEFINE_KERNEL(ta_add_s16, int16_t, ta_fp_add)
DEFINE_KERNEL(ta_sub_s8, int8_t, ta_fp_sub)
DEFINE_KERNEL(ta_sub_s16, int16_t, ta_fp_sub)
