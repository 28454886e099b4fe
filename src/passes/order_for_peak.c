/*
 * order_for_peak.c - ORDER_FOR_PEAK: among the execution orders the data
 * flow allows, the one whose peak of live scratch bytes is least.
 *
 * Runs on the lowered graph, where every operator's scratch buffers and
 * in-place outputs are known. The bytes live after a set of operators ran
 * depend only on the set (a tensor is live once an operator touching it
 * ran and until all of them have), so the search is a shortest path over
 * the sets closed under dependencies, one operator added per step, each
 * set keeping the least peak of any order reaching it. Steps whose peak
 * reaches the model order's are pruned (only a strictly lower peak
 * changes the order); a graph whose model order already meets the
 * largest single operator's bytes is proven without a search. Past
 * MAX_STATES sets the model order stays. Deterministic: sets and
 * operators are visited in a fixed order, and ties keep the first found.
 *
 * The model of the planner (src/plan/plan.c): tensors that own their
 * bytes, each rounded up to 16; model inputs live from the start, outputs
 * to the end; an operator's declared in-place output shares its input's
 * bytes when that input dies there and is not a model input.
 *
 * Operators that touch persistent state, or write no tensor, keep their
 * order among themselves: what they exchange is not in the data flow.
 * Tensors drop_dead removed (operands lowering replaced) are not looked
 * at: their indices are stale.
 */
#include "transforms.h"

#include "passes.h"

#include <string.h>

enum { MAX_STATES = 50000, MAX_OPS = 512, ALIGN = 16 };

typedef uint64_t Word;

typedef struct Item {
    int64_t size;
    Word *touchers; /* operators touching its bytes */
    bool from_start, to_end;
} Item;

typedef struct OpInfo {
    int *items; /* the items it touches, each once */
    int num_items;
    Word *deps;                  /* operators that must run before it */
    int inplace_in, inplace_out; /* items, or -1 */
} OpInfo;

typedef struct Search {
    TaPool *pool;
    int n, words;
    Item *items;
    int num_items;
    OpInfo *ops;
    /* The sets found: bits, least peak, bytes live after, how reached. */
    Word *bits;
    int64_t *peak, *live;
    int *from, *last_op;
    int num_states;
    int *table; /* hash of bits -> state, -1 empty */
    size_t table_mask;
} Search;

static bool has(const Word *set, int i)
{
    return (set[i / 64] >> (i % 64)) & 1u;
}

static void put(Word *set, int i)
{
    set[i / 64] |= (Word)1 << (i % 64);
}

/* Every member of a is in b, with `extra` counted in b. */
static bool subset(const Word *a, const Word *b, int words, int extra)
{
    for (int w = 0; w < words; w++) {
        Word bw = b[w];
        if (extra >= 0 && extra / 64 == w)
            bw |= (Word)1 << (extra % 64);
        if (a[w] & ~bw)
            return false;
    }
    return true;
}

static bool disjoint(const Word *a, const Word *b, int words)
{
    for (int w = 0; w < words; w++)
        if (a[w] & b[w])
            return false;
    return true;
}

static int item_of(Search *s, int *item_by_tensor, TaTensor *t)
{
    if (!t)
        return -1;
    TaTensor *root = ta_tensor_root(t);
    if (root->removed || root->role != TA_REGION_SCRATCH || ta_tensor_bytes(root) == 0)
        return -1;
    if (item_by_tensor[root->index] < 0) {
        Item *it = &s->items[s->num_items];
        it->size = (int64_t)((ta_tensor_bytes(root) + ALIGN - 1) / ALIGN * ALIGN);
        it->touchers = ta_alloc_array(s->pool, (size_t)s->words, sizeof(Word));
        item_by_tensor[root->index] = s->num_items++;
    }
    return item_by_tensor[root->index];
}

static void touch(Search *s, int *item_by_tensor, int op, TaTensor *t)
{
    int i = item_of(s, item_by_tensor, t);
    if (i < 0 || has(s->items[i].touchers, op))
        return;
    put(s->items[i].touchers, op);
    OpInfo *o = &s->ops[op];
    o->items[o->num_items++] = i;
}

/* Whether `op` touches a persistent tensor (state exchanged outside the
   data flow). */
