/*
 * decode_constants.c - TFLite Micro's TFLM_DECODE operators run at
 * conversion time: each output becomes a constant holding the decoded
 * values (tflm_decode.c), and the operator leaves the graph.
 *
 * TFLite Micro requires every DECODE input to be a constant, so the
 * result is the same on every run; decoding once here gives the bytes its
 * decoders give. The module then holds the decoded constants in flash: the
 * compression's flash saving is not kept. The encoded and ancillary
 * tensors, read by nothing afterwards, leave the module with drop_dead.
 */
#include "passes.h"
#include "tflm_decode.h"

#include <string.h>

static const char decode_code[] = "TFLM_DECODE";

static bool is_decode(const TaOp *op)
{
    return !op->removed && op->builtin == -1 && op->type && strcmp(op->type, decode_code) == 0;
}

/* One output: its encoded and ancillary inputs checked, the values decoded. */
static bool decode_output(TaPool *pool, TaDiag *diag, const char *model_path, TaOp *op, int k)
{
    const char *where = ta_op_describe(pool, op);
    TaTensor *encoded = op->inputs[2 * k], *ancillary = op->inputs[2 * k + 1];
    TaTensor *out = op->outputs[k];
    for (int j = 2 * k; j <= 2 * k + 1; j++) {
        const TaTensor *t = op->inputs[j];
        if (!t || !t->data) {
            ta_error(diag,
                     "%s: %s: input %d (%s %s) is not a constant; TFLite Micro decodes "
                     "constants only",
                     model_path, where, j, j == 2 * k ? "encoded tensor" : "ancillary tensor",
                     t ? t->id : "omitted");
            return false;
        }
    }
    if (out->is_variable) {
        ta_error(diag, "%s: %s: output %d (tensor %s) is a variable", model_path, where, k,
                 out->id);
        return false;
    }
    size_t bytes = ta_tensor_bytes(out);
    uint8_t *dest = ta_alloc(pool, bytes + 1);
    TaDecodeInput in = {.encoded = encoded->data,
                        .encoded_size = encoded->data_size,
                        .ancillary = ancillary->data,
                        .ancillary_size = ancillary->data_size,
                        .output = out};
    const char *why = NULL;
    if (!ta_tflm_decode(pool, &in, dest, &why)) {
        ta_error(diag, "%s: %s: output %d (tensor %s, from inputs %s and %s): %s", model_path,
                 where, k, out->id, encoded->id, ancillary->id, why);
        return false;
    }
    out->data = dest;
    out->data_size = bytes;
    out->kind = TA_REGION_CONSTANT;
    return true;
}

bool ta_pass_decode_constants(TaPool *pool, TaDiag *diag, const char *model_path, TaGraph *g)
{
    int errors = diag->errors;
    for (int i = 0; i < g->ops.len; i++) {
        TaOp *op = TA_OP(g, i);
        if (!is_decode(op))
            continue;
        if (op->num_outputs < 1 || op->num_inputs != 2 * op->num_outputs) {
            ta_error(diag,
                     "%s: %s: has %d inputs and %d outputs; DECODE takes an encoded and an "
                     "ancillary tensor for each of its outputs",
                     model_path, ta_op_describe(pool, op), op->num_inputs, op->num_outputs);
            continue;
        }
        bool ok = true;
        for (int k = 0; k < op->num_outputs && ok; k++)
            ok = decode_output(pool, diag, model_path, op, k);
        if (ok)
            op->removed = true;
    }
    ta_graph_compact(pool, g);
    return diag->errors == errors;
}
