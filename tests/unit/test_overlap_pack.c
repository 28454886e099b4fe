/*
 * test_overlap_pack.c - src/plan/overlap.c: outputs grouped with their
 * inputs at the links' leads, chains composing, links refused when they
 * would make live blocks collide or grow the arena, and every result a
 * valid placement (blocks live together share bytes only along a kept
 * link, the output at least the lead below its input, or the back lead
 * above it when the link's output was put above), and reversible chains
 * alternating so that they stay within one lead.
 */
#include "plan/plan.h"

#include "check.h"

#include <stdio.h>
#include <string.h>

static TaBlock block(size_t size, int first, int last, int order)
{
    return (TaBlock){.size = size, .first = first, .last = last, .order = order};
}

static bool linked(const TaOverlapLink *links, const bool *kept, int num_links, int in, int out)
{
    for (int k = 0; k < num_links; k++)
        if (kept[k] && links[k].input == in && links[k].output == out)
            return true;
    return false;
}

/* Live blocks share bytes only along kept links, at the lead or more. */
static void check_valid(const char *what, const TaBlock *b, int n, const TaOverlapLink *links,
                        const bool *kept, const bool *above, int num_links, size_t arena)
{
    for (int i = 0; i < n; i++) {
        CHECK(b[i].offset + b[i].size <= arena, "%s: block %d past the arena", what, i);
        for (int k = 0; k < n; k++) {
            if (i == k || b[i].first > b[k].last || b[k].first > b[i].last)
                continue;
            const bool share = b[i].offset < b[k].offset + b[k].size &&
                               b[k].offset < b[i].offset + b[i].size;
            if (!share)
                continue;
            const bool allowed = linked(links, kept, num_links, i, k) ||
                                 linked(links, kept, num_links, k, i);
            CHECK(allowed, "%s: blocks %d and %d collide", what, i, k);
            for (int l = 0; l < num_links; l++) {
                if (!kept[l] || links[l].input != i || links[l].output != k)
                    continue;
                CHECK(!above[l] || links[l].reversible, "%s: link %d turned around", what, l);
                CHECK(above[l] || !links[l].above_only, "%s: link %d left below", what, l);
                if (above[l])
                    CHECK(b[k].offset >= b[i].offset + links[l].back_lead,
                          "%s: output %d only %zu above input %d, back lead %zu", what, k,
                          b[k].offset - b[i].offset, i, links[l].back_lead);
                else
                    CHECK(b[i].offset >= b[k].offset + links[l].lead,
                          "%s: output %d only %zu below input %d, lead %zu", what, k,
                          b[i].offset - b[k].offset, i, links[l].lead);
            }
        }
    }
}

/* A chain a -> b -> c of equal tensors: each output 16 below its input, so
   the arena is one tensor and two leads instead of two tensors. */
static void test_chain(void)
{
    TaBlock b[3] = {block(100, 0, 1, 0), block(100, 1, 2, 1), block(100, 2, 3, 2)};
    const TaOverlapLink links[2] = {{0, 1, 16, false, 0, false}, {1, 2, 16, false, 0, false}};
    bool kept[2], above[2];
    CHECK(ta_pack(b, 3, 16) == 224, "apart: two tensors (aligned)");
    const size_t arena = ta_pack_overlapping(b, 3, links, 2, 16, ta_pack_greedy, NULL, kept, above);
    CHECK(kept[0] && kept[1], "both links kept");
    CHECK(arena == 112 + 32, "arena %zu", arena);
    CHECK(b[0].offset == b[1].offset + 16 && b[1].offset == b[2].offset + 16, "offsets %zu %zu %zu",
          b[0].offset, b[1].offset, b[2].offset);
    check_valid("chain", b, 3, links, kept, above, 2, arena);
}

/* An output larger than its input (a 1x1 convolution widening channels):
   it may run past the input's end, and the group's extent is its size. */
static void test_wider_output(void)
{
    TaBlock b[2] = {block(64, 0, 1, 0), block(128, 1, 2, 1)};
    const TaOverlapLink links[1] = {{0, 1, 80, false, 0, false}};
    bool kept[1], above[1];
    const size_t arena = ta_pack_overlapping(b, 2, links, 1, 16, ta_pack_greedy, NULL, kept, above);
    CHECK(kept[0] && arena == 144, "arena %zu (80 + 64 above the output's start)", arena);
    check_valid("wider", b, 2, links, kept, above, 1, arena);
}

/* A link that does not lower the peak elsewhere is kept only if the arena
   does not grow: here the peak is at operator 0, where the model input and
   the first tensor live, so grouping would only add the lead. */
static void test_link_that_would_grow_the_arena(void)
{
    TaBlock b[3] = {block(100, 0, 0, 0), block(100, 0, 1, 1), block(100, 1, 2, 2)};
    const TaOverlapLink links[1] = {{1, 2, 16, false, 0, false}};
    bool kept[1], above[1];
    const size_t arena = ta_pack_overlapping(b, 3, links, 1, 16, ta_pack_greedy, NULL, kept, above);
    CHECK(arena == 224, "arena %zu: no larger than apart", arena);
    check_valid("grow", b, 3, links, kept, above, 1, arena);
}

