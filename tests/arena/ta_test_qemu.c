/*
 * ta_test_qemu.c - ta_test.h's platform layer on the bare-metal QEMU kit
 * (tests/qemu): output and exit status through semihosting.
 */
#include "semihost.h"
#include "ta_test.h"

void ta_test_write(const char *text)
{
    ta_semihost_write_str(text);
}

void ta_test_exit(int status)
{
    ta_semihost_exit(status);
}
