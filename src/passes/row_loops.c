/*
 * row_loops.c - a row chain's steps as loops (row_streaming.h;
 * docs/row-streaming.md). After its first rows a chain repeats one
 * pattern of band calls and moves, each repetition's rows and offsets a
 * fixed amount further on; the module stores that pattern once with its
 * advances and a repeat count instead of every step (a table of steps
 * costs flash: person_detect's two chains took about 2.5 KB).
 *
 * The search is greedy: the loop that saves the most steps in a range of
 * steps, then the same in the ranges before and after it. A repetition
 * must equal the first with every row and offset moved by a constant
 * (non-negative) advance and every other field the same. The expansion of
 * the loops must be the schedule ta_row_check checked, step for step, so
 * a bug here is an error at conversion.
 */
#include "row_streaming.h"

/* Comparisons of steps one chain's search may make: enough for every
   period of the chains we know many times over, and a bound on the time
   a long chain takes (the search is deterministic either way). */
enum { SEARCH_BUDGET = 4000000 };

/* The advance from step a to step b, or false when no loop takes a to b. */
static bool advance(const TaRowStep *a, const TaRowStep *b, TaRowStep *d)
{
    if (a->op != b->op || a->buffer != b->buffer || a->out_rows != b->out_rows ||
        a->in_rows != b->in_rows || a->pad_top != b->pad_top || a->move_bytes != b->move_bytes ||
        b->out_row < a->out_row || b->in_row < a->in_row || b->in_offset < a->in_offset ||
        b->out_offset < a->out_offset || b->second_offset < a->second_offset)
        return false;
    *d = (TaRowStep){.out_row_step = b->out_row - a->out_row,
                     .in_row_step = b->in_row - a->in_row,
                     .in_offset_step = b->in_offset - a->in_offset,
                     .out_offset_step = b->out_offset - a->out_offset,
                     .second_offset_step = b->second_offset - a->second_offset};
    return true;
}

/* Step `base` advanced r times by d. */
static TaRowStep repeat(const TaRowStep *base, const TaRowStep *d, int r)
{
    TaRowStep t = *base;
    t.out_row += r * d->out_row_step;
    t.in_row += r * d->in_row_step;
    t.in_offset += (size_t)r * d->in_offset_step;
    t.out_offset += (size_t)r * d->out_offset_step;
    t.second_offset += (size_t)r * d->second_offset_step;
    t.out_row_step = t.in_row_step = 0;
    t.in_offset_step = t.out_offset_step = t.second_offset_step = 0;
    return t;
}

static bool same(const TaRowStep *a, const TaRowStep *b)
{
    return a->op == b->op && a->buffer == b->buffer && a->out_row == b->out_row &&
           a->out_rows == b->out_rows && a->in_row == b->in_row && a->in_rows == b->in_rows &&
           a->pad_top == b->pad_top && a->in_offset == b->in_offset &&
           a->out_offset == b->out_offset && a->move_bytes == b->move_bytes &&
           a->second_offset == b->second_offset;
}

typedef struct Loops {
    TaPool *pool;
    TaRowChain *chain;
    TaRowStep *const *steps; /* chain->steps */
    TaRowStep *d;            /* scratch: one period's advances */
    long budget;
} Loops;

/* Rows buffer j's offsets advance by in a step's advance d, or false when
   that is no whole number of rows. */
static bool rows_of(const TaRowChain *ch, int j, size_t bytes, int *rows)
{
    const size_t rb = ta_row_chain_row_bytes(ch, j);
    if (bytes % rb)
        return false;
    *rows = (int)(bytes / rb);
    return true;
}

/* Whether a read of buffer j advancing `rows` a repetition fits the
   loop: only the chain's input advances, by one number of rows (not a
   row-push input: a row buffer, which no loop advances). */
static bool input_advance(const TaRowChain *ch, int j, int rows, int *in_adv)
{
    if (j != 0 || ch->push_input)
        return rows == 0;
    if (*in_adv >= 0 && rows != *in_adv)
        return false;
    *in_adv = rows;
    return true;
}

