/* ta_copy.h - a byte copy, for RESHAPE-like operators that cannot alias. */
#ifndef TA_COPY_H
#define TA_COPY_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_COPY_PARAMS(FIELD, ARRAY, ARRAY_USED) FIELD(uint32_t, bytes)
typedef struct {
    TA_PARAM_MEMBERS(TA_COPY_PARAMS)
} ta_copy_params_t;

int ta_copy(const ta_copy_params_t *p, const void *input, void *output);

#endif /* TA_COPY_H */
