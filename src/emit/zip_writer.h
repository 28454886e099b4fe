/*
 * zip_writer.h - a minimal writer of zip archives (PKWARE APPNOTE 6.3):
 * stored entries (no compression), no ZIP64, so any unzip reads them.
 * Deterministic: every entry carries the same timestamp (1980-01-01
 * 00:00, the earliest a zip can record) and mode 0644, in the order given.
 *
 * The archive's comment is a signature, "tinyaot archive fnv1a-64 <hash>",
 * where the hash covers every byte before the comment: an archive
 * tinyaot wrote and nobody changed since is recognised (ta_zip_is_ours)
 * and may be replaced without --force.
 */
#ifndef TA_ZIP_WRITER_H
#define TA_ZIP_WRITER_H

#include "../util/util.h"

typedef struct TaZipEntry {
    const char *name; /* "kws/kws_model.h": '/'-separated, relative */
    const uint8_t *data;
    size_t size;
} TaZipEntry;

/* Appends the archive of `entries` to `out`; false (reported, naming
   `what`) when it would need ZIP64: 65535 entries or 4 GiB. */
bool ta_zip_build(TaDiag *diag, const char *what, const TaZipEntry *entries, int count, TaBuf *out);
/* True when `bytes` is an archive ta_zip_build wrote, unchanged. */
bool ta_zip_is_ours(const uint8_t *bytes, size_t size);

#endif
