/*
 * execute.c - the host executor over the lowered graph (execute.h).
 */
#include "execute.h"

#include "kernel_table.h"

#include <stdint.h>
#include <string.h>

/* More tensor arguments than any kernel takes (kernel_table.c: 9). */
enum { MAX_KERNEL_ARGS = 32 };

typedef struct Exec {
    TaPool *pool;
    TaDiag *diag;
    const TaGraph *graph;
    const TaPlan *plan;
    uint8_t **base; /* first usable byte of each region, by region id */
    uint64_t max_loop_iterations;
    int run;                   /* the run under way, for messages */
    uint64_t loop_iterations;  /* back jumps of WHILE loops in this run */
    const uint8_t *push_input; /* row-push input: the run's whole input */
} Exec;

/* A buffer for the region aligned as the plan asks, its guard included,
   so kernels see the same alignment as in the module. */
static uint8_t *region_buffer(Exec *x, const TaRegion *r)
{
    size_t align = r->alignment ? r->alignment : 1;
    uint8_t *raw = ta_alloc(x->pool, r->guard + r->size + align);
    uintptr_t at = (uintptr_t)raw;
    at = (at + align - 1) / align * align;
    return (uint8_t *)at + r->guard;
}

static void *tensor_address(const Exec *x, const TaTensor *t)
{
    if (!t || !t->place.region)
        return NULL;
    return x->base[t->place.region->id] + t->place.offset;
}

/* What model_init does before the init calls: buffers, constants in
   place (the hydration of staged ones), persistent state zeroed (the pool
   hands out zeroed memory). */
static void set_up_regions(Exec *x)
{
    int n = x->plan->regions.len;
    x->base = ta_alloc_array(x->pool, (size_t)(n ? n : 1), sizeof *x->base);
    for (int i = 0; i < n; i++) {
        const TaRegion *r = x->plan->regions.items[i];
        x->base[r->id] = region_buffer(x, r);
        if (r->role == TA_REGION_CONSTANT && r->bytes)
            memcpy(x->base[r->id], r->bytes, r->size);
    }
}

/* The call as written, or (band_in non-NULL) a row band of it: params
   narrowed, its first and last arguments (input, output) moved. */
/* A band's own pointers: its input rows, output rows and, for a layer
   with a second input (a fused residual), that argument's rows. */
typedef struct Band {
    void *in, *out, *second;
    int second_arg;
} Band;

static bool call_kernel_band(const Exec *x, const TaOp *op, const TaKernelCall *call, void *params,
                             const Band *band);

static bool call_kernel(const Exec *x, const TaOp *op, const TaKernelCall *call)
{
    return call_kernel_band(x, op, call, call->params_struct, NULL);
}

/* The run call's argument, between its first and last, that is t; -1. */
static int argument_of(const TaKernelCall *call, const TaTensor *t)
{
    for (int a = 1; a + 1 < call->args.len; a++)
        if (call->args.items[a] == t)
            return a;
    return -1;
}

/* A summing pool of more than one output row: the band s completed the
   window of s->pad_top rows whose output row is at s->out_offset. */
static bool finish_pool_row(const Exec *x, const TaRowChain *chain, const TaOp *op,
                            const TaRowStep *s)
{
    const TaKernelCall *finish = chain->finish_call;
    void *params = ta_alloc(x->pool, finish->params_desc->size);
    memcpy(params, finish->params_struct, finish->params_desc->size);
    *ta_params_int32(finish, params, "input_height") = s->pad_top;
    *ta_params_int32(finish, params, "filter_height") = s->pad_top;
    *ta_params_int32(finish, params, "pad_height") = 0;
    *ta_params_int32(finish, params, "output_height") = 1;
    Band band = {tensor_address(x, chain->sums),
                 (uint8_t *)tensor_address(x, chain->buffers[chain->num_ops]) + s->out_offset, NULL,
                 -1};
    return call_kernel_band(x, op, finish, params, &band);
}

/* A row chain's steps (row streaming: docs/row-streaming.md), as the
   module's chain runner walks them. */
