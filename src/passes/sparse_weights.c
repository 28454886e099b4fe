/*
 * sparse_weights.c - SPARSE_WEIGHTS: an int8 FULLY_CONNECTED, or a 1x1
 * stride-1 CONV_2D (one row per pixel), whose weights are mostly zero runs
 * ta_fully_connected_s8_sparse instead, which keeps and multiplies only the
 * nonzero weights (runtime/kernels/ta_fully_connected_sparse.h), where the
 * cost model below says that is faster on both the Cortex-M55 and the
 * Cortex-M4 (the module is the same for every core). The lowering's
 * bias_sum, multipliers and shifts stay; the weights become three
 * constants (each output channel's end, each nonzero's input channel and
 * value). The outputs are the dense kernel's: the same sums, another order.
 *
 * Runs on the lowered graph, so every other transform has already shaped
 * the weights (SPARSE_CHANNELS removed the dead channels; what remains here
 * is unstructured sparsity). weights.format dense and weights.dense keep a
 * layer dense; weights.format sparse stores every such layer sparse where
 * that takes fewer bytes, whatever the speed.
 */
#include "../../runtime/kernels/ta_conv_2d.h"
#include "../../runtime/kernels/ta_fully_connected_sparse.h"
#include "../lower/conv_entries.h"
#include "../lower/kernel_params.h"
#include "../lower/lower.h"
#include "transforms.h"

#include <string.h>

/* Instructions of the two loops, fitted to bench/sparse_weights.py's
   counts (one FULLY_CONNECTED, 64 to 640 inputs, 1 to 16 rows, QEMU):
   the dense kernel per MAC and per output value, the sparse one per
   nonzero weight and per output value (its loop setup and the
   requantization of few sums at a time). The sparse loop must win by
   SPARSE_MARGIN on every core: the module is the same for each. */
typedef struct {
    const char *core;
    double dense_mac, dense_output, sparse_nonzero, sparse_output;
} Costs;

static const Costs cores[] = {
    {"Cortex-M55", 0.157, 7.9, 0.80, 44.1},
    {"Cortex-M4", 1.500, 37.4, 5.59, 63.8},
};
#define SPARSE_MARGIN 0.85

/* The layer as rows of inputs times a [outputs][depth] weight matrix. */
typedef struct {
    TaKernelCall *call;
    const TaTensor *weights; /* int8 [outputs][depth] (the model's layout) */
    TaTensor *replaced;      /* the call's weights argument */
    int32_t rows, depth, outputs;
    ta_fully_connected_params_t params;
} Layer;

static bool named(const char *a, const char *b)
{
    return strcmp(a, b) == 0;
}

/* The layer of an int8 FULLY_CONNECTED or 1x1 stride-1 ungrouped CONV_2D
   call; false for anything else. */
static bool find_layer(TaOp *op, Layer *l)
{
    if (op->lowered.calls.len != 1)
        return false;
    TaKernelCall *c = op->lowered.calls.items[0];
    const TaTensor *w = op->num_inputs > 1 ? op->inputs[1] : NULL;
    if (!w || !w->data || w->dtype != TA_INT8 || w->int4_packed || w->stored_format ||
        c->args.len != 6)
        return false;
    *l = (Layer){.call = c, .weights = w, .replaced = c->args.items[1]};
    if (named(c->function, "ta_fully_connected_s8") ||
        named(c->function, "ta_fully_connected_s8_interleaved") ||
        named(c->function, "ta_fully_connected_s8_words")) {
        l->params = *(const ta_fully_connected_params_t *)c->params_struct;
        l->rows = l->params.batches;
        l->depth = l->params.accum_depth;
        l->outputs = l->params.output_depth;
        return true;
    }
    if (!ta_conv_entry(c->function))
        return false;
    const ta_conv_2d_params_t *p = c->params_struct;
    if (p->filter_height != 1 || p->filter_width != 1 || p->stride_height != 1 ||
        p->stride_width != 1 || p->filter_depth != p->input_depth || p->pad_top != 0 ||
        p->pad_left != 0 || p->output_height != p->input_height ||
        p->output_width != p->input_width)
        return false;
    l->rows = p->batches * p->output_height * p->output_width;
    l->depth = p->input_depth;
    l->outputs = p->output_depth;
    l->params = (ta_fully_connected_params_t){
        .batches = l->rows,
        .accum_depth = l->depth,
        .output_depth = l->outputs,
        .output_offset = p->output_offset,
        .multiplier = p->multiplier,
        .shift = p->shift,
        .activation_min = p->activation_min,
        .activation_max = p->activation_max,
    };
    return true;
}

static int64_t nonzeros(const Layer *l)
{
    const int8_t *w = (const int8_t *)l->weights->data;
    int64_t n = 0;
    for (size_t i = 0; i < (size_t)l->outputs * (size_t)l->depth; i++)
        n += w[i] != 0;
    return n;
}

/* Whether the sparse loop wins on every core, by SPARSE_MARGIN. */
static bool sparse_pays(const Layer *l, int64_t nz)
{
    for (size_t k = 0; k < TA_COUNT_OF(cores); k++) {
        const Costs *c = &cores[k];
        const double dense = (double)l->outputs *
                             ((double)l->depth * c->dense_mac + c->dense_output);
        const double sparse = (double)nz * c->sparse_nonzero +
                              (double)l->outputs * c->sparse_output;
        if (sparse > SPARSE_MARGIN * dense)
            return false;
    }
    return true;
}

