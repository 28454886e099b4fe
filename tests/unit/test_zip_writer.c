/*
 * test_zip_writer.c - src/emit/zip_writer.c and util/hash.c's CRC-32: the
 * CRC's published check value, an archive's records where the zip format
 * puts them (read back from the end record, as an unzip does), and the
 * signature that recognises an unchanged tinyaot archive and nothing else.
 */
#include "emit/zip_writer.h"

#include <stdio.h>
#include <string.h>

static int failures;

static void check(const char *what, bool ok)
{
    if (!ok) {
        printf("FAIL %s\n", what);
        failures++;
    }
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static unsigned le16(const uint8_t *p)
{
    return (unsigned)p[0] | (unsigned)p[1] << 8;
}

int main(void)
{
    /* The CRC-32 check value of "123456789" (the zip and PNG CRC). */
    check("crc32 check value", ta_crc32(0, "123456789", 9) == 0xCBF43926u);
    check("crc32 in pieces", ta_crc32(ta_crc32(0, "1234", 4), "56789", 5) == 0xCBF43926u);
    check("crc32 of nothing", ta_crc32(0, "", 0) == 0);

    TaPool pool = {0};
    TaDiag diag = {.pool = &pool};
    const uint8_t first[] = "first file\n";
    TaZipEntry entries[] = {{"m/a.txt", first, sizeof first - 1}, {"m/empty", NULL, 0}};
    TaBuf zip = {0};
    check("build", ta_zip_build(&diag, "test.zip", entries, 2, &zip));
    const uint8_t *z = (const uint8_t *)zip.data;
    check("recognised", ta_zip_is_ours(z, zip.len));

    /* The end record: 22 bytes and the comment, last in the file. */
    size_t comment = strlen("tinyaot archive fnv1a-64 ") + 16;
    const uint8_t *end = z + zip.len - 22 - comment;
    check("end signature", le32(end) == 0x06054b50u);
    check("entry counts", le16(end + 8) == 2 && le16(end + 10) == 2);
    check("comment length", le16(end + 20) == comment);
    uint32_t central = le32(end + 16), central_size = le32(end + 12);
    check("central directory ends at the end record", central + central_size == end - z);
    /* First central header -> its local header -> its name and data. */
    const uint8_t *c = z + central;
    check("central signature", le32(c) == 0x02014b50u);
    check("stored, dated 1980-01-01",
          le16(c + 10) == 0 && le16(c + 12) == 0 && le16(c + 14) == ((1u << 5) | 1u));
    check("crc in the central header", le32(c + 16) == ta_crc32(0, first, sizeof first - 1));
    check("mode 0644", le32(c + 38) >> 16 == 0100644u);
    const uint8_t *local = z + le32(c + 42);
    check("local signature", le32(local) == 0x04034b50u);
    check("local name", le16(local + 26) == 7 && memcmp(local + 30, "m/a.txt", 7) == 0);
    check("local data", memcmp(local + 30 + 7, first, sizeof first - 1) == 0);

    /* Any change, anywhere, and it is someone else's file. */
    for (size_t at = 0; at < zip.len; at += 7) {
        zip.data[at] ^= 0x20;
        if (ta_zip_is_ours(z, zip.len)) {
            printf("FAIL changed byte %zu still recognised\n", at);
            failures++;
        }
        zip.data[at] ^= 0x20;
    }
    check("truncated", !ta_zip_is_ours(z, zip.len - 1));
    check("tiny", !ta_zip_is_ours(z, 10));
    check("empty", !ta_zip_is_ours(z, 0));

    ta_buf_free(&zip);
    ta_pool_free(&pool);
    if (failures == 0)
        printf("zip_writer: all passed\n");
    return failures != 0;
}
