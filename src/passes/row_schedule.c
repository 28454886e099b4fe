/*
 * row_schedule.c - a row chain's schedule and its check (row_streaming.h).
 *
 * The schedule pulls: to compute output row y of the last operator, each
 * operator first has its producer compute the input rows y's window
 * reads, recursively, so a row buffer holds only rows a window still
 * needs. Each buffer keeps its rows contiguous from its start (the kernels
 * read a window as consecutive rows); when a producer would write past the
 * end, the rows its consumer still needs move to the start first. Runs of
 * bands of one operator with nothing between them join into one call.
 *
 * Residual blocks make a chain a small DAG (chain->input_buffer,
 * chain->second_buffer): an operator may read a second buffer row for
 * row (a fused residual), and a buffer may have two readers; it keeps the
 * rows from the first one either reader still needs. An operator pulls its
 * second input's row before its window's rows, so the skip branch's row is
 * made while the block input still holds it.
 *
 * The check replays the steps with its own model of what row each buffer
 * slot holds (every read row written and still there, no row computed
 * twice, every output row computed; an intermediate row no window reads
 * is never computed), so a schedule bug (or a buffer made short on purpose) is an
 * error at conversion, never a wrong result at run time.
 */
#include "row_streaming.h"

#include <string.h>

/* Input rows [*a, *b) that output row r of window w reads, clipped: none
   (*a == *b) for a PAD's rows of padding above or below its input. */
static void window_rows(const TaRowWindow *w, int r, int *a, int *b)
{
    const int top = r * w->stride - w->pad;
    *a = top < 0 ? 0 : top < w->in_height ? top : w->in_height;
    *b = top + w->span < w->in_height ? top + w->span : w->in_height;
    *b = *b < *a ? *a : *b;
}

/* The top padding of a band from output row r whose input rows start at
   a: the rows its first output row's window has above a (0 for a band of
   a PAD's rows below its input, which read nothing). */
static int band_pad_top(const TaRowWindow *w, int r, int a)
{
    const int pad = w->pad + a - r * w->stride;
    return pad < 0 ? 0 : pad;
}

typedef struct Sched {
    TaPool *pool;
    TaRowChain *chain;
    const TaRowWindow *w;
    const int *rows; /* capacity of each buffer, in rows */
    int *lo, *hi;    /* rows [lo, hi) are in buffer j, row lo at its start */
    int *next;       /* next output row of each operator */
    int short_buffer;
    bool lossy; /* tests: a full buffer drops rows still needed (ta_row_schedule) */
} Sched;

static void push_step(Sched *S, TaRowStep step)
{
    TaRowStep *s = ta_alloc(S->pool, sizeof *s);
    *s = step;
    ta_vec_push(S->pool, &S->chain->steps, s);
}

/* The first row of buffer j a reader still needs (its window's, or its
   second input's row), hi[j] when none does. */
static int first_needed(const Sched *S, int j)
{
    const TaRowChain *ch = S->chain;
    int keep = S->hi[j];
    for (int k = 0; k < ch->num_ops; k++) {
        if (S->next[k] >= S->w[k].out_height)
            continue;
        if (ch->input_buffer[k] == j) {
            int a, b;
            window_rows(&S->w[k], S->next[k], &a, &b);
            keep = a < keep ? a : keep;
        }
        if (ch->second_buffer[k] == j && S->next[k] < keep)
            keep = S->next[k];
    }
    return keep;
}

/* Room for row `row` in row buffer j: drops the rows its readers no
   longer read, moving the others to the start. */
static bool make_room(Sched *S, int j, int row)
{
    if (row - S->lo[j] < S->rows[j])
        return true;
    int keep = first_needed(S, j);
    if (S->lossy && row - keep >= S->rows[j])
        keep = row - S->rows[j] + 1; /* the oldest rows still needed are lost */
    if (keep > S->lo[j]) {
        const size_t rb = ta_row_buffer_row_bytes(S->w, j);
        if (S->hi[j] > keep)
            push_step(S, (TaRowStep){.op = TA_ROW_MOVE,
                                     .buffer = j,
                                     .in_row = keep,
                                     .in_rows = S->hi[j] - keep,
                                     .in_offset = (size_t)(keep - S->lo[j]) * rb,
                                     .out_offset = 0,
                                     .move_bytes = (size_t)(S->hi[j] - keep) * rb});
        S->lo[j] = keep;
    }
    if (row - S->lo[j] < S->rows[j])
        return true;
    S->short_buffer = j;
    return false;
}

