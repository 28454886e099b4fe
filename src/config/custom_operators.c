/*
 * custom_operators.c - reads and checks the custom_operators entries. The
 * keys of an entry are checked by config.c against its key table; here
 * every value: the code, the C identifier of the function, the kernel's
 * files (read now, so the module gets the bytes that were checked), the
 * output rules and the scratch size.
 */
#include "custom_operators.h"

#include "../ir/ir.h"

#include <ctype.h>
#include <string.h>

#define WHERE(node) ta_node_where(pool, node)

const char *ta_custom_code_key(TaPool *pool, const char *code, const char **why)
{
    bool alnum = false;
    for (const char *p = code; *p; p++) {
        unsigned char ch = (unsigned char)*p;
        if (!(isalnum(ch) || ch == '_' || ch == '-' || ch == ' ') || ch > 127) {
            *why = "has a character other than an ASCII letter, digit, hyphen, space or "
                   "underscore, which a generated C identifier cannot hold";
            return NULL;
        }
        alnum = alnum || isalnum(ch);
    }
    if (!alnum) {
        *why = "has no letter or digit";
        return NULL;
    }
    /* helia-aot strips surrounding spaces before turning them into '_':
       with both done here, leading or trailing ones are dropped. */
    while (*code == ' ')
        code++;
    size_t n = strlen(code);
    while (n > 0 && code[n - 1] == ' ')
        n--;
    char *key = ta_strndup(pool, code, n);
    for (char *p = key; *p; p++)
        *p = *p == '-' || *p == ' ' ? '_' : (char)toupper((unsigned char)*p);
    return key;
}

static bool is_identifier(const char *s)
{
    if (!(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return false;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_'))
            return false;
    return true;
}

static bool get_string(TaPool *pool, TaDiag *d, const TaNode *n, const char *path, const char **out)
{
    if (n->kind == TA_NODE_SCALAR && n->scalar[0]) {
        *out = n->scalar;
        return true;
    }
    ta_error(d, "%s: %s: expected a non-empty string", WHERE(n), path);
    return false;
}

/* A name that stays a plain file inside the module's custom/ folder and
   is safe in every build file: no folder, no leading dot, no quoting. */
static bool is_safe_file_name(const char *name)
{
    if (!name[0] || name[0] == '.')
        return false;
    for (const char *p = name; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '_' || *p == '-' || *p == '.'))
            return false;
    return true;
}

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && strcmp(s + n - k, suffix) == 0;
}

/* `sources:` or `headers:`: one path or a list; each must exist, end in
   `suffix` and have a safe file name. */
static bool load_files(TaPool *pool, TaDiag *d, const TaNode *n, const char *path,
                       const char *config_dir, const char *suffix, TaVec *out)
{
    int count = n->kind == TA_NODE_SEQUENCE ? n->count : 1;
    if (n->kind == TA_NODE_MAP) {
        ta_error(d, "%s: %s: expected a file path or a list of them", WHERE(n), path);
        return false;
    }
    bool ok = true;
    for (int i = 0; i < count; i++) {
        const TaNode *item = n->kind == TA_NODE_SEQUENCE ? n->items[i] : n;
        const char *ipath = n->kind == TA_NODE_SEQUENCE ? ta_format(pool, "%s[%d]", path, i) : path;
        const char *given;
        if (!get_string(pool, d, item, ipath, &given)) {
            ok = false;
            continue;
        }
        const char *name = ta_basename(given);
        const char *full = config_dir && given[0] != '/' && item->line > 0
                               ? ta_path_join(pool, config_dir, given)
                               : given;
        if (!has_suffix(name, suffix)) {
            ta_error(d, "%s: %s: '%s' does not end in %s", WHERE(item), ipath, given, suffix);
            ok = false;
        } else if (!is_safe_file_name(name)) {
            ta_error(d,
                     "%s: %s: file name '%s' is not copied into the module: use ASCII letters, "
                     "digits, '_', '-' and '.', not first",
                     WHERE(item), ipath, name);
            ok = false;
        } else if (!ta_path_exists(full)) {
            ta_error(d, "%s: %s: '%s' does not exist", WHERE(item), ipath, full);
            ok = false;
        } else {
            TaCustomFile *f = ta_alloc(pool, sizeof *f);
            f->path = full;
            f->name = name;
            ta_vec_push(pool, out, f);
        }
    }
    return ok;
}

