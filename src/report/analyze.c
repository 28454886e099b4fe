/*
 * analyze.c - per operator and per memory figures for `tinyaot analyze`
 * and the summary convert prints, and the flash estimate.
 *
 * The flash estimate is a model, not a measurement of this module: the
 * runtime sources it uses at their size measured once for Cortex-M55
 * (flash_sizes.inc, by scripts/flash_sizes.py), a per-operator size for
 * the generated code fitted on shared models, and the constant bytes.
 * The stack figures are measured the same way: each kernel's deepest call
 * chain as gcc's call graph gives it (flash_sizes.inc again).
 */
#include "analyze.h"

#include "../lower/runtime_files.h"

#include <string.h>

/* The cores flash_sizes.inc measures, in the order of its columns. */
static const char *const flash_cores[] = {"cortex-m55", "cortex-m4", "host"};
#define FLASH_CORES 3

typedef struct KernelSize {
    const char *path;
    int64_t bytes[FLASH_CORES]; /* -1: not measured for that core */
} KernelSize;

typedef struct FlashCore {
    const char *core;
    int per_operator, fixed; /* generated code: bytes per operator and fixed */
} FlashCore;

/* flash_sizes.inc is read once per table; its #defines repeat
   identically, which C allows. */
#define TA_FLASH_CORE(core, per_operator, fixed)
#define TA_KERNEL_SIZE(path, m55, m4, host) {path, {m55, m4, host}},
#define TA_KERNEL_STACK(function, m55, m4)
static const KernelSize kernel_sizes[] = {
#include "flash_sizes.inc"
};
#undef TA_FLASH_CORE
#undef TA_KERNEL_SIZE
#undef TA_KERNEL_STACK

#define TA_FLASH_CORE(core, per_operator, fixed) {core, per_operator, fixed},
#define TA_KERNEL_SIZE(path, m55, m4, host)
#define TA_KERNEL_STACK(function, m55, m4)
static const FlashCore flash_core_code[] = {
#include "flash_sizes.inc"
};
#undef TA_FLASH_CORE
#undef TA_KERNEL_SIZE
#undef TA_KERNEL_STACK

typedef struct KernelStack {
    const char *function;
    int64_t m55, m4;
} KernelStack;

#define TA_FLASH_CORE(core, per_operator, fixed)
#define TA_KERNEL_SIZE(path, m55, m4, host)
#define TA_KERNEL_STACK(function, m55, m4) {function, m55, m4},
static const KernelStack kernel_stacks[] = {
#include "flash_sizes.inc"
};
#undef TA_FLASH_CORE
#undef TA_KERNEL_SIZE
#undef TA_KERNEL_STACK

static const KernelStack *kernel_stack(const char *function)
{
    for (size_t i = 0; i < TA_COUNT_OF(kernel_stacks); i++)
        if (strcmp(kernel_stacks[i].function, function) == 0)
            return &kernel_stacks[i];
    return NULL;
}

/* Adds `name` to `names` unless it is there already. */
static void add_once(TaPool *pool, TaVec *names, const char *name)
{
    for (int i = 0; i < names->len; i++)
        if (strcmp(names->items[i], name) == 0)
            return;
    ta_vec_push(pool, names, ta_strdup(pool, name));
}

/* The names, comma-separated. */
static const char *joined(TaPool *pool, const TaVec *names)
{
    const char *text = "";
    for (int i = 0; i < names->len; i++)
        text = ta_format(pool, "%s%s%s", text, i ? ", " : "", (const char *)names->items[i]);
    return text;
}

/* A kernel's figure with what gcc's call graph does not see: the fused
   residual ADD's entries call their convolution's entry through a
   pointer (ta_conv_2d_add.c), so that entry's figure comes on top. */
static void deepest(const KernelStack *s, int64_t *m55, int64_t *m4)
{
    static const char *const through_pointer[][2] = {
        {"ta_conv_2d_add_s8", "ta_conv_2d_s8"},
        {"ta_conv_2d_add_s8_interleaved", "ta_conv_2d_s8_interleaved"},
        {"ta_conv_2d_add_s8_columns", "ta_conv_2d_s8_columns"},
        {"ta_conv_2d_add_s8_long", "ta_conv_2d_s8_long"},
    };
    *m55 = s->m55;
    *m4 = s->m4;
    for (size_t i = 0; i < TA_COUNT_OF(through_pointer); i++) {
        const KernelStack *callee = kernel_stack(through_pointer[i][1]);
        if (strcmp(s->function, through_pointer[i][0]) == 0 && callee) {
            *m55 += callee->m55;
            *m4 += callee->m4;
        }
    }
}

/* What a row chain's layer adds below its kernel: the chain runner's
   frame (its buffer table and loop) and the band function's copy of the
   kernel's parameters (docs/row-streaming.md). */
