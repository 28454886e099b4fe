/*
 * row_share.c - row buffers of one chain that share bytes
 * (row_streaming.h, docs/row-streaming.md "Shared row buffers").
 *
 * A row buffer's slot holds a row from the step that writes it to the
 * last step that reads it (a move reads it and writes it again); between
 * those its bytes are free. Two buffers whose live bytes never meet at
 * one step can take the same bytes: in the keyword spotter the one-row
 * buffer between a depthwise and a pointwise layer is written and read in
 * two steps running one after the other, while a three-row buffer's
 * first slot is free from its last read until the next move. A buffer
 * shares the bytes of a larger one from their start (the planner's alias:
 * same place), so the first fit, largest buffers first, packs them.
 * ta_row_check replays the steps over the shared bytes, so a wrong
 * sharing is an error at conversion.
 */
#include "row_streaming.h"

#include <stdlib.h>

/* Per buffer: which of its slots hold a row still to be read, per step. */
typedef struct Live {
    int slots;
    size_t row_bytes;
    bool *live; /* [step * slots + slot] */
    bool early; /* tests: a row free from the step before its last read */
} Live;

static void mark(Live *L, const int *written, int slot, int step)
{
    for (int i = written[slot]; i <= step; i++)
        L->live[(size_t)i * (size_t)L->slots + (size_t)slot] = true;
}

/* Reads of `n` slots from `first` at `step`: live since their writes
   (share_early, tests: only until the step before). */
static void reads(Live *L, const int *written, int first, int n, int step)
{
    for (int s = first; s < first + n && s < L->slots; s++)
        if (written[s] >= 0)
            mark(L, written, s, L->early ? step - 1 : step);
}

static void writes(Live *L, int *written, int first, int n, int step)
{
    for (int s = first; s < first + n && s < L->slots; s++) {
        written[s] = step;
        mark(L, written, s, step);
    }
}

/* Replays the steps' slot offsets (ta_row_check proves them) into each
   row buffer's live slots. */
static Live *liveness(TaPool *pool, const TaRowChain *ch, const TaRowWindow *w, const int *rows,
                      int j0, bool early)
{
    const int n = ch->num_ops, steps = ch->steps.len;
    Live *L = ta_alloc_array(pool, (size_t)n + 1, sizeof *L);
    int **written = ta_alloc_array(pool, (size_t)n + 1, sizeof(int *));
    for (int j = j0; j < n; j++) {
        L[j].slots = rows[j];
        L[j].row_bytes = ta_row_buffer_row_bytes(w, j);
        L[j].early = early;
        L[j].live = ta_alloc_array(pool, (size_t)steps * (size_t)rows[j] + 1, sizeof(bool));
        written[j] = ta_alloc_array(pool, (size_t)rows[j] + 1, sizeof(int));
        for (int s = 0; s < rows[j]; s++)
            written[j][s] = -1;
    }
    for (int i = 0; i < steps; i++) {
        const TaRowStep *s = ch->steps.items[i];
        if (s->op == TA_ROW_PUSH) {
            const size_t rb = L[0].row_bytes;
            writes(&L[0], written[0], (int)(s->out_offset / rb), s->in_rows, i);
        } else if (s->op < 0) {
            const int j = s->buffer;
            const size_t rb = L[j].row_bytes;
            const int n_rows = (int)(s->move_bytes / rb);
            reads(&L[j], written[j], (int)(s->in_offset / rb), n_rows, i);
            writes(&L[j], written[j], (int)(s->out_offset / rb), n_rows, i);
        } else {
            const int k = s->op, in = ch->input_buffer[k], second = ch->second_buffer[k];
            if (in >= j0 && in < n)
                reads(&L[in], written[in], (int)(s->in_offset / w[k].in_row_bytes), s->in_rows, i);
            if (second >= j0 && second < n)
                reads(&L[second], written[second], (int)(s->second_offset / w[k].second_row_bytes),
                      s->out_rows, i);
            if (k + 1 < n)
                writes(&L[k + 1], written[k + 1], (int)(s->out_offset / w[k].out_row_bytes),
                       s->out_rows, i);
        }
    }
    return L;
}

/* Whether buffers a and b, both from byte 0 of the same bytes, hold live
   bytes in the same place at some step. */
static bool clash(const Live *a, const Live *b, int steps)
{
    for (int i = 0; i < steps; i++)
        for (int x = 0; x < a->slots; x++) {
            if (!a->live[(size_t)i * (size_t)a->slots + (size_t)x])
                continue;
            const size_t a0 = (size_t)x * a->row_bytes, a1 = a0 + a->row_bytes;
            for (int y = 0; y < b->slots; y++)
                if (b->live[(size_t)i * (size_t)b->slots + (size_t)y] &&
                    (size_t)y * b->row_bytes < a1 && a0 < (size_t)(y + 1) * b->row_bytes)
                    return true;
        }
    return false;
}

typedef struct Sized {
    int j;
    size_t bytes;
} Sized;

static int by_bytes(const void *x, const void *y)
{
    const Sized *a = x, *b = y;
    return a->bytes != b->bytes ? (a->bytes < b->bytes ? 1 : -1) : a->j - b->j;
}

void ta_row_share(TaPool *pool, TaRowChain *ch, const TaRowWindow *w, const int *rows,
                  bool share_all, bool share_early)
{
    const int n = ch->num_ops, j0 = ch->push_input ? 0 : 1;
    ch->shares = ta_alloc_array(pool, (size_t)n + 1, sizeof(int));
    for (int j = 0; j <= n; j++)
        ch->shares[j] = -1;
    if (n - j0 < 2)
        return;
    Sized *order = ta_alloc_array(pool, (size_t)n + 1, sizeof *order);
    for (int j = j0; j < n; j++)
        order[j - j0] = (Sized){j, (size_t)rows[j] * ta_row_buffer_row_bytes(w, j)};
    qsort(order, (size_t)(n - j0), sizeof *order, by_bytes);
    if (share_all) { /* tests: every buffer in the largest's bytes, live or not */
        for (int i = 1; i < n - j0; i++)
            ch->shares[order[i].j] = order[0].j;
        return;
    }
    const Live *L = liveness(pool, ch, w, rows, j0, share_early);
    for (int i = 1; i < n - j0; i++) {
        const int b = order[i].j;
        for (int r = 0; r < i; r++) { /* the first larger buffer (a root) all of whose */
            const int a = order[r].j; /* sharers' live bytes b's never meet */
            if (ch->shares[a] >= 0 || clash(&L[a], &L[b], ch->steps.len))
                continue;
            bool fits = true;
            for (int m = j0; fits && m < n; m++)
                fits = ch->shares[m] != a || !clash(&L[m], &L[b], ch->steps.len);
            if (fits) {
                ch->shares[b] = a;
                break;
            }
        }
    }
}
