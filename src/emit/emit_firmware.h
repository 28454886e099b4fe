/*
 * emit_firmware.h - module.type: firmware. The module folder gets
 * firmware/, a bare-metal application for the module's board
 * (config/firmware_board.h) that runs the built-in test case, prints every
 * output and what an inference cost (docs/firmware.md):
 *
 *   firmware/main.c                 prepares the module's sections, runs the test
 *                                   case, times one inference, prints outputs
 *   firmware/startup.c, semihost.c/.h, icount.c/.h   the QEMU kit's (tests/qemu)
 *   firmware/board.ld               the kit's linker script for the board, with
 *                                   `INCLUDE <prefix>_sections.ld`
 *   firmware/Makefile               make, make run (qemu-system-arm)
 *   firmware/CMakeLists.txt, firmware/arm-none-eabi.cmake   the same with CMake
 */
#ifndef TA_EMIT_FIRMWARE_H
#define TA_EMIT_FIRMWARE_H

#include "../config/firmware_board.h"
#include "../util/template.h"
#include "emit.h"

/* Writes firmware/ into the module folder `dir`. */
bool ta_emit_firmware(const TaEmitInput *in, const char *dir);

/* The parts, each with the fields of firmware_fields(): prefix, PREFIX,
   name, NAME, model_file, target, core, machine, cpu_flags, cpu_hz, num_irq. */
bool ta_emit_firmware_main(const TaEmitInput *in, const TaFields *f, const char *dir);
bool ta_emit_firmware_build(const TaEmitInput *in, const TaFields *f, const char *dir);

#endif /* TA_EMIT_FIRMWARE_H */
