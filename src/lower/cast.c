/*
 * cast.c - CAST between bool, int8, int16, int32 and float32, and between
 * int32 and uint32 (see
 * runtime/kernels/ta_cast.h for the conversion rules). Like TFLite Micro,
 * it converts stored values and ignores quantization parameters. A cast
 * to the same type is a RESHAPE.
 */
#include "../../runtime/kernels/ta_cast.h"
#include "../../runtime/kernels/ta_copy.h"
#include "common/copy_nd.h"

static const char *suffix(TaDtype t)
{
    switch (t) {
    case TA_INT8: return "i8";
    case TA_INT16: return "i16";
    case TA_INT32: return "i32";
    case TA_FLOAT32: return "f32";
    case TA_BOOL: return "b";
    default: return NULL;
    }
}

static bool lower(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 1, 1, 1))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in, "input", TA_BOOL, TA_INT8, TA_INT16, TA_INT32, TA_UINT32,
                         TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, out, "output", TA_INT8, TA_INT16, TA_INT32, TA_UINT32, TA_FLOAT32,
                         -1))
        return false;
    /* uint32 only to and from int32 (the audio front end's casts). */
    const bool wide_bits = (in->dtype == TA_INT32 || in->dtype == TA_UINT32) &&
                           (out->dtype == TA_INT32 || out->dtype == TA_UINT32);
    if ((in->dtype == TA_UINT32 || out->dtype == TA_UINT32) && !wide_bits) {
        ta_op_error(L, op, "a cast from %s to %s is not supported (uint32 casts only to int32)",
                    ta_dtype_name(in->dtype), ta_dtype_name(out->dtype));
        return false;
    }
    if (ta_tensor_elements(in) != ta_tensor_elements(out)) {
        ta_op_error(L, op, "input %s and output %s differ in size", ta_shape_text(L->pool, in),
                    ta_shape_text(L->pool, out));
        return false;
    }
    if (in->dtype == out->dtype)
        return ta_lower_reshape_like(L, op);
    if (wide_bits) { /* int32 <-> uint32 keeps the 32 bits (modulo 2^32) */
        TaKernelCall *c = ta_call(L, op, "ta_copy", "runtime/kernels/ta_copy.h");
        ta_copy_params_t *p = TA_CALL_PARAMS(L, c, ta_copy_params_t);
        p->bytes = (int64_t)ta_tensor_bytes(in);
        ta_call_arg(L, c, in);
        ta_call_arg(L, c, out);
        ta_allow_inplace(op, 0);
        return true;
    }
    TaKernelCall *c = ta_call(
        L, op, ta_format(L->pool, "ta_cast_%s_%s", suffix(in->dtype), suffix(out->dtype)),
        "runtime/kernels/ta_cast.h");
    ta_cast_params_t *p = TA_CALL_PARAMS(L, c, ta_cast_params_t);
    p->count = (int64_t)ta_tensor_elements(in);
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    return true;
}

const TaOpDef ta_op_cast = {NULL, lower};
