/*
 * emit_row_chain.c - row streaming in an operator's file
 * (docs/row-streaming.md): each chained operator's `<symbol>_band()`,
 * its kernel on a band of rows, and in the chain's first operator's file
 * `<symbol>_run()`, which walks the chain's step table. The table is the
 * schedule the converter made and checked; the module keeps no
 * bookkeeping of its own.
 */
#include "emit_sources.h"

#include "escape.h"

#include <string.h>

static const TaKernelCall *run_call(const TaOp *op, int *index)
{
    for (int k = 0; k < op->lowered.calls.len; k++) {
        const TaKernelCall *c = op->lowered.calls.items[k];
        if (strcmp(c->role, "run") == 0) {
            *index = k;
            return c;
        }
    }
    ta_unreachable();
    return NULL;
}

/* int <symbol>_band(in_rows, pad_top, out_rows, input, output): the band
   call with the operator's parameters narrowed to the band
   (ta_row_band_params). A summing pool's band adds to its sums instead of
   writing `output`. */
static void emit_band(const TaSourcesCtx *c, TaBuf *b, const TaOp *op, int params)
{
    const TaKernelCall *call = ta_row_band_call(c->in->graph, op->row_chain, op->row_chain_pos);
    const bool sums = call == op->row_chain->rows_call;
    const char *sym = op->lowered.symbol;
    ta_buf_printf(b,
                  "/* Output rows [first, first + out_rows) of the layer, from in_rows input\n"
                  "   rows at `input` (row streaming: the chain at layer %d runs it). */\n"
                  "int %s_band(int32_t in_rows, int32_t pad_top, int32_t out_rows,\n"
                  "    const int8_t *input, int8_t *output)\n{\n"
                  "    %s p = %s_params%d;\n"
                  "    p.input_height = in_rows;\n    p.%s = pad_top;\n"
                  "    p.output_height = out_rows;\n%s"
                  "    return %s(&p,\n        input",
                  op->row_chain->first_op, sym, call->params_desc->type_name, sym, params,
                  ta_row_band_pad_field(call), sums ? "    (void)output; /* the sums */\n" : "",
                  call->function);
    for (int a = 1; a + 1 < call->args.len; a++)
        ta_buf_printf(b, ",\n        %s", ta_sources_tensor_ptr(c, call->args.items[a]));
    ta_buf_printf(b, ",\n        %s);\n}\n",
                  sums ? ta_sources_tensor_ptr(c, op->row_chain->sums) : "output");
}

/* A summing pool's int <symbol>_finish(void): its output from the sums. */
static void emit_finish(const TaSourcesCtx *c, TaBuf *b, const TaOp *op, int params)
{
    const TaKernelCall *finish = op->row_chain->finish_call;
    ta_buf_printf(b,
                  "\n/* The pool's output from the sums of every band. */\n"
                  "int %s_finish(void)\n{\n    return %s(&%s_params%d,\n        %s,\n"
                  "        %s);\n}\n",
                  op->lowered.symbol, finish->function, op->lowered.symbol, params,
                  ta_sources_tensor_ptr(c, finish->args.items[0]),
                  ta_sources_tensor_ptr(c, finish->args.items[1]));
}

