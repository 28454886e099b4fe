/*
 * test_unmeasured_kernel.c - a kernel flash_sizes.inc has no figure for
 * (one added to a header after scripts/flash_sizes.py last ran) is named
 * in the analysis as unmeasured, never counted as 0 silently (issue 27.2).
 * The model is examples/demo/demo.tflite, lowered as convert lowers it;
 * then its first call is renamed to a kernel no measurement knows.
 *
 *   test_unmeasured_kernel path/to/demo.tflite
 */
#include "lower/lower.h"
#include "model/model.h"
#include "passes/passes.h"
#include "report/analyze.h"

#include "check.h"

#include <string.h>

#define NEW_KERNEL "ta_not_yet_measured_s8"

/* The kernel stack basis of demo.tflite, its first call renamed to
   `rename` unless NULL; "" if the model does not lower. */
static const char *stack_basis(TaPool *pool, const char *path, const char *rename, int64_t *m55)
{
    TaDiag diag = {.pool = pool};
    TaModel *m = ta_read_tflite(pool, &diag, path);
    if (!m)
        return "";
    TaGraph *g = m->subgraphs.items[0];
    TaPassCtx pass = {.pool = pool, .diag = &diag, .graph = g, .model = m, .model_path = path};
    if (!ta_pass_check(&pass) || !ta_pass_mark_io(&pass))
        return "";
    TaLower L = {
        .pool = pool, .diag = &diag, .model = m, .graph = g, .model_path = path, .prefix = "t"};
    if (!ta_lower_graph(&L) || TA_OP(g, 0)->lowered.calls.len == 0)
        return "";
    if (rename) {
        TaKernelCall *c = TA_OP(g, 0)->lowered.calls.items[0];
        c->function = rename;
    }
    tinyaot_analysis a = {0};
    tinyaot_operator_analysis *ops = ta_alloc_array(pool, (size_t)g->ops.len, sizeof *ops);
    ta_kernel_stack_estimate(pool, g, &a, ops);
    *m55 = a.kernel_stack_m55;
    return a.kernel_stack_basis;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_unmeasured_kernel demo.tflite\n");
        return 2;
    }
    TaPool pool = {0};
    int64_t measured = 0, partly = 0;
    const char *all = stack_basis(&pool, argv[1], NULL, &measured);
    CHECK(measured > 0, "the demo's kernels have measured stacks");
    CHECK(*all && !strstr(all, "unmeasured"), "every kernel measured: %s", all);
    const char *basis = stack_basis(&pool, argv[1], NEW_KERNEL, &partly);
    CHECK(strstr(basis, "unmeasured, not counted") && strstr(basis, NEW_KERNEL),
          "the new kernel is named as unmeasured: %s", basis);
    CHECK(partly > 0, "the other kernels still count");
    ta_pool_free(&pool);
    return check_summary("test_unmeasured_kernel");
}
