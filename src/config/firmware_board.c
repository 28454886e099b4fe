/*
 * firmware_board.c - the boards of firmware_board.h. The figures are the
 * QEMU kit's (tests/qemu/run.sh): clock, interrupt count, CPU flags.
 */
#include "firmware_board.h"

#include <stddef.h>
#include <string.h>

static const TaFirmwareBoard boards[] = {
    {"mps3_an547", "mps3-an547", "Cortex-M55 with Helium", "-mcpu=cortex-m55 -mfloat-abi=hard",
     "32000000", "96", "tests/qemu/mps3_an547.ld"},
    {"mps2_an386", "mps2-an386", "Cortex-M4F", "-mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16",
     "25000000", "32", "tests/qemu/mps2_an386.ld"},
};

const TaFirmwareBoard *ta_firmware_board(const char *target)
{
    for (size_t i = 0; target && i < sizeof boards / sizeof boards[0]; i++)
        if (strcmp(boards[i].target, target) == 0)
            return &boards[i];
    return NULL;
}

const char *ta_firmware_board_list(void)
{
    return "mps3_an547 (Cortex-M55 with Helium), mps2_an386 (Cortex-M4F)";
}
