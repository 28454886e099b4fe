/*
 * module_sections.c - which sections a module's objects go into (see
 * module_sections.h). Mirrors the TA_SECTION attributes the source writers
 * write (emit_constants_arenas.c, emit_op_files.c); tests link the module and check every object against this list.
 */
#include "module_sections.h"

#include <string.h>

static const char *target_section(const TaTargetMemory *m, TaSectionKind kind)
{
    return kind == TA_SECTION_BSS    ? m->bss_section
           : kind == TA_SECTION_DATA ? m->data_section
                                     : m->code_section;
}

const char *ta_module_section_name(TaPool *pool, const TaTargetMemory *m, TaSectionKind kind,
                                   const char *prefix)
{
    const char *target = m ? target_section(m, kind) : NULL;
    return target ? ta_format(pool, "%s.%s", target, prefix) : NULL;
}

static void add(const TaEmitInput *in, TaVec *sections, int memory, TaSectionKind kind,
                const char *symbol, size_t size)
{
    const TaTargetMemory *m = in->plan->target->memories[memory];
    const char *name = ta_module_section_name(in->pool, m, kind, in->prefix);
    if (!name)
        return; /* no attribute: the object goes wherever the compiler puts it */
    TaModuleSection *s = NULL;
    for (int i = 0; i < sections->len && !s; i++) {
        TaModuleSection *t = sections->items[i];
        if (strcmp(t->name, name) == 0)
            s = t;
    }
    if (!s) {
        s = ta_alloc(in->pool, sizeof *s);
        s->name = name;
        s->target = target_section(m, kind);
        s->kind = kind;
        s->memory = memory;
        s->target_memory = m;
        ta_vec_push(in->pool, sections, s);
    }
    TaSectionObject *o = ta_alloc(in->pool, sizeof *o);
    o->symbol = symbol;
    o->size = size;
    ta_vec_push(in->pool, &s->objects, o);
}

static int rank(const TaModuleSection *s)
{
    return s->memory * 3 + (int)s->kind;
}

void ta_module_sections(const TaEmitInput *in, TaVec *sections)
{
    bool own = in->config->allocate_arenas;
    for (int i = 0; i < in->plan->regions.len; i++) {
        const TaRegion *r = in->plan->regions.items[i];
        if (r->role == TA_REGION_CONSTANT) {
            if (r->staged) {
                add(in, sections, r->source_memory, TA_SECTION_DATA, r->source_symbol,
                    r->source_guard + r->size);
                if (own)
                    add(in, sections, r->memory, TA_SECTION_BSS, r->symbol, r->guard + r->size);
            } else if (own) {
                add(in, sections, r->memory, TA_SECTION_DATA, r->symbol, r->guard + r->size);
            }
        } else if (own) {
            add(in, sections, r->memory, TA_SECTION_BSS, r->symbol, r->guard + r->size);
        }
    }
    for (int i = 0; i < in->graph->ops.len; i++) {
        const TaOp *op = TA_OP(in->graph, i);
        if (op->code_memory >= 0 && ta_op_calls_with_role(op, "run"))
            add(in, sections, op->code_memory, TA_SECTION_CODE,
                ta_format(in->pool, "%s_run", op->lowered.symbol), 0);
    }
    /* Insertion sort: few sections, and a stable order keeps output deterministic. */
    for (int i = 1; i < sections->len; i++)
        for (int j = i; j > 0 && rank(sections->items[j - 1]) > rank(sections->items[j]); j--) {
            void *t = sections->items[j];
            sections->items[j] = sections->items[j - 1];
            sections->items[j - 1] = t;
        }
}

bool ta_target_has_sections(const TaTarget *target)
{
    for (int m = 0; m < TA_MEM_COUNT; m++) {
        const TaTargetMemory *tm = target->memories[m];
        if (tm && (tm->bss_section || tm->data_section || tm->code_section))
            return true;
    }
    return false;
}

const char *ta_section_ident(TaPool *pool, const char *section)
{
    char *s = ta_strdup(pool, section[0] == '.' ? section + 1 : section);
    for (char *c = s; *c; c++)
        if (*c == '.')
            *c = '_';
    return s;
}
