/* ta_copy_nd.c - see the header. */
#include "ta_copy_nd.h"

#include "../include/ta_status.h"

#include <string.h>

int ta_copy_nd(const ta_copy_nd_params_t *p, const void *input, void *output)
{
    const uint8_t *src = (const uint8_t *)input;
    uint8_t *dst = (uint8_t *)output;
    const int32_t r = p->rank;
    if (r < 1 || r > TA_COPY_ND_MAX_RANK)
        return TA_ERR_BAD_ARGUMENT;
    for (int32_t k = 0; k < r; k++)
        if (p->dims[k] <= 0)
            return TA_OK;
    const int32_t inner = p->dims[r - 1];
    const int32_t s_in = p->src_strides[r - 1], d_in = p->dst_strides[r - 1];
    const int contiguous = s_in == 1 && d_in == 1;
    /* Offsets are kept as integers, not pointers: stepping past the end
       of a row and back is then well defined. */
    int32_t idx[TA_COPY_ND_MAX_RANK] = {0};
    int32_t s = p->src_offset, d = p->dst_offset;
    for (;;) {
        if (contiguous) {
            memcpy(dst + d, src + s, (size_t)inner);
        } else {
            for (int32_t i = 0; i < inner; i++)
                dst[d + i * d_in] = src[s + i * s_in];
        }
        /* Advance the outer index vector like an odometer. */
        int32_t k = r - 2;
        for (; k >= 0; k--) {
            s += p->src_strides[k];
            d += p->dst_strides[k];
            if (++idx[k] < p->dims[k])
                break;
            s -= p->src_strides[k] * p->dims[k];
            d -= p->dst_strides[k] * p->dims[k];
            idx[k] = 0;
        }
        if (k < 0)
            return TA_OK;
    }
}

int ta_fill(const ta_fill_params_t *p, void *output)
{
    uint8_t *out = (uint8_t *)output;
    switch (p->elem_size) {
    case 1: memset(out, (int)(p->value & 0xFF), (size_t)p->count); return TA_OK;
    case 2: {
        const uint16_t v = (uint16_t)(p->value & 0xFFFF);
        for (int32_t i = 0; i < p->count; i++)
            memcpy(out + 2 * i, &v, 2);
        return TA_OK;
    }
    case 4: {
        const uint32_t v = (uint32_t)p->value;
        for (int32_t i = 0; i < p->count; i++)
            memcpy(out + 4 * i, &v, 4);
        return TA_OK;
    }
    default: return TA_ERR_BAD_ARGUMENT;
    }
}
