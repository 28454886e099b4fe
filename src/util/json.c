/*
 * json.c - a streaming JSON writer with two-space indentation. Output is
 * deterministic: no maps are iterated, callers write keys in a fixed order.
 */
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void newline(TaJson *j)
{
    ta_buf_puts(j->out, "\n");
    for (int i = 0; i < j->depth; i++)
        ta_buf_puts(j->out, "  ");
}

/* Called before every value or key: a comma and a new line where needed. */
static void before_item(TaJson *j)
{
    if (j->after_key) {
        j->after_key = false;
        return;
    }
    if (j->depth > 0) {
        if (j->need_comma[j->depth])
            ta_buf_puts(j->out, ",");
        newline(j);
    }
    j->need_comma[j->depth] = true;
}

static void open(TaJson *j, const char *c)
{
    before_item(j);
    ta_buf_puts(j->out, c);
    TA_ASSERT(j->depth + 1 < (int)TA_COUNT_OF(j->need_comma));
    j->depth++;
    j->need_comma[j->depth] = false;
}

static void close(TaJson *j, const char *c)
{
    bool had_items = j->need_comma[j->depth];
    j->depth--;
    if (had_items)
        newline(j);
    ta_buf_puts(j->out, c);
    if (j->depth == 0)
        ta_buf_puts(j->out, "\n");
}

void ta_json_begin_object(TaJson *j)
{
    open(j, "{");
}
void ta_json_end_object(TaJson *j)
{
    close(j, "}");
}
void ta_json_begin_array(TaJson *j)
{
    open(j, "[");
}
void ta_json_end_array(TaJson *j)
{
    close(j, "]");
}

/* util.h: the sequences JSON strings and HTML text let through. */
int ta_utf8_length(const unsigned char *s)
{
    int n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
    if (s[0] < 0xc2 || s[0] > 0xf4)
        return 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) ||
        (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
        return 0;
    return n;
}

/* Model-supplied names may hold any bytes: the output is valid JSON
   whatever they are, with a byte that is not UTF-8 written as U+FFFD. */
static void put_string(TaBuf *b, const char *s)
{
    ta_buf_puts(b, "\"");
    while (*s) {
        unsigned char c = (unsigned char)*s;
        int n = 1;
        if (c == '"' || c == '\\')
            ta_buf_printf(b, "\\%c", c);
        else if (c == '\n')
            ta_buf_puts(b, "\\n");
        else if (c < 0x20 || c == 0x7f)
            ta_buf_printf(b, "\\u%04x", c);
        else if (c < 0x80)
            ta_buf_append(b, s, 1);
        else if ((n = ta_utf8_length((const unsigned char *)s)) > 0)
            ta_buf_append(b, s, (size_t)n);
        else {
            ta_buf_puts(b, "\\ufffd");
            n = 1;
        }
        s += n;
    }
    ta_buf_puts(b, "\"");
}

void ta_json_key(TaJson *j, const char *key)
{
    before_item(j);
    put_string(j->out, key);
    ta_buf_puts(j->out, ": ");
    j->after_key = true;
}

void ta_json_string(TaJson *j, const char *s)
{
    if (!s) {
        ta_json_null(j);
        return;
    }
    before_item(j);
    put_string(j->out, s);
}

void ta_json_int(TaJson *j, int64_t v)
{
    before_item(j);
    ta_buf_printf(j->out, "%lld", (long long)v);
}

void ta_buf_shortest_double(TaBuf *b, double v)
{
    char text[64];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(text, sizeof text, "%.*g", prec, v);
        if (strtod(text, NULL) == v)
            break;
    }
    ta_buf_puts(b, text);
}

void ta_json_double(TaJson *j, double v)
{
    before_item(j);
    if (!isfinite(v)) {
        ta_buf_puts(j->out, "null");
        return;
    }
    ta_buf_shortest_double(j->out, v);
}

void ta_json_bool(TaJson *j, bool v)
{
    before_item(j);
    ta_buf_puts(j->out, v ? "true" : "false");
}

void ta_json_null(TaJson *j)
{
    before_item(j);
    ta_buf_puts(j->out, "null");
}