static int dtype_parse(const char *name)
{
    for (int t = 0; t < TA_DTYPE_COUNT_KNOWN; t++)
        if (ta_dtype_size(t) && strcmp(ta_dtype_name(t), name) == 0)
            return t;
    return -1;
}

/* "same_as_input_<N>" -> N; -1 for any other text. */
static int same_as_input(const char *text)
{
    static const char lead[] = "same_as_input_";
    if (strncmp(text, lead, sizeof lead - 1) != 0)
        return -1;
    const char *digits = text + sizeof lead - 1;
    if (!digits[0] || strlen(digits) > 4 || (digits[0] == '0' && digits[1]))
        return -1;
    int n = 0;
    for (const char *p = digits; *p; p++) {
        if (!isdigit((unsigned char)*p))
            return -1;
        n = n * 10 + (*p - '0');
    }
    return n;
}

static bool load_shape(TaPool *pool, TaDiag *d, const TaNode *n, const char *path,
                       TaCustomOutput *o)
{
    if (n->kind == TA_NODE_SCALAR && (o->shape_input = same_as_input(n->scalar)) >= 0)
        return true;
    if (n->kind != TA_NODE_SEQUENCE || n->count > TA_CUSTOM_MAX_RANK) {
        ta_error(d, "%s: %s: expected same_as_input_<N> or a list of at most %d dimensions",
                 WHERE(n), path, TA_CUSTOM_MAX_RANK);
        return false;
    }
    o->rank = n->count;
    for (int i = 0; i < n->count; i++) {
        int64_t v;
        if (!ta_scalar_int(n->items[i], &v) || v < 1 || v > INT32_MAX) {
            ta_error(d, "%s: %s[%d]: expected a dimension of at least 1", WHERE(n->items[i]), path,
                     i);
            return false;
        }
        o->dims[i] = (int32_t)v;
    }
    return true;
}

static bool load_dtype(TaPool *pool, TaDiag *d, const TaNode *n, const char *path,
                       TaCustomOutput *o)
{
    const char *text;
    if (!get_string(pool, d, n, path, &text))
        return false;
    if ((o->dtype_input = same_as_input(text)) >= 0 || (o->dtype = dtype_parse(text)) >= 0)
        return true;
    ta_error(d, "%s: %s: '%s' is neither same_as_input_<N> nor a dtype such as int8 or int32",
             WHERE(n), path, text);
    return false;
}

static bool load_outputs(TaPool *pool, TaDiag *d, const TaNode *n, const char *path,
                         TaCustomOperator *op)
{
    if (n->kind != TA_NODE_SEQUENCE || n->count == 0) {
        ta_error(d, "%s: %s: expected a list with one entry per output", WHERE(n), path);
        return false;
    }
    op->num_outputs = n->count;
    op->outputs = ta_alloc_array(pool, (size_t)n->count, sizeof *op->outputs);
    bool ok = true;
    for (int i = 0; i < n->count; i++) {
        const TaNode *e = n->items[i];
        TaCustomOutput *o = &op->outputs[i];
        const char *opath = ta_format(pool, "%s[%d]", path, i);
        o->where = WHERE(e);
        o->shape_input = o->dtype_input = -1;
        const TaNode *shape = ta_node_map_get(e, "shape"), *dtype = ta_node_map_get(e, "dtype");
        if (!shape || !dtype) {
            ta_error(d, "%s: %s: an output needs 'shape' and 'dtype'", WHERE(e), opath);
            ok = false;
            continue;
        }
        ok = load_shape(pool, d, shape, ta_format(pool, "%s.shape", opath), o) && ok;
        ok = load_dtype(pool, d, dtype, ta_format(pool, "%s.dtype", opath), o) && ok;
    }
    return ok;
}