/* Row-push input: the chain's input rows up to b arrive in buffer 0,
   after the rows operator 0 no longer reads make room. */
static bool push_rows(Sched *S, int b)
{
    if (!make_room(S, 0, b - 1))
        return false;
    const int a = S->hi[0];
    push_step(S, (TaRowStep){.op = TA_ROW_PUSH,
                             .buffer = 0,
                             .in_row = a,
                             .in_rows = b - a,
                             .out_offset = (size_t)(a - S->lo[0]) * S->w[0].in_row_bytes});
    S->hi[0] = b;
    return true;
}

/* Operator k computes its output rows up to y. */
static bool produce(Sched *S, int k, int y)
{
    const TaRowWindow *w = &S->w[k];
    const int n = S->chain->num_ops;
    const int in = S->chain->input_buffer[k], second = S->chain->second_buffer[k];
    while (S->next[k] <= y) {
        const int r = S->next[k];
        int a, b;
        window_rows(w, r, &a, &b);
        if (second > 0 && S->hi[second] <= r && !produce(S, second - 1, r))
            return false;
        if (in > 0 && S->hi[in] < b && !produce(S, in - 1, b - 1))
            return false;
        if (k == 0 && S->hi[0] < b && !push_rows(S, b))
            return false;
        if (k + 1 < n && !make_room(S, k + 1, r))
            return false;
        if (S->lossy && a < S->lo[in]) { /* rows lost: the band reads them as padding */
            if (b <= S->lo[in]) {
                S->short_buffer = in;
                return false;
            }
            a = S->lo[in];
        }
        const int second_row = second < 0 || r < S->lo[second] ? 0 : r - S->lo[second];
        push_step(S, (TaRowStep){.op = k,
                                 .buffer = in,
                                 .out_row = r,
                                 .out_rows = 1,
                                 .in_row = a,
                                 .in_rows = b - a,
                                 .pad_top = band_pad_top(w, r, a),
                                 .in_offset = (size_t)(a - S->lo[in]) * w->in_row_bytes,
                                 .out_offset = (size_t)(r - S->lo[k + 1]) * w->out_row_bytes,
                                 .second_offset = (size_t)second_row * w->second_row_bytes});
        S->hi[k + 1] = r + 1;
        S->next[k]++;
    }
    return true;
}

/* Whether band t continues band s: the same operator, the next output
   rows right after s's, its input rows where s's run on to. */
static bool continues(const TaRowWindow *w, const TaRowStep *s, const TaRowStep *t)
{
    if (s->op < 0 || t->op != s->op || t->out_row != s->out_row + s->out_rows)
        return false;
    const TaRowWindow *x = &w[s->op];
    if (x->sums && (t->out_row + x->sum_pad) % x->sum_rows == 0)
        return false; /* a summing pool's band ends with its window (its
                         one-row input makes each band one row today) */
    return t->out_offset == s->out_offset + (size_t)s->out_rows * x->out_row_bytes &&
           t->second_offset == s->second_offset + (size_t)s->out_rows * x->second_row_bytes &&
           t->in_row >= s->in_row &&
           t->in_offset == s->in_offset + (size_t)(t->in_row - s->in_row) * x->in_row_bytes;
}

static void join_bands(TaRowChain *chain, const TaRowWindow *w)
{
    int out = 0;
    for (int i = 0; i < chain->steps.len; i++) {
        TaRowStep *t = chain->steps.items[i];
        TaRowStep *s = out ? chain->steps.items[out - 1] : NULL;
        if (s && continues(w, s, t)) {
            s->out_rows += t->out_rows;
            s->in_rows = t->in_row + t->in_rows - s->in_row;
            continue;
        }
        chain->steps.items[out++] = t;
    }
    chain->steps.len = out;
}

