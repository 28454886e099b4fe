/*
 * plan.c - the memory planner: lifetimes, rules, budgets, spilling,
 * offsets and regions. See plan.h for what it produces.
 *
 * Order of work, each step using what the previous one fixed:
 *   1. lifetimes of every tensor from the execution order;
 *   2. placement attributes from the rules;
 *   3. usable memories, their budgets and alignments;
 *   4. persistent tensors (small, fixed), then scratch tensors (packed by
 *      lifetime), then constants (cold or staged), each pinned to its rule's
 *      memory or spilled along the target's order when a budget is full;
 *   5. regions, sizes, guards, contents, and the budget check.
 */
#include "plan.h"

#include "../config/config.h"
#include "planners.h"
#include "rules.h"

#include <stdlib.h>
#include <string.h>

typedef struct Item {
    TaTensor *t; /* root tensor: owns the bytes */
    ta_region_role_t role;
    int memory;  /* where kernels access it; -1 until placed */
    int source;  /* constants: where the bytes are stored */
    bool pinned; /* a rule chose `memory` */
    bool staged; /* constant_destination_memory given */
    const TaRule *rule;
    TaVec ids; /* const char*: the root's id, its aliases', and the model tensors' they came from */
    TaVec names; /* const char*: the model names of the same tensors */
    TaTensorKeys keys;
    TaBlock block;
    /* Output over input (overlap.c): the producer's input this tensor's
       bytes overlap, the lead it keeps and why that is safe. */
    const TaTensor *overlaps;
    size_t overlap_lead;
    bool overlap_above;
    const char *overlap_why;
} Item;

typedef struct Planner {
    const TaPlanInput *in;
    TaPool *pool;
    TaDiag *d;
    TaPlan *plan;
    Item *items;
    int num_items;
    int num_ops;
    /* Bytes taken so far per memory by role, for spill decisions. */
    uint64_t persistent_bytes[TA_MEM_COUNT];
    uint64_t scratch_bytes[TA_MEM_COUNT];
    uint64_t constant_bytes[TA_MEM_COUNT];
    TaVec problems;                           /* Problem*: placement errors grouped for reporting */
    TaPackResult scratch_plans[TA_MEM_COUNT]; /* how repack_scratch did, per memory */
    TaPlanAttempt *attempt;                   /* budgets tried, the fix to name, what ran short */
} Planner;

/* Placement errors grouped by where they come from (a rule, or no rule)
   and their reason, so a rule that fails for 200 tensors is one line with
   a count and the fix, not 200 lines. */
typedef struct Problem {
    const char *group;  /* what makes two problems one */
    const char *where;  /* "file:line: memory.tensors[0]", or "" */
    const char *reason; /* the same for every tensor of the group */
    bool predicate;     /* reason reads "is scratch, but ..." after the subject */
    TaVec ids;          /* const char*: the tensors, in the order found */
} Problem;

/* Adds `id` to the group `group` (NULL: where + reason), which the first
   tensor of the group creates with its `where` and `reason`. */
static void problem_in(Planner *P, const char *group, const char *where, bool predicate,
                       const char *id, const char *reason)
{
    if (!group)
        group = ta_format(P->pool, "%s\n%s", where, reason);
    Problem *pr = NULL;
    for (int i = 0; i < P->problems.len && !pr; i++) {
        Problem *q = P->problems.items[i];
        if (strcmp(q->group, group) == 0)
            pr = q;
    }
    if (!pr) {
        pr = ta_alloc(P->pool, sizeof *pr);
        pr->group = group;
        pr->where = where;
        pr->reason = reason;
        pr->predicate = predicate;
        ta_vec_push(P->pool, &P->problems, pr);
    }
    ta_vec_push(P->pool, &pr->ids, (void *)id);
}

static void problem(Planner *P, const char *where, bool predicate, const char *id,
                    const char *reason)
{
    problem_in(P, NULL, where, predicate, id, reason);
}

/* One error per group: "tensor 7: ..." or "37 tensors (0, 1, 2, 3, 4 and 32
   more): ...". Clears the groups. */
static void report_problems(Planner *P)
{
    for (int i = 0; i < P->problems.len; i++) {
        const Problem *pr = P->problems.items[i];
        TaBuf subject = {0};
        if (pr->ids.len == 1) {
            ta_buf_printf(&subject, "tensor %s%s", (const char *)pr->ids.items[0],
                          pr->predicate ? "" : ":");
        } else {
            ta_buf_printf(&subject, "%d tensors (", pr->ids.len);
            for (int k = 0; k < pr->ids.len && k < 5; k++)
                ta_buf_printf(&subject, "%s%s", k ? ", " : "", (const char *)pr->ids.items[k]);
            if (pr->ids.len > 5)
                ta_buf_printf(&subject, " and %d more", pr->ids.len - 5);
            ta_buf_printf(&subject, "):%s", pr->predicate ? " each" : "");
        }
        ta_error(P->d, "%s%s%s %s", pr->where, *pr->where ? ": " : "", subject.data, pr->reason);
        ta_buf_free(&subject);
    }
    P->problems.len = 0;
}

static size_t align_up(size_t x, size_t a)
{
    return (x + a - 1) / a * a;
}

/* ---- 1. lifetimes --------------------------------------------------------- */

static void touch(TaTensor *t, int op)
{
    t = ta_tensor_root(t);
    if (t->first_use < 0 || op < t->first_use)
        t->first_use = op;
    if (op > t->last_use)
        t->last_use = op;
}

/* A WHILE loop runs its layers again: a tensor in use before the loop and
   read in it (the loop's values, anything the body reads from outside) must
   stay until the loop's last layer. Tensors made in the loop are made anew
   in each turn before they are read. Inner loops first, then outer ones. */
static void extend_across_loops(TaGraph *g)
{
    for (int end = 0; end < g->ops.len; end++) {
        if (TA_OP(g, end)->control != TA_CONTROL_LOOP_END)
            continue;
        int begin = end, depth = 0;
        for (; begin >= 0; begin--) {
            TaControl c = TA_OP(g, begin)->control;
            depth += c == TA_CONTROL_LOOP_END ? 1 : c == TA_CONTROL_LOOP_BEGIN ? -1 : 0;
            if (depth == 0)
                break;
        }
        TA_ASSERT(begin >= 0);
        for (int i = 0; i < g->tensors.len; i++) {
            TaTensor *t = TA_TENSOR(g, i);
            if (t->first_use >= 0 && t->first_use < begin && t->last_use >= begin &&
                t->last_use < end)
                t->last_use = end;
        }
    }
}

/* A row chain's operators run interleaved, band by band, from its first
   layer to its last: every tensor one of them touches (the chain's input
   and output, the row buffers, the kernels' own scratch) is live over the
   whole chain. */
