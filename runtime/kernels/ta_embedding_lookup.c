/* ta_embedding_lookup.c - see the header. */
#include "ta_embedding_lookup.h"

#include "../include/ta_status.h"

int ta_embedding_lookup_s8_f32(const ta_embedding_lookup_params_t *p, const int32_t *lookup,
                               const int8_t *value, float *output)
{
    for (int32_t i = 0; i < p->lookups; i++) {
        if (lookup[i] < 0 || lookup[i] >= p->rows)
            return TA_ERR_KERNEL;
        const int8_t *row = value + lookup[i] * p->columns;
        for (int32_t k = 0; k < p->columns; k++)
            *output++ = (float)row[k] * p->scale;
    }
    return TA_OK;
}
