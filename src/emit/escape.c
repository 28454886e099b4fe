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

const char *ta_escape_xml(TaPool *pool, const char *s)
{
    static const struct {
        char c;
        const char *entity;
    } entities[] = {
        {'&', "&amp;"}, {'<', "&lt;"}, {'>', "&gt;"}, {'"', "&quot;"}, {'\'', "&apos;"}};
    TaBuf b = {0};
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        const char *entity = NULL;
        for (size_t i = 0; i < TA_COUNT_OF(entities) && !entity; i++)
            if (*p == (unsigned char)entities[i].c)
                entity = entities[i].entity;
        if (entity)
            ta_buf_puts(&b, entity);
        else if (!printable(*p))
            ta_buf_printf(&b, "\\x%02x", *p);
        else
            ta_buf_append(&b, (const char *)p, 1);
    }
    return finish(pool, &b);
}
