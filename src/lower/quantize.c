/*
 * quantize.c - QUANTIZE: float32 -> int8/int16, or requantization between
 * the integer pairs TFLite Micro runs (the table below).
 *
 * float32 -> int32 is refused: TFLite Micro's Prepare accepts the pair but
 * its Eval has no kernel for it (nor has LiteRT's), so there is nothing to
 * match.
 */
#include "../../runtime/kernels/ta_quantize.h"
#include "lower.h"

typedef struct {
    TaDtype input, output;
    const char *kernel;
} QuantizePair;

/* Every (input, output) pair TFLite Micro's QUANTIZE accepts. */
static const QuantizePair pairs[] = {
    {TA_FLOAT32, TA_INT8, "ta_quantize_f32_s8"},   {TA_FLOAT32, TA_INT16, "ta_quantize_f32_s16"},
    {TA_INT8, TA_INT8, "ta_requantize_s8_s8"},     {TA_INT8, TA_UINT8, "ta_requantize_s8_u8"},
    {TA_INT8, TA_INT16, "ta_requantize_s8_s16"},   {TA_INT8, TA_INT32, "ta_requantize_s8_s32"},
    {TA_UINT8, TA_INT8, "ta_requantize_u8_s8"},    {TA_INT16, TA_INT8, "ta_requantize_s16_s8"},
    {TA_INT16, TA_INT16, "ta_requantize_s16_s16"}, {TA_INT16, TA_INT32, "ta_requantize_s16_s32"},
    {TA_INT32, TA_INT8, "ta_requantize_s32_s8"},   {TA_INT32, TA_INT16, "ta_requantize_s32_s16"},
};

static const char *kernel_for(TaDtype input, TaDtype output)
{
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        if (pairs[i].input == input && pairs[i].output == output)
            return pairs[i].kernel;
    return NULL;
}

/* "float32 to int8, float32 to int16, ..." from the table. */
static const char *supported_pairs(TaLower *L)
{
    const char *text = "";
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        text = ta_format(L->pool, "%s%s%s to %s", text, i ? ", " : "",
                         ta_dtype_name(pairs[i].input), ta_dtype_name(pairs[i].output));
    return text;
}

static bool lower(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 1, 1, 1))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    const char *fn = kernel_for(in->dtype, out->dtype);
    if (!fn) {
        ta_op_error(L, op, "%s to %s is not supported (TFLite Micro runs %s)",
                    ta_dtype_name(in->dtype), ta_dtype_name(out->dtype), supported_pairs(L));
        return false;
    }
    if (!ta_expect_per_tensor(L, op, out, "output"))
        return false;
    if (ta_tensor_elements(in) != ta_tensor_elements(out)) {
        ta_op_error(L, op, "input and output sizes differ");
        return false;
    }
    int32_t multiplier = 0;
    int shift = 0;
    if (in->dtype != TA_FLOAT32) {
        if (!ta_expect_per_tensor(L, op, in, "input"))
            return false;
        if (!ta_requant(L, op, "input-to-output", (double)ta_scale(in) / (double)ta_scale(out),
                        TA_SHIFT_MAX_INT32, &multiplier, &shift))
            return false;
    }
    TaKernelCall *c = ta_call(L, op, fn, "runtime/kernels/ta_quantize.h");
    ta_quantize_params_t *p = TA_CALL_PARAMS(L, c, ta_quantize_params_t);
    p->size = (int64_t)ta_tensor_elements(out);
    p->scale = (double)ta_scale(out);
    p->input_zero_point = ta_zero_point(in);
    p->output_zero_point = ta_zero_point(out);
    p->multiplier = multiplier;
    p->shift = shift;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    ta_allow_inplace(op, 0);
    return true;
}

const TaOpDef ta_op_quantize = {NULL, lower};
