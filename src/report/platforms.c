/*
 * platforms.c - the built-in targets and one target's description for
 * `tinyaot platforms` (tinyaot_platform_* in tinyaot.h).
 */
#include "../../include/tinyaot/tinyaot.h"

#include "../config/resources.h"
#include "../config/target.h"

#include <stdlib.h>
#include <string.h>

typedef struct PlatformBox {
    tinyaot_platform platform;
    TaPool pool;
} PlatformBox;

static int compare_names(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

size_t tinyaot_platform_names(char (*names)[TINYAOT_PLATFORM_NAME_MAX], size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < ta_num_resources; i++) {
        const char *p = ta_resources[i].path;
        size_t len = strlen(p);
        if (strncmp(p, "targets/", 8) != 0 || len <= 13 || strcmp(p + len - 5, ".yaml") != 0 ||
            len - 13 >= TINYAOT_PLATFORM_NAME_MAX)
            continue;
        if (n < max && names) {
            memcpy(names[n], p + 8, len - 13);
            names[n][len - 13] = '\0';
        }
        n++;
    }
    if (names)
        qsort(names, n < max ? n : max, sizeof *names, compare_names);
    return n;
}

/* Messages stay in the result; the caller decides whether to print them. */
static void keep_quiet(void *user, int level, const char *line)
{
    (void)user;
    (void)level;
    (void)line;
}

tinyaot_status tinyaot_platform_load(const char *name, tinyaot_platform **platform)
{
    PlatformBox *box = calloc(1, sizeof *box);
    if (!box)
        return TINYAOT_ERROR_ARGUMENT;
    *platform = &box->platform;
    TaPool *pool = &box->pool;
    TaDiag diag = {.pool = pool};
    diag.sink = keep_quiet;
    tinyaot_platform *p = &box->platform;
    TaTarget *t = name ? ta_target_load(pool, &diag, name) : NULL;
    if (!name)
        ta_error(&diag, "tinyaot_platform_load: name is NULL");
    if (t) {
        p->name = t->name;
        p->description = t->description;
        p->core = t->core;
        p->origin = t->origin;
        p->min_alignment = (int64_t)t->min_alignment;
        tinyaot_platform_memory *mem = ta_alloc_array(pool, TA_MEM_COUNT, sizeof *mem);
        for (int m = 0; m < TA_MEM_COUNT; m++) {
            const TaTargetMemory *tm = t->memories[m];
            if (!tm)
                continue;
            mem[p->num_memories++] = (tinyaot_platform_memory){.name = ta_memory_name(m),
                                                               .base = tm->base,
                                                               .capacity = tm->capacity,
                                                               .writable = tm->writable,
                                                               .executable = tm->executable,
                                                               .is_volatile = tm->is_volatile,
                                                               .bss_section = tm->bss_section,
                                                               .data_section = tm->data_section,
                                                               .code_section = tm->code_section};
        }
        p->memories = mem;
        const char **spill = ta_alloc_array(pool, TA_MEM_COUNT, sizeof(char *));
        for (int k = 0; k < t->num_spill; k++)
            spill[k] = ta_memory_name(t->spill_order[k]);
        p->spill_order = spill;
        p->num_spill = (size_t)t->num_spill;
    }
    p->status = t ? TINYAOT_OK : TINYAOT_ERROR_CONFIG;
    p->diagnostics = (const char *const *)diag.lines.items;
    p->num_diagnostics = (size_t)diag.lines.len;
    return p->status;
}

void tinyaot_platform_free(tinyaot_platform *platform)
{
    if (!platform)
        return;
    PlatformBox *box = (PlatformBox *)platform; /* the platform is the first member */
    ta_pool_free(&box->pool);
    free(box);
}