bool ta_row_schedule(TaPool *pool, TaRowChain *chain, const TaRowWindow *w, const int *rows,
                     bool lossy, int *short_buffer)
{
    const int n = chain->num_ops;
    Sched S = {
        .pool = pool, .chain = chain, .w = w, .rows = rows, .short_buffer = -1, .lossy = lossy};
    S.lo = ta_alloc_array(pool, (size_t)n + 1, sizeof(int));
    S.hi = ta_alloc_array(pool, (size_t)n + 1, sizeof(int));
    S.next = ta_alloc_array(pool, (size_t)n + 1, sizeof(int));
    S.hi[0] = chain->push_input ? 0 : w[0].in_height; /* the chain's input: pushed or whole */
    chain->steps.len = 0;
    bool ok = true;
    for (int y = 0; ok && y < w[n - 1].out_height; y++)
        ok = produce(&S, n - 1, y);
    *short_buffer = S.short_buffer;
    if (!ok)
        return false;
    join_bands(chain, w);
    chain->calls = chain->moves = chain->pushes = 0;
    chain->moved_bytes = 0;
    for (int i = 0; i < chain->steps.len; i++) {
        const TaRowStep *s = chain->steps.items[i];
        if (s->op == TA_ROW_PUSH) {
            chain->pushes++;
        } else if (s->op < 0) {
            chain->moves++;
            chain->moved_bytes += (int64_t)s->move_bytes;
        } else {
            chain->calls++;
        }
    }
    return true;
}

/* ---- the check ------------------------------------------------------------ */

typedef struct Check {
    TaDiag *diag;
    const char *model_path;
    const TaRowChain *chain;
    int step;
    /* per buffer: a tag per byte naming the buffer and row whose byte it
       holds (0: none); buffers sharing bytes (chain->shares) share it */
    int **tag;
    int *slots;        /* per buffer: rows it has room for */
    size_t *row_bytes; /* per buffer */
    int **count;       /* per operator: times each output row was computed */
    int pushed;        /* row-push input: the chain's input rows pushed so far */
    bool unchecked;    /* tests: a read of a row not there only warns (once) */
    bool warned;
} Check;

static int row_tag(const Check *C, int j, int row)
{
    return row * (C->chain->num_ops + 1) + j + 1;
}

static bool fail(Check *C, const char *what, int buffer, int row, int slot)
{
    ta_error(C->diag,
             "%s: row chain at layer %d: step %d: %s (buffer %d (tensor %s), row %d, slot %d of "
             "%d); the schedule is wrong or a row buffer too small (memory.row_streaming: off "
             "avoids it)",
             C->model_path, C->chain->first_op, C->step, what, buffer,
             C->chain->buffers[buffer]->id, row, slot, C->slots[buffer]);
    return false;
}

/* memory.row_streaming_test_unchecked: a step that gives wrong results
   (but stays inside its buffers) warns once and the chain is kept. */
static void wrong(Check *C, const char *what, int buffer)
{
    if (!C->warned)
        ta_warn(C->diag,
                "%s: row chain at layer %d: step %d %s (buffer %d); kept "
                "(memory.row_streaming_test_unchecked): wrong results",
                C->model_path, C->chain->first_op, C->step, what, buffer);
    C->warned = true;
}

/* Row `row` written at slot `slot` of buffer j. */
static void put_row(Check *C, int j, int slot, int row)
{
    const size_t rb = C->row_bytes[j];
    const int tag = row_tag(C, j, row);
    for (size_t b = 0; b < rb; b++)
        C->tag[j][(size_t)slot * rb + b] = tag;
}

/* Rows [row, row + n) at slot `first` of buffer j, as a band reads them. */
static bool check_reads(Check *C, int j, int first, int row, int n)
{
    const size_t rb = C->row_bytes[j];
    for (int i = 0; i < n; i++) {
        const int slot = first + i, want = row_tag(C, j, row + i);
        if (slot >= C->slots[j])
            return fail(C, "reads past the buffer's end", j, row + i, slot);
        for (size_t b = 0; b < rb; b++) {
            const int got = C->tag[j][(size_t)slot * rb + b];
            if (got == want)
                continue;
            if (C->unchecked) { /* tests: the wrong module is built to be run */
                wrong(C, "reads a row that is not there", j);
                break;
            }
            if (got && (got - 1) % (C->chain->num_ops + 1) != j)
                return fail(C,
                            ta_format(C->diag->pool,
                                      "reads a row that buffer %d, sharing its bytes, overwrote",
                                      (got - 1) % (C->chain->num_ops + 1)),
                            j, row + i, slot);
            return fail(C, "reads a row that is not there (not written, or overwritten)", j,
                        row + i, slot);
        }
    }
    return true;
}

