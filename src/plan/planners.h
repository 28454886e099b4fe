/*
 * planners.h - the offset planners `memory.planner` selects, behind one
 * function taking TaBlock arrays (blocks live at the same time get
 * disjoint bytes; what the blocks stand for is the caller's business).
 *
 *   greedy          first fit in four orders (pack.c), the smallest kept
 *   greedy_by_size  first fit, largest block first, alone
 *   hill_climb      greedy's best order improved by seeded random swaps
 *                   (pack_hill_climb.c)
 *   exact           branch and bound over first-fit orders, proven minimal
 *                   when it reaches the lower bound or exhausts the search
 *                   within its node limit, else greedy's plan, unproven
 *                   (pack_exact.c); the default
 *
 * Every planner is deterministic: the same blocks and options give the
 * same offsets.
 */
#ifndef TA_PLANNERS_H
#define TA_PLANNERS_H

#include "../config/planner_names.h"
#include "plan.h"

typedef struct TaPlannerSettings {
    TaPlannerKind kind;
    uint64_t options[TA_PLANNER_OPTIONS]; /* every key, defaults where not given */
} TaPlannerSettings;

/* How a plan was proven minimal, if it was. */
typedef enum {
    TA_PROOF_NONE,        /* a heuristic plan, or exact stopped at its node limit */
    TA_PROOF_LOWER_BOUND, /* the arena equals the lower bound */
    TA_PROOF_SEARCH       /* exact searched every distinct order */
} TaProof;

typedef struct TaPackResult {
    size_t arena;
    size_t lower_bound;
    TaProof proof;
    TaPlannerKind planner; /* whose offsets these are: exact falls back to greedy */
    bool node_limit_hit;   /* exact only: it stopped before finishing */
    uint64_t nodes;        /* exact: search nodes visited; hill_climb: swaps tried */
    bool overlapping;      /* outputs over inputs (plan.c): greedy packing of overlap groups */
} TaPackResult;

/* Places the blocks with the chosen planner. */
TaPackResult ta_pack_plan(TaBlock *blocks, int n, size_t alignment, const TaPlannerSettings *s);

/* Settings with every option at its default. */
TaPlannerSettings ta_planner_defaults(TaPlannerKind kind);
/* "proven (lower bound)", "proven (exhaustive search)" or "not proven". */
const char *ta_proof_text(TaProof proof);

/* ---- shared by the planners ----------------------------------------------- */

/* A lifetime index: which of the entries added so far (by position) may
   be alive during operators first..last. A query lists candidates; the
   caller checks each exactly. Short-lived entries are found by bucket, so
   a chain of operators costs linear time, not quadratic. */
enum { TA_LIVE_LONG_SPAN = 64 };
typedef struct TaLiveIndex {
    int *head;  /* by first use: the last short entry added there, -1 */
    int *next;  /* by position: the entry added before it in its bucket */
    int *longs; /* positions of long-lived entries */
    int num_longs;
    int last_op;
} TaLiveIndex;
/* Room for n entries living within operators 0..last_op. */
void ta_live_index_init(TaLiveIndex *x, int n, int last_op);
void ta_live_index_add(TaLiveIndex *x, int pos, int first, int last);
/* Candidate positions into `out` (room for every entry added); their count. */
int ta_live_index_query(const TaLiveIndex *x, int first, int last, int *out);
void ta_live_index_free(TaLiveIndex *x);

/* First fit of the blocks in `order` (n entries); `scratch` holds n
   pointers to work in. Returns the arena size. */
size_t ta_pack_first_fit(TaBlock **order, int n, size_t alignment, TaBlock **scratch);
size_t ta_pack_hill_climb(TaBlock *blocks, int n, size_t alignment, uint64_t iterations,
                          uint64_t seed, uint64_t max_stall, uint64_t *tried);
/* Returns the arena; *complete is false when the node limit stopped it
   (the blocks then hold the best plan found, never worse than greedy's,
   whose arena is *greedy). */
size_t ta_pack_exact(TaBlock *blocks, int n, size_t alignment, uint64_t node_limit, uint64_t *nodes,
                     bool *complete, size_t *greedy);

#endif /* TA_PLANNERS_H */
