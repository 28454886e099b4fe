/*
 * ta_broadcast_args.h - BROADCAST_ARGS: the broadcast shape of two shape
 * vectors, as TFLite Micro's reference BroadcastArgs computes it: from
 * the last entry backwards, an input shorter than the output counts as 1;
 * a 1 takes the other input's entry, otherwise both must be equal. The
 * output's length is its tensor's, whatever the inputs' lengths (entries
 * beyond both inputs are 1).
 */
#ifndef TA_BROADCAST_ARGS_H
#define TA_BROADCAST_ARGS_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_BROADCAST_ARGS_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, length1)                                \
    FIELD(int32_t, length2)                                \
    FIELD(int32_t, output_length)
typedef struct {
    TA_PARAM_MEMBERS(TA_BROADCAST_ARGS_PARAMS)
} ta_broadcast_args_params_t;

/* TA_ERR_KERNEL when two entries differ and neither is 1 (TFLite Micro
   aborts there). */
int ta_broadcast_args_i32(const ta_broadcast_args_params_t *p, const int32_t *shape1,
                          const int32_t *shape2, int32_t *output);
int ta_broadcast_args_i64(const ta_broadcast_args_params_t *p, const int64_t *shape1,
                          const int64_t *shape2, int64_t *output);

#endif /* TA_BROADCAST_ARGS_H */
