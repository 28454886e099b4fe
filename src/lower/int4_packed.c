/*
 * int4_packed.c - INT4 weights kept packed (weights.format auto).
 *
 * passes/int4_weights.c unpacked the model's INT4 weights to int8, so the
 * operator's own lowering computed every parameter (folded bias sums,
 * multipliers, activation range) from the values as int8 weights. Here,
 * after it, the call of its int8 kernel becomes a call of the packed-int4
 * kernel with the same parameters and arguments, the weights replaced by
 * a constant in ta_s4.h's layout (ta_conv_2d_s4.h's for CONV_2D; half the
 * bytes); whatever the lowering re-laid out for its int8 kernel is no
 * longer read and drop_dead removes it. Calls with no packed counterpart (a CONV_2D fused with its ADD, an
 * int16 kernel) keep the int8 weights: the tensor is then stored dense.
 */
#include "int4_packed.h"
#include "../../runtime/include/ta_s4.h"
#include "../../runtime/kernels/ta_conv_2d.h"
#include "../../runtime/kernels/ta_conv_2d_s4.h"
#include "../../runtime/kernels/ta_depthwise_conv_2d.h"
#include "../../runtime/kernels/ta_depthwise_conv_2d_s4.h"
#include "../../runtime/kernels/ta_fully_connected.h"
#include "../../runtime/kernels/ta_fully_connected_s4.h"
#include "common/conv_common.h"
#include "common/stream_lead.h"
#include "conv_entries.h"

#include <stddef.h>
#include <string.h>

/* `rows` rows of `n` values (int8, -8..7) in ta_s4.h's layout. */
static TaTensor *pack_rows(TaLower *L, TaOp *op, const TaTensor *w, int32_t rows, int32_t n)
{
    const size_t stride = (size_t)ta_s4_row_bytes(n), bytes = stride * (size_t)rows;
    uint8_t *packed = ta_alloc_array(L->pool, bytes ? bytes : 1, 1);
    memset(packed, 0, bytes);
    const int8_t *values = (const int8_t *)w->data;
    for (int32_t r = 0; r < rows; r++)
        for (int32_t i = 0; i < n; i++) {
            const unsigned v = (unsigned)values[(size_t)r * (size_t)n + (size_t)i] & 0xFu;
            packed[(size_t)r * stride + (size_t)(i / 8 * 4 + i % 4)] |= (uint8_t)(i % 8 < 4
                                                                                      ? v
                                                                                      : v << 4);
        }
    TaTensor *t = ta_local_constant(L, op, "weights_int4", TA_INT8, (int32_t)bytes, packed);
    ta_derived_from(t, w);
    t->stored_format = "int4";
    t->dense_bytes = ta_tensor_bytes(w);
    return t;
}

/* CONV_2D's filters (`filters` rows of n values, int8 -8..7) in
   ta_conv_2d_s4.h's layout: blocks of four filters, steps of 32 values,
   nibbles offset by 8. */
static TaTensor *pack_conv(TaLower *L, TaOp *op, const TaTensor *w, int32_t filters, int32_t n)
{
    const int32_t steps = ta_conv_2d_s4_steps(n);
    const size_t bytes = ta_conv_2d_s4_bytes(filters, n);
    uint8_t *packed = ta_alloc_array(L->pool, bytes ? bytes : 1, 1);
    memset(packed, 0x88, bytes); /* a zero weight in both nibbles */
    const int8_t *values = (const int8_t *)w->data;
    for (int32_t o = 0; o < filters; o++)
        for (int32_t i = 0; i < n; i++) {
            int shift;
            const size_t at = ta_conv_2d_s4_byte(steps, o, i, &shift);
            const unsigned v = (unsigned)(values[(size_t)o * (size_t)n + (size_t)i] + 8);
            packed[at] = (uint8_t)((packed[at] & ~(0xFu << shift)) | (v << shift));
        }
    TaTensor *t = ta_local_constant(L, op, "weights_int4", TA_INT8, (int32_t)bytes, packed);
    ta_derived_from(t, w);
    t->stored_format = "int4";
    t->dense_bytes = ta_tensor_bytes(w);
    return t;
}

