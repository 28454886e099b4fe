/*
 * ta_select.h - SELECT_V2: output = condition ? x : y, element by element,
 * the three inputs broadcast to the output (NumPy rules), as TFLite
 * Micro's Select / BroadcastSelect5DSlow pick them. Elements are moved as
 * bytes (int8, int16 and float32 alike), never converted.
 *
 * The converter drops the output's size-1 dimensions and gives, per
 * remaining dimension (outermost first), each input's stride in elements:
 * 0 where that input is broadcast. The output is dense.
 */
#ifndef TA_SELECT_H
#define TA_SELECT_H

#include <stdbool.h>
#include <stdint.h>

#include "../include/ta_params.h"

#define TA_SELECT_MAX_DIMS 8

#define TA_SELECT_PARAMS(FIELD, ARRAY, ARRAY_USED)                   \
    FIELD(int32_t, rank) /* 0 for a single element */                \
    ARRAY_USED(int32_t, dims, TA_SELECT_MAX_DIMS, rank)              \
    ARRAY_USED(int32_t, condition_strides, TA_SELECT_MAX_DIMS, rank) \
    ARRAY_USED(int32_t, x_strides, TA_SELECT_MAX_DIMS, rank)         \
    ARRAY_USED(int32_t, y_strides, TA_SELECT_MAX_DIMS, rank)         \
    FIELD(int32_t, elem_size) /* bytes of an x, y and output element */
typedef struct {
    TA_PARAM_MEMBERS(TA_SELECT_PARAMS)
} ta_select_params_t;

/* A condition byte that is not 0 selects x (a model's input may hold any
   byte in a bool, and C++ reads such a bool as true). */
int ta_select(const ta_select_params_t *p, const bool *condition, const void *x, const void *y,
              void *output);

#endif /* TA_SELECT_H */