static void extend_across_row_chains(TaGraph *g)
{
    for (int c = 0; c < g->row_chains.len; c++) {
        const TaRowChain *chain = g->row_chains.items[c];
        const int first = chain->first_op, last = chain->first_op + chain->num_ops - 1;
        if (TA_OP(g, first)->row_chain != chain)
            continue; /* planned without it (src/passes/row_plan.c) */
        for (int i = first; i <= last; i++) {
            const TaOp *op = TA_OP(g, i);
            for (int k = 0; k < op->num_inputs; k++)
                if (op->inputs[k] && !op->inputs[k]->data) {
                    touch(op->inputs[k], first);
                    touch(op->inputs[k], last);
                }
            for (int k = 0; k < op->num_outputs; k++) {
                touch(op->outputs[k], first);
                touch(op->outputs[k], last);
            }
            for (int k = 0; k < op->lowered.calls.len; k++) {
                const TaKernelCall *call = op->lowered.calls.items[k];
                for (int a = 0; a < call->args.len; a++)
                    if (call->args.items[a] && !((TaTensor *)call->args.items[a])->data) {
                        touch(call->args.items[a], first);
                        touch(call->args.items[a], last);
                    }
            }
        }
    }
}

static void compute_lifetimes(Planner *P)
{
    TaGraph *g = P->in->graph;
    for (int i = 0; i < g->tensors.len; i++)
        TA_TENSOR(g, i)->first_use = TA_TENSOR(g, i)->last_use = -1;
    for (int i = 0; i < g->ops.len; i++) {
        TaOp *op = TA_OP(g, i);
        for (int k = 0; k < op->num_inputs; k++)
            if (op->inputs[k])
                touch(op->inputs[k], i);
        for (int k = 0; k < op->num_outputs; k++)
            touch(op->outputs[k], i);
        for (int c = 0; c < op->lowered.calls.len; c++) {
            TaKernelCall *call = op->lowered.calls.items[c];
            for (int a = 0; a < call->args.len; a++)
                if (call->args.items[a])
                    touch(call->args.items[a], i);
        }
    }
    /* The application writes inputs before the run and reads outputs after
       it: inputs are live from the first operator, outputs to past the last.
       With memory.keep_inputs inputs are too, so that no tensor takes
       their bytes and a run leaves them as they were. */
    for (int i = 0; i < g->inputs.len; i++) {
        touch(g->inputs.items[i], 0);
        if (P->in->config->keep_inputs)
            touch(g->inputs.items[i], g->ops.len);
    }
    for (int i = 0; i < g->outputs.len; i++)
        touch(g->outputs.items[i], g->ops.len);
    extend_across_loops(g);
    extend_across_row_chains(g);
    P->num_ops = g->ops.len;
}

/* An operator that declared its output may overwrite an input (an
   elementwise kernel reading each element before writing it) gets the
   output placed on that input when nothing reads the input afterwards:
   the two share one block, which can take a plan below the lower bound
   the tensors would need apart. A model input is no exception (TFLite
   Micro reuses its bytes too); memory.keep_inputs keeps inputs live to
   the end instead. */
static bool share_inplace_outputs(Planner *P)
{
    TaGraph *g = P->in->graph;
    bool any = false;
    for (int i = 0; i < g->ops.len; i++) {
        TaOp *op = TA_OP(g, i);
        if (op->plan_hints.inplace_input < 0 || op->plan_hints.inplace_input >= op->num_inputs ||
            op->num_outputs != 1 || op->row_chain) /* a chain's rows are elsewhere in each */
            continue;
        TaTensor *in = op->inputs[op->plan_hints.inplace_input];
        TaTensor *out = op->outputs[0];
        if (!in || out->alias_of || out->role != TA_REGION_SCRATCH)
            continue;
        TaTensor *root = ta_tensor_root(in);
        if (root->role != TA_REGION_SCRATCH || root->last_use != i ||
            ta_tensor_planned_bytes(root) != ta_tensor_planned_bytes(out) || root == out)
            continue;
        out->alias_of = root;
        any = true;
    }
    return any;
}

/* ---- 2. items and rules ---------------------------------------------------- */

static void collect_items(Planner *P)
{
    TaGraph *g = P->in->graph;
    P->items = ta_alloc_array(P->pool, (size_t)g->tensors.len + 1, sizeof(Item));
    int *item_of = ta_alloc_array(P->pool, (size_t)g->tensors.len + 1, sizeof(int));
    for (int i = 0; i < g->tensors.len; i++) {
        TaTensor *t = TA_TENSOR(g, i);
        item_of[i] = -1;
        if (t->alias_of || t->removed)
            continue;
        Item *it = &P->items[P->num_items];
        it->t = t;
        it->role = t->role;
        it->memory = it->source = -1;
        item_of[i] = P->num_items++;
    }
    /* Each item lists its own id and those of tensors aliasing it, and
       for constants made from a model tensor that tensor's id; with the
       names, what rules match. */
    for (int i = 0; i < g->tensors.len; i++) {
        TaTensor *t = TA_TENSOR(g, i);
        if (t->removed)
            continue;
        Item *it = &P->items[item_of[ta_tensor_root(t)->index]];
        ta_vec_push(P->pool, &it->ids, (void *)t->id);
        if (t->name)
            ta_vec_push(P->pool, &it->names, (void *)t->name);
        if (t->derived_from) {
            ta_vec_push(P->pool, &it->ids, (void *)t->derived_from->id);
            if (t->derived_from->name)
                ta_vec_push(P->pool, &it->names, (void *)t->derived_from->name);
        }
    }
    for (int i = 0; i < P->num_items; i++) {
        Item *it = &P->items[i];
        it->keys = (TaTensorKeys){(const char *const *)it->ids.items, it->ids.len,
                                  (const char *const *)it->names.items, it->names.len};
    }
}

static bool memory_available(Planner *P, int mem, const char *why_where, const char *tensor_id)
{
    const TaTarget *tg = P->in->target;
    if (!tg->memories[mem]) {
        problem(P, why_where, false, tensor_id,
                ta_format(P->pool,
                          "target %s has no %s memory (tinyaot platforms %s lists "
                          "the ones it has)",
                          tg->name, ta_memory_name(mem), tg->name));
        return false;
    }
    if (!P->plan->memories[mem].usable) {
        problem(P, why_where, false, tensor_id,
                ta_format(P->pool,
                          "%s is not listed in memory.constraints, which is the "
                          "complete set of usable memories (add '- name: %s' to it)",
                          ta_memory_name(mem), ta_memory_name(mem)));
        return false;
    }
    return true;
}

