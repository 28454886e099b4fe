/* ta_dynamic_update_slice.c - see the header. */
#include "ta_dynamic_update_slice.h"

#include "../include/ta_status.h"

#include <string.h>

enum { MAX_RANK = TA_DYNAMIC_UPDATE_SLICE_MAX_RANK };

/* The copy once the starts are clamped: rows of the update's last
   dimension, walked in row-major order. */
static int update_slice(const ta_dynamic_update_slice_params_t *p, const uint8_t *operand,
                        const uint8_t *update, const int32_t *at, uint8_t *output)
{
    const int32_t rank = p->rank;
    int32_t operand_stride[MAX_RANK], index[MAX_RANK] = {0};
    int32_t update_elements = 1, operand_elements = 1;
    for (int32_t d = rank - 1; d >= 0; d--) {
        operand_stride[d] = operand_elements;
        operand_elements *= p->operand_dims[d];
        update_elements *= p->update_dims[d];
    }
    const size_t size = (size_t)p->element_bytes;
    if (update_elements == operand_elements) {
        memcpy(output, update, (size_t)operand_elements * size);
        return TA_OK;
    }
    memcpy(output, operand, (size_t)operand_elements * size);
    if (update_elements == 0)
        return TA_OK;
    const size_t row = (size_t)p->update_dims[rank - 1] * size;
    for (int32_t done = 0; done < update_elements; done += p->update_dims[rank - 1]) {
        int32_t offset = 0;
        for (int32_t d = 0; d < rank; d++)
            offset += (at[d] + index[d]) * operand_stride[d];
        memcpy(output + (size_t)offset * size, update, row);
        update += row;
        for (int32_t d = rank - 2; d >= 0; d--) {
            if (++index[d] < p->update_dims[d])
                break;
            index[d] = 0;
        }
    }
    return TA_OK;
}

/* TFLite Micro's clamp, in int64 as it does. */
static int32_t clamp_start(int64_t start, int32_t operand_dim, int32_t update_dim)
{
    const int64_t last = (int64_t)operand_dim - update_dim;
    return (int32_t)(start < 0 ? 0 : start > last ? last : start);
}

int ta_dynamic_update_slice_i32(const ta_dynamic_update_slice_params_t *p, const void *operand,
                                const void *update, const int32_t *start, void *output)
{
    if (p->rank < 1 || p->rank > MAX_RANK)
        return TA_ERR_BAD_ARGUMENT;
    int32_t at[MAX_RANK];
    for (int32_t d = 0; d < p->rank; d++)
        at[d] = clamp_start(start[d], p->operand_dims[d], p->update_dims[d]);
    return update_slice(p, (const uint8_t *)operand, (const uint8_t *)update, at,
                        (uint8_t *)output);
}

int ta_dynamic_update_slice_i64(const ta_dynamic_update_slice_params_t *p, const void *operand,
                                const void *update, const int64_t *start, void *output)
{
    if (p->rank < 1 || p->rank > MAX_RANK)
        return TA_ERR_BAD_ARGUMENT;
    int32_t at[MAX_RANK];
    for (int32_t d = 0; d < p->rank; d++)
        at[d] = clamp_start(start[d], p->operand_dims[d], p->update_dims[d]);
    return update_slice(p, (const uint8_t *)operand, (const uint8_t *)update, at,
                        (uint8_t *)output);
}