static bool run_row_chain(const Exec *x, const TaRowChain *chain)
{
    for (int i = 0; i < chain->steps.len; i++) {
        const TaRowStep *s = chain->steps.items[i];
        if (s->op == TA_ROW_PUSH) { /* row-push input: the run's rows */
            const size_t rb = (size_t)chain->buffers[0]->dims[2] * chain->buffers[0]->dims[3];
            uint8_t *at = tensor_address(x, chain->buffers[0]);
            TA_ASSERT(at && x->push_input);
            memcpy(at + s->out_offset, x->push_input + (size_t)s->in_row * rb,
                   (size_t)s->in_rows * rb);
            continue;
        }
        if (s->op < 0) {
            uint8_t *at = tensor_address(x, chain->buffers[s->buffer]);
            memmove(at + s->out_offset, at + s->in_offset, s->move_bytes);
            continue;
        }
        const TaOp *op = TA_OP(x->graph, chain->first_op + s->op);
        const TaKernelCall *call = ta_row_band_call(x->graph, chain, s->op);
        TA_ASSERT(call && call->params_desc);
        void *params = ta_alloc(x->pool, call->params_desc->size);
        memcpy(params, call->params_struct, call->params_desc->size);
        const TaTensor *out_t = chain->buffers[s->op + 1];
        /* a summing pool's band has no top padding (pad_top: see below) */
        const int32_t pad_top = call == chain->rows_call ? 0 : s->pad_top;
        const bool narrowed = ta_row_band_params(call, params, s->in_rows, pad_top, s->out_rows) ||
                              ta_row_band_elementwise(
                                  call, params, s->out_rows * out_t->dims[2] * out_t->dims[3]);
        TA_ASSERT(narrowed);
        uint8_t *in = tensor_address(x, chain->buffers[chain->input_buffer[s->op]]);
        /* a summing pool's band adds to its sums (out_offset: the output
           row it may complete, finish_pool_row) */
        uint8_t *out = call == chain->rows_call
                           ? tensor_address(x, chain->sums)
                           : (uint8_t *)tensor_address(x, chain->buffers[s->op + 1]) +
                                 s->out_offset;
        Band band = {in + s->in_offset, out, NULL, -1};
        const int second = chain->second_buffer[s->op];
        if (second >= 0) {
            band.second_arg = argument_of(call, chain->buffers[second]);
            band.second = (uint8_t *)tensor_address(x, chain->buffers[second]) + s->second_offset;
            TA_ASSERT(band.second_arg > 0);
        }
        if (!call_kernel_band(x, op, call, params, &band))
            return false;
        if (call == chain->rows_call && chain->sums_per_row && s->pad_top &&
            !finish_pool_row(x, chain, op, s))
            return false;
    }
    if (ta_row_chain_finishes_at_end(chain))
        return call_kernel(x, TA_OP(x->graph, chain->first_op + chain->num_ops - 1),
                           chain->finish_call);
    return true;
}

static bool call_kernel_band(const Exec *x, const TaOp *op, const TaKernelCall *call, void *params,
                             const Band *band)
{
    const TaKernelEntry *k = ta_kernel_find(call->function);
    if (!k) {
        ta_error(x->diag, "test case: %s calls %s, which the executor does not know",
                 ta_op_describe(x->pool, op), call->function);
        return false;
    }
    if (k->arity != call->args.len) {
        ta_error(x->diag, "test case: %s passes %d arguments to %s, which takes %d",
                 ta_op_describe(x->pool, op), call->args.len, call->function, k->arity);
        return false;
    }
    TA_ASSERT(k->arity <= MAX_KERNEL_ARGS);
    void *args[MAX_KERNEL_ARGS];
    for (int a = 0; a < call->args.len; a++)
        args[a] = tensor_address(x, call->args.items[a]);
    if (band) {
        args[0] = band->in;
        args[call->args.len - 1] = band->out;
        if (band->second_arg > 0)
            args[band->second_arg] = band->second;
    }
    int status = k->call(params, args);
    if (status != 0) {
        ta_error(x->diag,
                 "test case: %s: %s returned status %d on the host with the "
                 "test stimulus (test.inputs gives another one)",
                 ta_op_describe(x->pool, op), call->function, status);
        return false;
    }
    return true;
}

/* The layer of the marker that closes the block `from` opens or
   continues (IF_BEGIN -> IF_ELSE or IF_END, IF_ELSE -> IF_END,
   LOOP_TEST -> LOOP_END), or that opens the loop LOOP_END closes. */