static bool apply_rules(Planner *P)
{
    const TaConfig *cfg = P->in->config;
    TaGraph *g = P->in->graph;
    int errors = P->d->errors;

    /* Operator rules: scratch_placement pins the operator's own scratch
       buffers unless a tensor rule says otherwise. */
    int *op_scratch = ta_alloc_array(P->pool, (size_t)g->tensors.len + 1, sizeof(int));
    for (int i = 0; i < g->tensors.len; i++)
        op_scratch[i] = -1;
    for (int i = 0; i < g->ops.len; i++) {
        TaOp *op = TA_OP(g, i);
        TaOpAttrs a = ta_rules_for_op(P->pool, &cfg->operator_rules, op->type, op->model_index);
        if (a.code_placement) {
            int m = ta_memory_parse(a.code_placement);
            const TaTargetMemory *tm = P->in->target->memories[m];
            if (!tm || !tm->code_section)
                ta_error(P->d, "operators: %s: code_placement %s: target %s %s", op->lowered.symbol,
                         a.code_placement, P->in->target->name,
                         !tm ? "has no such memory"
                             : "gives that memory no code_section (it cannot hold code)");
            else
                op->code_memory = m;
        }
        if (a.scratch_placement)
            for (int k = 0; k < op->lowered.locals.len; k++) {
                TaTensor *t = op->lowered.locals.items[k];
                if (t->role == TA_REGION_SCRATCH)
                    op_scratch[t->index] = ta_memory_parse(a.scratch_placement);
            }
    }

    TaRuleDivergences divergences = {0};
    for (int i = 0; i < P->num_items; i++) {
        Item *it = &P->items[i];
        TaTensorAttrs a = ta_rules_for_tensor(P->pool, &cfg->tensor_rules, ta_role_name(it->role),
                                              &it->keys);
        ta_rules_compare_reference(P->pool, &divergences, &cfg->tensor_rules,
                                   ta_role_name(it->role), &it->keys, &a);
        const char *id = it->t->id;
        if (a.memory) {
            it->memory = ta_memory_parse(a.memory);
            it->pinned = true;
            it->rule = a.memory_rule;
        } else if (op_scratch[it->t->index] >= 0) {
            it->memory = op_scratch[it->t->index];
            it->pinned = true;
        }
        if (it->pinned) {
            const char *where = it->rule ? ta_format(P->pool, "%s: memory.tensors[%d]",
                                                     it->rule->where, it->rule->index)
                                         : "operators: scratch_placement";
            if (!memory_available(P, it->memory, where, id))
                continue;
            const TaTargetMemory *m = P->in->target->memories[it->memory];
            if (it->role != TA_REGION_CONSTANT && !m->writable) {
                problem(P, where, true, id,
                        ta_format(P->pool,
                                  "is %s, but %s is read-only at run time; only "
                                  "constants can live there",
                                  ta_role_name(it->role), ta_memory_name(it->memory)));
                continue;
            }
        }
        if (a.destination) {
            const char *where = ta_format(P->pool, "%s: memory.tensors[%d]",
                                          a.destination_rule->where, a.destination_rule->index);
            int dest = ta_memory_parse(a.destination);
            if (it->role != TA_REGION_CONSTANT) {
                problem(P, where, true, id,
                        ta_format(P->pool,
                                  "is %s; constant_destination_memory applies to "
                                  "constants only (add 'type: constant' to the rule)",
                                  ta_role_name(it->role)));
                continue;
            }
            if (!memory_available(P, dest, where, id))
                continue;
            if (!P->in->target->memories[dest]->writable) {
                problem(P, where, false, id,
                        ta_format(P->pool,
                                  "constant_destination_memory %s is read-only; "
                                  "staged constants are copied into writable memory",
                                  ta_memory_name(dest)));
                continue;
            }
            /* The rule's `memory` is where the bytes are stored; the
               destination is where kernels read them. */
            it->source = it->memory;
            it->memory = dest;
            it->pinned = true;
            it->staged = true;
        }
    }
    report_problems(P);
    ta_rules_warn_divergences(P->pool, P->d, &divergences);
    /* Alphabetical, the order suggestions are tried in. */
    const char *const kind_names[] = {ta_role_name(TA_REGION_CONSTANT),
                                      ta_role_name(TA_REGION_PERSISTENT),
                                      ta_role_name(TA_REGION_SCRATCH)};
    ta_rules_warn_unmatched(P->pool, P->d, &cfg->tensor_rules, "memory.tensors", false, kind_names,
                            3);
    const char **types = ta_alloc_array(P->pool, (size_t)g->ops.len + 1, sizeof(char *));
    for (int i = 0; i < g->ops.len; i++)
        types[i] = TA_OP(g, i)->type;
    ta_rules_warn_unmatched(P->pool, P->d, &cfg->operator_rules, "operators", true, types,
                            g->ops.len);
    return P->d->errors == errors;
}

/* ---- 3. memories ------------------------------------------------------------ */

static bool setup_memories(Planner *P)
{
    const TaTarget *tg = P->in->target;
    const TaConfig *cfg = P->in->config;
    size_t base_align = tg->min_alignment > 16 ? tg->min_alignment : 16;
    for (int m = 0; m < TA_MEM_COUNT; m++) {
        TaMemoryUse *u = &P->plan->memories[m];
        u->usable = tg->memories[m] != NULL && !cfg->has_constraints;
        u->budget = tg->memories[m] ? tg->memories[m]->capacity : 0;
        u->alignment = base_align;
    }
    bool ok = true;
    for (int i = 0; i < cfg->constraints.len; i++) {
        const TaConstraint *c = cfg->constraints.items[i];
        int m = ta_memory_parse(c->name);
        if (!tg->memories[m]) {
            ta_error(P->d, "%s: memory.constraints: target %s has no %s memory", c->where, tg->name,
                     c->name);
            ok = false;
            continue;
        }
        TaMemoryUse *u = &P->plan->memories[m];
        u->usable = true;
        if (c->has_max_size)
            u->budget = c->max_size < u->budget ? c->max_size : u->budget;
        if (c->has_alignment && c->arena_alignment > u->alignment)
            u->alignment = (size_t)c->arena_alignment;
    }
    for (int m = 0; m < TA_MEM_COUNT; m++)
        if (P->attempt->budget[m])
            P->plan->memories[m].budget = P->attempt->budget[m];
    return ok;
}

/* ---- 4. placing --------------------------------------------------------------- */

static uint64_t memory_taken(const Planner *P, int m)
{
    return P->persistent_bytes[m] + P->scratch_bytes[m] + P->constant_bytes[m];
}

static size_t item_size(const Planner *P, const Item *it, int m)
{
    return align_up(ta_tensor_planned_bytes(it->t), P->plan->memories[m].alignment);
}

