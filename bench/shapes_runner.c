/*
 * shapes_runner.c - the board side of bench/shapes.py (and of bench/models.py's
 * cycle estimate): modules in one image, each counted on one run of
 * model_run. Built with tests/qemu/run.sh and a table bench/shapes.py
 * writes: host_runner.h's ta_runner_modules, plus shapes_counted, per module
 * a function that calls <prefix>_model_run directly between the instruction
 * counter's start and stop and the cycle estimator's markers.
 *
 *   qemu ... -- --jobs FILE     FILE: lines "MODULE inputs.bin outputs.bin WARMUPS"
 *
 * For each line it runs model_init, then WARMUPS uncounted runs
 * (bench/shapes.py: 1, its figure is the second run; bench/models.py: 0,
 * the first), then the counted run, and writes that run's outputs. The
 * inputs are copied in before every run (an output may have been placed
 * over them). After each counted run it prints
 * "shape MODULE: N instructions, status S", one line per marked region;
 * N leaves out the two marker instructions (dbg #1 and dbg #2, one each;
 * measuring an empty pair instead would add SysTick's rounding, a tick per
 * 1.25 instructions on the M4).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_runner.h"
#include "icount.h"
#include "semihost.h"

typedef int (*shapes_counted_fn)(uint64_t *instructions);
extern const shapes_counted_fn shapes_counted[];

/* CYC_MARK_START and CYC_MARK_STOP, inside the counted region. */
enum { MARKER_INSTRUCTIONS = 2 };

static int fail(long which, const char *what, int status)
{
    printf("shapes_runner: module %ld: %s failed: %d (%s)\n", which, what, status,
           ta_status_name(status));
    return 1;
}

static void copy_inputs(const ta_runner_module_t *m, const unsigned char *src)
{
    size_t size;
    for (int k = 0; k < m->num_inputs; k++) {
        void *data = m->input(k, &size);
        memcpy(data, src, size);
        src += size;
    }
}

static int run_shape(long which, const char *in_path, const char *out_path, long warmups)
{
    if (which < 0 || which >= ta_runner_num_modules)
        return fail(which, "module index", TA_ERR_BAD_ARGUMENT);
    const ta_runner_module_t *m = ta_runner_modules[which];
    int status = m->init();
    if (status != TA_OK)
        return fail(which, "model_init", status);
    size_t in_bytes = 0, out_bytes = 0, size;
    for (int k = 0; k < m->num_inputs; k++) {
        m->input(k, &size);
        in_bytes += size;
    }
    for (int k = 0; k < m->num_outputs; k++) {
        m->output(k, &size);
        out_bytes += size;
    }
    unsigned char *in = malloc(in_bytes + 1), *out = malloc(out_bytes + 1);
    size_t got = 0;
    int result = 0;
    uint64_t instructions = 0;
    if (!in || !out)
        result = fail(which, "malloc", TA_ERR_BAD_ARGUMENT);
    else if (ta_semihost_read_file(in_path, in, in_bytes + 1, &got) != 0 || got != in_bytes)
        result = fail(which, "reading the inputs", TA_ERR_BAD_ARGUMENT);
    for (long r = 0; result == 0 && r < warmups; r++) {
        copy_inputs(m, in);
        status = m->run();
        if (status != TA_OK)
            result = fail(which, "model_run (warm-up)", status);
    }
    if (result == 0) {
        copy_inputs(m, in);
        status = shapes_counted[which](&instructions);
        /* One line per marked region, in order, whatever the status. */
        printf("shape %ld: %llu instructions, status %d\n", which,
               (unsigned long long)(instructions - MARKER_INSTRUCTIONS), status);
        if (status != TA_OK)
            result = fail(which, "model_run", status);
    }
    if (result == 0) {
        unsigned char *dst = out;
        for (int k = 0; k < m->num_outputs; k++) {
            const void *data = m->output(k, &size);
            memcpy(dst, data, size);
            dst += size;
        }
        if (ta_semihost_write_file(out_path, out, out_bytes) != 0)
            result = fail(which, "writing the outputs", TA_ERR_BAD_ARGUMENT);
    }
    free(in);
    free(out);
    return result;
}

int main(void)
{
    static char cmd[512], list[65536];
    if (ta_semihost_cmdline(cmd, sizeof cmd) < 0)
        return fail(-1, "reading the command line", TA_ERR_BAD_ARGUMENT);
    char *words[3] = {0};
    int n = 0;
    for (char *p = strtok(cmd, " "); p && n < 3; p = strtok(NULL, " "))
        words[n++] = p;
    if (n != 3 || strcmp(words[1], "--jobs") != 0)
        return fail(-1, "arguments (--jobs FILE)", TA_ERR_BAD_ARGUMENT);
    size_t got = 0;
    if (ta_semihost_read_file(words[2], list, sizeof list - 1, &got) != 0)
        return fail(-1, "reading the job list", TA_ERR_BAD_ARGUMENT);
    list[got] = '\0';
    int failures = 0;
    for (char *line = strtok(list, "\n"); line; line = strtok(NULL, "\n")) {
        char in_path[256], out_path[256];
        long which, warmups;
        if (sscanf(line, "%ld %255s %255s %ld", &which, in_path, out_path, &warmups) != 4)
            return fail(-1, "a job line (MODULE inputs outputs WARMUPS)", TA_ERR_BAD_ARGUMENT);
        failures += run_shape(which, in_path, out_path, warmups);
    }
    return failures ? 1 : 0;
}
