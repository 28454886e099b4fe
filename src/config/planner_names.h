/*
 * planner_names.h - the planners `memory.planner` names and the keys of
 * `memory.planner_options`, with each key's default and the planner that
 * reads it. The configuration checks keys against them; the planners
 * (plan/planners.h) run by them.
 */
#ifndef TA_PLANNER_NAMES_H
#define TA_PLANNER_NAMES_H

#include "../util/util.h"

typedef enum {
    TA_PLANNER_GREEDY,
    TA_PLANNER_GREEDY_BY_SIZE,
    TA_PLANNER_HILL_CLIMB,
    TA_PLANNER_EXACT,
    TA_PLANNERS
} TaPlannerKind;

/* memory.planner_options keys; each planner accepts some of them. */
typedef enum {
    TA_PLANNER_OPTION_ITERATIONS, /* hill_climb: swaps tried */
    TA_PLANNER_OPTION_SEED,       /* hill_climb: the swaps' random sequence */
    TA_PLANNER_OPTION_MAX_STALL,  /* hill_climb: stop after this many swaps without a
                                     smaller arena (0: never) */
    TA_PLANNER_OPTION_NODE_LIMIT, /* exact: search nodes before giving up */
    TA_PLANNER_OPTIONS
} TaPlannerOption;

/* Names, option keys and their defaults. */
const char *ta_planner_name(TaPlannerKind kind);
int ta_planner_parse(const char *name); /* -1 if unknown */
const char *ta_planner_option_name(TaPlannerOption option);
int ta_planner_option_parse(const char *name); /* -1 if unknown */
uint64_t ta_planner_option_default(TaPlannerOption option);
bool ta_planner_takes(TaPlannerKind kind, TaPlannerOption option);

#endif /* TA_PLANNER_NAMES_H */