/* Whether a band's output bytes [out, out + out_n) of buffer j meet the
   bytes [in, in + in_n) it reads in buffer i, the two sharing bytes: a
   kernel may write an output row before it has read the input under it. */
static bool writes_over_reads(const Check *C, int j, size_t out, size_t out_n, int i, size_t in,
                              size_t in_n)
{
    return C->tag[j] == C->tag[i] && out < in + in_n && in < out + out_n;
}

static bool check_band(Check *C, const TaRowWindow *w, const TaRowStep *s)
{
    const int k = s->op, in = C->chain->input_buffer[k], second = C->chain->second_buffer[k];
    int a, b, a2, b2;
    window_rows(w, s->out_row, &a, &b);
    window_rows(w, s->out_row + s->out_rows - 1, &a2, &b2);
    if (s->out_rows < 1 || s->out_row + s->out_rows > w->out_height)
        return fail(C, "the band's rows are not its window's", in, s->out_row, -1);
    if (s->in_row != a || s->in_rows != b2 - a || s->pad_top != band_pad_top(w, s->out_row, a)) {
        /* tests: a lossy schedule's band reads its lost rows as padding */
        if (!C->unchecked || s->in_row + s->in_rows != b2 ||
            s->pad_top != band_pad_top(w, s->out_row, s->in_row))
            return fail(C, "the band's rows are not its window's", in, s->out_row, -1);
        wrong(C, "reads rows that are not there (as padding)", in);
    }
    if (s->buffer != in || s->in_offset % w->in_row_bytes || s->out_offset % w->out_row_bytes ||
        (second >= 0 && s->second_offset % w->second_row_bytes))
        return fail(C, "a band starts inside a row", in, s->in_row, -1);
    if (!check_reads(C, in, (int)(s->in_offset / w->in_row_bytes), s->in_row, s->in_rows))
        return false;
    if (second >= 0 && !check_reads(C, second, (int)(s->second_offset / w->second_row_bytes),
                                    s->out_row, s->out_rows))
        return false;
    const int out0 = (int)(s->out_offset / w->out_row_bytes);
    if (writes_over_reads(C, k + 1, (size_t)out0 * w->out_row_bytes,
                          (size_t)s->out_rows * w->out_row_bytes, in, s->in_offset,
                          (size_t)s->in_rows * w->in_row_bytes) ||
        (second >= 0 &&
         writes_over_reads(C, k + 1, (size_t)out0 * w->out_row_bytes,
                           (size_t)s->out_rows * w->out_row_bytes, second, s->second_offset,
                           (size_t)s->out_rows * w->second_row_bytes))) {
        if (!C->unchecked)
            return fail(C, "writes over the rows it reads (its output shares their bytes)", k + 1,
                        s->out_row, out0);
        wrong(C, "writes over the rows it reads", k + 1);
    }
    for (int i = 0; i < s->out_rows; i++) {
        const int slot = out0 + i, row = s->out_row + i;
        if (slot >= C->slots[k + 1])
            return fail(C, "writes past the buffer's end", k + 1, row, slot);
        if (C->count[k][row]++)
            return fail(C, "computes a row a second time", k + 1, row, slot);
        put_row(C, k + 1, slot, row);
    }
    return true;
}

/* A push: the next input rows, in order, inside buffer 0. */
static bool check_push(Check *C, const TaRowWindow *w, const TaRowStep *s)
{
    const size_t rb = w[0].in_row_bytes;
    if (!C->chain->push_input || s->buffer != 0 || s->in_rows < 1 || s->out_offset % rb)
        return fail(C, "a push not of whole rows of the input's row buffer", 0, s->in_row, -1);
    if (s->in_row != C->pushed || s->in_row + s->in_rows > w[0].in_height)
        return fail(C, "pushes input rows out of order", 0, s->in_row, -1);
    const int to = (int)(s->out_offset / rb);
    for (int i = 0; i < s->in_rows; i++) {
        if (to + i >= C->slots[0])
            return fail(C, "pushes past the buffer's end", 0, s->in_row + i, to + i);
        put_row(C, 0, to + i, s->in_row + i);
    }
    C->pushed += s->in_rows;
    return true;
}

