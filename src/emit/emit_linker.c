/*
 * emit_linker.c - <prefix>_sections.ld, a GNU ld fragment that puts every
 * section the module uses into the memory region the plan chose, so the
 * residency report and the linked image agree (docs/firmware.md).
 *
 * The fragment goes inside the SECTIONS command of the application's
 * linker script (`INCLUDE <prefix>_sections.ld`). It names one memory
 * region per target memory, spelt as the target file spells the memory
 * (ITCM, DTCM, SRAM, MRAM, PSRAM, DRAM), and TINYAOT_LOAD, the region
 * that holds initial bytes (usually flash): the script's MEMORY command
 * declares them or maps them with REGION_ALIAS. Sections in a volatile
 * memory that carry bytes (constants, code) load from TINYAOT_LOAD and
 * are listed in a copy table; *_bss sections are listed in a zero table;
 * the start-up code walks both. ASSERTs stop the link when an object of
 * the module ended up outside its memory (an earlier wildcard of the
 * script took its section) or a region starts outside the target's memory.
 *
 * Every input section is the module's own (".dtcm_bss.<prefix>",
 * module_sections.h) and each rule names it exactly, so the fragments of
 * two modules in one script each take only their module's objects.
 *
 * Section names passed target.c's strict pattern and symbols derive from
 * the prefix (a C identifier), so nothing here needs escaping but the
 * model's file name and the target's name, which go into a comment.
 */
#include "emit.h"

#include "../util/template.h"
#include "escape.h"
#include "module_sections.h"

static bool loads_from_flash(const TaModuleSection *s)
{
    return s->kind != TA_SECTION_BSS && s->target_memory->is_volatile;
}

/* Fields of one section: $out (output section), $id, $section, $region. */
static TaFields section_fields(const TaEmitInput *in, const TaFields *outer,
                               const TaModuleSection *s)
{
    TaFields f = ta_fields(in->pool, outer);
    ta_field(&f, "out", ta_format(in->pool, ".%s%s", in->prefix, s->target));
    ta_field(&f, "id", ta_section_ident(in->pool, s->target));
    ta_field(&f, "section", s->name);
    ta_field(&f, "region", ta_memory_name(s->memory));
    return f;
}

static void emit_section(const TaEmitInput *in, TaBuf *b, const TaFields *outer,
                         const TaModuleSection *s)
{
    TaFields f = section_fields(in, outer, s);
    bool load = loads_from_flash(s);
    ta_field(&f, "noload", s->kind == TA_SECTION_BSS ? " (NOLOAD)" : "");
    ta_field(&f, "at", load ? " AT> TINYAOT_LOAD" : "");
    ta_template(b, &f,
                "    $out$noload : ALIGN($align)\n    {\n"
                "        __${prefix}_${id}_start = .;\n"
                "        *($section)\n"
                "        . = ALIGN(4);\n        __${prefix}_${id}_end = .;\n"
                "    } > $region$at\n");
    if (load)
        ta_template(b, &f, "    __${prefix}_${id}_load = LOADADDR($out);\n");
    ta_buf_puts(b, "\n");
}

static void emit_tables(const TaEmitInput *in, TaBuf *b, const TaFields *outer,
                        const TaVec *sections)
{
    ta_template(b, outer,
                "    /* Start-up work, 32-bit words: copy table entries are (load address,\n"
                "       run address, bytes), zero table entries (address, bytes). */\n"
                "    .${prefix}.init_tables : ALIGN(4)\n    {\n"
                "        __${prefix}_copy_table_start = .;\n");
    for (int i = 0; i < sections->len; i++) {
        TaFields f = section_fields(in, outer, sections->items[i]);
        if (loads_from_flash(sections->items[i]))
            ta_template(b, &f,
                        "        LONG(LOADADDR($out)) LONG(ADDR($out)) LONG(SIZEOF($out))\n");
    }
    ta_template(b, outer,
                "        __${prefix}_copy_table_end = .;\n"
                "        __${prefix}_zero_table_start = .;\n");
    for (int i = 0; i < sections->len; i++) {
        const TaModuleSection *s = sections->items[i];
        TaFields f = section_fields(in, outer, s);
        if (s->kind == TA_SECTION_BSS)
            ta_template(b, &f, "        LONG(ADDR($out)) LONG(SIZEOF($out))\n");
    }
    ta_template(b, outer, "        __${prefix}_zero_table_end = .;\n    } > TINYAOT_LOAD\n\n");
}

/* $lo and $hi: the target memory's first address and one past its last. */
static void bounds(const TaEmitInput *in, TaFields *f, const TaTargetMemory *tm)
{
    ta_field(f, "lo", ta_format(in->pool, "0x%llx", (unsigned long long)tm->base));
    ta_field(f, "hi", ta_format(in->pool, "0x%llx", (unsigned long long)(tm->base + tm->capacity)));
}

