/*
 * startup.c - vector table, reset and fault handlers for the QEMU boards
 * mps3-an547 (Cortex-M55) and mps2-an386 (Cortex-M4).
 *
 * Reset path: Reset_Handler enables the FPU (and, on the M55, Helium: both
 * use coprocessors 10 and 11), sets the stack limit on Armv8-M, zeroes every
 * arena *_bss section listed in the linker script's zero table, then jumps
 * to newlib's `_start` (crt0.o). `_start` sets the stack to `__stack`,
 * zeroes .bss, calls `software_init_hook` (defined here: opens the rdimon
 * stdio handles so printf works), runs constructors, calls main and passes
 * main's return value to exit(), which ends QEMU with that status through
 * semihosting.
 *
 * QEMU loads every ELF segment itself, so nothing is copied from a load
 * address: each section's load address is its run address.
 *
 * Faults: HardFault and every exception nobody handles print a report
 * through semihosting and end QEMU with status TA_QEMU_EXIT_FAULT (70).
 * The handlers are weak, so a test may replace any of them.
 */
#include <stdint.h>

#include "semihost.h"

#define TA_QEMU_EXIT_FAULT 70

/* Number of external interrupt vectors; run.sh passes the board's value. */
#ifndef TA_QEMU_NUM_IRQ
#define TA_QEMU_NUM_IRQ 32
#endif

#define REG32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))
#define SCB_ICSR REG32(0xE000ED04u)
#define SCB_CFSR REG32(0xE000ED28u)
#define SCB_HFSR REG32(0xE000ED2Cu)
#define SCB_MMFAR REG32(0xE000ED34u)
#define SCB_BFAR REG32(0xE000ED38u)
#define SCB_CPACR REG32(0xE000ED88u)
#define SAU_SFSR REG32(0xE000EDE4u)
#define SAU_SFAR REG32(0xE000EDE8u)

#if defined(__ARM_ARCH_8M_MAIN__) || defined(__ARM_ARCH_8_1M_MAIN__)
#define TA_HAS_STACK_LIMIT 1
#else
#define TA_HAS_STACK_LIMIT 0
#endif

/* Symbols of the linker script. */
extern uint32_t __stack[];                     /* initial stack pointer (top) */
extern uint32_t __ta_stack_limit[];            /* lowest address the stack may use */
extern const uint32_t __ta_zero_table_start[]; /* pairs: start, end */
extern const uint32_t __ta_zero_table_end[];

/* newlib's crt0 entry point and rdimon's stdio set-up. */
extern void _start(void) __attribute__((noreturn));
extern void initialise_monitor_handles(void);

void Reset_Handler(void) __attribute__((noreturn));
void ta_default_handler(void) __attribute__((naked));
void ta_fault_report(const uint32_t *frame, uint32_t exc_return);
void software_init_hook(void);

#define TA_WEAK_HANDLER(name) void name(void) __attribute__((weak, alias("ta_default_handler")))
TA_WEAK_HANDLER(NMI_Handler);
TA_WEAK_HANDLER(MemManage_Handler);
TA_WEAK_HANDLER(BusFault_Handler);
TA_WEAK_HANDLER(UsageFault_Handler);
TA_WEAK_HANDLER(SecureFault_Handler);
TA_WEAK_HANDLER(SVC_Handler);
TA_WEAK_HANDLER(DebugMon_Handler);
TA_WEAK_HANDLER(PendSV_Handler);
TA_WEAK_HANDLER(SysTick_Handler);
TA_WEAK_HANDLER(ta_irq_handler);
void HardFault_Handler(void) __attribute__((weak, naked));

/* External interrupt vectors: the count must be a multiple of 16. */
#if TA_QEMU_NUM_IRQ % 16 != 0 || TA_QEMU_NUM_IRQ > 128
#error "TA_QEMU_NUM_IRQ must be a multiple of 16, at most 128"
#endif
#define TA_IRQ_1 {.handler = ta_irq_handler},
#define TA_IRQ_4 TA_IRQ_1 TA_IRQ_1 TA_IRQ_1 TA_IRQ_1
#define TA_IRQ_16 TA_IRQ_4 TA_IRQ_4 TA_IRQ_4 TA_IRQ_4
#if TA_QEMU_NUM_IRQ >= 64
#define TA_IRQ_LOW TA_IRQ_16 TA_IRQ_16 TA_IRQ_16 TA_IRQ_16
#else
#define TA_IRQ_LOW
#endif
#if TA_QEMU_NUM_IRQ % 64 >= 32
#define TA_IRQ_MID TA_IRQ_16 TA_IRQ_16
#else
#define TA_IRQ_MID
#endif
#if TA_QEMU_NUM_IRQ % 32 >= 16
#define TA_IRQ_HIGH TA_IRQ_16
#else
#define TA_IRQ_HIGH
#endif
#if TA_QEMU_NUM_IRQ >= 128
#define TA_IRQ_VECTORS TA_IRQ_LOW TA_IRQ_LOW
#else
#define TA_IRQ_VECTORS TA_IRQ_LOW TA_IRQ_MID TA_IRQ_HIGH
#endif

