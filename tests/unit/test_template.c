/*
 * test_template.c - the named-field templates of src/util/template.c:
 * substitution, escapes, nested field sets, and that a name no field
 * defines is refused instead of passing through. With the argument
 * "unknown" it calls ta_template on such a name, which must stop the
 * program with an internal error: the abort is caught and turned into a
 * clean exit, and CMake checks the message.
 */
#define _POSIX_C_SOURCE 200112L
#include "util/template.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int failures;

static void expect(const char *what, const char *got, const char *want)
{
    if (strcmp(got, want) != 0) {
        printf("FAIL %s: got [%s], want [%s]\n", what, got, want);
        failures++;
    }
}

static const char *expand(const TaFields *f, const char *text)
{
    TaBuf b = {0};
    const char *problem = NULL;
    if (!ta_template_try(&b, f, text, &problem)) {
        printf("FAIL %s: refused: %s\n", text, problem);
        failures++;
    }
    const char *s = ta_strdup(f->pool, b.data ? b.data : "");
    ta_buf_free(&b);
    return s;
}

/* The text must be refused, with nothing appended and a message naming `name`. */
static void expect_refused(const TaFields *f, const char *text, const char *name)
{
    TaBuf b = {0};
    ta_buf_puts(&b, "kept");
    const char *problem = NULL;
    bool ok = ta_template_try(&b, f, text, &problem);
    if (ok || !problem || !strstr(problem, name) || strcmp(b.data, "kept") != 0) {
        printf("FAIL refusal of [%s]: ok=%d problem=[%s] buffer=[%s]\n", text, ok,
               problem ? problem : "(none)", b.data);
        failures++;
    }
    ta_buf_free(&b);
}

static void on_abort(int sig)
{
    (void)sig;
    static const char note[] = "test_template: aborted as expected\n";
    if (write(STDOUT_FILENO, note, sizeof note - 1) < 0)
        _exit(2);
    _exit(0);
}

int main(int argc, char **argv)
{
    TaPool pool = {0};
    TaFields outer = ta_fields(&pool, NULL);
    ta_field(&outer, "prefix", "kws");
    ta_field(&outer, "PREFIX", "KWS");
    if (argc > 1 && strcmp(argv[1], "unknown") == 0) {
        TaBuf b = {0};
        signal(SIGABRT, on_abort);
        ta_template(&b, &outer, "int ${prefx}_model_run(void);\n");
        printf("ta_template accepted an unknown name\n");
        return 1;
    }

    expect("plain", expand(&outer, "no fields here\n"), "no fields here\n");
    expect("empty", expand(&outer, ""), "");
    expect("bare name", expand(&outer, "$prefix"), "kws");
    expect("name ends at a non-name byte", expand(&outer, "$prefix.h $PREFIX/"), "kws.h KWS/");
    expect("braces end a name", expand(&outer, "${prefix}_model_init ${PREFIX}_H"),
           "kws_model_init KWS_H");
    expect("dollar escape", expand(&outer, "$$(${PREFIX}_DIR) $${x} $$"), "$(KWS_DIR) ${x} $");
    expect("printf directives are text", expand(&outer, "%s %d %% $prefix"), "%s %d %% kws");

    TaFields inner = ta_fields(&pool, &outer);
    ta_field_int(&inner, "count", -3);
    ta_field_size(&inner, "bytes", (size_t)4096);
    ta_field(&inner, "prefix", "inner");
    expect("inner set first", expand(&inner, "$prefix $PREFIX $count $bytes"), "inner KWS -3 4096");
    ta_field(&inner, "count", "7");
    expect("latest definition wins", expand(&inner, "$count"), "7");
    expect("outer set unchanged", expand(&outer, "$prefix"), "kws");

    TaFields values = ta_fields(&pool, NULL);
    ta_field(&values, "v", "$prefix ${v} $$");
    expect("values are not templates", expand(&values, "[$v]"), "[$prefix ${v} $$]");

    expect_refused(&outer, "int $prefx_run(void);", "prefx_run");
    expect_refused(&outer, "${prefix_}", "prefix_");
    expect_refused(&inner, "$count $missing", "missing");
    expect_refused(&outer, "a lone $ sign", "stray");
    expect_refused(&outer, "${prefix", "stray");
    expect_refused(&outer, "${}", "stray");
    expect_refused(&outer, "$1", "stray");
    expect_refused(&outer, "trailing $", "stray");

    ta_pool_free(&pool);
    if (failures)
        return 1;
    printf("template: all checks passed\n");
    return 0;
}
