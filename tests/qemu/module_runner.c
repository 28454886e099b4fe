/*
 * module_runner.c - runs a generated module on Cortex-M under QEMU, the
 * bare-metal twin of tests/harness/host_runner.c. Build it with the module's sources
 * and -DTA_PREFIX=<prefix>; run it with three words after `--`:
 *
 *   tests/qemu/run.sh -DTA_PREFIX=kws -I out/kws tests/qemu/module_runner.c \
 *       <module sources> -- inputs.bin outputs.bin RUNS
 *
 * Inputs and outputs are host files (semihosting), laid out as for the host
 * runner: RUNS records of every input, then of every output. The module's
 * arenas sit in the memories its target file names (the linker script puts
 * each memory's sections there). It prints the instructions each run took
 * ("run R: N instructions", the call of model_run only) and their mean.
 * Without TA_PREFIX it runs one module of a generated table (see
 * host_runner.h), the index coming as a fifth word after RUNS; it prints
 * the instructions of each run too. `--jobs FILE` instead runs many modules
 * of the table in one emulation, one per line "MODULE inputs outputs RUNS".
 * Built with -DTA_PROFILE_OPS for a module converted with module.schedule:
 * table, it prints instead the instructions of each operator of the last
 * run, through the operator callback. A module converted with
 * memory.allocate_arenas: false gets every region bound to a heap buffer
 * before model_init, a cold constant region loaded from its sidecar file
 * in the folder given as a fourth word (default "."), as the host runner
 * does. Built with -DTA_MEASURE_STACK, it also prints the most stack any
 * model_run took ("stack: N bytes"): the 16 KiB below the caller's stack
 * pointer are painted before each run and scanned after it; an interrupt
 * taken during the run (SysTick) counts too, so the figure is an upper
 * bound of what the module itself needs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "icount.h"
#include "semihost.h"

#ifdef TA_PREFIX
#define TA_CAT2(a, b) a##b
#define TA_CAT(a, b) TA_CAT2(a, b)
#define TA_STR2(x) #x
#define TA_STR(x) TA_STR2(x)
#define PFX(name) TA_CAT(TA_PREFIX, name)
#include TA_STR(TA_CAT(TA_PREFIX, _model.h))
#else
/* Many modules in one image (the operator tests): a generated table of
   host_runner.h's ta_runner_module_t, and a module index as a fifth word. */
#include "host_runner.h"
#endif

#ifdef TA_PREFIX
/* Row-push input (module.input_rows: push; model.h defines
   <prefix>_model_push_input_rows): a run pushes the whole input's rows in
   pieces of ta_push_pieces.h instead of calling model_run. */
#if TA_CAT(TA_PREFIX, _model_push_input_rows)
#define PUSH_ROWS PFX(_model_push_input_rows)
#define PUSH_ROW_SIZE PFX(_model_push_row_size)
#else
#define PUSH_ROWS 0
#define PUSH_ROW_SIZE 0
#endif
static const unsigned char *push_input; /* this run's rows */

/* Bytes of input k in the inputs file: the whole input with row-push. */
static size_t input_bytes(const PFX(_model_context_t) * ctx, int k)
{
    return PUSH_ROWS ? (size_t)PUSH_ROWS * PUSH_ROW_SIZE : ctx->inputs[k].size;
}

static void take_input(PFX(_model_context_t) * ctx, int k, const unsigned char *src)
{
    if (PUSH_ROWS)
        push_input = src;
    else
        memcpy(ctx->inputs[k].data, src, ctx->inputs[k].size);
}

static int run_model(PFX(_model_context_t) * ctx)
{
#if PUSH_ROWS
    int status = TA_OK;
    for (int done = 0, piece = 0; status == TA_OK && done < PUSH_ROWS; piece++) {
        int n = ta_push_piece_rows(piece, PUSH_ROWS - done);
        status = PFX(_model_push_rows)(
            ctx, (const int8_t *)push_input + (size_t)done * PUSH_ROW_SIZE, n);
        done += n;
    }
    return status;
#else
    return PFX(_model_run)(ctx);
#endif
}
#endif

#if defined(TA_MEASURE_STACK) && defined(TA_PREFIX)
enum { STACK_PAINT_WORDS = 4096 };
#define STACK_PAINT 0x5AC3A55Cu

/* Runs the model with the STACK_PAINT_WORDS below this frame's stack
   pointer painted, and sets *used to the bytes of them the run wrote. */
__attribute__((noinline)) static int run_measuring_stack(PFX(_model_context_t) * ctx, size_t *used)
{
    uint32_t *sp;
    __asm volatile("mov %0, sp" : "=r"(sp));
    /* Below sp nothing is live: nothing else runs here but interrupts. */
    volatile uint32_t *bottom = sp - STACK_PAINT_WORDS;
    for (volatile uint32_t *p = bottom; p < sp; p++)
        *p = STACK_PAINT;
    int status = run_model(ctx);
    volatile uint32_t *p = bottom;
    while (p < sp && *p == STACK_PAINT)
        p++;
    *used = (size_t)(sp - (uint32_t *)p) * 4;
    return status;
}
#endif

