/*
 * zip_writer.c - stored zip archives; see zip_writer.h. Field layouts are
 * the local file header (30 bytes + name), the central directory header
 * (46 bytes + name) and the end of central directory record (22 bytes +
 * comment) of the zip specification, every number little-endian.
 */
#include "zip_writer.h"

#include <stdio.h>
#include <string.h>

#define LOCAL_SIGNATURE 0x04034b50u
#define CENTRAL_SIGNATURE 0x02014b50u
#define END_SIGNATURE 0x06054b50u
#define END_RECORD_SIZE 22u
#define VERSION_NEEDED 10u                /* 1.0: stored entries, no directories */
#define VERSION_MADE_BY ((3u << 8) | 10u) /* Unix, so the mode below is read */
#define DOS_DATE_1980_01_01 ((1u << 5) | 1u)
#define UNIX_MODE_0644 (0100644u << 16) /* regular file, rw-r--r-- */
#define SIGNATURE_PREFIX "tinyaot archive fnv1a-64 "
#define SIGNATURE_LENGTH (sizeof SIGNATURE_PREFIX - 1 + 16)

static void put16(TaBuf *b, unsigned v)
{
    unsigned char p[2] = {(unsigned char)v, (unsigned char)(v >> 8)};
    ta_buf_append(b, p, 2);
}

static void put32(TaBuf *b, uint32_t v)
{
    unsigned char p[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    ta_buf_append(b, p, 4);
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The fields local and central headers share, from "version needed" to
   the extra field's length. */
static void common_fields(TaBuf *b, uint32_t crc, uint32_t size, size_t name_length)
{
    put16(b, VERSION_NEEDED);
    put16(b, 0); /* flags */
    put16(b, 0); /* method: stored */
    put16(b, 0); /* time 00:00:00 */
    put16(b, DOS_DATE_1980_01_01);
    put32(b, crc);
    put32(b, size); /* compressed */
    put32(b, size); /* uncompressed */
    put16(b, (unsigned)name_length);
    put16(b, 0); /* extra field */
}

bool ta_zip_build(TaDiag *diag, const char *what, const TaZipEntry *entries, int count, TaBuf *out)
{
    if (count >= 0xffff) {
        ta_error(diag, "%s: %d files are more than a zip without ZIP64 holds", what, count);
        return false;
    }
    TaBuf b = {0}, central = {0};
    bool ok = true;
    for (int i = 0; i < count && ok; i++) {
        const TaZipEntry *e = &entries[i];
        size_t name_length = strlen(e->name);
        if (e->size >= 0xffffffffu || b.len + e->size + 30 + name_length >= 0xffffffffu ||
            name_length >= 0xffff) {
            ta_error(diag, "%s: %s makes the archive larger than a zip without ZIP64 holds", what,
                     e->name);
            ok = false;
            break;
        }
        uint32_t crc = ta_crc32(0, e->data, e->size);
        uint32_t offset = (uint32_t)b.len;
        put32(&b, LOCAL_SIGNATURE);
        common_fields(&b, crc, (uint32_t)e->size, name_length);
        ta_buf_append(&b, e->name, name_length);
        ta_buf_append(&b, e->data, e->size);

        put32(&central, CENTRAL_SIGNATURE);
        put16(&central, VERSION_MADE_BY);
        common_fields(&central, crc, (uint32_t)e->size, name_length);
        put16(&central, 0); /* comment */
        put16(&central, 0); /* disk */
        put16(&central, 0); /* internal attributes */
        put32(&central, UNIX_MODE_0644);
        put32(&central, offset);
        ta_buf_append(&central, e->name, name_length);
    }
    if (ok && b.len + central.len >= 0xffffffffu) {
        ta_error(diag, "%s: the archive is larger than a zip without ZIP64 holds", what);
        ok = false;
    }
    if (ok) {
        uint32_t central_offset = (uint32_t)b.len;
        ta_buf_append(&b, central.data, central.len);
        put32(&b, END_SIGNATURE);
        put16(&b, 0); /* this disk */
        put16(&b, 0); /* disk of the central directory */
        put16(&b, (unsigned)count);
        put16(&b, (unsigned)count);
        put32(&b, (uint32_t)central.len);
        put32(&b, central_offset);
        put16(&b, (unsigned)SIGNATURE_LENGTH);
        /* The signature hashes everything before it, the end record included. */
        uint64_t hash = ta_fnv1a64(TA_FNV1A64_OFFSET, b.data, b.len);
        ta_buf_printf(&b, SIGNATURE_PREFIX "%016llx", (unsigned long long)hash);
        ta_buf_append(out, b.data, b.len);
    }
    ta_buf_free(&b);
    ta_buf_free(&central);
    return ok;
}

bool ta_zip_is_ours(const uint8_t *bytes, size_t size)
{
    size_t tail = END_RECORD_SIZE + SIGNATURE_LENGTH;
    if (size < tail)
        return false;
    const uint8_t *end = bytes + size - tail;
    if (get32(end) != END_SIGNATURE || end[20] != SIGNATURE_LENGTH || end[21] != 0)
        return false;
    const char *comment = (const char *)end + END_RECORD_SIZE;
    if (memcmp(comment, SIGNATURE_PREFIX, sizeof SIGNATURE_PREFIX - 1) != 0)
        return false;
    char expected[17];
    snprintf(expected, sizeof expected, "%016llx",
             (unsigned long long)ta_fnv1a64(TA_FNV1A64_OFFSET, bytes, size - SIGNATURE_LENGTH));
    return memcmp(comment + sizeof SIGNATURE_PREFIX - 1, expected, 16) == 0;
}
