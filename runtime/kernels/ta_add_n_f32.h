/*
 * ta_add_n_f32.h - float32 ADD_N as TFLite Micro's reference AddN sums:
 * per element x = 0.0f, then x += input j for j = 0 .. n-1 in order (so
 * an all -0.0 sum is +0.0). A kernel call takes one input: the converter
 * calls ta_add_n_f32_first with input 0, then ta_add_n_f32_accumulate
 * with each further input, summing in the output itself.
 */
#ifndef TA_ADD_N_F32_H
#define TA_ADD_N_F32_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_ADD_N_F32_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, size) /* elements of each input */
typedef struct {
    TA_PARAM_MEMBERS(TA_ADD_N_F32_PARAMS)
} ta_add_n_f32_params_t;

int ta_add_n_f32_first(const ta_add_n_f32_params_t *p, const float *input, float *output);
int ta_add_n_f32_accumulate(const ta_add_n_f32_params_t *p, const float *input, float *output);

#endif /* TA_ADD_N_F32_H */
