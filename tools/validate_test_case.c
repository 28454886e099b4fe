/*
 * validate_test_case.c - the reference when TFLite Micro's interpreter is
 * not available: the module's own built-in test case (test.enabled). A
 * small program, written here and built with the module on the host,
 * writes the test case's stimulus and expected outputs in the runners'
 * layout (inputs.bin, expected.bin), so every build is compared with them
 * byte for byte, output by output, as with the interpreter.
 *
 * The expected outputs are those of the conversion: computed on the host
 * with tinyaot's own kernels, or read from test.outputs. So this checks
 * that each build computes what the conversion computed, not that tinyaot
 * agrees with TFLite Micro (unless test.outputs came from TFLite Micro).
 */
#define _POSIX_C_SOURCE 200809L
#include "validate.h"

#include <stdlib.h>
#include <string.h>

#include "../src/util/template.h"

static const char *const dump_template =
    "/* test_case_dump.c - written by tinyaot validate: the stimulus and the\n"
    "   expected outputs of the module's built-in test case, in the runners'\n"
    "   layout (every input of run 0, then of run 1, ...). */\n"
    "#include <stdio.h>\n"
    "\n"
    "#include \"${prefix}_test_case.h\"\n"
    "\n"
    "typedef struct {\n"
    "    const unsigned char *data; /* every run back to back */\n"
    "    size_t bytes;\n"
    "} Part;\n"
    "\n"
    "static const Part inputs[] = {\n"
    "$input_parts};\n"
    "static const Part outputs[] = {\n"
    "$output_parts};\n"
    "\n"
    "static int write_runs(const char *path, const Part *parts, size_t n)\n"
    "{\n"
    "    FILE *f = fopen(path, \"wb\");\n"
    "    if (!f)\n"
    "        return 1;\n"
    "    for (size_t r = 0; r < ${PREFIX}_TEST_CASE_RUNS; r++)\n"
    "        for (size_t i = 0; i < n; i++) {\n"
    "            size_t run_bytes = parts[i].bytes / ${PREFIX}_TEST_CASE_RUNS;\n"
    "            fwrite(parts[i].data + r * run_bytes, 1, run_bytes, f);\n"
    "        }\n"
    "    return fclose(f) != 0;\n"
    "}\n"
    "\n"
    "int main(void)\n"
    "{\n"
    "    if (write_runs(\"inputs.bin\", inputs, sizeof inputs / sizeof inputs[0]) ||\n"
    "        write_runs(\"expected.bin\", outputs, sizeof outputs / sizeof outputs[0])) {\n"
    "        fprintf(stderr, \"test_case_dump: cannot write inputs.bin or expected.bin\\n\");\n"
    "        return 1;\n"
    "    }\n"
    "    return 0;\n"
    "}\n";

static const char
    *const part_template = "    {(const unsigned char *)${prefix}_test_case_${kind}${index},\n"
                           "     sizeof ${prefix}_test_case_${kind}${index}},\n";

static void parts(TaBuf *b, const TaFields *outer, const char *kind, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        TaFields f = ta_fields(outer->pool, outer);
        ta_field(&f, "kind", kind);
        ta_field_size(&f, "index", i);
        ta_template(b, &f, part_template);
    }
}

static char *upper(const char *s)
{
    char *u = va_format("%s", s);
    for (char *p = u; p && *p; p++)
        if (*p >= 'a' && *p <= 'z')
            *p = (char)(*p - 'a' + 'A');
    return u;
}

int va_test_case_reference(const VaModule *m, const char *cc, size_t num_in, size_t num_out)
{
    TaPool pool = {0};
    TaBuf in_parts = {0}, out_parts = {0}, text = {0};
    char *prefix_upper = upper(m->prefix);
    char *path = va_format("%s/test_case_dump.c", m->work);
    int result = 1;
    if (prefix_upper && path) {
        TaFields f = ta_fields(&pool, NULL);
        ta_field(&f, "prefix", m->prefix);
        ta_field(&f, "PREFIX", prefix_upper);
        parts(&in_parts, &f, "input", num_in);
        parts(&out_parts, &f, "output", num_out);
        ta_field(&f, "input_parts", in_parts.data ? in_parts.data : "");
        ta_field(&f, "output_parts", out_parts.data ? out_parts.data : "");
        ta_template(&text, &f, dump_template);
        if (!text.data || !va_write_file(path, text.data, text.len))
            fprintf(stderr, "tinyaot validate: cannot write %s\n", path);
        else
            result = va_build_and_run_host_main(m, cc, path, "test_case_dump",
                                                "writing the test case's data");
    }
    ta_buf_free(&in_parts);
    ta_buf_free(&out_parts);
    ta_buf_free(&text);
    ta_pool_free(&pool);
    free(prefix_upper);
    free(path);
    return result;
}
