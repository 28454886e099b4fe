/*
 * test_lowering_contract.c - deliberately broken lowerings (issue 27): a
 * lowering that returns false without a diagnostic is an internal error
 * (ta_bug aborts: the process dies, no module is written), and a kernel
 * call with a mistyped name, a missing argument, two arguments swapped or
 * a constant where the kernel writes, or no call at all without saying
 * the operator needs none, fails the conversion with one line naming the
 * operator. The model is examples/demo/demo.tflite;
 * its first operator (QUANTIZE) gets each broken definition in turn.
 *
 *   test_lowering_contract path/to/demo.tflite
 */
#include "lower/lower.h"
#include "model/model.h"
#include "passes/passes.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int failures;
static char last_error[512];

static void keep_last(void *user, int level, const char *line)
{
    (void)user;
    (void)level;
    snprintf(last_error, sizeof last_error, "%s", line);
}

static bool silent_false(TaLower *L, TaOp *op)
{
    (void)L;
    (void)op;
    return false;
}

static bool mistyped_kernel(TaLower *L, TaOp *op)
{
    TaKernelCall *c = ta_call(L, op, "ta_quantise_s8", "runtime/kernels/ta_quantize.h");
    ta_call_arg(L, c, op->inputs[0]);
    ta_call_arg(L, c, op->outputs[0]);
    return true;
}

static bool missing_argument(TaLower *L, TaOp *op)
{
    TaKernelCall *c = ta_call(L, op, "ta_relu_s8", "runtime/kernels/ta_relu.h");
    ta_call_arg(L, c, op->inputs[0]); /* the output is missing */
    return true;
}

/* Returns true having made no call and declared nothing. */
static bool forgot_the_call(TaLower *L, TaOp *op)
{
    (void)L;
    (void)op;
    return true;
}

/* QUANTIZE's float input and int8 output passed the wrong way round. */
static bool swapped_arguments(TaLower *L, TaOp *op)
{
    TaKernelCall *c = ta_call(L, op, "ta_quantize_f32_s8", "runtime/kernels/ta_quantize.h");
    ta_call_arg(L, c, op->outputs[0]);
    ta_call_arg(L, c, op->inputs[0]);
    return true;
}

/* The next operator's weights (a constant) as the tensor the kernel writes. */
static bool constant_written(TaLower *L, TaOp *op)
{
    TaKernelCall *c = ta_call(L, op, "ta_quantize_f32_s8", "runtime/kernels/ta_quantize.h");
    ta_call_arg(L, c, op->inputs[0]);
    ta_call_arg(L, c, TA_OP(L->graph, 1)->inputs[1]);
    return true;
}

/* Lowers the model with operator 0 defined by `def`; the error count. */
static int lower_with(const char *path, const TaOpDef *def)
{
    TaPool pool = {0};
    TaDiag diag = {.pool = &pool, .sink = keep_last};
    last_error[0] = '\0';
    int errors = -1;
    TaModel *m = ta_read_tflite(&pool, &diag, path);
    if (m) {
        TaGraph *g = m->subgraphs.items[0];
        TaPassCtx pass = {.pool = &pool, .diag = &diag, .graph = g, .model = m, .model_path = path};
        if (ta_pass_check(&pass) && ta_pass_mark_io(&pass)) {
            TA_OP(g, 0)->def = def;
            TaLower L = {.pool = &pool,
                         .diag = &diag,
                         .model = m,
                         .graph = g,
                         .model_path = path,
                         .prefix = "t"};
            ta_lower_graph(&L);
            errors = diag.errors;
        }
    }
    ta_pool_free(&pool);
    return errors;
}

/* `count` errors, the last one holding `wanted`. */
static void expect_errors(const char *path, const TaOpDef *def, int count, const char *wanted)
{
    int errors = lower_with(path, def);
    if (errors != count || !strstr(last_error, wanted)) {
        printf("FAIL: %d errors, last '%s'; wanted one with '%s'\n", errors, last_error, wanted);
        failures++;
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_lowering_contract demo.tflite\n");
        return 2;
    }
    const TaOpDef silent = {NULL, silent_false};
    pid_t child = fork();
    if (child == 0) {
        fclose(stderr); /* the bug report is expected */
        lower_with(argv[1], &silent);
        _exit(0); /* reached only if the silent false went unnoticed */
    }
    int status = 0;
    waitpid(child, &status, 0);
    if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGABRT) {
        printf("FAIL: a lowering returning false silently did not stop the conversion\n");
        failures++;
    }
    const TaOpDef mistyped = {NULL, mistyped_kernel};
    expect_errors(argv[1], &mistyped, 1,
                  "operator 0 (QUANTIZE): tinyaot bug: the lowering calls "
                  "ta_quantise_s8, which the runtime lacks");
    const TaOpDef missing = {NULL, missing_argument};
    expect_errors(argv[1], &missing, 1, "passes 1 tensor arguments to ta_relu_s8, which takes 2");
    const TaOpDef forgot = {NULL, forgot_the_call};
    expect_errors(argv[1], &forgot, 1,
                  "tinyaot bug: the lowering of QUANTIZE made no kernel call and did not "
                  "declare that the operator needs none");
    const TaOpDef swapped = {NULL, swapped_arguments};
    expect_errors(argv[1], &swapped, 2, /* each of the two, the last one here */
                  "argument 1 of ta_quantize_f32_s8 (declared w:int8_t) is tensor 0 (float32), "
                  "of another element type");
    const TaOpDef written = {NULL, constant_written};
    expect_errors(argv[1], &written, 1,
                  "argument 1 of ta_quantize_f32_s8 (declared w:int8_t) is tensor 6 (int8), a "
                  "constant where the kernel writes");
    printf(failures ? "lowering contract: %d failures\n" : "lowering contract: ok\n", failures);
    return failures != 0;
}
