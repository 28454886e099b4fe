/*
 * profile_runner.c - the board side of `tinyaot profile` (tools/profile.c):
 * runs a module converted with module.schedule: table on a Cortex-M board
 * under QEMU -icount and prints, in SysTick ticks of virtual time, what one
 * run of each operator and of the whole model_run costs. It drives the
 * operator timer of examples/op_timer (ta_op_timer.c) with icount.c's
 * free-running clock instead of DWT's CYCCNT, which QEMU does not
 * implement. Built with -DTA_PREFIX=<prefix> and
 * -DTA_NUM_OPERATORS=<PREFIX>_NUM_OPERATORS (the module header's macro: the
 * preprocessor cannot upper-case the prefix), the module's sources, the kit
 * and ta_op_timer.c. Words after the ELF:
 *
 *   inputs.bin RUNS     one run's inputs (raw, input 0 first); RUNS >= 2
 *
 * Run 1 (the first after model_init) is timed whole; run 2 operator by
 * operator through the callback, and whole around model_run; runs 3.. whole
 * again without the callback. Lines, all "profile: ...", in ticks:
 *   clock E        two back-to-back clock reads (removed from each whole run)
 *   overhead O     an empty started/finished pair (removed from each operator)
 *   pair F         a whole callback pair, call to return (per operator in run 2)
 *   cold T         run 1
 *   op I T         operator I in run 2
 *   profiled T calls C errors X   run 2 around model_run; operators timed,
 *                  callbacks out of order
 *   warm R T       run R + 1, for R >= 2
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "icount.h"
#include "semihost.h"
#include "ta_op_timer.h"

#define TA_CAT2(a, b) a##b
#define TA_CAT(a, b) TA_CAT2(a, b)
#define TA_STR2(x) #x
#define TA_STR(x) TA_STR2(x)
#define PFX(name) TA_CAT(TA_PREFIX, name)
#include TA_STR(TA_CAT(TA_PREFIX, _model.h))

TA_OP_TIMER_CALLBACK(TA_PREFIX)

static uint32_t counts[TA_NUM_OPERATORS + 1];
static ta_op_timer_t timer;

static int fail(const char *what, int status)
{
    printf("profile_runner: %s failed: %d (%s)\n", what, status, ta_status_name(status));
    return 1;
}

/* The least of eight readings of `span` (which returns clock units). */
static uint32_t least_of(uint32_t (*span)(void))
{
    uint32_t least = UINT32_MAX;
    for (int i = 0; i < 8; i++) {
        uint32_t v = span();
        if (v < least)
            least = v;
    }
    return least;
}

static uint32_t empty_span(void)
{
    uint32_t a = ta_icount_clock();
    uint32_t b = ta_icount_clock();
    return b - a;
}

static uint32_t pair_span(void)
{
    uint32_t a = ta_icount_clock();
    TA_CAT(TA_PREFIX, _op_timer_pair)(&timer);
    uint32_t b = ta_icount_clock();
    return b - a;
}

/* One model_run, whole: its ticks less the clock's own. */
static int timed_run(PFX(_model_context_t) * ctx, uint32_t clock_cost, uint32_t *ticks)
{
    uint32_t a = ta_icount_clock();
    int status = PFX(_model_run)(ctx);
    uint32_t b = ta_icount_clock();
    *ticks = b - a - clock_cost;
    return status;
}

static int read_inputs(PFX(_model_context_t) * ctx, const char *path)
{
    const int num_in = (int)(sizeof ctx->inputs / sizeof ctx->inputs[0]);
    size_t bytes = 0, got = 0;
    for (int k = 0; k < num_in; k++)
        bytes += ctx->inputs[k].size;
    unsigned char *in = malloc(bytes + 1);
    if (!in)
        return fail("malloc", TA_ERR_BAD_ARGUMENT);
    if (ta_semihost_read_file(path, in, bytes + 1, &got) != 0 || got != bytes) {
        free(in);
        return fail("reading the inputs (one run of every input)", TA_ERR_BAD_ARGUMENT);
    }
    const unsigned char *src = in;
    for (int k = 0; k < num_in; k++) {
        memcpy(ctx->inputs[k].data, src, ctx->inputs[k].size);
        src += ctx->inputs[k].size;
    }
    free(in);
    return 0;
}

static void print_operators(void)
{
    for (int32_t op = 0; op < TA_NUM_OPERATORS; op++)
        printf("profile: op %ld %lu\n", (long)op, (unsigned long)counts[op]);
}

int main(void)
{
    char cmd[512];
    char *words[3] = {0};
    int n = 0;
    if (ta_semihost_cmdline(cmd, sizeof cmd) < 0)
        return fail("reading the command line", TA_ERR_BAD_ARGUMENT);
    for (char *p = strtok(cmd, " "); p && n < 3; p = strtok(NULL, " "))
        words[n++] = p;
    long runs = n == 3 ? strtol(words[2], NULL, 10) : 0;
    if (runs < 2)
        return fail("arguments (inputs.bin RUNS, RUNS >= 2)", TA_ERR_BAD_ARGUMENT);

    PFX(_model_context_t) ctx;
    memset(&ctx, 0, sizeof ctx);
    int status = PFX(_model_init)(&ctx);
    if (status != TA_OK)
        return fail("model_init", status);
    if (read_inputs(&ctx, words[1]) != 0)
        return 1;

    ta_icount_clock_start(); /* left running: ta_icount_clock reads it */
    ta_op_timer_init(&timer, ta_icount_clock, counts, TA_NUM_OPERATORS);
    TA_CAT(TA_PREFIX, _op_timer_calibrate)(&timer);
    const uint32_t clock_cost = least_of(empty_span);
    const uint32_t pair_cost = least_of(pair_span) - clock_cost;
    printf("profile: clock %lu\nprofile: overhead %lu\nprofile: pair %lu\n",
           (unsigned long)clock_cost, (unsigned long)timer.overhead, (unsigned long)pair_cost);

    uint32_t ticks;
    if ((status = timed_run(&ctx, clock_cost, &ticks)) != TA_OK)
        return fail("model_run (run 0)", status);
    printf("profile: cold %lu\n", (unsigned long)ticks);

    ctx.callback = TA_CAT(TA_PREFIX, _op_timer_callback);
    ctx.user_data = &timer;
    ta_op_timer_begin_run(&timer);
    if ((status = timed_run(&ctx, clock_cost, &ticks)) != TA_OK)
        return fail("model_run (run 1, profiled)", status);
    ctx.callback = NULL;
    print_operators();
    printf("profile: profiled %lu calls %ld errors %ld\n", (unsigned long)ticks, (long)timer.calls,
           (long)timer.errors);

    for (long r = 2; r < runs; r++) {
        if ((status = timed_run(&ctx, clock_cost, &ticks)) != TA_OK)
            return fail("model_run", status);
        printf("profile: warm %ld %lu\n", r, (unsigned long)ticks);
    }
    return 0;
}