static int64_t row_chain_frames(const TaOp *op, const TaKernelCall *c)
{
    enum { RUNNER_FRAME = 48 };
    if (!op->row_chain)
        return 0;
    return RUNNER_FRAME + 4 * ((int64_t)op->row_chain->num_ops + 1) +
           (c->params_desc ? (int64_t)c->params_desc->size : 0);
}

/* Per operator the deepest of its kernels; for the module the deepest
   operator. A kernel flash_sizes.inc has no figure for is named in the
   basis as unmeasured, never counted as 0 silently. */
void ta_kernel_stack_estimate(TaPool *pool, const TaGraph *g, tinyaot_analysis *a,
                              tinyaot_operator_analysis *ops)
{
    TaVec unmeasured = {0};
    a->kernel_stack_layer = -1;
    for (int i = 0; i < g->ops.len; i++) {
        const TaOp *op = TA_OP(g, i);
        for (int k = 0; k < op->lowered.calls.len; k++) {
            const TaKernelCall *c = op->lowered.calls.items[k];
            const KernelStack *s = kernel_stack(c->function);
            if (!s) {
                add_once(pool, &unmeasured, c->function);
                continue;
            }
            int64_t m55, m4;
            deepest(s, &m55, &m4);
            m55 += row_chain_frames(op, c);
            m4 += row_chain_frames(op, c);
            if (m55 > ops[i].kernel_stack_m55)
                ops[i].kernel_stack_m55 = m55;
            if (m4 > ops[i].kernel_stack_m4)
                ops[i].kernel_stack_m4 = m4;
        }
        if (ops[i].kernel_stack_m55 > a->kernel_stack_m55) {
            a->kernel_stack_m55 = ops[i].kernel_stack_m55;
            a->kernel_stack_layer = op->index;
        }
        if (ops[i].kernel_stack_m4 > a->kernel_stack_m4)
            a->kernel_stack_m4 = ops[i].kernel_stack_m4;
    }
    a->kernel_stack_basis = ta_format(
        pool,
        "measured once per kernel: its frame and its deepest call chain in gcc's call graph "
        "(arm-none-eabi-gcc -O2 -fcallgraph-info=su; library calls such as memcpy count 0), "
        "a fused residual ADD's convolution entry added (called through a pointer), a row "
        "chain's runner and band frames added%s; the caller's frames (model_run, the "
        "operator's function) come on top",
        unmeasured.len ? ta_format(pool,
                                   "; unmeasured, not counted (scripts/flash_sizes.py has no "
                                   "figure for them): %s",
                                   joined(pool, &unmeasured))
                       : "");
}

/* The column of flash_sizes.inc for the target's core, or -1. */
static int flash_core(const char *core)
{
    for (int i = 0; i < FLASH_CORES; i++)
        if (core && strcmp(core, flash_cores[i]) == 0)
            return i;
    return -1;
}

/* Bytes of a runtime source for core column `core`, or -1: not measured. */
static int64_t kernel_bytes(const char *path, int core)
{
    for (size_t i = 0; core >= 0 && i < TA_COUNT_OF(kernel_sizes); i++)
        if (strcmp(kernel_sizes[i].path, path) == 0)
            return kernel_sizes[i].bytes[core];
    return -1;
}

static const char *flash_basis(TaPool *pool, const char *core, int column, const TaVec *unmeasured)
{
    if (column < 0)
        return ta_format(pool,
                         "estimate: no sizes measured for core %s (scripts/flash_sizes.py "
                         "measures %s, %s and %s): kernels and generated code unmeasured, "
                         "only the constant bytes counted",
                         core ? core : "?", flash_cores[0], flash_cores[1], flash_cores[2]);
    return ta_format(pool,
                     "estimate: runtime sources used at their %s -O2 object size "
                     "(measured once, an upper bound: the linker drops unused functions)%s, "
                     "%d bytes per operator of generated code (fitted on %s), and the "
                     "constant bytes",
                     core,
                     unmeasured->len ? ta_format(pool, "; unmeasured for %s, not counted: %s", core,
                                                 joined(pool, unmeasured))
                                     : "",
                     flash_core_code[column].per_operator, TA_FLASH_MEASURED_ON);
}

