/*
 * plan_label.c - the text on a tensor's rectangle (plan_label.h).
 */
#include "plan_label.h"

#include "escape.h"

#include <string.h>

/* How many characters the character starting at `s` shows once escaped
   for markup: one, or four for a control character (\xNN). */
static size_t shown_width(unsigned char c)
{
    return c < 0x20 || c == 0x7F ? 4 : 1;
}

static bool is_continuation(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

static bool is_break_after(unsigned char c)
{
    return c == '/' || c == ';' || c == '_' || c == '.' || c == ':' || c == ' ';
}

/* How many bytes of `s` show at most `room` characters; *brk is the end
   of the last break character among them past the first third of the
   line (0: none), *rest whether any of `s` is left over. */
static size_t fit_bytes(const char *s, size_t room, size_t *brk, bool *rest)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t shown = 0, fit = 0;
    *brk = 0;
    *rest = false;
    for (size_t i = 0; u[i]; i++) {
        if (is_continuation(u[i]))
            continue;
        shown += shown_width(u[i]);
        if (shown > room) {
            *rest = true;
            return fit;
        }
        fit = i + 1;
        while (u[fit] && is_continuation(u[fit]))
            fit++;
        if (is_break_after(u[i]) && shown * 3 >= room)
            *brk = fit;
    }
    return fit;
}

/* The next line of `s`: all of it when it fits, else up to a break past
   the first third of the line if that keeps `at_least` bytes, else as much
   as fits. */
static size_t line_bytes(const char *s, size_t room, size_t at_least, bool *rest)
{
    size_t brk;
    size_t fit = fit_bytes(s, room, &brk, rest);
    return *rest && brk > 0 && brk >= at_least ? brk : fit;
}

static const char *escaped_part(TaPool *pool, const char *s, size_t n, bool ellipsis)
{
    char *part = ta_strdup(pool, s);
    part[n] = '\0';
    return ta_format(pool, "%s%s", ta_escape_markup(pool, part), ellipsis ? "\xE2\x80\xA6" : "");
}

int ta_plan_label(TaPool *pool, const char *id, const char *name, int64_t width_px100,
                  int max_lines, const char **lines)
{
    int64_t usable = width_px100 - 2 * LABEL_PAD_PX * 100;
    size_t room = usable > 0 ? (size_t)(usable / LABEL_CHAR_PX100) : 0;
    bool rest;
    if (max_lines < 1 || room < 1 || line_bytes(id, room, 0, &rest) < strlen(id) || rest)
        return 0; /* the id does not fit on one line */
    if (max_lines > LABEL_MAX_LINES)
        max_lines = LABEL_MAX_LINES;
    /* a name shown three characters a line is no help: the id alone */
    bool named = name && *name && room >= LABEL_MIN_NAME_ROOM;
    const char *text = named ? ta_format(pool, "%s %s", id, name) : id;
    const size_t id_bytes = strlen(id);
    int count = 0;
    while (*text && count < max_lines) {
        /* the first line holds the whole id */
        size_t n = line_bytes(text, room, count == 0 ? id_bytes : 0, &rest);
        bool ellipsis = rest && count == max_lines - 1;
        if (ellipsis) {
            size_t brk;
            n = fit_bytes(text, room - 1, &brk, &rest); /* one character for the ellipsis */
            if (count == 0 && n < id_bytes)
                n = id_bytes, ellipsis = false; /* the id alone; the title has the name */
        }
        lines[count++] = escaped_part(pool, text, n, ellipsis);
        text += n;
    }
    return count;
}