/* The next memory in spill order that can hold `role` after `after`. */
static bool can_hold(const Planner *P, int m, ta_region_role_t role)
{
    const TaTargetMemory *tm = P->in->target->memories[m];
    return tm && P->plan->memories[m].usable && (role == TA_REGION_CONSTANT || tm->writable);
}

static void no_room(Planner *P, const Item *it)
{
    TaBuf b = {0};
    const TaTarget *tg = P->in->target;
    for (int s = 0; s < tg->num_spill; s++) {
        int m = tg->spill_order[s];
        if (!can_hold(P, m, it->role))
            continue;
        uint64_t budget = P->plan->memories[m].budget;
        uint64_t taken = memory_taken(P, m);
        ta_buf_printf(&b, "%s%s has %llu of %llu bytes free", b.len ? ", " : "", ta_memory_name(m),
                      (unsigned long long)(taken < budget ? budget - taken : 0),
                      (unsigned long long)budget);
    }
    P->attempt->short_of_room = true;
    /* Grouped by kind: the free space is what the first tensor found. */
    const char *fix = P->attempt->fix ? P->attempt->fix
                      : P->in->config->has_constraints
                          ? "raise a max_size in memory.constraints or add a memory to it"
                          : "the target's memories are full: limit what rules pin there, or "
                            "choose a target with more memory";
    problem_in(P, ta_format(P->pool, "no room for %s", ta_role_name(it->role)), "", true, it->t->id,
               ta_format(P->pool, "fits in no usable memory (%s; %s needs %zu bytes where %s); %s",
                         ta_role_name(it->role), it->t->id, ta_tensor_planned_bytes(it->t),
                         b.len ? b.data : "no memory can hold it", fix));
    ta_buf_free(&b);
}

static void place_persistent(Planner *P)
{
    const TaTarget *tg = P->in->target;
    for (int i = 0; i < P->num_items; i++) {
        Item *it = &P->items[i];
        if (it->role != TA_REGION_PERSISTENT || ta_tensor_planned_bytes(it->t) == 0)
            continue;
        for (int s = 0; !it->pinned && s < tg->num_spill; s++) {
            int m = tg->spill_order[s];
            if (can_hold(P, m, it->role) &&
                memory_taken(P, m) + item_size(P, it, m) <= P->plan->memories[m].budget)
                it->memory = m;
            if (it->memory >= 0)
                break;
        }
        if (it->memory < 0) {
            no_room(P, it);
            continue;
        }
        it->block.offset = P->persistent_bytes[it->memory];
        P->persistent_bytes[it->memory] += item_size(P, it, it->memory);
    }
}

static int by_size_desc(const void *pa, const void *pb)
{
    const Item *a = *(Item *const *)pa, *b = *(Item *const *)pb;
    size_t sa = ta_tensor_planned_bytes(a->t), sb = ta_tensor_planned_bytes(b->t);
    if (sa != sb)
        return sa < sb ? 1 : -1;
    return (a->t->index > b->t->index) - (a->t->index < b->t->index);
}

/* Lowest offset in memory m where `it` fits beside the blocks already there. */
/* The scratch items placed so far, by lifetime, with room to collect
   those a new item meets. */
typedef struct Placed {
    TaLiveIndex index;
    int *found;
    const Item **hits;
} Placed;

static int by_block_offset(const void *pa, const void *pb)
{
    const Item *a = *(const Item *const *)pa, *b = *(const Item *const *)pb;
    if (a->block.offset != b->block.offset)
        return a->block.offset > b->block.offset ? 1 : -1;
    return (a > b) - (a < b);
}

/* The lowest offset in memory m where `it` collides with no placed item
   alive at the same time: candidates by offset, each gap tried in turn. */
static size_t first_fit_offset(Planner *P, Item **order, Placed *placed, const Item *it, int m)
{
    const int num = ta_live_index_query(&placed->index, it->t->first_use, it->t->last_use,
                                        placed->found);
    int hits = 0;
    for (int k = 0; k < num; k++) {
        const Item *o = order[placed->found[k]];
        if (o->memory == m && o->t->first_use <= it->t->last_use &&
            it->t->first_use <= o->t->last_use)
            placed->hits[hits++] = o;
    }
    qsort(placed->hits, (size_t)hits, sizeof *placed->hits, by_block_offset);
    const size_t size = item_size(P, it, m);
    size_t offset = 0;
    for (int k = 0; k < hits && placed->hits[k]->block.offset < offset + size; k++) {
        size_t end = placed->hits[k]->block.offset + item_size(P, placed->hits[k], m);
        offset = end > offset ? end : offset;
    }
    return offset;
}

static void place_scratch(Planner *P)
{
    const TaTarget *tg = P->in->target;
    Item **order = ta_alloc_array(P->pool, (size_t)P->num_items + 1, sizeof(Item *));
    int n = 0;
    for (int i = 0; i < P->num_items; i++)
        if (P->items[i].role == TA_REGION_SCRATCH && ta_tensor_planned_bytes(P->items[i].t) > 0)
            order[n++] = &P->items[i];
    qsort(order, (size_t)n, sizeof *order, by_size_desc);
    int last_op = 0;
    for (int i = 0; i < n; i++) {
        last_op = order[i]->t->last_use > last_op ? order[i]->t->last_use : last_op;
        last_op = order[i]->t->first_use > last_op ? order[i]->t->first_use : last_op;
    }
    Placed placed = {.found = ta_alloc_array(P->pool, (size_t)n + 1, sizeof(int)),
                     .hits = ta_alloc_array(P->pool, (size_t)n + 1, sizeof(Item *))};
    ta_live_index_init(&placed.index, n, last_op);
    for (int i = 0; i < n; i++) {
        Item *it = order[i];
        if (it->pinned) {
            it->block.offset = first_fit_offset(P, order, &placed, it, it->memory);
        } else {
            for (int s = 0; s < tg->num_spill && it->memory < 0; s++) {
                int m = tg->spill_order[s];
                if (!can_hold(P, m, it->role))
                    continue;
                size_t off = first_fit_offset(P, order, &placed, it, m);
                uint64_t end = off + item_size(P, it, m);
                uint64_t grows = end > P->scratch_bytes[m] ? end - P->scratch_bytes[m] : 0;
                if (memory_taken(P, m) + grows <= P->plan->memories[m].budget) {
                    it->memory = m;
                    it->block.offset = off;
                }
            }
        }
        ta_live_index_add(&placed.index, i, it->t->first_use, it->t->last_use);
        if (it->memory < 0)
            continue; /* spill_by_plan tries again with the real plans */
        uint64_t end = it->block.offset + item_size(P, it, it->memory);
        if (end > P->scratch_bytes[it->memory])
            P->scratch_bytes[it->memory] = end;
    }
    ta_live_index_free(&placed.index);
}

