/*
 * ta_lstm.h - UNIDIRECTIONAL_SEQUENCE_LSTM, integer: int8 input, output and
 * hidden state, int8 weights, int32 biases, int16 cell state. No CIFG,
 * peephole, projection or layer norm (TFLite Micro supports none).
 *
 * Per time step, as TFLite Micro's integer LSTM, for each gate g of
 * (input, forget, cell, output):
 *   pre_g = sat16(fc(input) + fc(hidden)), each fc requantized to Q3.12
 *           and clamped to int16 on its own;
 *   gate_g = sigmoid(pre_g) in Q0.15 (tanh for the cell gate);
 *   cell = sat16(requant(forget * cell) + requant(input * cell gate)),
 *          then clipped to +-cell_clip when the model asks;
 *   hidden = clamp8(requant(tanh(cell) * output) + hidden_zero_point),
 *   and the step's output row is the new hidden state.
 * Batch-major inputs run each batch's sequence in turn (one row per step);
 * time-major inputs run all batches together each step. The hidden and
 * cell states persist between runs.
 */
#ifndef TA_LSTM_H
#define TA_LSTM_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_LSTM_PARAMS(FIELD, ARRAY, ARRAY_USED)                                                    \
    FIELD(int32_t, batches)                                                                         \
    FIELD(int32_t, time_steps)                                                                      \
    FIELD(int32_t, input_size)                                                                      \
    FIELD(int32_t, state_size)                                                                      \
    FIELD(int32_t, time_major)                                                                      \
    FIELD(int32_t, input_zero_point)                                                                \
    FIELD(int32_t, hidden_zero_point)                                                               \
    /* Per gate (input, forget, cell, output): fc(input) and fc(hidden) to                        \
       the gate pre-activation scale 2^-12. */ \
    ARRAY(int32_t, input_multiplier, 4)                                                             \
    ARRAY(int32_t, input_shift, 4)                                                                  \
    ARRAY(int32_t, recurrent_multiplier, 4)                                                         \
    ARRAY(int32_t, recurrent_shift, 4)                                                              \
    FIELD(int32_t, forget_multiplier) /* forget gate (2^-15) x cell -> cell */                      \
    FIELD(int32_t, forget_shift)                                                                    \
    FIELD(int32_t, input_cell_multiplier) /* input gate x cell gate (2^-15 each) -> cell */         \
    FIELD(int32_t, input_cell_shift)                                                                \
    FIELD(int32_t, hidden_multiplier) /* tanh(cell) x output gate (2^-15 each) -> hidden */         \
    FIELD(int32_t, hidden_shift)                                                                    \
    FIELD(int32_t, use_cell_clip)                                                                   \
    FIELD(int32_t, cell_clip)            /* quantized, applied as [-cell_clip, cell_clip] */        \
    FIELD(int32_t, cell_tanh_multiplier) /* cell state -> the tanh table's input */                 \
    FIELD(int32_t, cell_tanh_shift)
typedef struct {
    TA_PARAM_MEMBERS(TA_LSTM_PARAMS)
} ta_lstm_params_t;

/* input_weights [4][state][input], recurrent_weights [4][state][state],
   gates in the order input, forget, cell, output. The zero points are
   folded into per-row biases by the converter, as TFLite Micro's Prepare
   does: input_biases [4][state] = bias - input_zero_point * row sums of
   input_weights, recurrent_biases [4][state] = -hidden_zero_point * row
   sums of recurrent_weights (int32, wrapping).
   scratch holds 4 * rows * state_size int16 (rows: batches when
   time-major, else 1). */
int ta_lstm_s8(const ta_lstm_params_t *p, const int8_t *input, const int8_t *input_weights,
               const int8_t *recurrent_weights, const int32_t *input_biases,
               const int32_t *recurrent_biases, int8_t *hidden_state, int16_t *cell_state,
               int16_t *scratch, int8_t *output);

#endif /* TA_LSTM_H */
