/* ta_mul.c - MUL kernels; see the header. */
#include "ta_mul.h"

#include "../include/ta_quant.h"
#include "../include/ta_status.h"

/* x and y are offset inputs: |x * y| <= 2^30, no overflow. */
static inline int32_t finish(const ta_mul_params_t *p, int32_t x, int32_t y)
{
    const int32_t out =
        p->output_offset +
        ta_mul_by_quantized_multiplier(x * y, p->output_multiplier, (int)p->output_shift);
    return ta_clamp_i32(out, p->activation_min, p->activation_max);
}

/* Within a row each input steps by one element or stays on a broadcast
   one. Each output element is written after its inputs are read, so the
   output may share a non-broadcast input's bytes. `restrict`: the params
   are never written, so they need not be reloaded after every int8 store
   (which may alias anything). */
#define DEFINE_KERNEL(name, T)                                                            \
    int name(const ta_mul_params_t *restrict p, const T *input1, const T *input2,        \
             T *output)                                                                   \
    {                                                                                     \
        const int32_t n = p->dims[p->rank - 1];                                           \
        const int step1 = p->stride1[p->rank - 1] != 0;                                   \
        const int step2 = p->stride2[p->rank - 1] != 0;                                   \
        const int32_t off1 = p->input1_offset, off2 = p->input2_offset;                   \
        if (n <= 0)                                                                       \
            return TA_OK;                                                                 \
        ta_broadcast_iter_t it;                                                           \
        ta_broadcast_begin(&it);                                                          \
        do {                                                                              \
            const T *a = input1 + it.in1, *b = input2 + it.in2;                           \
            T *o = output + it.out;                                                       \
            if (step1 && step2) {                                                         \
                for (int32_t i = 0; i < n; i++)                                           \
                    o[i] = (T)finish(p, a[i] + off1, b[i] + off2);                        \
            } else if (step1) {                                                           \
                const int32_t y = b[0] + off2;                                            \
                for (int32_t i = 0; i < n; i++)                                           \
                    o[i] = (T)finish(p, a[i] + off1, y);                                  \
            } else {                                                                      \
                const int32_t x = a[0] + off1;                                            \
                for (int32_t i = 0; i < n; i++)                                           \
                    o[i] = (T)finish(p, x, b[i] + off2);                                  \
            }                                                                             \
        } while (ta_broadcast_next(&it, p->rank, p->dims, p->stride1, p->stride2));       \
        return TA_OK;                                                                     \
    }

DEFINE_KERNEL(ta_mul_s8, int8_t)
DEFINE_KERNEL(ta_mul_s16, int16_t)
