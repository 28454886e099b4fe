/*
 * rules.c - matching placement rules (memory.tensors) and operator rules
 * (operators) to tensors and operators, with the documented precedence:
 *
 *   no type, no id  <  id only  <  type only  <  type and id
 *
 * Among rules of the same rank the later one wins; attributes merge key
 * by key (a higher rule that does not set `memory` leaves a lower rule's
 * `memory` in force). Types are compared exactly: tensor kinds are
 * lowercase, operator types canonical uppercase.
 *
 * helia-aot 1.1.0 departs from its own documentation on two points: it
 * ranks id-only rules above type-only ones and compares types ignoring
 * case. tinyaot follows the documentation, and resolves tensor rules the
 * 1.1.0 way too, only to warn where a configuration would place a tensor
 * differently there.
 */
#include "rules.h"

#include <ctype.h>
#include <fnmatch.h>
#include <string.h>

/* How rules are ranked and types compared: as documented, or as
   helia-aot 1.1.0 does. */
typedef enum { DOCUMENTED, REFERENCE_1_1_0 } Precedence;

static int rank(const TaRule *r, Precedence p)
{
    if (p == REFERENCE_1_1_0)
        return (r->type ? 1 : 0) + (r->ids || r->names ? 2 : 0);
    return (r->type ? 2 : 0) + (r->ids || r->names ? 1 : 0);
}