/* The configured planner and its options (defaults where not given). */
static TaPlannerSettings planner_settings(const TaConfig *cfg)
{
    int kind = ta_planner_parse(cfg->memory_planner);
    TA_ASSERT(kind >= 0); /* the configuration checked the name */
    TaPlannerSettings s = ta_planner_defaults((TaPlannerKind)kind);
    for (int i = 0; i < cfg->planner_options.len; i++) {
        const TaPlannerOptionSetting *o = cfg->planner_options.items[i];
        s.options[ta_planner_option_parse(o->name)] = o->value;
    }
    return s;
}

static int owner_block(Item *const *owners, int n, const TaTensor *t)
{
    for (int i = 0; i < n; i++)
        if (owners[i]->t == t)
            return i;
    return -1;
}

/* The output-over-input links among the blocks of one memory: operators
   whose lowering declared a lead, whose input (a model input too) is last
   read there and whose output is written there first, both in this
   memory. The lead is rounded up to the alignment, so offsets stay
   aligned (memory.overlap_test_shortfall takes bytes off that, for tests). */
static int overlap_links(Planner *P, Item *const *owners, int n, size_t alignment,
                         TaOverlapLink *links, int *link_ops)
{
    const TaConfig *cfg = P->in->config;
    TaGraph *g = P->in->graph;
    int count = 0;
    for (int i = 0; cfg->output_over_input && i < g->ops.len; i++) {
        TaOp *op = TA_OP(g, i);
        if (op->plan_hints.overlap_input < 0 || op->num_outputs != 1 ||
            !op->inputs[op->plan_hints.overlap_input] || op->row_chain)
            continue;
        const TaTensor *in = ta_tensor_root(op->inputs[op->plan_hints.overlap_input]);
        const TaTensor *out = op->outputs[0];
        if (out->alias_of || in == out || in->last_use != i || out->first_use != i)
            continue;
        const int a = owner_block(owners, n, in), b = owner_block(owners, n, out);
        if (a < 0 || b < 0)
            continue;
        size_t lead = align_up(op->plan_hints.overlap_lead, alignment);
        lead = cfg->overlap_test_shortfall >= lead ? 0 : lead - (size_t)cfg->overlap_test_shortfall;
        size_t back = align_up(op->plan_hints.overlap_back_lead, alignment);
        back = cfg->overlap_test_shortfall >= back ? 0 : back - (size_t)cfg->overlap_test_shortfall;
        const bool reversible = op->plan_hints.overlap_reverse_rows != NULL &&
                                strcmp(cfg->overlap_test_direction, "below") != 0;
        links[count] = (TaOverlapLink){
            a,          b,    lead,
            reversible, back, reversible && strcmp(cfg->overlap_test_direction, "above") == 0};
        link_ops[count++] = i;
    }
    return count;
}

/* The configured planner as overlap.c's TaPacker. */
static size_t pack_with_planner(TaBlock *blocks, int n, size_t alignment, const void *settings)
{
    return ta_pack_plan(blocks, n, alignment, settings).arena;
}

/* The scratch plan of memory m for the items `member` marks: the
   configured planner's arena, and where kernels allow outputs over their
   inputs the overlap groups (overlap.c) packed by the same planner, kept
   when smaller; such a plan is below the whole-tensor lower bound, which
   then proves nothing: it is reported as not proven. With `commit` the
   plan becomes the memory's (offsets, overlaps, kernel directions); without,
   only its size is returned, so that placement and spilling budget the
   bytes the final plan needs. The same members give the same plan. */
static size_t plan_scratch_memory(Planner *P, int m, const bool *member, bool commit)
{
    const TaPlannerSettings settings = planner_settings(P->in->config);
    int n = 0;
    for (int i = 0; i < P->num_items; i++)
        n += member[i];
    if (n == 0)
        return 0;
    TaBlock *blocks = ta_alloc_array(P->pool, (size_t)n, sizeof(TaBlock));
    Item **owners = ta_alloc_array(P->pool, (size_t)n, sizeof(Item *));
    int k = 0;
    for (int i = 0; i < P->num_items; i++) {
        Item *it = &P->items[i];
        if (!member[i])
            continue;
        blocks[k] = (TaBlock){.size = ta_tensor_planned_bytes(it->t),
                              .first = it->t->first_use,
                              .last = it->t->last_use,
                              .order = it->t->index};
        owners[k++] = it;
    }
    const size_t alignment = P->plan->memories[m].alignment;
    TaPackResult whole = ta_pack_plan(blocks, n, alignment, &settings);
    if (commit) {
        P->scratch_plans[m] = whole;
        P->scratch_bytes[m] = whole.arena;
        for (int i = 0; i < n; i++)
            owners[i]->block.offset = blocks[i].offset;
    }
    TaOverlapLink *links = ta_alloc_array(P->pool, (size_t)P->num_ops + 1, sizeof *links);
    int *link_ops = ta_alloc_array(P->pool, (size_t)P->num_ops + 1, sizeof *link_ops);
    bool *kept = ta_alloc_array(P->pool, (size_t)P->num_ops + 1, sizeof *kept);
    bool *above = ta_alloc_array(P->pool, (size_t)P->num_ops + 1, sizeof *above);
    const int num_links = overlap_links(P, owners, n, alignment, links, link_ops);
    if (num_links == 0)
        return whole.arena;
    const size_t size = ta_pack_overlapping(blocks, n, links, num_links, alignment,
                                            pack_with_planner, &settings, kept, above);
    if (size >= whole.arena)
        return whole.arena;
    if (!commit)
        return size;
    P->scratch_bytes[m] = size;
    P->scratch_plans[m].arena = size;
    P->scratch_plans[m].planner = settings.kind;
    P->scratch_plans[m].proof = TA_PROOF_NONE;
    P->scratch_plans[m].overlapping = true;
    for (int i = 0; i < n; i++)
        owners[i]->block.offset = blocks[i].offset;
    for (int l = 0; l < num_links; l++) {
        if (!kept[l])
            continue;
        const TaOp *op = TA_OP(P->in->graph, link_ops[l]);
        Item *out = owners[links[l].output];
        out->overlaps = owners[links[l].input]->t;
        out->overlap_above = above[l];
        out->overlap_lead = above[l] ? op->plan_hints.overlap_back_lead
                                     : op->plan_hints.overlap_lead;
        out->overlap_why = above[l] ? op->plan_hints.overlap_back_why : op->plan_hints.overlap_why;
        /* The kernel walks backwards exactly when its output is above. */
        if (op->plan_hints.overlap_reverse_rows)
            *op->plan_hints.overlap_reverse_rows = above[l];
    }
    return size;
}

