/*
 * budget_fix.c - a plan that does not fit its budgets names the budget
 * that would: the planner runs again with one constrained memory's
 * max_size raised, bisecting between the configured size and the memory's
 * capacity, so the error says "set memory.constraints[0].max_size (DTCM)
 * to at least 37264" instead of leaving the user to bisect by hand. The
 * size named fits and one byte less does not (both were planned).
 */
#include "plan.h"

#include "../config/config.h"

#include <stdarg.h>
#include <string.h>

/* Messages of a run held back until we know whether to run again. */
typedef struct Held {
    TaPool *pool;
    TaVec levels; /* int, as a pointer-sized value */
    TaVec texts;  /* const char*: the message without its "error: " */
} Held;

static void hold_line(void *user, int level, const char *line)
{
    Held *h = user;
    const char *colon = strstr(line, ": ");
    ta_vec_push(h->pool, &h->levels, (void *)(intptr_t)level);
    ta_vec_push(h->pool, &h->texts, ta_strdup(h->pool, colon ? colon + 2 : line));
}

static void drop_line(void *user, int level, const char *line)
{
    (void)user, (void)level, (void)line;
}

static void emit(TaDiag *d, int level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ta_diagv(d, (TaDiagLevel)level, fmt, ap);
    va_end(ap);
}

/* The planner marks in-place outputs as aliases of their inputs; each run
   starts from the graph as it was. */
static TaTensor **save_aliases(TaPool *pool, const TaGraph *g)
{
    TaTensor **saved = ta_alloc_array(pool, (size_t)g->tensors.len + 1, sizeof *saved);
    for (int i = 0; i < g->tensors.len; i++)
        saved[i] = TA_TENSOR(g, i)->alias_of;
    return saved;
}

static void restore_aliases(const TaGraph *g, TaTensor *const *saved)
{
    for (int i = 0; i < g->tensors.len; i++)
        TA_TENSOR(g, i)->alias_of = saved[i];
}

static TaPlan *run(const TaPlanInput *in, TaDiag *d, TaTensor *const *aliases,
                   TaPlanAttempt *attempt)
{
    restore_aliases(in->graph, aliases);
    TaPlanInput with = *in;
    with.diag = d;
    return ta_plan_attempt(&with, attempt);
}

/* Whether the plan fits with memory m's budget set to `budget`. */
static bool fits_with(const TaPlanInput *in, TaTensor *const *aliases, int m, uint64_t budget)
{
    TaDiag quiet = {
        .sink = drop_line, .warnings_are_errors = in->diag->warnings_are_errors, .verbose = 0};
    TaPlanAttempt attempt = {0};
    attempt.budget[m] = budget;
    return run(in, &quiet, aliases, &attempt) != NULL;
}

/* Smallest budget of memory m in (failing, capacity] that fits, or 0.
   Bisection: at most 64 plans. */
static uint64_t smallest_fit(const TaPlanInput *in, TaTensor *const *aliases, int m,
                             uint64_t failing, uint64_t capacity)
{
    if (!fits_with(in, aliases, m, capacity))
        return 0;
    uint64_t lo = failing, hi = capacity;
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (fits_with(in, aliases, m, mid))
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

/* "set memory.constraints[0].max_size (DTCM) to at least 37264, the
   smallest that fits", one alternative per constrained memory whose
   raise alone is enough; NULL when none is. */
static const char *budget_fix(const TaPlanInput *in, TaTensor *const *aliases)
{
    const TaConfig *cfg = in->config;
    TaBuf b = {0};
    for (int i = 0; i < cfg->constraints.len; i++) {
        const TaConstraint *c = cfg->constraints.items[i];
        int m = ta_memory_parse(c->name);
        const TaTargetMemory *tm = m >= 0 ? in->target->memories[m] : NULL;
        if (!c->has_max_size || !tm || c->max_size >= tm->capacity)
            continue;
        uint64_t fit = smallest_fit(in, aliases, m, c->max_size, tm->capacity);
        if (fit)
            ta_buf_printf(&b, "%smemory.constraints[%d].max_size (%s) to at least %llu",
                          b.len ? " or " : "", i, c->name, (unsigned long long)fit);
    }
    if (!b.len)
        return NULL;
    const char *fix = ta_format(in->pool, "set %s, the smallest that fits", b.data);
    ta_buf_free(&b);
    return fix;
}

TaPlan *ta_plan(const TaPlanInput *in)
{
    TaTensor **aliases = save_aliases(in->pool, in->graph);
    Held held = {.pool = in->pool};
    TaDiag hold = {.sink = hold_line,
                   .sink_user = &held,
                   .warnings_are_errors = in->diag->warnings_are_errors,
                   .verbose = in->diag->verbose};
    TaPlanAttempt first = {0};
    TaPlan *plan = run(in, &hold, aliases, &first);
    const char *fix = !plan && first.short_of_room ? budget_fix(in, aliases) : NULL;
    if (!fix) {
        if (!plan) /* the search may have changed the graph */
            restore_aliases(in->graph, aliases);
        for (int i = 0; i < held.texts.len; i++)
            emit(in->diag, (int)(intptr_t)held.levels.items[i], "%s",
                 (const char *)held.texts.items[i]);
        return plan;
    }
    TaPlanAttempt named = {.fix = fix};
    return run(in, in->diag, aliases, &named);
}
