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

/* The rest of a summing pool's band with more than one output row: the
   band's rows added to the sums (no top padding: the windows tile the
   rows), and where the band completes an output row's window (pad_top:
   that window's rows, 0 for none) the output row from the sums. */
static void emit_sums_band_end(const TaSourcesCtx *c, TaBuf *b, const TaOp *op, int params,
                               bool residual)
{
    const TaRowChain *ch = op->row_chain;
    const char *sums = ta_sources_tensor_ptr(c, ch->sums);
    ta_buf_printf(b,
                  "%s    p.pad_height = 0; /* pad_top: the rows of the window it completes */\n"
                  "    const int status = %s(&p, input, %s);\n"
                  "    if (status != TA_OK || pad_top == 0)\n        return status;\n"
                  "    p = %s_params%d;\n"
                  "    p.input_height = p.filter_height = pad_top;\n"
                  "    p.pad_height = 0;\n    p.output_height = 1;\n"
                  "    return %s(&p, %s, output);\n}\n",
                  residual ? "    (void)second;\n" : "", ch->rows_call->function, sums,
                  op->lowered.symbol, params, ch->finish_call->function, sums);
}

/* A window layer's struct `p` narrowed to the band's rows, each line
   after `indent`. */
static void emit_window_narrowing(TaBuf *b, const TaKernelCall *call, const char *indent)
{
    ta_buf_printf(b,
                  "%sp.input_height = in_rows;\n%sp.%s = pad_top;\n%sp.output_height = out_rows;\n",
                  indent, indent, ta_row_band_pad_field(call), indent);
}

/* int <symbol>_band(in_rows, pad_top, out_rows, input, second, output):
   the band call with the operator's parameters narrowed to the band
   (ta_row_band_params; an elementwise layer's to a run of elements); `second`:
   the band's rows of its second input (a residual), NULL for a layer
   without one. A summing pool's band adds to its sums instead of writing
   `output`. */
