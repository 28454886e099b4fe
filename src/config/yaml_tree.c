/* yaml_tree.c - libyaml events -> TaNode tree; see yaml_tree.h. */
#include "yaml_tree.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

TaNode *ta_node_new(TaPool *pool, TaNodeKind kind, const char *origin, int line)
{
    TaNode *n = ta_alloc(pool, sizeof *n);
    n->kind = kind;
    n->origin = origin;
    n->line = line;
    return n;
}

static void grow(TaPool *pool, TaNode *n)
{
    if (n->count < n->cap)
        return;
    int cap = n->cap ? n->cap * 2 : 4;
    TaNode **items = ta_alloc_array(pool, (size_t)cap, sizeof *items);
    const char **keys = ta_alloc_array(pool, (size_t)cap, sizeof *keys);
    int *lines = ta_alloc_array(pool, (size_t)cap, sizeof *lines);
    if (n->count) {
        memcpy(items, n->items, (size_t)n->count * sizeof *items);
        memcpy(keys, n->keys, (size_t)n->count * sizeof *keys);
        memcpy(lines, n->key_lines, (size_t)n->count * sizeof *lines);
    }
    n->items = items;
    n->keys = keys;
    n->key_lines = lines;
    n->cap = cap;
}

TaNode *ta_node_map_get(const TaNode *map, const char *key)
{
    if (!map || map->kind != TA_NODE_MAP)
        return NULL;
    for (int i = 0; i < map->count; i++)
        if (strcmp(map->keys[i], key) == 0)
            return map->items[i];
    return NULL;
}

void ta_node_map_set(TaPool *pool, TaNode *map, const char *key, TaNode *value)
{
    for (int i = 0; i < map->count; i++) {
        if (strcmp(map->keys[i], key) == 0) {
            map->items[i] = value;
            return;
        }
    }
    grow(pool, map);
    map->keys[map->count] = ta_strdup(pool, key);
    map->key_lines[map->count] = value->line;
    map->items[map->count++] = value;
}

static void push_item(TaPool *pool, TaNode *seq, TaNode *item)
{
    grow(pool, seq);
    seq->keys[seq->count] = NULL;
    seq->items[seq->count++] = item;
}

const char *ta_node_where(TaPool *pool, const TaNode *n)
{
    if (n->line > 0)
        return ta_format(pool, "%s:%d", n->origin, n->line);
    return n->origin;
}

typedef struct Parser {
    yaml_parser_t yp;
    TaPool *pool;
    TaDiag *d;
    const char *origin;
    bool lines;
    int depth;
} Parser;

static TaNode *parse_node(Parser *p, yaml_event_t *ev);

static const char *where_at(Parser *p, int line)
{
    return line > 0 ? ta_format(p->pool, "%s:%d", p->origin, line) : p->origin;
}

static bool next_event(Parser *p, yaml_event_t *ev)
{
    if (yaml_parser_parse(&p->yp, ev))
        return true;
    if (p->lines)
        ta_error(p->d, "%s:%zu: YAML syntax error: %s", p->origin, p->yp.problem_mark.line + 1,
                 p->yp.problem ? p->yp.problem : "unknown");
    else
        ta_error(p->d, "%s: YAML syntax error: %s", p->origin,
                 p->yp.problem ? p->yp.problem : "unknown");
    return false;
}

static int line_of(Parser *p, const yaml_event_t *ev)
{
    return p->lines ? (int)ev->start_mark.line + 1 : 0;
}

/* Parses the items of a sequence or map whose start event was consumed. */
static TaNode *parse_collection(Parser *p, TaNode *n, yaml_event_type_t end)
{
    if (++p->depth > 64) {
        ta_error(p->d, "%s: YAML nesting deeper than 64 levels", ta_node_where(p->pool, n));
        return NULL;
    }
    for (;;) {
        yaml_event_t ev;
        if (!next_event(p, &ev))
            return NULL;
        if (ev.type == end) {
            yaml_event_delete(&ev);
            break;
        }
        if (n->kind == TA_NODE_SEQUENCE) {
            TaNode *item = parse_node(p, &ev);
            if (!item)
                return NULL;
            push_item(p->pool, n, item);
            continue;
        }
        /* A map: this event is the key; it must be a scalar. */
        if (ev.type != YAML_SCALAR_EVENT) {
            ta_error(p->d, "%s:%d: a mapping key must be a plain value", p->origin,
                     line_of(p, &ev));
            yaml_event_delete(&ev);
            return NULL;
        }
        int key_line = line_of(p, &ev);
        if (memchr(ev.data.scalar.value, '\0', ev.data.scalar.length)) {
            ta_error(p->d, "%s: a key contains a NUL character (\\0)", where_at(p, key_line));
            yaml_event_delete(&ev);
            return NULL;
        }
        const char *key = ta_strdup(p->pool, (const char *)ev.data.scalar.value);
        yaml_event_delete(&ev);
        if (ta_node_map_get(n, key)) {
            ta_error(p->d, "%s:%d: key '%s' appears twice", p->origin, key_line, key);
            return NULL;
        }
        yaml_event_t vev;
        if (!next_event(p, &vev))
            return NULL;
        TaNode *value = parse_node(p, &vev);
        if (!value)
            return NULL;
        ta_node_map_set(p->pool, n, key, value);
        n->key_lines[n->count - 1] = key_line;
    }
    p->depth--;
    return n;
}

