/*
 * test_planners.c - the planners behind ta_pack_plan (src/plan/planners.h):
 * greedy, greedy_by_size, hill_climb and exact, each giving valid packings,
 * deterministically, and reporting against the lower bound; exact beating
 * greedy with a proof, checked by an independent search over offsets, and
 * falling back to greedy's plan, unproven, at its node limit.
 */
#include "plan/planners.h"

#include "../../include/tinyaot/tinyaot.h"

#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define B(size, first, last, order)         \
    {                                       \
        (size), (first), (last), (order), 0 \
    }

/* Found by random search: every greedy order needs 208 bytes, 192 is
   possible, and the lower bound (160) does not prove it. */
static const TaBlock exact_wins[] = {B(32, 2, 3, 0), B(80, 4, 5, 1), B(32, 1, 2, 2), B(80, 0, 1, 3),
                                     B(48, 1, 3, 4), B(80, 3, 4, 5), B(80, 0, 0, 6)};
enum { EXACT_WINS_N = 7 };

static size_t align_up(size_t x, size_t a)
{
    return (x + a - 1) / a * a;
}

static void check_packing(const char *what, const TaBlock *b, int n, size_t alignment, size_t arena)
{
    size_t end = 0;
    for (int i = 0; i < n; i++) {
        CHECK(b[i].offset % alignment == 0, "%s: block %d at %zu", what, i, b[i].offset);
        size_t e = b[i].offset + align_up(b[i].size, alignment);
        end = e > end ? e : end;
    }
    CHECK(end == arena, "%s: blocks end at %zu, arena %zu", what, end, arena);
    CHECK(!ta_pack_has_overlap(b, n), "%s: blocks live together overlap", what);
}

/* Whether the blocks fit in `arena` bytes at all: every offset that is a
   multiple of the alignment tried for every block (no first fit, no
   orders), so it checks the exact planner's reasoning independently. The
   caller passes the blocks largest first: any order finds a fit when one
   exists, and big blocks first fail sooner. */
static bool fits_in_order(const TaBlock *b, int n, size_t alignment, size_t arena, size_t *offsets,
                          int k)
{
    if (k == n)
        return true;
    size_t size = align_up(b[k].size, alignment);
    for (size_t off = 0; off + size <= arena; off += alignment) {
        bool clash = false;
        for (int i = 0; i < k && !clash; i++)
            clash = b[i].first <= b[k].last && b[k].first <= b[i].last && offsets[i] < off + size &&
                    off < offsets[i] + align_up(b[i].size, alignment);
        if (clash)
            continue;
        offsets[k] = off;
        if (fits_in_order(b, n, alignment, arena, offsets, k + 1))
            return true;
    }
    return false;
}

static int larger_first(const void *x, const void *y)
{
    const TaBlock *a = x, *b = y;
    return a->size < b->size ? 1 : a->size > b->size ? -1 : 0;
}

static bool fits(const TaBlock *b, int n, size_t alignment, size_t arena, size_t *offsets)
{
    TaBlock sorted[16];
    TA_ASSERT(n <= 16);
    memcpy(sorted, b, (size_t)n * sizeof *b);
    qsort(sorted, (size_t)n, sizeof *sorted, larger_first);
    return fits_in_order(sorted, n, alignment, arena, offsets, 0);
}

static TaPackResult plan(TaBlock *b, const TaBlock *from, int n, size_t alignment,
                         TaPlannerSettings s)
{
    memcpy(b, from, (size_t)n * sizeof *b);
    return ta_pack_plan(b, n, alignment, &s);
}

