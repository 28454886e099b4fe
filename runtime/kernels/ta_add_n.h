/*
 * ta_add_n.h - int8 ADD_N: the sum of n same-shape inputs sharing one
 * quantization, as TFLite Micro's reference AddN computes it. Each input
 * is brought to a common scale (offset, << left_shift, times the input
 * multiplier 0.5), the scaled values are summed in int32 starting from
 * the scaled zero offset itself (TFLite Micro's sum starts there, not at
 * 0), and the sum is requantized to the output and clamped.
 *
 * A kernel call takes one input, so the converter makes n calls over an
 * int32 accumulator (one per element): ta_add_n_s8_first with input 0,
 * ta_add_n_s8_accumulate with each middle input, ta_add_n_s8_finish with
 * the last, which writes the output. The int32 sum wraps on overflow, as
 * TFLite Micro's does on its targets.
 */
#ifndef TA_ADD_N_H
#define TA_ADD_N_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_ADD_N_S8_PARAMS(FIELD, ARRAY, ARRAY_USED)          \
    FIELD(int32_t, size)         /* elements of each input */ \
    FIELD(int32_t, input_offset) /* -zero point */            \
    FIELD(int32_t, left_shift)                                \
    FIELD(int32_t, input_multiplier)                          \
    FIELD(int32_t, input_shift)   /* <= 0 */                  \
    FIELD(int32_t, output_offset) /* +zero point */           \
    FIELD(int32_t, output_multiplier)                         \
    FIELD(int32_t, output_shift) /* <= 0 */                   \
    FIELD(int32_t, activation_min)                            \
    FIELD(int32_t, activation_max)
typedef struct {
    TA_PARAM_MEMBERS(TA_ADD_N_S8_PARAMS)
} ta_add_n_s8_params_t;

/* `sum` is int32-aligned scratch of size int32s. */
int ta_add_n_s8_first(const ta_add_n_s8_params_t *p, const int8_t *input, void *sum);
int ta_add_n_s8_accumulate(const ta_add_n_s8_params_t *p, const int8_t *input, void *sum);
int ta_add_n_s8_finish(const ta_add_n_s8_params_t *p, const int8_t *input, void *sum,
                       int8_t *output);

#endif /* TA_ADD_N_H */