/* Builds the node that starts with `ev` (and consumes ev). */
static TaNode *parse_node(Parser *p, yaml_event_t *ev)
{
    TaNode *n = NULL;
    int line = line_of(p, ev);
    switch (ev->type) {
    case YAML_SCALAR_EVENT:
        /* C strings end at a NUL: "a\0b" would silently become "a". */
        if (memchr(ev->data.scalar.value, '\0', ev->data.scalar.length)) {
            ta_error(p->d, "%s: a value contains a NUL character (\\0), which no string may hold",
                     where_at(p, line));
            break;
        }
        n = ta_node_new(p->pool, TA_NODE_SCALAR, p->origin, line);
        n->scalar = ta_strndup(p->pool, (const char *)ev->data.scalar.value,
                               ev->data.scalar.length);
        n->quoted = ev->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
                    ev->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
        yaml_event_delete(ev);
        return n;
    case YAML_SEQUENCE_START_EVENT:
        yaml_event_delete(ev);
        n = ta_node_new(p->pool, TA_NODE_SEQUENCE, p->origin, line);
        return parse_collection(p, n, YAML_SEQUENCE_END_EVENT);
    case YAML_MAPPING_START_EVENT:
        yaml_event_delete(ev);
        n = ta_node_new(p->pool, TA_NODE_MAP, p->origin, line);
        return parse_collection(p, n, YAML_MAPPING_END_EVENT);
    case YAML_ALIAS_EVENT:
        ta_error(p->d, "%s:%d: YAML aliases are not supported", p->origin, line);
        break;
    default: ta_error(p->d, "%s:%d: unexpected YAML content", p->origin, line); break;
    }
    yaml_event_delete(ev);
    return NULL;
}

TaNode *ta_yaml_parse(TaPool *pool, TaDiag *d, const char *origin, const char *text, size_t len,
                      bool line_numbers)
{
    Parser p = {.pool = pool, .d = d, .origin = origin, .lines = line_numbers};
    if (!yaml_parser_initialize(&p.yp))
        ta_bug(__FILE__, __LINE__, "yaml_parser_initialize");
    yaml_parser_set_input_string(&p.yp, (const unsigned char *)text, len);
    TaNode *root = NULL;
    bool ok = true;
    for (bool done = false; ok && !done;) {
        yaml_event_t ev;
        if (!next_event(&p, &ev)) {
            ok = false;
            break;
        }
        switch (ev.type) {
        case YAML_STREAM_START_EVENT:
        case YAML_DOCUMENT_START_EVENT:
        case YAML_DOCUMENT_END_EVENT: yaml_event_delete(&ev); break;
        case YAML_STREAM_END_EVENT:
            yaml_event_delete(&ev);
            done = true;
            break;
        default:
            if (root) {
                ta_error(d, "%s: more than one YAML document", origin);
                yaml_event_delete(&ev);
                ok = false;
                break;
            }
            root = parse_node(&p, &ev);
            ok = root != NULL;
            break;
        }
    }
    yaml_parser_delete(&p.yp);
    if (!ok)
        return NULL;
    if (!root)
        root = ta_node_new(pool, TA_NODE_MAP, origin, line_numbers ? 1 : 0);
    return root;
}

TaNode *ta_yaml_load_file(TaPool *pool, TaDiag *d, const char *path)
{
    size_t size = 0;
    uint8_t *text = ta_read_file(pool, d, path, &size);
    if (!text)
        return NULL;
    return ta_yaml_parse(pool, d, path, (const char *)text, size, true);
}

bool ta_scalar_is_null(const TaNode *n)
{
    return n->kind == TA_NODE_SCALAR && !n->quoted &&
           (strcmp(n->scalar, "null") == 0 || strcmp(n->scalar, "~") == 0 || n->scalar[0] == '\0');
}

bool ta_scalar_bool(const TaNode *n, bool *out)
{
    if (n->kind != TA_NODE_SCALAR || n->quoted)
        return false;
    static const char *yes[] = {"true", "True", "TRUE", "yes", "on"};
    static const char *no[] = {"false", "False", "FALSE", "no", "off"};
    for (size_t i = 0; i < TA_COUNT_OF(yes); i++) {
        if (strcmp(n->scalar, yes[i]) == 0) {
            *out = true;
            return true;
        }
        if (strcmp(n->scalar, no[i]) == 0) {
            *out = false;
            return true;
        }
    }
    return false;
}

bool ta_scalar_has_leading_zero(const TaNode *n)
{
    if (n->kind != TA_NODE_SCALAR || n->quoted)
        return false;
    const char *s = n->scalar + (n->scalar[0] == '-' || n->scalar[0] == '+');
    return s[0] == '0' && s[1] >= '0' && s[1] <= '9';
}

/* Decimal without leading zeros, or 0x hex; an optional '-'. strtoll's
   base 0 would read 010000 as octal 4096, and YAML versions disagree on
   what it means, so it is refused rather than guessed. */
bool ta_scalar_int(const TaNode *n, int64_t *out)
{
    if (n->kind != TA_NODE_SCALAR || n->quoted)
        return false;
    const char *s = n->scalar;
    const char *digits = s + (s[0] == '-' || s[0] == '+');
    int base = 10;
    if (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
        base = 16;
        digits += 2;
        if (!isxdigit((unsigned char)digits[0]))
            return false;
    } else if (!isdigit((unsigned char)digits[0]) || ta_scalar_has_leading_zero(n)) {
        return false;
    }
    for (const char *c = digits; *c; c++)
        if (base == 16 ? !isxdigit((unsigned char)*c) : !isdigit((unsigned char)*c))
            return false;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, base);
    if (errno || *end != '\0')
        return false;
    *out = v;
    return true;
}

bool ta_scalar_double(const TaNode *n, double *out)
{
    if (n->kind != TA_NODE_SCALAR || n->quoted || n->scalar[0] == '\0' ||
        isspace((unsigned char)n->scalar[0]))
        return false;
    char *end;
    errno = 0;
    double v = strtod(n->scalar, &end);
    if (errno || *end != '\0' || !isfinite(v))
        return false;
    *out = v;
    return true;
}
