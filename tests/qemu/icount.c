/*
 * icount.c - SysTick-based instruction counter (see icount.h).
 *
 * SysTick counts down from SYST_RVR = 2^24 - 1 and reloads, so one period
 * is 2^24 ticks. Each reload raises the SysTick exception, whose handler
 * adds one to `wraps`; a measurement is wraps * 2^24 + (RVR - CVR) ticks.
 * Reading SYST_CSR clears COUNTFLAG, and the handler reads it, so at the
 * end of a measurement (interrupts masked, counter stopped) a set
 * COUNTFLAG means one reload the handler has not counted yet.
 *
 * The handler is written in assembly so that it is always exactly
 * HANDLER_INSTRUCTIONS long, whatever the optimisation level; its runs are
 * subtracted from the result. (QEMU counts no instructions for exception
 * entry; the return is the handler's `bx lr`.)
 */
#include "icount.h"

#ifndef TA_QEMU_CPU_HZ
#error "define TA_QEMU_CPU_HZ (the SysTick processor clock; run.sh does)"
#endif
#ifndef TA_ICOUNT_SHIFT
#define TA_ICOUNT_SHIFT 5
#endif
#if TA_ICOUNT_SHIFT < 0 || TA_ICOUNT_SHIFT > 9
#error "TA_ICOUNT_SHIFT must be 0..9 (1e9 / 2^shift must be an integer)"
#endif

#define REG32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))
#define SYST_CSR REG32(0xE000E010u)
#define SYST_RVR REG32(0xE000E014u)
#define SYST_CVR REG32(0xE000E018u)
#define SCB_ICSR REG32(0xE000ED04u)

#define CSR_ENABLE (1u << 0)
#define CSR_TICKINT (1u << 1)
#define CSR_CLKSOURCE (1u << 2) /* 1: processor clock */
#define CSR_COUNTFLAG (1u << 16)
#define ICSR_PENDSTCLR (1u << 25)
#define ICSR_PENDSTSET (1u << 26)

#define RELOAD 0x00FFFFFFu
#define PERIOD ((uint64_t)RELOAD + 1u)

/* Nanoseconds of virtual time per instruction is 2^shift. */
#define NS_PER_SECOND_OVER_STEP (1000000000u >> TA_ICOUNT_SHIFT)

void SysTick_Handler(void) __attribute__((naked));

/* Reloads counted by the handler; not static: the handler's assembly
   names it. Only this file uses it. */
volatile uint32_t ta_icount_wraps;
static int calibrated;
static uint64_t overhead_ticks;
static uint64_t last_ticks;

#define HANDLER_INSTRUCTIONS 8u

void SysTick_Handler(void)
{
    /* clang-format off */
    __asm__ volatile(
        "mov.w r0, #0xE000E000\n\t"
        "ldr r1, [r0, #16]\n\t" /* read SYST_CSR: clears COUNTFLAG */
        "movw r0, #:lower16:ta_icount_wraps\n\t"
        "movt r0, #:upper16:ta_icount_wraps\n\t"
        "ldr r1, [r0]\n\t"
        "adds r1, r1, #1\n\t"
        "str r1, [r0]\n\t"
        "bx lr\n\t");
    /* clang-format on */
}

static uint32_t mask_interrupts(void)
{
    uint32_t primask;

    __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask)::"memory");
    return primask;
}

static void restore_interrupts(uint32_t primask)
{
    __asm__ volatile("msr primask, %0" : : "r"(primask) : "memory");
}

static void counter_start(void)
{
    uint32_t primask = mask_interrupts();

    SYST_CSR = CSR_CLKSOURCE;
    SYST_RVR = RELOAD;
    SYST_CVR = 0; /* any write clears the count and COUNTFLAG */
    (void)SYST_CSR;
    SCB_ICSR = ICSR_PENDSTCLR;
    ta_icount_wraps = 0;
    SYST_CSR = CSR_CLKSOURCE | CSR_TICKINT | CSR_ENABLE;
    restore_interrupts(primask);
}

/* Stops the counter; returns the ticks and how often the handler ran. */
static uint64_t counter_stop(uint32_t *handler_runs)
{
    uint32_t primask = mask_interrupts();
    uint32_t current, flag;
    uint64_t periods;

    SYST_CSR = CSR_CLKSOURCE; /* stop; COUNTFLAG and CVR keep their values */
    flag = SYST_CSR & CSR_COUNTFLAG;
    current = SYST_CVR & RELOAD;
    *handler_runs = ta_icount_wraps;
    periods = *handler_runs;
    if (flag != 0) {
        periods += 1u;
        SCB_ICSR = ICSR_PENDSTCLR; /* counted here, not by the handler */
    }
    restore_interrupts(primask);
    return periods * PERIOD + (RELOAD - current);
}

uint64_t ta_icount_ticks_to_instructions(uint64_t ticks)
{
    const uint64_t hz = TA_QEMU_CPU_HZ;
    uint64_t whole = ticks / hz;
    uint64_t rest = ticks % hz;

    return whole * NS_PER_SECOND_OVER_STEP + (rest * NS_PER_SECOND_OVER_STEP + hz / 2u) / hz;
}

__attribute__((noinline)) void ta_icount_start(void)
{
    if (!calibrated) {
        /* Measure an empty start/stop pair once, the way callers use it. */
        calibrated = 1;
        ta_icount_start();
        (void)ta_icount_stop();
        overhead_ticks = last_ticks;
    }
    counter_start();
}

__attribute__((noinline)) uint64_t ta_icount_stop(void)
{
    uint32_t handler_runs;
    uint64_t instructions, handler_instructions;

    last_ticks = counter_stop(&handler_runs);
    if (last_ticks <= overhead_ticks)
        return 0;
    instructions = ta_icount_ticks_to_instructions(last_ticks - overhead_ticks);
    handler_instructions = (uint64_t)handler_runs * HANDLER_INSTRUCTIONS;
    return instructions > handler_instructions ? instructions - handler_instructions : 0;
}

uint64_t ta_icount_last_ticks(void)
{
    return last_ticks;
}

uint64_t ta_icount_overhead_ticks(void)
{
    return overhead_ticks;
}

int ta_icount_clock_start(void)
{
    ta_icount_start();
    return 1;
}

/* A reload whose interrupt is still pending (CVR just reloaded, so high)
   counts as taken. */
uint32_t ta_icount_clock(void)
{
    uint32_t wraps, again, current, pending;

    do {
        wraps = ta_icount_wraps;
        current = SYST_CVR & RELOAD;
        pending = SCB_ICSR & ICSR_PENDSTSET;
        again = ta_icount_wraps;
    } while (wraps != again);
    if (pending != 0 && current > RELOAD / 2u)
        wraps++;
    return (wraps << 24) + (RELOAD - current);
}
