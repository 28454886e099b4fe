/*
 * diag.c - messages for the user. Every message is one line; errors are
 * counted so a stage can report several problems before giving up.
 */
#include "util.h"

#include <stdio.h>

static const char *level_name[] = {"error", "warning", "note", "stage", "debug", "detail"};

bool ta_diag_wants(const TaDiag *d, TaDiagLevel level)
{
    return level < TA_DIAG_STAGE || (int)(level - TA_DIAG_STAGE) < d->verbose;
}

/* Names in a message come from hostile files: a key or path holding a
   newline or a terminal escape must not break the one-line rule, so control
   bytes are shown as C escapes. */
static void append_one_line(TaBuf *out, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '\n')
            ta_buf_printf(out, "\\n");
        else if (*p == '\t')
            ta_buf_printf(out, "\\t");
        else if (*p < 0x20 || *p == 0x7f)
            ta_buf_printf(out, "\\x%02x", *p);
        else
            ta_buf_append(out, p, 1);
    }
}

void ta_diagv(TaDiag *d, TaDiagLevel level, const char *fmt, va_list ap)
{
    if (!ta_diag_wants(d, level))
        return;
    if (level == TA_DIAG_WARNING && d->warnings_are_errors)
        level = TA_DIAG_ERROR;
    TaBuf text = {0};
    ta_buf_vprintf(&text, fmt, ap);
    TaBuf b = {0};
    ta_buf_printf(&b, "%s: ", level_name[level]);
    append_one_line(&b, text.data ? text.data : "");
    ta_buf_free(&text);
    if (level == TA_DIAG_ERROR)
        d->errors++;
    else if (level == TA_DIAG_WARNING)
        d->warnings++;
    if (d->pool)
        ta_vec_push(d->pool, &d->lines, ta_strdup(d->pool, b.data));
    if (d->sink)
        d->sink(d->sink_user, (int)level, b.data);
    else
        fprintf(stderr, "tinyaot: %s\n", b.data);
    ta_buf_free(&b);
}

#define DEFINE_DIAG(fn, level)               \
    void fn(TaDiag *d, const char *fmt, ...) \
    {                                        \
        va_list ap;                          \
        va_start(ap, fmt);                   \
        ta_diagv(d, level, fmt, ap);         \
        va_end(ap);                          \
    }

DEFINE_DIAG(ta_error, TA_DIAG_ERROR)
DEFINE_DIAG(ta_warn, TA_DIAG_WARNING)
DEFINE_DIAG(ta_note, TA_DIAG_NOTE)
DEFINE_DIAG(ta_stage, TA_DIAG_STAGE)
DEFINE_DIAG(ta_debug, TA_DIAG_DEBUG)
DEFINE_DIAG(ta_detail, TA_DIAG_DETAIL)
