/*
 * module_dir.h - the module directory on disk: recognising a directory that
 * tinyaot wrote, refusing to replace anything else, and putting a new
 * module in place so that module.path always holds one complete module.
 *
 * Every module carries a marker file, .tinyaot-module, listing each file
 * tinyaot wrote with its size and FNV-1a 64 hash, and a checksum of the
 * marker itself. An existing module.path is replaced only when it is an
 * empty directory or a module whose files all match its marker; anything
 * else needs --force (TaConfig.force). Whatever --force says, module.path
 * may not be `/`, the working directory, the home directory, the model, the
 * configuration or the target file, or a directory that contains one.
 *
 * The swap: the new module is written into <module.path>.tinyaot-tmp-<pid>
 * beside it, then exchanged with the old one in one renameat2(2)
 * RENAME_EXCHANGE (Linux), so a kill at any moment leaves the complete old
 * or the complete new module at module.path. Where the exchange is not
 * available (other systems, file systems without it) the old module is
 * renamed to <module.path>.tinyaot-old-<pid> and the new one renamed in: in
 * the short window between the two renames module.path does not exist, and
 * the next run renames the old module back. Each run first removes the
 * temporary directories of earlier runs whose process is gone (only real
 * directories named for this module.path that carry a valid marker, or are
 * empty).
 *
 * Test hooks (builds with TINYAOT_TEST_HOOKS, the default; see README):
 * TINYAOT_DEBUG_STOP_AT=<step> stops the process with SIGSTOP after <step>
 * (tmp-created, tmp-written, exchanged, old-moved, new-moved, moved,
 * old-removed); TINYAOT_DEBUG_FAIL_AT=tmp-written fails the run after
 * every file was written, TINYAOT_DEBUG_FAIL_AT=exchange makes the
 * exchange report "unsupported" so the fallback runs.
 */
#ifndef TA_MODULE_DIR_H
#define TA_MODULE_DIR_H

#include "../config/config.h"

typedef struct TaModuleDir {
    TaPool *pool;
    TaDiag *diag;
    const TaConfig *config;
    const char *path;    /* module.path */
    const char *parent;  /* the directory that holds it */
    const char *base;    /* its last component */
    const char *tmp;     /* the temporary directory, once begun */
    const char *created; /* the outermost parent directory this run created */
    bool say_forced;     /* at the swap: --force notes what it replaces */
    int lock_fd;         /* the parent directory, locked from prepare on; -1 */
} TaModuleDir;

void ta_module_dir_init(TaModuleDir *m, TaPool *pool, TaDiag *diag, const TaConfig *config);
/* Cleans up after killed runs (puts back a module a killed fallback swap had
   moved away, removes their temporary directories), then checks that
   module.path may be replaced. False after reporting why not. Prepare's
   check, and commit's last check with its swap, hold a lock of the parent
   directory (flock): a conversion never checks a module while another
   swaps it; the files are written outside the lock. */
bool ta_module_dir_prepare(TaModuleDir *m);
/* Releases the lock (prepare and commit release their own; abort too). */
void ta_module_dir_unlock(TaModuleDir *m);
/* Creates the parents of module.path and the temporary directory m->tmp. */
bool ta_module_dir_begin(TaModuleDir *m);
/* Writes the marker into m->tmp and swaps it into place. */
bool ta_module_dir_commit(TaModuleDir *m);
/* After a failure: removes m->tmp and the parent directories begin made. */
void ta_module_dir_abort(TaModuleDir *m);

#endif /* TA_MODULE_DIR_H */
