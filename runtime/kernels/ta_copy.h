/* ta_copy.h - a byte copy, for RESHAPE-like operators that cannot alias. */
#ifndef TA_COPY_H
#define TA_COPY_H

#include <stdint.h>

typedef struct {
    uint32_t bytes;
} ta_copy_params_t;

int ta_copy(const ta_copy_params_t *p, const void *input, void *output);

#endif /* TA_COPY_H */
