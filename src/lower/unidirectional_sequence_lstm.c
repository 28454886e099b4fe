/*
 * unidirectional_sequence_lstm.c - UNIDIRECTIONAL_SEQUENCE_LSTM in the
 * integer form TFLite's converter writes for int8 models and TFLite Micro
 * runs: int8 input/output/hidden state, int8 per-tensor weights, int32
 * biases, int16 cell state with a power-of-two scale, TANH cell
 * activation; no CIFG, peephole, projection or layer norm. The hidden
 * (18) and cell (19) states are variable tensors that persist between
 * runs. The intermediates are not read (TFLite Micro does not read them).
 * Or everything float32 (lower_float: TFLite Micro's float LstmStep, the
 * cell clip applied in float, constant weights and biases).
 *
 * Produces, for the integer form: the 8 gate fully-connected multipliers
 * (to the fixed gate input scale 2^-12), the 3 elementwise products'
 * multipliers (gate outputs have the fixed scale 2^-15), the quantized
 * cell clip and the cell tanh's input scaling. Both forms gather the
 * weights and biases of the four gates into three local constants (the
 * originals are then dropped).
 */
#include "../../runtime/kernels/ta_lstm.h"
#include "../../runtime/kernels/ta_lstm_f32.h"
#include "lower.h"

#include <math.h>
#include <string.h>

enum {
    OPT_ACTIVATION = 0,
    OPT_CELL_CLIP,
    OPT_PROJ_CLIP,
    OPT_TIME_MAJOR,
    OPT_ASYMMETRIC,
    OPT_DIAGONAL
};

/* Operand numbers (LiteRT's LSTM layout). */
enum {
    IN_INPUT = 0,
    IN_W_INPUT = 1,
    IN_W_RECURRENT = 5,
    IN_PEEPHOLE = 9,
    IN_BIAS = 12,
    IN_PROJECTION = 16,
    IN_HIDDEN = 18,
    IN_CELL = 19,
    IN_LAYER_NORM = 20,
    NUM_INPUTS = 24
};

typedef struct LstmAttrs {
    int activation;
    float cell_clip;
    bool time_major;
} LstmAttrs;

static bool parse(TaLower *L, TaOp *op)
{
    TaFbReader r;
    TaFbTable t = ta_op_options(L, op, &r);
    LstmAttrs *a = ta_alloc(L->pool, sizeof *a);
    a->activation = ta_fb_i8(t, OPT_ACTIVATION, 0);
    a->cell_clip = ta_fb_f32(t, OPT_CELL_CLIP, 0.0f);
    a->time_major = ta_fb_bool(t, OPT_TIME_MAJOR, false);
    if (r.failed)
        return false;
    op->attrs = a;
    return true;
}

static const char *const gate_names[4] = {"input", "forget", "cell", "output"};

/* Constant weights [rows, cols] of weight_type; int8 ones per-tensor and
   symmetric, as TFLite Micro's integer form needs. */
static bool check_weights(TaLower *L, TaOp *op, const TaTensor *w, const char *role,
                          TaDtype weight_type, int32_t rows, int32_t cols)
{
    if (!ta_expect_dtype(L, op, w, role, weight_type, -1) || !ta_expect_constant(L, op, w, role))
        return false;
    if (weight_type == TA_INT8 && !ta_expect_per_tensor(L, op, w, role))
        return false;
    if (w->rank != 2 || w->dims[0] != rows || w->dims[1] != cols) {
        ta_op_error(L, op, "%s (tensor %s) is %s, expected [%d,%d]", role, w->id,
                    ta_shape_text(L->pool, w), (int)rows, (int)cols);
        return false;
    }
    if (weight_type == TA_INT8 && ta_zero_point(w) != 0) {
        ta_op_error(L, op, "%s (tensor %s) must be symmetric (zero point 0)", role, w->id);
        return false;
    }
    return true;
}

/* The four gates' input and recurrent weights and their constant biases
   [n_cell]. */
