/*
 * planners.c - the planners by name, their options, and the one entry
 * point that runs the chosen one (see planners.h).
 */
#include "planners.h"

#include <string.h>

static const char *const planner_names[TA_PLANNERS] = {
    [TA_PLANNER_GREEDY] = "greedy",
    [TA_PLANNER_GREEDY_BY_SIZE] = "greedy_by_size",
    [TA_PLANNER_HILL_CLIMB] = "hill_climb",
    [TA_PLANNER_EXACT] = "exact",
};

typedef struct OptionInfo {
    const char *name;
    uint64_t default_value;
    TaPlannerKind planner; /* the planner that reads it */
} OptionInfo;

/* The exact planner's limit is sized so the largest models of the test
   set plan in well under a second when the search cannot finish. */
static const OptionInfo options[TA_PLANNER_OPTIONS] = {
    [TA_PLANNER_OPTION_ITERATIONS] = {"iterations", 1000, TA_PLANNER_HILL_CLIMB},
    [TA_PLANNER_OPTION_SEED] = {"seed", 0, TA_PLANNER_HILL_CLIMB},
    [TA_PLANNER_OPTION_MAX_STALL] = {"max_stall_iterations", 0, TA_PLANNER_HILL_CLIMB},
    [TA_PLANNER_OPTION_NODE_LIMIT] = {"node_limit", 200000, TA_PLANNER_EXACT},
};

const char *ta_planner_name(TaPlannerKind kind)
{
    TA_ASSERT(kind >= 0 && kind < TA_PLANNERS);
    return planner_names[kind];
}

int ta_planner_parse(const char *name)
{
    for (int i = 0; i < TA_PLANNERS; i++)
        if (strcmp(name, planner_names[i]) == 0)
            return i;
    return -1;
}

const char *ta_planner_option_name(TaPlannerOption option)
{
    TA_ASSERT(option >= 0 && option < TA_PLANNER_OPTIONS);
    return options[option].name;
}

int ta_planner_option_parse(const char *name)
{
    for (int i = 0; i < TA_PLANNER_OPTIONS; i++)
        if (strcmp(name, options[i].name) == 0)
            return i;
    return -1;
}

uint64_t ta_planner_option_default(TaPlannerOption option)
{
    TA_ASSERT(option >= 0 && option < TA_PLANNER_OPTIONS);
    return options[option].default_value;
}

bool ta_planner_takes(TaPlannerKind kind, TaPlannerOption option)
{
    TA_ASSERT(option >= 0 && option < TA_PLANNER_OPTIONS);
    return options[option].planner == kind;
}

TaPlannerSettings ta_planner_defaults(TaPlannerKind kind)
{
    TaPlannerSettings s = {.kind = kind};
    for (int i = 0; i < TA_PLANNER_OPTIONS; i++)
        s.options[i] = options[i].default_value;
    return s;
}

const char *ta_proof_text(TaProof proof)
{
    switch (proof) {
    case TA_PROOF_LOWER_BOUND: return "proven (lower bound)";
    case TA_PROOF_SEARCH: return "proven (exhaustive search)";
    case TA_PROOF_NONE: break;
    }
    return "not proven";
}

TaPackResult ta_pack_plan(TaBlock *blocks, int n, size_t alignment, const TaPlannerSettings *s)
{
    TaPackResult r = {.planner = s->kind};
    r.lower_bound = ta_pack_lower_bound(blocks, n, alignment);
    bool complete = false;
    switch (s->kind) {
    case TA_PLANNER_GREEDY: r.arena = ta_pack(blocks, n, alignment); break;
    case TA_PLANNER_GREEDY_BY_SIZE:
        r.arena = ta_pack_with(blocks, n, alignment, TA_PACK_BY_SIZE);
        break;
    case TA_PLANNER_HILL_CLIMB:
        r.arena = ta_pack_hill_climb(blocks, n, alignment, s->options[TA_PLANNER_OPTION_ITERATIONS],
                                     s->options[TA_PLANNER_OPTION_SEED],
                                     s->options[TA_PLANNER_OPTION_MAX_STALL], &r.nodes);
        break;
    case TA_PLANNER_EXACT: {
        size_t greedy = 0;
        r.arena = ta_pack_exact(blocks, n, alignment, s->options[TA_PLANNER_OPTION_NODE_LIMIT],
                                &r.nodes, &complete, &greedy);
        r.node_limit_hit = !complete;
        /* Stopped without improving on its starting point: greedy's plan. */
        if (!complete && r.arena == greedy)
            r.planner = TA_PLANNER_GREEDY;
        break;
    }
    case TA_PLANNERS: TA_ASSERT(!"no such planner");
    }
    if (r.arena <= r.lower_bound)
        r.proof = TA_PROOF_LOWER_BOUND;
    else if (complete)
        r.proof = TA_PROOF_SEARCH;
    return r;
}
