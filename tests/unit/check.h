/*
 * check.h - the checking scaffolding of the planner unit tests
 * (test_pack.c, test_planners.c, test_overlap_pack.c): CHECK counts and
 * reports a failed condition without stopping, so one run lists every
 * failure; check_summary turns the count into the exit status. Each test
 * program includes it once.
 */
#ifndef TINYAOT_TESTS_UNIT_CHECK_H
#define TINYAOT_TESTS_UNIT_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond, ...)                                                    \
    do {                                                                    \
        if (!(cond)) {                                                      \
            failures++;                                                     \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                   \
            fputc('\n', stderr);                                            \
        }                                                                   \
    } while (0)

/* The exit status of a test program named `what`: 1 after any failed check. */
static int check_summary(const char *what)
{
    if (failures) {
        fprintf(stderr, "%s: %d checks failed\n", what, failures);
        return 1;
    }
    printf("%s: all checks passed\n", what);
    return 0;
}

#endif
