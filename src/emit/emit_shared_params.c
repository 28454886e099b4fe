/*
 * emit_shared_params.c - one parameter struct for the operators whose
 * structs are identical (a MobileNet's repeated blocks: five depthwise and
 * five 1x1 convolutions of person_detect, about 100 bytes of flash each).
 * The first layer with those parameters defines its struct for the module;
 * each later one declares it extern and passes it to its kernel. Row-chain
 * layers and user calls keep their own (their band functions copy theirs).
 */
#include "emit_sources.h"

#include <string.h>

typedef struct {
    const char *type; /* the struct's C type */
    const char *text; /* its initializer, ta_params_text */
    const char *name; /* the struct that holds it */
    int op, call;     /* the layer that defines it, and its call */
} ParamsSeen;

static bool may_share(const TaOp *op, const TaKernelCall *call)
{
    return call->params_desc && !call->user && !op->row_chain;
}

void ta_sources_share_params(TaSourcesCtx *c)
{
    const TaGraph *g = c->in->graph;
    int n = g->ops.len;
    c->params_name = ta_alloc_array(c->pool, (size_t)(n ? n : 1), sizeof *c->params_name);
    c->params_exported = ta_alloc_array(c->pool, (size_t)(n ? n : 1), sizeof *c->params_exported);
    int total = 0;
    for (int i = 0; i < n; i++)
        total += TA_OP(g, i)->lowered.calls.len;
    ParamsSeen *seen = ta_alloc_array(c->pool, (size_t)(total ? total : 1), sizeof *seen);
    int num_seen = 0;
    for (int i = 0; i < n; i++) {
        const TaOp *op = TA_OP(g, i);
        int calls = op->lowered.calls.len;
        c->params_name[i] = ta_alloc_array(c->pool, (size_t)(calls ? calls : 1), sizeof(char *));
        c->params_exported[i] = ta_alloc_array(c->pool, (size_t)(calls ? calls : 1), sizeof(bool));
        for (int k = 0; k < calls; k++) {
            const TaKernelCall *call = op->lowered.calls.items[k];
            c->params_name[i][k] = ta_format(c->pool, "%s_params%d", op->lowered.symbol, k);
            if (!may_share(op, call))
                continue;
            TaBuf text = {0};
            ta_params_text(&text, call, false);
            const char *body = ta_format(c->pool, "%s", text.data ? text.data : "");
            ta_buf_free(&text);
            int s = 0;
            /* another layer's (two calls of one layer keep theirs: rare, and
               the file's own structs stay static) */
            while (s < num_seen &&
                   (seen[s].op == i || strcmp(seen[s].type, call->params_desc->type_name) != 0 ||
                    strcmp(seen[s].text, body) != 0))
                s++;
            if (s < num_seen) {
                c->params_name[i][k] = seen[s].name;
                c->params_exported[seen[s].op][seen[s].call] = true;
                continue;
            }
            seen[num_seen++] = (ParamsSeen){call->params_desc->type_name, body,
                                            c->params_name[i][k], i, k};
        }
    }
}
