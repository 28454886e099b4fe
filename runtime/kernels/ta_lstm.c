/* ta_lstm.c - integer LSTM kernel; see the header. */
#include "ta_lstm.h"

#include "../include/ta_matmul_simd.h"
#include "../include/ta_quant.h"
#include "../include/ta_status.h"

#include <stddef.h>
#include <string.h>

enum { GATE_INPUT = 0, GATE_FORGET = 1, GATE_CELL = 2, GATE_OUTPUT = 3 };

/* TFLite's int16 sigmoid table: 65536 * sigmoid(i / 24), i = 0..255, as
   TFLite rounds it (the last entry saturates at 65535). The same numbers
   must be used for bit-exact results. */
static const uint16_t sigmoid_table[256] = {
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149,
    40794, 41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369,
    47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409, 51865, 52311, 52745, 53169,
    53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433,
    57724, 58007, 58280, 58544, 58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370,
    60565, 60753, 60935, 61110, 61279, 61441, 61599, 61750, 61896, 62036, 62172, 62302,
    62428, 62549, 62666, 62778, 62886, 62990, 63090, 63186, 63279, 63368, 63454, 63536,
    63615, 63691, 63765, 63835, 63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308,
    64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786,
    64816, 64845, 64873, 64900, 64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079,
    65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234, 65246, 65258,
    65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360, 65367,
    65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433,
    65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474,
    65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491, 65493, 65495, 65497, 65498,
    65500, 65501, 65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513,
    65514, 65515, 65516, 65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522,
    65523, 65523, 65524, 65524, 65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528,
    65528, 65528, 65529, 65529, 65529, 65529, 65530, 65530, 65530, 65530, 65531, 65531,
    65531, 65531, 65531, 65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533,
    65533, 65533, 65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534,
    65534, 65534, 65534, 65535,
};

static int32_t sat16(int32_t x)
{
    return ta_clamp_i32(x, INT16_MIN, INT16_MAX);
}

/* Q3.12 -> Q0.15 sigmoid by table interpolation, as TFLite's int16
   Logistic with its default input scaling (x * 3). */
static int16_t sigmoid_q3_12(int16_t x)
{
    const int32_t in = (int32_t)x * 3;
    const uint32_t a = (uint32_t)(in < 0 ? -in : in);
    const uint32_t i = a >> 9;
    uint32_t r;
    if (i >= 255) {
        r = 0x7FFFu << 10;
    } else {
        const uint32_t lo = sigmoid_table[i], hi = sigmoid_table[i + 1];
        r = (lo << 9) + (a & 0x1FFu) * (hi - lo);
    }
    r = in >= 0 ? r + (1u << 9) : (1u << 25) - r + (1u << 9) - 1u;
    return (int16_t)(r >> 10);
}

/* tanh into Q0.15 by the same table (tanh(x) = 2 sigmoid(2x) - 1), as
   TFLite's int16 Tanh: the input is first scaled by
   (x * multiplier + rounding) >> shift. */
static int16_t tanh_q15(int16_t x, int32_t multiplier, int32_t shift)
{
    const int32_t round = shift > 0 ? (int32_t)1 << (shift - 1) : 0;
    const int32_t in = ((int32_t)x * multiplier + round) >> shift;
    const uint32_t a = (uint32_t)(in < 0 ? -in : in);
    const uint32_t i = a >> 8;
    int32_t r;
    if (i >= 255) {
        r = 0xFFFF << 8;
    } else {
        const uint32_t lo = sigmoid_table[i], hi = sigmoid_table[i + 1];
        r = (int32_t)((lo << 8) + (a & 0xFFu) * (hi - lo));
    }
    r = in >= 0 ? r - (1 << 23) + (1 << 7) : -r + (1 << 23) + (1 << 7) - 1;
    return (int16_t)(r >> 8);
}

/* sat16 of one gate product's requantization (to Q3.12). */
static int32_t to_q3_12(int32_t acc, int32_t multiplier, int32_t shift)
{
    return sat16(ta_mm_mul_q(acc, multiplier, shift));
}

/* One time step over `rows` rows: x [rows][input_size], h and c
   [rows][state_size], y the output rows. The gate pre-activations of all
   four gates are rows of the stacked weights, four rows at a time. */
