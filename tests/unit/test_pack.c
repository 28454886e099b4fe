/*
 * test_pack.c - the interval packer of src/plan/pack.c: each greedy order
 * alone, ta_pack keeping the smallest of them, the lower bound and the
 * overlap check, on hand-made cases and on random ones.
 */
#include "plan/plan.h"

#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const strategy_names[TA_PACK_STRATEGIES] = {"by size", "by area", "by span",
                                                               "by first use"};

typedef struct Case {
    const char *name;
    int n;
    TaBlock blocks[8];
    size_t expected[TA_PACK_STRATEGIES]; /* arena of each strategy alone */
    size_t lower_bound;
} Case;

#define B(size, first, last, order)         \
    {                                       \
        (size), (first), (last), (order), 0 \
    }

/* Each case is won by exactly one strategy (found by search, each size
   checked by hand): why ta_pack tries all four. */
static const Case cases[] = {
    {"size wins",
     5,
     {B(64, 1, 2, 0), B(64, 0, 0, 1), B(80, 3, 3, 2), B(64, 2, 3, 3), B(48, 1, 4, 4)},
     {192, 256, 256, 256},
     192},
    {"area wins",
     5,
     {B(64, 4, 4, 0), B(64, 0, 1, 1), B(64, 3, 4, 2), B(16, 0, 3, 3), B(64, 3, 6, 4)},
     {208, 192, 208, 208},
     192},
    {"span wins",
     5,
     {B(96, 0, 1, 0), B(64, 3, 6, 1), B(32, 1, 4, 2), B(48, 2, 5, 3), B(64, 1, 3, 4)},
     {240, 240, 208, 256},
     208},
    {"first use wins",
     5,
     {B(80, 4, 4, 0), B(64, 3, 4, 1), B(48, 1, 3, 2), B(16, 4, 5, 3), B(64, 1, 1, 4)},
     {192, 192, 192, 160},
     160},
};

static size_t align_up(size_t x, size_t a)
{
    return (x + a - 1) / a * a;
}

/* What every packing must satisfy; returns the arena the offsets imply. */
static size_t check_packing(const char *what, const TaBlock *b, int n, size_t alignment,
                            size_t arena)
{
    size_t end = 0;
    for (int i = 0; i < n; i++) {
        CHECK(b[i].offset % alignment == 0, "%s: block %d at %zu", what, i, b[i].offset);
        size_t e = b[i].offset + align_up(b[i].size, alignment);
        end = e > end ? e : end;
    }
    CHECK(end == arena, "%s: blocks end at %zu, arena %zu", what, end, arena);
    CHECK(!ta_pack_has_overlap(b, n), "%s: blocks live together overlap", what);
    CHECK(arena >= ta_pack_lower_bound(b, n, alignment), "%s: %zu below the lower bound %zu", what,
          arena, ta_pack_lower_bound(b, n, alignment));
    return end;
}

static void test_each_strategy_wins_its_case(void)
{
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const Case *k = &cases[c];
        TaBlock b[8];
        size_t best = SIZE_MAX;
        TaBlock best_blocks[8];
        for (int s = 0; s < TA_PACK_STRATEGIES; s++) {
            memcpy(b, k->blocks, sizeof b);
            size_t arena = ta_pack_with(b, k->n, 16, (TaPackStrategy)s);
            CHECK(arena == k->expected[s], "%s, %s: arena %zu, expected %zu", k->name,
                  strategy_names[s], arena, k->expected[s]);
            check_packing(k->name, b, k->n, 16, arena);
            if (arena < best) {
                best = arena;
                memcpy(best_blocks, b, sizeof b);
            }
        }
        memcpy(b, k->blocks, sizeof b);
        size_t arena = ta_pack(b, k->n, 16);
        CHECK(arena == best, "%s: ta_pack %zu, best strategy %zu", k->name, arena, best);
        for (int i = 0; i < k->n; i++)
            CHECK(b[i].offset == best_blocks[i].offset, "%s: block %d at %zu, not %zu", k->name, i,
                  b[i].offset, best_blocks[i].offset);
        CHECK(ta_pack_lower_bound(k->blocks, k->n, 16) == k->lower_bound, "%s: lower bound %zu",
              k->name, ta_pack_lower_bound(k->blocks, k->n, 16));
        CHECK(arena == k->lower_bound, "%s: the winner reaches the bound", k->name);
    }
}

/* By size, largest first: A at 0, C (lifetime apart from A) at 0 too, B
   (alive with both) above them. */
