/*
 * pad.c - PAD and PADV2 (constant padding): the output is filled with the
 * pad value, then the input is copied into its interior. Paddings and the
 * pad value are constants read here. The pad value is, as in TFLite
 * Micro: PADV2's constant_values element as stored (it must share the
 * output's quantization), else the output zero point (0 for int16, int32
 * and float32).
 */
#include "../../runtime/kernels/ta_copy_nd.h"
#include "../../runtime/kernels/ta_pad_rows.h"
#include "common/copy_nd.h"

#include <string.h>

/* int8 NHWC of one batch: one row-by-row call (ta_pad_rows.h), which a
   row chain can also run on bands of rows (docs/row-streaming.md). */
static bool lower_rows(TaLower *L, TaOp *op, const int64_t *pads, int32_t fill)
{
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    TaKernelCall *call = ta_call(L, op, "ta_pad_rows_s8", "runtime/kernels/ta_pad_rows.h");
    ta_pad_rows_params_t *p = TA_CALL_PARAMS(L, call, ta_pad_rows_params_t);
    p->input_height = in->dims[1];
    p->pad_top = (int32_t)pads[2];
    p->output_height = out->dims[1];
    p->input_width = in->dims[2];
    p->pad_left = (int32_t)pads[4];
    p->output_width = out->dims[2];
    p->input_depth = in->dims[3];
    p->pad_front = (int32_t)pads[6];
    p->output_depth = out->dims[3];
    p->value = fill;
    ta_call_arg(L, call, in);
    ta_call_arg(L, call, out);
    return true;
}

static bool lower_pad(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 2, 3, 1))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    const TaTensor *value = op->num_inputs > 2 ? op->inputs[2] : NULL;
    if (!ta_expect_dtype(L, op, in, "input", TA_INT8, TA_INT16, TA_INT32, TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, out, "output", in->dtype, -1))
        return false;
    int64_t pads[2 * TA_MAX_RANK];
    int n;
    if (!ta_const_ints(L, op, op->inputs[1], "paddings", false, pads, 2 * TA_MAX_RANK, &n))
        return false;
    bool ok = n == 2 * in->rank && out->rank == in->rank;
    bool padded = false;
    for (int d = 0; d < in->rank && ok; d++) {
        ok = pads[2 * d] >= 0 && pads[2 * d + 1] >= 0 &&
             out->dims[d] == in->dims[d] + pads[2 * d] + pads[2 * d + 1];
        padded = padded || pads[2 * d] || pads[2 * d + 1];
    }
    if (!ok) {
        ta_op_error(L, op, "paddings do not take %s to %s (they must be [rank, 2], >= 0)",
                    ta_shape_text(L->pool, in), ta_shape_text(L->pool, out));
        return false;
    }

    int32_t fill = 0; /* the element's bits */
    if (value) {
        if (!ta_expect_dtype(L, op, value, "constant_values", in->dtype, -1) ||
            !ta_expect_constant(L, op, value, "constant_values"))
            return false;
        if (ta_tensor_elements(value) != 1) {
            ta_op_error(L, op, "constant_values must hold one value");
            return false;
        }
        if (in->dtype == TA_INT8 &&
            (ta_scale(value) != ta_scale(out) || ta_zero_point(value) != ta_zero_point(out))) {
            ta_op_error(L, op, "constant_values must have the output's scale and zero point");
            return false;
        }
        if (in->dtype == TA_INT8) {
            fill = (int8_t)value->data[0];
        } else if (in->dtype == TA_INT16) {
            int16_t v;
            memcpy(&v, value->data, 2);
            fill = v;
        } else {
            memcpy(&fill, value->data, 4);
        }
    } else if (in->dtype == TA_INT8) {
        fill = ta_zero_point(out);
        if (fill < -128 || fill > 127) {
            ta_op_error(L, op, "output zero point %d is outside int8", (int)fill);
            return false;
        }
    }

    int64_t istr[TA_MAX_RANK], ostr[TA_MAX_RANK];
    ta_row_major_strides(in, istr);
    ta_row_major_strides(out, ostr);
    TaCopyNd c = {0};
    for (int d = 0; d < in->rank; d++) {
        ta_copy_nd_dim(&c, in->dims[d], istr[d], ostr[d]);
        c.dst_offset += pads[2 * d] * ostr[d];
    }
    if (!padded)
        return ta_lower_move(L, op, 0, &c);
    if (in->dtype == TA_INT8 && in->rank == 4 && in->dims[0] == 1 && out->dims[0] == 1)
        return lower_rows(L, op, pads, fill);
    TaKernelCall *f = ta_call(L, op, "ta_fill", "runtime/kernels/ta_copy_nd.h");
    ta_fill_params_t *p = TA_CALL_PARAMS(L, f, ta_fill_params_t);
    p->count = (int64_t)ta_tensor_elements(out);
    p->elem_size = (int64_t)ta_dtype_size(out->dtype);
    p->value = fill;
    ta_call_arg(L, f, out);
    return ta_lower_copy_nd(L, op, in, out, &c);
}

const TaOpDef ta_op_pad = {NULL, lower_pad};
const TaOpDef ta_op_padv2 = {NULL, lower_pad};
