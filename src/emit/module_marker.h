/*
 * module_marker.h - the marker file tinyaot writes into every module,
 * .tinyaot-module:
 *
 *   tinyaot-module 1
 *   generator tinyaot <version>
 *   [state incomplete]                  (a temporary directory being filled)
 *   file <size> <FNV-1a 64, hex> <path>  (one per file, depth first, names in
 *                                         byte order)
 *   checksum <FNV-1a 64 of every line above>
 *
 * It holds no time and no pid, so two conversions write the same marker.
 */
#ifndef TA_MODULE_MARKER_H
#define TA_MODULE_MARKER_H

#include "../util/util.h"

#define TA_MODULE_MARKER ".tinyaot-module"

typedef struct MarkerFile {
    const char *path; /* relative to the module directory */
    uint64_t size;
    uint64_t hash;
} MarkerFile;

typedef struct Marker {
    bool complete; /* false: written when a temporary directory is made */
    TaVec files;   /* MarkerFile* */
} Marker;

/* Appends every regular file under root/rel (the marker excepted) to `out`,
   sorted; false when something else is there or a file cannot be read. */
bool ta_marker_collect(TaPool *pool, const char *root, const char *rel, TaVec *out);
/* Writes dir/.tinyaot-module through a temporary name, so it is always whole. */
bool ta_marker_write(TaPool *pool, TaDiag *diag, const char *dir, const Marker *mk);
/* The marker of `dir`, or NULL: *why is NULL when there is none, else why
   it is not valid. */
Marker *ta_marker_read(TaPool *pool, const char *dir, const char **why);
/* NULL when every entry under dir/rel is a file the marker lists with the
   same size and hash, or a directory on the way to one; else the first
   entry that is not, and why. */
const char *ta_marker_unlisted(TaPool *pool, const char *dir, const char *rel, const Marker *mk);
/* The names in a directory, sorted; NULL (errno set) if it cannot be read. */
TaVec *ta_list_dir(TaPool *pool, const char *dir);

#endif /* TA_MODULE_MARKER_H */
