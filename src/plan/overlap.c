/*
 * overlap.c - packing with "output over input": an operator whose kernel
 * reads its input ahead of its writes (the lowering's overlap_lead) may
 * have its output start below the input and run up into it.
 *
 * Each kept link puts its output at a fixed offset below its input, which
 * makes chains of tensors one rigid group (members at relative offsets).
 * A group is packed two ways and the smaller arena kept:
 *   - as one block of the group's extent, live from its first member's
 *     first use to its last member's last use, by the packer given (so
 *     every packer works on it unchanged);
 *   - member by member: each group, largest first, at the lowest aligned
 *     offset where none of its members meets a member of a group already
 *     placed that is live at the same time (a long chain's dead upper part
 *     then holds other tensors).
 * Links are tried in execution order and kept when the arena does not grow
 * (a link that only moves bytes around at one operator can still let a
 * later one lower the peak); then the ones left out are tried once more.
 *
 * A reversible link (a kernel that can walk backwards) may instead put its
 * output above its input. Outputs all below their inputs drift down along
 * a chain by the sum of the leads; alternating directions keeps the chain
 * within about one lead, so the directions of the kept reversible links
 * are searched: every combination when there are few, else flips one at a
 * time while the arena shrinks.
 */
#include "plan.h"

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

static bool bytes_overlap(int64_t a, size_t a_size, int64_t b, size_t b_size)
{
    return a < b + (int64_t)b_size && b < a + (int64_t)a_size;
}

typedef struct Groups {
    const TaBlock *blocks;
    int n;
    size_t alignment;
    TaPacker pack;
    const void *pack_ctx;
    const bool *above; /* link -> output above its input */
    int *group;        /* block -> index of its group's first block */
    int64_t *rel;      /* block -> offset inside its group */
    size_t *size;      /* block -> aligned size */
} Groups;

/* Adds the output of link l to its input's group; false (nothing changed)
   when the output would meet another member live at the same time. */
static bool join(Groups *G, const TaOverlapLink *l, bool above)
{
    const int a = l->input, b = l->output, g = G->group[a];
    if (G->group[b] != b)
        return false;
    for (int m = 0; m < G->n; m++)
        if (G->group[m] == b && m != b)
            return false; /* b already leads a group of its own */
    const int64_t rel_b = above ? G->rel[a] + (int64_t)l->back_lead : G->rel[a] - (int64_t)l->lead;
    for (int m = 0; m < G->n; m++)
        if (G->group[m] == g && m != a && lives_overlap(&G->blocks[m], &G->blocks[b]) &&
            bytes_overlap(G->rel[m], G->size[m], rel_b, G->size[b]))
            return false;
    G->group[b] = g;
    G->rel[b] = rel_b;
    if (rel_b < 0)
        for (int m = 0; m < G->n; m++)
            if (G->group[m] == g)
                G->rel[m] -= rel_b;
    return true;
}

/* Groups from the links marked in `use`; a link that cannot join is
   unmarked. */
static void build_groups(Groups *G, const TaOverlapLink *links, int num_links, bool *use)
{
    for (int i = 0; i < G->n; i++) {
        G->group[i] = i;
        G->rel[i] = 0;
    }
    for (int k = 0; k < num_links; k++)
        if (use[k] && !join(G, &links[k], G->above[k]))
            use[k] = false;
}

/* The groups as blocks of their extent, packed by G->pack; member offsets
   into `offsets`. */
static size_t pack_as_blocks(const Groups *G, size_t *offsets)
{
    TaBlock *gb = ta_heap_realloc(NULL, (size_t)G->n * sizeof *gb);
    int *index = ta_heap_realloc(NULL, (size_t)G->n * sizeof *index);
    int count = 0;
    for (int i = 0; i < G->n; i++) {
        if (G->group[i] != i)
            continue;
        TaBlock c = {.size = 0,
                     .first = G->blocks[i].first,
                     .last = G->blocks[i].last,
                     .order = G->blocks[i].order};
        for (int m = 0; m < G->n; m++) {
            if (G->group[m] != i)
                continue;
            const size_t end = (size_t)G->rel[m] + G->size[m];
            c.size = end > c.size ? end : c.size;
            c.first = G->blocks[m].first < c.first ? G->blocks[m].first : c.first;
            c.last = G->blocks[m].last > c.last ? G->blocks[m].last : c.last;
        }
        index[i] = count;
        gb[count++] = c;
    }
    const size_t arena = G->pack(gb, count, G->alignment, G->pack_ctx);
    for (int m = 0; m < G->n; m++)
        offsets[m] = gb[index[G->group[m]]].offset + (size_t)G->rel[m];
    ta_heap_free(gb);
    ta_heap_free(index);
    return arena;
}

typedef struct GroupOrder {
    int first;     /* the group's first block */
    size_t extent; /* bytes from its lowest to its highest member's end */
    int order;
} GroupOrder;

