/*
 * planner_names.c - the planners by name and their options (see
 * planner_names.h).
 */
#include "planner_names.h"

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
