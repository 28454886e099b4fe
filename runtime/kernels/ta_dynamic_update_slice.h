/*
 * ta_dynamic_update_slice.h - DYNAMIC_UPDATE_SLICE with start indices read
 * at run time (int32 or int64), as TFLite Micro: each start clamped to
 * [0, operand dim - update dim], the operand copied to the output and the
 * update written over it from there; an update as large as the operand
 * replaces it. Byte-level: any element type. (Constant start indices are
 * placed by the converter and need no kernel of their own.)
 */
#ifndef TA_DYNAMIC_UPDATE_SLICE_H
#define TA_DYNAMIC_UPDATE_SLICE_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_DYNAMIC_UPDATE_SLICE_MAX_RANK 6

#define TA_DYNAMIC_UPDATE_SLICE_PARAMS(FIELD, ARRAY, ARRAY_USED)              \
    FIELD(int32_t, rank) /* 1..TA_DYNAMIC_UPDATE_SLICE_MAX_RANK */            \
    ARRAY_USED(int32_t, operand_dims, TA_DYNAMIC_UPDATE_SLICE_MAX_RANK, rank) \
    ARRAY_USED(int32_t, update_dims, TA_DYNAMIC_UPDATE_SLICE_MAX_RANK, rank)  \
    FIELD(int32_t, element_bytes)
typedef struct {
    TA_PARAM_MEMBERS(TA_DYNAMIC_UPDATE_SLICE_PARAMS)
} ta_dynamic_update_slice_params_t;

int ta_dynamic_update_slice_i32(const ta_dynamic_update_slice_params_t *p, const void *operand,
                                const void *update, const int32_t *start, void *output);
int ta_dynamic_update_slice_i64(const ta_dynamic_update_slice_params_t *p, const void *operand,
                                const void *update, const int64_t *start, void *output);

#endif /* TA_DYNAMIC_UPDATE_SLICE_H */
