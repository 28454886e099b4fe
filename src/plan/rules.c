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
 */
#include "rules.h"

#include <ctype.h>
#include <string.h>

static int rank(const TaRule *r)
{
    return (r->type ? 2 : 0) + (r->ids ? 1 : 0);
}

static bool id_listed(const TaRule *r, const char *id)
{
    for (int i = 0; i < r->num_ids; i++)
        if (strcmp(r->ids[i], id) == 0)
            return true;
    return false;
}

/* Rules sorted by (rank, position): applying them in this order and
   letting each set attribute overwrite gives the documented result. */
static const TaRule **sorted_rules(TaPool *pool, const TaVec *rules)
{
    const TaRule **out = ta_alloc_array(pool, (size_t)rules->len + 1, sizeof *out);
    int n = 0;
    for (int r = 0; r <= 3; r++)
        for (int i = 0; i < rules->len; i++)
            if (rank(rules->items[i]) == r)
                out[n++] = rules->items[i];
    return out;
}

TaTensorAttrs ta_rules_for_tensor(TaPool *pool, const TaVec *rules, const char *kind,
                                  const char *const *ids, int num_ids)
{
    TaTensorAttrs a = {0};
    const TaRule **sorted = sorted_rules(pool, rules);
    for (int i = 0; i < rules->len; i++) {
        TaRule *r = (TaRule *)sorted[i];
        if (r->type && strcmp(r->type, kind) != 0)
            continue;
        bool id_ok = !r->ids;
        for (int k = 0; k < num_ids && !id_ok; k++)
            id_ok = id_listed(r, ids[k]);
        if (!id_ok)
            continue;
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

TaOpAttrs ta_rules_for_op(TaPool *pool, const TaVec *rules, const char *type, int index)
{
    TaOpAttrs a = {0};
    char id[16];
    snprintf(id, sizeof id, "%d", index);
    const TaRule **sorted = sorted_rules(pool, rules);
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

static bool equal_ignoring_case(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
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
                    fix = ta_format(pool, "type is compared exactly: write '%s', not '%s'",
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
