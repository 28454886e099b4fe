/*
 * emit_row_push.c - a row chain's runner with row-push input
 * (module.input_rows: push; docs/row-streaming.md): the chain's input is
 * a row buffer its push steps fill from the rows the application hands
 * <prefix>_model_push_rows. The runner is resumable: it keeps its loop,
 * repetition, step and the rows of the current push step already copied,
 * and returns when a push step lacks rows; the next push goes on from
 * there. The steps and loops are the ones the converter checked.
 */
#include "emit_sources.h"

/* The state and the small functions around it. */
static void emit_state(TaBuf *b, const TaRowChain *ch, const char *sym)
{
    ta_buf_printf(b,
                  "\n/* Where the runner is: loop, repetition, step, rows of the current push\n"
                  "   step copied, and the input rows pushed so far (this inference). */\n"
                  "static struct {\n    uint32_t loop, repeat, step, copied, pushed;\n"
                  "} %s_push_state;\n\n"
                  "void %s_push_reset(void)\n{\n"
                  "    memset(&%s_push_state, 0, sizeof %s_push_state);\n}\n\n"
                  "uint32_t %s_pushed(void)\n{\n    return %s_push_state.pushed;\n}\n\n"
                  "/* The chain has run every step (the whole input was pushed). */\n"
                  "int %s_run(void)\n{\n"
                  "    return %s_push_state.loop < %du ? TA_ERR_ROWS_MISSING : TA_OK;\n}\n",
                  sym, sym, sym, sym, sym, sym, sym, sym, ch->loops.len);
}

void ta_emit_row_push_runner(const TaSourcesCtx *c, TaBuf *b, const TaOp *op)
{
    const TaRowChain *ch = op->row_chain;
    const TaGraph *g = c->in->graph;
    const char *sym = op->lowered.symbol;
    const int n = ch->num_ops;
    emit_state(b, ch, sym);
    ta_buf_printf(b,
                  "\n/* Takes n input rows at `rows` and runs the steps they allow; rows past\n"
                  "   the last push step (no window reads them) are only counted. */\n"
                  "int %s_push(const int8_t *rows, uint32_t n)\n{\n"
                  "    int8_t *buffers[%d];\n",
                  sym, n + 1);
    for (int j = 0; j < n; j++)
        ta_buf_printf(b, "    buffers[%d] = (int8_t *)%s;\n", j,
                      ta_sources_tensor_ptr(c, ch->buffers[j]));
    ta_buf_printf(
        b,
        "    %s_push_state.pushed += n;\n"
        "    while (%s_push_state.loop < %du) {\n"
        "        const %s_row_loop_t *loop = &%s_row_loops[%s_push_state.loop];\n"
        "        const %s_row_step_t *s = &%s_row_steps[%s_push_state.step];\n"
        "        buffers[%d] = (int8_t *)%s +\n"
        "            (size_t)%s_push_state.repeat * loop->out_advance * %zuu;\n"
        "        if (s->op == %du) { /* a push */\n"
        "            const uint32_t want = s->rows - %s_push_state.copied;\n"
        "            const uint32_t take = n < want ? n : want;\n"
        "            memcpy(buffers[0] + s->to + (size_t)%s_push_state.copied * %zuu, rows,\n"
        "                (size_t)take * %zuu);\n"
        "            rows += (size_t)take * %zuu;\n"
        "            n -= take;\n"
        "            %s_push_state.copied += take;\n"
        "            if (%s_push_state.copied < s->rows)\n"
        "                return TA_OK; /* the next push goes on here */\n"
        "            %s_push_state.copied = 0;\n"
        "        } else if (s->op >= %du) {\n"
        "            const uint32_t j = s->op - %du;\n"
        "            ta_move_rows(buffers[j] + s->to, buffers[j] + s->from,\n"
        "                (size_t)s->rows * %s_row_bytes[j]);\n"
        "        } else {\n"
        "%s"
        "            if (status != TA_OK)\n"
        "                return status;\n"
        "        }\n"
        "        if (++%s_push_state.step < (uint32_t)loop->first + loop->count)\n"
        "            continue;\n"
        "        %s_push_state.step = loop->first;\n"
        "        if (++%s_push_state.repeat < loop->repeats)\n"
        "            continue;\n"
        "        %s_push_state.repeat = 0;\n"
        "        if (++%s_push_state.loop < %du)\n"
        "            %s_push_state.step = %s_row_loops[%s_push_state.loop].first;\n",
        sym, sym, ch->loops.len, sym, sym, sym, sym, sym, sym, n,
        ta_sources_tensor_ptr(c, ch->buffers[n]), sym, ta_row_chain_row_bytes(ch, n), 2 * n, sym,
        sym, ta_row_chain_row_bytes(ch, 0), ta_row_chain_row_bytes(ch, 0),
        ta_row_chain_row_bytes(ch, 0), sym, sym, sym, n, n, sym,
        ta_emit_row_band_call(c, ch, sym, 12), sym, sym, sym, sym, sym, ch->loops.len, sym, sym,
        sym);
    if (ta_row_chain_finishes_at_end(ch))
        ta_buf_printf(b, "        else\n            return %s_finish();\n",
                      TA_OP(g, ch->first_op + n - 1)->lowered.symbol);
    ta_buf_puts(b, "    }\n    return TA_OK;\n}\n");
}