static bool check_gate_operands(TaLower *L, TaOp *op, TaDtype weight_type, TaDtype bias_type,
                                int32_t n_in, int32_t n_cell)
{
    for (int g = 0; g < 4; g++) {
        TaTensor *bias = op->inputs[IN_BIAS + g];
        const char *bias_role = ta_format(L->pool, "%s gate bias", gate_names[g]);
        if (!check_weights(L, op, op->inputs[IN_W_INPUT + g],
                           ta_format(L->pool, "input to %s weights", gate_names[g]), weight_type,
                           n_cell, n_in) ||
            !check_weights(L, op, op->inputs[IN_W_RECURRENT + g],
                           ta_format(L->pool, "recurrent to %s weights", gate_names[g]),
                           weight_type, n_cell, n_cell) ||
            !ta_expect_dtype(L, op, bias, bias_role, bias_type, -1) ||
            !ta_expect_constant(L, op, bias, bias_role))
            return false;
        if (bias->rank != 1 || bias->dims[0] != n_cell) {
            ta_op_error(L, op, "%s (tensor %s) is %s, expected [%d]", bias_role, bias->id,
                        ta_shape_text(L->pool, bias), (int)n_cell);
            return false;
        }
    }
    return true;
}

/* The four gates' operands starting at input `first`, gate after gate, in
   one array (the kernels take one pointer per kind). */
static uint8_t *gather_gates(TaLower *L, TaOp *op, int first, size_t bytes_per_gate)
{
    uint8_t *all = ta_alloc(L->pool, 4 * bytes_per_gate);
    for (int g = 0; g < 4; g++)
        memcpy(all + (size_t)g * bytes_per_gate, op->inputs[first + g]->data, bytes_per_gate);
    return all;
}

/* in_scale * weight_scale / 2^-12 in double, as TFLite Micro's gate
   fully-connected Prepare. */
static bool gate_multiplier(TaLower *L, TaOp *op, const TaTensor *in, const TaTensor *w, int64_t *m,
                            int64_t *s)
{
    const double gate_input_scale = 1.0 / 4096.0;
    int32_t mult;
    int shift;
    if (!ta_requant(L, op, "gate input",
                    (double)ta_scale(in) * (double)ta_scale(w) / gate_input_scale,
                    TA_SHIFT_MAX_INT32, &mult, &shift))
        return false;
    *m = mult;
    *s = shift;
    return true;
}

static bool product_multiplier(TaLower *L, TaOp *op, double a, double b, double out, int32_t *m,
                               int32_t *s)
{
    int shift;
    if (!ta_requant(L, op, "gate product", a * b / out, TA_SHIFT_MAX_INT32, m, &shift))
        return false;
    *s = shift;
    return true;
}

/* What both forms require: 24 inputs of which exactly the plain LSTM's are
   present, a TANH cell activation, variable states of rank 2 and the shapes
   TFLite Micro's ValidateTensorSize checks (the weights' per form). */
static bool check_structure(TaLower *L, TaOp *op)
{
    const LstmAttrs *a = op->attrs;
    if (op->num_inputs != NUM_INPUTS || op->num_outputs != 1) {
        ta_op_error(L, op, "has %d inputs and %d outputs, expected 24 and 1", op->num_inputs,
                    op->num_outputs);
        return false;
    }
    for (int i = 0; i < NUM_INPUTS; i++) {
        const bool variant_part = (i >= IN_PEEPHOLE && i < IN_BIAS) ||
                                  (i >= IN_PROJECTION && i < IN_HIDDEN) || i >= IN_LAYER_NORM;
        if (variant_part && op->inputs[i]) {
            ta_op_error(L, op,
                        "input %d is present: peephole, projection and layer norm LSTMs "
                        "are not supported (nor by TFLite Micro)",
                        i);
            return false;
        }
        if (!variant_part && !op->inputs[i]) {
            ta_op_error(L, op,
                        "input %d is missing: CIFG LSTMs are not supported (nor by "
                        "TFLite Micro)",
                        i);
            return false;
        }
    }
    if (a->activation != TA_ACT_TANH) {
        ta_op_error(L, op, "cell activation %s is not supported; TANH is",
                    ta_activation_name(a->activation));
        return false;
    }
    TaTensor *in = op->inputs[IN_INPUT], *hidden = op->inputs[IN_HIDDEN];
    TaTensor *cell = op->inputs[IN_CELL], *out = op->outputs[0];
    if (!hidden->is_variable || !cell->is_variable) {
        ta_op_error(L, op, "the hidden and cell states must be variable tensors");
        return false;
    }
    if (in->rank != 3 || hidden->rank != 2 || out->rank != 3) {
        ta_op_error(L, op, "input and output need rank 3 and the hidden state rank 2");
        return false;
    }
    const int32_t batches = a->time_major ? in->dims[1] : in->dims[0];
    const int32_t n_in = in->dims[2], n_cell = hidden->dims[1];
    const size_t state_elems = (size_t)batches * (size_t)n_cell;
    if (n_in < 1 || n_cell < 1 || ta_tensor_elements(hidden) != state_elems ||
        ta_tensor_elements(cell) != state_elems || out->dims[0] != in->dims[0] ||
        out->dims[1] != in->dims[1] || out->dims[2] != n_cell) {
        ta_op_error(L, op,
                    "shapes do not fit: input %s, hidden state %s, cell state %s, "
                    "output %s",
                    ta_shape_text(L->pool, in), ta_shape_text(L->pool, hidden),
                    ta_shape_text(L->pool, cell), ta_shape_text(L->pool, out));
        return false;
    }
    return true;
}