/* Whether the period's advances d[0, l) move only the chain's input and
   output, each by one number of rows for the whole period (the module
   moves those two pointers once a repetition: no step pays for a loop).
   A band reads buffer s->buffer with its window, and its second input
   (a residual) in chain->second_buffer[op]: either may be the input. */
static bool uniform(const Loops *L, int p, int l, int *in_adv, int *out_adv)
{
    const TaRowChain *ch = L->chain;
    const int n = ch->num_ops;
    *in_adv = *out_adv = -1;
    for (int j = 0; j < l; j++) {
        const TaRowStep *s = L->steps[p + j], *d = &L->d[j];
        if (s->op < 0) { /* a move, in a row buffer */
            if (d->in_offset_step || d->out_offset_step)
                return false;
            continue;
        }
        const int second = ch->second_buffer[s->op];
        int in, out, sec = 0;
        if (!rows_of(ch, s->buffer, d->in_offset_step, &in) ||
            !rows_of(ch, s->op + 1, d->out_offset_step, &out) ||
            (second >= 0 && !rows_of(ch, second, d->second_offset_step, &sec)) ||
            (second < 0 && d->second_offset_step))
            return false;
        if ((s->op + 1 < n && out) || (s->op + 1 == n && *out_adv >= 0 && out != *out_adv) ||
            !input_advance(ch, s->buffer, in, in_adv) ||
            (second >= 0 && !input_advance(ch, second, sec, in_adv)))
            return false;
        if (s->op + 1 == n)
            *out_adv = out;
    }
    *in_adv = *in_adv < 0 ? 0 : *in_adv;
    *out_adv = *out_adv < 0 ? 0 : *out_adv;
    return true;
}

/* How many times steps [p, p + l) repeat from p on, before `end`. */
static int repeats(Loops *L, int p, int l, int end)
{
    for (int j = 0; j < l; j++, L->budget--)
        if (!advance(L->steps[p + j], L->steps[p + l + j], &L->d[j]))
            return 1;
    int in_adv, out_adv;
    if (!uniform(L, p, l, &in_adv, &out_adv))
        return 1;
    int r = 2;
    for (; p + (r + 1) * l <= end && L->budget > 0; r++)
        for (int j = 0; j < l; j++) {
            L->budget--;
            const TaRowStep t = repeat(L->steps[p + j], &L->d[j], r);
            if (!same(&t, L->steps[p + r * l + j]))
                return r;
        }
    return r;
}

/* Appends steps [first, first + count) as one loop of `reps` repetitions
   (the advances those of the first two; none for one repetition). */
static void emit(Loops *L, int first, int count, int reps)
{
    TaRowChain *ch = L->chain;
    TaRowLoop *last = ch->loops.len ? ch->loops.items[ch->loops.len - 1] : NULL;
    if (reps == 1 && last && last->repeats == 1) {
        last->count += count; /* one pass after another: one loop */
    } else {
        last = ta_alloc(L->pool, sizeof *last);
        *last = (TaRowLoop){.first = ch->loop_steps.len, .count = count, .repeats = reps};
        ta_vec_push(L->pool, &ch->loops, last);
    }
    if (reps > 1) {
        for (int j = 0; j < count; j++) {
            const bool ok = advance(L->steps[first + j], L->steps[first + count + j], &L->d[j]);
            TA_ASSERT(ok);
        }
        const bool ok = uniform(L, first, count, &last->in_advance, &last->out_advance);
        TA_ASSERT(ok);
    }
    for (int j = 0; j < count; j++) {
        TaRowStep *s = ta_alloc(L->pool, sizeof *s);
        *s = *L->steps[first + j];
        if (reps > 1) {
            TaRowStep d;
            const bool ok = advance(L->steps[first + j], L->steps[first + count + j], &d);
            TA_ASSERT(ok);
            s->out_row_step = d.out_row_step;
            s->in_row_step = d.in_row_step;
            s->in_offset_step = d.in_offset_step;
            s->out_offset_step = d.out_offset_step;
            s->second_offset_step = d.second_offset_step;
        }
        ta_vec_push(L->pool, &ch->loop_steps, s);
    }
}

