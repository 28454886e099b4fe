/*
 * test_graph_verify.c - the graph checker debug builds run after every pass
 * (src/ir/verify.c, issue 27.4): the demo model's graph passes it as read
 * and checked, and each deliberately broken copy stops tinyaot (ta_bug
 * aborts) - an operator reading a tensor before it is written, two
 * operators writing one tensor, an operator using a removed tensor.
 *
 *   test_graph_verify path/to/demo.tflite
 */
#include "model/model.h"
#include "passes/passes.h"

#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

enum Breakage { INTACT, READ_BEFORE_WRITE, TWO_WRITERS, REMOVED_TENSOR };

static void break_graph(TaGraph *g, enum Breakage how)
{
    TaOp *first = TA_OP(g, 0), *second = TA_OP(g, 1);
    switch (how) {
    case INTACT: break;
    case READ_BEFORE_WRITE: /* the second operator runs first */
        g->ops.items[0] = second;
        g->ops.items[1] = first;
        break;
    case TWO_WRITERS: second->outputs[0] = first->outputs[0]; break;
    case REMOVED_TENSOR: first->outputs[0]->removed = true; break;
    }
}

/* Runs the checker on the broken graph in a child; whether it aborted. */
static bool aborts(const char *path, enum Breakage how)
{
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        fclose(stderr); /* the bug report is expected */
        TaPool pool = {0};
        TaDiag diag = {.pool = &pool};
        TaModel *m = ta_read_tflite(&pool, &diag, path);
        if (!m)
            _exit(3);
        TaGraph *g = m->subgraphs.items[0];
        TaPassCtx pass = {.pool = &pool, .diag = &diag, .graph = g, .model = m, .model_path = path};
        if (!ta_pass_check(&pass) || !ta_pass_mark_io(&pass))
            _exit(3);
        if (g->ops.len < 2)
            _exit(3);
        break_graph(g, how);
        ta_graph_verify(&pool, g, "test");
        _exit(0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
        printf("FAIL: the demo model did not read and check\n");
        return !how; /* counted as a failure either way */
    }
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_graph_verify demo.tflite\n");
        return 2;
    }
    static const char *const names[] = {"the intact graph", "a read before the write",
                                        "two writers of one tensor", "a removed tensor in use"};
    int failures = 0;
    for (int how = INTACT; how <= REMOVED_TENSOR; how++) {
        bool stopped = aborts(argv[1], (enum Breakage)how);
        if (stopped != (how != INTACT)) {
            printf("FAIL: %s %s\n", names[how], stopped ? "stopped tinyaot" : "went unnoticed");
            failures++;
        }
    }
    printf(failures ? "graph verify: %d failures\n" : "graph verify: ok\n", failures);
    return failures != 0;
}
