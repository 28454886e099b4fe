/*
 * template.c - named-field substitution for the emitters (template.h).
 */
#include "template.h"

#include <string.h>

TaFields ta_fields(TaPool *pool, const TaFields *outer)
{
    TaFields f = {.pool = pool, .outer = outer};
    return f;
}

void ta_field(TaFields *f, const char *name, const char *value)
{
    TA_ASSERT(value != NULL);
    /* A name set again in the same scope (a loop's field) replaces its
       value: the scope stays small and lookups stay fast. */
    for (int i = f->names.len - 1; i >= 0; i--)
        if (strcmp(f->names.items[i], name) == 0) {
            f->values.items[i] = (void *)value;
            return;
        }
    ta_vec_push(f->pool, &f->names, (void *)name);
    ta_vec_push(f->pool, &f->values, (void *)value);
}

void ta_field_int(TaFields *f, const char *name, long long value)
{
    ta_field(f, name, ta_format(f->pool, "%lld", value));
}

void ta_field_size(TaFields *f, const char *name, size_t value)
{
    ta_field(f, name, ta_format(f->pool, "%zu", value));
}

const char *ta_field_value(const TaFields *f, const char *name, size_t len)
{
    for (; f; f = f->outer)
        for (int i = f->names.len - 1; i >= 0; i--) {
            const char *n = f->names.items[i];
            if (strlen(n) == len && memcmp(n, name, len) == 0)
                return f->values.items[i];
        }
    return NULL;
}

static bool name_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool name_char(char c)
{
    return name_start(c) || (c >= '0' && c <= '9');
}

/* Where the template goes wrong, for the message: its first line. */
static const char *problem_at(const TaFields *f, const char *text, const char *what,
                              const char *name, size_t len)
{
    size_t line = strcspn(text, "\n");
    return ta_format(f->pool, "template %s \"$%.*s\" (in \"%.*s\")", what, (int)len, name,
                     (int)(line > 60 ? 60 : line), text);
}

bool ta_template_try(TaBuf *b, const TaFields *f, const char *text, const char **problem)
{
    TaBuf out = {0};
    const char *s = text;
    bool ok = true;
    while (ok && *s) {
        const char *dollar = strchr(s, '$');
        if (!dollar) {
            ta_buf_puts(&out, s);
            break;
        }
        ta_buf_append(&out, s, (size_t)(dollar - s));
        const char *name = dollar + 1;
        if (*name == '$') {
            ta_buf_puts(&out, "$");
            s = name + 1;
            continue;
        }
        bool braced = *name == '{';
        name += braced;
        size_t len = 0;
        if (name_start(name[0]))
            while (name_char(name[len]))
                len++;
        if (len == 0 || (braced && name[len] != '}')) {
            *problem = problem_at(f, text, "has a stray", name, len);
            ok = false;
            break;
        }
        const char *value = ta_field_value(f, name, len);
        if (!value) {
            *problem = problem_at(f, text, "names no field", name, len);
            ok = false;
            break;
        }
        ta_buf_puts(&out, value);
        s = name + len + braced;
    }
    if (ok && out.len)
        ta_buf_append(b, out.data, out.len);
    ta_buf_free(&out);
    return ok;
}

void ta_template(TaBuf *b, const TaFields *f, const char *text)
{
    const char *problem = NULL;
    if (!ta_template_try(b, f, text, &problem))
        ta_bug(__FILE__, __LINE__, problem);
}
