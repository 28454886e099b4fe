/*
 * conv_2d_add.c - the call of a CONV_2D fused with the ADD of a residual
 * (runtime/kernels/ta_conv_2d_add.h): the convolution's params as CONV_2D
 * computed them, ADD's arithmetic with the convolution's output as its
 * input 1 and the residual as its input 2, and the piece buffer.
 */
#include "conv_2d_add.h"

#include "../../runtime/kernels/ta_conv_2d_add.h"
#include "add_sub.h"
#include "conv_entries.h"

#include <string.h>

/* Bytes of the piece buffer at most (unless one pixel's channels are more):
   small enough to add little to the peak it takes the model below (ResNet-8
   fits in two 16 KiB tensors and this), large enough that the pieces' calls
   cost little beside the convolution. */
enum { PIECE_BYTES = 192 };
/* With row streaming on, a piece may be a whole output row up to this many
   bytes: a chain calls the layer a row at a time, and one convolution and
   one ADD call per row cost far less than one per 192 bytes (ResNet-8's
   rows are 512 bytes). */
enum { ROW_PIECE_BYTES = 512 };

static bool same_shape(const TaTensor *a, const TaTensor *b)
{
    if (a->rank != b->rank)
        return false;
    for (int d = 0; d < a->rank; d++)
        if (a->dims[d] != b->dims[d])
            return false;
    return true;
}

bool ta_lower_conv_2d_add(TaLower *L, TaOp *op, const ta_conv_2d_params_t *conv,
                          const char *conv_kernel, const TaConvArgs *args, const TaConvRequant *rq)
{
    const TaResidualAdd *fused = op->rewrites.residual_add;
    TaTensor *residual = op->inputs[3], *sum = op->outputs[0], *conv_out = fused->conv_output;
    const TaConvEntry *entry = ta_conv_entry(conv_kernel);
    const char *kernel = entry ? entry->fused : NULL;
    if (!kernel || !residual || conv_out->dtype != TA_INT8 || residual->dtype != TA_INT8 ||
        sum->dtype != TA_INT8 || !same_shape(conv_out, residual) || !same_shape(conv_out, sum)) {
        ta_op_error(L, op,
                    "FUSE_RESIDUAL_ADD takes int8 convolutions whose output, residual and sum "
                    "have one shape (turn the transform off for this model)");
        return false;
    }
    ta_add_params_t add = {0};
    if (!ta_expect_per_tensor(L, fused->add, residual, "the residual") ||
        !ta_expect_per_tensor(L, fused->add, sum, "output") ||
        !ta_add_sub_arithmetic(L, fused->add, conv_out, residual, sum, &add))
        return false;

    const int32_t depth = conv->output_depth, width = conv->output_width;
    const int32_t pixels = conv->output_height * width;
    const int32_t bytes = fused->row_pieces && width * depth <= ROW_PIECE_BYTES ? width * depth
                                                                                : PIECE_BYTES;
    int32_t piece = bytes / depth > 1 ? bytes / depth : 1;
    if (piece >= width) /* whole rows */
        piece = (piece / width < conv->output_height ? piece / width : conv->output_height) * width;
    piece = piece < pixels ? piece : pixels;

    TaKernelCall *c = ta_call(L, op, kernel, "runtime/kernels/ta_conv_2d_add.h");
    ta_conv_2d_add_params_t *p = TA_CALL_PARAMS(L, c, ta_conv_2d_add_params_t);
#define TA_COPY_FIELD(type, name) p->name = conv->name;
    TA_CONV_2D_PARAMS(TA_COPY_FIELD, TA_NO_ARRAY_HERE, TA_NO_ARRAY_HERE)
#undef TA_COPY_FIELD
    if (rq->multipliers) { /* per channel: the kernel reads the arrays instead */
        TA_CALL_IGNORES(c, ta_conv_2d_add_params_t, multiplier);
        TA_CALL_IGNORES(c, ta_conv_2d_add_params_t, shift);
    }
    p->left_shift = add.left_shift;
    p->input1_offset = add.input1_offset;
    p->input1_multiplier = add.input1_multiplier;
    p->input1_shift = add.input1_shift;
    p->input2_offset = add.input2_offset;
    p->input2_multiplier = add.input2_multiplier;
    p->input2_shift = add.input2_shift;
    p->sum_offset = add.output_offset;
    p->sum_multiplier = add.output_multiplier;
    p->sum_shift = add.output_shift;
    p->sum_min = add.activation_min;
    p->sum_max = add.activation_max;
    p->piece_pixels = piece;

    ta_conv_call_inputs(L, c, args, rq);
    ta_call_arg(L, c, residual);
    ta_call_arg(L, c, ta_local_scratch(L, op, "piece", piece * depth));
    ta_call_arg(L, c, sum);
    /* The sum goes over the residual, never over what the convolution
       still reads (a residual that is its input under another name). */
    if (ta_tensor_root(residual) != ta_tensor_root(args->input))
        ta_allow_inplace(op, 3);
    return true;
}
