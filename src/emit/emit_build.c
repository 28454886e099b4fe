/*
 * emit_build.c - the module's runtime copy and build files: CMake (also a
 * Zephyr library when built under Zephyr), a plain make fragment, and with
 * module.type: zephyr the Zephyr module (emit_zephyr.c).
 *
 * Runtime kernels build as their own static library, one kernel family per
 * object file, so two modules linked into one image share one copy of the
 * kernels both use.
 */
#include "emit.h"

#include "../config/resources.h"
#include "../util/template.h"
#include "escape.h"
#include "module_sections.h"

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
        for (int k = 0; k < op->lowered.calls.len; k++)
            if (!add_runtime_file(pool, diag, files,
                                  ((TaKernelCall *)op->lowered.calls.items[k])->header))
                return false;
    }
    if (files->len > 1)
        qsort(files->items, (size_t)files->len, sizeof(void *), compare_str);
    return true;
}

static bool copy_runtime(const TaEmitInput *in, const char *dir, TaVec *runtime_sources)
{
    TaVec files = {0};
    if (!ta_runtime_files(in->pool, in->diag, in->graph, &files))
        return false;
    for (int i = 0; i < files.len; i++) {
        const char *path = files.items[i];
        const TaResource *r = ta_resource_find(path);
        const char *out = ta_path_join(in->pool, dir, path);
        if (!ta_mkdir_p(in->diag, ta_dirname(in->pool, out)) ||
            !ta_write_file(in->diag, out, r->data, r->size))
            return false;
        size_t n = strlen(path);
        if (path[n - 1] == 'c')
            ta_vec_push(in->pool, runtime_sources, (void *)path);
    }
    return true;
}

/* Why every build file turns floating-point contraction off: a fused
   multiply-add rounds once where TFLite Micro's float reference kernels
   round twice. GCC contracts by default in GNU modes (arm-none-eabi-gcc
   emits vfma on the FPU cores), clang even in ISO modes. */
#define FP_CONTRACT_WHY                                                               \
    "# -ffp-contract=off: no fused multiply-add, so float kernels round every\n"      \
    "# product and sum as TFLite Micro's reference kernels do (bit-exact results);\n" \
    "# GCC (GNU modes) and clang contract a*b+c by default on cores with an FMA.\n"

/* name, NAME and model_file: what both build files are written with. */
static TaFields build_fields(const TaEmitInput *in)
{
    TaFields f = ta_fields(in->pool, NULL);
    ta_field(&f, "name", in->config->module_name);
    ta_field(&f, "NAME", ta_upper(in->pool, in->config->module_name));
    ta_field(&f, "model_file", ta_escape_line_comment(in->pool, ta_basename(in->model->path)));
    return f;
}

static void emit_cmake(const TaEmitInput *in, TaBuf *b, const TaVec *sources, const TaVec *runtime)
{
    TaFields f = build_fields(in);
    ta_template(b, &f,
                "# Generated by tinyaot from $model_file. Do not edit.\n"
                "# add_subdirectory() this folder and link the target `$name`.\n"
                "cmake_minimum_required(VERSION 3.13)\n\n"
                "set(${NAME}_SOURCES\n");
    for (int i = 0; i < sources->len; i++)
        ta_buf_printf(b, "    ${CMAKE_CURRENT_LIST_DIR}/%s\n", (const char *)sources->items[i]);
    ta_template(b, &f, ")\nset(${NAME}_RUNTIME_SOURCES\n");
    for (int i = 0; i < runtime->len; i++)
        ta_buf_printf(b, "    ${CMAKE_CURRENT_LIST_DIR}/%s\n", (const char *)runtime->items[i]);
    ta_buf_puts(b, ")\n");
    if (ta_target_has_sections(in->plan->target)) {
        ta_field(&f, "prefix", in->prefix);
        ta_template(
            b, &f,
            "# The GNU ld fragment: INCLUDE it inside SECTIONS of the linker script\n"
            "# and pass -L$${${NAME}_LINKER_DIR}. Cached, so the parent directory sees it.\n"
            "set(${NAME}_LINKER_DIR $${CMAKE_CURRENT_LIST_DIR} CACHE INTERNAL \"\")\n"
            "set(${NAME}_LINKER_FRAGMENT $${CMAKE_CURRENT_LIST_DIR}/${prefix}_sections.ld\n"
            "    CACHE INTERNAL \"\")\n");
    }
    ta_buf_puts(b, "\n");
    /* A module whose every operator is a user kernel (custom_operators) has
       no runtime C: CMake refuses a STATIC library without sources. */
    bool headers_only = runtime->len == 0;
    ta_field(&f, "runtime_kind", headers_only ? "INTERFACE" : "STATIC");
    ta_field(&f, "runtime_scope", headers_only ? "INTERFACE" : "PUBLIC");
    ta_field(&f, "standard_targets",
             headers_only ? in->config->module_name
                          : ta_format(in->pool, "%s %s_runtime", in->config->module_name,
                                      in->config->module_name));
    /* An INTERFACE library takes no PRIVATE compile options. */
    ta_field(&f, "runtime_fp_flags",
             headers_only
                 ? ""
                 : ta_format(in->pool,
                             "  target_compile_options(%s_runtime PRIVATE ${%s_FP_FLAGS})\n",
                             in->config->module_name, ta_upper(in->pool, in->config->module_name)));
    ta_template(b, &f,
                FP_CONTRACT_WHY
                "set(${NAME}_FP_FLAGS)\n"
                "if(CMAKE_C_COMPILER_ID MATCHES \"GNU|Clang\")\n"
                "  set(${NAME}_FP_FLAGS -ffp-contract=off)\n"
                "endif()\n\n"
                "if(COMMAND zephyr_library_named)\n"
                "  # Built as a Zephyr module.\n"
                "  zephyr_library_named($name)\n"
                "  zephyr_library_sources($${${NAME}_SOURCES} $${${NAME}_RUNTIME_SOURCES})\n"
                "  zephyr_include_directories($${CMAKE_CURRENT_LIST_DIR})\n"
                "  zephyr_library_compile_options($${${NAME}_FP_FLAGS})\n"
                "else()\n"
                "  add_library(${name}_runtime $runtime_kind $${${NAME}_RUNTIME_SOURCES})\n"
                "  target_include_directories(${name}_runtime $runtime_scope "
                "$${CMAKE_CURRENT_LIST_DIR})\n"
                "  add_library($name STATIC $${${NAME}_SOURCES})\n"
                "  target_include_directories($name PUBLIC $${CMAKE_CURRENT_LIST_DIR})\n"
                "  target_link_libraries($name PUBLIC ${name}_runtime)\n"
                "  if(NOT MSVC)\n"
                "    target_link_libraries(${name}_runtime $runtime_scope m)\n"
                "  endif()\n"
                "  target_compile_options($name PRIVATE $${${NAME}_FP_FLAGS})\n"
                "$runtime_fp_flags"
                "  set_target_properties($standard_targets PROPERTIES\n"
                "    C_STANDARD 99 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)\n"
                "endif()\n");
}

