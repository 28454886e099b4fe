/* ta_reduce_f32.c - float32 reduction kernels; see the header. */
#include "ta_reduce_f32.h"

#include "../include/ta_status.h"

#include "ta_reduce_nest.h"

#include <float.h>

typedef enum { KIND_SUM, KIND_MEAN, KIND_MAX, KIND_MIN } reduce_kind_t;

/* The reference's reducer (current, in) for one kind. */
static float combine(reduce_kind_t kind, float current, float in)
{
    switch (kind) {
    case KIND_MAX: return in > current ? in : current;
    case KIND_MIN: return in < current ? in : current;
    default: return in + current;
    }
}

static float initial(reduce_kind_t kind)
{
    return kind == KIND_MAX ? -FLT_MAX : kind == KIND_MIN ? FLT_MAX : 0.0f;
}

static int reduce(const ta_reduce_params_t *p, const float *input, float *output,
                  reduce_kind_t kind)
{
    if (!ta_reduce_params_valid(p))
        return TA_ERR_BAD_ARGUMENT;
    /* The reference divides by the element count converted to float. */
    int64_t count = 1;
    for (int32_t d = 0; d < p->inner_rank; d++)
        count *= p->inner_dims[d];
    const float divisor = (float)count;
    ta_reduce_nest_t out, in;
    ta_reduce_nest_start(&out, p->outer_rank, p->outer_dims, p->outer_strides, 0);
    do {
        float acc = initial(kind);
        ta_reduce_nest_start(&in, p->inner_rank, p->inner_dims, p->inner_strides, out.offset);
        do {
            acc = combine(kind, acc, input[in.offset]);
        } while (ta_reduce_nest_next(&in));
        *output++ = kind == KIND_MEAN ? acc / divisor : acc;
    } while (ta_reduce_nest_next(&out));
    return TA_OK;
}

int ta_reduce_sum_f32(const ta_reduce_params_t *p, const float *input, float *output)
{
    return reduce(p, input, output, KIND_SUM);
}

int ta_reduce_mean_f32(const ta_reduce_params_t *p, const float *input, float *output)
{
    return reduce(p, input, output, KIND_MEAN);
}

int ta_reduce_max_f32(const ta_reduce_params_t *p, const float *input, float *output)
{
    return reduce(p, input, output, KIND_MAX);
}

int ta_reduce_min_f32(const ta_reduce_params_t *p, const float *input, float *output)
{
    return reduce(p, input, output, KIND_MIN);
}
