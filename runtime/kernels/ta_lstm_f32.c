/* ta_lstm_f32.c - float32 UNIDIRECTIONAL_SEQUENCE_LSTM; see the header. */
#include "ta_lstm_f32.h"

#include <float.h>
#include <math.h>
#include <stddef.h>

#include "../include/ta_float.h"
#include "../include/ta_status.h"

enum { GATE_INPUT = 0, GATE_FORGET, GATE_CELL, GATE_OUTPUT, GATES };

/* The no-activation clamp of TFLite Micro's float fully-connected and Mul. */
static float unclamped(float x)
{
    return ta_activation_f32(x, -FLT_MAX, FLT_MAX);
}

static float dot(const float *a, const float *b, size_t n)
{
    float total = 0.0f;
    for (size_t k = 0; k < n; k++)
        total += a[k] * b[k];
    return total;
}

/* One step over `rows` rows: every gate from the old hidden state into
   scratch, then the cell and hidden updates, then the output rows. */
static void step(const ta_lstm_f32_params_t *p, size_t rows, const float *input,
                 const float *input_weights, const float *recurrent_weights, const float *biases,
                 float *hidden, float *cell, float *gates, float *output)
{
    const size_t n_in = (size_t)p->input_size, n_cell = (size_t)p->state_size;
    const size_t n = rows * n_cell;
    for (size_t g = 0; g < GATES; g++) {
        for (size_t r = 0; r < rows; r++) {
            for (size_t c = 0; c < n_cell; c++) {
                const size_t w_row = g * n_cell + c;
                const float from_input = unclamped(
                    dot(&input[r * n_in], &input_weights[w_row * n_in], n_in) + biases[w_row]);
                const float from_hidden = unclamped(
                    dot(&hidden[r * n_cell], &recurrent_weights[w_row * n_cell], n_cell) + 0.0f);
                const float pre = from_input + from_hidden;
                gates[g * n + r * n_cell + c] = g == GATE_CELL ? tanhf(pre) : ta_sigmoid_f32(pre);
            }
        }
    }
    const float *input_gate = &gates[GATE_INPUT * n], *forget_gate = &gates[GATE_FORGET * n];
    const float *cell_gate = &gates[GATE_CELL * n], *output_gate = &gates[GATE_OUTPUT * n];
    const float clip = p->cell_clip;
    for (size_t i = 0; i < n; i++) {
        float c = unclamped(forget_gate[i] * cell[i]) + unclamped(input_gate[i] * cell_gate[i]);
        if (clip > 0.0f) {
            c = c < clip ? c : clip;   /* std::min(clip, c) */
            c = c < -clip ? -clip : c; /* std::max(c, -clip) */
        }
        cell[i] = c;
        hidden[i] = unclamped(tanhf(c) * output_gate[i]);
        output[i] = hidden[i];
    }
}

int ta_lstm_f32(const ta_lstm_f32_params_t *p, const float *input, const float *input_weights,
                const float *recurrent_weights, const float *biases, float *hidden_state,
                float *cell_state, float *scratch, float *output)
{
    const size_t batches = (size_t)p->batches, steps = (size_t)p->time_steps;
    const size_t n_in = (size_t)p->input_size, n_cell = (size_t)p->state_size;
    if (p->time_major) {
        for (size_t t = 0; t < steps; t++)
            step(p, batches, &input[t * batches * n_in], input_weights, recurrent_weights, biases,
                 hidden_state, cell_state, scratch, &output[t * batches * n_cell]);
        return TA_OK;
    }
    for (size_t b = 0; b < batches; b++) {
        for (size_t t = 0; t < steps; t++) {
            const size_t row = b * steps + t;
            step(p, 1, &input[row * n_in], input_weights, recurrent_weights, biases,
                 &hidden_state[b * n_cell], &cell_state[b * n_cell], scratch,
                 &output[row * n_cell]);
        }
    }
    return TA_OK;
}
