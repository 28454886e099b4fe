/*
 * test_case_main.c - runs a module's built-in test case and prints the
 * result: build with -DTA_PREFIX=<prefix> and the module's sources (host
 * or tests/qemu/run.sh). The exit status is test_case_run's.
 */
#include <stdio.h>
#include <string.h>

#define TA_CAT2(a, b) a##b
#define TA_CAT(a, b) TA_CAT2(a, b)
#define TA_STR2(x) #x
#define TA_STR(x) TA_STR2(x)
#define PFX(name) TA_CAT(TA_PREFIX, name)

#include TA_STR(TA_CAT(TA_PREFIX, _test_case.h))

static void report(void *user_data, const PFX(_test_case_mismatch_t) * m)
{
    (void)user_data;
    printf("mismatch: run %d output %d element %lu: expected %.9g, got %.9g\n", m->run, m->output,
           (unsigned long)m->element, m->expected, m->actual);
}

int main(void)
{
    PFX(_model_context_t) ctx;
    memset(&ctx, 0, sizeof ctx);
    PFX(_test_case_set_report)(report, NULL);
    int status = PFX(_test_case_run)(&ctx);
    printf("test case: status %d (%s)\n", status, ta_status_name(status));
    return status;
}
