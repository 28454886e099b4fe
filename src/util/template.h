/*
 * template.h - text with named fields, for the emitters.
 *
 * In a template "$name" and "${name}" stand for a field's value (the braces
 * end a name that letters follow: "${prefix}_model.h"), and "$$" is one
 * "$" (CMake's "$${VAR}", make's "$$(VAR)"). A name is [A-Za-z_][A-Za-z0-9_]*.
 * Values are pasted as they are, never read as templates themselves.
 *
 * A name that no field defines, or a "$" that starts no name, is a bug in
 * tinyaot, not in its input: ta_template stops with an internal error, so
 * a misspelt field fails every test that emits the text instead of reaching
 * a generated file unnoticed.
 */
#ifndef TA_TEMPLATE_H
#define TA_TEMPLATE_H

#include "util.h"

/* Named values. A set may extend an outer one (module-wide names such as
   the prefix): a name is looked up here first, the latest definition
   winning, then outward. */
typedef struct TaFields {
    TaPool *pool;
    const struct TaFields *outer;
    TaVec names;
    TaVec values;
} TaFields;

TaFields ta_fields(TaPool *pool, const TaFields *outer);
void ta_field(TaFields *f, const char *name, const char *value);
void ta_field_int(TaFields *f, const char *name, long long value);
void ta_field_size(TaFields *f, const char *name, size_t value);

/* The value of `name`, or NULL when no set defines it. */
const char *ta_field_value(const TaFields *f, const char *name, size_t len);

/* Appends `text` with every field replaced; an unknown name is a bug. */
void ta_template(TaBuf *b, const TaFields *f, const char *text);

/* The same check without stopping: appends nothing, and describes the
   first problem in *problem (from f's pool), when the text has one. */
bool ta_template_try(TaBuf *b, const TaFields *f, const char *text, const char **problem);

#endif