static bool is_one_of(const char *name, const char *const *names, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

/* The packed kernel's parameters: the int8 call's, field by field (a
   field the int8 struct lacks does not build). Per-channel calls ignore
   the per-tensor multiplier and shift, as the int8 call did. */
#define TA_COPY_FIELD(type, name) to->name = from->name;
#define TA_COPY_NONE(...)
#define SWAP_PARAMS(L, c, S4, LIST, from_type)                                           \
    do {                                                                                 \
        const from_type *from = (c)->params_struct;                                      \
        const bool per_channel = ta_call_ignores_field((c), offsetof(from_type, shift)); \
        S4 *to = TA_CALL_PARAMS(L, c, S4);                                               \
        LIST(TA_COPY_FIELD, TA_COPY_NONE, TA_COPY_NONE)                                  \
        (c)->num_ignored_fields = 0;                                                     \
        if (per_channel) {                                                               \
            TA_CALL_IGNORES(c, S4, multiplier);                                          \
            TA_CALL_IGNORES(c, S4, shift);                                               \
        }                                                                                \
    } while (0)

/* Output over input again for a kernel walking pixels `batch` at a time in
   place; the reversed-rows lead (geometry only) stays as declared, its
   parameter now the packed call's (NULL: the kernel cannot walk back). */
static void redeclare_overlap(TaLower *L, TaOp *op, int32_t k_h, int32_t k_w, int32_t pad_h,
                              int32_t pad_w, int32_t batch, int32_t *reverse_rows,
                              const char *kernel)
{
    const bool reverse = op->plan_hints.overlap_reverse_rows != NULL && reverse_rows != NULL;
    const size_t back = op->plan_hints.overlap_back_lead;
    const char *back_why = op->plan_hints.overlap_back_why;
    op->plan_hints.overlap_input = -1;
    op->plan_hints.overlap_lead = 0;
    op->plan_hints.overlap_why = NULL;
    op->plan_hints.overlap_reverse_rows = NULL;
    const TaStreamGeometry g = ta_conv_stream_geometry(op->attrs, op->inputs[0], op->outputs[0],
                                                       k_h, k_w, pad_h, pad_w, 1);
    ta_declare_overlap(L, op, 0, &g, batch, TA_STREAM_IN_PLACE, kernel);
    if (op->plan_hints.overlap_input == 0 && reverse) {
        op->plan_hints.overlap_reverse_rows = reverse_rows;
        op->plan_hints.overlap_back_lead = back;
        op->plan_hints.overlap_back_why = back_why;
    }
}

static bool swap_fc(TaLower *L, TaOp *op, TaKernelCall *c, const TaTensor *w)
{
    if (strcmp(c->function, "ta_fully_connected_s8") != 0)
        return false;
    const int32_t depth = w->dims[w->rank - 1];
    const int32_t rows = (int32_t)(ta_tensor_elements(w) / (size_t)(depth ? depth : 1));
    SWAP_PARAMS(L, c, ta_fully_connected_s4_params_t, TA_FULLY_CONNECTED_S4_PARAMS,
                ta_fully_connected_params_t);
    c->function = "ta_fully_connected_s4";
    c->header = "runtime/kernels/ta_fully_connected_s4.h";
    c->args.items[1] = pack_rows(L, op, w, rows, depth);
    return true;
}

static bool swap_conv(TaLower *L, TaOp *op, TaKernelCall *c, const TaTensor *w)
{
    const TaConvEntry *entry = ta_conv_entry(c->function);
    if (op->rewrites.residual_add || !entry || !entry->int4)
        return false;
    SWAP_PARAMS(L, c, ta_conv_2d_s4_params_t, TA_CONV_2D_S4_PARAMS, ta_conv_2d_params_t);
    const ta_conv_2d_s4_params_t *p = c->params_struct;
    c->function = "ta_conv_2d_s4";
    c->header = "runtime/kernels/ta_conv_2d_s4.h";
    c->args.items[1] = pack_conv(L, op, w, w->dims[0], w->dims[1] * w->dims[2] * w->dims[3]);
    /* Pixels go three at a time on Helium (two elsewhere), read in place. */
    redeclare_overlap(L, op, p->filter_height, p->filter_width, p->pad_top, p->pad_left, 3, NULL,
                      "CONV_2D (int4 weights)");
    return true;
}

static bool swap_depthwise(TaLower *L, TaOp *op, TaKernelCall *c, const TaTensor *w)
{
    static const char *const int8_entries[] = {"ta_depthwise_conv_2d_s8",
                                               "ta_depthwise_conv_2d_s8_m1_fast"};
    if (!is_one_of(c->function, int8_entries, TA_COUNT_OF(int8_entries)))
        return false;
    SWAP_PARAMS(L, c, ta_depthwise_conv_2d_s4_params_t, TA_DEPTHWISE_CONV_2D_S4_PARAMS,
                ta_depthwise_conv_2d_params_t);
    ta_depthwise_conv_2d_s4_params_t *p = c->params_struct;
    c->function = "ta_depthwise_conv_2d_s4";
    c->header = "runtime/kernels/ta_depthwise_conv_2d_s4.h";
    c->args.items[1] = pack_rows(L, op, w, w->dims[1] * w->dims[2], w->dims[3]);
    /* Depth multiplier 1 on Helium and DSP: a row at a time, its channels
       a block at a time outside (pixels one at a time elsewhere). */
    redeclare_overlap(L, op, p->filter_height, p->filter_width, p->pad_top, p->pad_left,
                      p->depth_multiplier == 1 ? p->output_width : 1, &p->reverse_rows,
                      "DEPTHWISE_CONV_2D (int4 weights)");
    return true;
}

void ta_int4_keep_packed(TaLower *L, TaOp *op)
{
    if (op->num_inputs < 2 || op->lowered.calls.len != 1)
        return;
    TaTensor *w = op->inputs[1];
    if (!w || !w->int4_packed || !w->int4_keep_packed)
        return;
    TaKernelCall *c = op->lowered.calls.items[0];
    if (c->args.len < 2 || c->args.items[1] == NULL)
        return;
    bool swapped = false;
    if (op->builtin == TA_BUILTIN_FULLY_CONNECTED && w->rank >= 2)
        swapped = swap_fc(L, op, c, w);
    else if (op->builtin == TA_BUILTIN_CONV_2D && w->rank == 4)
        swapped = swap_conv(L, op, c, w);
    else if (op->builtin == TA_BUILTIN_DEPTHWISE_CONV_2D && w->rank == 4)
        swapped = swap_depthwise(L, op, c, w);
    /* No packed kernel for this call: the module stores these weights as int8. */
    if (!swapped)
        w->int4_keep_packed = false;
}