static bool equal_ignoring_case(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

static bool type_matches(const char *rule_type, const char *type, Precedence p)
{
    return p == REFERENCE_1_1_0 ? equal_ignoring_case(rule_type, type)
                                : strcmp(rule_type, type) == 0;
}

static bool id_listed(const TaRule *r, const char *id)
{
    for (int i = 0; i < r->num_ids; i++)
        if (strcmp(r->ids[i], id) == 0)
            return true;
    return false;
}

static bool name_matches(const TaRule *r, const char *name)
{
    for (int i = 0; i < r->num_names; i++)
        if (fnmatch(r->names[i], name, 0) == 0)
            return true;
    return false;
}

/* A rule without id and name matches any tensor; with either, a tensor
   one of them picks. */
static bool keys_match(const TaRule *r, const TaTensorKeys *keys)
{
    if (!r->ids && !r->names)
        return true;
    for (int k = 0; r->ids && k < keys->num_ids; k++)
        if (id_listed(r, keys->ids[k]))
            return true;
    for (int k = 0; r->names && k < keys->num_names; k++)
        if (name_matches(r, keys->names[k]))
            return true;
    return false;
}

/* Rules sorted by (rank, position): applying them in this order and
   letting each set attribute overwrite gives the documented result. */
static const TaRule **sorted_rules(TaPool *pool, const TaVec *rules, Precedence p)
{
    const TaRule **out = ta_alloc_array(pool, (size_t)rules->len + 1, sizeof *out);
    int n = 0;
    for (int r = 0; r <= 3; r++)
        for (int i = 0; i < rules->len; i++)
            if (rank(rules->items[i], p) == r)
                out[n++] = rules->items[i];
    return out;
}

/* Marks the rules that match only when resolving as documented. */
static TaTensorAttrs resolve_tensor(TaPool *pool, const TaVec *rules, const char *kind,
                                    const TaTensorKeys *keys, Precedence p)
{
    TaTensorAttrs a = {0};
    const TaRule **sorted = sorted_rules(pool, rules, p);
    for (int i = 0; i < rules->len; i++) {
        TaRule *r = (TaRule *)sorted[i];
        if (r->type && !type_matches(r->type, kind, p))
            continue;
        if (!keys_match(r, keys))
            continue;
        if (p == DOCUMENTED)
            r->matched = true;
        if (r->memory) {
            a.memory = r->memory;
            a.memory_rule = r;
        }
        if (r->constant_destination_memory) {
            a.destination = r->constant_destination_memory;
            a.destination_rule = r;
        }
    }
    return a;
}

TaTensorAttrs ta_rules_for_tensor(TaPool *pool, const TaVec *rules, const char *kind,
                                  const TaTensorKeys *keys)
{
    return resolve_tensor(pool, rules, kind, keys, DOCUMENTED);
}

static bool same_text(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

typedef struct Divergence {
    const TaRule *documented, *reference; /* the deciding rules (NULL: none) */
    const char *attribute;
    const char *documented_value, *reference_value;
    const char *first_id;
    int count;
} Divergence;

static void diverge(TaPool *pool, TaRuleDivergences *out, const char *attribute,
                    const TaRule *doc_rule, const char *doc_value, const TaRule *ref_rule,
                    const char *ref_value, const char *id)
{
    for (int i = 0; i < out->found.len; i++) {
        Divergence *d = out->found.items[i];
        if (d->documented == doc_rule && d->reference == ref_rule &&
            strcmp(d->attribute, attribute) == 0 && same_text(d->documented_value, doc_value) &&
            same_text(d->reference_value, ref_value)) {
            d->count++;
            return;
        }
    }
    Divergence *d = ta_alloc(pool, sizeof *d);
    *d = (Divergence){doc_rule, ref_rule, attribute, doc_value, ref_value, id, 1};
    ta_vec_push(pool, &out->found, d);
}

void ta_rules_compare_reference(TaPool *pool, TaRuleDivergences *out, const TaVec *rules,
                                const char *kind, const TaTensorKeys *keys,
                                const TaTensorAttrs *documented)
{
    TaTensorAttrs ref = resolve_tensor(pool, rules, kind, keys, REFERENCE_1_1_0);
    const char *const *ids = keys->ids;
    if (!same_text(documented->memory, ref.memory))
        diverge(pool, out, "memory", documented->memory_rule, documented->memory, ref.memory_rule,
                ref.memory, ids[0]);
    if (!same_text(documented->destination, ref.destination))
        diverge(pool, out, "constant_destination_memory", documented->destination_rule,
                documented->destination, ref.destination_rule, ref.destination, ids[0]);
}

static const char *rule_text(TaPool *pool, const TaRule *r)
{
    if (!r)
        return "no rule";
    return ta_format(pool, "memory.tensors[%d] (%s, %s)", r->index,
                     r->type && (r->ids || r->names) ? "type and id"
                     : r->type                       ? "type only"
                     : r->ids || r->names            ? "id only"
                                                     : "no type, no id",
                     r->where);
}

void ta_rules_warn_divergences(TaPool *pool, TaDiag *d, const TaRuleDivergences *found)
{
    for (int i = 0; i < found->found.len; i++) {
        const Divergence *v = found->found.items[i];
        const char *tensors = v->count == 1 ? ta_format(pool, "tensor %s", v->first_id)
                                            : ta_format(pool, "%d tensors (%s and %d more)",
                                                        v->count, v->first_id, v->count - 1);
        ta_warn(d,
                "memory.tensors: %s: %s %s from %s, as memory-placement documents (type-only "
                "rules above id-only ones, types compared exactly); helia-aot 1.1.0 would give "
                "%s from %s",
                tensors, v->attribute, v->documented_value ? v->documented_value : "unset",
                rule_text(pool, v->documented), v->reference_value ? v->reference_value : "unset",
                rule_text(pool, v->reference));
    }
}

TaOpAttrs ta_rules_for_op(TaPool *pool, const TaVec *rules, const char *type, int index)
{
    TaOpAttrs a = {0};
    char id[16];
    snprintf(id, sizeof id, "%d", index);
    const TaRule **sorted = sorted_rules(pool, rules, DOCUMENTED);
    for (int i = 0; i < rules->len; i++) {
        TaRule *r = (TaRule *)sorted[i];
        if (r->type && strcmp(r->type, type) != 0)
            continue;
        if (r->ids && (index < 0 || !id_listed(r, id)))
            continue;
        r->matched = true;
        if (r->code_placement)
            a.code_placement = r->code_placement;
        if (r->scratch_placement)
            a.scratch_placement = r->scratch_placement;
    }
    return a;
}

static const char *list_ids(TaPool *pool, const TaRule *r)
{
    TaBuf b = {0};
    for (int i = 0; i < r->num_ids; i++)
        ta_buf_printf(&b, "%s'%s'", i ? ", " : "", r->ids[i]);
    const char *s = ta_strdup(pool, b.data ? b.data : "");
    ta_buf_free(&b);
    return s;
}

static const char *list_names(TaPool *pool, const TaRule *r)
{
    TaBuf b = {0};
    for (int i = 0; i < r->num_names; i++)
        ta_buf_printf(&b, "%s'%s'", i ? " or " : "", r->names[i]);
    const char *s = ta_strdup(pool, b.data ? b.data : "");
    ta_buf_free(&b);
    return s;
}

/* The first id of `r` that looks like a name (not a number, not a
   created tensor's "op4.role"), or NULL. */
static const char *name_like(const TaRule *r)
{
    for (int i = 0; i < r->num_ids; i++) {
        const char *id = r->ids[i];
        if (id[strspn(id, "0123456789")] != '\0' && !strchr(id, '.'))
            return id;
    }
    return NULL;
}

void ta_rules_warn_unmatched(TaPool *pool, TaDiag *d, const TaVec *rules, const char *list,
                             bool operators, const char *const *kinds, int num_kinds)
{
    for (int i = 0; i < rules->len; i++) {
        const TaRule *r = rules->items[i];
        if (r->matched)
            continue;
        const char *what = ta_format(pool, "%s: rule %s[%d] matches no %s", r->where, list,
                                     r->index, operators ? "operator" : "tensor");
        const char *fix = NULL;
        if (r->type) {
            bool known = false;
            for (int k = 0; k < num_kinds && !known; k++)
                known = strcmp(r->type, kinds[k]) == 0;
            for (int k = 0; k < num_kinds && !known && !fix; k++)
                if (equal_ignoring_case(r->type, kinds[k]))
                    fix = ta_format(pool,
                                    "type is compared exactly, as documented: write '%s', not "
                                    "'%s' (helia-aot 1.1.0 ignores case and would apply it)",
                                    kinds[k], r->type);
            if (!known && !fix)
                fix = operators ? ta_format(pool,
                                            "type '%s' is not an operator type of this model "
                                            "(use canonical uppercase names such as CONV_2D)",
                                            r->type)
                                : ta_format(pool,
                                            "type '%s' is not a tensor kind (constant, "
                                            "persistent or scratch)",
                                            r->type);
        }
        if (!fix && !operators && r->names)
            fix = ta_format(pool,
                            "no %s tensor's model name matches %s (tinyaot analyze --tensors "
                            "lists every tensor's id and name)",
                            r->type ? r->type : "", list_names(pool, r));
        if (!fix && !operators && r->ids && name_like(r))
            fix = ta_format(pool,
                            "no tensor has id %s: ids are the numbers the residency report "
                            "lists; to match the model's tensor name write name: '%s'",
                            list_ids(pool, r), name_like(r));
        if (!fix && r->ids)
            fix = operators ? ta_format(pool,
                                        "no operator of type %s has id %s (ids are operator "
                                        "indices in the model)",
                                        r->type ? r->type : "any", list_ids(pool, r))
                            : ta_format(pool,
                                        "no %s tensor has id %s (ids are the tensor indices "
                                        "the residency report lists)",
                                        r->type ? r->type : "", list_ids(pool, r));
        if (!fix)
            fix = "the model has nothing of that kind";
        ta_warn(d, "%s: %s", what, fix);
    }
}
