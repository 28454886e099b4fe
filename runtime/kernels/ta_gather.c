/* ta_gather.c - see the header. */
#include "ta_gather.h"

#include "../include/ta_status.h"

#include <string.h>

int ta_gather(const ta_gather_params_t *p, const void *input, const int32_t *offsets, void *output)
{
    const uint8_t *in = (const uint8_t *)input;
    uint8_t *out = (uint8_t *)output;
    const int32_t n = p->inner_bytes;
    const int32_t outer_step = p->axis_size * n;
    for (int32_t b = 0; b < p->batches; b++) {
        const int32_t *offs = offsets + b * p->coords;
        for (int32_t o = 0; o < p->outer; o++) {
            for (int32_t j = 0; j < p->coords; j++) {
                memcpy(out, in + offs[j] + o * outer_step, (size_t)n);
                out += n;
            }
        }
    }
    return TA_OK;
}

int ta_gather_i32(const ta_gather_params_t *p, const void *input, const int32_t *indices,
                  void *output)
{
    const uint8_t *in = (const uint8_t *)input;
    uint8_t *out = (uint8_t *)output;
    const int32_t n = p->inner_bytes;
    for (int32_t b = 0; b < p->batches; b++) {
        const int32_t *idx = indices + b * p->coords;
        for (int32_t o = 0; o < p->outer; o++) {
            const uint8_t *base = in + (b * p->outer + o) * p->axis_size * n;
            for (int32_t j = 0; j < p->coords; j++) {
                if (idx[j] < 0 || idx[j] >= p->axis_size)
                    return TA_ERR_KERNEL;
                memcpy(out, base + idx[j] * n, (size_t)n);
                out += n;
            }
        }
    }
    return TA_OK;
}

int ta_gather_nd_i32(const ta_gather_nd_params_t *p, const void *params, const int32_t *indices,
                     void *output)
{
    if (p->depth < 0 || p->depth > TA_GATHER_ND_MAX_DEPTH)
        return TA_ERR_BAD_ARGUMENT;
    const uint8_t *in = (const uint8_t *)params;
    uint8_t *out = (uint8_t *)output;
    const size_t slice_bytes = (size_t)p->slice_elements * (size_t)p->element_bytes;
    for (int32_t r = 0; r < p->rows; r++) {
        /* In int64: a large index must fail the check, not wrap. */
        int64_t position = 0;
        for (int32_t j = 0; j < p->depth; j++)
            position += (int64_t)indices[r * p->depth + j] * p->steps[j];
        if (position < 0 || position + p->slice_elements > p->params_elements)
            return TA_ERR_KERNEL;
        memcpy(out, in + (size_t)position * (size_t)p->element_bytes, slice_bytes);
        out += slice_bytes;
    }
    return TA_OK;
}
