/*
 * ta_op_timer.h - times each operator of a tinyaot module on a Cortex-M
 * board through the module's operator callback (module.schedule: table).
 * Drop ta_op_timer.h and ta_op_timer.c into the firmware; C99, no
 * dependencies. docs/profiling.md walks through it.
 *
 *   static uint32_t counts[KWS_NUM_OPERATORS];
 *   static ta_op_timer_t timer;
 *   TA_OP_TIMER_CALLBACK(kws)                      // defines kws_op_timer_callback
 *
 *   ta_dwt_enable();                               // false: no cycle counter
 *   ta_op_timer_init(&timer, ta_dwt_cycles, counts, KWS_NUM_OPERATORS);
 *   kws_op_timer_calibrate(&timer);                // the callback's own cost
 *   ctx.callback = kws_op_timer_callback;
 *   ctx.user_data = &timer;
 *   ta_op_timer_begin_run(&timer);
 *   kws_model_run(&ctx);                           // counts[i]: operator i's cycles
 *
 * The clock is any function returning a free-running 32-bit count (cycles,
 * timer ticks, ...): counts are in its unit, differences taken modulo 2^32.
 */
#ifndef TA_OP_TIMER_H
#define TA_OP_TIMER_H

#include <stdbool.h>
#include <stdint.h>

typedef uint32_t (*ta_op_timer_clock_t)(void);

typedef struct ta_op_timer {
    ta_op_timer_clock_t clock;
    uint32_t *counts;  /* by layer index: the operator's last run, overhead removed */
    int32_t capacity;  /* entries of counts */
    uint32_t overhead; /* clock units an empty started/finished pair reads */
    uint32_t started_at;
    uint32_t last_raw; /* the last operator's reading before the overhead is removed */
    int32_t next;      /* the layer index expected next in this run */
    int32_t calls;     /* operators timed in this run */
    int32_t errors;    /* callbacks out of order or past capacity in this run */
} ta_op_timer_t;

/* Sets the clock and the array the counts go to (zeroed); overhead 0. */
void ta_op_timer_init(ta_op_timer_t *t, ta_op_timer_clock_t clock, uint32_t *counts,
                      int32_t capacity);
/* Before each model_run: the run's operators start again at layer 0. */
void ta_op_timer_begin_run(ta_op_timer_t *t);
/* From the callback: the clock is read last thing in started and first
   thing in finished. op < 0 times without storing (calibration). */
void ta_op_timer_started(ta_op_timer_t *t, int32_t op);
void ta_op_timer_finished(ta_op_timer_t *t, int32_t op);

/* The smallest of `times` readings of `pair` (which must call the callback
   with run_started then run_finished for op -1) becomes the overhead that
   every later count has subtracted. */
void ta_op_timer_set_overhead(ta_op_timer_t *t, void (*pair)(ta_op_timer_t *), int times);

/* Cortex-M DWT cycle counter: sets DEMCR.TRCENA and DWT_CTRL.CYCCNTENA;
   true when CYCCNT exists and advances (QEMU's reads 0: false). */
bool ta_dwt_enable(void);
uint32_t ta_dwt_cycles(void);

/*
 * Defines, for a module of prefix P, the operator callback
 * P_op_timer_callback (ctx.user_data must point to the ta_op_timer_t) and
 * P_op_timer_calibrate(t), which measures the callback's own cost through
 * a function pointer, as the module calls it.
 */
#define TA_OP_TIMER_CALLBACK(P) TA_OP_TIMER_DEFINE_(P) /* P expanded first */
#define TA_OP_TIMER_DEFINE_(P)                                                                \
    static void P##_op_timer_callback(int32_t op, P##_operator_state_t state, int32_t status, \
                                      void *user)                                             \
    {                                                                                         \
        (void)status;                                                                         \
        if (state == P##_op_state_run_started)                                                \
            ta_op_timer_started((ta_op_timer_t *)user, op);                                   \
        else if (state == P##_op_state_run_finished)                                          \
            ta_op_timer_finished((ta_op_timer_t *)user, op);                                  \
    }                                                                                         \
    static void P##_op_timer_pair(ta_op_timer_t *t)                                           \
    {                                                                                         \
        P##_operator_callback volatile callback = P##_op_timer_callback;                      \
        callback(-1, P##_op_state_run_started, 0, t);                                         \
        callback(-1, P##_op_state_run_finished, 0, t);                                        \
    }                                                                                         \
    static void P##_op_timer_calibrate(ta_op_timer_t *t)                                      \
    {                                                                                         \
        ta_op_timer_set_overhead(t, P##_op_timer_pair, 8);                                    \
    }

#endif /* TA_OP_TIMER_H */
