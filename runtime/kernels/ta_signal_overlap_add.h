/*
 * ta_signal_overlap_add.h - the Signal library's SignalOverlapAdd, int16
 * and float32, bit-exact with TFLite Micro
 * (signal/micro/kernels/overlap_add.cc, signal/src/overlap_add.cc): each
 * row's frames of frame_size samples are added into a running buffer of
 * frame_size (int16 saturating, float in float), whose first frame_step
 * samples are then written out and shifted away. The buffers are
 * persistent state, zero after model_init as after TFLite Micro's Prepare.
 */
#ifndef TA_SIGNAL_OVERLAP_ADD_H
#define TA_SIGNAL_OVERLAP_ADD_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_SIGNAL_OVERLAP_ADD_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, rows)                                       \
    FIELD(int32_t, frames) /* frames per row */                \
    FIELD(int32_t, frame_size)                                 \
    FIELD(int32_t, frame_step)
typedef struct {
    TA_PARAM_MEMBERS(TA_SIGNAL_OVERLAP_ADD_PARAMS)
} ta_signal_overlap_add_params_t;

/* state: rows * frame_size values. */
int ta_signal_overlap_add_i16(const ta_signal_overlap_add_params_t *p, const int16_t *input,
                              int16_t *state, int16_t *output);
int ta_signal_overlap_add_f32(const ta_signal_overlap_add_params_t *p, const float *input,
                              float *state, float *output);

#endif /* TA_SIGNAL_OVERLAP_ADD_H */
