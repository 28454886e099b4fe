/*
 * escape.c - escaping for each syntax of the generated files (escape.h).
 */
#include "escape.h"

#include <string.h>

static bool printable(unsigned char c)
{
    return c >= 0x20 && c < 0x7f;
}

static const char *finish(TaPool *pool, TaBuf *b)
{
    const char *s = ta_strdup(pool, b->data ? b->data : "");
    ta_buf_free(b);
    return s;
}

const char *ta_escape_c_comment(TaPool *pool, const char *s)
{
    TaBuf b = {0};
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned char c = *p;
        /* "*" then "/" ends the comment, "/" then "*" warns (-Wcomment), and
           "??" may start a trigraph: write the second character escaped. */
        bool pair = p != (const unsigned char *)s &&
                    ((p[-1] == '*' && c == '/') || (p[-1] == '/' && c == '*') ||
                     (p[-1] == '?' && c == '?'));
        if (!printable(c) || c == '\\' || pair)
            ta_buf_printf(&b, "\\x%02x", c);
        else
            ta_buf_append(&b, (const char *)p, 1);
    }
    return finish(pool, &b);
}

const char *ta_escape_c_string(TaPool *pool, const char *s)
{
    TaBuf b = {0};
    ta_buf_puts(&b, "\"");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned char c = *p;
        if (c == '"' || c == '\\')
            ta_buf_printf(&b, "\\%c", c);
        else if (c == '?')
            ta_buf_puts(&b, "\\?"); /* never a trigraph */
        else if (!printable(c))
            ta_buf_printf(&b, "\\%03o", c); /* octal: at most three digits */
        else
            ta_buf_append(&b, (const char *)p, 1);
    }
    ta_buf_puts(&b, "\"");
    return finish(pool, &b);
}

const char *ta_escape_line_comment(TaPool *pool, const char *s)
{
    TaBuf b = {0};
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (!printable(*p) || *p == '\\')
            ta_buf_printf(&b, "\\x%02x", *p);
        else
            ta_buf_append(&b, (const char *)p, 1);
    }
    return finish(pool, &b);
}

const char *ta_escape_yaml_string(TaPool *pool, const char *s)
{
    TaBuf b = {0};
    ta_buf_puts(&b, "\"");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            ta_buf_printf(&b, "\\%c", *p);
        else if (!printable(*p))
            ta_buf_printf(&b, "\\x%02x", *p);
        else
            ta_buf_append(&b, (const char *)p, 1);
    }
    ta_buf_puts(&b, "\"");
    return finish(pool, &b);
}

/* U+FFFE and U+FFFF (EF BF BE, EF BF BF): UTF-8, but no XML character. */
static bool xml_noncharacter(const unsigned char *p, int n)
{
    return n == 3 && p[0] == 0xef && p[1] == 0xbf && (p[2] == 0xbe || p[2] == 0xbf);
}

static const char *escape_markup(TaPool *pool, const char *s, bool in_comment)
{
    TaBuf b = {0};
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int n = 1;
        /* "--" may not appear inside an XML comment: split each pair. */
        if (in_comment && *p == '-' && p[1] == '-') {
            ta_buf_puts(&b, "- ");
            p++;
            continue;
        }
        switch (*p) {
        case '&': ta_buf_puts(&b, "&amp;"); break;
        case '<': ta_buf_puts(&b, "&lt;"); break;
        case '>': ta_buf_puts(&b, "&gt;"); break;
        case '"': ta_buf_puts(&b, "&quot;"); break;
        case '\'': ta_buf_puts(&b, "&#39;"); break;
        default:
            if (printable(*p))
                ta_buf_append(&b, (const char *)p, 1);
            else if (*p < 0x80)
                ta_buf_printf(&b, "\\x%02x", *p);
            else if ((n = ta_utf8_length(p)) > 0 && !xml_noncharacter(p, n))
                ta_buf_append(&b, (const char *)p, (size_t)n);
            else {
                ta_buf_puts(&b, in_comment ? "?" : "&#xfffd;");
                n = n > 0 ? n : 1;
            }
        }
        p += n;
    }
    /* A comment's text may not end in "-" either (before "-->"). */
    if (in_comment && b.len && b.data[b.len - 1] == '-')
        ta_buf_puts(&b, " ");
    return finish(pool, &b);
}

const char *ta_escape_markup(TaPool *pool, const char *s)
{
    return escape_markup(pool, s, false);
}

const char *ta_escape_markup_comment(TaPool *pool, const char *s)
{
    return escape_markup(pool, s, true);
}