static bool stateful(const TaOp *op)
{
    for (int k = 0; k < op->num_inputs; k++)
        if (op->inputs[k] && op->inputs[k]->role == TA_REGION_PERSISTENT)
            return true;
    for (int k = 0; k < op->num_outputs; k++)
        if (op->outputs[k]->role == TA_REGION_PERSISTENT)
            return true;
    for (int c = 0; c < op->lowered.calls.len; c++) {
        const TaKernelCall *call = op->lowered.calls.items[c];
        for (int a = 0; a < call->args.len; a++) {
            const TaTensor *t = call->args.items[a];
            if (t && ta_tensor_root((TaTensor *)t)->role == TA_REGION_PERSISTENT)
                return true;
        }
    }
    return false;
}

static void build(Search *s, TaGraph *g)
{
    s->n = g->ops.len;
    s->words = (s->n + 63) / 64;
    int *item_by_tensor = ta_alloc_array(s->pool, (size_t)g->tensors.len + 1, sizeof(int));
    int *writer = ta_alloc_array(s->pool, (size_t)g->tensors.len + 1, sizeof(int));
    for (int i = 0; i < g->tensors.len; i++)
        item_by_tensor[i] = writer[i] = -1;
    s->items = ta_alloc_array(s->pool, (size_t)g->tensors.len + 1, sizeof(Item));
    s->ops = ta_alloc_array(s->pool, (size_t)s->n + 1, sizeof(OpInfo));
    for (int v = 0; v < s->n; v++) {
        TaOp *op = TA_OP(g, v);
        for (int k = 0; k < op->num_outputs; k++)
            writer[op->outputs[k]->index] = v;
    }
    int chained = -1;
    for (int v = 0; v < s->n; v++) {
        TaOp *op = TA_OP(g, v);
        OpInfo *o = &s->ops[v];
        int most = op->num_inputs + op->num_outputs + op->lowered.locals.len;
        for (int c = 0; c < op->lowered.calls.len; c++)
            most += ((TaKernelCall *)op->lowered.calls.items[c])->args.len;
        o->items = ta_alloc_array(s->pool, (size_t)most + 1, sizeof(int));
        o->deps = ta_alloc_array(s->pool, (size_t)s->words, sizeof(Word));
        o->inplace_in = o->inplace_out = -1;
        for (int k = 0; k < op->num_inputs; k++) {
            touch(s, item_by_tensor, v, op->inputs[k]);
            if (op->inputs[k] && !op->inputs[k]->removed && writer[op->inputs[k]->index] >= 0)
                put(o->deps, writer[op->inputs[k]->index]);
        }
        for (int k = 0; k < op->num_outputs; k++)
            touch(s, item_by_tensor, v, op->outputs[k]);
        for (int c = 0; c < op->lowered.calls.len; c++) {
            const TaKernelCall *call = op->lowered.calls.items[c];
            for (int a = 0; a < call->args.len; a++) {
                TaTensor *t = call->args.items[a];
                touch(s, item_by_tensor, v, t);
                if (t && !t->removed && writer[t->index] >= 0 && writer[t->index] != v)
                    put(o->deps, writer[t->index]);
            }
        }
        for (int k = 0; k < op->lowered.locals.len; k++)
            touch(s, item_by_tensor, v, op->lowered.locals.items[k]);
        if (stateful(op) || op->num_outputs == 0) {
            if (chained >= 0)
                put(o->deps, chained);
            chained = v;
        }
        if (op->plan_hints.inplace_input >= 0 && op->plan_hints.inplace_input < op->num_inputs &&
            op->num_outputs == 1 && op->inputs[op->plan_hints.inplace_input] &&
            !op->outputs[0]->alias_of && op->outputs[0]->role == TA_REGION_SCRATCH) {
            TaTensor *in = ta_tensor_root(op->inputs[op->plan_hints.inplace_input]);
            if (in->input_index < 0 && ta_tensor_bytes(in) == ta_tensor_bytes(op->outputs[0]) &&
                in != op->outputs[0]) {
                o->inplace_in = item_of(s, item_by_tensor, in);
                o->inplace_out = item_of(s, item_by_tensor, op->outputs[0]);
            }
        }
    }
    for (int i = 0; i < g->inputs.len; i++) {
        int k = item_of(s, item_by_tensor, g->inputs.items[i]);
        if (k >= 0)
            s->items[k].from_start = true;
    }
    for (int i = 0; i < g->outputs.len; i++) {
        int k = item_of(s, item_by_tensor, g->outputs.items[i]);
        if (k >= 0)
            s->items[k].to_end = true;
    }
    /* Bytes nothing touches live through the whole run, whatever the order. */
    for (int i = 0; i < s->num_items; i++) {
        bool touched = false;
        for (int w = 0; w < s->words; w++)
            touched = touched || s->items[i].touchers[w];
        if (!touched)
            s->items[i].from_start = s->items[i].to_end = true;
    }
}

