/*
 * emit.c - writes the module into a temporary directory beside module.path
 * and swaps it into place only when every file was written, so a failed or
 * killed conversion never leaves a partial module and never damages a
 * previous one (module_dir.h: the marker, the checks and the swap).
 */
#include "emit.h"
#include "emit_firmware.h"
#include "module_dir.h"

#include <string.h>

static bool write_all(const TaEmitInput *in, const char *dir)
{
    if (!ta_mkdir_p(in->diag, ta_path_join(in->pool, dir, "ops")))
        return false;
    if (!ta_emit_sources(in, dir))
        return false;
    TaVec sources = {0}, runtime = {0};
    const char *p = in->prefix;
    ta_vec_push(in->pool, &sources, (void *)ta_model_file(in->pool, p, "c"));
    ta_vec_push(in->pool, &sources, ta_format(in->pool, "%s_arenas.c", p));
    ta_vec_push(in->pool, &sources, ta_format(in->pool, "%s_constants.c", p));
    for (int i = 0; i < in->graph->ops.len; i++) {
        const TaOp *op = TA_OP(in->graph, i);
        if (op->lowered.calls.len)
            ta_vec_push(in->pool, &sources, ta_format(in->pool, "ops/%s.c", op->lowered.symbol));
    }
    if (!ta_emit_user_files(in, dir, &sources))
        return false;
    if (in->config->test_enabled && !ta_emit_test_case(in, dir, &sources))
        return false;
    if (!ta_emit_build_files(in, dir, &sources, &runtime))
        return false;
    if (!ta_emit_linker_fragment(in, dir))
        return false;
    if (strcmp(in->config->module_type, "firmware") == 0 && !ta_emit_firmware(in, dir))
        return false;
    if (in->config->dump_residency_json && !ta_emit_residency(in, dir))
        return false;
    if (in->config->documentation_html && !ta_emit_documentation(in, dir))
        return false;
    return ta_emit_views_json(in, dir);
}

/* Out of memory while the module is being written: no partial module. */
static void abort_on_unwind(void *dir)
{
    ta_module_dir_abort(dir);
}

bool ta_emit(const TaEmitInput *in)
{
    TaModuleDir dir;
    ta_module_dir_init(&dir, in->pool, in->diag, in->config);
    if (!ta_module_dir_prepare(&dir)) {
        ta_module_dir_unlock(&dir);
        return false;
    }
    ta_oom_on_unwind(abort_on_unwind, &dir);
    bool ok = ta_module_dir_begin(&dir);
    if (ok && (!write_all(in, dir.tmp) || !ta_module_dir_commit(&dir))) {
        ta_module_dir_abort(&dir);
        ok = false;
    }
    ta_oom_on_unwind(NULL, NULL);
    ta_module_dir_unlock(&dir);
    return ok;
}