static bool check_move(Check *C, const TaRowWindow *w, const TaRowStep *s)
{
    const int j = s->buffer;
    if (j < (C->chain->push_input ? 0 : 1) || j >= C->chain->num_ops)
        return fail(C, "a move not of whole rows of a row buffer", 0, s->in_row, -1);
    const size_t rb = ta_row_buffer_row_bytes(w, j);
    if (s->in_offset % rb || s->out_offset % rb || s->move_bytes % rb)
        return fail(C, "a move not of whole rows of a row buffer", j, s->in_row, -1);
    const int from = (int)(s->in_offset / rb), to = (int)(s->out_offset / rb);
    const int n = (int)(s->move_bytes / rb);
    if (from + n > C->slots[j] || to + n > C->slots[j])
        return fail(C, "moves rows past the buffer's end", j, s->in_row, from + n - 1);
    memmove(C->tag[j] + (size_t)to * rb, C->tag[j] + (size_t)from * rb,
            (size_t)n * rb * sizeof(int));
    return true;
}

bool ta_row_check(TaPool *pool, TaDiag *diag, const char *model_path, const TaRowChain *chain,
                  const TaRowWindow *w, const int *rows, bool unchecked)
{
    const int n = chain->num_ops;
    Check C = {.diag = diag, .model_path = model_path, .chain = chain, .unchecked = unchecked};
    C.tag = ta_alloc_array(pool, (size_t)n + 1, sizeof(int *));
    C.count = ta_alloc_array(pool, (size_t)n, sizeof(int *));
    C.slots = ta_alloc_array(pool, (size_t)n + 1, sizeof(int));
    C.row_bytes = ta_alloc_array(pool, (size_t)n + 1, sizeof(size_t));
    for (int j = 0; j <= n; j++) {
        const bool whole_input = j == 0 && !chain->push_input;
        C.slots[j] = whole_input ? w[0].in_height : j == n ? w[n - 1].out_height : rows[j];
        C.row_bytes[j] = j == n ? w[n - 1].out_row_bytes : ta_row_buffer_row_bytes(w, j);
        if (j < n)
            C.count[j] = ta_alloc_array(pool, (size_t)w[j].out_height + 1, sizeof(int));
    }
    /* A buffer sharing another's bytes (never more of them) reads and
       writes that one's tags. */
    for (int j = 0; j <= n; j++)
        if (!chain->shares || chain->shares[j] < 0)
            C.tag[j] = ta_alloc_array(pool, (size_t)C.slots[j] * C.row_bytes[j] + 1, sizeof(int));
    for (int j = 0; j <= n; j++)
        if (chain->shares && chain->shares[j] >= 0) {
            const int root = chain->shares[j];
            TA_ASSERT((size_t)C.slots[j] * C.row_bytes[j] <=
                      (size_t)C.slots[root] * C.row_bytes[root]);
            C.tag[j] = C.tag[root];
        }
    if (!chain->push_input)
        for (int r = 0; r < C.slots[0]; r++)
            put_row(&C, 0, r, r);
    bool ok = true;
    for (int i = 0; ok && i < chain->steps.len; i++) {
        const TaRowStep *s = chain->steps.items[i];
        C.step = i;
        ok = s->op == TA_ROW_PUSH ? check_push(&C, w, s)
             : s->op < 0          ? check_move(&C, w, s)
                                  : check_band(&C, &w[s->op], s);
    }
    /* The chain's output whole; an intermediate row no window reads (past
       a VALID window's reach, between a stride's windows) is not computed. */
    for (int r = 0; ok && r < w[n - 1].out_height; r++)
        if (C.count[n - 1][r] != 1) {
            C.step = chain->steps.len;
            ok = fail(&C, "leaves a row of the chain's output uncomputed", n, r, -1);
        }
    return ok;
}
