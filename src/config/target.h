/*
 * target.h - a board's memories, loaded from targets/<name>.yaml (built
 * into tinyaot) or from a YAML file the user names. See targets/README.md.
 */
#ifndef TA_TARGET_H
#define TA_TARGET_H

#include "config.h"

typedef struct TaTargetMemory {
    int memory; /* TaMemory */
    uint64_t base;
    uint64_t capacity;
    bool writable;
    bool executable;
    bool is_volatile;
    const char *bss_section; /* NULL: no section attribute */
    const char *data_section;
    const char *code_section; /* operator code (code_placement); NULL: none */
} TaTargetMemory;

typedef struct TaTarget {
    const char *name;
    const char *description;
    const char *core;
    const char *origin; /* file it came from */
    uint64_t min_alignment;
    TaTargetMemory *memories[TA_MEM_COUNT]; /* NULL: the target lacks it */
    int spill_order[TA_MEM_COUNT];
    int num_spill;
} TaTarget;

/* `name` is a built-in target name or a path to a YAML file. */
TaTarget *ta_target_load(TaPool *pool, TaDiag *d, const char *name);
/* The cores whose kernels take their Helium (MVE) and DSP paths; a core
   in neither list runs the portable C. */
bool ta_core_has_helium(const char *core);
bool ta_core_has_dsp(const char *core);
/* Names of the built-in targets, for messages. */
const char *ta_target_builtin_list(TaPool *pool);

#endif /* TA_TARGET_H */
