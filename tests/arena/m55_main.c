/*
 * m55_main.c - runs every arena test suite in one bare-metal program (the
 * suites are built with TA_TEST_NO_MAIN). The syn_mem suite goes first:
 * its first case checks the compatibility arena before any init.
 */
#include "ta_test.h"

extern const ta_test_suite_t ta_suite_syn_mem;
extern const ta_test_suite_t ta_suite_arena_api;
extern const ta_test_suite_t ta_suite_arena_improvements;
extern const ta_test_suite_t ta_suite_arena_bind;

int main(void)
{
    const ta_test_suite_t *suites[4];
    unsigned i, run = 0;

    suites[0] = &ta_suite_syn_mem;
    suites[1] = &ta_suite_arena_api;
    suites[2] = &ta_suite_arena_improvements;
    suites[3] = &ta_suite_arena_bind;
    for (i = 0; i < 4; i++) {
        run += ta_test_run_suite(suites[i], NULL);
    }
    if (run == 0) {
        ta_test_write("no test case ran\n");
        return 1;
    }
    ta_test_write_uint(run);
    ta_test_write(" passed, 0 failed\n");
    return 0;
}
