/*
 * ta_signal_framing.h - the Signal library's stream-framing operators,
 * int16, bit-exact with TFLite Micro (signal/micro/kernels/delay.cc,
 * framer.cc, stacker.cc). TFLite Micro keeps each stream in a circular
 * buffer; here each keeps the samples it still owes in a straight state
 * buffer (oldest first) and a count, both in the persistent arena and zero
 * after model_init, which is where TFLite Micro's Prepare starts them:
 *
 * - SignalDelay: every row of frame_size samples comes out delay_length
 *   samples late (zeros first). State: the last delay_length samples of
 *   each row.
 * - SignalFramer: each row of frames * frame_step samples is cut into
 *   frames of frame_size samples every frame_step; with prefill the stream
 *   starts with frame_size - frame_step zeros. A frame not yet complete is
 *   left unwritten and clears the valid flag, as in TFLite Micro. State per
 *   row: up to frame_size + frame_step - 1 samples and how many are held
 *   beyond the prefill.
 * - SignalStacker: each run's num_channels values join a window of
 *   left + 1 + right frames (the first frame repeated left times); a full
 *   window is written (and moves by step frames) or the output is left
 *   unwritten and valid is false.
 */
#ifndef TA_SIGNAL_FRAMING_H
#define TA_SIGNAL_FRAMING_H

#include <stdbool.h>
#include <stdint.h>

#include "../include/ta_params.h"

#define TA_SIGNAL_DELAY_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, rows)                                 \
    FIELD(int32_t, frame_size)                           \
    FIELD(int32_t, delay_length)
typedef struct {
    TA_PARAM_MEMBERS(TA_SIGNAL_DELAY_PARAMS)
} ta_signal_delay_params_t;

#define TA_SIGNAL_FRAMER_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, rows)                                  \
    FIELD(int32_t, frames) /* frames per row and run */   \
    FIELD(int32_t, frame_size)                            \
    FIELD(int32_t, frame_step)                            \
    FIELD(int32_t, capacity) /* state samples per row */  \
    FIELD(int32_t, prefill)  /* leading zeros: 0 or frame_size - frame_step */
typedef struct {
    TA_PARAM_MEMBERS(TA_SIGNAL_FRAMER_PARAMS)
} ta_signal_framer_params_t;

#define TA_SIGNAL_STACKER_PARAMS(FIELD, ARRAY, ARRAY_USED)      \
    FIELD(int32_t, channels)                                    \
    FIELD(int32_t, window)  /* channels * (left + 1 + right) */ \
    FIELD(int32_t, advance) /* channels * step */               \
    FIELD(int32_t, left_context)
typedef struct {
    TA_PARAM_MEMBERS(TA_SIGNAL_STACKER_PARAMS)
} ta_signal_stacker_params_t;

/* state: rows * delay_length samples (at least one). */
int ta_signal_delay_i16(const ta_signal_delay_params_t *p, const int16_t *input, int16_t *state,
                        int16_t *output);
/* state: rows * capacity samples; held: rows counts. */
int ta_signal_framer_i16(const ta_signal_framer_params_t *p, const int16_t *input, int16_t *state,
                         int32_t *held, int16_t *output, bool *valid);
/* state: window samples; held: {samples held, first frame seen}. */
int ta_signal_stacker_i16(const ta_signal_stacker_params_t *p, const int16_t *input, int16_t *state,
                          int32_t *held, int16_t *output, bool *valid);

#endif /* TA_SIGNAL_FRAMING_H */
