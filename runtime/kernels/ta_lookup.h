/*
 * ta_lookup.h - an int8 -> int8 function given as a 256-entry table,
 * indexed by the input's byte (table[(uint8_t)x]): the int8 LOGISTIC and
 * TANH kernels, whose tables the converter computes. Per element, so
 * output == input is safe.
 */
#ifndef TA_LOOKUP_H
#define TA_LOOKUP_H

#include <stdint.h>

void ta_lookup_s8(int32_t size, const int8_t *input, const int8_t *table, int8_t *output);

#endif /* TA_LOOKUP_H */