/* Marks the scratch items placed in memory m. */
static bool *scratch_members(Planner *P, int m)
{
    bool *member = ta_alloc_array(P->pool, (size_t)P->num_items + 1, sizeof *member);
    for (int i = 0; i < P->num_items; i++)
        member[i] = P->items[i].role == TA_REGION_SCRATCH && P->items[i].memory == m &&
                    ta_tensor_planned_bytes(P->items[i].t) > 0;
    return member;
}

/* With memories chosen, the final plan of each scratch arena. */
static void repack_scratch(Planner *P)
{
    for (int m = 0; m < TA_MEM_COUNT; m++)
        plan_scratch_memory(P, m, scratch_members(P, m), true);
}

/* Position of memory m in the target's spill order, past its end for none. */
static int spill_rank(const TaTarget *tg, int m)
{
    for (int s = 0; s < tg->num_spill; s++)
        if (tg->spill_order[s] == m)
            return s;
    return tg->num_spill;
}

/* place_scratch budgets whole tensors by first fit, but the arenas are the
   planner's, smaller where outputs overlap their inputs. So each unpinned
   scratch tensor it left without room, or spilled past a memory, goes to
   the earliest memory in spill order whose plan with it stays within the
   budget: all of them at once when they fit, else one at a time, largest
   first. What fits nowhere is reported, against the plans' sizes. */
static void spill_by_plan(Planner *P)
{
    const TaTarget *tg = P->in->target;
    Item **order = ta_alloc_array(P->pool, (size_t)P->num_items + 1, sizeof(Item *));
    int n = 0;
    for (int i = 0; i < P->num_items; i++)
        if (P->items[i].role == TA_REGION_SCRATCH && !P->items[i].pinned &&
            ta_tensor_planned_bytes(P->items[i].t) > 0)
            order[n++] = &P->items[i];
    qsort(order, (size_t)n, sizeof *order, by_size_desc);
    for (int s = 0; s < tg->num_spill; s++) {
        const int m = tg->spill_order[s];
        if (!can_hold(P, m, TA_REGION_SCRATCH))
            continue;
        const uint64_t budget = P->plan->memories[m].budget;
        const uint64_t others = P->persistent_bytes[m] + P->constant_bytes[m];
        const uint64_t room = budget > others ? budget - others : 0;
        bool *member = scratch_members(P, m);
        bool *with_all = scratch_members(P, m);
        int movers = 0;
        for (int i = 0; i < n; i++)
            if (spill_rank(tg, order[i]->memory) > s) {
                with_all[order[i] - P->items] = true;
                movers++;
            }
        if (movers == 0)
            continue;
        const bool all_fit = plan_scratch_memory(P, m, with_all, false) <= room;
        for (int i = 0; i < n; i++) {
            Item *it = order[i];
            if (spill_rank(tg, it->memory) <= s)
                continue;
            member[it - P->items] = true;
            if (all_fit || plan_scratch_memory(P, m, member, false) <= room)
                it->memory = m;
            else
                member[it - P->items] = false;
        }
    }
    bool any_left = false;
    for (int i = 0; i < n; i++)
        any_left = any_left || order[i]->memory < 0;
    if (!any_left)
        return;
    /* The free space the message gives is the plans'. */
    for (int m = 0; m < TA_MEM_COUNT; m++)
        P->scratch_bytes[m] = plan_scratch_memory(P, m, scratch_members(P, m), false);
    for (int i = 0; i < n; i++)
        if (order[i]->memory < 0)
            no_room(P, order[i]);
}

/* Default source of a staged constant whose rule only names a destination:
   the first read-only memory available, else the first in spill order. */
static int default_source(Planner *P, int dest)
{
    const TaTarget *tg = P->in->target;
    for (int s = 0; s < tg->num_spill; s++) {
        int m = tg->spill_order[s];
        if (can_hold(P, m, TA_REGION_CONSTANT) && !tg->memories[m]->writable && m != dest)
            return m;
    }
    for (int s = 0; s < tg->num_spill; s++) {
        int m = tg->spill_order[s];
        if (can_hold(P, m, TA_REGION_CONSTANT) && m != dest)
            return m;
    }
    return dest;
}

static void place_constants(Planner *P)
{
    const TaTarget *tg = P->in->target;
    for (int i = 0; i < P->num_items; i++) {
        Item *it = &P->items[i];
        if (it->role != TA_REGION_CONSTANT || ta_tensor_planned_bytes(it->t) == 0)
            continue;
        if (it->staged && it->source < 0)
            it->source = default_source(P, it->memory);
        /* Unpinned constants go to read-only memory first (they cost no RAM
           there), then along the spill order like everything else. */
        for (int pass = 0; pass < 2 && !it->pinned && it->memory < 0; pass++) {
            for (int s = 0; s < tg->num_spill && it->memory < 0; s++) {
                int m = tg->spill_order[s];
                if (can_hold(P, m, it->role) && tg->memories[m]->writable == (pass == 1) &&
                    memory_taken(P, m) + item_size(P, it, m) <= P->plan->memories[m].budget)
                    it->memory = m;
            }
        }
        if (it->memory < 0) {
            no_room(P, it);
            continue;
        }
        if (it->source < 0 || it->source == it->memory)
            it->source = it->memory;
        P->constant_bytes[it->memory] += item_size(P, it, it->memory);
        if (it->source != it->memory)
            P->constant_bytes[it->source] += item_size(P, it, it->memory);
    }
}

/* ---- 5. regions ------------------------------------------------------------------- */

static TaRegion *new_region(Planner *P, int memory, ta_region_role_t role, bool staged, int source)
{
    TaRegion *r = ta_alloc(P->pool, sizeof *r);
    r->memory = memory;
    r->source_memory = source;
    r->role = role;
    r->staged = staged;
    r->alignment = P->plan->memories[memory].alignment;
    if (staged && P->plan->memories[source].alignment > r->alignment)
        r->alignment = P->plan->memories[source].alignment;
    /* Region names abbreviate the constant role: "dram_const". */
    const char *suffix = role == TA_REGION_CONSTANT ? "const" : ta_role_name(role);
    r->name = ta_format(P->pool, "%s_%s", ta_memory_lower(memory),
                        staged ? ta_format(P->pool, "staged_from_%s", ta_memory_lower(source))
                               : suffix);
    /* A region in memory that starts at address zero gets a guard so no
       tensor is ever at address 0, which C code would read as NULL. */
    if (memory == TA_MEM_ITCM && P->in->target->memories[memory]->base == 0)
        r->guard = r->alignment;
    if (staged && source == TA_MEM_ITCM && P->in->target->memories[source]->base == 0)
        r->source_guard = r->alignment;
    return r;
}

static bool item_in_region(const Item *it, const TaRegion *r)
{
    if (it->memory != r->memory || it->role != r->role)
        return false;
    if (it->role != TA_REGION_CONSTANT)
        return true;
    return r->staged ? (it->source == r->source_memory && it->source != it->memory)
                     : it->source == it->memory;
}

