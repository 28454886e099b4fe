/* strbuf.c - growable text buffers, malloc-backed so they can outlive a pool. */
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void reserve(TaBuf *b, size_t extra)
{
    if (extra > SIZE_MAX - b->len - 1)
        ta_bug(__FILE__, __LINE__, "buffer size overflow");
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    b->data = ta_heap_realloc(b->data, cap);
    b->cap = cap;
}

void ta_buf_append(TaBuf *b, const void *data, size_t n)
{
    reserve(b, n);
    if (n)
        memcpy(b->data + b->len, data, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void ta_buf_puts(TaBuf *b, const char *s)
{
    ta_buf_append(b, s, strlen(s));
}

void ta_buf_vprintf(TaBuf *b, const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0)
        ta_bug(__FILE__, __LINE__, "bad format");
    reserve(b, (size_t)n);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void ta_buf_printf(TaBuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ta_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void ta_buf_c_escape(TaBuf *b, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\\' || c == '"')
            ta_buf_printf(b, "\\%c", c);
        else if (c < 0x20 || c >= 0x7f)
            ta_buf_printf(b, "\\%03o", c);
        else
            ta_buf_append(b, s, 1);
    }
}

void ta_buf_free(TaBuf *b)
{
    ta_heap_free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}