#if defined(TA_PROFILE_OPS) && defined(TA_PREFIX)
static uint64_t op_instructions[1024];

static void profile(int32_t op, PFX(_operator_state_t) state, int32_t status, void *user)
{
    (void)user;
    (void)status;
    if (state == PFX(_op_state_run_started))
        ta_icount_start();
    else if (state == PFX(_op_state_run_finished) && op >= 0 && op < 1024)
        op_instructions[op] = ta_icount_stop();
}
#endif

static int fail(const char *what, int status)
{
    printf("module_runner: %s failed: %d (%s)\n", what, status, ta_status_name(status));
    return 1;
}

#ifdef TA_PREFIX
/* Binds every region of a module that does not own its arenas to a heap
   buffer; a sidecar's bytes fill the end of its region (any address-zero
   guard comes first). The buffers live until the program ends. */
static int bind_regions(const ta_module_desc_t *m, const char *dir)
{
    for (unsigned r = 0; r < m->num_regions; r++) {
        size_t align = m->alignments[r] < 8 ? 8 : m->alignments[r];
        unsigned char *raw = malloc(m->sizes[r] + align);
        if (!raw)
            return fail("malloc for an arena region", TA_ERR_BAD_ARGUMENT);
        unsigned char *buf = raw + (align - (uintptr_t)raw % align) % align;
        memset(buf, 0, m->sizes[r]);
        if (m->sidecar_files[r]) {
            char path[512];
            snprintf(path, sizeof path, "%s/%s", dir, m->sidecar_files[r]);
            long n = ta_semihost_file_size(path);
            size_t got = 0;
            if (n < 0 || (size_t)n > m->sizes[r] ||
                ta_semihost_read_file(path, buf + (m->sizes[r] - (size_t)n), (size_t)n, &got) !=
                    TA_SEMIHOST_OK ||
                got != (size_t)n) {
                printf("module_runner: sidecar %s is missing or does not fit region %u\n", path, r);
                free(raw);
                return 1;
            }
        }
        int status = m->bind_arena((int)r, buf, m->sizes[r]);
        if (status != TA_OK) {
            free(raw);
            return fail("bind_arena", status);
        }
    }
    return 0;
}
#endif

#ifndef TA_PREFIX
/* One module of the table, through its ta_runner_module_t: `runs` records
   of inputs from in_path, the outputs written to out_path. */
static int run_module(long which, const char *in_path, const char *out_path, long runs)
{
    if (which < 0 || which >= ta_runner_num_modules)
        return fail("module index", TA_ERR_BAD_ARGUMENT);
    const ta_runner_module_t *m = ta_runner_modules[which];
    int status = m->init();
    if (status != TA_OK)
        return fail("model_init", status);
    size_t in_bytes = 0, out_bytes = 0, size;
    for (int k = 0; k < m->num_inputs; k++) {
        m->input(k, &size);
        in_bytes += size;
    }
    for (int k = 0; k < m->num_outputs; k++) {
        m->output(k, &size);
        out_bytes += size;
    }
    unsigned char *in = malloc(in_bytes * (size_t)runs + 1);
    unsigned char *out = malloc(out_bytes * (size_t)runs + 1);
    size_t got = 0;
    int result = 0;
    if (!in || !out)
        result = fail("malloc", TA_ERR_BAD_ARGUMENT);
    else if (ta_semihost_read_file(in_path, in, in_bytes * (size_t)runs + 1, &got) != 0 ||
             got != in_bytes * (size_t)runs)
        result = fail("reading the inputs", TA_ERR_BAD_ARGUMENT);
    const unsigned char *src = in;
    unsigned char *dst = out;
    for (long r = 0; result == 0 && r < runs; r++) {
        for (int k = 0; k < m->num_inputs; k++) {
            void *data = m->input(k, &size);
            memcpy(data, src, size);
            src += size;
        }
        ta_icount_start();
        status = m->run();
        uint64_t instructions = ta_icount_stop();
        if (status != TA_OK) {
            result = fail("model_run", status);
            break;
        }
        printf("module_runner: run %ld: %llu instructions\n", r, (unsigned long long)instructions);
        for (int k = 0; k < m->num_outputs; k++) {
            const void *data = m->output(k, &size);
            memcpy(dst, data, size);
            dst += size;
        }
    }
    if (result == 0 && ta_semihost_write_file(out_path, out, out_bytes * (size_t)runs) != 0)
        result = fail("writing the outputs", TA_ERR_BAD_ARGUMENT);
    free(in);
    free(out);
    return result;
}

/* Many modules in one emulation: a host file of lines
   "MODULE inputs.bin outputs.bin RUNS", run in order; stops at the first
   failure (the caller then knows which outputs are missing). */