static void step(const ta_lstm_params_t *p, const int8_t *x, const int8_t *input_weights,
                 const int8_t *recurrent_weights, const int32_t *input_biases,
                 const int32_t *recurrent_biases, int8_t *h, int16_t *c, int16_t *gates,
                 int8_t *y, int32_t rows)
{
    const int32_t n_in = p->input_size, n = p->state_size, all = 4 * n;
    const size_t per_gate = (size_t)rows * (size_t)n;
    /* Every gate reads the hidden state of the previous step. */
    for (int32_t b = 0; b < rows; b++) {
        const int8_t *xb = x + (size_t)b * (size_t)n_in;
        const int8_t *hb = h + (size_t)b * (size_t)n;
        for (int32_t r0 = 0; r0 < all; r0 += 4) {
            int32_t from_input[4], from_hidden[4];
            const int32_t count = all - r0 < 4 ? all - r0 : 4;
            if (count == 4) {
                memcpy(from_input, input_biases + r0, sizeof from_input);
                memcpy(from_hidden, recurrent_biases + r0, sizeof from_hidden);
                ta_mm_dot4_s8(from_input, input_weights + (size_t)r0 * (size_t)n_in, n_in, xb,
                              n_in);
                ta_mm_dot4_s8(from_hidden, recurrent_weights + (size_t)r0 * (size_t)n, n, hb, n);
            } else {
                for (int32_t k = 0; k < count; k++) {
                    const size_t row = (size_t)(r0 + k);
                    from_input[k] = ta_mm_dot1_s8(input_biases[row],
                                                  input_weights + row * (size_t)n_in, xb, n_in);
                    from_hidden[k] = ta_mm_dot1_s8(recurrent_biases[row],
                                                   recurrent_weights + row * (size_t)n, hb, n);
                }
            }
            for (int32_t k = 0; k < count; k++) {
                const int32_t g = (r0 + k) / n, s = r0 + k - g * n;
                const int16_t pre = (int16_t)sat16(
                    to_q3_12(from_input[k], p->input_multiplier[g], p->input_shift[g]) +
                    to_q3_12(from_hidden[k], p->recurrent_multiplier[g], p->recurrent_shift[g]));
                gates[(size_t)g * per_gate + (size_t)b * (size_t)n + (size_t)s] =
                    g == GATE_CELL ? tanh_q15(pre, 3, 0) : sigmoid_q3_12(pre);
            }
        }
    }
    const int16_t *in_gate = gates + GATE_INPUT * per_gate;
    const int16_t *forget = gates + GATE_FORGET * per_gate;
    const int16_t *cell_gate = gates + GATE_CELL * per_gate;
    const int16_t *out_gate = gates + GATE_OUTPUT * per_gate;
    for (size_t k = 0; k < per_gate; k++) {
        const int32_t kept = sat16(ta_mm_mul_q((int32_t)forget[k] * (int32_t)c[k],
                                               p->forget_multiplier, p->forget_shift));
        const int32_t added = sat16(ta_mm_mul_q((int32_t)in_gate[k] * (int32_t)cell_gate[k],
                                                p->input_cell_multiplier, p->input_cell_shift));
        int32_t cell = sat16(kept + added);
        if (p->use_cell_clip)
            cell = ta_clamp_i32(cell, -p->cell_clip, p->cell_clip);
        c[k] = (int16_t)cell;
        const int16_t t = tanh_q15(c[k], p->cell_tanh_multiplier, p->cell_tanh_shift);
        const int32_t hv = ta_mm_mul_q((int32_t)t * (int32_t)out_gate[k], p->hidden_multiplier,
                                       p->hidden_shift) +
                           p->hidden_zero_point;
        h[k] = (int8_t)ta_clamp_i32(hv, INT8_MIN, INT8_MAX);
    }
    memcpy(y, h, per_gate);
}

int ta_lstm_s8(const ta_lstm_params_t *p, const int8_t *input, const int8_t *input_weights,
               const int8_t *recurrent_weights, const int32_t *input_biases,
               const int32_t *recurrent_biases, int8_t *hidden_state, int16_t *cell_state,
               int16_t *scratch, int8_t *output)
{
    const size_t n_in = (size_t)p->input_size, n = (size_t)p->state_size;
    if (p->time_major) {
        const size_t rows = (size_t)p->batches;
        for (int32_t t = 0; t < p->time_steps; t++)
            step(p, input + (size_t)t * rows * n_in, input_weights, recurrent_weights, input_biases,
                 recurrent_biases,
                 hidden_state, cell_state, scratch, output + (size_t)t * rows * n,
                 p->batches);
        return TA_OK;
    }
    for (int32_t b = 0; b < p->batches; b++) {
        for (int32_t t = 0; t < p->time_steps; t++) {
            const size_t at = (size_t)b * (size_t)p->time_steps + (size_t)t;
            step(p, input + at * n_in, input_weights, recurrent_weights, input_biases,
                 recurrent_biases,
                 hidden_state + (size_t)b * n, cell_state + (size_t)b * n, scratch,
                 output + at * n, 1);
        }
    }
    return TA_OK;
}
