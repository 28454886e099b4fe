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

/* Bytes in one row of chain buffer j. */
static size_t row_bytes(const TaRowChain *ch, int j)
{
    return (size_t)ch->buffers[j]->dims[2] * (size_t)ch->buffers[j]->dims[3];
}

/* A step as the row indices the table holds: its operator (or the move
   marker), buffer, rows, top padding, output rows, and the first row it
   reads and writes. Every offset is a whole number of rows. */
static void step_fields(const TaRowChain *ch, const TaRowStep *s, size_t move, size_t f[7])
{
    const bool is_move = s->op < 0;
    const int in = is_move ? s->buffer : s->op, out = is_move ? s->buffer : s->op + 1;
    f[0] = is_move ? move : (size_t)s->op;
    f[1] = (size_t)(is_move ? s->buffer : s->op);
    f[2] = (size_t)s->in_rows;
    f[3] = is_move ? 0 : (size_t)s->pad_top;
    f[4] = is_move ? 0 : (size_t)s->out_rows;
    f[5] = s->in_offset / row_bytes(ch, in);
    f[6] = s->out_offset / row_bytes(ch, out);
}

/* The narrowest unsigned type every field of the table fits, the move
   marker (its largest value) included: most chains take one byte a
   field, so the table costs little flash. */
static const char *field_type(const TaRowChain *ch, size_t *move)
{
    size_t largest = (size_t)ch->num_ops;
    for (int i = 0; i < ch->steps.len; i++) {
        size_t f[7];
        step_fields(ch, ch->steps.items[i], 0, f);
        for (int k = 0; k < 7; k++)
            largest = f[k] > largest ? f[k] : largest;
    }
    *move = largest < 0xFF ? 0xFF : largest < 0xFFFF ? 0xFFFF : 0xFFFFFFFFu;
    return *move == 0xFF ? "uint8_t" : *move == 0xFFFF ? "uint16_t" : "uint32_t";
}

/* The step table and the loop that walks it. */
static void emit_runner(const TaSourcesCtx *c, TaBuf *b, const TaOp *op)
{
    const TaRowChain *ch = op->row_chain;
    const TaGraph *g = c->in->graph;
    const char *sym = op->lowered.symbol;
    size_t move;
    const char *type = field_type(ch, &move);
    ta_buf_printf(b,
                  "\n/* Row chain: layers %d to %d run band by band, %d calls and %d moves\n"
                  "   (%lld bytes) a run. op: the chain's operator (%zu: a move of `rows`\n"
                  "   rows within buffer `buffer`); from/to: the first row it reads in its\n"
                  "   input buffer and writes in its output buffer (a move: both in `buffer`). */\n"
                  "typedef struct {\n    %s op, buffer, rows, pad_top, out_rows, from, to;\n"
                  "} %s_row_step_t;\n\n"
                  "static const %s_row_step_t %s_row_steps[%d] = {\n",
                  ch->first_op, ch->first_op + ch->num_ops - 1, ch->calls, ch->moves,
                  (long long)ch->moved_bytes, move, type, sym, sym, sym, ch->steps.len);
    for (int i = 0; i < ch->steps.len; i++) {
        const TaRowStep *s = ch->steps.items[i];
        size_t f[7];
        step_fields(ch, s, move, f);
        ta_buf_printf(b, "    {%zu, %zu, %zu, %zu, %zu, %zu, %zu}, ", f[0], f[1], f[2], f[3], f[4],
                      f[5], f[6]);
        if (s->op < 0)
            ta_buf_printf(b, "/* move rows %d.. */\n", s->in_row);
        else
            ta_buf_printf(b, "/* rows %d..%d */\n", s->out_row, s->out_row + s->out_rows - 1);
    }
    ta_buf_printf(b, "};\n\nstatic const uint32_t %s_row_bytes[%d] = {", sym, ch->num_ops + 1);
    for (int j = 0; j <= ch->num_ops; j++)
        ta_buf_printf(b, "%s%zu", j ? ", " : "", row_bytes(ch, j));
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
                  "        const uint32_t in_row = %s_row_bytes[s->buffer];\n"
                  "        if (s->op == %zuu) {\n"
                  "            memmove(buffers[s->buffer] + (size_t)s->to * in_row,\n"
                  "                buffers[s->buffer] + (size_t)s->from * in_row,\n"
                  "                (size_t)s->rows * in_row);\n"
                  "            continue;\n        }\n"
                  "        const int status = %s_bands[s->op](s->rows, s->pad_top, s->out_rows,\n"
                  "            buffers[s->op] + (size_t)s->from * in_row,\n"
                  "            buffers[s->op + 1] + (size_t)s->to * %s_row_bytes[s->op + 1]);\n"
                  "        if (status != TA_OK)\n            return status;\n    }\n",
                  ch->steps.len, sym, sym, sym, move, sym, sym);
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
