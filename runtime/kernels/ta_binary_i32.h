/*
 * ta_binary_i32.h - ADD, MUL, DIV, MAXIMUM and MINIMUM on int32 tensors
 * without quantization, with broadcasting, as TFLite Micro's reference
 * kernels: the result clamped to [activation_min, activation_max].
 *   ADD, MUL wrap modulo 2^32 on overflow (the reference's int32 arithmetic
 *     does on every target it runs on; C leaves signed overflow undefined,
 *     so the kernels compute in uint32);
 *   DIV truncates toward zero (C++ integer division); INT32_MIN / -1 wraps
 *     to INT32_MIN; a zero divisor, which crashes the reference, gives 0.
 */
#ifndef TA_BINARY_I32_H
#define TA_BINARY_I32_H

#include <stdint.h>

#include "../include/ta_params.h"

#include "ta_broadcast.h"

#define TA_BINARY_I32_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    TA_BROADCAST_PARAMS(FIELD, ARRAY, ARRAY_USED)      \
    FIELD(int32_t, activation_min)                     \
    FIELD(int32_t, activation_max)
typedef struct {
    TA_PARAM_MEMBERS(TA_BINARY_I32_PARAMS)
} ta_binary_i32_params_t;

int ta_add_i32(const ta_binary_i32_params_t *p, const int32_t *input1, const int32_t *input2,
               int32_t *output);
int ta_mul_i32(const ta_binary_i32_params_t *p, const int32_t *input1, const int32_t *input2,
               int32_t *output);
int ta_div_i32(const ta_binary_i32_params_t *p, const int32_t *input1, const int32_t *input2,
               int32_t *output);
int ta_maximum_i32(const ta_binary_i32_params_t *p, const int32_t *input1, const int32_t *input2,
                   int32_t *output);
int ta_minimum_i32(const ta_binary_i32_params_t *p, const int32_t *input1, const int32_t *input2,
                   int32_t *output);

#endif /* TA_BINARY_I32_H */
