/*
 * pack.c - interval packing: given buffers with sizes and lifetimes, find
 * offsets in one arena so that buffers alive at the same time are disjoint.
 *
 * Each strategy sorts the buffers and places them one at a time at the
 * lowest offset that does not collide with an already placed buffer whose
 * lifetime overlaps (first fit). Sorting by size, largest first, is the
 * classic choice (TFLite Micro's greedy planner); other orders win on some
 * graphs, so several are tried and the smallest arena kept. All of it is
 * deterministic: ties are broken by `order`.
 */
#include "planners.h"

#include <stdlib.h>
#include <string.h>

static size_t align_up(size_t x, size_t a)
{
    return (x + a - 1) / a * a;
}

static bool lives_overlap(const TaBlock *a, const TaBlock *b)
{
    return a->first <= b->last && b->first <= a->last;
}

typedef int (*Compare)(const void *, const void *);

#define BLOCK(p) (*(const TaBlock *const *)(p))

static int tie(const TaBlock *a, const TaBlock *b)
{
    return (a->order > b->order) - (a->order < b->order);
}

static int by_size(const void *pa, const void *pb)
{
    const TaBlock *a = BLOCK(pa), *b = BLOCK(pb);
    if (a->size != b->size)
        return a->size < b->size ? 1 : -1;
    return tie(a, b);
}

static int by_span(const void *pa, const void *pb)
{
    const TaBlock *a = BLOCK(pa), *b = BLOCK(pb);
    int sa = a->last - a->first, sb = b->last - b->first;
    if (sa != sb)
        return sa < sb ? 1 : -1;
    return by_size(pa, pb);
}

static int by_area(const void *pa, const void *pb)
{
    const TaBlock *a = BLOCK(pa), *b = BLOCK(pb);
    double aa = (double)a->size * (a->last - a->first + 1);
    double ab = (double)b->size * (b->last - b->first + 1);
    if (aa != ab)
        return aa < ab ? 1 : -1;
    return by_size(pa, pb);
}

static int by_first_use(const void *pa, const void *pb)
{
    const TaBlock *a = BLOCK(pa), *b = BLOCK(pb);
    if (a->first != b->first)
        return a->first > b->first ? 1 : -1;
    return by_size(pa, pb);
}

static int by_offset(const void *pa, const void *pb)
{
    const TaBlock *a = BLOCK(pa), *b = BLOCK(pb);
    if (a->offset != b->offset)
        return a->offset > b->offset ? 1 : -1;
    return tie(a, b);
}

/* The lifetime index (planners.h): entries short-lived in buckets by
   first use (an entry ending at `last` started at most TA_LIVE_LONG_SPAN
   operators before), long-lived ones in a list scanned whole. */
void ta_live_index_init(TaLiveIndex *x, int n, int last_op)
{
    x->last_op = last_op < 0 ? 0 : last_op;
    x->head = ta_heap_realloc(NULL, ((size_t)x->last_op + 1) * sizeof *x->head);
    x->next = ta_heap_realloc(NULL, ((size_t)n + 1) * sizeof *x->next);
    x->longs = ta_heap_realloc(NULL, ((size_t)n + 1) * sizeof *x->longs);
    x->num_longs = 0;
    for (int op = 0; op <= x->last_op; op++)
        x->head[op] = -1;
}

void ta_live_index_free(TaLiveIndex *x)
{
    ta_heap_free(x->head);
    ta_heap_free(x->next);
    ta_heap_free(x->longs);
}

void ta_live_index_add(TaLiveIndex *x, int pos, int first, int last)
{
    if (first < 0 || first > x->last_op || last < first || last - first >= TA_LIVE_LONG_SPAN) {
        x->longs[x->num_longs++] = pos;
        return;
    }
    x->next[pos] = x->head[first];
    x->head[first] = pos;
}

int ta_live_index_query(const TaLiveIndex *x, int first, int last, int *out)
{
    int m = 0;
    for (int k = 0; k < x->num_longs; k++)
        out[m++] = x->longs[k];
    const int from = first - TA_LIVE_LONG_SPAN < 0 ? 0 : first - TA_LIVE_LONG_SPAN;
    const int to = last > x->last_op ? x->last_op : last;
    for (int op = from; op <= to; op++)
        for (int k = x->head[op]; k >= 0; k = x->next[k])
            out[m++] = k;
    return m;
}

static int last_op_of(TaBlock **order, int n)
{
    int last = 0;
    for (int i = 0; i < n; i++) {
        last = order[i]->last > last ? order[i]->last : last;
        last = order[i]->first > last ? order[i]->first : last;
    }
    return last;
}

