/*
 * plan_label.c - the text on a tensor's rectangle (plan_label.h).
 */
#include "plan_label.h"

#include "escape.h"

#include <string.h>

/* How many characters `s` shows once escaped for markup: a UTF-8 sequence
   is one, a control character four (\xNN). */
static size_t shown_chars(const unsigned char *s, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if ((s[i] & 0xC0) == 0x80)
            continue; /* continuation byte */
        n += s[i] < 0x20 || s[i] == 0x7F ? 4 : 1;
    }
    return n;
}

/* The longest start of `s` that shows at most `room` characters, cut
   before a character's first byte. */
static size_t prefix_bytes(const char *s, size_t room)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t shown = 0, end = 0;
    for (size_t i = 0; u[i]; i++) {
        if ((u[i] & 0xC0) == 0x80)
            continue; /* continuation byte: part of the character before */
        end = i;      /* the start up to here fits */
        shown += shown_chars(u + i, 1);
        if (shown > room)
            return end;
    }
    return strlen(s);
}

const char *ta_plan_label(TaPool *pool, const char *id, const char *name, int64_t width_px100)
{
    int64_t usable = width_px100 - 2 * LABEL_PAD_PX * 100;
    size_t room = usable > 0 ? (size_t)(usable / LABEL_CHAR_PX100) : 0;
    size_t id_chars = shown_chars((const unsigned char *)id, strlen(id));
    if (id_chars > room)
        return NULL;
    const char *id_html = ta_escape_markup(pool, id);
    if (!name || !*name || id_chars + 1 + LABEL_MIN_NAME_CHARS > room)
        return id_html;
    size_t name_room = room - id_chars - 1;
    if (shown_chars((const unsigned char *)name, strlen(name)) <= name_room)
        return ta_format(pool, "%s %s", id_html, ta_escape_markup(pool, name));
    /* One character for the ellipsis. */
    char *cut = ta_strdup(pool, name);
    cut[prefix_bytes(name, name_room - 1)] = '\0';
    return ta_format(pool, "%s %s\xE2\x80\xA6", id_html, ta_escape_markup(pool, cut));
}
