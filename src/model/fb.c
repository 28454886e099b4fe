/*
 * fb.c - bounds-checked FlatBuffers access; see fb.h for the contract.
 *
 * Layout facts used here (from the FlatBuffers format): a buffer starts
 * with a uint32 offset to the root table; a table starts with an int32
 * that, subtracted from the table's position, gives its vtable; a vtable
 * is uint16 [vtable bytes, table bytes, field offsets...]; a field offset
 * of 0 means "absent, use the default"; offset fields (tables, vectors,
 * strings) hold a uint32 relative to their own position; a vector is a
 * uint32 count followed by the elements; a string is a vector of bytes
 * followed by a NUL. All scalars are little-endian.
 */
#include "fb.h"

#include <stdio.h>
#include <string.h>

void ta_fb_where(TaFbReader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->where, sizeof r->where, fmt, ap);
    va_end(ap);
}

void ta_fb_fail(TaFbReader *r, size_t at, const char *fmt, ...)
{
    if (r->failed)
        return;
    r->failed = true;
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    ta_error(r->diag, "%s: %s%s%s at byte offset %zu (file is %zu bytes)", r->path, r->where,
             r->where[0] ? ": " : "", what, at, r->len);
}

/* True when [pos, pos + n) lies inside the buffer. */
static bool in_bounds(const TaFbReader *r, size_t pos, size_t n)
{
    return pos <= r->len && n <= r->len - pos;
}

static uint64_t load_le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static bool load(TaFbReader *r, size_t pos, int n, uint64_t *out)
{
    if (r->failed)
        return false;
    if (!in_bounds(r, pos, (size_t)n)) {
        ta_fb_fail(r, pos, "%d-byte read runs past the end of the file", n);
        return false;
    }
    *out = load_le(r->buf + pos, n);
    return true;
}

TaFbTable ta_fb_table_at(TaFbReader *r, size_t pos)
{
    TaFbTable t = {.r = r};
    uint64_t soff, vt_size, size;
    if (!load(r, pos, 4, &soff))
        return t;
    int64_t vt = (int64_t)pos - (int64_t)(int32_t)(uint32_t)soff;
    if (vt < 0 || !in_bounds(r, (size_t)vt, 4)) {
        ta_fb_fail(r, pos, "table's vtable offset points outside the file");
        return t;
    }
    if (!load(r, (size_t)vt, 2, &vt_size) || !load(r, (size_t)vt + 2, 2, &size))
        return t;
    if (vt_size < 4 || (vt_size & 1) || !in_bounds(r, (size_t)vt, vt_size)) {
        ta_fb_fail(r, (size_t)vt, "malformed vtable (size %u)", (unsigned)vt_size);
        return t;
    }
    if (size < 4 || !in_bounds(r, pos, size)) {
        ta_fb_fail(r, pos, "table of %u bytes runs past the end of the file", (unsigned)size);
        return t;
    }
    t.pos = pos;
    t.vt = (size_t)vt;
    t.vt_size = (uint16_t)vt_size;
    t.size = (uint16_t)size;
    t.ok = true;
    return t;
}

TaFbTable ta_fb_root(TaFbReader *r)
{
    uint64_t off;
    if (!load(r, 0, 4, &off))
        return (TaFbTable){.r = r};
    return ta_fb_table_at(r, (size_t)off);
}

/* Position of a field of `n` bytes, or 0 when absent. */
static size_t field_pos(TaFbTable t, int field, size_t n)
{
    if (!t.ok || t.r->failed)
        return 0;
    size_t entry = 4 + 2 * (size_t)field;
    if (entry + 2 > t.vt_size)
        return 0;
    uint64_t off;
    if (!load(t.r, t.vt + entry, 2, &off) || off == 0)
        return 0;
    if (off + n > t.size) {
        ta_fb_fail(t.r, t.pos, "field %d lies outside its table", field);
        return 0;
    }
    return t.pos + (size_t)off;
}

bool ta_fb_has(TaFbTable t, int field)
{
    return field_pos(t, field, 1) != 0;
}

static uint64_t scalar(TaFbTable t, int field, int n, uint64_t def)
{
    size_t pos = field_pos(t, field, (size_t)n);
    uint64_t v;
    if (!pos || !load(t.r, pos, n, &v))
        return def;
    return v;
}

uint8_t ta_fb_u8(TaFbTable t, int field, uint8_t def)
{
    return (uint8_t)scalar(t, field, 1, def);
}
int8_t ta_fb_i8(TaFbTable t, int field, int8_t def)
{
    return (int8_t)(uint8_t)scalar(t, field, 1, (uint8_t)def);
}
bool ta_fb_bool(TaFbTable t, int field, bool def)
{
    return scalar(t, field, 1, def) != 0;
}
int32_t ta_fb_i32(TaFbTable t, int field, int32_t def)
{
    return (int32_t)(uint32_t)scalar(t, field, 4, (uint32_t)def);
}
uint32_t ta_fb_u32(TaFbTable t, int field, uint32_t def)
{
    return (uint32_t)scalar(t, field, 4, def);
}
uint64_t ta_fb_u64(TaFbTable t, int field, uint64_t def)
{
    return scalar(t, field, 8, def);
}

