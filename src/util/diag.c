/*
 * diag.c - messages for the user. Every message is one line; errors are
 * counted so a stage can report several problems before giving up.
 */
#include "util.h"

#include <stdio.h>

static const char *level_name[] = {"error", "warning", "note"};

void ta_diagv(TaDiag *d, TaDiagLevel level, const char *fmt, va_list ap)
{
    if (level == TA_DIAG_WARNING && d->warnings_are_errors)
        level = TA_DIAG_ERROR;
    TaBuf b = {0};
    ta_buf_printf(&b, "%s: ", level_name[level]);
    ta_buf_vprintf(&b, fmt, ap);
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

#define DEFINE_DIAG(fn, level)                                                 \
    void fn(TaDiag *d, const char *fmt, ...)                                   \
    {                                                                          \
        va_list ap;                                                            \
        va_start(ap, fmt);                                                     \
        ta_diagv(d, level, fmt, ap);                                           \
        va_end(ap);                                                            \
    }

DEFINE_DIAG(ta_error, TA_DIAG_ERROR)
DEFINE_DIAG(ta_warn, TA_DIAG_WARNING)
DEFINE_DIAG(ta_note, TA_DIAG_NOTE)
