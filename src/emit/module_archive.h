/*
 * module_archive.h - module.path naming an archive (.zip, or .pack for a
 * CMSIS-Pack): the module is written into the temporary directory as
 * usual (module_dir.h), then packed into one file there and renamed onto
 * module.path, so module.path always holds the complete old or the
 * complete new archive. An existing file at module.path is replaced only
 * when it is an archive tinyaot wrote, unchanged (zip_writer.h), or with
 * --force; a directory there is never replaced by an archive.
 *
 * Entries are the module's files, the marker included, sorted by name: in
 * a .zip under "<module.name>/", in a .pack at the top (a pack's .pdsc
 * must be at its root).
 */
#ifndef TA_MODULE_ARCHIVE_H
#define TA_MODULE_ARCHIVE_H

#include "module_dir.h"

#include <sys/stat.h>

/* May the file at module.path (lstat `st`) be replaced by the archive? */
bool ta_module_archive_replaceable(TaModuleDir *m, const struct stat *st);
/* Packs m->tmp (marker written) and renames the archive onto module.path;
   removes m->tmp after. */
bool ta_module_archive_commit(TaModuleDir *m);

#endif
