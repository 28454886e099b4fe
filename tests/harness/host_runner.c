/*
 * host_runner.c - runs a generated module on the host over input files.
 *
 * Build it together with a module's sources, naming the module's prefix:
 *
 *   cc -std=c99 -DTA_PREFIX=kws -I out/kws -I tests/harness tests/harness/host_runner.c \
 *      <every .c file of out/kws, recursively> -lm
 *
 *   runner [--module N] [--module-dir DIR] [--reinit-each] INPUTS OUTPUTS RUNS
 *
 * INPUTS holds RUNS records, each the bytes of every model input in order;
 * OUTPUTS receives RUNS records of every output. Runs follow each other
 * without re-initialization, as on a device, so stateful models carry their
 * state (--reinit-each re-initializes before every run). For a module
 * converted with memory.allocate_arenas: false the runner allocates every
 * region itself and loads the constant sidecars from DIR.
 *
 * Without TA_PREFIX, a generated file provides ta_runner_modules[] (many
 * modules in one program) and --module picks one; --batch FILE runs many
 * jobs in one process, one per line: "MODULE MODULE_DIR INPUTS OUTPUTS RUNS".
 */
#define _POSIX_C_SOURCE 200112L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef TA_PREFIX
#define TA_CAT2(a, b) a##b
#define TA_CAT(a, b) TA_CAT2(a, b)
#define TA_STR2(x) #x
#define TA_STR(x) TA_STR2(x)
#include TA_STR(TA_CAT(TA_PREFIX, _model.h))
#include "host_runner.h"
#define TA_RUNNER_MODULE_X(P) TA_RUNNER_MODULE(P)
#define TA_RUNNER_PUSH_MODULE_X(P) TA_RUNNER_PUSH_MODULE(P)
#if TA_CAT(TA_PREFIX, _model_push_input_rows) /* module.input_rows: push */
TA_RUNNER_PUSH_MODULE_X(TA_PREFIX);
#else
TA_RUNNER_MODULE_X(TA_PREFIX);
#endif
const ta_runner_module_t *const ta_runner_modules[] = {&TA_CAT(TA_PREFIX, _runner)};
const int ta_runner_num_modules = 1;
#else
#include "host_runner.h"
#endif

static int fail(const char *what, int status)
{
    fprintf(stderr, "runner: %s failed with status %d (%s)\n", what, status,
            ta_status_name(status));
    return 1;
}

/* Binds every region of a module that does not own its arenas. The buffers
   live until the program ends. */
static int bind_regions(const ta_module_desc_t *m, const char *dir)
{
    for (unsigned r = 0; r < m->num_regions; r++) {
        size_t align = m->alignments[r] < sizeof(void *) ? sizeof(void *) : m->alignments[r];
        void *buf = NULL;
        if (posix_memalign(&buf, align, m->sizes[r] ? m->sizes[r] : 1) != 0)
            return fail("posix_memalign", TA_ERR_BAD_ARGUMENT);
        memset(buf, 0, m->sizes[r]);
        if (m->sidecar_files[r]) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", dir, m->sidecar_files[r]);
            FILE *f = fopen(path, "rb");
            if (!f) {
                fprintf(stderr, "runner: cannot open sidecar %s\n", path);
                return 1;
            }
            /* The sidecar holds the data only: any address-zero guard
               comes first in the region, so the data fills its end. */
            fseek(f, 0, SEEK_END);
            long n = ftell(f);
            fseek(f, 0, SEEK_SET);
            size_t guard = n >= 0 && (size_t)n <= m->sizes[r] ? m->sizes[r] - (size_t)n : 0;
            if (n < 0 || (size_t)n > m->sizes[r] ||
                fread((char *)buf + guard, 1, (size_t)n, f) != (size_t)n) {
                fclose(f);
                fprintf(stderr, "runner: sidecar %s does not fit region %u\n", path, r);
                return 1;
            }
            fclose(f);
        }
        int status = m->bind_arena((int)r, buf, m->sizes[r]);
        if (status != TA_OK)
            return fail("bind_arena", status);
    }
    return 0;
}

static int run_module(const ta_runner_module_t *m, const char *dir, int reinit_each,
                      const char *in_path, const char *out_path, long runs)
{
    FILE *in = fopen(in_path, "rb");
    FILE *out = fopen(out_path, "wb");
    if (!in || !out) {
        fprintf(stderr, "runner: cannot open %s or %s\n", in_path, out_path);
        return 1;
    }
    if (m->desc->bind_arena && bind_regions(m->desc, dir) != 0)
        return 1;
    int status = m->init();
    if (status != TA_OK)
        return fail("model_init", status);
    for (long r = 0; r < runs; r++) {
        if (reinit_each && r > 0 && (status = m->init()) != TA_OK)
            return fail("model_init", status);
        for (int k = 0; k < m->num_inputs; k++) {
            size_t size;
            void *data = m->input(k, &size);
            if (fread(data, 1, size, in) != size) {
                fprintf(stderr, "runner: %s ends early (run %ld, input %d)\n", in_path, r, k);
                return 1;
            }
        }
        status = m->run();
        if (status != TA_OK)
            return fail("model_run", status);
        for (int k = 0; k < m->num_outputs; k++) {
            size_t size;
            const void *data = m->output(k, &size);
            fwrite(data, 1, size, out);
        }
    }
    fclose(in);
    if (fclose(out) != 0) {
        fprintf(stderr, "runner: writing %s failed\n", out_path);
        return 1;
    }
    return 0;
}

/* Runs every job of a batch file; a failing job is reported and skipped. */
static int run_batch(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "runner: cannot open batch file %s\n", path);
        return 1;
    }
    char dir[1024], in[1024], out[1024];
    long which, runs;
    int failed = 0;
    while (fscanf(f, "%ld %1023s %1023s %1023s %ld", &which, dir, in, out, &runs) == 5) {
        if (which < 0 || which >= ta_runner_num_modules) {
            fprintf(stderr, "runner: batch job for unknown module %ld\n", which);
            failed = 1;
            continue;
        }
        if (run_module(ta_runner_modules[which], dir, 0, in, out, runs) != 0) {
            fprintf(stderr, "runner: batch job for module %ld failed\n", which);
            failed = 1;
        }
    }
    fclose(f);
    return failed;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--batch") == 0)
        return run_batch(argv[2]);
    const char *dir = ".";
    int reinit_each = 0;
    long which = 0;
    int i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
        if (strcmp(argv[i], "--module-dir") == 0 && i + 1 < argc)
            dir = argv[++i];
        else if (strcmp(argv[i], "--module") == 0 && i + 1 < argc)
            which = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--reinit-each") == 0)
            reinit_each = 1;
        else {
            fprintf(stderr, "runner: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (argc - i != 3 || which < 0 || which >= ta_runner_num_modules) {
        fprintf(stderr, "usage: runner [--module N] [--module-dir DIR] [--reinit-each] "
                        "INPUTS OUTPUTS RUNS\n");
        return 2;
    }
    return run_module(ta_runner_modules[which], dir, reinit_each, argv[i], argv[i + 1],
                      strtol(argv[i + 2], NULL, 10));
}