static bool lower_integer(TaLower *L, TaOp *op)
{
    const LstmAttrs *a = op->attrs;
    TaTensor *in = op->inputs[IN_INPUT], *hidden = op->inputs[IN_HIDDEN];
    TaTensor *cell = op->inputs[IN_CELL], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in, "input", TA_INT8, TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, hidden, "hidden state", TA_INT8, -1) ||
        !ta_expect_dtype(L, op, cell, "cell state", TA_INT16, -1) ||
        !ta_expect_dtype(L, op, out, "output", TA_INT8, -1) ||
        !ta_expect_per_tensor(L, op, in, "input") ||
        !ta_expect_per_tensor(L, op, hidden, "hidden state") ||
        !ta_expect_per_tensor(L, op, cell, "cell state"))
        return false;
    const int32_t batches = a->time_major ? in->dims[1] : in->dims[0];
    const int32_t steps = a->time_major ? in->dims[0] : in->dims[1];
    const int32_t n_in = in->dims[2], n_cell = hidden->dims[1];
    if (!check_gate_operands(L, op, TA_INT8, TA_INT32, n_in, n_cell))
        return false;

    /* The cell scale must be 2^power: TFLite Micro's integer tanh of the
       cell only shifts. Rounded in float, as its CheckedLog2. */
    const float cell_scale = ta_scale(cell);
    const float log2_scale = logf(cell_scale) * (1.0f / logf(2.0f));
    const float power_f = roundf(log2_scale);
    const int power = (int)power_f;
    if (!(fabsf(log2_scale - power_f) < 1e-3f) || power < -43 || power > 1) {
        ta_op_error(L, op, "cell state scale %g is not a power of two in [2^-43, 2]",
                    (double)cell_scale);
        return false;
    }
    /* The tanh table's input is Q3.12 scaled by 3: from Q(15+power) that
       is a shift by 12 + power. */
    const int tanh_shift = 15 + power - 3;
    const int64_t cell_tanh_multiplier = tanh_shift >= 0 ? (int64_t)3 << tanh_shift : 3;
    const int64_t cell_tanh_shift = tanh_shift >= 0 ? 0 : -tanh_shift;
    /* Truncated toward zero after clamping, as TFLite Micro does. */
    double clip = (double)a->cell_clip / (double)cell_scale;
    clip = clip < -32768.0 ? -32768.0 : (clip > 32767.0 ? 32767.0 : clip);
    const int16_t quantized_clip = (int16_t)clip;

    int64_t in_m[4], in_s[4], rec_m[4], rec_s[4];
    for (int g = 0; g < 4; g++)
        if (!gate_multiplier(L, op, in, op->inputs[IN_W_INPUT + g], &in_m[g], &in_s[g]) ||
            !gate_multiplier(L, op, hidden, op->inputs[IN_W_RECURRENT + g], &rec_m[g], &rec_s[g]))
            return false;
    /* Gate outputs are Q0.15 (scale 2^-15); products in double, as
       TFLite Micro's CreateInterGateMulParams. */
    const double gate_out = 1.0 / 32768.0;
    int32_t forget_m, forget_s, input_m, input_s, hidden_m, hidden_s;
    if (!product_multiplier(L, op, gate_out, (double)cell_scale, (double)cell_scale, &forget_m,
                            &forget_s) ||
        !product_multiplier(L, op, gate_out, gate_out, (double)cell_scale, &input_m, &input_s) ||
        !product_multiplier(L, op, gate_out, gate_out, (double)ta_scale(hidden), &hidden_m,
                            &hidden_s))
        return false;

    /* The four gates' weights and biases, gate after gate. */
    const size_t in_w = (size_t)n_cell * (size_t)n_in, rec_w = (size_t)n_cell * (size_t)n_cell;
    uint8_t *w_in = gather_gates(L, op, IN_W_INPUT, in_w);
    uint8_t *w_rec = gather_gates(L, op, IN_W_RECURRENT, rec_w);
    uint8_t *biases = gather_gates(L, op, IN_BIAS, (size_t)n_cell * 4);
    TaTensor *t_in = ta_local_constant(L, op, "input_weights", TA_INT8, (int32_t)(4 * in_w), w_in);
    TaTensor *t_rec = ta_local_constant(L, op, "recurrent_weights", TA_INT8, (int32_t)(4 * rec_w),
                                        w_rec);
    /* The zero points folded into per-row biases, as TFLite Micro's
       Prepare does (int32, wrapping): the kernel's inner loops are then
       plain dot products. */
    const int64_t in_zp = ta_zero_point(in), hidden_zp = ta_zero_point(hidden);
    int32_t *in_bias = ta_alloc_array(L->pool, 4 * (size_t)n_cell, sizeof(int32_t));
    int32_t *rec_bias = ta_alloc_array(L->pool, 4 * (size_t)n_cell, sizeof(int32_t));
    for (size_t row = 0; row < 4 * (size_t)n_cell; row++) {
        int64_t in_sum = 0, rec_sum = 0;
        for (size_t k = 0; k < (size_t)n_in; k++)
            in_sum += (int8_t)w_in[row * (size_t)n_in + k];
        for (size_t k = 0; k < (size_t)n_cell; k++)
            rec_sum += (int8_t)w_rec[row * (size_t)n_cell + k];
        int32_t b;
        memcpy(&b, biases + row * 4, 4);
        in_bias[row] = (int32_t)(uint32_t)(uint64_t)((int64_t)b - in_zp * in_sum);
        rec_bias[row] = (int32_t)(uint32_t)(uint64_t)(-hidden_zp * rec_sum);
    }
    TaTensor *t_bias = ta_local_constant(L, op, "input_biases", TA_INT32, 4 * n_cell, in_bias);
    TaTensor *t_rec_bias = ta_local_constant(L, op, "recurrent_biases", TA_INT32, 4 * n_cell,
                                             rec_bias);
    const int32_t rows = a->time_major ? batches : 1;
    TaTensor *scratch = ta_local_scratch(L, op, "gates", 4 * rows * n_cell * 2);
    scratch->dtype = TA_INT16; /* the kernel's view of the bytes */
    scratch->dims[0] = 4 * rows * n_cell;

    TaKernelCall *c = ta_call(L, op, "ta_lstm_s8", "runtime/kernels/ta_lstm.h");
    ta_lstm_params_t *p = TA_CALL_PARAMS(L, c, ta_lstm_params_t);
    p->batches = batches;
    p->time_steps = steps;
    p->input_size = n_in;
    p->state_size = n_cell;
    p->time_major = a->time_major;
    p->input_zero_point = ta_zero_point(in);
    p->hidden_zero_point = ta_zero_point(hidden);
    for (int g = 0; g < 4; g++) {
        p->input_multiplier[g] = in_m[g];
        p->input_shift[g] = in_s[g];
        p->recurrent_multiplier[g] = rec_m[g];
        p->recurrent_shift[g] = rec_s[g];
    }
    p->forget_multiplier = forget_m;
    p->forget_shift = forget_s;
    p->input_cell_multiplier = input_m;
    p->input_cell_shift = input_s;
    p->hidden_multiplier = hidden_m;
    p->hidden_shift = hidden_s;
    p->use_cell_clip = a->cell_clip > 0.0f;
    p->cell_clip = quantized_clip;
    p->cell_tanh_multiplier = cell_tanh_multiplier;
    p->cell_tanh_shift = cell_tanh_shift;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, t_in);
    ta_call_arg(L, c, t_rec);
    ta_call_arg(L, c, t_bias);
    ta_call_arg(L, c, t_rec_bias);
    ta_call_arg(L, c, hidden);
    ta_call_arg(L, c, cell);
    ta_call_arg(L, c, scratch);
    ta_call_arg(L, c, out);

    ta_init_variable_tensor(L, op, hidden);
    ta_init_variable_tensor(L, op, cell);
    return true;
}

