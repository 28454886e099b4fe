/*
 * emit_op_files.c - ops/<symbol>.c: one file per operator that has code,
 * with a comment describing its tensors, its parameter structs and its
 * init and run functions.
 */
#include "emit_sources.h"

#include "escape.h"
#include "module_sections.h"

#include <string.h>

/* Generated comments stay within this many columns. */
enum { COMMENT_WIDTH = 100 };

/* Appends `lead` and `text` as comment lines of at most COMMENT_WIDTH
   columns, each further line starting with `cont`. A line breaks after a
   space, '/' or ';' where one is near the limit, else at the limit but
   never inside a \xNN escape (ta_escape_c_comment writes every backslash
   as one). */
static void wrap_comment(TaBuf *b, const char *lead, const char *cont, const char *text)
{
    size_t col = strlen(lead);
    ta_buf_puts(b, lead);
    const char *s = text;
    while (col + strlen(s) > COMMENT_WIDTH && col < COMMENT_WIDTH) {
        size_t room = COMMENT_WIDTH - col, cut = 0;
        for (size_t i = room; i > room / 2 && !cut; i--)
            if (s[i - 1] == ' ' || s[i - 1] == '/' || s[i - 1] == ';')
                cut = i;
        if (!cut) {
            cut = room;
            for (size_t k = 1; k <= 3 && k <= cut; k++)
                if (s[cut - k] == '\\') {
                    cut -= k;
                    break;
                }
        }
        size_t keep = cut;
        while (keep > 0 && s[keep - 1] == ' ')
            keep--;
        ta_buf_append(b, s, keep);
        ta_buf_puts(b, "\n");
        ta_buf_puts(b, cont);
        col = strlen(cont);
        s += cut;
        while (*s == ' ')
            s++;
    }
    ta_buf_puts(b, s);
    ta_buf_puts(b, "\n");
}

static void describe_tensor(const TaSourcesCtx *c, TaBuf *b, const char *lead, const TaTensor *t)
{
    TaBuf text = {0};
    ta_buf_printf(&text, "%-8s %s %s", t->id, ta_dtype_name(t->dtype), ta_shape_text(c->pool, t));
    if (t->place.region)
        ta_buf_printf(&text, " in %s +%zu", t->place.region->name, t->place.offset);
    if (t->alias_of)
        ta_buf_printf(&text, " (shares %s's bytes)", ta_tensor_root((TaTensor *)t)->id);
    if (t->row_buffer_rows)
        ta_buf_printf(&text, " (row buffer: %d of its %d rows)", t->row_buffer_rows, t->dims[1]);
    const char *cont = " *             ";
    /* keep comments well-formed whatever the model names tensors */
    const char *name = t->name ? ta_format(c->pool, "\"%s\"", ta_escape_c_comment(c->pool, t->name))
                               : NULL;
    if (name && strlen(lead) + text.len + 1 + strlen(name) > COMMENT_WIDTH &&
        strlen(cont) + strlen(name) <= COMMENT_WIDTH) {
        /* A name that fits a line of its own gets one, unbroken. */
        wrap_comment(b, lead, cont, text.data);
        ta_buf_printf(b, "%s%s\n", cont, name);
    } else {
        if (name)
            ta_buf_printf(&text, " %s", name);
        wrap_comment(b, lead, cont, text.data);
    }
    ta_buf_free(&text);
}

/* `int <symbol>_<role>(void)`: the op's calls of that role, in order,
   stopping at the first failing one. Parameter structs are numbered by
   position in op->lowered.calls, whatever their role, and named after the op, so
   that no two file-scope names of a module (or of modules with different
   prefixes) clash even when their files are compiled as one unit. */
static void emit_function(const TaSourcesCtx *c, TaBuf *b, const TaOp *op, const char *role)
{
    const int n_calls = ta_op_calls_with_role(op, role);
    ta_buf_printf(b, "int %s_%s(void)\n{\n", op->lowered.symbol, role);
    if (n_calls > 1)
        ta_buf_puts(b, "    int status;\n");
    int done = 0;
    for (int k = 0; k < op->lowered.calls.len; k++) {
        const TaKernelCall *call = op->lowered.calls.items[k];
        if (strcmp(call->role, role) != 0)
            continue;
        bool last = ++done == n_calls;
        if (call->user) {
            const char **pointers = ta_alloc_array(c->pool, (size_t)call->args.len + 1,
                                                   sizeof *pointers);
            for (int a = 0; a < call->args.len; a++)
                pointers[a] = ta_sources_tensor_ptr(c, call->args.items[a]);
            ta_emit_user_call(b, op->lowered.symbol, call, k, pointers, last);
            if (!last)
                ta_buf_puts(b, "    if (status != TA_OK)\n        return status;\n");
            continue;
        }
        const char *indent = "    ";
        ta_buf_printf(b, "%s%s%s(", indent, last ? "return " : "status = ", call->function);
        int n = 0;
        if (call->params_desc) {
            ta_buf_printf(b, "&%s", c->params_name[op->index][k]);
            n++;
        }
        for (int a = 0; a < call->args.len; a++) {
            const TaTensor *t = call->args.items[a];
            ta_buf_printf(b, "%s\n%s    %s", n++ ? "," : "", indent, ta_sources_tensor_ptr(c, t));
        }
        ta_buf_puts(b, ");\n");
        if (!last)
            ta_buf_puts(b, "    if (status != TA_OK)\n        return status;\n");
    }
    ta_buf_puts(b, "}\n");
}

