/*
 * row_streaming.c - which operators run as row chains, and the row
 * buffers' sizes (row_streaming.h; docs/row-streaming.md).
 *
 * A chain is a run of consecutive layers, each a window kernel of this
 * list on int8 NHWC batch-1 tensors, each reading the one before's
 * output, which nothing else reads. The row buffers start at the rows one
 * window spans and grow a row at a time until the schedule fits; the
 * check then replays it. A run of such layers is split where whole
 * tensors need fewer bytes at once than row buffers. memory.row_streaming
 * picks which chains run: least_ram every one, auto those that save the
 * most bytes per added instruction within 10% of the model's instructions
 * (the estimate below), off none; row_plan.c then keeps them only if the
 * planned arena is smaller.
 */
#include "row_streaming.h"

#include "../lower/conv_entries.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* The kernels whose bands are exact: each computes output row oy from
   input rows oy * stride - pad_top on, rows outside [0, input_height)
   being padding, and precomputes nothing from the whole geometry. Every
   int8 CONV_2D entry and its fused-residual one (conv_entries.h; the
   residual a second input, read at the output's rows) is, and these: */
static const char *const band_kernels[] = {
    "ta_depthwise_conv_2d_s8",
    "ta_depthwise_conv_2d_s8_m1_fast",
    "ta_average_pool_s8",
    "ta_max_pool_s8",
    /* PAD: a window of one row, stride 1, its top padding the PAD's
       (ta_pad_rows.h; no filter or stride fields) */
    "ta_pad_rows_s8",
};
/* Instructions a band call costs beyond the rows it computes (parameter
   copy, call, the kernel's set-up), and bytes a move copies per
   instruction: the estimate `auto` weighs against the model's own, about
   one instruction per two MACs. Fitted to stay above what the shared
   models' chains add on both boards, as a share of the model's
   instructions: person_detect's 242 extra calls and 92,928 bytes moved
   added 94,645 instructions on Cortex-M55 (estimate 107,932), the keyword
   spotter's 239 and 56,320 bytes 75,271 (6.1%; 6.8% on Cortex-M4;
   estimate 97,730, 7.4%); see docs/row-streaming.md. */
enum { CALL_INSTRUCTIONS = 350, BYTES_PER_MOVE_INSTRUCTION = 4, MAC_PER_INSTRUCTION = 2 };
/* The most operators one chain has (its step table numbers them and its
   moves, one a row buffer, in one field). */
enum { MAX_CHAIN_OPS = 254 };
/* The most pieces one run of window layers splits into. */
enum { TA_ROW_SEGMENTS_MAX = 256 };

static const TaKernelCall *run_call(const TaOp *op)
{
    const TaKernelCall *run = NULL;
    for (int k = 0; k < op->lowered.calls.len; k++) {
        const TaKernelCall *c = op->lowered.calls.items[k];
        if (strcmp(c->role, "run") != 0)
            continue;
        if (run)
            return NULL;
        run = c;
    }
    return run;
}

static bool band_kernel(const char *function)
{
    if (ta_conv_entry_or_fused(function))
        return true;
    for (size_t i = 0; i < TA_COUNT_OF(band_kernels); i++)
        if (strcmp(function, band_kernels[i]) == 0)
            return true;
    return false;
}

static bool nhwc_int8(const TaTensor *t)
{
    return t && t->dtype == TA_INT8 && t->rank == 4 && t->dims[0] == 1 && !t->data &&
           t->role == TA_REGION_SCRATCH;
}

static int32_t field(const TaKernelCall *c, const char *name, int32_t otherwise)
{
    const int32_t *v = ta_params_int32(c, c->params_struct, name);
    return v ? *v : otherwise;
}

/* A fused residual ADD's residual (operand 3), as the run call's one
   argument *arg: of the output's shape, not the window's input. */
static bool residual_arg(const TaOp *op, const TaKernelCall *c, int *arg)
{
    const TaTensor *r = op->num_inputs == 4 ? op->inputs[3] : NULL;
    if (!nhwc_int8(r) || r == op->inputs[0] || r == op->outputs[0] ||
        memcmp(r->dims, op->outputs[0]->dims, 4 * sizeof r->dims[0]) != 0)
        return false;
    *arg = -1;
    for (int a = 1; a + 1 < c->args.len; a++)
        if (c->args.items[a] == r) {
            if (*arg >= 0)
                return false;
            *arg = a;
        }
    return *arg >= 0;
}

/* Whether the run call's arguments between input and output are
   constants only (an activation's table): the same for every band. */
static bool middle_args_constant(const TaKernelCall *c)
{
    for (int a = 1; a + 1 < c->args.len; a++) {
        const TaTensor *t = c->args.items[a];
        if (t->role != TA_REGION_CONSTANT)
            return false;
    }
    return true;
}

/* An elementwise layer (ta_row_band_elements): a window of one row, the
   output's shape. A binary one (ADD, SUB, MUL of two same-shaped
   tensors) reads its second operand row for row; a unary one (an int8
   activation or requantization) reads its input only, and so does one
   whose second operand is a constant broadcast along the rows (ADD, SUB,
   MUL by a per-channel or scalar constant, PRELU's alpha): every band
   reads all of it, like a table. */
static bool elementwise_window(const TaOp *op, const TaKernelCall *c, TaRowWindow *w)
{
    const bool unary = ta_row_band_is_unary(c), broadcast = ta_row_band_is_broadcast(c);
    const TaTensor *a = op->num_inputs == (unary ? 1 : 2) ? op->inputs[0] : NULL;
    const TaTensor *constant = a && broadcast ? op->inputs[1] : NULL;
    const TaTensor *b = a && !unary && !broadcast ? op->inputs[1] : NULL, *out = op->outputs[0];
    if (broadcast && (!constant || constant->role != TA_REGION_CONSTANT || c->args.len != 3 ||
                      c->args.items[1] != constant))
        return false;
    if (!nhwc_int8(a) || (!unary && !broadcast && (!nhwc_int8(b) || a == b)) || a == out ||
        (!unary && c->args.len != 3) || c->args.len < 2 || c->args.items[0] != a ||
        c->args.items[c->args.len - 1] != out ||
        (unary ? !middle_args_constant(c) : !broadcast && c->args.items[1] != b) ||
        memcmp(a->dims, out->dims, 4 * sizeof a->dims[0]) != 0 ||
        (b && memcmp(b->dims, out->dims, 4 * sizeof b->dims[0]) != 0) ||
        (size_t)ta_row_band_elements(c) != ta_tensor_bytes(out) || out->dims[1] > UINT16_MAX ||
        ta_tensor_bytes(out) > INT32_MAX)
        return false;
    const size_t row = (size_t)out->dims[2] * (size_t)out->dims[3];
    *w = (TaRowWindow){.op = op,
                       .call = c,
                       .in_height = out->dims[1],
                       .out_height = out->dims[1],
                       .stride = 1,
                       .span = 1,
                       .in_row_bytes = row,
                       .out_row_bytes = row,
                       .second = b,
                       .second_input = b ? 1 : -1,
                       .second_arg = b ? 1 : -1,
                       .second_row_bytes = b ? row : 0};
    return true;
}

/* An average pool with one output row whose window spans every input
   row (the classifier head's): its input needs one row, not all. */
static bool summed_whole(const TaRowWindow *w)
{
    return w->out_height == 1 && w->span - w->pad >= w->in_height;
}

/* An average pool of more than one output row whose windows tile the
   input rows (stride = window height, every row in one window), summed
   band by band where that takes fewer bytes: one input row and the int32
   sums of an output row, against the window's rows. */
static bool summed_per_row(const TaRowWindow *w)
{
    const int64_t window_bytes = (int64_t)(w->span - 1) * (int64_t)w->in_row_bytes;
    return w->out_height > 1 && w->stride == w->span && w->pad < w->span &&
           (int64_t)w->out_height * w->span - w->pad >= w->in_height &&
           window_bytes > 4 * (int64_t)w->out_row_bytes;
}

/* The operator's window over rows, or false when it cannot run in bands. */
static bool row_window(const TaOp *op, TaRowWindow *w)
{
    const TaKernelCall *c = run_call(op);
    if (op->control == TA_CONTROL_NONE && c && !c->user && c->params_desc && op->num_outputs == 1 &&
        nhwc_int8(op->outputs[0]) && ta_row_band_elements(c))
        return elementwise_window(op, c, w);
    if (op->control != TA_CONTROL_NONE || !c || c->user || !c->params_desc ||
        !band_kernel(c->function) || op->num_outputs != 1 || op->num_inputs < 1 ||
        !nhwc_int8(op->inputs[0]) || !nhwc_int8(op->outputs[0]) || c->args.len < 2 ||
        c->args.items[0] != op->inputs[0] || c->args.items[c->args.len - 1] != op->outputs[0] ||
        field(c, "batches", 1) != 1)
        return false;
    for (int a = 1; a + 1 < c->args.len; a++)
        if (c->args.items[a] == op->inputs[0] || c->args.items[a] == op->outputs[0])
            return false;
    const TaTensor *in = op->inputs[0], *out = op->outputs[0];
    int second_arg = -1;
    if (op->rewrites.residual_add && !residual_arg(op, c, &second_arg))
        return false;
    *w = (TaRowWindow){
        .op = op,
        .call = c,
        .in_height = field(c, "input_height", -1),
        .out_height = field(c, "output_height", -1),
        .stride = field(c, "stride_height", 1),
        .pad = field(c, ta_row_band_pad_field(c), -1),
        .span = (field(c, "filter_height", 1) - 1) * field(c, "dilation_height", 1) + 1,
        .in_row_bytes = (size_t)in->dims[2] * (size_t)in->dims[3],
        .out_row_bytes = (size_t)out->dims[2] * (size_t)out->dims[3],
        .second = second_arg < 0 ? NULL : op->inputs[3],
        .second_input = second_arg < 0 ? -1 : 3,
        .second_arg = second_arg,
        .second_row_bytes = second_arg < 0 ? 0 : (size_t)out->dims[2] * (size_t)out->dims[3],
    };
    /* The step table's fields: rows in 16 bits, byte offsets in 32. */
    if (w->in_height != in->dims[1] || w->out_height != out->dims[1] || w->stride <= 0 ||
        w->pad < 0 || w->span <= 0 || w->in_row_bytes == 0 || w->out_row_bytes == 0 ||
        w->in_height > UINT16_MAX || w->out_height > UINT16_MAX || w->pad > UINT16_MAX ||
        ta_tensor_bytes(in) > UINT32_MAX || ta_tensor_bytes(out) > UINT32_MAX)
        return false;
    if (strcmp(c->function, "ta_average_pool_s8") == 0 && w->in_height > 1 &&
        (summed_whole(w) || summed_per_row(w))) {
        w->sums = true; /* summed band by band */
        w->sum_rows = w->out_height == 1 ? w->in_height : w->span;
        w->sum_pad = w->out_height == 1 ? 0 : w->pad;
        w->out_height = w->in_height;
        w->stride = w->span = 1;
        w->out_row_bytes = 1;
        w->pad = 0;
    }
    return true;
}

/* A summing pool's tensor of sums and its two calls (the pool's own
   parameters): rows_call on each band, finish_call once at the end. */
static void make_sums(TaPassCtx *ctx, TaRowChain *chain, const TaRowWindow *w)
{
    TaOp *op = (TaOp *)w->op;
    const TaTensor *out = op->outputs[0];
    const int32_t dims[1] = {out->dims[2] * out->dims[3]};
    chain->sums = ta_graph_new_tensor(
        ctx->pool, ctx->graph, ta_format(ctx->pool, "%s.row_sums", out->id), TA_INT32, 1, dims);
    chain->sums->role = TA_REGION_SCRATCH;
    chain->sums->owner = op;
    chain->plain_call = (TaKernelCall *)w->call;
    TaKernelCall *rows = ta_alloc(ctx->pool, sizeof *rows);
    TaKernelCall *finish = ta_alloc(ctx->pool, sizeof *finish);
    *rows = *chain->plain_call;
    *finish = *chain->plain_call;
    rows->function = "ta_average_pool_rows_s8";
    finish->function = "ta_average_pool_finish_s8";
    rows->header = finish->header = "runtime/kernels/ta_pool_rows.h";
    rows->args = (TaVec){0};
    finish->args = (TaVec){0};
    ta_vec_push(ctx->pool, &rows->args, op->inputs[0]);
    ta_vec_push(ctx->pool, &rows->args, chain->sums);
    ta_vec_push(ctx->pool, &finish->args, chain->sums);
    ta_vec_push(ctx->pool, &finish->args, op->outputs[0]);
    chain->rows_call = rows;
    chain->finish_call = finish;
    /* The bands' own parameters: every row of the band summed, a window's
       first band starting from zero (ta_average_pool_rows_s8); with more
       than one output row, the band completing a window has that window's
       rows in pad_top and writes its output row at out_offset. */
    const int last = chain->num_ops - 1, height = w->in_height;
    const size_t out_row = (size_t)out->dims[2] * (size_t)out->dims[3];
    chain->sums_per_row = out->dims[1] > 1;
    for (int i = 0; i < chain->steps.len; i++) {
        TaRowStep *s = chain->steps.items[i];
        if (s->op != last)
            continue;
        const int oy = (s->out_row + w->sum_pad) / w->sum_rows;
        const int top = oy * w->sum_rows - w->sum_pad, bottom = top + w->sum_rows;
        const int first = top < 0 ? 0 : top, end = bottom < height ? bottom : height;
        const bool completes = s->out_row + s->out_rows == end;
        s->pad_top = chain->sums_per_row && completes ? end - first : 0;
        s->out_rows = s->out_row == first;
        s->out_offset = chain->sums_per_row ? (size_t)oy * out_row : 0;
    }
}

/* How layer x reads t: 0 not at all, 1 only as a chain buffer (its
   window's input, operand 0 and the run call's first argument, or its
   second input), -1 otherwise too. */
static int reads_as_buffer(const TaRowWindow *x, const TaTensor *t)
{
    const TaOp *op = x->op;
    int reads = 0;
    for (int k = 0; k < op->num_inputs; k++)
        if (op->inputs[k] == t) {
            if (k != 0 && k != x->second_input)
                return -1;
            reads = 1;
        }
    for (int c = 0; c < op->lowered.calls.len; c++) {
        const TaKernelCall *call = op->lowered.calls.items[c];
        for (int a = 0; a < call->args.len; a++)
            if (call->args.items[a] == t && (call != x->call || (a != 0 && a != x->second_arg)))
                return -1;
    }
    return reads;
}

/* The last layer of the run w[0..n) that reads layer k's output, INT_MAX
   when anything else reads it (another operator, the application), it is
   shared with another tensor, or a layer reads it otherwise than as a
   chain buffer: it can be a row buffer of a chain only up to that layer. */
static int last_reader(const TaGraph *g, const TaRowWindow *w, int n, int k)
{
    const TaTensor *t = w[k].op->outputs[0];
    if (t->output_index >= 0 || t->input_index >= 0 || t->alias_of)
        return INT_MAX;
    for (int x = 0; x < g->tensors.len; x++)
        if (TA_TENSOR(g, x)->alias_of == t)
            return INT_MAX;
    int last = k;
    for (int x = 0; x < g->ops.len; x++) {
        const TaOp *op = TA_OP(g, x);
        const int at = op->index - w[0].op->index;
        if (op->control_cond == t)
            return INT_MAX;
        if (at >= 0 && at < n && w[at].op == op) {
            const int reads = op->outputs[0] == t ? 0 : reads_as_buffer(&w[at], t);
            if (reads < 0)
                return INT_MAX;
            last = reads && at > last ? at : last;
            continue;
        }
        for (int i = 0; i < op->num_inputs; i++)
            if (op->inputs[i] == t)
                return INT_MAX;
        for (int c = 0; c < op->lowered.calls.len; c++) {
            const TaKernelCall *call = op->lowered.calls.items[c];
            for (int a = 0; a < call->args.len; a++)
                if (call->args.items[a] == t && op != t->owner)
                    return INT_MAX;
        }
    }
    return last;
}

/* The layer of w[i..k) that writes t, or -1. */
static int writer(const TaRowWindow *w, int i, int k, const TaTensor *t)
{
    for (int m = i; m < k; m++)
        if (w[m].op->outputs[0] == t)
            return m;
    return -1;
}

/* The links of the run w[0..n), found once (the split weighs every
   piece): for each layer, the layer of the run writing its window's
   input and its second input (-1: none), and last_reader. */
typedef struct Links {
    int *in_at, *second_at, *last;
} Links;

static Links find_links(TaPassCtx *ctx, const TaRowWindow *w, int n)
{
    Links L = {ta_alloc_array(ctx->pool, (size_t)n + 1, sizeof(int)),
               ta_alloc_array(ctx->pool, (size_t)n + 1, sizeof(int)),
               ta_alloc_array(ctx->pool, (size_t)n + 1, sizeof(int))};
    for (int k = 0; k < n; k++) {
        L.in_at[k] = writer(w, 0, k, w[k].op->inputs[0]);
        L.second_at[k] = w[k].second ? writer(w, 0, k, w[k].second) : -1;
        L.last[k] = last_reader(ctx->graph, w, n, k);
    }
    return L;
}

/* Whether layers w[i..j] can run as one chain: each reads the chain's
   input or what a layer before it in the chain writes (its window and its
   second input), every output but the last is read only inside, and a
   summing pool comes last. */
static bool valid_segment(const TaRowWindow *w, const Links *L, int i, int j)
{
    const TaTensor *input = w[i].op->inputs[0];
    for (int k = i; k <= j; k++)
        if ((w[k].sums && k != j) || (L->in_at[k] < i && w[k].op->inputs[0] != input) ||
            (w[k].second && L->second_at[k] < i && w[k].second != input) ||
            (k < j && L->last[k] > j))
            return false;
    return true;
}

/* Whether layer `here` may join the run w[0..n): its window reads what a
   layer of the run writes, its second input too or the run's input. */
static bool joins(const TaRowWindow *w, int n, const TaRowWindow *here)
{
    return n && writer(w, 0, n, here->op->inputs[0]) >= 0 &&
           (!here->second || here->second == w[0].op->inputs[0] ||
            writer(w, 0, n, here->second) >= 0);
}

/* The chain's buffers: buffer k + 1 is layer k's output; each layer's
   window and second input read the chain's input (0) or a layer's. */
static void chain_buffers(TaPassCtx *ctx, TaRowChain *chain, const TaRowWindow *w, int n)
{
    chain->buffers = ta_alloc_array(ctx->pool, (size_t)n + 1, sizeof(TaTensor *));
    chain->input_buffer = ta_alloc_array(ctx->pool, (size_t)n + 1, sizeof(int));
    chain->second_buffer = ta_alloc_array(ctx->pool, (size_t)n + 1, sizeof(int));
    chain->buffers[0] = w[0].op->inputs[0];
    for (int k = 0; k < n; k++) {
        chain->buffers[k + 1] = w[k].op->outputs[0];
        chain->input_buffer[k] = writer(w, 0, k, w[k].op->inputs[0]) + 1;
        chain->second_buffer[k] = !w[k].second ? -1 : writer(w, 0, k, w[k].second) + 1;
    }
}

/* Schedules the chain of windows w[0..n) in the smallest row buffers it
   fits in (rows[j], j = 1..n-1, and j = 0 with row-push input: `push` and
   the chain starts at layer 0); NULL when none fits but whole tensors. */
static TaRowChain *schedule(TaPassCtx *ctx, const TaRowWindow *w, int n, bool push, int **rows_out)
{
    TaRowChain *chain = ta_alloc(ctx->pool, sizeof *chain);
    chain->first_op = w[0].op->index;
    chain->num_ops = n;
    chain_buffers(ctx, chain, w, n);
    int *rows = ta_alloc_array(ctx->pool, (size_t)n + 1, sizeof(int));
    chain->push_input = push && w[0].op->index == 0;
    for (int k = 0; k < n; k++) { /* the rows one window (or one row) of each reader spans */
        const int j = chain->input_buffer[k];
        const int span = w[k].span < w[k].in_height ? w[k].span : w[k].in_height;
        rows[j] = span > rows[j] ? span : rows[j];
        if (chain->second_buffer[k] > 0 && !rows[chain->second_buffer[k]])
            rows[chain->second_buffer[k]] = 1;
    }
    if (!chain->push_input)
        rows[0] = 0; /* the chain's input is whole */
    int short_buffer = -1;
    while (!ta_row_schedule(ctx->pool, chain, w, rows, false, &short_buffer)) {
        TA_ASSERT(short_buffer >= (chain->push_input ? 0 : 1) && short_buffer < n);
        if (rows[short_buffer] >= ta_row_buffer_height(w, short_buffer))
            return NULL;
        rows[short_buffer]++;
    }
    *rows_out = rows;
    return chain;
}

/* Checks the chain's schedule in its row buffers (memory.row_streaming_
   test_shortfall rows short, for tests) and sizes them. False after a
   diagnostic. */
static bool check_chain(TaPassCtx *ctx, const TaRowStreamingOptions *opt, TaRowChain *chain,
                        const TaRowWindow *w, int *rows)
{
    const int n = chain->num_ops, j0 = chain->push_input ? 0 : 1;
    for (int j = j0; j < n; j++)
        rows[j] -= opt->shortfall >= (uint64_t)rows[j] ? rows[j] - 1 : (int)opt->shortfall;
    /* Tests: run anyway (test_unchecked), a chain short of rows is
       scheduled in its buffers losing rows, so the module shows what a
       short buffer does to the outputs. */
    int short_buffer = -1;
    if (opt->shortfall && opt->test_unchecked &&
        !ta_row_schedule(ctx->pool, chain, w, rows, true, &short_buffer)) {
        ta_error(ctx->diag,
                 "%s: row chain at layer %d: memory.row_streaming_test_shortfall: buffer %d "
                 "loses every row a band reads",
                 ctx->model_path, chain->first_op, short_buffer);
        return false;
    }
    ta_row_share(ctx->pool, chain, w, rows, opt->test_share_all, opt->test_share_early);
    if (!ta_row_check(ctx->pool, ctx->diag, ctx->model_path, chain, w, rows, opt->test_unchecked))
        return false;
    chain->saved_bytes = 0;
    chain->buffer_rows = rows;
    for (int j = j0; j < n; j++) {
        TaTensor *t = chain->buffers[j];
        t->row_buffer_rows = rows[j];
        t->row_buffer_bytes = (size_t)rows[j] * ta_row_buffer_row_bytes(w, j);
        chain->saved_bytes += (int64_t)(ta_tensor_bytes(t) -
                                        (chain->shares[j] >= 0 ? 0 : t->row_buffer_bytes));
    }
    chain->added_instructions = (int64_t)(chain->calls - n) * CALL_INSTRUCTIONS +
                                chain->moved_bytes / BYTES_PER_MOVE_INSTRUCTION;
    if (w[n - 1].sums)
        make_sums(ctx, chain, &w[n - 1]);
    ta_row_loops(ctx->pool, chain, opt->loops);
    return ta_row_loops_check(ctx->pool, ctx->diag, ctx->model_path, chain);
}

static void undo(TaPassCtx *ctx, TaRowChain *c)
{
    ta_row_chain_mark(ctx->graph, c, false);
}

/* --verbose 3: the chain, its row buffers, calls and moves. */
static void describe(TaPassCtx *ctx, const TaRowChain *c)
{
    TaBuf b = {0};
    ta_buf_printf(&b, "row chain layers %d-%d: %d calls, %d moves (%lld bytes), saves %lld bytes;",
                  c->first_op, c->first_op + c->num_ops - 1, c->calls, c->moves,
                  (long long)c->moved_bytes, (long long)c->saved_bytes);
    for (int j = 1; j < c->num_ops; j++)
        ta_buf_printf(&b, " %s %d/%d rows", c->buffers[j]->id, c->buffers[j]->row_buffer_rows,
                      c->buffers[j]->dims[1]);
    ta_detail(ctx->diag, "%s", b.data);
    ta_buf_free(&b);
}

static bool take_segment(TaPassCtx *ctx, const TaRowStreamingOptions *opt, const TaRowWindow *w,
                         int n)
{
    if (n < 2)
        return true;
    int *rows = NULL;
    TaRowChain *chain = schedule(ctx, w, n, opt->push_input, &rows);
    if (!chain)
        return true;
    if (!check_chain(ctx, opt, chain, w, rows))
        return false;
    ta_row_chain_mark(ctx->graph, chain, true);
    ta_vec_push(ctx->pool, &ctx->graph->row_chains, chain);
    describe(ctx, chain);
    return true;
}

/* Bytes live while layers w[i..j] run: as one chain, its input, output
   and row buffers (rows: the whole run's schedule); alone, a layer's
   input and output. */
static int64_t segment_bytes(const TaRowWindow *w, const int *rows, int i, int j)
{
    int64_t bytes = (int64_t)ta_tensor_bytes(w[i].op->inputs[0]) +
                    (int64_t)ta_tensor_bytes(w[j].op->outputs[0]);
    for (int k = i + 1; k <= j; k++) /* buffer k: layer k - 1's output */
        bytes += (int64_t)rows[k] * (int64_t)w[k - 1].out_row_bytes;
    return bytes;
}

/* A run of window layers that could all be one chain, split where that
   needs fewer bytes at once: deep layers' rows are wide and few, so
   their row buffers, all live together, can outweigh whole tensors
   live one pair at a time. The split has the least peak of
   segment_bytes (dynamic programming over the cut points). */
static bool split_chain(TaPassCtx *ctx, const TaRowStreamingOptions *opt, const TaRowWindow *w,
                        const Links *L, int n)
{
    int *rows = NULL;
    if (n < 2 || !schedule(ctx, w, n, false, &rows))
        return true;
    int64_t *best = ta_alloc_array(ctx->pool, (size_t)n + 1, sizeof(int64_t));
    int *cut = ta_alloc_array(ctx->pool, (size_t)n + 1, sizeof(int));
    for (int j = 1; j <= n; j++) { /* best[j]: layers 0..j-1 */
        best[j] = -1;
        for (int i = j - 1; i >= 0; i--) {
            if (i < j - 1 && !valid_segment(w, L, i, j - 1))
                continue; /* a residual block cut through */
            const int64_t here = segment_bytes(w, rows, i, j - 1);
            const int64_t peak = i && best[i] > here ? best[i] : here;
            if (best[j] < 0 || peak < best[j]) {
                best[j] = peak;
                cut[j] = i;
            }
        }
    }
    int ends[TA_ROW_SEGMENTS_MAX], num = 0;
    for (int j = n; j > 0 && num < TA_ROW_SEGMENTS_MAX; j = cut[j])
        ends[num++] = j;
    for (int s = num - 1; s >= 0; s--) {
        const int from = cut[ends[s]];
        if (!take_segment(ctx, opt, w + from, ends[s] - from))
            return false;
    }
    return true;
}

/* The run w[0..n) of window layers as chains: the longest part from its
   first layer that can be one chain (a residual block whole), split as
   split_chain says, then the rest. */
static bool take_chain(TaPassCtx *ctx, const TaRowStreamingOptions *opt, const TaRowWindow *w,
                       int n)
{
    if (n < 2)
        return true;
    const Links L = find_links(ctx, w, n);
    for (int from = 0; from + 1 < n;) {
        int m = n - from;
        while (m >= 2 && !valid_segment(w, &L, from, from + m - 1))
            m--;
        if (m < 2) {
            from++;
            continue;
        }
        /* The piece's own links, its layers counted from w + from. */
        Links shifted = {ta_alloc_array(ctx->pool, (size_t)m + 1, sizeof(int)),
                         ta_alloc_array(ctx->pool, (size_t)m + 1, sizeof(int)),
                         ta_alloc_array(ctx->pool, (size_t)m + 1, sizeof(int))};
        for (int k = 0; k < m; k++) {
            shifted.in_at[k] = L.in_at[from + k] - from;
            shifted.second_at[k] = L.second_at[from + k] - from;
            shifted.last[k] = L.last[from + k] == INT_MAX ? INT_MAX : L.last[from + k] - from;
        }
        if (!split_chain(ctx, opt, w + from, &shifted, m))
            return false;
        from += m;
    }
    return true;
}

/* Saved bytes per added instruction, most first. */
static int by_yield(const void *a, const void *b)
{
    const TaRowChain *x = *(TaRowChain *const *)a, *y = *(TaRowChain *const *)b;
    const double rx = (double)x->saved_bytes / (double)(x->added_instructions + 1);
    const double ry = (double)y->saved_bytes / (double)(y->added_instructions + 1);
    return rx > ry ? -1 : rx < ry ? 1 : x->first_op - y->first_op;
}

/* auto's rule: the chains that save the most bytes per added instruction
   while all added stay within 10% of the model's instructions (its MACs
   over MAC_PER_INSTRUCTION); the others run layer by layer. */
static void keep_within_budget(TaPassCtx *ctx)
{
    TaGraph *g = ctx->graph;
    int64_t macs = 0, added = 0;
    for (int i = 0; i < g->ops.len; i++)
        macs += TA_OP(g, i)->lowered.has_macs ? TA_OP(g, i)->lowered.macs : 0;
    const int64_t budget = macs / MAC_PER_INSTRUCTION / 10;
    TaRowChain **order = ta_alloc_array(ctx->pool, (size_t)g->row_chains.len + 1, sizeof *order);
    for (int c = 0; c < g->row_chains.len; c++)
        order[c] = g->row_chains.items[c];
    qsort(order, (size_t)g->row_chains.len, sizeof *order, by_yield);
    for (int c = 0; c < g->row_chains.len; c++) {
        TaRowChain *chain = order[c];
        if (chain->push_input || added + chain->added_instructions <= budget) {
            added += chain->added_instructions;
            continue;
        }
        ta_detail(ctx->diag,
                  "row chain layers %d-%d left out: %lld more instructions (estimate) "
                  "would pass 10%% of the model's %lld",
                  chain->first_op, chain->first_op + chain->num_ops - 1,
                  (long long)chain->added_instructions, (long long)(macs / MAC_PER_INSTRUCTION));
        undo(ctx, chain);
        chain->num_ops = 0; /* dropped below */
    }
    int out = 0;
    for (int c = 0; c < g->row_chains.len; c++)
        if (((TaRowChain *)g->row_chains.items[c])->num_ops)
            g->row_chains.items[out++] = g->row_chains.items[c];
    g->row_chains.len = out;
}

static bool refuse_push(TaPassCtx *ctx, const char *input, const char *why)
{
    ta_error(ctx->diag, "%s: module.input_rows: push: model input %s: %s", ctx->model_path, input,
             why);
    return false;
}

/* Whether row-push input can apply: one model input, read only by layer 0
   as its input 0, that layer a window layer. False after the error. */
static bool push_applies(TaPassCtx *ctx, const TaRowStreamingOptions *opt)
{
    const TaGraph *g = ctx->graph;
    const TaTensor *in = g->inputs.len ? g->inputs.items[0] : NULL;
    const char *id = in ? in->id : "(none)";
    TaRowWindow w;
    if (strcmp(opt->mode, "off") == 0)
        return refuse_push(ctx, id, "needs memory.row_streaming auto or least_ram, not off");
    if (!in || g->inputs.len != 1)
        return refuse_push(ctx, id,
                           ta_format(ctx->pool, "row-push takes one model input, the model has %d",
                                     g->inputs.len));
    if (!g->ops.len || !row_window(TA_OP(g, 0), &w) || TA_OP(g, 0)->inputs[0] != in)
        return refuse_push(ctx, id, "layer 0 is no row-chain window layer reading it");
    for (int i = 0; i < g->ops.len; i++) {
        const TaOp *op = TA_OP(g, i);
        for (int k = 0; k < op->num_inputs; k++)
            if (op->inputs[k] == in && (i != 0 || k != 0))
                return refuse_push(ctx, id,
                                   ta_format(ctx->pool, "also read by layer %d (%s)", i, op->type));
    }
    if (in->output_index >= 0)
        return refuse_push(ctx, id, "it is also a model output");
    return true;
}

/* After the chains are taken: the one at layer 0 takes the input. */
static bool push_taken(TaPassCtx *ctx)
{
    const TaGraph *g = ctx->graph;
    for (int c = 0; c < g->row_chains.len; c++)
        if (((const TaRowChain *)g->row_chains.items[c])->push_input)
            return true;
    return refuse_push(ctx, ((const TaTensor *)g->inputs.items[0])->id,
                       "layer 0 starts no row chain (it runs alone)");
}

bool ta_row_streaming(TaPassCtx *ctx, const TaRowStreamingOptions *opt)
{
    TaGraph *g = ctx->graph;
    g->row_chains.len = 0;
    if (opt->push_input && !push_applies(ctx, opt))
        return false;
    if (strcmp(opt->mode, "off") == 0)
        return true;
    TaRowWindow *w = ta_alloc_array(ctx->pool, (size_t)g->ops.len + 1, sizeof *w);
    int n = 0;
    for (int i = 0; i < g->ops.len; i++) {
        TaRowWindow here;
        if (!row_window(TA_OP(g, i), &here)) {
            if (!take_chain(ctx, opt, w, n))
                return false;
            n = 0;
            continue;
        }
        if (n && !joins(w, n, &here)) {
            if (!take_chain(ctx, opt, w, n))
                return false;
            n = 0;
        }
        if (n == MAX_CHAIN_OPS) {
            if (!take_chain(ctx, opt, w, n))
                return false;
            n = 0;
        }
        w[n++] = here;
        if (here.sums) { /* its output is no row buffer: the chain ends */
            if (!take_chain(ctx, opt, w, n))
                return false;
            n = 0;
        }
    }
    if (!take_chain(ctx, opt, w, n))
        return false;
    if (strcmp(opt->mode, "auto") == 0)
        keep_within_budget(ctx);
    if (opt->push_input && !push_taken(ctx))
        return false;
    ta_graph_compact(ctx->pool, g); /* the sums of chains left out */
    return true;
}