static int by_offset(const void *pa, const void *pb)
{
    const TaTensor *a = *(TaTensor *const *)pa, *b = *(TaTensor *const *)pb;
    if (a->place.offset != b->place.offset)
        return a->place.offset > b->place.offset ? 1 : -1;
    return (a->index > b->index) - (a->index < b->index);
}

/* Whether tensors a and b, live at the same time, may share bytes: b is
   written over a by the operator that reads a last, at least the lead
   below it, or above it when that operator walks backwards (or the other
   way round; `shortfall` is the test hook's). */
static bool overlap_declared(const TaTensor *a, const TaTensor *b, uint64_t shortfall)
{
    if (b->place.overlaps != a) {
        const TaTensor *t = a;
        a = b;
        b = t;
    }
    if (b->place.overlaps != a || a->last_use != b->first_use)
        return false;
    const size_t lo = b->place.overlap_above ? a->place.offset : b->place.offset;
    const size_t hi = b->place.overlap_above ? b->place.offset : a->place.offset;
    return hi >= lo && hi - lo + shortfall >= b->place.overlap_lead;
}

/* True if two scratch tensors live at the same time share a byte without
   an output-over-input overlap allowing it. */
static int by_first_use(const void *pa, const void *pb)
{
    const TaTensor *a = *(const TaTensor *const *)pa, *b = *(const TaTensor *const *)pb;
    return (a->first_use > b->first_use) - (a->first_use < b->first_use);
}

/* Whether two tensors of `r` alive at once share bytes without declaring
   it. A sweep in time: each tensor is compared only with those still alive
   when it starts, so the check stays linear in a chain of operators. */
static bool scratch_conflict(Planner *P, const TaRegion *r)
{
    const uint64_t shortfall = P->in->config->overlap_test_shortfall;
    const int n = r->tensors.len;
    if (n == 0)
        return false;
    const TaTensor **by_start = ta_heap_realloc(NULL, ((size_t)n + 1) * sizeof *by_start);
    const TaTensor **live = ta_heap_realloc(NULL, ((size_t)n + 1) * sizeof *live);
    memcpy(by_start, r->tensors.items, (size_t)n * sizeof *by_start);
    qsort(by_start, (size_t)n, sizeof *by_start, by_first_use);
    bool conflict = false;
    int num_live = 0;
    for (int i = 0; i < n && !conflict; i++) {
        const TaTensor *b = by_start[i];
        const size_t sb = ta_tensor_planned_bytes(b);
        if (!sb)
            continue;
        int kept = 0;
        for (int k = 0; k < num_live; k++) {
            const TaTensor *a = live[k];
            if (a->last_use < b->first_use)
                continue; /* dead before b starts, and before every later one */
            live[kept++] = a;
            const size_t sa = ta_tensor_planned_bytes(a);
            if (a->place.offset < b->place.offset + sb && b->place.offset < a->place.offset + sa &&
                !overlap_declared(a, b, shortfall))
                conflict = true;
        }
        num_live = kept;
        live[num_live++] = b;
    }
    ta_heap_free(by_start);
    ta_heap_free(live);
    return conflict;
}

static void fill_region(Planner *P, TaRegion *r)
{
    size_t offset = 0;
    for (int i = 0; i < P->num_items; i++) {
        Item *it = &P->items[i];
        if (ta_tensor_planned_bytes(it->t) == 0 || !item_in_region(it, r))
            continue;
        /* Constants are laid out in tensor order, so the staged source and
           destination share every relative offset. */
        if (r->role == TA_REGION_CONSTANT) {
            it->block.offset = offset;
            offset += item_size(P, it, r->memory);
        }
        TaPlacement *pl = &it->t->place;
        pl->region = r;
        pl->offset = it->block.offset;
        pl->size = item_size(P, it, r->memory);
        pl->memory = r->memory;
        pl->source_memory = r->staged ? r->source_memory : r->memory;
        pl->staged = r->staged;
        pl->overlaps = it->overlaps;
        pl->overlap_lead = it->overlap_lead;
        pl->overlap_above = it->overlap_above;
        pl->overlap_why = it->overlap_why;
        if (pl->offset + pl->size > r->size)
            r->size = pl->offset + pl->size;
        ta_vec_push(P->pool, &r->tensors, it->t);
    }
    if (r->tensors.len > 1) /* qsort(NULL, 0, ...) is undefined */
        qsort(r->tensors.items, (size_t)r->tensors.len, sizeof(void *), by_offset);
    if (r->role == TA_REGION_CONSTANT) {
        r->bytes = ta_alloc(P->pool, r->size + 1);
        for (int i = 0; i < r->tensors.len; i++) {
            TaTensor *t = r->tensors.items[i];
            memcpy(r->bytes + t->place.offset, t->data, ta_tensor_planned_bytes(t));
        }
    }
    if (r->role == TA_REGION_SCRATCH) {
        TaBlock *blocks = ta_alloc_array(P->pool, (size_t)r->tensors.len + 1, sizeof(TaBlock));
        for (int i = 0; i < r->tensors.len; i++) {
            TaTensor *t = r->tensors.items[i];
            blocks[i] = (TaBlock){.size = ta_tensor_planned_bytes(t),
                                  .first = t->first_use,
                                  .last = t->last_use,
                                  .offset = t->place.offset};
        }
        r->lower_bound = ta_pack_lower_bound(blocks, r->tensors.len, r->alignment);
        TA_ASSERT(!scratch_conflict(P, r));
        const TaPackResult *how = &P->scratch_plans[r->memory];
        r->planner = ta_planner_name(how->planner);
        /* Under the whole-tensor bound only by sharing bytes: that bound
           proves nothing about the overlapping plan. */
        const bool at_bound = r->size <= r->lower_bound && !how->overlapping;
        r->proven = at_bound || how->proof != TA_PROOF_NONE;
        r->proof = ta_proof_text(at_bound ? TA_PROOF_LOWER_BOUND : how->proof);
    }
}

