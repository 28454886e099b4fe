/*
 * emit_cmsis_pack.c - module.type: cmsis_pack: the CMSIS-Pack description
 * tinyaot.<name>.pdsc (Open-CMSIS-Pack PACK.xsd, schema 1.7) at the top of
 * the module. It declares one component, Machine Learning / tinyaot /
 * <name>, whose files are every header and source of the module: the
 * module's folder as the include path (the module's own #include lines are
 * relative to it) and RTE_TINYAOT_<NAME> in RTE_Components.h. The kernels
 * need no other define: they pick their SIMD path from the compiler's own
 * (__ARM_FEATURE_MVE, __ARM_FEATURE_DSP). With module.path ending .pack the
 * whole module is the pack archive (module_archive.h).
 */
#include "emit.h"

#include "../../include/tinyaot/tinyaot.h"
#include "../lower/runtime_files.h"
#include "../util/template.h"
#include "emit_identity.h"
#include "escape.h"
#include "module_marker.h"
#include "module_sections.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The target's core as a pack's Dcore, or NULL for the host. */
static const char *pack_core(TaPool *pool, const char *core)
{
    if (!core || strncmp(core, "cortex-", 7) != 0)
        return NULL;
    char *name = ta_format(pool, "Cortex-%s", core + 7);
    for (char *p = name + 7; *p; p++)
        *p = (char)toupper((unsigned char)*p);
    return name;
}

/* model.version as a pack version (MAJOR.MINOR.PATCH): "3" is 3.0.0,
   "1.2" 1.2.0; a version that is not one to three numbers is refused. */
static const char *pack_version(const TaEmitInput *in, const char *version)
{
    long parts[3] = {0, 0, 0};
    int n = 0;
    const char *p = version;
    while (n < 3 && isdigit((unsigned char)*p)) {
        char *end;
        parts[n++] = strtol(p, &end, 10);
        p = end;
        if (*p != '.')
            break;
        p++;
    }
    if (n == 0 || *p != '\0' || p[-1] == '.' || parts[0] > 999999 || parts[1] > 999999 ||
        parts[2] > 999999) {
        ta_error(in->diag,
                 "module.type cmsis_pack: model.version '%s' is not a pack version (one to "
                 "three numbers: 1, 1.2 or 1.2.3)",
                 version);
        return NULL;
    }
    return ta_format(in->pool, "%ld.%ld.%ld", parts[0], parts[1], parts[2]);
}

static void file_line(TaBuf *b, TaPool *pool, const char *category, const char *name)
{
    ta_buf_printf(b, "        <file category=\"%s\" name=\"%s\"/>\n", category,
                  ta_escape_markup(pool, name));
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && strcmp(s + n - t, tail) == 0;
}