static int by_extent(const void *pa, const void *pb)
{
    const GroupOrder *a = pa, *b = pb;
    if (a->extent != b->extent)
        return a->extent < b->extent ? 1 : -1;
    return (a->order > b->order) - (a->order < b->order);
}

static int by_value(const void *pa, const void *pb)
{
    const size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    return (a > b) - (a < b);
}

/* Whether group g fits at `base` beside the members already placed. */
static bool group_fits(const Groups *G, int g, size_t base, const bool *placed,
                       const size_t *offsets)
{
    for (int m = 0; m < G->n; m++) {
        if (G->group[m] != g)
            continue;
        const int64_t at = (int64_t)base + G->rel[m];
        for (int o = 0; o < G->n; o++)
            if (placed[o] && lives_overlap(&G->blocks[m], &G->blocks[o]) &&
                bytes_overlap(at, G->size[m], (int64_t)offsets[o], G->size[o]))
                return false;
    }
    return true;
}

/* First fit of whole groups against the members already placed. */
static size_t pack_by_members(const Groups *G, size_t *offsets)
{
    GroupOrder *order = ta_heap_realloc(NULL, (size_t)G->n * sizeof *order);
    bool *placed = ta_heap_realloc(NULL, (size_t)G->n * sizeof *placed);
    size_t *bases = ta_heap_realloc(NULL, ((size_t)G->n * (size_t)G->n + 1) * sizeof *bases);
    memset(placed, 0, (size_t)G->n * sizeof *placed);
    int count = 0;
    for (int i = 0; i < G->n; i++) {
        if (G->group[i] != i)
            continue;
        size_t extent = 0;
        for (int m = 0; m < G->n; m++)
            if (G->group[m] == i && (size_t)G->rel[m] + G->size[m] > extent)
                extent = (size_t)G->rel[m] + G->size[m];
        order[count++] = (GroupOrder){i, extent, G->blocks[i].order};
    }
    qsort(order, (size_t)count, sizeof *order, by_extent);
    size_t arena = 0;
    for (int k = 0; k < count; k++) {
        const int g = order[k].first;
        /* Candidate bases: 0 and every place where a member of g would
           start right at the end of a placed member. */
        int nb = 0;
        bases[nb++] = 0;
        for (int m = 0; m < G->n; m++) {
            if (G->group[m] != g)
                continue;
            for (int o = 0; o < G->n; o++) {
                if (!placed[o] || !lives_overlap(&G->blocks[m], &G->blocks[o]))
                    continue;
                const int64_t b = (int64_t)offsets[o] + (int64_t)G->size[o] - G->rel[m];
                if (b > 0)
                    bases[nb++] = align_up((size_t)b, G->alignment);
            }
        }
        /* Lowest first: the first that fits is the answer. */
        qsort(bases, (size_t)nb, sizeof *bases, by_value);
        size_t best = SIZE_MAX;
        for (int c = 0; c < nb && best == SIZE_MAX; c++)
            if ((c == 0 || bases[c] != bases[c - 1]) && group_fits(G, g, bases[c], placed, offsets))
                best = bases[c];
        for (int m = 0; m < G->n; m++) {
            if (G->group[m] != g)
                continue;
            offsets[m] = best + (size_t)G->rel[m];
            placed[m] = true;
            if (offsets[m] + G->size[m] > arena)
                arena = offsets[m] + G->size[m];
        }
    }
    ta_heap_free(order);
    ta_heap_free(placed);
    ta_heap_free(bases);
    return arena;
}

/* The arena for the links marked in `use` (unmarking those that cannot
   join), offsets of the better packing into `offsets`. */
static size_t evaluate(Groups *G, const TaOverlapLink *links, int num_links, bool *use,
                       const bool *above, size_t *offsets, size_t *spare)
{
    G->above = above;
    build_groups(G, links, num_links, use);
    const size_t as_blocks = pack_as_blocks(G, offsets);
    const size_t by_members = pack_by_members(G, spare);
    if (by_members < as_blocks) {
        memcpy(offsets, spare, (size_t)G->n * sizeof *offsets);
        return by_members;
    }
    return as_blocks;
}

/* Every combination of directions of the kept reversible links `rev`
   (count of them), the best kept in kept/above; returns its arena. */
static size_t search_directions(Groups *G, const TaOverlapLink *links, int num_links, bool *kept,
                                bool *above, const int *rev, int count, size_t best,
                                size_t *offsets, size_t *spare, bool *trial, bool *trial_above)
{
    for (uint32_t mask = 0; mask < (1u << count); mask++) {
        memcpy(trial, kept, (size_t)num_links * sizeof *trial);
        memcpy(trial_above, above, (size_t)num_links * sizeof *trial_above);
        bool allowed = true;
        for (int r = 0; r < count; r++) {
            trial_above[rev[r]] = (mask >> r) & 1u;
            allowed = allowed && (trial_above[rev[r]] || !links[rev[r]].above_only);
        }
        if (!allowed)
            continue;
        const size_t size = evaluate(G, links, num_links, trial, trial_above, offsets, spare);
        if (size < best) {
            best = size;
            memcpy(kept, trial, (size_t)num_links * sizeof *kept);
            memcpy(above, trial_above, (size_t)num_links * sizeof *above);
        }
    }
    return best;
}