static int run_jobs(const char *path)
{
    static char list[65536];
    size_t got = 0;
    if (ta_semihost_read_file(path, list, sizeof list - 1, &got) != 0)
        return fail("reading the job list", TA_ERR_BAD_ARGUMENT);
    list[got] = '\0';
    for (char *line = list; *line;) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        else
            next = line + strlen(line);
        char in_path[256], out_path[256];
        long which, runs;
        if (sscanf(line, "%ld %255s %255s %ld", &which, in_path, out_path, &runs) != 4)
            return fail("a job line (MODULE inputs outputs RUNS)", TA_ERR_BAD_ARGUMENT);
        printf("module_runner: job %ld\n", which);
        int result = run_module(which, in_path, out_path, runs);
        if (result != 0)
            return result;
        line = next;
    }
    return 0;
}
#endif

int main(void)
{
    char cmd[512];
    if (ta_semihost_cmdline(cmd, sizeof cmd) < 0)
        return fail("reading the command line", TA_ERR_BAD_ARGUMENT);
    /* Words: the ELF, inputs, outputs, runs (and a module index). */
    char *words[5] = {0};
    int n = 0;
    for (char *p = strtok(cmd, " "); p && n < 5; p = strtok(NULL, " "))
        words[n++] = p;
#ifndef TA_PREFIX
    if (n == 3 && strcmp(words[1], "--jobs") == 0)
        return run_jobs(words[2]);
    if (n != 5)
        return fail("arguments (inputs.bin outputs.bin RUNS MODULE, or --jobs FILE)",
                    TA_ERR_BAD_ARGUMENT);
    return run_module(strtol(words[4], NULL, 10), words[1], words[2], strtol(words[3], NULL, 10));
#else
    if (n < 4)
        return fail("arguments (inputs.bin outputs.bin RUNS)", TA_ERR_BAD_ARGUMENT);
    long runs = strtol(words[3], NULL, 10);

    if (PFX(_module_desc).bind_arena &&
        bind_regions(&PFX(_module_desc), n >= 5 ? words[4] : ".") != 0)
        return 1;
    PFX(_model_context_t) ctx;
    memset(&ctx, 0, sizeof ctx);
    int status = PFX(_model_init)(&ctx);
    if (status != TA_OK)
        return fail("model_init", status);
    const int num_in = (int)(sizeof ctx.inputs / sizeof ctx.inputs[0]);
    const int num_out = (int)(sizeof ctx.outputs / sizeof ctx.outputs[0]);
    size_t in_bytes = 0, out_bytes = 0;
    for (int k = 0; k < num_in; k++)
        in_bytes += input_bytes(&ctx, k);
    for (int k = 0; k < num_out; k++)
        out_bytes += ctx.outputs[k].size;

    unsigned char *in = malloc(in_bytes * (size_t)runs + 1);
    unsigned char *out = malloc(out_bytes * (size_t)runs + 1);
    size_t got = 0;
    if (!in || !out)
        return fail("malloc", TA_ERR_BAD_ARGUMENT);
    if (ta_semihost_read_file(words[1], in, in_bytes * (size_t)runs + 1, &got) != 0 ||
        got != in_bytes * (size_t)runs)
        return fail("reading the inputs", TA_ERR_BAD_ARGUMENT);

    uint64_t total = 0;
#ifdef TA_PROFILE_OPS
    ctx.callback = profile;
#endif
#ifdef TA_MEASURE_STACK
    size_t stack_most = 0;
#endif
    for (long r = 0; r < runs; r++) {
        const unsigned char *src = in + (size_t)r * in_bytes;
        for (int k = 0; k < num_in; k++) {
            take_input(&ctx, k, src);
            src += input_bytes(&ctx, k);
        }
#ifndef TA_PROFILE_OPS
        ta_icount_start();
#endif
#ifdef TA_MEASURE_STACK
        size_t stack_used = 0;
        status = run_measuring_stack(&ctx, &stack_used);
        if (stack_used > stack_most)
            stack_most = stack_used;
#else
        status = run_model(&ctx);
#endif
#ifndef TA_PROFILE_OPS
        uint64_t instructions = ta_icount_stop();
#else
        uint64_t instructions = 0;
#endif
        total += instructions;
        if (status != TA_OK)
            return fail("model_run", status);
#ifndef TA_PROFILE_OPS
        printf("module_runner: run %ld: %llu instructions\n", r, (unsigned long long)instructions);
#endif
        unsigned char *dst = out + (size_t)r * out_bytes;
        for (int k = 0; k < num_out; k++) {
            memcpy(dst, ctx.outputs[k].data, ctx.outputs[k].size);
            dst += ctx.outputs[k].size;
        }
    }
    if (ta_semihost_write_file(words[2], out, out_bytes * (size_t)runs) != 0)
        return fail("writing the outputs", TA_ERR_BAD_ARGUMENT);
#ifdef TA_PROFILE_OPS
    for (int op = 0; op < (int)(sizeof op_instructions / sizeof op_instructions[0]); op++)
        if (op_instructions[op])
            printf("module_runner: op %d: %llu instructions\n", op,
                   (unsigned long long)op_instructions[op]);
#endif
    printf("module_runner: %ld runs, %llu instructions per run\n", runs,
           (unsigned long long)(runs ? total / (uint64_t)runs : 0));
#ifdef TA_MEASURE_STACK
    printf("module_runner: stack: %lu bytes\n", (unsigned long)stack_most);
#endif
    return 0;
#endif
}