static void emit_band(const TaSourcesCtx *c, TaBuf *b, const TaOp *op, int params)
{
    const TaKernelCall *call = ta_row_band_call(c->in->graph, op->row_chain, op->row_chain_pos);
    const bool sums = call == op->row_chain->rows_call;
    const int second = second_arg(op->row_chain, op, call);
    /* Only a residual block's chain passes `second` (an argument more on
       the stack of every band call of a plain chain). */
    const bool residual = ta_row_chain_is_dag(op->row_chain);
    const char *sym = op->lowered.symbol;
    ta_buf_printf(b,
                  "/* Output rows [first, first + out_rows) of the layer, from in_rows input\n"
                  "   rows at `input` (row streaming: the chain at layer %d runs it). */\n"
                  "int %s_band(int32_t in_rows, int32_t pad_top, int32_t out_rows,\n"
                  "    const int8_t *input, %sint8_t *output)\n{\n",
                  op->row_chain->first_op, sym, residual ? "const int8_t *second, " : "");
    const char *pointwise_rows = ta_row_band_pointwise(call);
    if (pointwise_rows) {
        /* every band one run of its rows' pixels: no narrowed struct */
        ta_buf_printf(b,
                      "    (void)in_rows;\n    (void)pad_top;\n%s"
                      "    %s(&%s_params%d, out_rows,\n"
                      "        input",
                      residual ? "    (void)second;\n" : "", pointwise_rows, sym, params);
        for (int a = 1; a + 1 < call->args.len; a++)
            ta_buf_printf(b, ",\n        %s", ta_sources_tensor_ptr(c, call->args.items[a]));
        ta_buf_puts(b, ",\n        output);\n    return TA_OK;\n}\n");
        return;
    }
    int32_t rows, pad, out_rows;
    const bool usual = ta_row_band_usual(c->in->graph, op->row_chain, op->row_chain_pos, &rows,
                                         &pad, &out_rows);
    /* The struct is written for the usual band: passed as it is then; for
       another a copy narrowed to it, by ta_move_rows (a call: a struct
       copy, its fields stored one by one, is several times the code). */
    if (usual) {
        ta_buf_printf(
            b,
            "    const %s *params = &%s_params%d;\n    %s p;\n"
            "    if (in_rows != %d || pad_top != %d || out_rows != %d) {\n"
            "        ta_move_rows((int8_t *)&p, (const int8_t *)&%s_params%d, sizeof p);\n",
            call->params_desc->type_name, sym, params, call->params_desc->type_name, (int)rows,
            (int)pad, (int)out_rows, sym, params);
        emit_window_narrowing(b, call, "        ");
        ta_buf_puts(b, "        params = &p;\n    }\n");
    } else {
        ta_buf_printf(b, "    %s p = %s_params%d;\n", call->params_desc->type_name, sym, params);
        if (ta_row_band_elements(call)) { /* an elementwise layer: a run of elements */
            const TaTensor *out = op->outputs[0];
            /* in units of the field: a broadcast operand's inner elements */
            ta_buf_printf(b,
                          "    (void)in_rows;\n    (void)pad_top;\n"
                          "    p.%s = out_rows * %ld; /* a row's elements */\n",
                          ta_row_band_elements_field(call),
                          (long)out->dims[2] * (long)out->dims[3] / (long)ta_row_band_unit(call));
        } else {
            emit_window_narrowing(b, call, "    ");
        }
    }
    if (sums && op->row_chain->sums_per_row) {
        emit_sums_band_end(c, b, op, params, residual);
        return;
    }
    /* ta_depthwise_conv_2d_s8_m1_fast's layers pass its check once, here */
    const bool unchecked = strcmp(call->function, "ta_depthwise_conv_2d_s8_m1_fast") == 0;
    ta_buf_printf(b, "%s%s    %s%s%s(%s,\n        input",
                  sums ? "    (void)output; /* the sums */\n" : "",
                  residual && second < 0 ? "    (void)second;\n" : "", unchecked ? "" : "return ",
                  call->function, unchecked ? "_rows" : "", usual ? "params" : "&p");
    for (int a = 1; a + 1 < call->args.len; a++)
        ta_buf_printf(b, ",\n        %s",
                      a == second ? "second" : ta_sources_tensor_ptr(c, call->args.items[a]));
    ta_buf_printf(b, ",\n        %s);\n%s}\n",
                  sums ? ta_sources_tensor_ptr(c, op->row_chain->sums) : "output",
                  unchecked ? "    return TA_OK;\n" : "");
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

/* A loop step as the table holds it: its operator (a move in buffer j:
   num_ops + j), rows, top padding, output rows, and the byte offsets it
   reads and writes at (in the chain's input and output: from where the
   loop's repetition has moved them; bytes, not rows, so a band call
   multiplies nothing), and where it reads its second input (a residual;
   the table has that field only in a chain with residuals). */
enum { STEP_FIELDS = 7 };
static void step_fields(const TaRowChain *ch, const TaRowStep *s, size_t f[STEP_FIELDS])
{
    const bool is_move = s->op < 0;
    f[0] = s->op == TA_ROW_PUSH ? (size_t)(2 * ch->num_ops) /* a push */
           : is_move            ? (size_t)(ch->num_ops + s->buffer)
                                : (size_t)s->op;
    f[1] = (size_t)s->in_rows;
    f[2] = is_move ? 0 : (size_t)s->pad_top;
    f[3] = is_move ? 0 : (size_t)s->out_rows;
    f[4] = s->in_offset;
    f[5] = s->out_offset;
    f[6] = is_move ? 0 : s->second_offset;
}

/* The narrowest unsigned type every value fits: most chains take one
   byte a field, so the tables cost little flash. */
static const char *narrowest(size_t largest)
{
    return largest <= 0xFF ? "uint8_t" : largest <= 0xFFFF ? "uint16_t" : "uint32_t";
}

/* The narrowest type of the step fields [from, to) (the small fields,
   then the offsets). */
static const char *step_type(const TaRowChain *ch, int from, int to)
{
    size_t largest = 2 * (size_t)ch->num_ops;
    for (int i = 0; i < ch->loop_steps.len; i++) {
        size_t f[STEP_FIELDS];
        step_fields(ch, ch->loop_steps.items[i], f);
        for (int k = from; k < to; k++)
            largest = f[k] > largest ? f[k] : largest;
    }
    return narrowest(largest);
}

static const char *loop_type(const TaRowChain *ch)
{
    size_t largest = (size_t)ch->loop_steps.len;
    for (int l = 0; l < ch->loops.len; l++) {
        const TaRowLoop *loop = ch->loops.items[l];
        const size_t v[3] = {(size_t)loop->repeats, (size_t)loop->in_advance,
                             (size_t)loop->out_advance};
        for (int k = 0; k < 3; k++)
            largest = v[k] > largest ? v[k] : largest;
    }
    return narrowest(largest);
}

/* A residual block's chain: each operator's window buffer and second
   input buffer (0xFF: none). */
static void emit_buffer_tables(TaBuf *b, const TaRowChain *ch, const char *sym)
{
    ta_buf_printf(b,
                  "\n/* Each operator's window's buffer and second input's (255: none). */\n"
                  "static const uint8_t %s_inputs[%d] = {",
                  sym, ch->num_ops);
    for (int k = 0; k < ch->num_ops; k++)
        ta_buf_printf(b, "%s%d", k ? ", " : "", ch->input_buffer[k]);
    ta_buf_printf(b, "};\nstatic const uint8_t %s_seconds[%d] = {", sym, ch->num_ops);
    for (int k = 0; k < ch->num_ops; k++)
        ta_buf_printf(b, "%s%d", k ? ", " : "",
                      ch->second_buffer[k] < 0 ? 0xFF : ch->second_buffer[k]);
    ta_buf_puts(b, "};\n");
}

/* The loop and step tables. */
static void emit_tables(TaBuf *b, const TaRowChain *ch, const char *sym)
{
    const bool residual = ta_row_chain_is_dag(ch);
    const int fields = residual ? STEP_FIELDS : STEP_FIELDS - 1;
    ta_buf_printf(b,
                  "\n/* Row chain: layers %d to %d run band by band, %d calls and %d moves\n"
                  "   (%lld bytes) a run, as %d loops of %d steps. op: the chain's operator\n"
                  "   (%d + j: a move of `rows` rows within buffer j); from/to: the byte\n"
                  "   offsets it reads at in its input buffer and writes at in its output\n"
                  "   buffer (a move: both in j)%s. A loop runs `count` steps from `first`\n"
                  "   `repeats` times, the chain's input and output `in_advance` and\n"
                  "   `out_advance` rows further on each time. */\n"
                  "typedef struct {\n    %s op, rows, pad_top, out_rows;\n    %s from, to%s;\n"
                  "} %s_row_step_t;\n\n"
                  "typedef struct {\n    %s first, count, repeats, in_advance, out_advance;\n"
                  "} %s_row_loop_t;\n\n"
                  "static const %s_row_step_t %s_row_steps[%d] = {\n",
                  ch->first_op, ch->first_op + ch->num_ops - 1, ch->calls, ch->moves,
                  (long long)ch->moved_bytes, ch->loops.len, ch->loop_steps.len, ch->num_ops,
                  residual ? "; from2: the byte offset of its second input (a residual)" : "",
                  step_type(ch, 0, 4), step_type(ch, 4, fields), residual ? ", from2" : "", sym,
                  loop_type(ch), sym, sym, sym, ch->loop_steps.len);
    for (int i = 0, l = 0; i < ch->loop_steps.len; i++) {
        const TaRowStep *s = ch->loop_steps.items[i];
        const TaRowLoop *loop = ch->loops.items[l];
        if (i == loop->first) {
            ta_buf_printf(b, "    /* loop %d: %d time%s (the rows of its first) */\n", l,
                          loop->repeats, loop->repeats == 1 ? "" : "s");
            l += l + 1 < ch->loops.len;
        }
        size_t f[STEP_FIELDS];
        step_fields(ch, s, f);
        ta_buf_puts(b, "    {");
        for (int k = 0; k < fields; k++)
            ta_buf_printf(b, "%s%zu", k ? ", " : "", f[k]);
        if (s->op == TA_ROW_PUSH)
            ta_buf_printf(b, "}, /* push input rows %d..%d */\n", s->in_row,
                          s->in_row + s->in_rows - 1);
        else if (s->op < 0)
            ta_buf_printf(b, "}, /* move rows %d.. */\n", s->in_row);
        else
            ta_buf_printf(b, "}, /* rows %d..%d */\n", s->out_row, s->out_row + s->out_rows - 1);
    }
    ta_buf_printf(b, "};\n\nstatic const %s_row_loop_t %s_row_loops[%d] = {\n", sym, sym,
                  ch->loops.len);
    for (int l = 0; l < ch->loops.len; l++) {
        const TaRowLoop *loop = ch->loops.items[l];
        ta_buf_printf(b, "    {%d, %d, %d, %d, %d},\n", loop->first, loop->count, loop->repeats,
                      loop->in_advance, loop->out_advance);
    }
    ta_buf_printf(b, "};\n\nstatic const uint32_t %s_row_bytes[%d] = {", sym, ch->num_ops + 1);
    for (int j = 0; j <= ch->num_ops; j++)
        ta_buf_printf(b, "%s%zu", j ? ", " : "", ta_row_chain_row_bytes(ch, j));
    ta_buf_puts(b, "};\n");
    if (residual)
        emit_buffer_tables(b, ch, sym);
}

/* The band functions' table. */
static void emit_bands(const TaSourcesCtx *c, TaBuf *b, const TaOp *op)
{
    const TaRowChain *ch = op->row_chain;
    const TaGraph *g = c->in->graph;
    const char *sym = op->lowered.symbol;
    ta_buf_printf(b,
                  "\ntypedef int (*%s_band_fn)(int32_t, int32_t, int32_t, const int8_t *, "
                  "%sint8_t *);\nstatic const %s_band_fn %s_bands[%d] = {",
                  sym, ta_row_chain_is_dag(ch) ? "const int8_t *, " : "", sym, sym, ch->num_ops);
    for (int k = 0; k < ch->num_ops; k++)
        ta_buf_printf(b, "%s%s_band", k ? ", " : "", TA_OP(g, ch->first_op + k)->lowered.symbol);
    ta_buf_puts(b, "};\n");
}

/* A band step's call, `indent` spaces in: in a chain with residual blocks
   its window and second input read the buffers the chain's tables name. */
const char *ta_emit_row_band_call(const TaSourcesCtx *c, const TaRowChain *ch, const char *sym,
                                  int indent)
{
    const bool residual = ta_row_chain_is_dag(ch);
    const char *reads =
        !residual ? ""
                  : ta_format(c->pool,
                              "%*sconst uint32_t in = %s_inputs[s->op], j2 = %s_seconds[s->op];\n"
                              "%*sconst int8_t *second = j2 == 0xFFu ? NULL : buffers[j2] + "
                              "s->from2;\n",
                              indent, "", sym, sym, indent, "");
    return ta_format(c->pool,
                     "%s%*sconst int status = %s_bands[s->op](s->rows, s->pad_top, s->out_rows,\n"
                     "%*s%s,\n%*sbuffers[s->op + 1] + s->to);\n",
                     reads, indent, "", sym, indent + 4, "",
                     residual ? "buffers[in] + s->from, second" : "buffers[s->op] + s->from",
                     indent + 4, "");
}

/* The tables and the loops that walk them. */
static void emit_runner(const TaSourcesCtx *c, TaBuf *b, const TaOp *op)
{
    const TaRowChain *ch = op->row_chain;
    const TaGraph *g = c->in->graph;
    const char *sym = op->lowered.symbol;
    emit_tables(b, ch, sym);
    emit_bands(c, b, op);
    if (ch->push_input) {
        ta_emit_row_push_runner(c, b, op);
        return;
    }
    ta_buf_printf(b, "\nint %s_run(void)\n{\n    int8_t *buffers[%d];\n", sym, ch->num_ops + 1);
    for (int j = 1; j < ch->num_ops; j++)
        ta_buf_printf(b, "    buffers[%d] = (int8_t *)%s;\n", j,
                      ta_sources_tensor_ptr(c, ch->buffers[j]));
    const int n = ch->num_ops;
    ta_buf_printf(b,
                  "    for (uint32_t l = 0; l < %du; l++) {\n"
                  "        const %s_row_loop_t *loop = &%s_row_loops[l];\n"
                  "        const uint32_t first = loop->first, end = first + loop->count;\n"
                  "        const uint32_t repeats = loop->repeats;\n"
                  "        const size_t in_advance = (size_t)loop->in_advance * %zuu;\n"
                  "        const size_t out_advance = (size_t)loop->out_advance * %zuu;\n"
                  "        buffers[0] = (int8_t *)%s;\n"
                  "        buffers[%d] = (int8_t *)%s;\n"
                  "        for (uint32_t r = 0; r < repeats; r++) {\n"
                  "            for (uint32_t i = first; i < end; i++) {\n"
                  "                const %s_row_step_t *s = &%s_row_steps[i];\n"
                  "                if (s->op >= %du) {\n"
                  "                    const uint32_t j = s->op - %du, bytes = %s_row_bytes[j];\n"
                  "                    ta_move_rows(buffers[j] + s->to, buffers[j] + s->from,\n"
                  "                        (size_t)s->rows * bytes);\n"
                  "                    continue;\n"
                  "                }\n"
                  "%s"
                  "                if (status != TA_OK)\n"
                  "                    return status;\n"
                  "            }\n"
                  "            buffers[0] += in_advance;\n"
                  "            buffers[%d] += out_advance;\n"
                  "        }\n"
                  "    }\n",
                  ch->loops.len, sym, sym, ta_row_chain_row_bytes(ch, 0),
                  ta_row_chain_row_bytes(ch, n), ta_sources_tensor_ptr(c, ch->buffers[0]), n,
                  ta_sources_tensor_ptr(c, ch->buffers[n]), sym, sym, n, n, sym,
                  ta_emit_row_band_call(c, ch, sym, 16), n);
    if (ta_row_chain_finishes_at_end(ch))
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
    if (ta_row_chain_finishes_at_end(op->row_chain) &&
        op->row_chain_pos == op->row_chain->num_ops - 1)
        emit_finish(c, b, op, params);
    if (op->row_chain_pos == 0)
        emit_runner(c, b, op);
}