/* One link turned around at a time, kept while the arena shrinks. */
static size_t flip_directions(Groups *G, const TaOverlapLink *links, int num_links, bool *kept,
                              bool *above, size_t best, size_t *offsets, size_t *spare, bool *trial,
                              bool *trial_above)
{
    for (bool better = true; better;) {
        better = false;
        for (int k = 0; k < num_links; k++) {
            if (!kept[k] || !links[k].reversible || links[k].above_only)
                continue;
            memcpy(trial, kept, (size_t)num_links * sizeof *trial);
            memcpy(trial_above, above, (size_t)num_links * sizeof *trial_above);
            trial_above[k] = !above[k];
            const size_t size = evaluate(G, links, num_links, trial, trial_above, offsets, spare);
            if (trial[k] && size < best) {
                best = size;
                better = true;
                memcpy(kept, trial, (size_t)num_links * sizeof *kept);
                memcpy(above, trial_above, (size_t)num_links * sizeof *above);
            }
        }
    }
    return best;
}

size_t ta_pack_overlapping(TaBlock *blocks, int n, const TaOverlapLink *links, int num_links,
                           size_t alignment, TaPacker pack, const void *pack_ctx, bool *kept,
                           bool *above)
{
    for (int k = 0; k < num_links; k++)
        kept[k] = above[k] = false;
    if (n == 0)
        return 0;
    Groups G = {
        .blocks = blocks, .n = n, .alignment = alignment, .pack = pack, .pack_ctx = pack_ctx};
    G.group = ta_heap_realloc(NULL, (size_t)n * sizeof *G.group);
    G.rel = ta_heap_realloc(NULL, (size_t)n * sizeof *G.rel);
    G.size = ta_heap_realloc(NULL, (size_t)n * sizeof *G.size);
    size_t *offsets = ta_heap_realloc(NULL, (size_t)n * sizeof *offsets);
    size_t *spare = ta_heap_realloc(NULL, (size_t)n * sizeof *spare);
    bool *trial = ta_heap_realloc(NULL, ((size_t)num_links + 1) * sizeof *trial);
    bool *trial_above = ta_heap_realloc(NULL, ((size_t)num_links + 1) * sizeof *trial_above);
    int *rev = ta_heap_realloc(NULL, ((size_t)num_links + 1) * sizeof *rev);
    for (int i = 0; i < n; i++)
        G.size[i] = align_up(blocks[i].size, alignment);
    size_t best = evaluate(&G, links, num_links, kept, above, offsets, spare);
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < num_links; k++)
            for (int dir = links[k].above_only; dir < 1 + links[k].reversible; dir++) {
                if (kept[k] && above[k] == dir)
                    continue;
                memcpy(trial, kept, (size_t)num_links * sizeof *trial);
                memcpy(trial_above, above, (size_t)num_links * sizeof *trial_above);
                trial[k] = true;
                trial_above[k] = dir;
                const size_t size = evaluate(&G, links, num_links, trial, trial_above, offsets,
                                             spare);
                /* A link left out joins if the arena does not grow; a
                   kept one turns around only if it shrinks. */
                if (trial[k] && (kept[k] ? size < best : size <= best)) {
                    best = size;
                    memcpy(kept, trial, (size_t)num_links * sizeof *kept);
                    memcpy(above, trial_above, (size_t)num_links * sizeof *above);
                }
            }
    int count = 0;
    for (int k = 0; k < num_links; k++)
        if (kept[k] && links[k].reversible)
            rev[count++] = k;
    /* Either search leaves its choice in kept/above; the layout below
       gives its offsets and arena. */
    if (count <= TA_OVERLAP_EXACT_DIRECTIONS)
        search_directions(&G, links, num_links, kept, above, rev, count, best, offsets, spare,
                          trial, trial_above);
    else
        flip_directions(&G, links, num_links, kept, above, best, offsets, spare, trial,
                        trial_above);
    best = evaluate(&G, links, num_links, kept, above, offsets, spare);
    for (int i = 0; i < n; i++)
        blocks[i].offset = offsets[i];
    ta_heap_free(G.group);
    ta_heap_free(G.rel);
    ta_heap_free(G.size);
    ta_heap_free(offsets);
    ta_heap_free(spare);
    ta_heap_free(trial);
    ta_heap_free(trial_above);
    ta_heap_free(rev);
    return best;
}
