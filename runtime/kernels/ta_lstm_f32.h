/*
 * ta_lstm_f32.h - float32 UNIDIRECTIONAL_SEQUENCE_LSTM as TFLite Micro's
 * float LstmStep runs it (no CIFG, peephole, projection or layer norm:
 * TFLite Micro supports none). Per time step and state element, for each
 * gate g of (input, forget, cell, output):
 *   in_g  = clamp(sum_k input[k] * w_input[g][c][k] (from 0.0f, k in
 *           order) + bias[g][c]),
 *   rec_g = clamp(sum_k hidden[k] * w_recurrent[g][c][k] (from 0.0f) + 0.0f)
 *           (the recurrent fully-connected has no bias, and adds 0.0f),
 *   gate_g = sigmoid(in_g + rec_g) (tanhf for the cell gate), the
 *           sigmoid as reference_ops::Logistic (ta_sigmoid_f32);
 *   cell = clamp(forget * cell) + clamp(input * cell gate), then, when
 *          cell_clip > 0, min(cell_clip, .) and max(., -cell_clip) with
 *          std::min/std::max's comparisons;
 *   hidden = clamp(tanhf(cell) * output gate), also the step's output row.
 * Every clamp is the no-activation one (-FLT_MAX..FLT_MAX, ta_float.h):
 * TFLite Micro's float fully-connected and Mul apply it. All gates read
 * the hidden state of the previous step. Batch-major inputs run each
 * batch's sequence in turn; time-major ones all batches each step. The
 * hidden and cell states persist between runs.
 */
#ifndef TA_LSTM_F32_H
#define TA_LSTM_F32_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_LSTM_F32_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, batches)                          \
    FIELD(int32_t, time_steps)                       \
    FIELD(int32_t, input_size)                       \
    FIELD(int32_t, state_size)                       \
    FIELD(int32_t, time_major)                       \
    FIELD(float, cell_clip) /* the option; clips only when > 0 */
typedef struct {
    TA_PARAM_MEMBERS(TA_LSTM_F32_PARAMS)
} ta_lstm_f32_params_t;

/* input_weights [4][state][input], recurrent_weights [4][state][state],
   biases [4][state], gates in the order input, forget, cell, output.
   scratch holds 4 * rows * state_size floats (rows: batches when
   time-major, else 1). */
int ta_lstm_f32(const ta_lstm_f32_params_t *p, const float *input, const float *input_weights,
                const float *recurrent_weights, const float *biases, float *hidden_state,
                float *cell_state, float *scratch, float *output);

#endif /* TA_LSTM_F32_H */