float ta_fb_f32(TaFbTable t, int field, float def)
{
    uint32_t bits;
    memcpy(&bits, &def, 4);
    bits = (uint32_t)scalar(t, field, 4, bits);
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

/* Follows the uint32 offset stored at `pos`. Returns 0 on failure. */
static size_t follow(TaFbReader *r, size_t pos)
{
    uint64_t off;
    if (!load(r, pos, 4, &off))
        return 0;
    if (off == 0 || !in_bounds(r, pos, (size_t)off) || pos + (size_t)off == r->len) {
        ta_fb_fail(r, pos, "offset %llu points outside the file", (unsigned long long)off);
        return 0;
    }
    return pos + (size_t)off;
}

TaFbTable ta_fb_table(TaFbTable t, int field)
{
    size_t pos = field_pos(t, field, 4);
    if (!pos)
        return (TaFbTable){.r = t.r};
    size_t target = follow(t.r, pos);
    if (!target)
        return (TaFbTable){.r = t.r};
    return ta_fb_table_at(t.r, target);
}

static TaFbVec vec_at(TaFbReader *r, size_t pos, size_t elem, size_t extra)
{
    TaFbVec v = {.r = r, .elem = elem};
    uint64_t len;
    if (!load(r, pos, 4, &len))
        return v;
    size_t start = pos + 4;
    if (elem && len > (r->len - start) / elem) {
        ta_fb_fail(r, pos, "vector of %llu elements runs past the end of the file",
                   (unsigned long long)len);
        return v;
    }
    if (!in_bounds(r, start, (size_t)len * elem + extra)) {
        ta_fb_fail(r, pos, "vector runs past the end of the file");
        return v;
    }
    v.pos = start;
    v.len = (uint32_t)len;
    v.ok = true;
    return v;
}

TaFbVec ta_fb_vec(TaFbTable t, int field, size_t elem)
{
    size_t pos = field_pos(t, field, 4);
    if (!pos)
        return (TaFbVec){.r = t.r, .elem = elem};
    size_t target = follow(t.r, pos);
    if (!target)
        return (TaFbVec){.r = t.r, .elem = elem};
    return vec_at(t.r, target, elem, 0);
}

static char *string_at(TaFbReader *r, size_t pos, TaPool *pool)
{
    TaFbVec v = vec_at(r, pos, 1, 1);
    if (!v.ok)
        return NULL;
    if (r->buf[v.pos + v.len] != '\0') {
        ta_fb_fail(r, pos, "string is not NUL-terminated");
        return NULL;
    }
    return ta_strndup(pool, (const char *)r->buf + v.pos, v.len);
}

char *ta_fb_string(TaFbTable t, int field, TaPool *pool)
{
    size_t pos = field_pos(t, field, 4);
    if (!pos)
        return NULL;
    size_t target = follow(t.r, pos);
    return target ? string_at(t.r, target, pool) : NULL;
}

static size_t elem_pos(TaFbVec v, uint32_t i)
{
    TA_ASSERT(i < v.len);
    return v.pos + (size_t)i * v.elem;
}

TaFbTable ta_fb_vec_table(TaFbVec v, uint32_t i)
{
    size_t target = follow(v.r, elem_pos(v, i));
    if (!target)
        return (TaFbTable){.r = v.r};
    return ta_fb_table_at(v.r, target);
}

char *ta_fb_vec_string(TaFbVec v, uint32_t i, TaPool *pool)
{
    size_t target = follow(v.r, elem_pos(v, i));
    return target ? string_at(v.r, target, pool) : NULL;
}

static uint64_t vec_scalar(TaFbVec v, uint32_t i, int n)
{
    uint64_t x = 0;
    if (!load(v.r, elem_pos(v, i), n, &x))
        return 0;
    return x;
}

int32_t ta_fb_vec_i32(TaFbVec v, uint32_t i)
{
    return (int32_t)(uint32_t)vec_scalar(v, i, 4);
}
int64_t ta_fb_vec_i64(TaFbVec v, uint32_t i)
{
    return (int64_t)vec_scalar(v, i, 8);
}
uint8_t ta_fb_vec_u8(TaFbVec v, uint32_t i)
{
    return (uint8_t)vec_scalar(v, i, 1);
}

float ta_fb_vec_f32(TaFbVec v, uint32_t i)
{
    uint32_t bits = (uint32_t)vec_scalar(v, i, 4);
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

const uint8_t *ta_fb_vec_bytes(TaFbVec v)
{
    return (v.ok && v.len) ? v.r->buf + v.pos : NULL;
}