static void test_exact_beats_greedy_with_a_proof(void)
{
    TaBlock b[EXACT_WINS_N];
    size_t offsets[EXACT_WINS_N];
    const int n = EXACT_WINS_N;
    TaPackResult g = plan(b, exact_wins, n, 16, ta_planner_defaults(TA_PLANNER_GREEDY));
    CHECK(g.arena == 208 && g.proof == TA_PROOF_NONE, "greedy %zu, proof %d", g.arena, g.proof);
    CHECK(g.lower_bound == 160, "lower bound %zu", g.lower_bound);
    TaPackResult e = plan(b, exact_wins, n, 16, ta_planner_defaults(TA_PLANNER_EXACT));
    check_packing("exact", b, n, 16, e.arena);
    CHECK(e.arena == 192, "exact %zu", e.arena);
    CHECK(e.proof == TA_PROOF_SEARCH && !e.node_limit_hit, "proof %d", e.proof);
    CHECK(e.planner == TA_PLANNER_EXACT, "planner %s", ta_planner_name(e.planner));
    CHECK(e.lower_bound == 160 && e.nodes > 0, "bound %zu nodes %llu", e.lower_bound,
          (unsigned long long)e.nodes);
    /* The proof holds: nothing fits in 176 bytes, 192 does. */
    CHECK(!fits(exact_wins, n, 16, 176, offsets), "a packing in 176 bytes exists");
    CHECK(fits(exact_wins, n, 16, 192, offsets), "no packing in 192 bytes");
    CHECK(strcmp(ta_proof_text(e.proof), "proven (exhaustive search)") == 0, "%s",
          ta_proof_text(e.proof));
}

static void test_exact_at_its_node_limit_falls_back_unproven(void)
{
    TaBlock b[EXACT_WINS_N];
    TaPlannerSettings s = ta_planner_defaults(TA_PLANNER_EXACT);
    s.options[TA_PLANNER_OPTION_NODE_LIMIT] = 3;
    TaPackResult e = plan(b, exact_wins, EXACT_WINS_N, 16, s);
    check_packing("exact, 3 nodes", b, EXACT_WINS_N, 16, e.arena);
    CHECK(e.arena == 208 && e.node_limit_hit && e.proof == TA_PROOF_NONE,
          "arena %zu, limit hit %d, proof %d", e.arena, e.node_limit_hit, e.proof);
    CHECK(e.planner == TA_PLANNER_GREEDY, "reported as %s", ta_planner_name(e.planner));
    CHECK(e.nodes == 3, "nodes %llu", (unsigned long long)e.nodes);
    CHECK(strcmp(ta_proof_text(e.proof), "not proven") == 0, "%s", ta_proof_text(e.proof));
}

static void test_greedy_planners_are_the_first_fit_orders(void)
{
    TaBlock b[EXACT_WINS_N], c[EXACT_WINS_N];
    const int n = EXACT_WINS_N;
    TaPackResult g = plan(b, exact_wins, n, 16, ta_planner_defaults(TA_PLANNER_GREEDY));
    memcpy(c, exact_wins, sizeof c);
    CHECK(g.arena == ta_pack(c, n, 16) && memcmp(b, c, sizeof b) == 0, "greedy is ta_pack");
    TaPackResult s = plan(b, exact_wins, n, 16, ta_planner_defaults(TA_PLANNER_GREEDY_BY_SIZE));
    memcpy(c, exact_wins, sizeof c);
    CHECK(s.arena == ta_pack_with(c, n, 16, TA_PACK_BY_SIZE) && memcmp(b, c, sizeof b) == 0,
          "greedy_by_size is first fit by size");
    check_packing("greedy_by_size", b, n, 16, s.arena);
    /* Reaching the lower bound is a proof for any planner. */
    TaBlock apart[] = {B(100, 0, 0, 0), B(300, 1, 1, 1), B(200, 2, 2, 2)};
    for (int k = 0; k < TA_PLANNERS; k++) {
        TaPackResult r = plan(b, apart, 3, 4, ta_planner_defaults((TaPlannerKind)k));
        CHECK(r.arena == 300 && r.proof == TA_PROOF_LOWER_BOUND, "%s: %zu, proof %d",
              ta_planner_name((TaPlannerKind)k), r.arena, r.proof);
    }
    for (int k = 0; k < TA_PLANNERS; k++) {
        TaPlannerSettings none = ta_planner_defaults((TaPlannerKind)k);
        TaPackResult r = ta_pack_plan(NULL, 0, 16, &none);
        CHECK(r.arena == 0 && r.lower_bound == 0, "%s: no blocks",
              ta_planner_name((TaPlannerKind)k));
    }
}

