/*
 * ta_test_host.c - ta_test.h's platform layer on a hosted system.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ta_test.h"

void ta_test_write(const char *text)
{
    fputs(text, stdout);
    fflush(stdout);
}

void ta_test_exit(int status)
{
    exit(status);
}