/* The float32 form: TFLite Micro's float LstmStep (ta_lstm_f32.h); the
   weights and biases constant (gathered per kind), the states reset to 0. */
static bool lower_float(TaLower *L, TaOp *op)
{
    const LstmAttrs *a = op->attrs;
    TaTensor *in = op->inputs[IN_INPUT], *hidden = op->inputs[IN_HIDDEN];
    TaTensor *cell = op->inputs[IN_CELL], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, hidden, "hidden state", TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, cell, "cell state", TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, out, "output", TA_FLOAT32, -1))
        return false;
    const int32_t batches = a->time_major ? in->dims[1] : in->dims[0];
    const int32_t steps = a->time_major ? in->dims[0] : in->dims[1];
    const int32_t n_in = in->dims[2], n_cell = hidden->dims[1];
    if (!check_gate_operands(L, op, TA_FLOAT32, TA_FLOAT32, n_in, n_cell))
        return false;
    const size_t in_w = (size_t)n_cell * (size_t)n_in, rec_w = (size_t)n_cell * (size_t)n_cell;
    TaTensor *t_in = ta_local_constant(L, op, "input_weights", TA_FLOAT32, (int32_t)(4 * in_w),
                                       gather_gates(L, op, IN_W_INPUT, in_w * 4));
    TaTensor *t_rec = ta_local_constant(L, op, "recurrent_weights", TA_FLOAT32,
                                        (int32_t)(4 * rec_w),
                                        gather_gates(L, op, IN_W_RECURRENT, rec_w * 4));
    TaTensor *t_bias = ta_local_constant(L, op, "biases", TA_FLOAT32, 4 * n_cell,
                                         gather_gates(L, op, IN_BIAS, (size_t)n_cell * 4));
    const int32_t rows = a->time_major ? batches : 1;
    TaTensor *scratch = ta_local_scratch(L, op, "gates", 4 * rows * n_cell * 4);
    scratch->dtype = TA_FLOAT32; /* the kernel's view of the bytes */
    scratch->dims[0] = 4 * rows * n_cell;

    TaKernelCall *c = ta_call(L, op, "ta_lstm_f32", "runtime/kernels/ta_lstm_f32.h");
    ta_lstm_f32_params_t *p = TA_CALL_PARAMS(L, c, ta_lstm_f32_params_t);
    p->batches = batches;
    p->time_steps = steps;
    p->input_size = n_in;
    p->state_size = n_cell;
    p->time_major = a->time_major;
    p->cell_clip = a->cell_clip;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, t_in);
    ta_call_arg(L, c, t_rec);
    ta_call_arg(L, c, t_bias);
    ta_call_arg(L, c, hidden);
    ta_call_arg(L, c, cell);
    ta_call_arg(L, c, scratch);
    ta_call_arg(L, c, out);

    ta_init_variable_tensor(L, op, hidden);
    ta_init_variable_tensor(L, op, cell);
    return true;
}

/* For analyze: every step multiplies each gate's input and recurrent
   weights (and a projection's) once per batch row. */
static void count_macs(TaOp *op)
{
    const TaTensor *in = op->inputs[IN_INPUT];
    const int32_t rows = in->dims[0] * in->dims[1]; /* time steps x batches */
    int64_t weights = 0;
    for (int k = IN_W_INPUT; k < IN_W_RECURRENT + 4 && k < op->num_inputs; k++)
        if (op->inputs[k])
            weights += (int64_t)ta_tensor_elements(op->inputs[k]);
    if (op->num_inputs > IN_PROJECTION && op->inputs[IN_PROJECTION])
        weights += (int64_t)ta_tensor_elements(op->inputs[IN_PROJECTION]);
    op->lowered.has_analysis_macs = true;
    op->lowered.analysis_macs = weights * rows;
}

static bool lower(TaLower *L, TaOp *op)
{
    if (!check_structure(L, op))
        return false;
    bool ok = op->inputs[IN_INPUT]->dtype == TA_FLOAT32 ? lower_float(L, op) : lower_integer(L, op);
    if (ok)
        count_macs(op);
    return ok;
}

const TaOpDef ta_op_unidirectional_sequence_lstm = {parse, lower};