static void test_hill_climb(void)
{
    TaBlock b[EXACT_WINS_N], again[EXACT_WINS_N];
    const int n = EXACT_WINS_N;
    TaPlannerSettings s = ta_planner_defaults(TA_PLANNER_HILL_CLIMB);
    TaPackResult h = plan(b, exact_wins, n, 16, s);
    check_packing("hill_climb", b, n, 16, h.arena);
    CHECK(h.arena == 192, "hill_climb finds the minimum here: %zu", h.arena);
    CHECK(h.proof == TA_PROOF_NONE, "a heuristic proves nothing above the bound");
    CHECK(h.nodes > 0 && h.nodes <= s.options[TA_PLANNER_OPTION_ITERATIONS], "tried %llu",
          (unsigned long long)h.nodes);
    TaPackResult h2 = plan(again, exact_wins, n, 16, s);
    CHECK(h2.arena == h.arena && memcmp(again, b, sizeof b) == 0, "same seed, same plan");
    /* No swaps: greedy's plan read as an order, never worse than greedy. */
    s.options[TA_PLANNER_OPTION_ITERATIONS] = 0;
    TaPackResult h0 = plan(b, exact_wins, n, 16, s);
    CHECK(h0.arena <= 208 && h0.nodes == 0, "0 iterations: %zu after %llu", h0.arena,
          (unsigned long long)h0.nodes);
    /* A stall limit of 1 stops at the first swap that finds nothing smaller. */
    s = ta_planner_defaults(TA_PLANNER_HILL_CLIMB);
    s.options[TA_PLANNER_OPTION_MAX_STALL] = 1;
    TaPackResult h1 = plan(b, exact_wins, n, 16, s);
    check_packing("hill_climb, stall 1", b, n, 16, h1.arena);
    CHECK(h1.nodes < h.nodes, "stall limit: %llu swaps, unlimited %llu",
          (unsigned long long)h1.nodes, (unsigned long long)h.nodes);
}

/* Names and options round-trip; each option belongs to one planner. */
static void test_names_and_options(void)
{
    for (int k = 0; k < TA_PLANNERS; k++)
        CHECK(ta_planner_parse(ta_planner_name((TaPlannerKind)k)) == k, "planner %d", k);
    CHECK(ta_planner_parse("Greedy") < 0 && ta_planner_parse("") < 0, "names are exact");
    for (int o = 0; o < TA_PLANNER_OPTIONS; o++) {
        CHECK(ta_planner_option_parse(ta_planner_option_name((TaPlannerOption)o)) == o, "option %d",
              o);
        int owners = 0;
        for (int k = 0; k < TA_PLANNERS; k++)
            owners += ta_planner_takes((TaPlannerKind)k, (TaPlannerOption)o);
        CHECK(owners == 1, "option %d read by %d planners", o, owners);
    }
    CHECK(ta_planner_takes(TA_PLANNER_HILL_CLIMB, TA_PLANNER_OPTION_SEED) &&
              ta_planner_takes(TA_PLANNER_EXACT, TA_PLANNER_OPTION_NODE_LIMIT),
          "who reads what");
}

/* The help's key table (config.c) spells the planner names and option
   defaults that planners.c defines: they must agree. */
