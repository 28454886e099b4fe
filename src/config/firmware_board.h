/*
 * firmware_board.h - the boards module.type: firmware writes an
 * application for: the QEMU boards of tests/qemu (run.sh, README.md),
 * keyed by the built-in target describing the same memory map.
 */
#ifndef TA_FIRMWARE_BOARD_H
#define TA_FIRMWARE_BOARD_H

typedef struct TaFirmwareBoard {
    const char *target;     /* "mps3_an547": platform.name */
    const char *machine;    /* "mps3-an547": qemu-system-arm -M */
    const char *core;       /* "Cortex-M55 (Helium)", for comments and messages */
    const char *cpu_flags;  /* arm-none-eabi-gcc flags for the core */
    const char *cpu_hz;     /* SysTick clock (icount.c: TA_QEMU_CPU_HZ) */
    const char *num_irq;    /* external interrupts (startup.c: TA_QEMU_NUM_IRQ) */
    const char *kit_script; /* the kit's linker script, a built-in resource */
} TaFirmwareBoard;

/* The board for platform.name `target`, or NULL. */
const TaFirmwareBoard *ta_firmware_board(const char *target);
/* "mps3_an547 (Cortex-M55 (Helium)), mps2_an386 (...)", for messages. */
const char *ta_firmware_board_list(void);

#endif /* TA_FIRMWARE_BOARD_H */