typedef union {
    void (*handler)(void);
    void *stack_top;
} ta_vector_t;

/* Placed at the start of ITCM (an547) or SSRAM1 (an386): VTOR's reset value. */
__attribute__((section(".vectors"), used))
const ta_vector_t ta_vector_table[16 + TA_QEMU_NUM_IRQ] = {[0] = {.stack_top = __stack},
                                                           [1] = {.handler = Reset_Handler},
                                                           [2] = {.handler = NMI_Handler},
                                                           [3] = {.handler = HardFault_Handler},
                                                           [4] = {.handler = MemManage_Handler},
                                                           [5] = {.handler = BusFault_Handler},
                                                           [6] = {.handler = UsageFault_Handler},
                                                           [7] = {.handler = SecureFault_Handler},
                                                           [8] = {.handler = ta_default_handler},
                                                           [9] = {.handler = ta_default_handler},
                                                           [10] = {.handler = ta_default_handler},
                                                           [11] = {.handler = SVC_Handler},
                                                           [12] = {.handler = DebugMon_Handler},
                                                           [13] = {.handler = ta_default_handler},
                                                           [14] = {.handler = PendSV_Handler},
                                                           [15] = {.handler = SysTick_Handler},
                                                           TA_IRQ_VECTORS};

static void zero_sections(void)
{
    const uint32_t *entry;

    for (entry = __ta_zero_table_start; entry < __ta_zero_table_end; entry += 2) {
        volatile uint32_t *p = (volatile uint32_t *)(uintptr_t)entry[0];
        volatile uint32_t *end = (volatile uint32_t *)(uintptr_t)entry[1];

        while (p < end)
            *p++ = 0;
    }
}

void Reset_Handler(void)
{
    /* CP10 and CP11 full access: FPU, and MVE on the Cortex-M55. */
    SCB_CPACR |= 0xFu << 20;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
#if TA_HAS_STACK_LIMIT
    /* A stack overflow now raises a UsageFault (reported as a HardFault). */
    __asm__ volatile("msr msplim, %0" : : "r"(__ta_stack_limit));
#endif
    zero_sections();
    _start();
}

/* Called by crt0 before constructors and main: lets newlib's stdio work. */
void software_init_hook(void)
{
    initialise_monitor_handles();
}

static void report_field(const char *name, uint32_t value)
{
    ta_semihost_write_str(name);
    ta_semihost_write_hex(value);
}

/*
 * Prints the stacked registers and fault status registers, then ends QEMU.
 * `frame` is the exception stack frame: r0-r3, r12, lr, pc, xPSR.
 */
void ta_fault_report(const uint32_t *frame, uint32_t exc_return)
{
    uint32_t ipsr;

    __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
    ta_semihost_write_str("\n*** fault: exception ");
    ta_semihost_write_uint(ipsr & 0x1ffu);
    ta_semihost_write_str(ipsr == 3 ? " (HardFault)" : "");
    report_field("\n*** pc=", frame[6]);
    report_field(" lr=", frame[5]);
    report_field(" xpsr=", frame[7]);
    report_field(" exc_return=", exc_return);
    report_field("\n*** cfsr=", SCB_CFSR);
    report_field(" hfsr=", SCB_HFSR);
    report_field(" mmfar=", SCB_MMFAR);
    report_field(" bfar=", SCB_BFAR);
#if TA_HAS_STACK_LIMIT
    report_field(" sfsr=", SAU_SFSR);
    report_field(" sfar=", SAU_SFAR);
#endif
    ta_semihost_write_str("\n");
    ta_semihost_exit(TA_QEMU_EXIT_FAULT);
}

/*
 * The report needs some stack even when the fault was a stack overflow:
 * on Armv8-M the handlers first remove the main stack limit.
 */
#if TA_HAS_STACK_LIMIT
#define TA_DROP_STACK_LIMIT "movs r2, #0\n\tmsr msplim, r2\n\t"
#else
#define TA_DROP_STACK_LIMIT ""
#endif

/*
 * Finds the stack the exception frame was pushed on (EXC_RETURN bit 2:
 * 0 = MSP, 1 = PSP) and passes it to ta_fault_report.
 */
void HardFault_Handler(void)
{
    /* clang-format off */
    __asm__ volatile(
        TA_DROP_STACK_LIMIT
        "tst lr, #4\n\t"
        "ite eq\n\t"
        "mrseq r0, msp\n\t"
        "mrsne r0, psp\n\t"
        "mov r1, lr\n\t"
        "b ta_fault_report\n\t");
    /* clang-format on */
}

/* Every other exception without a handler of its own ends the run too. */
void ta_default_handler(void)
{
    /* clang-format off */
    __asm__ volatile(
        TA_DROP_STACK_LIMIT
        "tst lr, #4\n\t"
        "ite eq\n\t"
        "mrseq r0, msp\n\t"
        "mrsne r0, psp\n\t"
        "mov r1, lr\n\t"
        "b ta_fault_report\n\t");
    /* clang-format on */
}