static void test_help_agrees_with_the_planners(void)
{
    size_t n = 0;
    const tinyaot_config_key *keys = tinyaot_config_keys(&n);
    char names[128] = "";
    for (int k = 0; k < TA_PLANNERS; k++) {
        if (k)
            strcat(names, "|");
        strcat(names, ta_planner_name((TaPlannerKind)k));
    }
    int seen = 0;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(keys[i].key, "memory.planner") == 0) {
            CHECK(strcmp(keys[i].type, names) == 0, "help lists %s", keys[i].type);
            CHECK(strcmp(keys[i].default_value, ta_planner_name(TA_PLANNER_EXACT)) == 0,
                  "help default %s", keys[i].default_value);
            seen++;
        }
        const char *prefix = "memory.planner_options.";
        if (strncmp(keys[i].key, prefix, strlen(prefix)) != 0)
            continue;
        int o = ta_planner_option_parse(keys[i].key + strlen(prefix));
        CHECK(o >= 0, "help key %s is no planner option", keys[i].key);
        if (o < 0)
            continue;
        char value[32];
        snprintf(value, sizeof value, "%llu",
                 (unsigned long long)ta_planner_option_default((TaPlannerOption)o));
        CHECK(strcmp(keys[i].default_value, value) == 0, "%s: help says %s, planners.c %s",
              keys[i].key, keys[i].default_value, value);
        seen++;
    }
    CHECK(seen == 1 + TA_PLANNER_OPTIONS, "%d of the keys found", seen);
}

/* Random instances: every planner packs validly and deterministically,
   none is worse than greedy, and exact, when it finishes, matches the
   independent search's minimum. */
static void test_random_instances(void)
{
    unsigned seed = 4242;
    for (int t = 0; t < 300; t++) {
        TaBlock base[9], b[9], again[9];
        size_t offsets[9];
        seed = seed * 1103515245u + 12345u;
        int n = 1 + (int)(seed >> 16) % 8;
        for (int i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            int first = (int)(seed >> 16) % 6;
            seed = seed * 1103515245u + 12345u;
            int span = (int)(seed >> 16) % 3;
            seed = seed * 1103515245u + 12345u;
            size_t size = 16 * (1 + (seed >> 16) % 6);
            base[i] = (TaBlock)B(size, first, first + span, i);
        }
        size_t greedy = plan(b, base, n, 16, ta_planner_defaults(TA_PLANNER_GREEDY)).arena;
        for (int k = 0; k < TA_PLANNERS; k++) {
            const char *name = ta_planner_name((TaPlannerKind)k);
            TaPackResult r = plan(b, base, n, 16, ta_planner_defaults((TaPlannerKind)k));
            check_packing(name, b, n, 16, r.arena);
            CHECK(r.arena >= r.lower_bound, "%s: below the bound", name);
            CHECK(k == TA_PLANNER_GREEDY_BY_SIZE || r.arena <= greedy, "%s: %zu > greedy %zu", name,
                  r.arena, greedy);
            TaPackResult r2 = plan(again, base, n, 16, ta_planner_defaults((TaPlannerKind)k));
            CHECK(r2.arena == r.arena && memcmp(again, b, (size_t)n * sizeof *b) == 0,
                  "%s: instance %d planned differently the second time", name, t);
            if (k == TA_PLANNER_EXACT && r.proof != TA_PROOF_NONE && r.arena > 16) {
                CHECK(!fits(base, n, 16, r.arena - 16, offsets),
                      "instance %d: exact %zu proven, yet %zu fits", t, r.arena, r.arena - 16);
            }
            if (k == TA_PLANNER_EXACT)
                CHECK(r.proof != TA_PROOF_NONE, "instance %d: small, so exact finishes", t);
        }
    }
}

int main(void)
{
    test_exact_beats_greedy_with_a_proof();
    test_exact_at_its_node_limit_falls_back_unproven();
    test_greedy_planners_are_the_first_fit_orders();
    test_hill_climb();
    test_names_and_options();
    test_help_agrees_with_the_planners();
    test_random_instances();
    return check_summary("planners");
}