static void flash_estimate(TaPool *pool, const TaGraph *g, const TaPlan *plan, tinyaot_analysis *a)
{
    TaDiag quiet = {0};
    TaVec files = {0};
    TaVec unmeasured = {0};
    const char *core = plan->target->core;
    const int column = flash_core(core);
    /* The file list cannot fail for a graph that lowered; if it did, the
       kernels count 0 and the basis says so. */
    /* The caller's pool, not one of our own: a failed allocation jumps
       out of here, and only the conversion's pools are freed then. */
    quiet.pool = pool;
    if (ta_runtime_files(pool, &quiet, g, &files))
        for (int i = 0; i < files.len; i++) {
            const char *path = files.items[i];
            size_t n = strlen(path);
            if (path[n - 1] != 'c')
                continue;
            int64_t bytes = kernel_bytes(path, column);
            if (bytes < 0)
                ta_vec_push(pool, &unmeasured, ta_strdup(pool, path));
            else
                a->flash_kernels += bytes;
        }
    if (column >= 0)
        a->flash_code = flash_core_code[column].fixed +
                        (int64_t)flash_core_code[column].per_operator * g->ops.len;
    a->flash_unmeasured = (const char *const *)unmeasured.items;
    a->num_flash_unmeasured = (size_t)unmeasured.len;
    for (int i = 0; i < plan->regions.len; i++) {
        const TaRegion *r = plan->regions.items[i];
        if (r->role == TA_REGION_CONSTANT)
            a->flash_constants += (int64_t)(r->staged ? r->source_guard : r->guard) +
                                  (int64_t)r->size;
    }
    a->flash_total = a->flash_code + a->flash_kernels + a->flash_constants;
    a->flash_basis = flash_basis(pool, core, column, &unmeasured);
}

static void memory_summaries(TaPool *pool, const TaPlan *plan, tinyaot_analysis *a)
{
    const TaTarget *t = plan->target;
    tinyaot_memory_summary *mem = ta_alloc_array(pool, TA_MEM_COUNT, sizeof *mem);
    const char **planners = ta_alloc_array(pool, TA_MEM_COUNT, sizeof *planners);
    int *proven = ta_alloc_array(pool, TA_MEM_COUNT, sizeof *proven);
    size_t n = 0;
    for (int m = 0; m < TA_MEM_COUNT; m++) {
        if (!t->memories[m])
            continue;
        tinyaot_memory_summary *s = &mem[n++];
        const TaMemoryUse *u = &plan->memories[m];
        s->memory = ta_memory_name(m);
        s->usable = u->usable;
        s->used = (int64_t)u->used;
        s->budget = (int64_t)u->budget;
        s->free = s->budget - s->used;
        for (int i = 0; i < plan->regions.len; i++) {
            const TaRegion *r = plan->regions.items[i];
            int64_t bytes = (int64_t)(r->guard + r->size);
            if (r->staged && r->source_memory == m)
                s->staged_sources += (int64_t)(r->source_guard + r->size);
            if (r->memory != m)
                continue;
            if (r->role == TA_REGION_SCRATCH) {
                s->scratch += (int64_t)r->size; /* comparable with the lower bound */
                s->scratch_lower_bound += (int64_t)r->lower_bound;
                planners[n - 1] = r->planner;
                proven[n - 1] = r->proven;
            } else if (r->role == TA_REGION_PERSISTENT) {
                s->persistent += bytes;
            } else if (r->staged) {
                s->staged += bytes;
            } else {
                s->constants += bytes;
            }
        }
    }
    a->memories = mem;
    a->num_memories = n;
    a->scratch_planners = planners;
    a->scratch_proven = proven;
}

/* Row streaming: each chain's layers, row buffers, RAM saved and the
   instructions its bands and moves add (the conversion's estimate). */
static void row_chains(TaPool *pool, const TaGraph *g, tinyaot_analysis *a)
{
    tinyaot_row_chain *out = ta_alloc_array(pool, (size_t)g->row_chains.len + 1, sizeof *out);
    for (int c = 0; c < g->row_chains.len; c++) {
        const TaRowChain *ch = g->row_chains.items[c];
        tinyaot_row_chain *o = &out[c];
        /* With row-push input the chain's input is a row buffer too. */
        const size_t first = ch->push_input ? 0 : 1;
        const size_t n = (size_t)ch->num_ops - first;
        const char **ids = ta_alloc_array(pool, n + 1, sizeof(char *));
        int *rows = ta_alloc_array(pool, n + 1, sizeof(int));
        int *heights = ta_alloc_array(pool, n + 1, sizeof(int));
        int64_t *bytes = ta_alloc_array(pool, n + 1, sizeof(int64_t));
        int *readers = ta_alloc_array(pool, n + 1, sizeof(int));
        int *residual_of = ta_alloc_array(pool, n + 1, sizeof(int));
        const char **shares = ta_alloc_array(pool, n + 1, sizeof(char *));
        for (size_t j = 0; j < n; j++) {
            const int b = (int)(j + first); /* the chain's buffer index */
            const TaTensor *t = ch->buffers[b];
            ids[j] = ta_strdup(pool, t->id);
            rows[j] = t->row_buffer_rows;
            heights[j] = t->dims[1];
            bytes[j] = (int64_t)t->row_buffer_bytes;
            residual_of[j] = -1;
            if (ch->shares && ch->shares[b] >= 0)
                shares[j] = ta_strdup(pool, ch->buffers[ch->shares[b]]->id);
            for (int k = 0; k < ch->num_ops; k++) {
                readers[j] += (ch->input_buffer[k] == b) + (ch->second_buffer[k] == b);
                if (ch->second_buffer[k] == b)
                    residual_of[j] = ch->first_op + k;
            }
        }
        *o = (tinyaot_row_chain){.first_layer = ch->first_op,
                                 .last_layer = ch->first_op + ch->num_ops - 1,
                                 .ram_saved = ch->saved_bytes,
                                 .calls = ch->calls,
                                 .moves = ch->moves,
                                 .moved_bytes = ch->moved_bytes,
                                 .added_instructions = ch->added_instructions,
                                 .num_buffers = n,
                                 .buffer_ids = ids,
                                 .buffer_rows = rows,
                                 .buffer_heights = heights,
                                 .buffer_bytes = bytes,
                                 .buffer_readers = readers,
                                 .buffer_residual_of = residual_of,
                                 .buffer_shares = shares};
    }
    a->row_chains = out;
    a->num_row_chains = (size_t)g->row_chains.len;
    a->row_arena_with = (int64_t)g->row_arena_with;
    a->row_arena_without = (int64_t)g->row_arena_without;
}

