/*
 * convert.c - tinyaot_convert(): the whole pipeline in one place.
 *
 *   configuration -> read model -> check graph -> decode compressed
 *   constants -> lower operators
 *   -> drop dead tensors -> plan memory -> build views -> emit module
 *
 * All working memory comes from one pool freed at the end; the result
 * (diagnostics and views) has a pool of its own. Running out of memory
 * anywhere inside jumps back here (TaOomGuard, util.h) and fails the
 * conversion with TINYAOT_ERROR_MEMORY instead of ending the process.
 */
#include "../include/tinyaot/tinyaot.h"

#include "config/config.h"
#include "config/target.h"
#include "emit/emit.h"
#include "emit/module_dir.h"
#include "lower/lower.h"
#include "lower/weight_table.h"
#include "model/model.h"
#include "passes/passes.h"
#include "passes/row_streaming.h"
#include "passes/transforms.h"
#include "plan/plan.h"
#include "report/analyze.h"
#include "report/identity.h"
#include "report/views.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The result and the pool that owns everything it points to. */
typedef struct ResultBox {
    tinyaot_result result;
    TaPool pool;
} ResultBox;

const char *tinyaot_version(void)
{
    return TINYAOT_VERSION;
}

int tinyaot_abi_version(void)
{
    return TINYAOT_ABI_VERSION;
}

/* --dump-after: the pass whose graph is printed, and whether it ran. */
typedef struct Dump {
    const char *pass;
    bool done;
    TaPool *pool;
} Dump;

static bool same_pass(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a;
        char y = *b >= 'A' && *b <= 'Z' ? (char)(*b - 'A' + 'a') : *b;
        if (x != y)
            return false;
    }
    return *a == *b;
}

static const char *const fixed_passes[] = {"read", "check", "lower", "drop_dead"};

static bool known_pass(const char *name)
{
    for (size_t i = 0; i < TA_COUNT_OF(fixed_passes); i++)
        if (same_pass(name, fixed_passes[i]))
            return true;
    for (int i = 0; ta_transform_name(i); i++)
        if (same_pass(name, ta_transform_name(i)))
            return true;
    return false;
}

static void dump_after(void *user, const char *pass, const TaGraph *g)
{
    Dump *d = user;
#ifndef NDEBUG
    /* Debug builds (the sanitized tests, the fuzz targets) hold every pass
       after the model checks to the graph's invariants (src/ir/verify.c). */
    if (strcmp(pass, "read") != 0)
        ta_graph_verify(d->pool, g, pass);
#endif
    if (!d->pass || !same_pass(d->pass, pass))
        return;
    TaBuf text = {0};
    ta_graph_dump(&text, g, pass);
    fputs(text.data, stdout);
    fflush(stdout);
    ta_buf_free(&text);
    d->done = true;
}

/* --verbose 2: the processor time a stage took, then the clock restarts. */
static void stage_time(TaDiag *diag, const char *stage, clock_t *since)
{
    clock_t now = clock();
    ta_debug(diag, "%s took %.1f ms of processor time", stage,
             (double)(now - *since) * 1000.0 / CLOCKS_PER_SEC);
    *since = now;
}

static const char *archive_name(TaModuleArchive archive)
{
    return archive == TA_ARCHIVE_ZIP    ? "zip archive"
           : archive == TA_ARCHIVE_PACK ? "CMSIS-Pack archive"
                                        : "directory";
}

/* --verbose 3: one line per operator as lowered, and one per region. */
static void describe_operators(TaDiag *diag, const TaGraph *g)
{
    if (!ta_diag_wants(diag, TA_DIAG_DETAIL))
        return;
    for (int i = 0; i < g->ops.len; i++) {
        const TaOp *op = TA_OP(g, i);
        TaBuf b = {0};
        ta_buf_printf(&b, "operator %d %s (%s):", op->index, op->type,
                      op->lowered.symbol ? op->lowered.symbol : "-");
        for (int k = 0; k < op->num_inputs; k++)
            ta_buf_printf(&b, "%s%s", k ? ", " : " in ", op->inputs[k] ? op->inputs[k]->id : "-");
        for (int k = 0; k < op->num_outputs; k++)
            ta_buf_printf(&b, "%s%s", k ? ", " : "; out ", op->outputs[k]->id);
        for (int k = 0; k < op->lowered.calls.len; k++)
            ta_buf_printf(&b, "%s%s", k ? ", " : "; calls ",
                          ((const TaKernelCall *)op->lowered.calls.items[k])->function);
        if (op->lowered.has_macs)
            ta_buf_printf(&b, "; %lld MACs", (long long)op->lowered.macs);
        ta_detail(diag, "%s", b.data);
        ta_buf_free(&b);
    }
}

