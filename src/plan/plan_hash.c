/*
 * plan_hash.c - the plan hash a module records (<PREFIX>_PLAN_HASH), so
 * firmware can check it links the plan its code was built against.
 *
 * The hash is FNV-1a 64 of one text line per fact of the plan, in a fixed
 * order: every region (id, name, memory, source memory, role, staged,
 * guard, size, alignment, symbols), every tensor the module keeps (id,
 * region, offset, size, staged, the tensor it aliases) and every operator
 * (layer index, symbol, type, then each kernel call's role and function).
 * It holds no path, time or version, so the same plan always gives the same
 * hash; constant values and kernel parameters are not part of it (a model
 * retrained with the same shapes keeps its plan).
 */
#include "plan.h"

#include "../config/config.h"

#include <string.h>

static const char *or_dash(const char *s)
{
    return s ? s : "-";
}

const char *ta_plan_hash_text(TaPool *pool, const TaGraph *graph, const TaPlan *plan)
{
    TaBuf b = {0};
    ta_buf_puts(&b, "tinyaot-plan 1\n");
    for (int i = 0; i < plan->regions.len; i++) {
        const TaRegion *r = plan->regions.items[i];
        ta_buf_printf(&b, "region %d %s %s %s %s staged=%d", r->id, r->name,
                      ta_memory_name(r->memory), ta_memory_name(r->source_memory),
                      ta_role_name(r->role), r->staged ? 1 : 0);
        ta_buf_printf(&b, " guard=%zu size=%zu align=%zu", r->guard, r->size, r->alignment);
        ta_buf_printf(&b, " %s %s\n", or_dash(r->symbol), or_dash(r->source_symbol));
    }
    for (int i = 0; i < graph->tensors.len; i++) {
        const TaTensor *t = TA_TENSOR(graph, i);
        if (t->removed)
            continue;
        const TaPlacement *p = &t->place;
        ta_buf_printf(&b, "tensor %s region=%d offset=%zu size=%zu staged=%d alias=%s\n", t->id,
                      p->region ? p->region->id : -1, p->offset, p->size, p->staged ? 1 : 0,
                      t->alias_of ? t->alias_of->id : "-");
    }
    for (int i = 0; i < graph->ops.len; i++) {
        const TaOp *op = TA_OP(graph, i);
        if (op->removed)
            continue;
        ta_buf_printf(&b, "op %d %s %s\n", op->index, or_dash(op->lowered.symbol), op->type);
        for (int k = 0; k < op->lowered.calls.len; k++) {
            const TaKernelCall *c = op->lowered.calls.items[k];
            ta_buf_printf(&b, "  call %s %s\n", c->role, c->function);
        }
    }
    const char *text = ta_strdup(pool, b.data);
    ta_buf_free(&b);
    return text;
}

uint64_t ta_plan_hash(TaPool *pool, const TaGraph *graph, const TaPlan *plan)
{
    const char *text = ta_plan_hash_text(pool, graph, plan);
    return ta_fnv1a64(TA_FNV1A64_OFFSET, text, strlen(text));
}
