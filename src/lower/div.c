/*
 * div.c - DIV on int32 tensors (the reference's integer division, which
 * truncates toward zero) and float32 tensors (common/binary_f32), with
 * broadcasting and fused activations. TFLite Micro also has int8 DIV;
 * tinyaot does not yet.
 */
#include "common/binary_f32.h"
#include "common/binary_i32.h"

typedef struct DivAttrs {
    int activation;
} DivAttrs;

static bool parse(TaLower *L, TaOp *op)
{
    TaFbReader r;
    TaFbTable t = ta_op_options(L, op, &r);
    DivAttrs *a = ta_alloc(L->pool, sizeof *a);
    a->activation = ta_fb_i8(t, 0, 0); /* DivOptions.fused_activation_function */
    op->attrs = a;
    return !r.failed;
}

static bool lower(TaLower *L, TaOp *op)
{
    const DivAttrs *a = op->attrs;
    if (ta_binary_is_f32(op))
        return ta_lower_binary_f32(L, op, "ta_div_f32", a->activation);
    if (op->num_inputs >= 1 && op->inputs[0] && op->inputs[0]->dtype != TA_INT32) {
        ta_op_error(L, op, "input 1 (tensor %s) is %s; tinyaot supports int32 and float32 here",
                    op->inputs[0]->id, ta_dtype_name(op->inputs[0]->dtype));
        return false;
    }
    return ta_lower_binary_i32(L, op, "ta_div_i32", a->activation);
}

const TaOpDef ta_op_div = {parse, lower};