/* The step table and the loop that walks it. */
static void emit_runner(const TaSourcesCtx *c, TaBuf *b, const TaOp *op)
{
    const TaRowChain *ch = op->row_chain;
    const TaGraph *g = c->in->graph;
    const char *sym = op->lowered.symbol;
    ta_buf_printf(
        b,
        "\n/* Row chain: layers %d to %d run band by band, %d calls and %d moves\n"
        "   (%lld bytes) a run. op: the chain's operator (0xFF: a move of\n"
        "   rows rows in buffer `buffer`); from/to: byte offsets into its input and\n"
        "   output buffers (a move: within the buffer). */\n"
        "typedef struct {\n    uint8_t op, buffer;\n    uint16_t rows, pad_top, out_rows;\n"
        "    uint32_t from, to;\n} %s_row_step_t;\n\n"
        "static const %s_row_step_t %s_row_steps[%d] = {\n",
        ch->first_op, ch->first_op + ch->num_ops - 1, ch->calls, ch->moves,
        (long long)ch->moved_bytes, sym, sym, sym, ch->steps.len);
    for (int i = 0; i < ch->steps.len; i++) {
        const TaRowStep *s = ch->steps.items[i];
        if (s->op < 0)
            ta_buf_printf(b, "    {0xFF, %d, %d, 0, 0, %zu, %zu}, /* move rows %d.. */\n",
                          s->buffer, s->in_rows, s->in_offset, s->out_offset, s->in_row);
        else
            ta_buf_printf(b, "    {%d, %d, %d, %d, %d, %zu, %zu}, /* rows %d..%d */\n", s->op,
                          s->op, s->in_rows, s->pad_top, s->out_rows, s->in_offset, s->out_offset,
                          s->out_row, s->out_row + s->out_rows - 1);
    }
    ta_buf_printf(b, "};\n\nstatic const uint32_t %s_row_bytes[%d] = {", sym, ch->num_ops + 1);
    for (int j = 0; j <= ch->num_ops; j++)
        ta_buf_printf(b, "%s%d", j ? ", " : "", ch->buffers[j]->dims[2] * ch->buffers[j]->dims[3]);
    ta_buf_printf(b,
                  "};\n\ntypedef int (*%s_band_fn)(int32_t, int32_t, int32_t, const int8_t *, "
                  "int8_t *);\nstatic const %s_band_fn %s_bands[%d] = {",
                  sym, sym, sym, ch->num_ops);
    for (int k = 0; k < ch->num_ops; k++)
        ta_buf_printf(b, "%s%s_band", k ? ", " : "", TA_OP(g, ch->first_op + k)->lowered.symbol);
    ta_buf_printf(b, "};\n\nint %s_run(void)\n{\n    int8_t *const buffers[%d] = {", sym,
                  ch->num_ops + 1);
    for (int j = 0; j <= ch->num_ops; j++)
        ta_buf_printf(b, "%s\n        (int8_t *)%s", j ? "," : "",
                      ta_sources_tensor_ptr(c, ch->buffers[j]));
    ta_buf_printf(b,
                  "};\n"
                  "    for (uint32_t i = 0; i < %du; i++) {\n"
                  "        const %s_row_step_t *s = &%s_row_steps[i];\n"
                  "        if (s->op == 0xFF) {\n"
                  "            memmove(buffers[s->buffer] + s->to, buffers[s->buffer] + s->from,\n"
                  "                (size_t)s->rows * %s_row_bytes[s->buffer]);\n"
                  "            continue;\n        }\n"
                  "        const int status = %s_bands[s->op](s->rows, s->pad_top, s->out_rows,\n"
                  "            buffers[s->op] + s->from, buffers[s->op + 1] + s->to);\n"
                  "        if (status != TA_OK)\n            return status;\n    }\n",
                  ch->steps.len, sym, sym, sym, sym);
    if (ch->finish_call)
        ta_buf_printf(b, "    return %s_finish();\n}\n",
                      TA_OP(g, ch->first_op + ch->num_ops - 1)->lowered.symbol);
    else
        ta_buf_puts(b, "    return TA_OK;\n}\n");
}

void ta_emit_row_chain_functions(const TaSourcesCtx *c, TaBuf *b, const TaOp *op)
{
    int params = 0; /* the parameter struct's number: its run call's */
    run_call(op, &params);
    emit_band(c, b, op, params);
    if (op->row_chain->finish_call && op->row_chain_pos == op->row_chain->num_ops - 1)
        emit_finish(c, b, op, params);
    if (op->row_chain_pos == 0)
        emit_runner(c, b, op);
}
