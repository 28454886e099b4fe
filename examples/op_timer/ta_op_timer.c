/*
 * ta_op_timer.c - per-operator timing through a module's operator callback
 * (see ta_op_timer.h).
 */
#include "ta_op_timer.h"

#include <stddef.h>

#define TA_REG32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))
#define TA_DEMCR TA_REG32(0xE000EDFCu)
#define TA_DWT_CTRL TA_REG32(0xE0001000u)
#define TA_DWT_CYCCNT TA_REG32(0xE0001004u)
#define TA_DWT_LAR TA_REG32(0xE0001FB0u) /* lock access, Cortex-M7 and some M4 */

#define TA_DEMCR_TRCENA (1u << 24)
#define TA_DWT_CTRL_CYCCNTENA (1u << 0)
#define TA_DWT_CTRL_NOCYCCNT (1u << 25)
#define TA_DWT_LAR_KEY 0xC5ACCE55u

void ta_op_timer_init(ta_op_timer_t *t, ta_op_timer_clock_t clock, uint32_t *counts,
                      int32_t capacity)
{
    t->clock = clock;
    t->counts = counts;
    t->capacity = capacity;
    t->overhead = 0;
    t->started_at = 0;
    t->last_raw = 0;
    for (int32_t i = 0; i < capacity; i++)
        counts[i] = 0;
    ta_op_timer_begin_run(t);
}

void ta_op_timer_begin_run(ta_op_timer_t *t)
{
    t->next = 0;
    t->calls = 0;
    t->errors = 0;
}

void ta_op_timer_started(ta_op_timer_t *t, int32_t op)
{
    if (op >= 0 && op != t->next)
        t->errors++;
    t->started_at = t->clock(); /* last: what follows is the operator */
}

void ta_op_timer_finished(ta_op_timer_t *t, int32_t op)
{
    const uint32_t now = t->clock(); /* first: what came before is the operator */
    const uint32_t raw = now - t->started_at;
    t->last_raw = raw;
    if (op < 0)
        return;
    if (op != t->next || op >= t->capacity) {
        t->errors++;
        return;
    }
    t->counts[op] = raw > t->overhead ? raw - t->overhead : 0;
    t->next = op + 1;
    t->calls++;
}

void ta_op_timer_set_overhead(ta_op_timer_t *t, void (*pair)(ta_op_timer_t *), int times)
{
    uint32_t least = UINT32_MAX;
    for (int i = 0; i < times; i++) {
        pair(t);
        if (t->last_raw < least)
            least = t->last_raw;
    }
    t->overhead = times > 0 ? least : 0;
}

bool ta_dwt_enable(void)
{
    TA_DEMCR |= TA_DEMCR_TRCENA;
    TA_DWT_LAR = TA_DWT_LAR_KEY; /* ignored where there is no lock */
    if (TA_DWT_CTRL & TA_DWT_CTRL_NOCYCCNT)
        return false;
    TA_DWT_CYCCNT = 0;
    TA_DWT_CTRL |= TA_DWT_CTRL_CYCCNTENA;
    const uint32_t before = TA_DWT_CYCCNT;
    for (volatile int i = 0; i < 16; i++) {
    }
    return TA_DWT_CYCCNT != before;
}

uint32_t ta_dwt_cycles(void)
{
    return TA_DWT_CYCCNT;
}
