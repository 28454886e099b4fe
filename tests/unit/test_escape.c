/*
 * test_escape.c - the escaping helpers of src/emit/escape.c: each output
 * keeps hostile bytes inside the construct it is pasted into; the
 * expected texts are spelled out byte for byte. ("?\?" in the literals
 * below keeps this file's own strings free of trigraphs.)
 */
#include "emit/escape.h"

#include <stdio.h>
#include <string.h>

static int failures;

static void expect(const char *what, const char *got, const char *want)
{
    if (strcmp(got, want) != 0) {
        printf("FAIL %s: got [%s], want [%s]\n", what, got, want);
        failures++;
    }
}

int main(void)
{
    TaPool pool = {0};
    /* C comments: no comment end or start, no trigraph, no line break. */
    expect("c comment", ta_escape_c_comment(&pool, "a*/b/*c?\?/d\ne\\f"),
           "a*\\x2fb/\\x2ac?\\x3f/d\\x0ae\\x5cf");
    expect("c comment, runs", ta_escape_c_comment(&pool, "**//?\?\?"), "**\\x2f/?\\x3f\\x3f");
    expect("c comment, plain", ta_escape_c_comment(&pool, "conv2d_1/BiasAdd"), "conv2d_1/BiasAdd");
    /* C strings: quotes and backslashes escaped, '?' never starts a
       trigraph, other bytes in octal (a hex escape would swallow a
       following hex digit). */
    expect("c string", ta_escape_c_string(&pool, "x\") int evil; (\"\\"),
           "\"x\\\") int evil; (\\\"\\\\\"");
    expect("c string, octal",
           ta_escape_c_string(&pool, "\n1\xff"
                                     "a?\?="),
           "\"\\0121\\377a\\?\\?=\"");
    expect("c string, plain", ta_escape_c_string(&pool, ".dtcm_bss"), "\".dtcm_bss\"");
    /* # comments: one line, no backslash. */
    expect("line comment", ta_escape_line_comment(&pool, "m\nfile(TOUCH x)\r\\$(shell y)\t"),
           "m\\x0afile(TOUCH x)\\x0d\\x5c$(shell y)\\x09");
    /* YAML double-quoted scalars. */
    expect("yaml", ta_escape_yaml_string(&pool, "null"), "\"null\"");
    expect("yaml, hostile", ta_escape_yaml_string(&pool, "a\"\n\\"), "\"a\\\"\\x0a\\\\\"");
    /* HTML text and attribute values: markup characters as references,
       well-formed UTF-8 kept (U+00E9, U+20AC), a control byte as \xNN, a
       byte that is not UTF-8 (a lone continuation, a truncated sequence)
       as U+FFFD. */
    expect("html", ta_escape_markup(&pool, "</title><script>x=\"a\" & 'b'</script>"),
           "&lt;/title&gt;&lt;script&gt;x=&quot;a&quot; &amp; &#39;b&#39;&lt;/script&gt;");
    expect("html, bytes", ta_escape_markup(&pool, "\xc3\xa9\xe2\x82\xac\n\x80z\xe2\x82"),
           "\xc3\xa9\xe2\x82\xac\\x0a&#xfffd;z&#xfffd;&#xfffd;");
    expect("html, plain", ta_escape_markup(&pool, "conv2d_1/BiasAdd;1"), "conv2d_1/BiasAdd;1");
    /* The same escaping in the .pdsc (XML): the five markup characters as
       references, bytes XML 1.0 cannot hold as text. */
    expect("xml", ta_escape_markup(&pool, "<a href=\"x\">&'\n\x01"),
           "&lt;a href=&quot;x&quot;&gt;&amp;&#39;\\x0a\\x01");
    expect("xml, plain", ta_escape_markup(&pool, "kws model v1.0"), "kws model v1.0");
    ta_pool_free(&pool);
    if (failures == 0)
        printf("escape: all passed\n");
    return failures != 0;
}
