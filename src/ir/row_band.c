/*
 * row_band.c - a window kernel's parameters narrowed to a band of output
 * rows (row streaming, docs/row-streaming.md). The converter's chain
 * schedule, the host executor and the emitter all narrow a call the same
 * way: input_height, the top padding and output_height describe the band
 * only, every other field stays; the kernels compute output row oy from
 * input row oy * stride - pad_top on, treating rows outside
 * [0, input_height) as padding, so the band's rows come out as the whole
 * tensor's would.
 */
#include "ir.h"

#include <stdint.h>
#include <string.h>

int32_t *ta_params_int32(const TaKernelCall *call, void *params, const char *name)
{
    const TaParamsDesc *d = call->params_desc;
    for (int i = 0; d && i < d->num_fields; i++) {
        const TaParamField *f = &d->fields[i];
        if (f->length == 0 && f->type == TA_FIELD_INT32 && strcmp(f->name, name) == 0)
            return (int32_t *)(void *)((char *)params + f->offset);
    }
    return NULL;
}

const char *ta_row_band_pad_field(const TaKernelCall *call)
{
    /* convolutions name it pad_top, the pools pad_height */
    return ta_params_int32(call, call->params_struct, "pad_top") ? "pad_top" : "pad_height";
}

bool ta_row_band_params(const TaKernelCall *call, void *copy, int32_t in_rows, int32_t pad_top,
                        int32_t out_rows)
{
    int32_t *in_h = ta_params_int32(call, copy, "input_height");
    int32_t *pad = ta_params_int32(call, copy, ta_row_band_pad_field(call));
    int32_t *out_h = ta_params_int32(call, copy, "output_height");
    if (!in_h || !pad || !out_h)
        return false;
    *in_h = in_rows;
    *pad = pad_top;
    *out_h = out_rows;
    return true;
}

/* The int32 array field `name` of `params`, NULL when it has none. */
static int32_t *params_array(const TaKernelCall *call, void *params, const char *name)
{
    const TaParamsDesc *d = call->params_desc;
    for (int i = 0; d && i < d->num_fields; i++) {
        const TaParamField *f = &d->fields[i];
        if (f->length > 0 && f->type == TA_FIELD_INT32 && strcmp(f->name, name) == 0)
            return (int32_t *)(void *)((char *)params + f->offset);
    }
    return NULL;
}

/* Elementwise kernels a chain runs on a band's elements (each output
   element from the inputs' elements at its place only): the binary ones
   and PRELU, their broadcast parameters (dims outermost first and an
   element stride per dimension for each operand, by these fields'
   names), and the unary ones (a run of `size`). A binary one runs on
   two operands of the output's shape (rank 1, unit strides: a run of
   `dims[0]` elements); a binary one or PRELU runs with a second operand
   broadcast along the outermost dimension (stride 0 there: a
   per-channel or scalar constant), the first dense, a band being
   `dims[0]` runs of the inner dimensions. */
typedef struct BroadcastFields {
    const char *function, *first_strides, *second_strides;
} BroadcastFields;
static const BroadcastFields binary_band_kernels[] = {
    {"ta_add_s8", "stride1", "stride2"},
    {"ta_sub_s8", "stride1", "stride2"},
    {"ta_mul_s8", "stride1", "stride2"},
    {"ta_prelu_s8", "input_strides", "alpha_strides"},
};
static const char *const unary_band_kernels[] = {
    "ta_relu_s8", "ta_relu6_s8", "ta_leaky_relu_s8",    "ta_hard_swish_s8", "ta_logistic_s8",
    "ta_tanh_s8", "ta_abs_s8",   "ta_requantize_s8_s8", "ta_lut_s8",
};

static bool listed(const char *const *names, size_t count, const char *function)
{
    for (size_t i = 0; i < count; i++)
        if (strcmp(names[i], function) == 0)
            return true;
    return false;
}

bool ta_row_band_is_unary(const TaKernelCall *call)
{
    return listed(unary_band_kernels, TA_COUNT_OF(unary_band_kernels), call->function);
}

/* A binary band kernel's shape: rank, dims and the operands' strides;
   false for any other call. */
typedef struct Binary {
    int32_t rank;
    const int32_t *dims, *first, *second;
} Binary;

