/*
 * pack_exact.c - the exact planner: branch and bound over the order in
 * which first fit places the blocks.
 *
 * Why orders suffice: take any valid packing and place its blocks by first
 * fit in order of their offsets. Each block's own offset is still free when
 * its turn comes (every earlier block it lives with ends at or below it),
 * so first fit puts it there or lower, and the arena does not grow. The
 * smallest arena over all orders is therefore the minimum.
 *
 * The search avoids orders that cannot differ:
 *   - two neighbours in the order that are never live together place the
 *     same either way round, so only the one with the smaller index first
 *     is tried;
 *   - blocks with the same size and lifetime are interchangeable, so they
 *     are taken in index order.
 * It starts from greedy's plan, prunes every partial order whose arena
 * already reaches the best found, and stops at once when the best equals
 * the lower bound (the largest total live at one operator). Finishing the
 * search proves the plan minimal as well; a node limit (each placement
 * tried is a node) keeps it deterministic and bounded, and when it is hit
 * the best plan so far is kept, unproven.
 */
#include "planners.h"

#include <stdlib.h>
#include <string.h>

typedef struct Interval {
    size_t start, end;
} Interval;

typedef struct Search {
    int n;
    const size_t *size;      /* aligned */
    unsigned char *conflict; /* n * n: live at the same time */
    int *twin;               /* previous block of equal size and lifetime, or -1 */
    int *candidates;         /* block indices, largest first: good plans early */
    bool *placed;
    size_t *offset;
    int *placed_list; /* in order of placement */
    Interval *intervals;
    size_t best;
    size_t *best_offset;
    size_t lower_bound;
    uint64_t nodes, limit;
    bool stopped;
} Search;

static size_t align_up(size_t x, size_t a)
{
    return (x + a - 1) / a * a;
}

static int by_start(const void *pa, const void *pb)
{
    const Interval *a = pa, *b = pb;
    return (a->start > b->start) - (a->start < b->start);
}

/* Lowest offset where block c fits beside the `depth` placed blocks. */
static size_t first_fit_offset(Search *S, int depth, int c)
{
    int m = 0;
    for (int k = 0; k < depth; k++) {
        int p = S->placed_list[k];
        if (S->conflict[(size_t)p * (size_t)S->n + (size_t)c])
            S->intervals[m++] = (Interval){S->offset[p], S->offset[p] + S->size[p]};
    }
    qsort(S->intervals, (size_t)m, sizeof *S->intervals, by_start);
    size_t offset = 0;
    for (int k = 0; k < m; k++) {
        if (S->intervals[k].start >= offset + S->size[c])
            break;
        if (S->intervals[k].end > offset)
            offset = S->intervals[k].end;
    }
    return offset;
}

static void search(Search *S, int depth, int prev, size_t height)
{
    if (depth == S->n) {
        if (height < S->best) {
            S->best = height;
            memcpy(S->best_offset, S->offset, (size_t)S->n * sizeof *S->offset);
        }
        return;
    }
    for (int i = 0; i < S->n; i++) {
        int c = S->candidates[i];
        if (S->placed[c])
            continue;
        if (S->twin[c] >= 0 && !S->placed[S->twin[c]])
            continue;
        if (prev >= 0 && c < prev && !S->conflict[(size_t)prev * (size_t)S->n + (size_t)c])
            continue;
        if (++S->nodes > S->limit) {
            S->stopped = true;
            return;
        }
        size_t offset = first_fit_offset(S, depth, c);
        size_t h = offset + S->size[c] > height ? offset + S->size[c] : height;
        if (h >= S->best)
            continue;
        S->placed[c] = true;
        S->offset[c] = offset;
        S->placed_list[depth] = c;
        search(S, depth + 1, c, h);
        S->placed[c] = false;
        if (S->stopped || S->best <= S->lower_bound)
            return;
    }
}

/* Block indices largest first, ties by `order` (an insertion sort: qsort
   would need the blocks in a global to compare indices). */
static void largest_first(const TaBlock *blocks, int *idx, int n)
{
    for (int i = 1; i < n; i++) {
        int v = idx[i], k = i;
        for (; k > 0; k--) {
            const TaBlock *a = &blocks[idx[k - 1]], *b = &blocks[v];
            if (a->size > b->size || (a->size == b->size && a->order <= b->order))
                break;
            idx[k] = idx[k - 1];
        }
        idx[k] = v;
    }
}

size_t ta_pack_exact(TaBlock *blocks, int n, size_t alignment, uint64_t node_limit, uint64_t *nodes,
                     bool *complete, size_t *greedy)
{
    *nodes = 0;
    *complete = true;
    *greedy = 0;
    if (n == 0)
        return 0;
    size_t best = *greedy = ta_pack(blocks, n, alignment);
    size_t bound = ta_pack_lower_bound(blocks, n, alignment);
    if (best <= bound)
        return best;

    Search S = {.n = n, .best = best, .lower_bound = bound, .limit = node_limit};
    size_t *size = ta_heap_realloc(NULL, (size_t)n * sizeof *size);
    S.conflict = ta_heap_realloc(NULL, (size_t)n * (size_t)n);
    S.twin = ta_heap_realloc(NULL, (size_t)n * sizeof *S.twin);
    S.candidates = ta_heap_realloc(NULL, (size_t)n * sizeof *S.candidates);
    S.placed = ta_heap_realloc(NULL, (size_t)n * sizeof *S.placed);
    S.offset = ta_heap_realloc(NULL, (size_t)n * sizeof *S.offset);
    S.placed_list = ta_heap_realloc(NULL, (size_t)n * sizeof *S.placed_list);
    S.intervals = ta_heap_realloc(NULL, (size_t)n * sizeof *S.intervals);
    S.best_offset = ta_heap_realloc(NULL, (size_t)n * sizeof *S.best_offset);
    S.size = size;
    for (int i = 0; i < n; i++) {
        size[i] = align_up(blocks[i].size, alignment);
        S.best_offset[i] = blocks[i].offset;
        S.placed[i] = false;
        S.candidates[i] = i;
        S.twin[i] = -1;
        for (int k = 0; k < n; k++)
            S.conflict[(size_t)i * (size_t)n + (size_t)k] = k != i &&
                                                            blocks[i].first <= blocks[k].last &&
                                                            blocks[k].first <= blocks[i].last;
        for (int k = i - 1; k >= 0 && S.twin[i] < 0; k--)
            if (blocks[k].size == blocks[i].size && blocks[k].first == blocks[i].first &&
                blocks[k].last == blocks[i].last)
                S.twin[i] = k;
    }
    largest_first(blocks, S.candidates, n);

    search(&S, 0, -1, 0);

    for (int i = 0; i < n; i++)
        blocks[i].offset = S.best_offset[i];
    *nodes = S.nodes > S.limit ? S.limit : S.nodes;
    *complete = !S.stopped || S.best <= S.lower_bound;
    best = S.best;
    ta_heap_free(size);
    ta_heap_free(S.conflict);
    ta_heap_free(S.twin);
    ta_heap_free(S.candidates);
    ta_heap_free(S.placed);
    ta_heap_free(S.offset);
    ta_heap_free(S.placed_list);
    ta_heap_free(S.intervals);
    ta_heap_free(S.best_offset);
    return best;
}
