/*
 * escape.h - one helper per syntax a generated file is written in, for
 * every string that comes from the model or the user (file names, tensor
 * and operator names, target fields). Each returns text that, pasted where
 * that syntax expects it, cannot end the construct it sits in: no newline
 * leaves a comment, no quote leaves a string. Bytes outside printable
 * ASCII are written as \xNN (comments) or octal escapes (C strings), so
 * the output is deterministic and readable. JSON strings are escaped by
 * ta_json_string (util/json.c).
 */
#ifndef TA_ESCAPE_H
#define TA_ESCAPE_H

#include "../util/util.h"

/* Text for inside a C block comment: no "*" "/" pair either way round, no
   trigraph, no line break. Also fit for a '#' line comment: printable
   ASCII, a backslash only ever before "x". */
const char *ta_escape_c_comment(TaPool *pool, const char *s);

/* A complete C string literal, quotes included. */
const char *ta_escape_c_string(TaPool *pool, const char *s);

/* Text for a '#' line comment of CMake, make or YAML: printable ASCII, no
   line break, no backslash (a trailing one continues a make comment). */
const char *ta_escape_line_comment(TaPool *pool, const char *s);

/* A double-quoted YAML scalar, quotes included. */
const char *ta_escape_yaml_string(TaPool *pool, const char *s);

/* Text for HTML or XML element content or a double-quoted attribute value
   (the module documentation, the CMSIS-Pack .pdsc): & < > " ' as character
   references, well-formed
   UTF-8 kept, a control character written as \xNN and any other byte as
   U+FFFD (so are U+FFFE and U+FFFF, which XML does not allow), so a name
   can neither open a tag nor leave an attribute. */
const char *ta_escape_markup(TaPool *pool, const char *s);
/* The same for the text of an XML or HTML comment, where "--" is not
   allowed: each such pair is split by a space. */
const char *ta_escape_markup_comment(TaPool *pool, const char *s);

#endif /* TA_ESCAPE_H */
