/*
 * ta_signal_filter_bank.h - the Signal library's mel filter bank, its
 * square root and its log (TFLite Micro's signal/src filter_bank.cc,
 * filter_bank_square_root.cc, filter_bank_log.cc, log.cc), bit-exact:
 *   filter bank: per channel, the uint64 sum of spectrum bins weighted
 *     by its rising weights plus the previous channel's falling
 *     (unweights) ones; channel 0 of the num_channels + 1 is dropped;
 *   square root: the rounded square root of each channel, shifted right
 *     by the FFT's auto-scale bits;
 *   log: the library's fixed-point natural log of (x << correction_bits),
 *     times output_scale, saturated to int16 (0 for inputs <= 1).
 * The converter checks every start and width against the tensors' sizes.
 */
#ifndef TA_SIGNAL_FILTER_BANK_H
#define TA_SIGNAL_FILTER_BANK_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_SIGNAL_FILTER_BANK_PARAMS(FIELD, ARRAY, ARRAY_USED) FIELD(int32_t, num_channels)
typedef struct {
    TA_PARAM_MEMBERS(TA_SIGNAL_FILTER_BANK_PARAMS)
} ta_signal_filter_bank_params_t;

#define TA_SIGNAL_FILTER_BANK_SQRT_PARAMS(FIELD, ARRAY, ARRAY_USED) FIELD(int32_t, count)
typedef struct {
    TA_PARAM_MEMBERS(TA_SIGNAL_FILTER_BANK_SQRT_PARAMS)
} ta_signal_filter_bank_sqrt_params_t;

#define TA_SIGNAL_FILTER_BANK_LOG_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, count)                                          \
    FIELD(uint32_t, output_scale)                                  \
    FIELD(int32_t, correction_bits) /* 0 to 31 */
typedef struct {
    TA_PARAM_MEMBERS(TA_SIGNAL_FILTER_BANK_LOG_PARAMS)
} ta_signal_filter_bank_log_params_t;

/* weights/unweights: the bins' coefficients; freq_starts, weight_starts,
   widths: num_channels + 1 entries each. */
int ta_signal_filter_bank_u32(const ta_signal_filter_bank_params_t *p, const uint32_t *input,
                              const int16_t *weights, const int16_t *unweights,
                              const int16_t *freq_starts, const int16_t *weight_starts,
                              const int16_t *widths, uint64_t *output);
int ta_signal_filter_bank_sqrt_u64(const ta_signal_filter_bank_sqrt_params_t *p,
                                   const uint64_t *input, const int32_t *scale_bits,
                                   uint32_t *output);
int ta_signal_filter_bank_log_u32(const ta_signal_filter_bank_log_params_t *p,
                                  const uint32_t *input, int16_t *output);

#endif /* TA_SIGNAL_FILTER_BANK_H */
