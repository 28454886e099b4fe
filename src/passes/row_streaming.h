/*
 * row_streaming.h - fused row-streamed execution (docs/row-streaming.md):
 * chains of window operators (CONV_2D, DEPTHWISE_CONV_2D, the pools) whose
 * intermediates have one reader run band by band, each intermediate in a
 * row buffer of a few rows instead of a whole tensor. Runs after lowering,
 * before planning; the schedule is fixed and checked here.
 */
#ifndef TA_ROW_STREAMING_H
#define TA_ROW_STREAMING_H

#include "../plan/plan.h"
#include "passes.h"

typedef struct TaRowStreamingOptions {
    const char *mode;   /* memory.row_streaming: "auto" | "off" | "least_ram" */
    uint64_t shortfall; /* tests: rows taken off each row buffer after scheduling */
    bool loops;         /* memory.row_streaming_loops: the module runs loops (row_loops.c) */
    /* module.input_rows: push: the chain at layer 0 takes the model input
       in a row buffer, its rows pushed (push steps); an error where the
       model cannot. */
    bool push_input;
    bool test_share_all; /* tests: every row buffer in the largest's bytes (row_share.c) */
    /* tests: a row's bytes shared from one step before its last read (an
       off-by-one sharing, row_share.c) */
    bool test_share_early;
    /* tests: a band reading a row no longer there (overwritten, lost) is a
       warning, so the wrong module runs; reads and writes past a buffer's
       end stay errors (they would leave its bytes) */
    bool test_unchecked;
} TaRowStreamingOptions;

/* Picks the chains, schedules and checks each, and records them in
   ctx->graph->row_chains and on their operators and row buffers. False
   only after a diagnostic (a schedule the check refuses). */
bool ta_row_streaming(TaPassCtx *ctx, const TaRowStreamingOptions *opt);

/* row_plan.c: ta_plan with the chains if that makes the scratch arena
   smaller, else without them (and ctx->graph->row_chains emptied). */
TaPlan *ta_row_streaming_plan(const TaPlanInput *in);

/* row_schedule.c: one operator's window over rows, from its run call. */
typedef struct TaRowWindow {
    const TaOp *op;
    const TaKernelCall *call;
    int in_height, out_height, stride, pad, span; /* span: (kh - 1) * dilation + 1 */
    size_t in_row_bytes, out_row_bytes;
    /* An average pool summed a band at a time: scheduled as one virtual
       output row (of one byte) per input row. Its output rows' windows
       tile the input, sum_rows rows each from row -sum_pad (one window
       over every row: the classifier head's pool). */
    bool sums;
    int sum_rows, sum_pad;
    /* A second input read row for row with the output (a fused residual):
       the tensor, its operand index and its argument of the run call;
       NULL when none. */
    const TaTensor *second;
    int second_input, second_arg;
    size_t second_row_bytes;
} TaRowWindow;

/* Row buffer j of a chain: the chain's input (0) or layer j - 1's output. */
static inline int ta_row_buffer_height(const TaRowWindow *w, int j)
{
    return j ? w[j - 1].out_height : w[0].in_height;
}

static inline size_t ta_row_buffer_row_bytes(const TaRowWindow *w, int j)
{
    return j ? w[j - 1].out_row_bytes : w[0].in_row_bytes;
}

/* Builds chain->steps for the row buffers of chain->buffers, their rows in
   `rows` (row buffers only; the ends are whole, but for the input of a
   chain->push_input chain, rows[0]). False: a row buffer is
   too small for this order (*short_buffer says which). `lossy`, for
   tests: a buffer too small drops the oldest rows still needed instead,
   and a band reads those as padding (wrong results, inside the buffers). */
bool ta_row_schedule(TaPool *pool, TaRowChain *chain, const TaRowWindow *w, const int *rows,
                     bool lossy, int *short_buffer);
/* Replays chain->steps over buffers of `rows` rows (ends whole), a
   buffer sharing another's bytes (chain->shares) over those: every
   band reads rows that were written and are still where it reads them,
   every write stays inside its buffer, every output row is computed once.
   False after one error line naming the chain, step and row. */
bool ta_row_check(TaPool *pool, TaDiag *diag, const char *model_path, const TaRowChain *chain,
                  const TaRowWindow *w, const int *rows, bool unchecked);

/* row_share.c: chain->shares for the steps in buffers of `rows` rows:
   a row buffer takes a larger one's bytes where their live rows never
   meet at one step (share_all, tests: every one the largest's, live or
   not; share_early, tests: each row free one step before its last read;
   the check must refuse both). */
void ta_row_share(TaPool *pool, TaRowChain *chain, const TaRowWindow *w, const int *rows,
                  bool share_all, bool share_early);

/* row_loops.c: chain->loops and loop_steps from chain->steps, as loops
   where the steps repeat (compact) or one pass over every step. */
void ta_row_loops(TaPool *pool, TaRowChain *chain, bool compact);
/* Whether the loops run exactly chain->steps; false after one error line
   naming the chain and the first step that differs. */
bool ta_row_loops_check(TaPool *pool, TaDiag *diag, const char *model_path,
                        const TaRowChain *chain);

#endif /* TA_ROW_STREAMING_H */