static bool binary_shape(const TaKernelCall *call, Binary *b)
{
    for (size_t i = 0; i < TA_COUNT_OF(binary_band_kernels); i++) {
        const BroadcastFields *f = &binary_band_kernels[i];
        if (strcmp(f->function, call->function) != 0)
            continue;
        const int32_t *rank = ta_params_int32(call, call->params_struct, "rank");
        b->dims = params_array(call, call->params_struct, "dims");
        b->first = params_array(call, call->params_struct, f->first_strides);
        b->second = params_array(call, call->params_struct, f->second_strides);
        b->rank = rank ? *rank : 0;
        return b->rank >= 1 && b->dims && b->first && b->second;
    }
    return false;
}

/* The elements of dims[1..rank) (one unit of dims[0]), 0 when the first
   operand is not dense or the second not of the output's shape (rank 1,
   unit stride; PRELU's alpha is a constant: not that) nor broadcast
   along dims[0]. */
static int64_t binary_unit(const TaKernelCall *call, const Binary *b)
{
    int64_t inner = 1;
    for (int i = b->rank - 1; i >= 0; i--) {
        if (b->first[i] != inner || b->dims[i] < 1)
            return 0;
        inner *= b->dims[i];
    }
    const bool same_shape = b->rank == 1 && b->second[0] == 1 &&
                            strcmp(call->function, "ta_prelu_s8") != 0;
    return same_shape || b->second[0] == 0 ? inner / b->dims[0] : 0;
}

bool ta_row_band_is_broadcast(const TaKernelCall *call)
{
    Binary b;
    return binary_shape(call, &b) && binary_unit(call, &b) && b.second[0] == 0;
}

int32_t ta_row_band_unit(const TaKernelCall *call)
{
    Binary b;
    return !ta_row_band_is_unary(call) && binary_shape(call, &b) ? (int32_t)binary_unit(call, &b)
                                                                 : 1;
}

int32_t ta_row_band_elements(const TaKernelCall *call)
{
    if (ta_row_band_is_unary(call)) {
        const int32_t *size = ta_params_int32(call, call->params_struct, "size");
        return size ? *size : 0;
    }
    Binary b;
    const int64_t unit = binary_shape(call, &b) ? binary_unit(call, &b) : 0;
    const int64_t elements = unit ? unit * b.dims[0] : 0;
    return elements <= INT32_MAX ? (int32_t)elements : 0;
}

const char *ta_row_band_elements_field(const TaKernelCall *call)
{
    return ta_row_band_is_unary(call) ? "size" : "dims[0]";
}

bool ta_row_band_elementwise(const TaKernelCall *call, void *copy, int32_t elements)
{
    int32_t *count = ta_row_band_is_unary(call) ? ta_params_int32(call, copy, "size")
                                                : params_array(call, copy, "dims");
    const int32_t unit = ta_row_band_unit(call);
    if (!ta_row_band_elements(call) || !count || elements % unit)
        return false;
    *count = elements / unit;
    return true;
}

size_t ta_row_chain_row_bytes(const TaRowChain *chain, int j)
{
    return (size_t)chain->buffers[j]->dims[2] * (size_t)chain->buffers[j]->dims[3];
}

bool ta_row_chain_finishes_at_end(const TaRowChain *chain)
{
    return chain->finish_call && !chain->sums_per_row;
}

bool ta_row_chain_is_dag(const TaRowChain *chain)
{
    for (int k = 0; k < chain->num_ops; k++)
        if (chain->second_buffer[k] >= 0 || chain->input_buffer[k] != k)
            return true;
    return false;
}

/* The operator's first call of role "run". */
static TaKernelCall **run_slot(TaOp *op)
{
    for (int k = 0; k < op->lowered.calls.len; k++)
        if (strcmp(((TaKernelCall *)op->lowered.calls.items[k])->role, "run") == 0)
            return (TaKernelCall **)&op->lowered.calls.items[k];
    return NULL;
}