static void test_first_fit_reuses_dead_space(void)
{
    TaBlock b[] = {B(100, 0, 1, 0), B(50, 1, 2, 1), B(100, 2, 3, 2)};
    size_t arena = ta_pack_with(b, 3, 1, TA_PACK_BY_SIZE);
    CHECK(arena == 150, "arena %zu", arena);
    CHECK(b[0].offset == 0 && b[2].offset == 0 && b[1].offset == 100, "offsets %zu %zu %zu",
          b[0].offset, b[1].offset, b[2].offset);
    /* Sizes round up to the alignment: 100 -> 128. */
    arena = ta_pack_with(b, 3, 64, TA_PACK_BY_SIZE);
    CHECK(arena == 192 && b[1].offset == 128, "aligned arena %zu, B at %zu", arena, b[1].offset);
    CHECK(ta_pack(NULL, 0, 16) == 0, "no blocks, no arena");
    for (int s = 0; s < TA_PACK_STRATEGIES; s++)
        CHECK(ta_pack_with(NULL, 0, 16, (TaPackStrategy)s) == 0, "%s: no blocks",
              strategy_names[s]);
}

static void test_lower_bound(void)
{
    CHECK(ta_pack_lower_bound(NULL, 0, 16) == 0, "empty");
    TaBlock apart[] = {B(100, 0, 0, 0), B(300, 1, 1, 1), B(200, 2, 2, 2)};
    CHECK(ta_pack_lower_bound(apart, 3, 1) == 300, "disjoint lifetimes: the largest");
    TaBlock together[] = {B(10, 0, 2, 0), B(10, 1, 1, 1), B(10, 2, 3, 2)};
    CHECK(ta_pack_lower_bound(together, 3, 1) == 20, "two live at once");
    CHECK(ta_pack_lower_bound(together, 3, 16) == 32, "each rounded to the alignment");
    /* A block live from the first operator to the last counts at each. */
    TaBlock span[] = {B(8, 0, 5, 0), B(4, 5, 5, 1), B(4, 3, 3, 2)};
    CHECK(ta_pack_lower_bound(span, 3, 1) == 12, "the busiest operator");
}

static void test_overlap_detection(void)
{
    TaBlock b[2] = {B(16, 0, 1, 0), B(16, 1, 2, 1)};
    b[0].offset = 0, b[1].offset = 8;
    CHECK(ta_pack_has_overlap(b, 2), "live together, bytes 8..15 shared");
    b[1].offset = 16;
    CHECK(!ta_pack_has_overlap(b, 2), "adjacent: one ends where the other starts");
    b[1].offset = 0;
    CHECK(ta_pack_has_overlap(b, 2), "same offset, live together");
    b[1].first = b[1].last = 2;
    CHECK(!ta_pack_has_overlap(b, 2), "same bytes, lifetimes apart");
    b[1].first = 1, b[1].size = 0;
    CHECK(!ta_pack_has_overlap(b, 2), "an empty block occupies nothing");
    TaBlock three[3] = {B(4, 0, 0, 0), B(4, 0, 0, 1), B(4, 0, 0, 2)};
    three[0].offset = 0, three[1].offset = 4, three[2].offset = 6;
    CHECK(ta_pack_has_overlap(three, 3), "found between any two, not only neighbours");
}

/* Random instances: every strategy gives a valid packing, deterministically,
   and ta_pack the smallest of them. */
static void test_random_instances(void)
{
    unsigned seed = 12345;
    for (int t = 0; t < 500; t++) {
        TaBlock b[24], again[24];
        seed = seed * 1103515245u + 12345u;
        int n = 1 + (int)(seed >> 16) % 24;
        for (int i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            int first = (int)(seed >> 16) % 16;
            seed = seed * 1103515245u + 12345u;
            int span = (int)(seed >> 16) % 6;
            seed = seed * 1103515245u + 12345u;
            size_t size = (seed >> 16) % 1000;
            b[i] = (TaBlock)B(size, first, first + span, i);
        }
        size_t alignment = (size_t)1 << (t % 5);
        size_t best = SIZE_MAX;
        for (int s = 0; s < TA_PACK_STRATEGIES; s++) {
            size_t arena = ta_pack_with(b, n, alignment, (TaPackStrategy)s);
            check_packing(strategy_names[s], b, n, alignment, arena);
            memcpy(again, b, sizeof b);
            CHECK(ta_pack_with(again, n, alignment, (TaPackStrategy)s) == arena &&
                      memcmp(again, b, (size_t)n * sizeof *b) == 0,
                  "%s: instance %d packs differently the second time", strategy_names[s], t);
            best = arena < best ? arena : best;
        }
        size_t arena = ta_pack(b, n, alignment);
        CHECK(arena == best, "instance %d: ta_pack %zu, best strategy %zu", t, arena, best);
        check_packing("ta_pack", b, n, alignment, arena);
    }
}

int main(void)
{
    test_each_strategy_wins_its_case();
    test_first_fit_reuses_dead_space();
    test_lower_bound();
    test_overlap_detection();
    test_random_instances();
    return check_summary("pack");
}
