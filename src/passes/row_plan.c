/*
 * row_plan.c - the plan with the row chains, kept only when its scratch
 * arena is smaller than the plan without them (row_streaming.h). Chains
 * make all their tensors live at once, which the output-over-input
 * overlap of layers run alone can beat; the planner, not an estimate,
 * says which is smaller. memory.row_streaming: off plans once, as before.
 */
#include "row_streaming.h"

static void quiet(void *user, int level, const char *line)
{
    (void)user, (void)level, (void)line;
}

static size_t scratch_bytes(const TaPlan *p)
{
    size_t n = 0;
    for (int i = 0; i < p->regions.len; i++) {
        const TaRegion *r = p->regions.items[i];
        if (r->role == TA_REGION_SCRATCH)
            n += r->size;
    }
    return n;
}

/* What a plan changes in the graph (in-place aliases, kernel directions),
   saved so that each plan starts from the graph as lowering left it. */
typedef struct Before {
    TaTensor **aliases;
    int32_t *reverse_rows;
} Before;

static Before save(TaPool *pool, const TaGraph *g)
{
    Before b = {ta_alloc_array(pool, (size_t)g->tensors.len + 1, sizeof(TaTensor *)),
                ta_alloc_array(pool, (size_t)g->ops.len + 1, sizeof(int32_t))};
    for (int i = 0; i < g->tensors.len; i++)
        b.aliases[i] = TA_TENSOR(g, i)->alias_of;
    for (int i = 0; i < g->ops.len; i++)
        if (TA_OP(g, i)->plan_hints.overlap_reverse_rows)
            b.reverse_rows[i] = *TA_OP(g, i)->plan_hints.overlap_reverse_rows;
    return b;
}

static void restore(const TaGraph *g, const Before *b)
{
    for (int i = 0; i < g->tensors.len; i++)
        TA_TENSOR(g, i)->alias_of = b->aliases[i];
    for (int i = 0; i < g->ops.len; i++)
        if (TA_OP(g, i)->plan_hints.overlap_reverse_rows)
            *TA_OP(g, i)->plan_hints.overlap_reverse_rows = b->reverse_rows[i];
}

/* Marks the chains' operators and row buffers, or clears the marks. */
static void mark_chains(TaGraph *g, bool on)
{
    for (int c = 0; c < g->row_chains.len; c++)
        ta_row_chain_mark(g, g->row_chains.items[c], on);
}

TaPlan *ta_row_streaming_plan(const TaPlanInput *in)
{
    TaGraph *g = in->graph;
    if (!g->row_chains.len)
        return ta_plan(in);
    const Before before = save(in->pool, g);
    TaDiag silent = {.pool = in->pool,
                     .sink = quiet,
                     .verbose = 0,
                     .warnings_are_errors = in->diag->warnings_are_errors};
    TaPlanInput probe = *in;
    probe.diag = &silent;
    const TaPlan *with = ta_plan(&probe);
    restore(g, &before);
    mark_chains(g, false);
    const TaPlan *without = ta_plan(&probe);
    restore(g, &before);
    /* Row-push input asked for: the chain takes the input's rows. */
    const bool push = ((const TaRowChain *)g->row_chains.items[0])->push_input;
    const bool keep = with && (push || !without || scratch_bytes(with) < scratch_bytes(without));
    g->row_arena_with = with ? scratch_bytes(with) : 0;
    g->row_arena_without = without ? scratch_bytes(without) : 0;
    mark_chains(g, keep);
    if (!keep) {
        ta_detail(in->diag,
                  "row chains dropped: the arena is no smaller with them (%zu bytes "
                  "against %zu)",
                  with ? scratch_bytes(with) : 0, without ? scratch_bytes(without) : 0);
        g->row_chains.len = 0;
        ta_graph_compact(in->pool, g); /* the summing pools' sums */
    }
    return ta_plan(in);
}
