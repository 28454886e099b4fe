/*
 * emit_names.c - the names the module's sources give things: file names,
 * enumerators, region bases and linker sections, and the internal
 * header's pointer name of every tensor an operator passes to a kernel.
 */
#include "emit_sources.h"

#include "escape.h"
#include "module_sections.h"

#include <ctype.h>
#include <string.h>

const char *ta_upper(TaPool *pool, const char *s)
{
    char *u = ta_strdup(pool, s);
    for (char *c = u; *c; c++)
        *c = isalnum((unsigned char)*c) ? (char)toupper((unsigned char)*c) : '_';
    return u;
}

const char *ta_tensor_enum(TaPool *pool, const char *prefix, const TaTensor *t)
{
    return ta_format(pool, "%s_TENSOR_%s", ta_upper(pool, prefix), ta_upper(pool, t->id));
}

const char *ta_region_enum(TaPool *pool, const char *prefix, const TaRegion *r)
{
    return ta_format(pool, "%s_ARENA_%s", ta_upper(pool, prefix), ta_upper(pool, r->name));
}

const char *ta_model_file(TaPool *pool, const char *prefix, const char *ext)
{
    if (strcmp(prefix, "model") == 0)
        return ta_format(pool, "model.%s", ext);
    return ta_format(pool, "%s_model.%s", prefix, ext);
}

TaRegion *ta_sources_region(const TaSourcesCtx *c, int i)
{
    return c->in->plan->regions.items[i];
}

const char *ta_sources_section(const TaSourcesCtx *c, int memory, bool data)
{
    const TaTargetMemory *m = c->in->plan->target->memories[memory];
    const char *s = ta_module_section_name(c->pool, m, data ? TA_SECTION_DATA : TA_SECTION_BSS,
                                           c->in->prefix);
    /* target.c admits only plain section names; escaped all the same. */
    return s ? ta_format(c->pool, "TA_SECTION(%s) ", ta_escape_c_string(c->pool, s)) : "";
}

/* The expression for a region's first usable byte. */
const char *ta_sources_region_base(const TaSourcesCtx *c, const TaRegion *r)
{
    return ta_format(c->pool, "%s_BASE_%s", c->P, ta_upper(c->pool, r->name));
}

/* The part of a model's tensor name that reads well in a C name: the last
   path step of its first name ("f/conv2d_4/Relu;f/bn" -> "RELU"), in
   upper case, at most 32 characters; "" without a name. */
static const char *short_tensor_name(TaPool *pool, const char *name)
{
    if (!name)
        return "";
    size_t end = strcspn(name, ";");
    while (end > 0 && name[end - 1] == '/')
        end--;
    size_t start = end;
    while (start > 0 && name[start - 1] != '/')
        start--;
    char *out = ta_alloc(pool, 33);
    size_t n = 0;
    for (size_t i = start; i < end && n < 32; i++) {
        unsigned char ch = (unsigned char)name[i];
        char o = isalnum(ch) && ch < 128 ? (char)toupper(ch) : '_';
        if (o == '_' && (n == 0 || out[n - 1] == '_'))
            continue;
        out[n++] = o;
    }
    while (n > 0 && out[n - 1] == '_')
        n--;
    out[n] = '\0';
    return out;
}

/* The internal header's name of every placed tensor an operator passes to
   a kernel, "KWS_T30_RELU" ("KWS_T_OP3_SHIFTS" for a created tensor), by
   tensor index; NULL for the others. Unique: a clash gets the index. */
const char **ta_sources_tensor_pointers(const TaSourcesCtx *c)
{
    const TaGraph *g = c->in->graph;
    const char **names = ta_alloc_array(c->pool, (size_t)(g->tensors.len + 1), sizeof *names);
    TaNameSet taken = ta_name_set(c->pool, 2 * (size_t)g->tensors.len);
    for (int i = 0; i < g->ops.len; i++) {
        const TaOp *op = TA_OP(g, i);
        for (int k = 0; k <= op->lowered.calls.len; k++) {
            const TaKernelCall *call = k < op->lowered.calls.len ? op->lowered.calls.items[k]
                                                                 : NULL;
            /* After the calls: the bool a control-flow marker tests. */
            int num_args = call ? call->args.len : 1;
            for (int a = 0; a < num_args; a++) {
                const TaTensor *t = call ? call->args.items[a] : op->control_cond;
                if (!t || !t->place.region || names[t->index])
                    continue;
                const char *id = ta_upper(c->pool, t->id);
                const char *tail = short_tensor_name(c->pool, t->name);
                const char *name = ta_format(c->pool, "%s_T%s%s%s%s", c->P,
                                             isdigit((unsigned char)t->id[0]) ? "" : "_", id,
                                             *tail ? "_" : "", tail);
                if (!ta_name_set_add(&taken, name)) {
                    name = ta_format(c->pool, "%s_%d", name, t->index);
                    ta_name_set_add(&taken, name);
                }
                names[t->index] = name;
            }
        }
    }
    return names;
}

/* A tensor argument of a kernel call: its pointer's name, or NULL. */
const char *ta_sources_tensor_ptr(const TaSourcesCtx *c, const TaTensor *t)
{
    if (!t || !t->place.region)
        return "NULL";
    return c->tensor_pointers[t->index];
}
