/*
 * runtime_files.c - the runtime files a lowered graph needs: the headers
 * its kernel calls name, every file they include with "...", and the .c
 * beside each header. The module copies them (emit_build.c) and the
 * flash estimate sizes them (report/analyze.c).
 */
#include "runtime_files.h"

#include "../config/resources.h"

#include <stdlib.h>
#include <string.h>

static bool listed(const TaVec *v, const char *s)
{
    for (int i = 0; i < v->len; i++)
        if (strcmp(v->items[i], s) == 0)
            return true;
    return false;
}

/* "a/b/../c" -> "a/c" (paths inside the runtime tree, no leading "/"). */
static const char *normalize_path(TaPool *pool, const char *path)
{
    const char *parts[32];
    size_t lens[32];
    int n = 0;
    for (const char *p = path; *p && n < 32;) {
        const char *slash = strchr(p, '/');
        size_t len = slash ? (size_t)(slash - p) : strlen(p);
        if (len == 2 && p[0] == '.' && p[1] == '.') {
            if (n > 0)
                n--;
        } else if (len > 0 && !(len == 1 && p[0] == '.')) {
            parts[n] = p;
            lens[n++] = len;
        }
        p += len + (slash ? 1 : 0);
    }
    TaBuf b = {0};
    for (int i = 0; i < n; i++)
        ta_buf_printf(&b, "%s%.*s", i ? "/" : "", (int)lens[i], parts[i]);
    const char *s = ta_strdup(pool, b.data ? b.data : "");
    ta_buf_free(&b);
    return s;
}

/* Adds `path` and, transitively, every file it includes with "...". */
static bool add_runtime_file(TaPool *pool, TaDiag *diag, TaVec *files, const char *path)
{
    if (listed(files, path))
        return true;
    const TaResource *r = ta_resource_find(path);
    if (!r) {
        ta_error(diag, "internal: runtime file %s is not built into tinyaot", path);
        return false;
    }
    ta_vec_push(pool, files, (void *)path);
    const char *dir = ta_dirname(pool, path);
    const char *text = (const char *)r->data;
    for (const char *line = text; line && *line;
         line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (strncmp(line, "#include \"", 10) != 0)
            continue;
        const char *start = line + 10;
        const char *end = strchr(start, '"');
        if (!end)
            continue;
        /* Resolve "../include/x.h" against the including file's folder. */
        const char *rel = ta_strndup(pool, start, (size_t)(end - start));
        const char *resolved = normalize_path(pool, ta_path_join(pool, dir, rel));
        if (!add_runtime_file(pool, diag, files, resolved))
            return false;
    }
    /* A header's implementation comes with it. */
    size_t len = strlen(path);
    if (len > 2 && strcmp(path + len - 2, ".h") == 0) {
        char *c_file = ta_strdup(pool, path);
        c_file[len - 1] = 'c';
        if (ta_resource_find(c_file) && !add_runtime_file(pool, diag, files, c_file))
            return false;
    }
    return true;
}

static int compare_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

bool ta_runtime_files(TaPool *pool, TaDiag *diag, const TaGraph *graph, TaVec *files)
{
    static const char *always[] = {"runtime/include/ta_status.h", "runtime/include/ta_module.h",
                                   "runtime/include/ta_compiler.h",
                                   "runtime/include/ta_io_dtype.h"};
    for (size_t i = 0; i < TA_COUNT_OF(always); i++)
        if (!add_runtime_file(pool, diag, files, always[i]))
            return false;
    for (int i = 0; i < graph->ops.len; i++) {
        const TaOp *op = TA_OP(graph, i);
        /* A row chain's runner moves rows with ta_move_rows. */
        if (op->row_chain && op->row_chain_pos == 0 &&
            !add_runtime_file(pool, diag, files, "runtime/kernels/ta_move_rows.h"))
            return false;
        /* model.h of a row-push module includes the pieces its runners push. */
        if (op->row_chain && op->row_chain_pos == 0 && op->row_chain->push_input &&
            !add_runtime_file(pool, diag, files, "runtime/include/ta_push_pieces.h"))
            return false;
        for (int k = 0; k < op->lowered.calls.len; k++)
            if (!add_runtime_file(pool, diag, files,
                                  ((TaKernelCall *)op->lowered.calls.items[k])->header))
                return false;
    }
    if (files->len > 1)
        qsort(files->items, (size_t)files->len, sizeof(void *), compare_str);
    return true;
}
