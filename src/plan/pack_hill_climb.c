/*
 * pack_hill_climb.c - the hill_climb planner: a local search over the order
 * first fit places blocks in.
 *
 * It starts from greedy's plan, read as an order (blocks by offset: first
 * fit in that order puts every block at or below where greedy put it, so
 * the start is never worse), then tries `iterations` swaps of two blocks
 * drawn from a seeded generator. A swap that does not grow the arena is
 * kept (equal arenas let the search cross plateaus); the smallest arena
 * seen wins. It stops early at the lower bound, which nothing can beat,
 * and after `max_stall` swaps in a row without a new best (when not 0).
 */
#include "planners.h"

#include <stdlib.h>
#include <string.h>

/* splitmix64: a small generator whose sequence depends on the seed only. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static int by_offset_then_order(const void *pa, const void *pb)
{
    const TaBlock *a = *(const TaBlock *const *)pa, *b = *(const TaBlock *const *)pb;
    if (a->offset != b->offset)
        return a->offset > b->offset ? 1 : -1;
    return (a->order > b->order) - (a->order < b->order);
}

size_t ta_pack_hill_climb(TaBlock *blocks, int n, size_t alignment, uint64_t iterations,
                          uint64_t seed, uint64_t max_stall, uint64_t *tried)
{
    *tried = 0;
    if (n == 0)
        return 0;
    size_t best = ta_pack(blocks, n, alignment);
    const size_t bound = ta_pack_lower_bound(blocks, n, alignment);
    TaBlock **order = ta_heap_realloc(NULL, (size_t)n * sizeof *order);
    TaBlock **scratch = ta_heap_realloc(NULL, (size_t)n * sizeof *scratch);
    size_t *best_offsets = ta_heap_realloc(NULL, (size_t)n * sizeof *best_offsets);
    for (int i = 0; i < n; i++) {
        order[i] = &blocks[i];
        best_offsets[i] = blocks[i].offset;
    }
    qsort(order, (size_t)n, sizeof *order, by_offset_then_order);
    size_t current = ta_pack_first_fit(order, n, alignment, scratch);
    if (current <= best) {
        best = current;
        for (int i = 0; i < n; i++)
            best_offsets[i] = blocks[i].offset;
    }
    uint64_t state = seed, stall = 0;
    for (uint64_t it = 0; it < iterations && best > bound && n > 1; it++) {
        if (max_stall && stall >= max_stall)
            break;
        stall++;
        int i = (int)(next_random(&state) % (uint64_t)n);
        int j = (int)(next_random(&state) % (uint64_t)(n - 1));
        j += j >= i; /* two different positions */
        TaBlock *t = order[i];
        order[i] = order[j];
        order[j] = t;
        size_t arena = ta_pack_first_fit(order, n, alignment, scratch);
        (*tried)++;
        if (arena > current) { /* undo */
            order[j] = order[i];
            order[i] = t;
            continue;
        }
        current = arena;
        if (arena < best) {
            stall = 0;
            best = arena;
            for (int k = 0; k < n; k++)
                best_offsets[k] = blocks[k].offset;
        }
    }
    for (int i = 0; i < n; i++)
        blocks[i].offset = best_offsets[i];
    ta_heap_free(order);
    ta_heap_free(scratch);
    ta_heap_free(best_offsets);
    return best;
}
