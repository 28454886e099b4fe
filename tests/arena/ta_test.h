/*
 * ta_test.h - a tiny self-checking test harness for the arena tests, usable
 * on the host and on bare-metal Cortex-M (no printf, no malloc).
 *
 * A test file lists its cases in a ta_test_suite_t and ends with
 * TA_TEST_MAIN(suite). Run with no argument, the program runs every case;
 * with a case name, only that case. A failed check prints
 * "FAIL file:line: expression" (and the two values for the _EQ checks) and
 * ends the program with exit status 1 at once. Output goes through
 * ta_test_write() / ta_test_exit(), which ta_test_host.c implements with
 * stdio and the Cortex-M runner with semihosting.
 */
#ifndef TA_TEST_H
#define TA_TEST_H

#include <stddef.h>

typedef struct {
    const char *name;
    void (*run)(void);
} ta_test_case_t;

typedef struct {
    const char *name;
    const ta_test_case_t *cases;
    unsigned count;
} ta_test_suite_t;

/* Platform layer. */
void ta_test_write(const char *text);
void ta_test_exit(int status);

/* Harness. */
void ta_test_fail(const char *file, int line, const char *expr);
void ta_test_fail_eq(const char *file, int line, const char *a_expr, const char *b_expr,
                     unsigned long long a, unsigned long long b);
void ta_test_fail_eq_int(const char *file, int line, const char *a_expr, const char *b_expr,
                         long long a, long long b);
void ta_test_write_uint(unsigned long long v);
void ta_test_write_int(long long v);
/* Runs one case by name, or all if name is NULL; returns cases run. */
unsigned ta_test_run_suite(const ta_test_suite_t *suite, const char *name);
int ta_test_main(const ta_test_suite_t *suite, int argc, char **argv);

#define TA_CHECK(cond)                               \
    do {                                             \
        if (!(cond)) {                               \
            ta_test_fail(__FILE__, __LINE__, #cond); \
        }                                            \
    } while (0)

/* Compares two unsigned (or pointer-sized) integers and prints both. */
#define TA_CHECK_EQ(a, b)                                              \
    do {                                                               \
        unsigned long long ta_a_ = (unsigned long long)(a);            \
        unsigned long long ta_b_ = (unsigned long long)(b);            \
        if (ta_a_ != ta_b_) {                                          \
            ta_test_fail_eq(__FILE__, __LINE__, #a, #b, ta_a_, ta_b_); \
        }                                                              \
    } while (0)

/* Compares two signed integers (status codes such as -EINVAL). */
#define TA_CHECK_INT(a, b)                                                 \
    do {                                                                   \
        long long ta_a_ = (long long)(a);                                  \
        long long ta_b_ = (long long)(b);                                  \
        if (ta_a_ != ta_b_) {                                              \
            ta_test_fail_eq_int(__FILE__, __LINE__, #a, #b, ta_a_, ta_b_); \
        }                                                                  \
    } while (0)

#define TA_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#ifdef TA_TEST_NO_MAIN
#define TA_TEST_MAIN(suite)
#else
#define TA_TEST_MAIN(suite)                        \
    int main(int argc, char **argv)                \
    {                                              \
        return ta_test_main(&(suite), argc, argv); \
    }
#endif

#endif /* TA_TEST_H */
