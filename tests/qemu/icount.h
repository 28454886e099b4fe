/*
 * icount.h - deterministic instruction counts on QEMU Cortex-M boards.
 *
 * Run QEMU with `-icount shift=N` (run.sh uses N = 5): every guest
 * instruction then advances virtual time by exactly 2^N ns. SysTick,
 * clocked from the processor clock, counts that virtual time in ticks of
 * 1/TA_QEMU_CPU_HZ seconds, so
 *
 *     instructions = ticks * 1e9 / (TA_QEMU_CPU_HZ * 2^N)
 *
 * which is ticks * 125 / 128 on mps3-an547 (32 MHz) and ticks * 5 / 4 on
 * mps2-an386 (25 MHz). run.sh defines TA_QEMU_CPU_HZ and TA_ICOUNT_SHIFT
 * for the chosen board. The counter is 24 bits wide; its interrupt
 * (SysTick_Handler, defined in icount.c) extends it to 64 bits.
 *
 * The figure is instructions executed, not cycles: QEMU is not cycle
 * accurate. It is identical from run to run and exact to within one
 * instruction of rounding. The counter's own instructions (the start/stop
 * pair and the SysTick handler, which runs every 2^24 ticks) are not
 * included; any other interrupt handler's are. Measurements do not nest.
 * icount.c defines SysTick_Handler, so a test using it cannot have its own.
 */
#ifndef TA_ICOUNT_H
#define TA_ICOUNT_H

#include <stdint.h>

/* Starts a measurement (restarts it when one is running). */
void ta_icount_start(void);

/*
 * Stops the measurement and returns the instructions executed since
 * ta_icount_start() returned, less the fixed cost of the start/stop pair
 * itself (measured once, on the first start) and of the SysTick handler.
 */
uint64_t ta_icount_stop(void);

/* SysTick ticks of the last measurement, before the overhead is removed. */
uint64_t ta_icount_last_ticks(void);

/* Ticks the empty start/stop pair costs; subtracted by ta_icount_stop(). */
uint64_t ta_icount_overhead_ticks(void);

/* Converts SysTick ticks to instructions with the formula above. */
uint64_t ta_icount_ticks_to_instructions(uint64_t ticks);

/*
 * A free-running clock for timers that read it at will (examples/op_timer's
 * swappable clock): ta_icount_clock_start() starts the counter (returns 1);
 * ta_icount_clock() is the SysTick ticks since then, modulo 2^32, until the
 * next ta_icount_start/stop. Convert differences with the formula above.
 */
int ta_icount_clock_start(void);
uint32_t ta_icount_clock(void);

#endif /* TA_ICOUNT_H */