TaCustomOperator *ta_custom_operator_load(TaPool *pool, TaDiag *d, const TaNode *entry,
                                          const char *path, const char *config_dir)
{
    int errors_before = d->errors;
    TaCustomOperator *op = ta_alloc(pool, sizeof *op);
    op->where = WHERE(entry);
    const char *why = NULL;
    static const char *const required[] = {"code", "function", "sources", "outputs"};
    for (size_t i = 0; i < TA_COUNT_OF(required); i++)
        if (!ta_node_map_get(entry, required[i]))
            ta_error(d, "%s: %s: a custom operator needs '%s'", op->where, path, required[i]);
    const TaNode *v;
    if ((v = ta_node_map_get(entry, "code")) &&
        get_string(pool, d, v, ta_format(pool, "%s.code", path), &op->code) &&
        !(op->key = ta_custom_code_key(pool, op->code, &why)))
        ta_error(d, "%s: %s.code: '%s' %s", WHERE(v), path, op->code, why);
    if ((v = ta_node_map_get(entry, "function")) &&
        get_string(pool, d, v, ta_format(pool, "%s.function", path), &op->function) &&
        (!is_identifier(op->function) || strlen(op->function) > 63))
        ta_error(d, "%s: %s.function: '%s' is not a C identifier (at most 63 characters)", WHERE(v),
                 path, op->function);
    if ((v = ta_node_map_get(entry, "sources")))
        load_files(pool, d, v, ta_format(pool, "%s.sources", path), config_dir, ".c", &op->sources);
    if ((v = ta_node_map_get(entry, "headers")))
        load_files(pool, d, v, ta_format(pool, "%s.headers", path), config_dir, ".h", &op->headers);
    if ((v = ta_node_map_get(entry, "outputs")))
        load_outputs(pool, d, v, ta_format(pool, "%s.outputs", path), op);
    if ((v = ta_node_map_get(entry, "scratch_bytes"))) {
        int64_t bytes;
        if (!ta_scalar_int(v, &bytes) || bytes < 0 || bytes > INT32_MAX)
            ta_error(d, "%s: %s.scratch_bytes: expected an integer from 0 to %d", WHERE(v), path,
                     INT32_MAX);
        else
            op->scratch_bytes = (uint32_t)bytes;
    }
    return d->errors > errors_before ? NULL : op;
}

static bool check_names(TaDiag *d, const TaCustomOperator *a, const TaVec *files,
                        const TaVec *operators, int upto)
{
    bool ok = true;
    for (int f = 0; f < files->len; f++) {
        const TaCustomFile *x = files->items[f];
        /* Every file listed before x: earlier entries, then x's own up to x. */
        bool reached = false;
        for (int j = 0; j <= upto && !reached; j++) {
            const TaCustomOperator *b = operators->items[j];
            const TaVec *lists[] = {&b->sources, &b->headers};
            for (int l = 0; l < 2 && !reached; l++)
                for (int g = 0; g < lists[l]->len && !reached; g++) {
                    const TaCustomFile *y = lists[l]->items[g];
                    reached = x == y;
                    if (reached || strcmp(x->name, y->name) != 0 || strcmp(x->path, y->path) == 0)
                        continue;
                    ta_error(d,
                             "%s: custom operator %s: '%s' and '%s' would both be copied to "
                             "custom/%s in the module",
                             a->where, a->code, y->path, x->path, x->name);
                    ok = false;
                }
        }
    }
    return ok;
}

bool ta_custom_operators_check(TaDiag *d, const TaVec *operators)
{
    bool ok = true;
    for (int i = 0; i < operators->len; i++) {
        const TaCustomOperator *a = operators->items[i];
        for (int j = 0; j < i; j++) {
            const TaCustomOperator *b = operators->items[j];
            if (strcmp(a->key, b->key) == 0) {
                ta_error(d, "%s: custom operator %s: %s (%s) already names custom operator %s",
                         a->where, a->code, b->where, b->code, a->key);
                ok = false;
            }
        }
        ok = check_names(d, a, &a->sources, operators, i) && ok;
        ok = check_names(d, a, &a->headers, operators, i) && ok;
    }
    return ok;
}

const TaCustomOperator *ta_custom_operator_find(TaPool *pool, const TaVec *operators,
                                                const char *custom_code)
{
    const char *why;
    const char *key = custom_code ? ta_custom_code_key(pool, custom_code, &why) : NULL;
    for (int i = 0; key && i < operators->len; i++) {
        const TaCustomOperator *op = operators->items[i];
        if (strcmp(op->key, key) == 0)
            return op;
    }
    return NULL;
}
