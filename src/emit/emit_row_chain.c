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

/* The run call's argument, between its first and last, that is the
   operator's second chain input (a fused residual); -1 when none. */
static int second_arg(const TaRowChain *ch, const TaOp *op, const TaKernelCall *call)
{
    const int j = ch->second_buffer[op->row_chain_pos];
    for (int a = 1; j >= 0 && a + 1 < call->args.len; a++)
        if (call->args.items[a] == ch->buffers[j])
            return a;
    return -1;
}

/* int <symbol>_band(in_rows, pad_top, out_rows, input, second, output):
   the band call with the operator's parameters narrowed to the band
   (ta_row_band_params); `second`: the band's rows of its second input (a
   fused residual), NULL for a layer without one. A summing pool's band
   adds to its sums instead of writing `output`. */
static void emit_band(const TaSourcesCtx *c, TaBuf *b, const TaOp *op, int params)
{
    const TaKernelCall *call = ta_row_band_call(c->in->graph, op->row_chain, op->row_chain_pos);
    const bool sums = call == op->row_chain->rows_call;
    const int second = second_arg(op->row_chain, op, call);
    const char *sym = op->lowered.symbol;
    ta_buf_printf(b,
                  "/* Output rows [first, first + out_rows) of the layer, from in_rows input\n"
                  "   rows at `input` (row streaming: the chain at layer %d runs it). */\n"
                  "int %s_band(int32_t in_rows, int32_t pad_top, int32_t out_rows,\n"
                  "    const int8_t *input, const int8_t *second, int8_t *output)\n{\n"
                  "    %s p = %s_params%d;\n",
                  op->row_chain->first_op, sym, call->params_desc->type_name, sym, params);
    if (ta_row_band_elements(call)) { /* a separate ADD: a run of elements */
        const TaTensor *out = op->outputs[0];
        ta_buf_printf(b,
                      "    (void)in_rows;\n    (void)pad_top;\n"
                      "    p.dims[0] = out_rows * %ld; /* a row's elements */\n",
                      (long)out->dims[2] * (long)out->dims[3]);
    } else {
        ta_buf_printf(b,
                      "    p.input_height = in_rows;\n    p.%s = pad_top;\n"
                      "    p.output_height = out_rows;\n",
                      ta_row_band_pad_field(call));
    }
    ta_buf_printf(b, "%s%s    return %s(&p,\n        input",
                  sums ? "    (void)output; /* the sums */\n" : "",
                  second < 0 ? "    (void)second;\n" : "", call->function);
    for (int a = 1; a + 1 < call->args.len; a++)
        ta_buf_printf(b, ",\n        %s",
                      a == second ? "second" : ta_sources_tensor_ptr(c, call->args.items[a]));
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

/* Whether an operator of the chain has a second input (the step table
   then has a from2 field). */
static bool has_second(const TaRowChain *ch)
{
    for (int k = 0; k < ch->num_ops; k++)
        if (ch->second_buffer[k] >= 0)
            return true;
    return false;
}

/* A step as the row indices the table holds: its operator (or the move
   marker), buffer (a band's: the one its window reads), rows, top
   padding, output rows, the first row it reads and writes, and the first
   row of its second input. Every offset is a whole number of rows. */
static void step_fields(const TaRowChain *ch, const TaRowStep *s, size_t move, size_t f[8])
{
    const bool is_move = s->op < 0;
    const int in = s->buffer, out = is_move ? s->buffer : s->op + 1;
    const int second = is_move ? -1 : ch->second_buffer[s->op];
    f[0] = is_move ? move : (size_t)s->op;
    f[1] = (size_t)s->buffer;
    f[2] = (size_t)s->in_rows;
    f[3] = is_move ? 0 : (size_t)s->pad_top;
    f[4] = is_move ? 0 : (size_t)s->out_rows;
    f[5] = s->in_offset / row_bytes(ch, in);
    f[6] = s->out_offset / row_bytes(ch, out);
    f[7] = second < 0 ? 0 : s->second_offset / row_bytes(ch, second);
}

/* The narrowest unsigned type every field of the table fits, the move
   marker (its largest value) included: most chains take one byte a
   field, so the table costs little flash. */
static const char *field_type(const TaRowChain *ch, size_t *move)
{
    size_t largest = (size_t)ch->num_ops;
    for (int i = 0; i < ch->steps.len; i++) {
        size_t f[8];
        step_fields(ch, ch->steps.items[i], 0, f);
        for (int k = 0; k < 8; k++)
            largest = f[k] > largest ? f[k] : largest;
    }
    *move = largest < 0xFF ? 0xFF : largest < 0xFFFF ? 0xFFFF : 0xFFFFFFFFu;
    return *move == 0xFF ? "uint8_t" : *move == 0xFFFF ? "uint16_t" : "uint32_t";
}

/* The step table's rows. */
static void emit_steps(TaBuf *b, const TaRowChain *ch, size_t move, bool second)
{
    for (int i = 0; i < ch->steps.len; i++) {
        const TaRowStep *s = ch->steps.items[i];
        size_t f[8];
        step_fields(ch, s, move, f);
        ta_buf_printf(b, "    {%zu, %zu, %zu, %zu, %zu, %zu, %zu", f[0], f[1], f[2], f[3], f[4],
                      f[5], f[6]);
        if (second)
            ta_buf_printf(b, ", %zu", f[7]);
        if (s->op < 0)
            ta_buf_printf(b, "}, /* move rows %d.. */\n", s->in_row);
        else
            ta_buf_printf(b, "}, /* rows %d..%d */\n", s->out_row, s->out_row + s->out_rows - 1);
    }
}

/* The step table and the loop that walks it. */
static void emit_runner(const TaSourcesCtx *c, TaBuf *b, const TaOp *op)
{
    const TaRowChain *ch = op->row_chain;
    const TaGraph *g = c->in->graph;
    const char *sym = op->lowered.symbol;
    const bool second = has_second(ch);
    size_t move;
    const char *type = field_type(ch, &move);
    ta_buf_printf(
        b,
        "\n/* Row chain: layers %d to %d run band by band, %d calls and %d moves\n"
        "   (%lld bytes) a run. op: the chain's operator (%zu: a move of `rows`\n"
        "   rows within buffer `buffer`); buffer: the one its window reads; from/to:\n"
        "   the first row it reads there and writes in its output buffer (a move:\n"
        "   both in `buffer`)%s. */\n"
        "typedef struct {\n    %s op, buffer, rows, pad_top, out_rows, from, to%s;\n"
        "} %s_row_step_t;\n\n"
        "static const %s_row_step_t %s_row_steps[%d] = {\n",
        ch->first_op, ch->first_op + ch->num_ops - 1, ch->calls, ch->moves,
        (long long)ch->moved_bytes, move,
        second ? ";\n   from2: the first row of its second input (a residual) in the buffer\n"
                 "   `seconds` names"
               : "",
        type, second ? ", from2" : "", sym, sym, sym, ch->steps.len);
    emit_steps(b, ch, move, second);
    ta_buf_printf(b, "};\n\nstatic const uint32_t %s_row_bytes[%d] = {", sym, ch->num_ops + 1);
    for (int j = 0; j <= ch->num_ops; j++)
        ta_buf_printf(b, "%s%zu", j ? ", " : "", row_bytes(ch, j));
    if (second) {
        ta_buf_printf(b,
                      "};\n\n/* Each operator's second input buffer (%zu: none). */\n"
                      "static const uint8_t %s_seconds[%d] = {",
                      (size_t)0xFF, sym, ch->num_ops);
        for (int k = 0; k < ch->num_ops; k++)
            ta_buf_printf(b, "%s%d", k ? ", " : "",
                          ch->second_buffer[k] < 0 ? 0xFF : ch->second_buffer[k]);
    }
    ta_buf_printf(b,
                  "};\n\ntypedef int (*%s_band_fn)(int32_t, int32_t, int32_t, const int8_t *, "
                  "const int8_t *, int8_t *);\nstatic const %s_band_fn %s_bands[%d] = {",
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
                  "            continue;\n        }\n",
                  ch->steps.len, sym, sym, sym, move);
    if (second)
        ta_buf_printf(b,
                      "        const uint8_t j = %s_seconds[s->op];\n"
                      "        const int8_t *second = j == 0xFFu ? NULL\n"
                      "            : buffers[j] + (size_t)s->from2 * %s_row_bytes[j];\n",
                      sym, sym);
    ta_buf_printf(b,
                  "        const int status = %s_bands[s->op](s->rows, s->pad_top, s->out_rows,\n"
                  "            buffers[s->buffer] + (size_t)s->from * in_row, %s,\n"
                  "            buffers[s->op + 1] + (size_t)s->to * %s_row_bytes[s->op + 1]);\n"
                  "        if (status != TA_OK)\n            return status;\n    }\n",
                  sym, second ? "second" : "NULL", sym);
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
