/*
 * flexbuffer.c - see flexbuffer.h. Layout facts used here (from the
 * FlexBuffers format): the buffer ends with the root value, its packed type
 * byte and the root's byte width; a packed type is (type << 2) | log2 of
 * the width of what it points to; an offset value is subtracted from its
 * own position; a map's values are preceded by (keys vector offset, keys
 * byte width, count), each one value wide, and followed by one packed type
 * byte per value; keys are offsets to NUL-terminated strings, sorted.
 * All scalars are little-endian.
 */
#include "flexbuffer.h"

#include <string.h>

enum {
    FLEX_INT = 1,
    FLEX_UINT = 2,
    FLEX_FLOAT = 3,
    FLEX_INDIRECT_INT = 6,
    FLEX_INDIRECT_UINT = 7,
    FLEX_INDIRECT_FLOAT = 8,
    FLEX_MAP = 9,
    FLEX_BOOL = 26,
};

static bool in_bounds(size_t len, size_t pos, size_t n)
{
    return pos <= len && n <= len - pos;
}

static uint64_t load_le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static bool load(const uint8_t *buf, size_t len, size_t pos, int n, uint64_t *out)
{
    if (!in_bounds(len, pos, (size_t)n))
        return false;
    *out = load_le(buf + pos, n);
    return true;
}

/* The position an offset stored at `pos` (n bytes) points back to. */
static bool follow(const uint8_t *buf, size_t len, size_t pos, int n, size_t *target)
{
    uint64_t off;
    if (!load(buf, len, pos, n, &off) || off > pos)
        return false;
    *target = pos - (size_t)off;
    return true;
}

static bool valid_width(uint64_t w)
{
    return w == 1 || w == 2 || w == 4 || w == 8;
}

bool ta_flex_map(const uint8_t *buf, size_t len, TaFlexMap *m, const char **why)
{
    memset(m, 0, sizeof *m);
    m->buf = buf;
    m->len = len;
    if (len == 0)
        return true;
    *why = "malformed FlexBuffers options";
    if (len < 3)
        return false;
    int root_width = buf[len - 1];
    int packed = buf[len - 2];
    if (!valid_width((uint64_t)root_width) || len - 2 < (size_t)root_width)
        return false;
    if (packed >> 2 != FLEX_MAP) {
        *why = "options are not a FlexBuffers map";
        return false;
    }
    size_t root = len - 2 - (size_t)root_width;
    m->width = 1 << (packed & 3);
    size_t w = (size_t)m->width;
    uint64_t count, keys_width;
    if (!follow(buf, len, root, root_width, &m->values) || m->values < 3 * w ||
        !load(buf, len, m->values - w, m->width, &count) ||
        !load(buf, len, m->values - 2 * w, m->width, &keys_width) || !valid_width(keys_width) ||
        !follow(buf, len, m->values - 3 * w, m->width, &m->keys))
        return false;
    m->keys_width = (int)keys_width;
    if (count > len || !in_bounds(len, m->values, (size_t)count * (w + 1)) ||
        !in_bounds(len, m->keys, (size_t)count * (size_t)keys_width))
        return false;
    m->count = (uint32_t)count;
    m->types = m->values + (size_t)count * w;
    return true;
}

/* Whether the NUL-terminated key at `pos` equals `key`. */
static bool key_is(const TaFlexMap *m, size_t pos, const char *key)
{
    size_t n = strlen(key);
    return in_bounds(m->len, pos, n + 1) && memcmp(m->buf + pos, key, n) == 0 &&
           m->buf[pos + n] == 0;
}

static int64_t sign_extend(uint64_t v, int bytes)
{
    if (bytes == 8)
        return (int64_t)v;
    uint64_t sign = (uint64_t)1 << (bytes * 8 - 1);
    return (int64_t)(v ^ sign) - (int64_t)sign;
}

/* Finds `key`: the position, type and width of its value, indirect
   values followed. */
static TaFlexStatus find_value(const TaFlexMap *m, const char *key, size_t *at, int *type,
                               int *width)
{
    for (uint32_t i = 0; i < m->count; i++) {
        size_t key_pos;
        if (!follow(m->buf, m->len, m->keys + (size_t)i * (size_t)m->keys_width, m->keys_width,
                    &key_pos))
            return TA_FLEX_MALFORMED;
        if (!key_is(m, key_pos, key))
            continue;
        *at = m->values + (size_t)i * (size_t)m->width;
        int packed = m->buf[m->types + i];
        *type = packed >> 2;
        *width = m->width;
        if (*type == FLEX_INDIRECT_INT || *type == FLEX_INDIRECT_UINT ||
            *type == FLEX_INDIRECT_FLOAT) {
            if (!follow(m->buf, m->len, *at, m->width, at))
                return TA_FLEX_MALFORMED;
            *width = 1 << (packed & 3);
            *type = *type == FLEX_INDIRECT_INT    ? FLEX_INT
                    : *type == FLEX_INDIRECT_UINT ? FLEX_UINT
                                                  : FLEX_FLOAT;
        }
        return TA_FLEX_FOUND;
    }
    return TA_FLEX_ABSENT;
}

/* The integer (or bool) value find_value located. */
static TaFlexStatus int_at(const TaFlexMap *m, size_t at, int type, int width, int64_t *value)
{
    uint64_t raw;
    if (type != FLEX_INT && type != FLEX_UINT && type != FLEX_BOOL)
        return TA_FLEX_NOT_INT;
    if (!load(m->buf, m->len, at, width, &raw))
        return TA_FLEX_MALFORMED;
    *value = type == FLEX_INT ? sign_extend(raw, width) : (int64_t)raw;
    return TA_FLEX_FOUND;
}

TaFlexStatus ta_flex_int(const TaFlexMap *m, const char *key, int64_t *value)
{
    size_t at;
    int type, width;
    TaFlexStatus found = find_value(m, key, &at, &type, &width);
    return found == TA_FLEX_FOUND ? int_at(m, at, type, width, value) : found;
}

TaFlexStatus ta_flex_number(const TaFlexMap *m, const char *key, double *value)
{
    size_t at;
    int type, width;
    TaFlexStatus found = find_value(m, key, &at, &type, &width);
    if (found != TA_FLEX_FOUND)
        return found;
    if (type != FLEX_FLOAT) {
        int64_t i;
        found = int_at(m, at, type, width, &i);
        if (found == TA_FLEX_FOUND)
            *value = (double)i;
        return found == TA_FLEX_NOT_INT ? TA_FLEX_NOT_NUMBER : found;
    }
    uint64_t raw;
    if ((width != 4 && width != 8) || !load(m->buf, m->len, at, width, &raw))
        return TA_FLEX_MALFORMED;
    if (width == 4) {
        const uint32_t bits = (uint32_t)raw;
        float f;
        memcpy(&f, &bits, sizeof f);
        *value = (double)f;
    } else {
        memcpy(value, &raw, sizeof *value);
    }
    return TA_FLEX_FOUND;
}