bool ta_emit_cmsis_pack(const TaEmitInput *in, const char *dir, const TaVec *sources,
                        const TaVec *runtime_sources)
{
    TaModuleIdentity id = ta_module_identity(in->pool, in->config, in->model, in->graph, in->plan);
    const char *version = pack_version(in, id.model_version);
    if (!version)
        return false;
    TaVec runtime = {0};
    if (!ta_runtime_files(in->pool, in->diag, in->graph, &runtime))
        return false;
    const char *core = pack_core(in->pool, in->plan->target->core);
    TaFields f = ta_fields(in->pool, NULL);
    const char *name = in->config->module_name;
    ta_field(&f, "name", name);
    ta_field(&f, "NAME", ta_upper(in->pool, name));
    ta_field(&f, "version", version);
    ta_field(&f, "model_name", ta_escape_markup(in->pool, id.model_name));
    ta_field(&f, "model_file", ta_escape_markup(in->pool, ta_basename(in->model->path)));
    ta_field(&f, "model_file_in_comment",
             ta_escape_markup_comment(in->pool, ta_basename(in->model->path)));
    ta_field(&f, "description",
             ta_escape_markup(in->pool, *id.model_description
                                            ? id.model_description
                                            : "a model module written by tinyaot"));
    ta_field(&f, "compiler", ta_escape_markup(in->pool, id.compiler_version));
    ta_field(&f, "plan_hash", id.plan_hash_hex);
    ta_field(&f, "core", core ? core : "");
    ta_field(&f, "target", ta_escape_markup(in->pool, in->plan->target->name));
    TaBuf b = {0};
    ta_template(
        &b, &f,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<!-- tinyaot.${name}.pdsc: written by tinyaot $compiler from $model_file_in_comment"
        " (plan $plan_hash). Do not edit. -->\n"
        "<package schemaVersion=\"1.7.36\""
        " xmlns:xs=\"http://www.w3.org/2001/XMLSchema-instance\"\n"
        "         xs:noNamespaceSchemaLocation=\"PACK.xsd\">\n"
        "  <vendor>tinyaot</vendor>\n"
        "  <name>$name</name>\n"
        "  <description>$model_name: $description</description>\n"
        "  <!-- A local pack: no download server. -->\n"
        "  <url>file:///</url>\n"
        "  <releases>\n"
        "    <release version=\"$version\">$model_name, converted by tinyaot $compiler for"
        " $target</release>\n"
        "  </releases>\n"
        "  <keywords>\n"
        "    <keyword>tinyaot</keyword>\n"
        "    <keyword>Machine Learning</keyword>\n"
        "  </keywords>\n");
    if (core)
        ta_template(&b, &f,
                    "  <conditions>\n"
                    "    <condition id=\"${name}_core\">\n"
                    "      <description>the core the module was converted for</description>\n"
                    "      <require Dcore=\"$core\"/>\n"
                    "    </condition>\n"
                    "  </conditions>\n");
    ta_template(&b, &f,
                "  <!-- Build the sources with -ffp-contract=off (GCC, clang, armclang):\n"
                "       no fused multiply-add, so float kernels round as TFLite Micro's do. -->\n"
                "  <components>\n"
                "    <component Cclass=\"Machine Learning\" Cgroup=\"tinyaot\" Csub=\"$name\""
                " Cversion=\"$version\"");
    if (core)
        ta_template(&b, &f, " condition=\"${name}_core\"");
    ta_template(&b, &f,
                ">\n"
                "      <description>$model_name ($model_file) for $target</description>\n"
                "      <RTE_Components_h>#define RTE_TINYAOT_$NAME</RTE_Components_h>\n"
                "      <files>\n"
                "        <file category=\"include\" name=\"./\"/>\n");
    const char *p = in->prefix;
    /* The module's own headers are written by now (emit.c): list what is
       there rather than name them again here. */
    TaVec *top = ta_list_dir(in->pool, dir);
    if (!top) {
        ta_error(in->diag, "%s: cannot list the module's files: %s", dir, strerror(errno));
        ta_buf_free(&b);
        return false;
    }
    for (int i = 0; i < top->len; i++)
        if (ends_with(top->items[i], ".h"))
            file_line(&b, in->pool, "header", top->items[i]);
    for (int i = 0; i < runtime.len; i++)
        if (ends_with(runtime.items[i], ".h"))
            file_line(&b, in->pool, "header", runtime.items[i]);
    for (int i = 0; i < sources->len; i++)
        file_line(&b, in->pool, "sourceC", sources->items[i]);
    for (int i = 0; i < runtime_sources->len; i++)
        file_line(&b, in->pool, "sourceC", runtime_sources->items[i]);
    /* A fragment the application's linker script INCLUDEs, not a linker script. */
    if (ta_target_has_sections(in->plan->target))
        file_line(&b, in->pool, "other", ta_format(in->pool, "%s_sections.ld", p));
    ta_buf_puts(&b, "      </files>\n    </component>\n  </components>\n</package>\n");
    bool ok = ta_emit_write(in, dir, ta_format(in->pool, "tinyaot.%s.pdsc", name), &b);
    ta_buf_free(&b);
    return ok;
}