static int64_t live_at_start(const Search *s)
{
    int64_t live = 0;
    for (int i = 0; i < s->num_items; i++)
        live += s->items[i].from_start ? s->items[i].size : 0;
    return live;
}

/* Running v after the set `done` (live bytes `live`): the bytes during v,
   and *after the bytes live once it is done. */
static int64_t step(const Search *s, const Word *done, int64_t live, int v, int64_t *after)
{
    const OpInfo *o = &s->ops[v];
    int64_t during = live, ended = 0;
    bool shares = false;
    for (int k = 0; k < o->num_items; k++) {
        const Item *it = &s->items[o->items[k]];
        if (!it->from_start && disjoint(it->touchers, done, s->words))
            during += it->size;
        if (!it->to_end && subset(it->touchers, done, s->words, v)) {
            ended += it->size;
            shares = shares || o->items[k] == o->inplace_in;
        }
    }
    if (shares && !s->items[o->inplace_in].from_start &&
        disjoint(s->items[o->inplace_out].touchers, done, s->words))
        during -= s->items[o->inplace_out].size;
    *after = during + (shares ? s->items[o->inplace_out].size : 0) - ended;
    return during;
}

static bool ready(const Search *s, const Word *done, int v)
{
    return !has(done, v) && subset(s->ops[v].deps, done, s->words, -1);
}

static size_t hash_bits(const Word *bits, int words)
{
    uint64_t h = 1469598103934665603u;
    for (int w = 0; w < words; w++)
        h = (h ^ bits[w]) * 1099511628211u;
    return (size_t)(h ^ (h >> 29));
}

/* The state holding `bits`, or -1; *slot: where it is or would go. */
static int find_state(const Search *s, const Word *bits, size_t *slot)
{
    size_t h = hash_bits(bits, s->words) & s->table_mask;
    for (;; h = (h + 1) & s->table_mask) {
        int k = s->table[h];
        if (k < 0)
            break;
        if (memcmp(&s->bits[(size_t)k * (size_t)s->words], bits, (size_t)s->words * sizeof(Word)) ==
            0)
            break;
    }
    *slot = h;
    return s->table[h];
}

/* The state holding `bits`, created (peak INT64_MAX) when new; -1 when
   the store is full. */
static int state_of(Search *s, const Word *bits)
{
    size_t slot;
    int k = find_state(s, bits, &slot);
    if (k >= 0)
        return k;
    if (s->num_states == MAX_STATES)
        return -1;
    k = s->num_states++;
    memcpy(&s->bits[(size_t)k * (size_t)s->words], bits, (size_t)s->words * sizeof(Word));
    s->peak[k] = INT64_MAX;
    s->table[slot] = k;
    return k;
}

/* The model order's peak, and the least bytes any order needs (the most
   one operator touches). */
static int64_t model_order_peak(const Search *s, Word *done, int64_t *floor)
{
    memset(done, 0, (size_t)s->words * sizeof(Word));
    int64_t live = live_at_start(s), peak = live;
    *floor = live;
    for (int v = 0; v < s->n; v++) {
        int64_t after, during = step(s, done, live, v, &after);
        peak = during > peak ? during : peak;
        int64_t own = 0;
        for (int k = 0; k < s->ops[v].num_items; k++)
            own += s->items[s->ops[v].items[k]].size;
        if (s->ops[v].inplace_out >= 0)
            own -= s->items[s->ops[v].inplace_out].size;
        *floor = own > *floor ? own : *floor;
        live = after;
        put(done, v);
    }
    return peak;
}

