/* ta_maximum_minimum.c - MAXIMUM and MINIMUM kernels; see the header. */
#include "ta_maximum_minimum.h"

#include "../include/ta_status.h"

#define MAX_OF(x, y) ((x) > (y) ? (x) : (y))
#define MIN_OF(x, y) ((x) < (y) ? (x) : (y))

/* Within a row each input steps by one element or stays on a broadcast
   one. Each output element is written after its inputs are read, so the
   output may share a non-broadcast input's bytes. */
#define DEFINE_KERNEL(name, T, PICK)                                                      \
    int name(const ta_maximum_minimum_params_t *p, const T *input1,                      \
             const T *input2, T *output)                                                  \
    {                                                                                     \
        const int32_t n = p->dims[p->rank - 1];                                           \
        const size_t step1 = p->stride1[p->rank - 1] != 0;                                \
        const size_t step2 = p->stride2[p->rank - 1] != 0;                                \
        if (n <= 0)                                                                       \
            return TA_OK;                                                                 \
        ta_broadcast_iter_t it;                                                           \
        ta_broadcast_begin(&it);                                                          \
        do {                                                                              \
            const T *a = input1 + it.in1, *b = input2 + it.in2;                           \
            T *o = output + it.out;                                                       \
            for (int32_t i = 0; i < n; i++) {                                             \
                const T x = a[(size_t)i * step1], y = b[(size_t)i * step2];               \
                o[i] = PICK(x, y);                                                        \
            }                                                                             \
        } while (ta_broadcast_next(&it, p->rank, p->dims, p->stride1, p->stride2));       \
        return TA_OK;                                                                     \
    }

DEFINE_KERNEL(ta_maximum_s8, int8_t, MAX_OF)
DEFINE_KERNEL(ta_minimum_s8, int8_t, MIN_OF)
