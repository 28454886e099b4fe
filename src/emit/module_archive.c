/*
 * module_archive.c - writing the module as one archive file; see
 * module_archive.h.
 */
#include "module_archive.h"

#include "module_marker.h"
#include "zip_writer.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bigger than any module tinyaot writes: such a file is not read to be
   recognised. */
#define ARCHIVE_CHECK_MAX_BYTES ((long long)1 << 31)

bool ta_module_archive_replaceable(TaModuleDir *m, const struct stat *st)
{
    if (S_ISDIR(st->st_mode)) {
        ta_error(m->diag,
                 "module.path %s is a directory, and an archive (.zip, .pack) is one file; "
                 "refusing to replace it (even with --force): remove it or choose another "
                 "module.path",
                 m->path);
        return false;
    }
    if (m->config->force)
        return true;
    const char *hint = "; refusing to replace it: remove it, choose another module.path, or "
                       "pass --force";
    if (!S_ISREG(st->st_mode)) {
        ta_error(m->diag, "module.path %s exists and is %s, not an archive tinyaot wrote%s",
                 m->path, ta_file_kind(st->st_mode), hint);
        return false;
    }
    size_t size = 0;
    const uint8_t *bytes = (long long)st->st_size <= ARCHIVE_CHECK_MAX_BYTES
                               ? ta_read_file(m->pool, m->diag, m->path, &size)
                               : NULL;
    if (bytes && ta_zip_is_ours(bytes, size))
        return true;
    if (bytes || (long long)st->st_size > ARCHIVE_CHECK_MAX_BYTES)
        ta_error(m->diag,
                 "module.path %s exists and is not an archive tinyaot wrote (or it was changed "
                 "since)%s",
                 m->path, hint);
    return false;
}

static int compare_entries(const void *a, const void *b)
{
    return strcmp(((const TaZipEntry *)a)->name, ((const TaZipEntry *)b)->name);
}

/* The archive of every file in m->tmp, the marker included. */
static bool build_archive(TaModuleDir *m, TaBuf *out)
{
    TaVec files = {0};
    if (!ta_marker_collect(m->pool, m->tmp, "", &files)) {
        ta_error(m->diag, "%s: cannot list the files just written", m->tmp);
        return false;
    }
    const char *root = m->config->archive == TA_ARCHIVE_ZIP
                           ? ta_format(m->pool, "%s/", m->config->module_name)
                           : "";
    int count = files.len + 1;
    TaZipEntry *entries = ta_alloc_array(m->pool, (size_t)count, sizeof *entries);
    for (int i = 0; i < count; i++) {
        const char *rel = i < files.len ? ((const MarkerFile *)files.items[i])->path
                                        : TA_MODULE_MARKER;
        size_t size = 0;
        const uint8_t *data = ta_read_file(m->pool, m->diag, ta_path_join(m->pool, m->tmp, rel),
                                           &size);
        if (!data)
            return false;
        entries[i] = (TaZipEntry){ta_format(m->pool, "%s%s", root, rel), data, size};
    }
    qsort(entries, (size_t)count, sizeof *entries, compare_entries);
    return ta_zip_build(m->diag, m->path, entries, count, out);
}

bool ta_module_archive_commit(TaModuleDir *m)
{
    TaBuf zip = {0};
    bool ok = build_archive(m, &zip);
    /* Inside the temporary directory, so a killed run's leftover goes with it. */
    const char *staged = ta_path_join(m->pool, m->tmp, ".tinyaot-archive");
    ok = ok && ta_write_file(m->diag, staged, zip.data, zip.len);
    ta_buf_free(&zip);
    if (!ok)
        return false;
    /* rename() replaces a file (or a symbolic link, never followed) in one step. */
    if (rename(staged, m->path) != 0) {
        ta_error(m->diag, "%s: cannot move the new archive into place: %s", m->path,
                 strerror(errno));
        return false;
    }
    if (!ta_remove_tree(m->tmp))
        ta_warn(m->diag,
                "%s: the archive is in place but the temporary directory could not be "
                "removed completely",
                m->tmp);
    m->tmp = NULL;
    return true;
}
