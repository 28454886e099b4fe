/*
 * emit_linker.c - <prefix>_sections.ld, a GNU ld fragment that puts every
 * section the module uses into the memory region the plan chose, so the
 * residency report and the linked image agree.
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
 * script took its section) or a region lies outside the target's memory.
 */
#include "emit.h"

#include "escape.h"
#include "module_sections.h"

static const char *out_name(const TaEmitInput *in, const TaModuleSection *s)
{
    return ta_format(in->pool, ".%s%s", in->prefix, s->name);
}

static bool loads_from_flash(const TaModuleSection *s)
{
    return s->kind != TA_SECTION_BSS && s->target_memory->is_volatile;
}

static void emit_section(const TaEmitInput *in, TaBuf *b, const TaModuleSection *s, size_t align)
{
    const char *region = ta_memory_name(s->memory);
    const char *id = ta_section_ident(in->pool, s->name);
    ta_buf_printf(b, "    %s%s : ALIGN(%zu)\n    {\n", out_name(in, s),
                  s->kind == TA_SECTION_BSS ? " (NOLOAD)" : "", align);
    ta_buf_printf(b, "        __%s_%s_start = .;\n", in->prefix, id);
    ta_buf_printf(b, "        *(%s %s.*)\n", s->name, s->name);
    ta_buf_printf(b, "        . = ALIGN(4);\n        __%s_%s_end = .;\n", in->prefix, id);
    ta_buf_printf(b, "    } > %s%s\n", region, loads_from_flash(s) ? " AT> TINYAOT_LOAD" : "");
    if (loads_from_flash(s))
        ta_buf_printf(b, "    __%s_%s_load = LOADADDR(%s);\n", in->prefix, id, out_name(in, s));
    ta_buf_puts(b, "\n");
}

static void emit_tables(const TaEmitInput *in, TaBuf *b, const TaVec *sections)
{
    const char *p = in->prefix;
    ta_buf_printf(b,
                  "    /* Start-up work, 32-bit words: copy table entries are (load address,\n"
                  "       run address, bytes), zero table entries (address, bytes). */\n"
                  "    .%s.init_tables : ALIGN(4)\n    {\n        __%s_copy_table_start = .;\n",
                  p, p);
    for (int i = 0; i < sections->len; i++) {
        const TaModuleSection *s = sections->items[i];
        if (loads_from_flash(s))
            ta_buf_printf(b, "        LONG(LOADADDR(%s)) LONG(ADDR(%s)) LONG(SIZEOF(%s))\n",
                          out_name(in, s), out_name(in, s), out_name(in, s));
    }
    ta_buf_printf(b, "        __%s_copy_table_end = .;\n        __%s_zero_table_start = .;\n", p, p);
    for (int i = 0; i < sections->len; i++) {
        const TaModuleSection *s = sections->items[i];
        if (s->kind == TA_SECTION_BSS)
            ta_buf_printf(b, "        LONG(ADDR(%s)) LONG(SIZEOF(%s))\n", out_name(in, s),
                          out_name(in, s));
    }
    ta_buf_printf(b, "        __%s_zero_table_end = .;\n    } > TINYAOT_LOAD\n\n", p);
}

static void emit_asserts(const TaEmitInput *in, TaBuf *b, const TaVec *sections)
{
    const char *file = ta_format(in->pool, "%s_sections.ld", in->prefix);
    bool used[TA_MEM_COUNT] = {false};
    for (int i = 0; i < sections->len; i++)
        used[((const TaModuleSection *)sections->items[i])->memory] = true;
    ta_buf_puts(b, "    /* Each region lies inside the target's memory of that name. */\n");
    for (int m = 0; m < TA_MEM_COUNT; m++) {
        const TaTargetMemory *tm = in->plan->target->memories[m];
        if (!used[m])
            continue;
        const char *r = ta_memory_name(m);
        unsigned long long lo = (unsigned long long)tm->base;
        unsigned long long hi = lo + (unsigned long long)tm->capacity;
        ta_buf_printf(b,
                      "    ASSERT(ORIGIN(%s) >= 0x%llx && ORIGIN(%s) + LENGTH(%s) <= 0x%llx,\n"
                      "           \"%s: region %s is not inside the target's %s (0x%llx-0x%llx)\")\n",
                      r, lo, r, r, hi, file, r, r, lo, hi);
    }
    ta_buf_puts(b, "    /* Each object of the module lies in the region the plan gave it. */\n");
    for (int i = 0; i < sections->len; i++) {
        const TaModuleSection *s = sections->items[i];
        const char *r = ta_memory_name(s->memory);
        for (int k = 0; k < s->objects.len; k++) {
            const TaSectionObject *o = s->objects.items[k];
            ta_buf_printf(b,
                          "    ASSERT(!DEFINED(%s) || (%s >= ORIGIN(%s) &&\n"
                          "           %s + %zu <= ORIGIN(%s) + LENGTH(%s)),\n"
                          "           \"%s: %s (%s) is not in %s: does an earlier rule of the "
                          "script take %s?\")\n",
                          o->symbol, o->symbol, r, o->symbol, o->size, r, r, file, o->symbol,
                          s->name, r, s->name);
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
    TaBuf b = {0};
    ta_buf_printf(&b,
                  "/*\n * %s_sections.ld - generated by tinyaot from %s for target %s.\n"
                  " * Do not edit.\n *\n"
                  " * Put `INCLUDE %s_sections.ld` inside the SECTIONS command of the\n"
                  " * linker script (with -L pointing at this folder). The script's MEMORY\n"
                  " * declares, or REGION_ALIAS maps, these regions:\n",
                  in->prefix, ta_escape_c_comment(in->pool, ta_basename(in->model->path)),
                  ta_escape_c_comment(in->pool, t->name), in->prefix);
    bool listed[TA_MEM_COUNT] = {false};
    for (int i = 0; i < sections.len; i++) {
        const TaModuleSection *s = sections.items[i];
        if (listed[s->memory])
            continue;
        listed[s->memory] = true;
        ta_buf_printf(&b, " *   %-6s 0x%08llx, %llu bytes in the target file\n",
                      ta_memory_name(s->memory), (unsigned long long)s->target_memory->base,
                      (unsigned long long)s->target_memory->capacity);
    }
    ta_buf_printf(&b,
                  " *   TINYAOT_LOAD  where initial bytes are stored (usually flash)\n"
                  " * Start-up code copies each entry of __%s_copy_table_start.._end and\n"
                  " * zeroes each entry of __%s_zero_table_start.._end before\n"
                  " * %s_model_init. Link with -Wl,--orphan-handling=error: a module\n"
                  " * section that no rule names then fails the link instead of landing\n"
                  " * in whatever memory comes next.\n */\n\n",
                  in->prefix, in->prefix, in->prefix);
    if (sections.len == 0)
        ta_buf_puts(&b, "    /* This module puts nothing in a named section. */\n\n");
    for (int i = 0; i < sections.len; i++)
        emit_section(in, &b, sections.items[i], align);
    emit_tables(in, &b, &sections);
    emit_asserts(in, &b, &sections);
    bool ok = ta_emit_write(in, dir, ta_format(in->pool, "%s_sections.ld", in->prefix), &b);
    ta_buf_free(&b);
    return ok;
}