/* A member of the group live with the new output must not share its bytes:
   the link from 1 to 2 would put 2 on 0, which is still live. */
static void test_collision_refused(void)
{
    TaBlock b[3] = {block(32, 0, 3, 0), block(32, 1, 2, 1), block(32, 2, 3, 2)};
    const TaOverlapLink links[2] = {{0, 1, 32, false, 0, false}, {1, 2, 32, false, 0, false}};
    bool kept[2], above[2];
    const size_t arena = ta_pack_overlapping(b, 3, links, 2, 16, ta_pack_greedy, NULL, kept, above);
    check_valid("collision", b, 3, links, kept, above, 2, arena);
    CHECK(!(kept[0] && kept[1]) || b[2].offset + 32 <= b[0].offset ||
              b[0].offset + 32 <= b[2].offset,
          "2 placed on 0");
}

/* Five equal tensors chained by links that may also put the output above
   their input: all below would take four leads; alternating keeps the
   chain within one. */
static void test_alternating_chain(void)
{
    TaBlock b[5];
    TaOverlapLink links[4];
    for (int i = 0; i < 5; i++)
        b[i] = block(1000, i, i + 1, i);
    for (int i = 0; i < 4; i++)
        links[i] = (TaOverlapLink){i, i + 1, 96, true, 96, false};
    bool kept[4], above[4];
    const size_t arena = ta_pack_overlapping(b, 5, links, 4, 16, ta_pack_greedy, NULL, kept, above);
    CHECK(kept[0] && kept[1] && kept[2] && kept[3], "every link kept");
    CHECK(arena == 1008 + 96, "arena %zu, not one tensor and one lead", arena);
    int ups = 0;
    for (int i = 0; i < 4; i++)
        ups += above[i];
    CHECK(ups == 2, "%d of 4 outputs above their inputs", ups);
    check_valid("alternating", b, 5, links, kept, above, 4, arena);
}

/* Links that may only go above do: the chain then climbs one back lead
   per link. */
static void test_above_only(void)
{
    TaBlock b[3] = {block(100, 0, 1, 0), block(100, 1, 2, 1), block(100, 2, 3, 2)};
    const TaOverlapLink links[2] = {{0, 1, 16, true, 32, true}, {1, 2, 16, true, 32, true}};
    bool kept[2], above[2];
    const size_t arena = ta_pack_overlapping(b, 3, links, 2, 16, ta_pack_greedy, NULL, kept, above);
    CHECK(kept[0] && kept[1] && above[0] && above[1], "both kept above");
    CHECK(arena == 112 + 64, "arena %zu", arena);
    check_valid("above only", b, 3, links, kept, above, 2, arena);
}

/* A link that cannot be turned around never is. */
static void test_forward_only_stays_below(void)
{
    TaBlock b[3] = {block(100, 0, 1, 0), block(100, 1, 2, 1), block(100, 2, 3, 2)};
    const TaOverlapLink links[2] = {{0, 1, 16, false, 0, false}, {1, 2, 16, false, 0, false}};
    bool kept[2], above[2];
    const size_t arena = ta_pack_overlapping(b, 3, links, 2, 16, ta_pack_greedy, NULL, kept, above);
    CHECK(!above[0] && !above[1], "forward-only links above");
    check_valid("forward only", b, 3, links, kept, above, 2, arena);
}

/* Random chains with side tensors: always valid and never above ta_pack. */
static void test_random(void)
{
    unsigned seed = 777;
    for (int t = 0; t < 300; t++) {
        TaBlock b[16], apart[16];
        TaOverlapLink links[16];
        bool kept[16], above[16];
        int n = 0, num_links = 0;
        for (int op = 0; op < 8 && n < 15; op++) {
            seed = seed * 1103515245u + 12345u;
            b[n] = block(16 + (seed >> 16) % 400, op, op + 1, n);
            if (op > 0) {
                seed = seed * 1103515245u + 12345u;
                const size_t lead = (seed >> 16) % 200;
                seed = seed * 1103515245u + 12345u;
                links[num_links++] = (TaOverlapLink){
                    n - 1, n, lead, (seed >> 16) % 2 == 0, (seed >> 17) % 200, false};
            }
            n++;
            seed = seed * 1103515245u + 12345u;
            if ((seed >> 16) % 3 == 0) { /* a side tensor live a while */
                seed = seed * 1103515245u + 12345u;
                b[n] = block((seed >> 16) % 300, op, op + (int)(seed >> 20) % 4, n);
                n++;
            }
        }
        /* the chain's tensors are 0, then every link's output */
        memcpy(apart, b, sizeof b);
        const size_t separate = ta_pack(apart, n, 8);
        const size_t arena = ta_pack_overlapping(b, n, links, num_links, 8, ta_pack_greedy, NULL,
                                                 kept, above);
        CHECK(arena <= separate, "instance %d: %zu above %zu apart", t, arena, separate);
        check_valid("random", b, n, links, kept, above, num_links, arena);
    }
}

int main(void)
{
    test_chain();
    test_wider_output();
    test_link_that_would_grow_the_arena();
    test_collision_refused();
    test_alternating_chain();
    test_forward_only_stays_below();
    test_above_only();
    test_random();
    return check_summary("overlap pack");
}
