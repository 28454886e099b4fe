/*
 * ta_embedding_lookup.h - EMBEDDING_LOOKUP's hybrid form: rows of an int8
 * table (zero point 0) picked by int32 lookups and dequantized to float32
 * as TFLite Micro does, (float)value * scale in float. The plain forms
 * (int8 or float32 in and out) are GATHER's byte copies.
 */
#ifndef TA_EMBEDDING_LOOKUP_H
#define TA_EMBEDDING_LOOKUP_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_EMBEDDING_LOOKUP_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, lookups) /* rows written */               \
    FIELD(int32_t, rows)    /* rows of the table */          \
    FIELD(int32_t, columns) /* elements per row */           \
    FIELD(float, scale)     /* the table's scale */
typedef struct {
    TA_PARAM_MEMBERS(TA_EMBEDDING_LOOKUP_PARAMS)
} ta_embedding_lookup_params_t;

/* output[i, :] = value[lookup[i], :] * scale; a lookup outside [0, rows)
   is an error (TFLite Micro fails the run). */
int ta_embedding_lookup_s8_f32(const ta_embedding_lookup_params_t *p, const int32_t *lookup,
                               const int8_t *value, float *output);

#endif /* TA_EMBEDDING_LOOKUP_H */
