/*
 * target.c - target YAML -> TaTarget, checked as targets/README.md says.
 * Built-in targets are compiled into tinyaot as resources, so a conversion
 * never depends on where tinyaot was installed.
 */
#include "target.h"

#include "resources.h"

#include <ctype.h>
#include <string.h>

static bool one_of(const char *core, const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (core && strcmp(core, names[i]) == 0)
            return true;
    return false;
}

bool ta_core_has_helium(const char *core)
{
    static const char *const helium[] = {"cortex-m52", "cortex-m55", "cortex-m85"};
    return one_of(core, helium, TA_COUNT_OF(helium));
}

bool ta_core_has_dsp(const char *core)
{
    static const char *const dsp[] = {"cortex-m4", "cortex-m7", "cortex-m33", "cortex-m35p"};
    return one_of(core, dsp, TA_COUNT_OF(dsp));
}

typedef struct Loader {
    TaPool *pool;
    TaDiag *d;
    const char *origin;
    bool ok;
    const TaNode *memory_nodes[TA_MEM_COUNT]; /* where each memory was declared */
} Loader;

/* Limits of target fields, the same as the configuration keys' */
enum { TA_TARGET_MAX_ALIGNMENT = 4096, TA_TARGET_MAX_SECTION_LEN = 128 };

static void fail(Loader *L, const TaNode *n, const char *fmt, ...) TA_PRINTF(3, 4);
static void fail(Loader *L, const TaNode *n, const char *fmt, ...)
{
    TaBuf b = {0};
    va_list ap;
    va_start(ap, fmt);
    ta_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    /* n is NULL when the field it names is missing (already reported): the file then */
    ta_error(L->d, "%s: target: %s", n ? ta_node_where(L->pool, n) : L->origin, b.data);
    ta_buf_free(&b);
    L->ok = false;
}

static const TaNode *need(Loader *L, const TaNode *map, const char *key)
{
    const TaNode *v = ta_node_map_get(map, key);
    if (!v)
        fail(L, map, "missing key '%s'", key);
    return v;
}

static const char *need_string(Loader *L, const TaNode *map, const char *key)
{
    const TaNode *v = need(L, map, key);
    if (v && v->kind != TA_NODE_SCALAR) {
        fail(L, v, "'%s' must be a string", key);
        return NULL;
    }
    return v ? v->scalar : NULL;
}

static uint64_t need_uint(Loader *L, const TaNode *map, const char *key)
{
    const TaNode *v = need(L, map, key);
    int64_t x = 0;
    if (v && (!ta_scalar_int(v, &x) || x < 0))
        fail(L, v, "'%s' must be a non-negative integer", key);
    return (uint64_t)x;
}

static bool need_bool(Loader *L, const TaNode *map, const char *key)
{
    const TaNode *v = need(L, map, key);
    bool b = false;
    if (v && !ta_scalar_bool(v, &b))
        fail(L, v, "'%s' must be true or false", key);
    return b;
}

/* A linker section name as it goes into TA_SECTION("..."): a dot, then a
   C identifier, then more identifier characters or dots (".dtcm_bss",
   ".itcm_text.kws"). Nothing else reaches generated code. */
