/*
 * custom_options.h - a custom operator's options (the FlexBuffers map in
 * the model's custom_options), read by key with range checks.
 */
#ifndef TA_LOWER_CUSTOM_OPTIONS_H
#define TA_LOWER_CUSTOM_OPTIONS_H

#include "../lower.h"

/* The integer (or boolean) option `key`, which must be present and within
   [lo, hi]; false with one error line naming the operator otherwise. */
bool ta_custom_option_int(TaLower *L, TaOp *op, const char *key, int64_t lo, int64_t hi,
                          int32_t *value);
/* The same, `fallback` when the key is absent (an option with a default). */
bool ta_custom_option_int_or(TaLower *L, TaOp *op, const char *key, int32_t fallback, int64_t lo,
                             int64_t hi, int32_t *value);
/* The number option `key` (a float, or an integer converted), which must be
   present, as FlexBuffers' AsFloat gives it: the value rounded to float. */
bool ta_custom_option_float(TaLower *L, TaOp *op, const char *key, float *value);

#endif /* TA_LOWER_CUSTOM_OPTIONS_H */