static void build_regions(Planner *P)
{
    const char *prefix = P->in->prefix;
    bool own_arenas = P->in->config->allocate_arenas;
    for (int m = 0; m < TA_MEM_COUNT; m++) {
        if (!P->in->target->memories[m])
            continue;
        TaRegion *candidates[3 + TA_MEM_COUNT];
        int n = 0;
        candidates[n++] = new_region(P, m, TA_REGION_SCRATCH, false, m);
        candidates[n++] = new_region(P, m, TA_REGION_PERSISTENT, false, m);
        candidates[n++] = new_region(P, m, TA_REGION_CONSTANT, false, m);
        for (int s = 0; s < TA_MEM_COUNT; s++)
            if (s != m && P->in->target->memories[s])
                candidates[n++] = new_region(P, m, TA_REGION_CONSTANT, true, s);
        for (int k = 0; k < n; k++) {
            TaRegion *r = candidates[k];
            fill_region(P, r);
            if (r->tensors.len == 0)
                continue;
            if (own_arenas)
                r->symbol = ta_format(P->pool, "%s_arena_%s", prefix, r->name);
            if (r->staged)
                r->source_symbol = ta_format(P->pool, "%s_arena_%s_source", prefix, r->name);
            ta_vec_push(P->pool, &P->plan->regions, r);
            P->plan->memories[m].used += r->guard + r->size;
            if (r->staged)
                P->plan->memories[r->source_memory].used += r->source_guard + r->size;
        }
    }
}

/* helia-aot 1.1.0's order of regions, which its enumerator values follow:
   scratch, then persistent, then constant; within a role by memory name. */
static int region_order(const void *a, const void *b)
{
    const TaRegion *x = *(const TaRegion *const *)a, *y = *(const TaRegion *const *)b;
    if (x->role != y->role)
        return (int)x->role - (int)y->role;
    int by_name = strcmp(ta_memory_lower(x->memory), ta_memory_lower(y->memory));
    if (by_name)
        return by_name;
    if (x->staged != y->staged)
        return x->staged ? 1 : -1;
    return x->source_memory - y->source_memory;
}

/* helia-aot's name of a region without the prefix: "arena_dtcm" (scratch),
   "arena_persistent_sram", "arena_const_mram" (constants, by the memory
   kernels read them in). A second constant region in the same memory (one
   cold, one staged into it) takes "_staged" after the name. */
static const char *region_api_name(Planner *P, const TaRegion *r)
{
    const char *mem = ta_memory_lower(r->memory);
    const char *role = r->role == TA_REGION_SCRATCH      ? ""
                       : r->role == TA_REGION_PERSISTENT ? "persistent_"
                                                         : "const_";
    const char *name = ta_format(P->pool, "arena_%s%s", role, mem);
    for (int i = 0; i < r->id; i++)
        if (strcmp(((TaRegion *)P->plan->regions.items[i])->api_name, name) == 0)
            return ta_format(P->pool, "%s_staged", name);
    return name;
}

/* Numbers the regions in helia-aot's order and names them and their
   sidecar files as helia-aot does (<prefix>_arena_const_mram__blob.bin). */
static void number_regions(Planner *P)
{
    TaVec *v = &P->plan->regions;
    if (v->len > 1)
        qsort(v->items, (size_t)v->len, sizeof(void *), region_order);
    for (int i = 0; i < v->len; i++) {
        TaRegion *r = v->items[i];
        r->id = i;
        r->api_name = region_api_name(P, r);
        if (!P->in->config->allocate_arenas && r->role == TA_REGION_CONSTANT && !r->staged)
            r->sidecar_file = ta_format(P->pool, "%s_%s__blob.bin", P->in->prefix, r->api_name);
        if (!P->in->config->allocate_arenas && r->staged)
            r->source_sidecar_file = ta_format(P->pool, "%s_%s__source.bin", P->in->prefix,
                                               r->api_name);
    }
}

/* Staging guarantees one source memory per destination memory. */
static bool check_staging(Planner *P)
{
    bool ok = true;
    for (int m = 0; m < TA_MEM_COUNT; m++) {
        int sources = 0;
        TaBuf names = {0};
        for (int i = 0; i < P->plan->regions.len; i++) {
            const TaRegion *r = P->plan->regions.items[i];
            if (r->memory == m && r->staged) {
                sources++;
                ta_buf_printf(&names, "%s%s", names.len ? " and " : "",
                              ta_memory_name(r->source_memory));
            }
        }
        if (sources > 1) {
            ta_error(P->d,
                     "constants staged into %s come from %s: a destination memory takes "
                     "staged constants from one source memory",
                     ta_memory_name(m), names.data);
            ok = false;
        }
        ta_buf_free(&names);
    }
    return ok;
}

static bool check_budgets(Planner *P)
{
    bool ok = true;
    for (int m = 0; m < TA_MEM_COUNT; m++) {
        const TaMemoryUse *u = &P->plan->memories[m];
        if (u->used <= u->budget)
            continue;
        TaBuf pinned = {0};
        for (int i = 0; i < P->num_items; i++) {
            const Item *it = &P->items[i];
            if (it->pinned && (it->memory == m || it->source == m) && pinned.len < 200)
                ta_buf_printf(&pinned, "%s%s", pinned.len ? ", " : "", it->t->id);
        }
        P->attempt->short_of_room = true;
        ta_error(P->d,
                 "%s: the plan needs %llu bytes but the budget is %llu: %llu bytes over%s%s%s%s%s",
                 ta_memory_name(m), (unsigned long long)u->used, (unsigned long long)u->budget,
                 (unsigned long long)(u->used - u->budget),
                 pinned.len ? " (tensors pinned there by rules: " : "",
                 pinned.len ? pinned.data : "", pinned.len ? ")" : "", P->attempt->fix ? "; " : "",
                 P->attempt->fix ? P->attempt->fix : "");
        ta_buf_free(&pinned);
        ok = false;
    }
    return ok;
}

static void place_aliases(Planner *P)
{
    TaGraph *g = P->in->graph;
    for (int i = 0; i < g->tensors.len; i++) {
        TaTensor *t = TA_TENSOR(g, i);
        if (!t->alias_of || t->removed)
            continue;
        TaTensor *root = ta_tensor_root(t);
        t->place = root->place;
        t->first_use = root->first_use;
        t->last_use = root->last_use;
    }
}

TaPlan *ta_plan_attempt(const TaPlanInput *in, TaPlanAttempt *attempt)
{
    Planner P = {.in = in, .pool = in->pool, .d = in->diag, .attempt = attempt};
    P.plan = ta_alloc(in->pool, sizeof *P.plan);
    P.plan->target = in->target;
    int errors = in->diag->errors;

    compute_lifetimes(&P);
    if (share_inplace_outputs(&P))
        compute_lifetimes(&P);
    P.plan->num_ops = P.num_ops;
    collect_items(&P);
    if (!setup_memories(&P) || !apply_rules(&P))
        return NULL;
    place_persistent(&P);
    place_scratch(&P);
    spill_by_plan(&P);
    report_problems(&P);
    if (in->diag->errors > errors)
        return NULL;
    repack_scratch(&P);
    place_constants(&P);
    report_problems(&P);
    if (in->diag->errors > errors)
        return NULL;
    build_regions(&P);
    number_regions(&P);
    place_aliases(&P);
    if (!check_staging(&P) || !check_budgets(&P))
        return NULL;
    return P.plan;
}
