/*
 * plan.h - where every tensor lives.
 *
 * The planner turns (graph, configuration, target) into regions: one
 * scratch arena per writable memory used, one persistent arena per memory
 * holding state, one cold constant arena per memory holding constants read
 * in place, and one staged constant arena per destination memory (filled
 * at initialization from a source blob in another memory). Every tensor
 * gets a TaPlacement (region, offset, size).
 */
#ifndef TA_PLAN_H
#define TA_PLAN_H

#include "../config/target.h"
#include "../ir/ir.h"

typedef struct TaRegion {
    int id;            /* enumerator value in <prefix>_arena_region_t */
    int memory;        /* TaMemory kernels read and write it in */
    int source_memory; /* staged constants: memory the bytes come from */
    ta_region_role_t role;
    bool staged;
    const char *name; /* "dtcm_scratch": symbol and enum suffix */
    size_t guard;     /* address-zero guard before the first usable byte */
    size_t size;      /* usable bytes */
    size_t alignment;
    const char *symbol;              /* NULL when the application binds it */
    const char *source_symbol;       /* staged: the source blob's C object */
    size_t source_guard;             /* staged from ITCM: guard ahead of the source */
    const char *api_name;            /* "arena_const_mram": helia-aot's name, without the prefix */
    const char *sidecar_file;        /* cold constant regions with caller-supplied arenas */
    const char *source_sidecar_file; /* staged regions with caller-supplied arenas */
    size_t lower_bound;              /* scratch: most bytes live at once */
    /* Scratch: the planner whose offsets these are (memory.planner, or
       greedy when exact stopped at its node limit without a better plan)
       and whether the size is proven minimal, with how (planners.h). */
    const char *planner;
    bool proven;
    const char *proof;
    uint8_t *bytes; /* constant regions: their contents, `size` bytes */
    TaVec tensors;  /* TaTensor* placed here, by offset */
} TaRegion;

typedef struct TaMemoryUse {
    bool usable;      /* the planner may use it */
    uint64_t budget;  /* max_size, or the target's capacity */
    size_t alignment; /* arena_alignment */
    uint64_t used;    /* bytes of every region (and source blob) in it */
} TaMemoryUse;

typedef struct TaPlan {
    const TaTarget *target;
    TaVec regions; /* TaRegion*, by id */
    TaMemoryUse memories[TA_MEM_COUNT];
    int num_ops;
} TaPlan;

typedef struct TaPlanInput {
    TaPool *pool;
    TaDiag *diag;
    TaGraph *graph;
    const struct TaConfig *config;
    const TaTarget *target;
    const char *prefix;
} TaPlanInput;

/* Plans; when a budget is too small, the error names the smallest
   max_size that fits (budget_fix.c). */
TaPlan *ta_plan(const TaPlanInput *in);

/* ---- one run of the planner, for budget_fix.c ---------------------------- */

typedef struct TaPlanAttempt {
    uint64_t budget[TA_MEM_COUNT]; /* non-zero: this budget instead of the configured one */
    const char *fix;               /* appended to budget errors, or NULL */
    bool short_of_room;            /* out: a tensor fit nowhere or a budget was exceeded */
} TaPlanAttempt;

TaPlan *ta_plan_attempt(const TaPlanInput *in, TaPlanAttempt *attempt);

/* ---- plan_hash.c: the plan's fingerprint ------------------------------- */

/* <PREFIX>_PLAN_HASH: FNV-1a 64 over a canonical text of the plan (see
   plan_hash.c for what it covers). Equal plans hash equal; any change of a
   region, a placement or a kernel choice changes it. */
uint64_t ta_plan_hash(TaPool *pool, const TaGraph *graph, const TaPlan *plan);
/* The text that is hashed: one line per region, tensor and operator. */
const char *ta_plan_hash_text(TaPool *pool, const TaGraph *graph, const TaPlan *plan);

/* ---- pack.c: offsets from lifetimes ------------------------------------- */

/* A buffer to place: live from operator `first` to `last` inclusive. */
typedef struct TaBlock {
    size_t size;
    int first;
    int last;
    int order;     /* tie-breaker: keeps packing deterministic */
    size_t offset; /* result */
} TaBlock;

/* Places blocks so that blocks live at the same time never overlap, trying
   several greedy orders and keeping the smallest arena. Returns its size.
   Sizes are rounded up to `alignment`; offsets are multiples of it. */
size_t ta_pack(TaBlock *blocks, int n, size_t alignment);
/* The orders ta_pack tries (pack.c), largest first by: size; size times
   lifetime; lifetime, then size; and earliest first use, then size. */
typedef enum {
    TA_PACK_BY_SIZE,
    TA_PACK_BY_AREA,
    TA_PACK_BY_SPAN,
    TA_PACK_BY_FIRST_USE,
    TA_PACK_STRATEGIES
} TaPackStrategy;
/* One order alone (the unit tests check each); returns the arena size. */
size_t ta_pack_with(TaBlock *blocks, int n, size_t alignment, TaPackStrategy strategy);
/* The largest total (aligned) size of blocks live at one operator. */
size_t ta_pack_lower_bound(const TaBlock *blocks, int n, size_t alignment);
/* True if two blocks live at the same time share a byte. */
bool ta_pack_has_overlap(const TaBlock *blocks, int n);

/* ---- overlap.c: output over input ---------------------------------------- */

/* An operator whose output may start `lead` bytes (or more) below its
   input's start, the input's last use being that operator. */
typedef struct TaOverlapLink {
    int input;   /* block index */
    int output;  /* block index */
    size_t lead; /* bytes */
    /* The kernel can also walk backwards, its output then starting
       back_lead bytes (or more) above the input's start. */
    bool reversible;
    size_t back_lead;
    bool above_only; /* reversible, but never below (a test's choice) */
} TaOverlapLink;

/* A packer of whole blocks with ta_pack's contract; `ctx` is its own
   (plan.c passes the configured planner's settings). */
typedef size_t (*TaPacker)(TaBlock *blocks, int n, size_t alignment, const void *ctx);
/* ta_pack as a TaPacker (ctx unused). */
size_t ta_pack_greedy(TaBlock *blocks, int n, size_t alignment, const void *ctx);

/* Packs `blocks` so that blocks live at the same time are disjoint, except
   that a kept link's output and input may share bytes: each output is
   grouped with its input into one block (input `lead` bytes above the
   output, chains composing), the groups are packed as blocks of their
   extent and lifetime by `pack` (given `pack_ctx`) and also fitted member
   by member, and the
   smaller arena kept. Links are tried in order, in each direction they
   allow, and kept when the arena does not grow; then the directions of
   the kept reversible links are searched (all of them when at most
   TA_OVERLAP_EXACT_DIRECTIONS, else one at a time). kept[i] tells which
   were kept, above[i] whether link i's output sits above its input. */
size_t ta_pack_overlapping(TaBlock *blocks, int n, const TaOverlapLink *links, int num_links,
                           size_t alignment, TaPacker pack, const void *pack_ctx, bool *kept,
                           bool *above);

/* Reversible links whose directions are searched exhaustively. */
#define TA_OVERLAP_EXACT_DIRECTIONS 10

#endif /* TA_PLAN_H */
