/*
 * main.c - times each operator of a tinyaot module on a Cortex-M board with
 * ta_op_timer and the DWT cycle counter, and prints one line per operator.
 * A template for firmware: replace the PFX(...) names by the module's
 * (kws_model_init, ...) or build it as it is with
 *
 *   -DTA_PREFIX=kws -DTA_NUM_OPERATORS=KWS_NUM_OPERATORS -I <module> \
 *   main.c ta_op_timer.c <module sources>
 *
 * (the module converted with module.schedule: table). printf goes wherever
 * the firmware's C library sends it (a UART, semihosting). The clock can
 * be swapped at build time: -DTA_OP_TIMER_CLOCK=f -DTA_OP_TIMER_CLOCK_START=g
 * with uint32_t f(void) and int g(void) (g starts it; 0: no clock), e.g.
 * a timer peripheral where the core has no DWT (Cortex-M0/M0+), or the
 * instruction counter of tests/qemu/icount.h under QEMU, which implements no
 * CYCCNT. Exit status 0 timed; 1 the model failed; 2 no clock.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ta_op_timer.h"

#define TA_CAT2(a, b) a##b
#define TA_CAT(a, b) TA_CAT2(a, b)
#define TA_STR2(x) #x
#define TA_STR(x) TA_STR2(x)
#define PFX(name) TA_CAT(TA_PREFIX, name)
#include TA_STR(TA_CAT(TA_PREFIX, _model.h))

#ifndef TA_OP_TIMER_CLOCK
#define TA_OP_TIMER_CLOCK ta_dwt_cycles
#define TA_OP_TIMER_CLOCK_START ta_dwt_enable
#define TA_OP_TIMER_UNIT "cycles"
#endif
#ifndef TA_OP_TIMER_UNIT
#define TA_OP_TIMER_UNIT "ticks"
#endif

TA_OP_TIMER_CALLBACK(TA_PREFIX)

static uint32_t counts[TA_NUM_OPERATORS + 1];
static ta_op_timer_t timer;

int main(void)
{
    static PFX(_model_context_t) ctx;
    if (!TA_OP_TIMER_CLOCK_START()) {
        printf("op_timer: no cycle counter (DWT CYCCNT reads a constant: QEMU, or a core "
               "without DWT)\n");
        return 2;
    }
    int32_t status = PFX(_model_init)(&ctx);
    /* The inputs: whatever the application has; here the zeros model_init
       leaves. The first run warms up (caches, lazily set-up state). */
    if (status == TA_OK)
        status = PFX(_model_run)(&ctx);
    if (status != TA_OK) {
        printf("op_timer: the model failed: %ld\n", (long)status);
        return 1;
    }
    ta_op_timer_init(&timer, TA_OP_TIMER_CLOCK, counts, TA_NUM_OPERATORS);
    TA_CAT(TA_PREFIX, _op_timer_calibrate)(&timer);
    ctx.callback = TA_CAT(TA_PREFIX, _op_timer_callback);
    ctx.user_data = &timer;
    ta_op_timer_begin_run(&timer);
    status = PFX(_model_run)(&ctx);
    ctx.callback = NULL;
    if (status != TA_OK) {
        printf("op_timer: the model failed: %ld\n", (long)status);
        return 1;
    }
    uint32_t sum = 0;
    for (int32_t op = 0; op < TA_NUM_OPERATORS; op++) {
        printf("op_timer: op %ld: %lu %s\n", (long)op, (unsigned long)counts[op], TA_OP_TIMER_UNIT);
        sum += counts[op];
    }
    printf("op_timer: %ld operators timed, %ld out of order, %lu %s in all (callback "
           "overhead %lu removed from each)\n",
           (long)timer.calls, (long)timer.errors, (unsigned long)sum, TA_OP_TIMER_UNIT,
           (unsigned long)timer.overhead);
    return timer.errors == 0 && timer.calls == TA_NUM_OPERATORS ? 0 : 1;
}