const tinyaot_analysis *ta_build_analysis(TaPool *pool, const TaGraph *g, const TaPlan *plan)
{
    tinyaot_analysis *a = ta_alloc(pool, sizeof *a);
    a->platform = ta_strdup(pool, plan->target->name);
    const int n = g->ops.len;
    tinyaot_operator_analysis *ops = ta_alloc_array(pool, (size_t)n + 1, sizeof *ops);
    /* Scratch bytes live at operator i: every scratch block (roots only;
       aliases share their root's bytes) whose lifetime spans it, summed as
       a difference array (+size where it starts, -size after it ends) so
       the cost is linear in operators plus tensors. */
    int64_t *delta = ta_alloc_array(pool, (size_t)n + 1, sizeof *delta);
    for (int k = 0; k < g->tensors.len; k++) {
        const TaTensor *t = TA_TENSOR(g, k);
        const TaRegion *r = t->place.region;
        if (t->removed || t->alias_of || !r || r->role != TA_REGION_SCRATCH)
            continue;
        const int from = t->first_use < 0 ? 0 : t->first_use;
        const int to = t->last_use >= n ? n - 1 : t->last_use;
        if (from > to)
            continue;
        delta[from] += (int64_t)t->place.size;
        delta[to + 1] -= (int64_t)t->place.size;
    }
    int *removed = ta_alloc_array(pool, (size_t)n + 1, sizeof(int));
    int *folded = ta_alloc_array(pool, (size_t)n + 1, sizeof(int));
    int64_t live = 0;
    for (int i = 0; i < n; i++) {
        const TaOp *op = TA_OP(g, i);
        tinyaot_operator_analysis *o = &ops[i];
        removed[i] = op->rewrites.sparse_removed;
        folded[i] = op->rewrites.sparse_folded;
        live += delta[i];
        o->scratch_live = live;
        for (int k = 0; k < op->num_outputs; k++)
            o->output_bytes += (int64_t)ta_tensor_bytes(op->outputs[k]);
        if (op->num_outputs > 0 && op->outputs[0]->place.region)
            o->output_memory = ta_memory_name(op->outputs[0]->place.memory);
        o->has_macs = op->lowered.has_macs || op->lowered.has_analysis_macs;
        o->macs = op->lowered.has_macs            ? op->lowered.macs
                  : op->lowered.has_analysis_macs ? op->lowered.analysis_macs
                                                  : 0;
        a->total_macs += o->macs;
    }
    a->operators = ops;
    a->channels_removed = removed;
    a->channels_folded = folded;
    row_chains(pool, g, a);
    memory_summaries(pool, plan, a);
    flash_estimate(pool, g, plan, a);
    ta_kernel_stack_estimate(pool, g, a, ops);
    return a;
}

const tinyaot_analysis *ta_build_unsupported(TaPool *pool, const TaTarget *target,
                                             const TaDiag *diag, int first_line)
{
    tinyaot_analysis *a = ta_alloc(pool, sizeof *a);
    a->platform = ta_strdup(pool, target->name);
    int n = diag->lines.len - first_line;
    const char **lines = ta_alloc_array(pool, (size_t)(n > 0 ? n : 0) + 1, sizeof(char *));
    size_t k = 0;
    for (int i = first_line; i < diag->lines.len; i++) {
        const char *line = diag->lines.items[i];
        if (strncmp(line, "error: ", 7) != 0)
            continue; /* warnings are not operators */
        lines[k++] = ta_strdup(pool, line + 7);
    }
    a->unsupported = lines;
    a->num_unsupported = k;
    a->flash_basis = "";
    return a;
}
