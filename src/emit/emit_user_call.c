/*
 * emit_user_call.c - a user kernel's call in its operator's file, and the
 * kernel's files copied into the module's custom/ folder
 * (custom_operators, docs/custom-operators.md).
 *
 * The tensor views are filled in the run function, not as constants: an
 * arena's address is known only once the application binds it.
 */
#include "emit.h"

#include "../config/custom_operators.h"

#include <string.h>

/* `static const int32_t <symbol>_u<k>_dims<a>[] = {...};` for each
   argument of rank 1 or more. */
void ta_emit_user_call_dims(TaBuf *b, const char *symbol, const TaKernelCall *call, int k)
{
    int views = call->user->num_inputs + call->user->num_outputs;
    for (int a = 0; a < views; a++) {
        const TaTensor *t = call->args.items[a];
        if (!t || t->rank == 0)
            continue;
        ta_buf_printf(b, "static const int32_t %s_u%d_dims%d[%d] = {", symbol, k, a, t->rank);
        for (int i = 0; i < t->rank; i++)
            ta_buf_printf(b, "%s%d", i ? ", " : "", (int)t->dims[i]);
        ta_buf_puts(b, "};\n");
    }
    ta_buf_puts(b, "\n");
}

static void emit_view(TaBuf *b, const char *symbol, const TaKernelCall *call, int k, int a,
                      const char *pointer)
{
    const TaTensor *t = call->args.items[a];
    if (!t) {
        ta_buf_puts(b, "        {NULL, 0, 0, NULL, 0, (float)0, 0},\n");
        return;
    }
    float scale = t->quant && t->quant->num_scales ? t->quant->scale[0] : 0.0f;
    long long zero_point = t->quant && t->quant->num_zero_points
                               ? (long long)t->quant->zero_point[0]
                               : 0;
    ta_buf_printf(b, "        {(void *)%s, %d, %d, ", pointer, (int)t->dtype, t->rank);
    if (t->rank)
        ta_buf_printf(b, "%s_u%d_dims%d, ", symbol, k, a);
    else
        ta_buf_puts(b, "NULL, ");
    /* %.9g gives back the float exactly; lowering refused non-finite scales. */
    ta_buf_printf(b, "%lld, (float)%.9g, %lld},\n", (long long)ta_tensor_elements(t), (double)scale,
                  zero_point);
}

static void emit_views(TaBuf *b, const char *symbol, const TaKernelCall *call, int k,
                       const char *const *pointers, const char *name, int first, int count)
{
    if (!count)
        return;
    ta_buf_printf(b, "    const ta_custom_tensor_t %s[%d] = {\n", name, count);
    for (int a = first; a < first + count; a++)
        emit_view(b, symbol, call, k, a, pointers[a]);
    ta_buf_puts(b, "    };\n");
}

void ta_emit_user_call(TaBuf *b, const char *symbol, const TaKernelCall *call, int k,
                       const char *const *pointers, bool last)
{
    const TaUserCall *u = call->user;
    int after_views = u->num_inputs + u->num_outputs;
    emit_views(b, symbol, call, k, pointers, "inputs", 0, u->num_inputs);
    emit_views(b, symbol, call, k, pointers, "outputs", u->num_inputs, u->num_outputs);
    ta_buf_printf(b, "    const ta_custom_call_t call = {\n");
    ta_buf_printf(b, "        %s, %d,\n", u->num_inputs ? "inputs" : "NULL", u->num_inputs);
    ta_buf_printf(b, "        %s, %d,\n", u->num_outputs ? "outputs" : "NULL", u->num_outputs);
    if (u->scratch)
        ta_buf_printf(b, "        (void *)%s, %zuu,\n", pointers[after_views++],
                      ta_tensor_bytes(u->scratch));
    else
        ta_buf_puts(b, "        NULL, 0u,\n");
    if (u->options)
        ta_buf_printf(b, "        (const uint8_t *)%s, %zuu,\n", pointers[after_views++],
                      ta_tensor_bytes(u->options));
    else
        ta_buf_puts(b, "        NULL, 0u,\n");
    ta_buf_puts(b, "    };\n");
    ta_buf_printf(b, "    %s%s(&call);\n", last ? "return " : "status = ", call->function);
}

bool ta_emit_user_files(const TaEmitInput *in, const char *dir, TaVec *sources)
{
    const TaVec *ops = &in->config->custom_operators;
    TaVec copied = {0}; /* file names already written */
    for (int i = 0; i < ops->len; i++) {
        const TaCustomOperator *u = ops->items[i];
        bool used = false;
        for (int k = 0; k < in->graph->ops.len && !used; k++)
            used = TA_OP(in->graph, k)->builtin < 0 &&
                   ta_custom_operator_find(in->pool, ops, TA_OP(in->graph, k)->type) == u;
        if (!used)
            continue;
        const TaVec *lists[] = {&u->sources, &u->headers};
        for (int l = 0; l < 2; l++)
            for (int f = 0; f < lists[l]->len; f++) {
                const TaCustomFile *file = lists[l]->items[f];
                bool seen = false;
                for (int s = 0; s < copied.len && !seen; s++)
                    seen = strcmp(copied.items[s], file->name) == 0;
                if (seen)
                    continue;
                ta_vec_push(in->pool, &copied, (void *)file->name);
                size_t size;
                uint8_t *bytes = ta_read_file(in->pool, in->diag, file->path, &size);
                const char *to = ta_format(in->pool, "custom/%s", file->name);
                if (!bytes || !ta_mkdir_p(in->diag, ta_path_join(in->pool, dir, "custom")) ||
                    !ta_write_file(in->diag, ta_path_join(in->pool, dir, to), bytes, size))
                    return false;
                if (l == 0)
                    ta_vec_push(in->pool, sources, (void *)to);
            }
    }
    return true;
}