/* Whether any kernel call reads `t`. */
static bool read_by_a_call(const TaGraph *g, const TaTensor *t)
{
    for (int i = 0; i < g->ops.len; i++) {
        const TaOp *op = g->ops.items[i];
        for (int k = 0; k < op->lowered.calls.len; k++) {
            const TaKernelCall *c = op->lowered.calls.items[k];
            for (int a = 0; a < c->args.len; a++)
                if (c->args.items[a] == t)
                    return true;
        }
    }
    return false;
}

static TaTensor *constant(TaPassCtx *ctx, TaOp *op, const char *role, TaDtype dtype, int32_t count,
                          const void *data)
{
    TaLower L = {
        .pool = ctx->pool, .diag = ctx->diag, .graph = ctx->graph, .model_path = ctx->model_path};
    TaTensor *t = ta_local_constant(&L, op, role, dtype, count, data);
    t->stored_format = "sparse";
    return t;
}

static void make_sparse(TaPassCtx *ctx, TaOp *op, Layer *l, int64_t nz)
{
    const int8_t *w = (const int8_t *)l->weights->data;
    int32_t *ends = ta_alloc_array(ctx->pool, (size_t)l->outputs, sizeof(int32_t));
    uint16_t *indices = ta_alloc_array(ctx->pool, (size_t)nz + 1, sizeof(uint16_t));
    int8_t *values = ta_alloc_array(ctx->pool, (size_t)nz + 1, sizeof(int8_t));
    int32_t n = 0;
    for (int32_t o = 0; o < l->outputs; o++) {
        for (int32_t d = 0; d < l->depth; d++) {
            const int8_t v = w[(size_t)o * (size_t)l->depth + (size_t)d];
            if (v) {
                indices[n] = (uint16_t)d;
                values[n++] = v;
            }
        }
        ends[o] = n;
    }
    TaKernelCall *c = l->call;
    TaTensor *in = c->args.items[0], *bias_sum = c->args.items[2], *out = c->args.items[5];
    TaTensor *mults = c->args.items[3], *shifts = c->args.items[4];
    if (!bias_sum) { /* the sparse loop starts every sum from it */
        int32_t *zeros = ta_alloc_array(ctx->pool, (size_t)l->outputs, sizeof(int32_t));
        bias_sum = constant(ctx, op, "bias_sum", TA_INT32, l->outputs, zeros);
        bias_sum->stored_format = NULL;
    }
    TaTensor *t_ends = constant(ctx, op, "sparse_ends", TA_INT32, l->outputs, ends);
    TaTensor *t_indices = constant(ctx, op, "sparse_indices", TA_UINT16, n ? n : 1, indices);
    TaTensor *t_values = constant(ctx, op, "sparse_weights", TA_INT8, n ? n : 1, values);
    t_values->dense_bytes = (size_t)l->outputs * (size_t)l->depth;
    t_values->derived_from = l->weights->derived_from ? l->weights->derived_from : l->weights;
    c->function = "ta_fully_connected_s8_sparse";
    c->header = "runtime/kernels/ta_fully_connected_sparse.h";
    c->params_desc = &ta_fully_connected_params_t_desc;
    ta_fully_connected_params_t *p = ta_alloc(ctx->pool, sizeof *p);
    *p = l->params;
    c->params_struct = p;
    c->num_ignored_fields = 0;
    if (mults) {
        TA_CALL_IGNORES(c, ta_fully_connected_params_t, multiplier);
        TA_CALL_IGNORES(c, ta_fully_connected_params_t, shift);
    }
    TaTensor *args[] = {in, t_ends, t_indices, t_values, bias_sum, mults, shifts, out};
    c->args.len = 0;
    for (size_t a = 0; a < TA_COUNT_OF(args); a++)
        ta_vec_push(ctx->pool, &c->args, args[a]);
    /* The dense weights leave the module unless another call reads them. */
    if (l->replaced && !read_by_a_call(ctx->graph, l->replaced))
        l->replaced->removed = true;
}

bool ta_pass_sparse_weights(TaPassCtx *ctx)
{
    static const TaWeightsOptions automatic = {.format = "auto"};
    const TaWeightsOptions *o = ctx->weights ? ctx->weights : &automatic;
    if (strcmp(o->format, "dense") == 0)
        return true;
    for (int i = 0; i < ctx->graph->ops.len; i++) {
        TaOp *op = ctx->graph->ops.items[i];
        Layer l;
        if (op->removed || !find_layer(op, &l) || l.depth > 65536 ||
            ta_weights_named_dense(o, l.weights))
            continue;
        const int64_t nz = nonzeros(&l);
        const bool smaller = nz * 3 + (int64_t)l.outputs * 4 < (int64_t)l.outputs * l.depth;
        if (strcmp(o->format, "sparse") == 0 ? smaller : sparse_pays(&l, nz))
            make_sparse(ctx, op, &l, nz);
    }
    return true;
}