static bool is_section_name(const char *s)
{
    if (s[0] != '.' ||
        !(s[1] == '_' || (s[1] >= 'A' && s[1] <= 'Z') || (s[1] >= 'a' && s[1] <= 'z')))
        return false;
    for (const char *p = s + 1; *p; p++)
        if (!(*p == '_' || *p == '.' || (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
              (*p >= '0' && *p <= '9')))
            return false;
    return strlen(s) <= TA_TARGET_MAX_SECTION_LEN;
}

static const char *optional_section(Loader *L, const TaNode *map, const char *key)
{
    const TaNode *v = ta_node_map_get(map, key);
    if (!v || ta_scalar_is_null(v))
        return NULL;
    if (v->kind != TA_NODE_SCALAR) {
        fail(L, v, "'%s' must be a section name or null", key);
        return NULL;
    }
    if (!is_section_name(v->scalar)) {
        TaBuf shown = {0};
        for (const unsigned char *p = (const unsigned char *)v->scalar; *p && shown.len < 80; p++)
            ta_buf_printf(&shown, *p >= 0x20 && *p < 0x7f && *p != '\\' ? "%c" : "\\x%02x", *p);
        fail(L, v,
             "%s: '%s' is not a section name (a dot, a letter or '_', then letters, "
             "digits, '_' or '.'; at most %d characters)",
             key, shown.data ? shown.data : "", TA_TARGET_MAX_SECTION_LEN);
        ta_buf_free(&shown);
        return NULL;
    }
    return v->scalar;
}

static void check_keys(Loader *L, const TaNode *map, const char *const *keys, int count)
{
    for (int i = 0; i < map->count; i++) {
        bool known = false;
        for (int k = 0; k < count && !known; k++)
            known = strcmp(map->keys[i], keys[k]) == 0;
        if (!known) {
            const char *hint = ta_suggest(map->keys[i], keys, count);
            fail(L, map->items[i], "unknown key '%s'%s%s%s", map->keys[i],
                 hint ? " (did you mean '" : "", hint ? hint : "", hint ? "'?)" : "");
        }
    }
}

static void load_memory(Loader *L, TaTarget *t, const TaNode *n)
{
    static const char *const keys[] = {"name",        "base",         "capacity",
                                       "writable",    "executable",   "volatile",
                                       "bss_section", "data_section", "code_section"};
    if (n->kind != TA_NODE_MAP) {
        fail(L, n, "a memory must be a mapping");
        return;
    }
    check_keys(L, n, keys, 9);
    const char *name = need_string(L, n, "name");
    if (!name)
        return;
    int mem = ta_memory_parse(name);
    if (mem < 0) {
        fail(L, n, "unknown memory '%s' (ITCM, DTCM, SRAM, PSRAM, MRAM or DRAM)", name);
        return;
    }
    if (t->memories[mem]) {
        fail(L, n, "memory %s is declared twice", name);
        return;
    }
    TaTargetMemory *m = ta_alloc(L->pool, sizeof *m);
    m->memory = mem;
    m->base = need_uint(L, n, "base");
    m->capacity = need_uint(L, n, "capacity");
    m->writable = need_bool(L, n, "writable");
    m->executable = need_bool(L, n, "executable");
    m->is_volatile = need_bool(L, n, "volatile");
    m->bss_section = optional_section(L, n, "bss_section");
    m->data_section = optional_section(L, n, "data_section");
    m->code_section = optional_section(L, n, "code_section");
    if (m->code_section && !m->executable)
        fail(L, n, "memory %s is not executable, so it has no code_section", name);
    if (mem == TA_MEM_MRAM && m->writable)
        fail(L, n, "MRAM is read-only at run time; it cannot be writable");
    if (!m->writable && m->bss_section)
        fail(L, n, "memory %s is not writable, so it has no bss_section", name);
    /* A missing capacity was reported by need_uint already. */
    const TaNode *capacity = ta_node_map_get(n, "capacity");
    if (m->capacity == 0 && capacity)
        fail(L, capacity, "capacity: memory %s has no bytes", name);
    t->memories[mem] = m;
    L->memory_nodes[mem] = n;
}

/* Highest address + 1 of the core's address space: 2^32 on a Cortex-M. */
static uint64_t address_space_end(const char *core, bool *bounded)
{
    *bounded = core && strncmp(core, "cortex-m", 8) == 0;
    return *bounded ? (uint64_t)1 << 32 : 0;
}

/* Checks across memories: each fits the address space, no two overlap,
   no linker section serves two memories. */
static void check_memory_map(Loader *L, TaTarget *t)
{
    bool bounded;
    uint64_t end = address_space_end(t->core, &bounded);
    for (int a = 0; a < TA_MEM_COUNT; a++) {
        const TaTargetMemory *m = t->memories[a];
        if (!m)
            continue;
        const TaNode *n = L->memory_nodes[a];
        const char *name = ta_memory_name(a);
        if (m->base > UINT64_MAX - m->capacity)
            fail(L, ta_node_map_get(n, "capacity"),
                 "capacity: memory %s (base 0x%llx, %llu bytes) extends past the end of the "
                 "address space",
                 name, (unsigned long long)m->base, (unsigned long long)m->capacity);
        else if (bounded && (m->base >= end || m->capacity > end - m->base))
            fail(L, ta_node_map_get(n, m->base >= end ? "base" : "capacity"),
                 "%s: memory %s (base 0x%llx, %llu bytes) extends past the 4 GiB address space "
                 "of %s",
                 m->base >= end ? "base" : "capacity", name, (unsigned long long)m->base,
                 (unsigned long long)m->capacity, t->core);
        for (int b = 0; b < a; b++) {
            const TaTargetMemory *o = t->memories[b];
            if (!o)
                continue;
            /* [base, base + capacity) ranges, compared without wrapping */
            bool overlap = m->base < o->base ? o->base - m->base < m->capacity
                                             : m->base - o->base < o->capacity;
            if (overlap) {
                /* reported where the later of the two is declared */
                bool later = n->line >= L->memory_nodes[b]->line;
                int lm = later ? a : b, em = later ? b : a;
                const TaTargetMemory *x = t->memories[lm], *y = t->memories[em];
                fail(L, ta_node_map_get(L->memory_nodes[lm], "base"),
                     "base: memory %s (0x%llx, %llu bytes) overlaps memory %s (0x%llx, %llu "
                     "bytes) declared at %s",
                     ta_memory_name(lm), (unsigned long long)x->base,
                     (unsigned long long)x->capacity, ta_memory_name(em),
                     (unsigned long long)y->base, (unsigned long long)y->capacity,
                     ta_node_where(L->pool, L->memory_nodes[em]));
            }
            const char *mine[3] = {m->bss_section, m->data_section, m->code_section};
            const char *theirs[3] = {o->bss_section, o->data_section, o->code_section};
            for (int i = 0; i < 3; i++)
                for (int k = 0; k < 3; k++)
                    if (mine[i] && theirs[k] && strcmp(mine[i], theirs[k]) == 0)
                        fail(L, n, "section '%s' of memory %s is also a section of memory %s",
                             mine[i], name, ta_memory_name(b));
        }
        const char *own[3] = {m->bss_section, m->data_section, m->code_section};
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < i; k++)
                if (own[i] && own[k] && strcmp(own[i], own[k]) == 0)
                    fail(L, n, "memory %s names section '%s' twice", name, own[i]);
    }
}

