/*
 * planners.c - the planners' settings and the one entry point that runs
 * the chosen one (see planners.h; their names and options:
 * config/planner_names.c).
 */
#include "planners.h"

TaPlannerSettings ta_planner_defaults(TaPlannerKind kind)
{
    TaPlannerSettings s = {.kind = kind};
    for (int i = 0; i < TA_PLANNER_OPTIONS; i++)
        s.options[i] = ta_planner_option_default((TaPlannerOption)i);
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