static void emit_asserts(const TaEmitInput *in, TaBuf *b, const TaFields *outer,
                         const TaVec *sections)
{
    bool used[TA_MEM_COUNT] = {false};
    for (int i = 0; i < sections->len; i++)
        used[((const TaModuleSection *)sections->items[i])->memory] = true;
    /* Only the start: a script may declare a memory whole where the target
       file leaves out what the board keeps (the vector table in ITCM). */
    ta_buf_puts(b, "    /* Each region starts inside the target's memory of that name. */\n");
    for (int m = 0; m < TA_MEM_COUNT; m++) {
        const TaTargetMemory *tm = in->plan->target->memories[m];
        if (!used[m])
            continue;
        TaFields f = ta_fields(in->pool, outer);
        ta_field(&f, "region", ta_memory_name(m));
        bounds(in, &f, tm);
        ta_template(b, &f,
                    "    ASSERT(ORIGIN($region) >= $lo && ORIGIN($region) < $hi,\n"
                    "        \"$file: region $region starts outside the target's $region "
                    "($lo-$hi)\")\n");
    }
    ta_buf_puts(b, "    /* Each object of the module lies in its region and in the target's\n"
                   "       memory of that name. */\n");
    for (int i = 0; i < sections->len; i++) {
        const TaModuleSection *s = sections->items[i];
        for (int k = 0; k < s->objects.len; k++) {
            const TaSectionObject *o = s->objects.items[k];
            TaFields f = section_fields(in, outer, s);
            bounds(in, &f, s->target_memory);
            ta_field(&f, "symbol", o->symbol);
            ta_field_size(&f, "size", o->size);
            ta_template(b, &f,
                        "    ASSERT(!DEFINED($symbol) || ($symbol >= ORIGIN($region) &&\n"
                        "           $symbol + $size <= ORIGIN($region) + LENGTH($region) &&\n"
                        "           $symbol >= $lo &&\n"
                        "           $symbol + $size <= $hi),\n"
                        "        \"$file: $symbol not in $region; an earlier rule took "
                        "$section?\")\n");
        }
    }
}

bool ta_emit_linker_fragment(const TaEmitInput *in, const char *dir)
{
    const TaTarget *t = in->plan->target;
    if (!ta_target_has_sections(t))
        return true;
    TaVec sections = {0};
    ta_module_sections(in, &sections);
    size_t align = t->min_alignment > 4 ? (size_t)t->min_alignment : 4;
    for (int i = 0; i < in->plan->regions.len; i++) {
        const TaRegion *r = in->plan->regions.items[i];
        if (r->alignment > align)
            align = r->alignment;
    }
    const char *file = ta_format(in->pool, "%s_sections.ld", in->prefix);
    TaFields f = ta_fields(in->pool, NULL);
    ta_field(&f, "prefix", in->prefix);
    ta_field(&f, "file", file);
    ta_field_size(&f, "align", align);
    ta_field(&f, "model_file", ta_escape_c_comment(in->pool, ta_basename(in->model->path)));
    ta_field(&f, "target", ta_escape_c_comment(in->pool, t->name));
    TaBuf b = {0};
    ta_template(&b, &f,
                "/*\n * $file - generated by tinyaot from $model_file for target $target.\n"
                " * Do not edit.\n *\n"
                " * Put `INCLUDE $file` inside the SECTIONS command of the\n"
                " * linker script (with -L pointing at this folder). The script's MEMORY\n"
                " * declares, or REGION_ALIAS maps, these regions:\n");
    bool listed[TA_MEM_COUNT] = {false};
    for (int i = 0; i < sections.len; i++) {
        const TaModuleSection *s = sections.items[i];
        if (listed[s->memory])
            continue;
        listed[s->memory] = true;
        TaFields m = ta_fields(in->pool, &f);
        ta_field(&m, "region", ta_format(in->pool, "%-6s", ta_memory_name(s->memory)));
        ta_field(&m, "base",
                 ta_format(in->pool, "0x%08llx", (unsigned long long)s->target_memory->base));
        ta_field(&m, "capacity",
                 ta_format(in->pool, "%llu", (unsigned long long)s->target_memory->capacity));
        ta_template(&b, &m, " *   $region $base, $capacity bytes in the target file\n");
    }
    ta_template(&b, &f,
                " *   TINYAOT_LOAD  where initial bytes are stored (usually flash)\n"
                " * Start-up code copies each entry of __${prefix}_copy_table_start.._end and\n"
                " * zeroes each entry of __${prefix}_zero_table_start.._end before\n"
                " * ${prefix}_model_init. Link with -Wl,--orphan-handling=error: a module\n"
                " * section that no rule names then fails the link instead of landing\n"
                " * in whatever memory comes next.\n */\n\n");
    if (sections.len == 0)
        ta_buf_puts(&b, "    /* This module puts nothing in a named section. */\n\n");
    for (int i = 0; i < sections.len; i++)
        emit_section(in, &b, &f, sections.items[i]);
    emit_tables(in, &b, &f, &sections);
    emit_asserts(in, &b, &f, &sections);
    bool ok = ta_emit_write(in, dir, file, &b);
    ta_buf_free(&b);
    return ok;
}