static TaTarget *load_tree(Loader *L, const TaNode *root)
{
    static const char *const keys[] = {"name",    "description", "core",       "min_alignment",
                                       "sources", "memories",    "spill_order"};
    if (root->kind != TA_NODE_MAP) {
        fail(L, root, "a target file must be a mapping");
        return NULL;
    }
    check_keys(L, root, keys, 7);
    TaTarget *t = ta_alloc(L->pool, sizeof *t);
    t->origin = L->origin;
    t->name = need_string(L, root, "name");
    t->core = need_string(L, root, "core");
    const TaNode *desc = ta_node_map_get(root, "description");
    t->description = desc && desc->kind == TA_NODE_SCALAR ? desc->scalar : "";
    if (t->name && (t->name[0] == '\0' || strlen(t->name) > 64))
        fail(L, ta_node_map_get(root, "name"), "name: must be 1 to 64 characters");
    if (desc && desc->kind != TA_NODE_SCALAR)
        fail(L, desc, "description: must be a string");
    const TaNode *sources = ta_node_map_get(root, "sources");
    if (sources && sources->kind != TA_NODE_SEQUENCE)
        fail(L, sources, "sources: must be a list of strings");
    else if (sources)
        for (int i = 0; i < sources->count; i++)
            if (sources->items[i]->kind != TA_NODE_SCALAR)
                fail(L, sources->items[i], "sources: must be a list of strings");
    t->min_alignment = need_uint(L, root, "min_alignment");
    /* The bound memory.constraints[].arena_alignment has: beyond a page,
       padding only wastes memory (1 MiB made a 20 MB constants file). */
    if (t->min_alignment == 0 || (t->min_alignment & (t->min_alignment - 1)) ||
        t->min_alignment > TA_TARGET_MAX_ALIGNMENT)
        fail(L,
             ta_node_map_get(root, "min_alignment") ? ta_node_map_get(root, "min_alignment") : root,
             "min_alignment: %llu is not a power of two up to %d",
             (unsigned long long)t->min_alignment, TA_TARGET_MAX_ALIGNMENT);

    const TaNode *mems = need(L, root, "memories");
    if (mems && mems->kind != TA_NODE_SEQUENCE)
        fail(L, mems, "'memories' must be a list");
    else if (mems && mems->count == 0)
        fail(L, mems, "memories: the list is empty");
    else if (mems) {
        for (int i = 0; i < mems->count; i++)
            load_memory(L, t, mems->items[i]);
        check_memory_map(L, t);
    }

    const TaNode *spill = need(L, root, "spill_order");
    if (spill && spill->kind != TA_NODE_SEQUENCE)
        fail(L, spill, "'spill_order' must be a list of memory names");
    else if (spill) {
        for (int i = 0; i < spill->count && i < TA_MEM_COUNT; i++) {
            const TaNode *v = spill->items[i];
            int mem = v->kind == TA_NODE_SCALAR ? ta_memory_parse(v->scalar) : -1;
            if (mem < 0 || !t->memories[mem]) {
                fail(L, v, "spill_order names '%s', which the target does not declare",
                     v->kind == TA_NODE_SCALAR ? v->scalar : "?");
                continue;
            }
            for (int k = 0; k < t->num_spill; k++)
                if (t->spill_order[k] == mem)
                    fail(L, v, "spill_order lists %s twice", v->scalar);
            t->spill_order[t->num_spill++] = mem;
        }
        if (spill->count > TA_MEM_COUNT)
            fail(L, spill, "spill_order is longer than the number of memories");
        bool writable = false;
        for (int k = 0; k < t->num_spill; k++)
            writable = writable || t->memories[t->spill_order[k]]->writable;
        if (L->ok && !writable)
            fail(L, spill, "spill_order: names no writable memory, so scratch has nowhere to go");
    }
    return L->ok ? t : NULL;
}