static void describe_plan(TaDiag *diag, const TaPlan *plan)
{
    size_t scratch = 0, lower_bound = 0;
    for (int i = 0; i < plan->regions.len; i++) {
        const TaRegion *r = plan->regions.items[i];
        if (r->role == TA_REGION_SCRATCH) {
            scratch += r->size;
            lower_bound += r->lower_bound;
        }
        ta_detail(diag, "region %d %s: %s %s, %zu bytes, aligned to %zu, %d tensors", r->id,
                  r->name, ta_memory_name(r->memory), ta_role_name(r->role), r->size, r->alignment,
                  r->tensors.len);
    }
    ta_stage(diag, "planned memory: %d arena regions, scratch %zu bytes (lower bound %zu)",
             plan->regions.len, scratch, lower_bound);
}

/* The whole pipeline; `analyze_only` stops before the module is written
   (and before module.path is looked at), for tinyaot_analyze(). */
static tinyaot_status run(const tinyaot_args *args, TaPool *pool, TaDiag *diag, ResultBox *box,
                          bool analyze_only)
{
    Dump dump = {.pass = args->dump_after, .pool = pool};
    if (dump.pass && !known_pass(dump.pass)) {
        TaBuf names = {0};
        for (size_t i = 0; i < 2; i++)
            ta_buf_printf(&names, "%s, ", fixed_passes[i]);
        for (int i = 0; ta_transform_name(i); i++)
            if (!ta_transform_after_lowering(i))
                ta_buf_printf(&names, "%s, ", ta_transform_name(i));
        ta_buf_printf(&names, "%s, %s", fixed_passes[2], fixed_passes[3]);
        for (int i = 0; ta_transform_name(i); i++)
            if (ta_transform_after_lowering(i))
                ta_buf_printf(&names, ", %s", ta_transform_name(i));
        ta_error(diag, "dump_after: unknown pass '%s' (the passes: %s)", dump.pass, names.data);
        ta_buf_free(&names);
        return TINYAOT_ERROR_ARGUMENT;
    }
    const char **keys = ta_alloc_array(pool, args->num_options + 1, sizeof(char *));
    const char **values = ta_alloc_array(pool, args->num_options + 1, sizeof(char *));
    for (size_t i = 0; i < args->num_options; i++) {
        if (!args->options[i].key || !args->options[i].value) {
            ta_error(diag, "option %zu has no key or no value", i);
            return TINYAOT_ERROR_ARGUMENT;
        }
        keys[i] = args->options[i].key;
        values[i] = args->options[i].value;
    }
    TaConfig *cfg = ta_config_load_ex(pool, diag, args->config_path, keys, values,
                                      (int)args->num_options, !analyze_only);
    if (!cfg)
        return TINYAOT_ERROR_CONFIG;
    cfg->force = args->force != 0;
    clock_t clock_start = clock();
    ta_debug(diag,
             "configuration: model.path %s, module.path %s (%s), module.type %s, prefix %s, "
             "platform %s",
             cfg->model_path, cfg->module_path ? cfg->module_path : "-", archive_name(cfg->archive),
             cfg->module_type, cfg->module_prefix, cfg->platform_name);
    /* Refuse an unsafe module.path (and clean up after killed runs) before
       the work; ta_emit checks again before it replaces anything. */
    TaModuleDir out;
    if (!analyze_only) {
        ta_module_dir_init(&out, pool, diag, cfg);
        bool replaceable = ta_module_dir_prepare(&out);
        ta_module_dir_unlock(&out);
        if (!replaceable)
            return TINYAOT_ERROR_OUTPUT;
    }
    TaTarget *target = ta_target_load(pool, diag, cfg->platform_name);
    if (!target)
        return TINYAOT_ERROR_CONFIG;

    TaModel *model = ta_read_tflite(pool, diag, cfg->model_path);
    if (!model)
        return TINYAOT_ERROR_MODEL;
    if (cfg->model_subgraph >= model->subgraphs.len) {
        ta_error(diag, "%s: model.subgraph %d does not exist (the model has %d)", cfg->model_path,
                 cfg->model_subgraph, model->subgraphs.len);
        return TINYAOT_ERROR_CONFIG;
    }
    TaGraph *graph = model->subgraphs.items[cfg->model_subgraph];
    ta_stage(diag, "read %s: subgraph %d, %d operators, %d tensors, schema version %u",
             cfg->model_path, cfg->model_subgraph, graph->ops.len, graph->tensors.len,
             model->version);
    stage_time(diag, "reading", &clock_start);
    dump_after(&dump, "read", graph);
    const TaWeightsOptions weights = {cfg->weights_format, cfg->weights_dense,
                                      cfg->num_weights_dense};
    TaPassCtx pass = {.pool = pool,
                      .diag = diag,
                      .graph = graph,
                      .model = model,
                      .model_path = cfg->model_path,
                      .weights = &weights,
                      .after = dump_after,
                      .after_user = &dump,
                      .row_streaming = cfg->row_streaming};
    if (!ta_pass_int4_weights(&pass) || !ta_pass_check(&pass))
        return TINYAOT_ERROR_MODEL;
    ta_pass_mark_io(&pass);
    if (!ta_pass_inline_control_flow(&pass))
        return TINYAOT_ERROR_UNSUPPORTED;
    if (!ta_pass_decode_constants(&pass))
        return TINYAOT_ERROR_MODEL;
    dump_after(&dump, "check", graph);
    if (!ta_run_transforms(&pass, cfg, false))
        return TINYAOT_ERROR_CONFIG;

    TaLower lower = {.pool = pool,
                     .diag = diag,
                     .model = model,
                     .graph = graph,
                     .model_path = cfg->model_path,
                     .prefix = cfg->module_prefix,
                     .custom_operators = &cfg->custom_operators,
                     .helium = ta_core_has_helium(target->core),
                     .dsp = ta_core_has_dsp(target->core)};
    int lines_before_lowering = diag->lines.len;
    if (!ta_lower_graph(&lower)) {
        if (analyze_only || args->result_views)
            box->result.analysis = ta_build_unsupported(&box->pool, target, diag,
                                                        lines_before_lowering);
        return TINYAOT_ERROR_UNSUPPORTED;
    }
    if (!ta_lower_weight_tables(&lower, &weights))
        return TINYAOT_ERROR_CONFIG;
    dump_after(&dump, "lower", graph);
    ta_pass_drop_dead(&pass);
    dump_after(&dump, "drop_dead", graph);
    if (!ta_run_transforms(&pass, cfg, true))
        return TINYAOT_ERROR_CONFIG;
    if (cfg->push_input_rows && cfg->keep_inputs) {
        ta_error(diag,
                 "%s: module.input_rows: push: memory.keep_inputs: true cannot keep an input "
                 "that is never whole in RAM",
                 cfg->model_path);
        return TINYAOT_ERROR_CONFIG;
    }
    const TaRowStreamingOptions rows = {cfg->row_streaming,
                                        cfg->row_streaming_test_shortfall,
                                        cfg->row_streaming_loops,
                                        cfg->push_input_rows,
                                        cfg->row_streaming_test_share_all,
                                        cfg->row_streaming_test_share_early,
                                        cfg->row_streaming_test_unchecked};
    if (!ta_row_streaming(&pass, &rows))
        return TINYAOT_ERROR_PLAN;
    ta_stage(diag, "lowered: %d operators", graph->ops.len);
    describe_operators(diag, graph);
    stage_time(diag, "checking, transforming and lowering", &clock_start);
    if (dump.pass && !dump.done)
        ta_warn(diag, "dump_after: %s is off in this configuration; nothing was printed",
                dump.pass);

    TaPlanInput plan_in = {.pool = pool,
                           .diag = diag,
                           .graph = graph,
                           .config = cfg,
                           .target = target,
                           .prefix = cfg->module_prefix};
    TaPlan *plan = ta_row_streaming_plan(&plan_in);
    if (!plan)
        return TINYAOT_ERROR_PLAN;
    describe_plan(diag, plan);
    stage_time(diag, "planning", &clock_start);

    if (analyze_only) {
        ta_build_views(&box->pool, &box->result, graph, plan);
        box->result.analysis = ta_build_analysis(&box->pool, graph, plan);
        box->result.identity = ta_build_identity(&box->pool, cfg, model, graph, plan);
        return TINYAOT_OK;
    }
    /* The result first: once the module is swapped in, nothing is left
       that could run out of memory and fail a conversion that wrote it. */
    box->result.module_path = ta_strdup(&box->pool, cfg->module_path);
    if (args->result_views) {
        ta_build_views(&box->pool, &box->result, graph, plan);
        box->result.analysis = ta_build_analysis(&box->pool, graph, plan);
        box->result.identity = ta_build_identity(&box->pool, cfg, model, graph, plan);
    }
    TaEmitInput emit_in = {.pool = pool,
                           .diag = diag,
                           .config = cfg,
                           .model = model,
                           .graph = graph,
                           .plan = plan,
                           .prefix = cfg->module_prefix};
    if (!ta_emit(&emit_in)) {
        box->result = (tinyaot_result){0};
        return TINYAOT_ERROR_OUTPUT;
    }
    ta_stage(diag, "wrote %s (%s, module.type %s)", cfg->module_path, archive_name(cfg->archive),
             cfg->module_type);
    stage_time(diag, "writing", &clock_start);
    return TINYAOT_OK;
}