static void emit_make(const TaEmitInput *in, TaBuf *b, const TaVec *sources, const TaVec *runtime)
{
    TaFields f = build_fields(in);
    ta_template(b, &f,
                "# ${name}.mk - generated by tinyaot from $model_file. Do not edit.\n"
                "# In a Makefile:  include path/to/${name}.mk\n"
                "#   CFLAGS += $$(${NAME}_CFLAGS)\n"
                "#   SRCS   += $$(${NAME}_SRCS) $$(${NAME}_RUNTIME_SRCS)\n"
                "#   LDLIBS += $$(${NAME}_LDLIBS)\n"
                "# Targets with sections: LDFLAGS += $$(${NAME}_LDFLAGS), and the linker\n"
                "# script INCLUDEs $$(${NAME}_LINKER_FRAGMENT) inside SECTIONS.\n"
                "# With several modules, compile one module's runtime sources (or\n"
                "# archive each and link the archives) so each kernel is linked once.\n\n"
                "${NAME}_DIR := $$(dir $$(lastword $$(MAKEFILE_LIST)))\n"
                "${NAME}_SRCS :=");
    TaFields file = ta_fields(in->pool, &f);
    for (int i = 0; i < sources->len; i++) {
        ta_field(&file, "file", sources->items[i]);
        ta_template(b, &file, " \\\n    $$(${NAME}_DIR)$file");
    }
    ta_template(b, &f, "\n${NAME}_RUNTIME_SRCS :=");
    for (int i = 0; i < runtime->len; i++) {
        ta_field(&file, "file", runtime->items[i]);
        ta_template(b, &file, " \\\n    $$(${NAME}_DIR)$file");
    }
    ta_template(b, &f,
                "\n" FP_CONTRACT_WHY
                "${NAME}_CFLAGS := -I$$(${NAME}_DIR) -ffp-contract=off\n${NAME}_LDLIBS := -lm\n");
    if (ta_target_has_sections(in->plan->target)) {
        ta_field(&f, "prefix", in->prefix);
        ta_template(b, &f,
                    "# INCLUDE it inside SECTIONS of the linker script; -L finds it.\n"
                    "${NAME}_LINKER_FRAGMENT := $$(${NAME}_DIR)${prefix}_sections.ld\n"
                    "${NAME}_LDFLAGS := -L$$(${NAME}_DIR)\n");
    }
}

bool ta_emit_build_files(const TaEmitInput *in, const char *dir, TaVec *sources,
                         TaVec *runtime_sources)
{
    if (!copy_runtime(in, dir, runtime_sources))
        return false;
    TaBuf b = {0};
    emit_cmake(in, &b, sources, runtime_sources);
    bool ok = ta_emit_write(in, dir, "CMakeLists.txt", &b);
    ta_buf_free(&b);
    emit_make(in, &b, sources, runtime_sources);
    ok = ok && ta_emit_write(in, dir, ta_format(in->pool, "%s.mk", in->config->module_name), &b);
    ta_buf_free(&b);
    if (ok && strcmp(in->config->module_type, "zephyr") == 0)
        ok = ta_emit_zephyr(in, dir, sources, runtime_sources);
    if (ok && strcmp(in->config->module_type, "cmsis_pack") == 0)
        ok = ta_emit_cmsis_pack(in, dir, sources, runtime_sources);
    return ok;
}