/* Steps [a, b) as loops: the one saving the most steps, then the same
   before and after it. */
static void compress(Loops *L, int a, int b)
{
    int best_p = a, best_l = 0, best_r = 1;
    long best_saved = 1; /* a loop must save at least two steps */
    for (int l = 1; 2 * l <= b - a && L->budget > 0; l++)
        for (int p = a; p + 2 * l <= b && L->budget > 0; p++) {
            const int r = repeats(L, p, l, b);
            if ((long)(r - 1) * l > best_saved) {
                best_saved = (long)(r - 1) * l;
                best_p = p, best_l = l, best_r = r;
            }
        }
    if (!best_l) {
        if (b > a)
            emit(L, a, b - a, 1);
        return;
    }
    compress(L, a, best_p);
    emit(L, best_p, best_l, best_r);
    compress(L, best_p + best_r * best_l, b);
}

void ta_row_loops(TaPool *pool, TaRowChain *chain, bool compact)
{
    chain->loop_steps = (TaVec){0};
    chain->loops = (TaVec){0};
    const int n = chain->steps.len;
    Loops L = {.pool = pool,
               .chain = chain,
               .steps = (TaRowStep *const *)chain->steps.items,
               .d = ta_alloc_array(pool, (size_t)n + 1, sizeof(TaRowStep)),
               .budget = compact ? SEARCH_BUDGET : 0};
    if (compact)
        compress(&L, 0, n);
    else if (n)
        emit(&L, 0, n, 1);
}

/* The loops run out as steps, as the module runs them: each repetition
   moves the chain's input and output by the loop's advances (rows, for
   the messages and the check, by the steps' own). */
static TaVec expand(TaPool *pool, const TaRowChain *chain)
{
    TaVec out = {0};
    const int n = chain->num_ops;
    for (int l = 0; l < chain->loops.len; l++) {
        const TaRowLoop *loop = chain->loops.items[l];
        for (int r = 0; r < loop->repeats; r++)
            for (int i = loop->first; i < loop->first + loop->count; i++) {
                const TaRowStep *s = chain->loop_steps.items[i];
                TaRowStep *t = ta_alloc(pool, sizeof *t);
                *t = repeat(
                    s, &(TaRowStep){.out_row_step = s->out_row_step, .in_row_step = s->in_row_step},
                    r);
                if (s->op >= 0 && s->buffer == 0)
                    t->in_offset += (size_t)r * (size_t)loop->in_advance *
                                    ta_row_chain_row_bytes(chain, 0);
                if (s->op >= 0 && chain->second_buffer[s->op] == 0)
                    t->second_offset += (size_t)r * (size_t)loop->in_advance *
                                        ta_row_chain_row_bytes(chain, 0);
                if (s->op >= 0 && s->op + 1 == n)
                    t->out_offset += (size_t)r * (size_t)loop->out_advance *
                                     ta_row_chain_row_bytes(chain, n);
                ta_vec_push(pool, &out, t);
            }
    }
    return out;
}

bool ta_row_loops_check(TaPool *pool, TaDiag *diag, const char *model_path, const TaRowChain *chain)
{
    const TaVec run = expand(pool, chain);
    for (int i = 0; i < chain->steps.len || i < run.len; i++)
        if (i >= chain->steps.len || i >= run.len || !same(chain->steps.items[i], run.items[i])) {
            ta_error(diag,
                     "%s: row chain at layer %d: its loops run step %d otherwise than the "
                     "schedule (memory.row_streaming_loops: false avoids it)",
                     model_path, chain->first_op, i);
            return false;
        }
    return true;
}