/* Breadth first over sets of 1, 2, ... operators done: each state is
   created by a state of one operator fewer, so all of a state's ways in
   are known before it is expanded. Returns the full set's state, or -1
   (no order strictly below `bound`, or too many states: *complete false). */
static int search(Search *s, int64_t bound, bool *complete)
{
    Word *next = ta_alloc_array(s->pool, (size_t)s->words, sizeof(Word));
    int start = state_of(s, next);
    s->peak[start] = s->live[start] = live_at_start(s);
    s->from[start] = s->last_op[start] = -1;
    *complete = true;
    for (int k = 0; k < s->num_states; k++) {
        const Word *done = &s->bits[(size_t)k * (size_t)s->words];
        for (int v = 0; v < s->n; v++) {
            if (!ready(s, done, v))
                continue;
            int64_t after, during = step(s, done, s->live[k], v, &after);
            int64_t peak = during > s->peak[k] ? during : s->peak[k];
            if (peak >= bound)
                continue;
            memcpy(next, done, (size_t)s->words * sizeof(Word));
            put(next, v);
            int t = state_of(s, next);
            if (t < 0) {
                *complete = false;
                return -1;
            }
            if (peak < s->peak[t]) {
                s->peak[t] = peak;
                s->live[t] = after;
                s->from[t] = k;
                s->last_op[t] = v;
            }
        }
    }
    memset(next, 0, (size_t)s->words * sizeof(Word));
    for (int v = 0; v < s->n; v++)
        put(next, v);
    size_t slot;
    return find_state(s, next, &slot);
}

bool ta_pass_order_for_peak(TaPassCtx *ctx)
{
    TaGraph *g = ctx->graph;
    TaOrderReport *r = &g->order;
    /* IF and WHILE blocks fix where each operator runs: no search. */
    if (ta_graph_has_control_flow(g)) {
        *r = (TaOrderReport){0};
        return true;
    }
    *r = (TaOrderReport){.searched = true, .complete = true};
    if (g->ops.len == 0)
        return true;
    if (g->ops.len > MAX_OPS) {
        r->complete = false;
        return true;
    }
    Search s = {.pool = ctx->pool};
    build(&s, g);
    Word *scratch = ta_alloc_array(ctx->pool, (size_t)s.words, sizeof(Word));
    int64_t floor;
    r->model_order_peak = r->peak = model_order_peak(&s, scratch, &floor);
    if (r->model_order_peak <= floor)
        return true; /* no order needs less than its largest operator */
    s.bits = ta_alloc_array(ctx->pool, (size_t)MAX_STATES * (size_t)s.words, sizeof(Word));
    s.peak = ta_alloc_array(ctx->pool, MAX_STATES, sizeof(int64_t));
    s.live = ta_alloc_array(ctx->pool, MAX_STATES, sizeof(int64_t));
    s.from = ta_alloc_array(ctx->pool, MAX_STATES, sizeof(int));
    s.last_op = ta_alloc_array(ctx->pool, MAX_STATES, sizeof(int));
    size_t cap = 1;
    while (cap < 2 * (size_t)MAX_STATES)
        cap *= 2;
    s.table = ta_alloc_array(ctx->pool, cap, sizeof(int));
    for (size_t i = 0; i < cap; i++)
        s.table[i] = -1;
    s.table_mask = cap - 1;
    int full = search(&s, r->model_order_peak, &r->complete);
    r->states = s.num_states;
    if (full < 0)
        return true;
    /* Walk back from the full set: the operators in reverse. */
    TaOp **order = ta_alloc_array(ctx->pool, (size_t)s.n, sizeof(TaOp *));
    int at = s.n;
    for (int k = full; s.last_op[k] >= 0; k = s.from[k])
        order[--at] = TA_OP(g, s.last_op[k]);
    TA_ASSERT(at == 0);
    for (int i = 0; i < s.n; i++) {
        order[i]->index = i;
        g->ops.items[i] = order[i];
    }
    r->peak = s.peak[full];
    r->changed = true;
    return true;
}
