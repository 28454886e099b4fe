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
 *
 * The compression tool puts a DECODE before each reader of a compressed
 * tensor, so a tensor with several readers is decoded several times, from
 * the same two inputs to outputs of the same shape and quantization: those
 * readers then all read the first such output, so the module holds the
 * values once, as it does for the uncompressed model.
 */
#include "passes.h"
#include "tflm_decode.h"

#include <string.h>

static const char decode_code[] = "TFLM_DECODE";

static bool is_decode(const TaOp *op)
{
    return !op->removed && op->builtin == -1 && op->type && strcmp(op->type, decode_code) == 0;
}

static bool same_quant(const TaQuant *a, const TaQuant *b)
{
    if (!a || !b)
        return a == b;
    return a->axis == b->axis && a->num_scales == b->num_scales &&
           a->num_zero_points == b->num_zero_points &&
           memcmp(a->scale, b->scale, (size_t)a->num_scales * sizeof *a->scale) == 0 &&
           memcmp(a->zero_point, b->zero_point,
                  (size_t)a->num_zero_points * sizeof *a->zero_point) == 0;
}

/* Whether `b`, decoded from the same two inputs, holds what `a` holds. */
static bool same_decoding(const TaOp *a_op, int a_k, const TaOp *b_op, int b_k)
{
    const TaTensor *a = a_op->outputs[a_k], *b = b_op->outputs[b_k];
    return a_op->inputs[2 * a_k] == b_op->inputs[2 * b_k] &&
           a_op->inputs[2 * a_k + 1] == b_op->inputs[2 * b_k + 1] && a->dtype == b->dtype &&
           a->rank == b->rank &&
           memcmp(a->dims, b->dims, sizeof a->dims[0] * (size_t)a->rank) == 0 &&
           same_quant(a->quant, b->quant);
}

/* The readers of `dup` read `kept` instead; `dup` leaves the graph. */
static void read_instead(TaGraph *g, TaTensor *dup, TaTensor *kept)
{
    for (int i = 0; i < g->ops.len; i++) {
        TaOp *op = TA_OP(g, i);
        for (int k = 0; k < op->num_inputs; k++)
            if (op->inputs[k] == dup)
                op->inputs[k] = kept;
        if (op->control_cond == dup)
            op->control_cond = kept;
    }
    dup->removed = true;
}

/* Readers of outputs decoded twice read the first one (not a model output's
   tensor, which keeps its own). */
static void share_repeated_decodings(TaGraph *g, const TaVec *decodes)
{
    for (int i = 0; i < decodes->len; i++) {
        const TaOp *op = decodes->items[i];
        for (int k = 0; k < op->num_outputs; k++) {
            TaTensor *dup = op->outputs[k];
            for (int j = 0; j < i && dup->output_index < 0 && !dup->removed; j++) {
                const TaOp *first = decodes->items[j];
                for (int m = 0; m < first->num_outputs && !dup->removed; m++)
                    if (!first->outputs[m]->removed && same_decoding(first, m, op, k))
                        read_instead(g, dup, first->outputs[m]);
            }
        }
    }
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
    out->role = TA_REGION_CONSTANT;
    out->from_tflm_decode = true;
    return true;
}

bool ta_pass_decode_constants(TaPassCtx *ctx)
{
    TaPool *pool = ctx->pool;
    TaDiag *diag = ctx->diag;
    const char *model_path = ctx->model_path;
    TaGraph *g = ctx->graph;
    int errors = diag->errors;
    TaVec decodes = {0}; /* TaOp*: the DECODE operators removed */
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
        if (ok) {
            op->removed = true;
            ta_vec_push(pool, &decodes, op);
        }
    }
    if (diag->errors == errors)
        share_repeated_decodings(g, &decodes);
    ta_graph_compact(pool, g);
    return diag->errors == errors;
}