/* run() with the way back when memory runs out; nothing in this frame
   changes between setjmp and longjmp. */
static tinyaot_status run_guarded(const tinyaot_args *args, TaPool *pool, TaDiag *diag,
                                  ResultBox *box, TaOomGuard *guard, bool analyze_only)
{
    if (setjmp(guard->jump) != 0)
        return TINYAOT_ERROR_MEMORY;
    return run(args, pool, diag, box, analyze_only);
}

static void report_argument_null(TaDiag *diag, TaOomGuard *guard, tinyaot_status *status,
                                 const char *entry)
{
    if (setjmp(guard->jump) == 0)
        ta_error(diag, "%s: args is NULL", entry);
    else
        *status = TINYAOT_ERROR_MEMORY;
}

/* The diagnostic of a failed allocation; if even that finds no memory, the
   status alone tells. */
static void report_out_of_memory(TaDiag *diag, TaOomGuard *guard)
{
    if (setjmp(guard->jump) == 0)
        ta_error(diag, "out of memory: an allocation of %zu bytes failed", guard->failed_size);
}

static tinyaot_status convert_or_analyze(const tinyaot_args *args, tinyaot_result **result,
                                         bool analyze_only)
{
    if (result)
        *result = NULL;
    ResultBox *box = calloc(1, sizeof *box);
    if (!box)
        return TINYAOT_ERROR_MEMORY;
    if (result)
        *result = &box->result;
    TaPool pool = {0};
    TaDiag diag = {.pool = &box->pool};
    TaOomGuard guard;
    ta_oom_enter(&guard);
    tinyaot_status status;
    if (!args) {
        status = TINYAOT_ERROR_ARGUMENT;
        report_argument_null(&diag, &guard, &status,
                             analyze_only ? "tinyaot_analyze" : "tinyaot_convert");
    } else {
        diag.sink = args->diagnostic;
        diag.sink_user = args->user;
        diag.warnings_are_errors = args->strict != 0;
        diag.verbose = args->verbose < 0 ? 0 : args->verbose > 3 ? 3 : args->verbose;
        status = run_guarded(args, &pool, &diag, box, &guard, analyze_only);
        /* Strict mode: a warning turned error fails the conversion even
           when the stage that issued it carried on. */
        if (status == TINYAOT_OK && diag.errors)
            status = TINYAOT_ERROR_PLAN;
    }
    ta_pool_free(&pool);
    if (status == TINYAOT_ERROR_MEMORY) {
        /* Views half built when memory ran out are not a result. */
        box->result = (tinyaot_result){0};
        report_out_of_memory(&diag, &guard);
    }
    ta_oom_leave(&guard);
    box->result.status = status;
    box->result.diagnostics = (const char *const *)diag.lines.items;
    box->result.num_diagnostics = (size_t)diag.lines.len;
    if (!result)
        tinyaot_result_free(&box->result);
    return status;
}

tinyaot_status tinyaot_convert(const tinyaot_args *args, tinyaot_result **result)
{
    return convert_or_analyze(args, result, false);
}

tinyaot_status tinyaot_analyze(const tinyaot_args *args, tinyaot_result **result)
{
    return convert_or_analyze(args, result, true);
}

void tinyaot_result_free(tinyaot_result *result)
{
    if (!result)
        return;
    ResultBox *box = (ResultBox *)result; /* result is the first member */
    ta_pool_free(&box->pool);
    free(box);
}

const tinyaot_placement_view *tinyaot_result_placement(const tinyaot_result *result,
                                                       const char *tensor_id)
{
    for (size_t i = 0; result && tensor_id && i < result->num_placements; i++)
        if (strcmp(result->placements[i].tensor_id, tensor_id) == 0)
            return &result->placements[i];
    return NULL;
}
