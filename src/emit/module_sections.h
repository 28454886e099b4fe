/*
 * module_sections.h - the linker sections a generated module puts bytes
 * in, with the objects in each, for the files that tell a linker where
 * they go (emit_linker.c: a GNU ld fragment; emit_zephyr.c: Zephyr
 * snippets). It lists exactly what the source writers (emit_sources.h)
 * attribute: arenas and constant blobs the module allocates, staged
 * sources, operator code with a code_placement.
 */
#ifndef TA_MODULE_SECTIONS_H
#define TA_MODULE_SECTIONS_H

#include "emit.h"

typedef enum { TA_SECTION_BSS, TA_SECTION_DATA, TA_SECTION_CODE } TaSectionKind;

typedef struct TaSectionObject {
    const char *symbol; /* C object or function */
    size_t size;        /* bytes; 0 for code, whose size only the compiler knows */
} TaSectionObject;

typedef struct TaModuleSection {
    const char *name;   /* ".dtcm_bss.kws": as TA_SECTION writes it (ta_module_section_name) */
    const char *target; /* ".dtcm_bss": the target file's name for it */
    TaSectionKind kind;
    int memory; /* TaMemory */
    const TaTargetMemory *target_memory;
    TaVec objects; /* TaSectionObject*, in emission order */
} TaModuleSection;

/* The section a module with `prefix` puts its objects of `kind` in, in
   memory `m`: the target's name, a dot and the prefix (".dtcm_bss.kws"), so
   two modules in one image never share an input section and each
   module's linker fragment takes only its own; NULL when the target names
   none. Scripts that match ".dtcm_bss.*" still take it. */
const char *ta_module_section_name(TaPool *pool, const TaTargetMemory *m, TaSectionKind kind,
                                   const char *prefix);
/* Every section the module uses, by memory then kind (deterministic). */
void ta_module_sections(const TaEmitInput *in, TaVec *sections);
/* True when the target names at least one section: such a target gets a
   linker fragment even when this module uses none of them. */
bool ta_target_has_sections(const TaTarget *target);
/* ".dtcm_bss.kws" -> "dtcm_bss_kws": a section name as part of a symbol. */
const char *ta_section_ident(TaPool *pool, const char *section);

#endif /* TA_MODULE_SECTIONS_H */
