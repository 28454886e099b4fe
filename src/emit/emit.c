/*
 * emit.c - writes the module into a temporary directory beside module.path
 * and moves it into place only when every file was written, so a failed
 * conversion never leaves a partial module (and never damages a previous
 * one).
 */
#define _XOPEN_SOURCE 700
#include "emit.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool write_all(const TaEmitInput *in, const char *dir)
{
    if (!ta_mkdir_p(in->diag, ta_path_join(in->pool, dir, "ops")))
        return false;
    if (!ta_emit_sources(in, dir))
        return false;
    TaVec sources = {0}, runtime = {0};
    const char *p = in->prefix;
    ta_vec_push(in->pool, &sources, ta_format(in->pool, "%s_model.c", p));
    ta_vec_push(in->pool, &sources, ta_format(in->pool, "%s_arenas.c", p));
    ta_vec_push(in->pool, &sources, ta_format(in->pool, "%s_constants.c", p));
    for (int i = 0; i < in->graph->ops.len; i++) {
        const TaOp *op = TA_OP(in->graph, i);
        if (op->calls.len)
            ta_vec_push(in->pool, &sources, ta_format(in->pool, "ops/%s.c", op->symbol));
    }
    if (!ta_emit_build_files(in, dir, &sources, &runtime))
        return false;
    if (in->config->dump_residency_json && !ta_emit_residency(in, dir))
        return false;
    return ta_emit_views_json(in, dir);
}

bool ta_emit(const TaEmitInput *in)
{
    const char *final = in->config->module_path;
    struct stat st;
    bool exists = lstat(final, &st) == 0;
    if (exists && !S_ISDIR(st.st_mode)) {
        ta_error(in->diag, "module.path %s exists and is not a directory", final);
        return false;
    }
    const char *parent = ta_dirname(in->pool, final);
    if (!ta_mkdir_p(in->diag, parent))
        return false;
    const char *tmp = ta_format(in->pool, "%s.tinyaot-tmp-%ld", final, (long)getpid());
    ta_remove_tree(tmp);
    if (!ta_mkdir_p(in->diag, tmp))
        return false;
    if (!write_all(in, tmp)) {
        ta_remove_tree(tmp);
        return false;
    }
    const char *old = ta_format(in->pool, "%s.tinyaot-old-%ld", final, (long)getpid());
    if (exists && rename(final, old) != 0) {
        ta_error(in->diag, "%s: cannot replace: %s", final, strerror(errno));
        ta_remove_tree(tmp);
        return false;
    }
    if (rename(tmp, final) != 0) {
        ta_error(in->diag, "%s: cannot move the new module into place: %s", final, strerror(errno));
        if (exists)
            rename(old, final);
        ta_remove_tree(tmp);
        return false;
    }
    if (exists)
        ta_remove_tree(old);
    return true;
}