size_t ta_pack_first_fit(TaBlock **order, int n, size_t alignment, TaBlock **scratch)
{
    size_t arena = 0;
    /* Placed blocks are found through a lifetime index: in a chain of
       operators placing n blocks then costs about n, not n^2. */
    TaLiveIndex placed;
    ta_live_index_init(&placed, n, last_op_of(order, n));
    int *found = ta_heap_realloc(NULL, ((size_t)n + 1) * sizeof *found);
    for (int i = 0; i < n; i++) {
        TaBlock *b = order[i];
        int m = 0;
        const int num = ta_live_index_query(&placed, b->first, b->last, found);
        for (int k = 0; k < num; k++)
            if (lives_overlap(order[found[k]], b))
                scratch[m++] = order[found[k]];
        ta_live_index_add(&placed, i, b->first, b->last);
        qsort(scratch, (size_t)m, sizeof *scratch, by_offset);
        size_t size = align_up(b->size, alignment);
        size_t offset = 0;
        for (int k = 0; k < m; k++) {
            if (scratch[k]->offset >= offset + size)
                break; /* the gap before this block is large enough */
            size_t end = scratch[k]->offset + align_up(scratch[k]->size, alignment);
            if (end > offset)
                offset = end;
        }
        b->offset = offset;
        if (offset + size > arena)
            arena = offset + size;
    }
    ta_live_index_free(&placed);
    ta_heap_free(found);
    return arena;
}

static const Compare strategies[TA_PACK_STRATEGIES] = {
    [TA_PACK_BY_SIZE] = by_size,
    [TA_PACK_BY_AREA] = by_area,
    [TA_PACK_BY_SPAN] = by_span,
    [TA_PACK_BY_FIRST_USE] = by_first_use,
};

/* One strategy into `order`, with `scratch` of n entries to work in. */
static size_t pack_in_order(TaBlock *blocks, int n, size_t alignment, Compare compare,
                            TaBlock **order, TaBlock **scratch)
{
    for (int i = 0; i < n; i++)
        order[i] = &blocks[i];
    qsort(order, (size_t)n, sizeof *order, compare);
    return ta_pack_first_fit(order, n, alignment, scratch);
}

size_t ta_pack_with(TaBlock *blocks, int n, size_t alignment, TaPackStrategy strategy)
{
    TA_ASSERT(strategy >= 0 && strategy < TA_PACK_STRATEGIES);
    if (n == 0)
        return 0;
    TaBlock **order = ta_heap_realloc(NULL, (size_t)n * sizeof *order);
    TaBlock **scratch = ta_heap_realloc(NULL, (size_t)n * sizeof *scratch);
    size_t size = pack_in_order(blocks, n, alignment, strategies[strategy], order, scratch);
    ta_heap_free(order);
    ta_heap_free(scratch);
    return size;
}

size_t ta_pack(TaBlock *blocks, int n, size_t alignment)
{
    if (n == 0)
        return 0;
    TaBlock **order = ta_heap_realloc(NULL, (size_t)n * sizeof *order);
    TaBlock **scratch = ta_heap_realloc(NULL, (size_t)n * sizeof *scratch);
    size_t *best = ta_heap_realloc(NULL, (size_t)n * sizeof *best);
    size_t best_size = SIZE_MAX;
    for (size_t s = 0; s < TA_COUNT_OF(strategies); s++) {
        size_t size = pack_in_order(blocks, n, alignment, strategies[s], order, scratch);
        if (size < best_size) {
            best_size = size;
            for (int i = 0; i < n; i++)
                best[i] = blocks[i].offset;
        }
    }
    for (int i = 0; i < n; i++)
        blocks[i].offset = best[i];
    ta_heap_free(order);
    ta_heap_free(scratch);
    ta_heap_free(best);
    return best_size;
}

size_t ta_pack_greedy(TaBlock *blocks, int n, size_t alignment, const void *ctx)
{
    (void)ctx;
    return ta_pack(blocks, n, alignment);
}

size_t ta_pack_lower_bound(const TaBlock *blocks, int n, size_t alignment)
{
    int last_op = -1;
    for (int i = 0; i < n; i++)
        last_op = blocks[i].last > last_op ? blocks[i].last : last_op;
    if (last_op < 0)
        return 0;
    /* The live bytes at each operator as a difference array (+size where a
       block starts, -size after it ends): linear in blocks plus operators.
       Modulo 2^N the partial sums are exact, whatever the order. */
    size_t *delta = calloc((size_t)last_op + 2, sizeof *delta);
    if (!delta)
        return 0; /* still a lower bound, only a weaker one */
    for (int i = 0; i < n; i++) {
        const int from = blocks[i].first < 0 ? 0 : blocks[i].first;
        if (from > blocks[i].last)
            continue;
        delta[from] += align_up(blocks[i].size, alignment);
        delta[blocks[i].last + 1] -= align_up(blocks[i].size, alignment);
    }
    size_t bound = 0, live = 0;
    for (int op = 0; op <= last_op; op++) {
        live += delta[op];
        bound = live > bound ? live : bound;
    }
    free(delta);
    return bound;
}

bool ta_pack_has_overlap(const TaBlock *blocks, int n)
{
    for (int i = 0; i < n; i++)
        for (int k = i + 1; k < n; k++)
            if (lives_overlap(&blocks[i], &blocks[k]) && blocks[i].size && blocks[k].size &&
                blocks[i].offset < blocks[k].offset + blocks[k].size &&
                blocks[k].offset < blocks[i].offset + blocks[i].size)
                return true;
    return false;
}