static bool is_path(const char *name)
{
    size_t n = strlen(name);
    return strchr(name, '/') || (n > 5 && strcmp(name + n - 5, ".yaml") == 0);
}

const char *ta_target_builtin_list(TaPool *pool)
{
    TaBuf b = {0};
    for (size_t i = 0; i < ta_num_resources; i++) {
        const char *p = ta_resources[i].path;
        size_t n = strlen(p);
        if (strncmp(p, "targets/", 8) == 0 && n > 13 && strcmp(p + n - 5, ".yaml") == 0)
            ta_buf_printf(&b, "%s%.*s", b.len ? ", " : "", (int)(n - 13), p + 8);
    }
    char *s = ta_strdup(pool, b.data ? b.data : "");
    ta_buf_free(&b);
    return s;
}

/* "mps3-an547" (QEMU's machine name), "MPS3_AN547", "an547", "mps3_an574":
   the built-in target meant, or NULL. Spellings first, then a target
   whose board part ("an547") the name contains, then a near miss. */
static const char *suggest_target(TaPool *pool, const char *name)
{
    char *norm = ta_strdup(pool, name);
    for (char *p = norm; *p; p++)
        *p = *p == '-' || *p == ' ' ? '_' : (char)tolower((unsigned char)*p);
    const char *list = ta_target_builtin_list(pool);
    const char *names[32];
    int n = 0;
    for (const char *p = list; *p && n < 32;) {
        size_t len = strcspn(p, ",");
        names[n++] = ta_strndup(pool, p, len);
        p += len;
        p += strspn(p, ", ");
    }
    for (int i = 0; i < n; i++)
        if (strcmp(norm, names[i]) == 0)
            return names[i];
    for (int i = 0; i < n; i++) {
        const char *part = strrchr(names[i], '_');
        part = part ? part + 1 : names[i];
        if (strlen(part) >= 5 && strstr(norm, part))
            return names[i];
        size_t head = strcspn(names[i], "_");
        if (head >= 5 && strlen(norm) >= 5 && strncmp(norm, names[i], head) == 0 &&
            strlen(norm) <= head + 1)
            return names[i];
    }
    return ta_suggest(norm, names, n);
}

TaTarget *ta_target_load(TaPool *pool, TaDiag *d, const char *name)
{
    Loader L = {.pool = pool, .d = d, .ok = true};
    TaNode *root;
    if (is_path(name)) {
        L.origin = name;
        root = ta_yaml_load_file(pool, d, name);
    } else {
        const TaResource *r = ta_resource_find(ta_format(pool, "targets/%s.yaml", name));
        if (!r) {
            const char *meant = suggest_target(pool, name);
            ta_error(d,
                     "platform.name: unknown target '%s' (%s%s%sbuilt-in targets: %s; or give a "
                     "path to a target YAML file)",
                     name, meant ? "did you mean '" : "", meant ? meant : "", meant ? "'? " : "",
                     ta_target_builtin_list(pool));
            return NULL;
        }
        L.origin = ta_format(pool, "<built-in>/targets/%s.yaml", name);
        root = ta_yaml_parse(pool, d, L.origin, (const char *)r->data, r->size, true);
    }
    if (!root)
        return NULL;
    return load_tree(&L, root);
}
