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

#endif /* TA_LOWER_CUSTOM_OPTIONS_H */