void ta_row_chain_mark(TaGraph *g, TaRowChain *chain, bool on)
{
    for (int k = 0; k < chain->num_ops; k++) {
        TaOp *op = TA_OP(g, chain->first_op + k);
        op->row_chain = on ? chain : NULL;
        op->row_chain_pos = k;
    }
    for (int j = chain->push_input ? 0 : 1; j < chain->num_ops; j++) {
        TaTensor *t = chain->buffers[j];
        t->row_buffer_rows = on ? chain->buffer_rows[j] : 0;
        t->row_buffer_bytes = (size_t)t->row_buffer_rows * (size_t)t->dims[2] * (size_t)t->dims[3];
        if (chain->shares && chain->shares[j] >= 0)
            t->alias_of = on ? chain->buffers[chain->shares[j]] : NULL;
    }
    if (chain->plain_call) {
        TaKernelCall **slot = run_slot(TA_OP(g, chain->first_op + chain->num_ops - 1));
        *slot = on ? chain->finish_call : chain->plain_call;
        chain->sums->removed = !on;
    }
}

const TaKernelCall *ta_row_band_call(const TaGraph *g, const TaRowChain *chain, int k)
{
    if (k == chain->num_ops - 1 && chain->rows_call)
        return chain->rows_call;
    TaKernelCall **slot = run_slot(TA_OP(g, chain->first_op + k));
    return slot ? *slot : NULL;
}

const char *ta_row_band_pointwise(const TaKernelCall *call)
{
    static const struct {
        const char *entry, *rows;
    } entries[] = {{"ta_conv_2d_s8_interleaved", "ta_conv_2d_s8_pointwise_rows"},
                   {"ta_conv_2d_s8_pointwise_triples", "ta_conv_2d_s8_pointwise_triples_rows"}};
    static const struct {
        const char *name;
        int32_t value;
    } fields[] = {{"batches", 1},       {"filter_height", 1},       {"filter_width", 1},
                  {"stride_height", 1}, {"stride_width", 1},        {"pad_top", 0},
                  {"pad_left", 0},      {"weights_interleaved", 1}, {"taps_by_column", 0}};
    const char *rows = NULL;
    for (size_t i = 0; call && i < TA_COUNT_OF(entries); i++)
        if (strcmp(call->function, entries[i].entry) == 0)
            rows = entries[i].rows;
    if (!rows || call->args.len != 6)
        return NULL;
    for (size_t i = 0; i < TA_COUNT_OF(fields); i++) {
        const int32_t *v = ta_params_int32(call, call->params_struct, fields[i].name);
        if (!v || *v != fields[i].value)
            return NULL;
    }
    const int32_t *in_w = ta_params_int32(call, call->params_struct, "input_width");
    const int32_t *out_w = ta_params_int32(call, call->params_struct, "output_width");
    /* bias_sum, multipliers and shifts: arguments 2 to 4 (0 the input) */
    for (int a = 2; a <= 4; a++)
        if (!call->args.items[a])
            return NULL;
    return in_w && out_w && *in_w == *out_w ? rows : NULL;
}

/* A band of one layer and how often the chain runs it. */
typedef struct {
    int in_rows, pad_top, out_rows, count;
} BandShape;

bool ta_row_band_usual(const TaGraph *g, const TaRowChain *chain, int k, int32_t *in_rows,
                       int32_t *pad_top, int32_t *out_rows)
{
    const TaKernelCall *call = ta_row_band_call(g, chain, k);
    if (!call || call == chain->rows_call || ta_row_band_elements(call) ||
        !ta_params_int32(call, call->params_struct, "input_height"))
        return false;
    /* the distinct bands in order of first use, counted (a layer has a
       handful: the first rows', the usual, the last rows') */
    enum { SHAPES = 16 };
    BandShape shape[SHAPES];
    int shapes = 0, best = -1;
    for (int i = 0; i < chain->steps.len; i++) {
        const TaRowStep *s = chain->steps.items[i];
        if (s->op != k)
            continue;
        int j = 0;
        while (j < shapes && (shape[j].in_rows != s->in_rows || shape[j].pad_top != s->pad_top ||
                              shape[j].out_rows != s->out_rows))
            j++;
        if (j == shapes) {
            if (shapes == SHAPES)
                continue;
            shape[shapes++] = (BandShape){s->in_rows, s->pad_top, s->out_rows, 0};
        }
        shape[j].count++;
        if (best < 0 || shape[j].count > shape[best].count)
            best = j;
    }
    if (best < 0 || shape[best].count < 2)
        return false;
    *in_rows = shape[best].in_rows;
    *pad_top = shape[best].pad_top;
    *out_rows = shape[best].out_rows;
    return true;
}
