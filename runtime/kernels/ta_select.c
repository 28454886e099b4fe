/* ta_select.c - SELECT_V2; see the header. The output is walked in
 * row-major order with one index per dimension; each input's offset
 * follows its own strides. Each output element is written after its
 * inputs are read. */
#include "ta_select.h"

#include <string.h>

#include "../include/ta_status.h"

int ta_select(const ta_select_params_t *p, const bool *condition, const void *x, const void *y,
              void *output)
{
    const uint8_t *c = (const uint8_t *)condition;
    const uint8_t *xs = (const uint8_t *)x, *ys = (const uint8_t *)y;
    uint8_t *out = (uint8_t *)output;
    const size_t elem = (size_t)p->elem_size;
    int32_t index[TA_SELECT_MAX_DIMS] = {0};
    size_t ci = 0, xi = 0, yi = 0, oi = 0;
    if (p->rank < 0 || p->rank > TA_SELECT_MAX_DIMS)
        return TA_ERR_BAD_ARGUMENT;
    for (int32_t d = 0; d < p->rank; d++)
        if (p->dims[d] <= 0)
            return TA_OK;
    for (;;) {
        memcpy(out + oi * elem, c[ci] ? xs + xi * elem : ys + yi * elem, elem);
        oi++;
        /* Next output element: step the innermost index, carry outwards. */
        int32_t d = p->rank - 1;
        for (; d >= 0; d--) {
            ci += (size_t)p->condition_strides[d];
            xi += (size_t)p->x_strides[d];
            yi += (size_t)p->y_strides[d];
            if (++index[d] < p->dims[d])
                break;
            ci -= (size_t)p->condition_strides[d] * (size_t)p->dims[d];
            xi -= (size_t)p->x_strides[d] * (size_t)p->dims[d];
            yi -= (size_t)p->y_strides[d] * (size_t)p->dims[d];
            index[d] = 0;
        }
        if (d < 0)
            return TA_OK;
    }
}
