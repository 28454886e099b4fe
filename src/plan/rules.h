/* rules.h - placement and operator rule matching; see rules.c. */
#ifndef TA_RULES_H
#define TA_RULES_H

#include "../config/config.h"

#include <stdio.h>

typedef struct TaTensorAttrs {
    const char *memory; /* NULL: no rule sets it */
    const TaRule *memory_rule;
    const char *destination; /* constant_destination_memory */
    const TaRule *destination_rule;
} TaTensorAttrs;

typedef struct TaOpAttrs {
    const char *code_placement;
    const char *scratch_placement;
} TaOpAttrs;

/* What rules see of a tensor group (a tensor and the tensors aliasing it
   share placement): the ids of its tensors and of the model tensors its
   constants were made from, and those tensors' model names. The group
   matches a rule when any id is listed or any name matches a pattern. */
typedef struct TaTensorKeys {
    const char *const *ids;
    int num_ids;
    const char *const *names;
    int num_names;
} TaTensorKeys;

TaTensorAttrs ta_rules_for_tensor(TaPool *pool, const TaVec *rules, const char *kind,
                                  const TaTensorKeys *keys);
/* Where helia-aot 1.1.0 (id-only rules above type-only ones, types
   compared ignoring case) would resolve a tensor's attributes otherwise
   than `documented`, grouped by the deciding rules. */
typedef struct TaRuleDivergences {
    TaVec found; /* private */
} TaRuleDivergences;
void ta_rules_compare_reference(TaPool *pool, TaRuleDivergences *out, const TaVec *rules,
                                const char *kind, const TaTensorKeys *keys,
                                const TaTensorAttrs *documented);
/* One warning per group, naming both rules. */
void ta_rules_warn_divergences(TaPool *pool, TaDiag *d, const TaRuleDivergences *found);
TaOpAttrs ta_rules_for_op(TaPool *pool, const TaVec *rules, const char *type, int index);
/* One warning per rule that matched nothing, naming the likely fix. */
void ta_rules_warn_unmatched(TaPool *pool, TaDiag *d, const TaVec *rules, const char *list,
                             bool operators, const char *const *kinds, int num_kinds);

#endif /* TA_RULES_H */