static int matching_marker(const TaGraph *g, int from)
{
    TaControl c = TA_OP(g, from)->control;
    int depth = 0;
    if (c == TA_CONTROL_LOOP_END) {
        for (int i = from - 1; i >= 0; i--) {
            TaControl m = TA_OP(g, i)->control;
            if (m == TA_CONTROL_IF_END || m == TA_CONTROL_LOOP_END)
                depth++;
            else if (m == TA_CONTROL_IF_BEGIN || m == TA_CONTROL_LOOP_BEGIN) {
                if (depth == 0)
                    return i;
                depth--;
            }
        }
    } else {
        for (int i = from + 1; i < g->ops.len; i++) {
            TaControl m = TA_OP(g, i)->control;
            if (m == TA_CONTROL_IF_BEGIN || m == TA_CONTROL_LOOP_BEGIN)
                depth++;
            else if (m == TA_CONTROL_IF_END || m == TA_CONTROL_LOOP_END) {
                if (depth == 0)
                    return i;
                depth--;
            } else if (m == TA_CONTROL_IF_ELSE && depth == 0 && c == TA_CONTROL_IF_BEGIN)
                return i;
        }
    }
    ta_unreachable();
    return g->ops.len;
}

/* The layer to run after marker `i`, as the generated C would go on. */
static int after_marker(const Exec *x, int i)
{
    const TaOp *op = TA_OP(x->graph, i);
    /* IF and the loop test always have their bool (the inliner sets it). */
    const uint8_t *cond = op->control_cond ? tensor_address(x, op->control_cond) : NULL;
    const bool taken = cond && cond[0];
    switch (op->control) {
    case TA_CONTROL_IF_BEGIN: return taken ? i + 1 : matching_marker(x->graph, i) + 1;
    case TA_CONTROL_IF_ELSE: return matching_marker(x->graph, i) + 1; /* the then branch ran */
    case TA_CONTROL_LOOP_TEST: return taken ? i + 1 : matching_marker(x->graph, i) + 1;
    case TA_CONTROL_LOOP_END: return matching_marker(x->graph, i) + 1;
    case TA_CONTROL_IF_END:
    case TA_CONTROL_LOOP_BEGIN:
    case TA_CONTROL_NONE: break;
    }
    return i + 1;
}

static bool run_role(Exec *x, const char *role)
{
    bool run = strcmp(role, "run") == 0;
    x->loop_iterations = 0;
    for (int i = 0; i < x->graph->ops.len;) {
        const TaOp *op = TA_OP(x->graph, i);
        if (run && op->control == TA_CONTROL_LOOP_END &&
            ++x->loop_iterations > x->max_loop_iterations) {
            ta_error(x->diag,
                     "test case: %s went round more than %llu times in run %d "
                     "(test.max_loop_iterations): a WHILE that never ends has no expected "
                     "outputs; raise the limit, or give test.inputs that end the loop",
                     ta_op_describe(x->pool, TA_OP(x->graph, matching_marker(x->graph, i))),
                     (unsigned long long)x->max_loop_iterations, x->run + 1);
            return false;
        }
        if (run && op->control != TA_CONTROL_NONE) {
            i = after_marker(x, i);
            continue;
        }
        i++;
        if (run && op->row_chain) {
            if (op->row_chain_pos == 0 && !run_row_chain(x, op->row_chain))
                return false;
            continue;
        }
        for (int k = 0; k < op->lowered.calls.len; k++) {
            const TaKernelCall *call = op->lowered.calls.items[k];
            if (strcmp(call->role, role) == 0 && !call_kernel(x, op, call))
                return false;
        }
    }
    return true;
}

bool ta_execute(TaPool *pool, TaDiag *diag, const TaGraph *graph, const TaPlan *plan, int runs,
                uint64_t max_loop_iterations, const uint8_t *const *inputs, uint8_t **outputs)
{
    Exec x = {.pool = pool,
              .diag = diag,
              .graph = graph,
              .plan = plan,
              .max_loop_iterations = max_loop_iterations};
    set_up_regions(&x);
    if (!run_role(&x, "init"))
        return false;
    int ni = graph->inputs.len, no = graph->outputs.len;
    for (int r = 0; r < runs; r++) {
        x.run = r;
        for (int i = 0; i < ni; i++) {
            const TaTensor *t = graph->inputs.items[i];
            void *at = tensor_address(&x, t);
            if (t->row_buffer_bytes) /* row-push input: pushed by the chain */
                x.push_input = inputs[r * ni + i];
            else if (at)
                memcpy(at, inputs[r * ni + i], ta_tensor_bytes(t));
        }
        if (!run_role(&x, "run"))
            return false;
        for (int o = 0; o < no; o++) {
            const TaTensor *t = graph->outputs.items[o];
            size_t n = ta_tensor_bytes(t);
            outputs[r * no + o] = ta_alloc(pool, n ? n : 1);
            const void *at = tensor_address(&x, t);
            if (at)
                memcpy(outputs[r * no + o], at, n);
        }
    }
    return true;
}
