/*
 * ta_test.c - the harness behind ta_test.h.
 */
#include "ta_test.h"

void ta_test_write_uint(unsigned long long v)
{
    char digits[24];
    char out[24];
    unsigned n = 0, i = 0;
    do {
        digits[n++] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v != 0);
    while (n > 0) {
        out[i++] = digits[--n];
    }
    out[i] = '\0';
    ta_test_write(out);
}

void ta_test_write_int(long long v)
{
    if (v < 0) {
        ta_test_write("-");
        ta_test_write_uint(0ull - (unsigned long long)v);
    } else {
        ta_test_write_uint((unsigned long long)v);
    }
}

static void write_location(const char *file, int line)
{
    ta_test_write("FAIL ");
    ta_test_write(file);
    ta_test_write(":");
    ta_test_write_uint((unsigned long long)line);
    ta_test_write(": ");
}

void ta_test_fail(const char *file, int line, const char *expr)
{
    write_location(file, line);
    ta_test_write(expr);
    ta_test_write("\n");
    ta_test_exit(1);
}

void ta_test_fail_eq(const char *file, int line, const char *a_expr, const char *b_expr,
                     unsigned long long a, unsigned long long b)
{
    write_location(file, line);
    ta_test_write(a_expr);
    ta_test_write(" == ");
    ta_test_write(b_expr);
    ta_test_write(" (");
    ta_test_write_uint(a);
    ta_test_write(" != ");
    ta_test_write_uint(b);
    ta_test_write(")\n");
    ta_test_exit(1);
}

void ta_test_fail_eq_int(const char *file, int line, const char *a_expr, const char *b_expr,
                         long long a, long long b)
{
    write_location(file, line);
    ta_test_write(a_expr);
    ta_test_write(" == ");
    ta_test_write(b_expr);
    ta_test_write(" (");
    ta_test_write_int(a);
    ta_test_write(" != ");
    ta_test_write_int(b);
    ta_test_write(")\n");
    ta_test_exit(1);
}

static int same(const char *a, const char *b)
{
    while (*a != '\0' && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

unsigned ta_test_run_suite(const ta_test_suite_t *suite, const char *name)
{
    unsigned i, run = 0;
    for (i = 0; i < suite->count; i++) {
        if (name != NULL && !same(name, suite->cases[i].name)) {
            continue;
        }
        suite->cases[i].run();
        ta_test_write("ok ");
        ta_test_write(suite->name);
        ta_test_write(".");
        ta_test_write(suite->cases[i].name);
        ta_test_write("\n");
        run++;
    }
    return run;
}

int ta_test_main(const ta_test_suite_t *suite, int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : NULL;
    unsigned run = ta_test_run_suite(suite, name);
    if (run == 0) {
        ta_test_write("no case named ");
        ta_test_write(name != NULL ? name : "(none)");
        ta_test_write(" in suite ");
        ta_test_write(suite->name);
        ta_test_write("\n");
        return 2;
    }
    ta_test_write_uint(run);
    ta_test_write(" passed, 0 failed\n");
    return 0;
}