bool ta_emit_op_file(const TaSourcesCtx *c, const char *dir, const TaOp *op)
{
    TaBuf b = {0};
    ta_buf_printf(&b, "/*\n * Layer %d: %s", op->index, ta_escape_c_comment(c->pool, op->type));
    if (op->model_index >= 0)
        ta_buf_printf(&b, " (model operator %d)", op->model_index);
    ta_buf_puts(&b, "\n *\n");
    for (int i = 0; i < op->num_inputs; i++)
        if (op->inputs[i])
            describe_tensor(c, &b, " *   in    ", op->inputs[i]);
    for (int i = 0; i < op->num_outputs; i++)
        describe_tensor(c, &b, " *   out   ", op->outputs[i]);
    for (int i = 0; i < op->lowered.locals.len; i++)
        describe_tensor(c, &b, " *   local ", op->lowered.locals.items[i]);
    ta_buf_puts(&b, " */\n");
    ta_buf_printf(&b, "#include \"../%s_internal.h\"\n", c->p);
    const char *last_header = NULL;
    for (int k = 0; k < op->lowered.calls.len; k++) {
        const TaKernelCall *call = op->lowered.calls.items[k];
        /* the chain's moves, a push's copies; a band's copy of its struct */
        if (!k && op->row_chain)
            ta_buf_puts(
                &b, op->row_chain->push_input && op->row_chain_pos == 0
                        ? "#include \"../runtime/kernels/ta_move_rows.h\"\n#include <string.h>\n"
                        : "#include \"../runtime/kernels/ta_move_rows.h\"\n");
        if (!last_header || strcmp(last_header, call->header) != 0)
            ta_buf_printf(&b, "#include \"../%s\"\n", call->header);
        last_header = call->header;
        for (int h = 0; call->user && h < call->user->num_headers; h++)
            ta_buf_printf(&b, "#include \"../custom/%s\"\n", call->user->headers[h]);
    }
    ta_buf_puts(&b, "\n");
    for (int k = 0; k < op->lowered.calls.len; k++)
        if (((const TaKernelCall *)op->lowered.calls.items[k])->user)
            ta_emit_user_call_dims(&b, op->lowered.symbol, op->lowered.calls.items[k], k);
    for (int k = 0; k < op->lowered.calls.len; k++) {
        const TaKernelCall *call = op->lowered.calls.items[k];
        if (!call->params_desc)
            continue;
        const char *name = c->params_name[op->index][k];
        if (strcmp(name, ta_format(c->pool, "%s_params%d", op->lowered.symbol, k)) != 0) {
            ta_buf_printf(&b,
                          "/* An earlier layer's parameters, the same as this one's. */\n"
                          "extern const %s %s;\n\n",
                          call->params_desc->type_name, name);
            continue;
        }
        /* Passed by later layers too: the module's, not the file's. */
        const bool exported = c->params_exported[op->index][k];
        if (exported)
            ta_buf_printf(&b, "extern const %s %s;\n", call->params_desc->type_name, name);
        ta_buf_printf(&b, "%sconst %s %s = {\n", exported ? "" : "static ",
                      call->params_desc->type_name, name);
        int32_t rows, pad, out_rows;
        if (op->row_chain &&
            call == ta_row_band_call(c->in->graph, op->row_chain, op->row_chain_pos) &&
            ta_row_band_usual(c->in->graph, op->row_chain, op->row_chain_pos, &rows, &pad,
                              &out_rows)) {
            /* written for the band the chain runs most often: its band
               function passes it as it is then */
            TaKernelCall usual = *call;
            usual.params_struct = ta_alloc(c->pool, call->params_desc->size);
            memcpy(usual.params_struct, call->params_struct, call->params_desc->size);
            ta_row_band_params(call, usual.params_struct, rows, pad, out_rows);
            ta_params_text(&b, &usual, false);
        } else {
            ta_params_text(&b, call, false);
        }
        ta_buf_puts(&b, "};\n\n");
    }
    if (ta_op_calls_with_role(op, "init"))
        emit_function(c, &b, op, "init");
    if (ta_op_calls_with_role(op, "run")) {
        if (ta_op_calls_with_role(op, "init"))
            ta_buf_puts(&b, "\n");
        if (op->code_memory >= 0) {
            const TaTargetMemory *m = c->in->plan->target->memories[op->code_memory];
            const char *section = ta_module_section_name(c->pool, m, TA_SECTION_CODE,
                                                         c->in->prefix);
            ta_buf_printf(&b, "/* operators: code_placement %s */\nTA_SECTION(%s)\n",
                          ta_memory_name(op->code_memory), ta_escape_c_string(c->pool, section));
        }
        if (op->row_chain)
            ta_emit_row_chain_functions(c, &b, op);
        else
            emit_function(c, &b, op, "run");
    }
    bool ok = ta_emit_write(c->in, dir, ta_format(c->pool, "ops/%s.c", op->lowered.symbol), &b);
    ta_buf_free(&b);
    return ok;
}
