/*
 * module_dir.c - the checks before replacing module.path, the cleanup after
 * killed runs and the swap; see module_dir.h for the rules.
 */
#if defined(__linux__)
#define _GNU_SOURCE /* syscall() for renameat2 */
#else
#define _XOPEN_SOURCE 700
#endif
#include "module_dir.h"
#include "module_archive.h"
#include "module_marker.h"

#include "../config/custom_operators.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

/* ---- test hooks ----------------------------------------------------------- */

/* Stops the process after `step` when TINYAOT_DEBUG_STOP_AT names it (a
   test then inspects module.path and kills it); true when
   TINYAOT_DEBUG_FAIL_AT names it (the step then fails). */
static bool test_hook(const char *step)
{
#ifdef TINYAOT_TEST_HOOKS
    const char *stop = getenv("TINYAOT_DEBUG_STOP_AT");
    if (stop && strcmp(stop, step) == 0) {
        fprintf(stderr, "tinyaot: test hook: stopped at %s\n", step);
        fflush(stderr);
        raise(SIGSTOP);
    }
    const char *fail = getenv("TINYAOT_DEBUG_FAIL_AT");
    return fail && strcmp(fail, step) == 0;
#else
    (void)step;
    return false;
#endif
}
/* ---- may module.path be replaced? ------------------------------------------------ */

/* realpath() into the pool, or NULL. */
static const char *real_path(TaPool *pool, const char *path)
{
    char *r = realpath(path, NULL);
    if (!r)
        return NULL;
    char *copy = ta_strdup(pool, r);
    free(r);
    return copy;
}

/* True when `dir` is `path` or one of its parents. */
static bool contains(const char *dir, const char *path)
{
    size_t n = strlen(dir);
    if (n == 1 && dir[0] == '/')
        return true;
    return strncmp(dir, path, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* platform.name names a target file, not a built-in target (as target.c
   decides). */
static bool platform_is_a_file(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    return n && (strchr(name, '/') || (n > 5 && strcmp(name + n - 5, ".yaml") == 0));
}

/* False, with the error, when module.path (`self`, resolved) is `path` or
   holds it. */
static bool guard(TaModuleDir *m, const char *self, const char *path, const char *what)
{
    const char *p = path && *path ? real_path(m->pool, path) : NULL;
    if (p && contains(self, p)) {
        ta_error(m->diag, "module.path %s is %s; refusing to replace it (even with --force)",
                 m->path, what);
        return false;
    }
    return true;
}

/* What module.path must never be, whatever --force says. */
static bool check_protected(TaModuleDir *m)
{
    const char *parent = real_path(m->pool, m->parent);
    if (!parent)
        return true; /* nothing there yet: it cannot hold anything of ours */
    const char *self = ta_path_join(m->pool, parent, m->base);
    char cwd[PATH_MAX];
    struct {
        const char *path;
        const char *what;
    } guarded[] = {
        {getcwd(cwd, sizeof cwd), "the working directory or one of its parents"},
        {getenv("HOME"), "the home directory or one of its parents"},
        {m->config->model_path, "the model file or a directory that contains it"},
        {m->config->config_path, "the configuration file or a directory that contains it"},
        {platform_is_a_file(m->config->platform_name) ? m->config->platform_name : NULL,
         "the target file or a directory that contains it"},
    };
    for (size_t i = 0; i < TA_COUNT_OF(guarded); i++)
        if (!guard(m, self, guarded[i].path, guarded[i].what))
            return false;
    /* Every other file the run reads: the test stimulus and expected
       outputs, the custom operators' sources and headers. */
    const TaVec *lists[] = {&m->config->test_inputs, &m->config->test_outputs};
    for (size_t l = 0; l < TA_COUNT_OF(lists); l++)
        for (int i = 0; i < lists[l]->len; i++)
            if (!guard(m, self, lists[l]->items[i],
                       l == 0 ? "a test.inputs file or a directory that contains it"
                              : "a test.outputs file or a directory that contains it"))
                return false;
    for (int i = 0; i < m->config->custom_operators.len; i++) {
        const TaCustomOperator *op = m->config->custom_operators.items[i];
        const TaVec *files[] = {&op->sources, &op->headers};
        for (size_t f = 0; f < TA_COUNT_OF(files); f++)
            for (int k = 0; k < files[f]->len; k++)
                if (!guard(m, self, ((const TaCustomFile *)files[f]->items[k])->path,
                           "a custom operator's source file or a directory that contains it"))
                    return false;
    }
    return true;
}

/* Whether module.path holds a complete module tinyaot wrote, unchanged:
   what replacing needs no --force for. */
static bool is_intact_module(TaModuleDir *m)
{
    const char *why;
    Marker *mk = ta_marker_read(m->pool, m->path, &why);
    return mk && mk->complete && !ta_marker_unlisted(m->pool, m->path, "", mk);
}

/* --force replaces what tinyaot would not: say what goes, at the swap, as a note
   ("14 entries: a.c, b/, c.txt, d/, e.h and 9 more"; directories with a
   '/'), so that a mistyped module.path shows on the terminal. */
static void note_forced(TaModuleDir *m, const struct stat *st)
{
    if (!m->say_forced)
        return;
    m->say_forced = false;
    if (!S_ISDIR(st->st_mode)) {
        ta_note(m->diag, "--force: replacing %s, %s", m->path, ta_file_kind(st->st_mode));
        return;
    }
    TaVec *names = ta_list_dir(m->pool, m->path);
    if (!names || names->len == 0 || is_intact_module(m))
        return;
    TaBuf b = {0};
    for (int i = 0; i < names->len && i < 5; i++) {
        const char *name = names->items[i];
        struct stat est;
        bool dir = lstat(ta_path_join(m->pool, m->path, name), &est) == 0 && S_ISDIR(est.st_mode);
        ta_buf_printf(&b, "%s%s%s", i ? ", " : "", name, dir ? "/" : "");
    }
    if (names->len > 5)
        ta_buf_printf(&b, " and %d more", names->len - 5);
    ta_note(m->diag,
            "--force: replacing %s (not an unchanged module tinyaot wrote): removing %d %s: %s",
            m->path, names->len, names->len == 1 ? "entry" : "entries", b.data);
    ta_buf_free(&b);
}

/* May the thing at module.path be replaced? */
static bool check_replaceable(TaModuleDir *m)
{
    struct stat st;
    if (lstat(m->path, &st) != 0) {
        if (errno == ENOENT)
            return true;
        ta_error(m->diag, "module.path %s: cannot check it: %s", m->path, strerror(errno));
        return false;
    }
    if (!check_protected(m))
        return false;
    if (m->config->archive != TA_ARCHIVE_NONE)
        return ta_module_archive_replaceable(m, &st);
    if (m->config->force) {
        note_forced(m, &st);
        return true;
    }
    const char *hint = "; refusing to replace it: remove it, choose another module.path, or "
                       "pass --force";
    if (!S_ISDIR(st.st_mode)) {
        ta_error(m->diag, "module.path %s exists and is %s, not a module directory%s", m->path,
                 ta_file_kind(st.st_mode), hint);
        return false;
    }
    TaVec *names = ta_list_dir(m->pool, m->path);
    if (!names) {
        ta_error(m->diag, "module.path %s: cannot read it: %s", m->path, strerror(errno));
        return false;
    }
    if (names->len == 0)
        return true;
    const char *why;
    Marker *mk = ta_marker_read(m->pool, m->path, &why);
    if (!mk && !why) {
        ta_error(m->diag,
                 "module.path %s exists and was not written by tinyaot (it has no %s "
                 "marker)%s",
                 m->path, TA_MODULE_MARKER, hint);
        return false;
    }
    if (!mk) {
        ta_error(m->diag, "module.path %s: its marker %s is damaged (%s)%s", m->path,
                 TA_MODULE_MARKER, why, hint);
        return false;
    }
    if (!mk->complete) {
        ta_error(m->diag, "module.path %s holds an unfinished module%s", m->path, hint);
        return false;
    }
    why = ta_marker_unlisted(m->pool, m->path, "", mk);
    if (why) {
        ta_error(m->diag, "module.path %s: %s%s", m->path, why, hint);
        return false;
    }
    return true;
}

/* ---- what killed runs left ------------------------------------------------------- */

/* The pid in "<base>.tinyaot-<kind>-<pid>", or 0. */
static long leftover_pid(const char *name, const char *base, const char *kind)
{
    size_t nb = strlen(base), nk = strlen(kind);
    if (strncmp(name, base, nb) != 0 || strncmp(name + nb, ".tinyaot-", 9) != 0 ||
        strncmp(name + nb + 9, kind, nk) != 0 || name[nb + 9 + nk] != '-')
        return 0;
    const char *digits = name + nb + 9 + nk + 1;
    size_t nd = strspn(digits, "0123456789");
    if (nd == 0 || nd > 9 || digits[nd] != '\0' || digits[0] == '0')
        return 0;
    return strtol(digits, NULL, 10);
}

static bool process_is_gone(long pid)
{
    return pid != (long)getpid() && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* A leftover may go: a real directory that is empty or carries a valid marker. */
static bool leftover_is_ours(TaPool *pool, const char *path, bool *complete)
{
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return false;
    const char *why;
    Marker *mk = ta_marker_read(pool, path, &why);
    *complete = mk && mk->complete;
    if (mk)
        return true;
    TaVec *names = ta_list_dir(pool, path);
    return names && names->len == 0;
}

static void clean_leftovers(TaModuleDir *m)
{
    TaVec *names = ta_list_dir(m->pool, m->parent);
    if (!names)
        return;
    /* A module a killed fallback swap moved aside goes back first. */
    for (int i = 0; i < names->len; i++) {
        const char *name = names->items[i];
        long pid = leftover_pid(name, m->base, "old");
        const char *path = ta_path_join(m->pool, m->parent, name);
        bool complete;
        if (!pid || !process_is_gone(pid) || !leftover_is_ours(m->pool, path, &complete))
            continue;
        if (complete && !ta_path_exists(m->path) && rename(path, m->path) == 0) {
            ta_note(m->diag, "%s: put back the module an interrupted run (pid %ld) had moved to %s",
                    m->path, pid, path);
            continue;
        }
        if (!ta_remove_tree(path))
            ta_warn(m->diag, "%s: cannot remove what an interrupted run left", path);
    }
    for (int i = 0; i < names->len; i++) {
        const char *name = names->items[i];
        long pid = leftover_pid(name, m->base, "tmp");
        const char *path = ta_path_join(m->pool, m->parent, name);
        bool complete;
        if (pid && process_is_gone(pid) && leftover_is_ours(m->pool, path, &complete) &&
            !ta_remove_tree(path))
            ta_warn(m->diag, "%s: cannot remove what an interrupted run left", path);
    }
}

/* ---- the steps -------------------------------------------------------------------- */

void ta_module_dir_init(TaModuleDir *m, TaPool *pool, TaDiag *diag, const TaConfig *config)
{
    *m = (TaModuleDir){
        .pool = pool, .diag = diag, .config = config, .path = config->module_path, .lock_fd = -1};
    m->parent = ta_dirname(pool, m->path);
    m->base = ta_basename(m->path);
}

/* A parent that does not exist yet holds nothing to check: no lock then. */
static void lock_parent(TaModuleDir *m)
{
    if (m->lock_fd >= 0)
        return;
    int fd = open(m->parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return;
    while (flock(fd, LOCK_EX) != 0 && errno == EINTR)
        ;
    m->lock_fd = fd;
}

void ta_module_dir_unlock(TaModuleDir *m)
{
    if (m->lock_fd >= 0)
        close(m->lock_fd); /* releases the flock */
    m->lock_fd = -1;
}

bool ta_module_dir_prepare(TaModuleDir *m)
{
    lock_parent(m);
    clean_leftovers(m);
    bool ok = check_replaceable(m);
    ta_module_dir_unlock(m);
    return ok;
}

bool ta_module_dir_begin(TaModuleDir *m)
{
    /* The parents, remembering the outermost one made here for abort. */
    char *parent = ta_strdup(m->pool, m->parent);
    size_t n = strlen(parent);
    for (size_t i = 1; i <= n; i++) {
        if (parent[i] != '/' && parent[i] != '\0')
            continue;
        char saved = parent[i];
        parent[i] = '\0';
        if (mkdir(parent, 0777) == 0) {
            if (!m->created)
                m->created = ta_strdup(m->pool, parent);
        } else if (errno != EEXIST) {
            ta_error(m->diag, "%s: cannot create directory: %s", parent, strerror(errno));
            parent[i] = saved;
            ta_module_dir_abort(m);
            return false;
        }
        parent[i] = saved;
    }
    const char *tmp = ta_format(m->pool, "%s.tinyaot-tmp-%ld", m->path, (long)getpid());
    /* A leftover under this run's pid is from an earlier process that had
       the same pid: it goes if it is ours, like any other leftover. */
    bool complete;
    if (ta_path_exists(tmp) && leftover_is_ours(m->pool, tmp, &complete))
        ta_remove_tree(tmp);
    if (mkdir(tmp, 0777) != 0) {
        ta_error(m->diag, "%s: cannot create directory: %s", tmp, strerror(errno));
        ta_module_dir_abort(m);
        return false;
    }
    m->tmp = tmp;
    Marker incomplete = {.complete = false};
    if (!ta_marker_write(m->pool, m->diag, tmp, &incomplete)) {
        ta_module_dir_abort(m);
        return false;
    }
    test_hook("tmp-created");
    return true;
}

void ta_module_dir_abort(TaModuleDir *m)
{
    ta_module_dir_unlock(m);
    if (m->tmp && !ta_remove_tree(m->tmp))
        ta_warn(m->diag, "%s: cannot remove the temporary directory", m->tmp);
    m->tmp = NULL;
    /* Parents this run created, innermost first; rmdir leaves any that
       something else has filled meanwhile. */
    if (!m->created)
        return;
    char *dir = ta_strdup(m->pool, m->parent);
    for (;;) {
        if (rmdir(dir) != 0 || strcmp(dir, m->created) == 0)
            break;
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir)
            break;
        *slash = '\0';
    }
    m->created = NULL;
}

static bool exchange_unsupported(int err)
{
    return err == EINVAL || err == ENOSYS || err == ENOTSUP || err == EOPNOTSUPP;
}

#if defined(__linux__) && defined(SYS_renameat2)
#define RENAME_FLAG_NOREPLACE 1u /* the kernel's RENAME_NOREPLACE */
#define RENAME_FLAG_EXCHANGE 2u  /* the kernel's RENAME_EXCHANGE */
static int rename_with(const char *from, const char *to, unsigned flags)
{
    return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, flags);
}
#else
#define RENAME_FLAG_NOREPLACE 1u
#define RENAME_FLAG_EXCHANGE 2u
static int rename_with(const char *from, const char *to, unsigned flags)
{
    (void)from;
    (void)to;
    (void)flags;
    errno = ENOSYS;
    return -1;
}
#endif

/* Removes the previous module once the new one is in place. */
static void remove_previous(TaModuleDir *m, const char *old)
{
    if (!ta_remove_tree(old))
        ta_warn(m->diag,
                "%s: the new module is in place but the previous one, now at %s, could "
                "not be removed completely",
                m->path, old);
    test_hook("old-removed");
}

/* The swap where one exchange is not available: see module_dir.h. */
static bool swap_by_two_renames(TaModuleDir *m)
{
    const char *old = ta_format(m->pool, "%s.tinyaot-old-%ld", m->path, (long)getpid());
    if (rename(m->path, old) != 0) {
        ta_error(m->diag, "%s: cannot move the previous module aside: %s", m->path,
                 strerror(errno));
        return false;
    }
    test_hook("old-moved");
    if (rename(m->tmp, m->path) != 0) {
        ta_error(m->diag, "%s: cannot move the new module into place: %s", m->path,
                 strerror(errno));
        if (rename(old, m->path) != 0)
            ta_error(m->diag, "%s: the previous module is at %s", m->path, old);
        return false;
    }
    m->tmp = NULL;
    test_hook("new-moved");
    remove_previous(m, old);
    return true;
}

static bool check_and_swap(TaModuleDir *m);

bool ta_module_dir_commit(TaModuleDir *m)
{
    Marker mk = {.complete = true};
    if (!ta_marker_collect(m->pool, m->tmp, "", &mk.files)) {
        ta_error(m->diag, "%s: cannot list the files just written", m->tmp);
        return false;
    }
    if (!ta_marker_write(m->pool, m->diag, m->tmp, &mk))
        return false;
    if (test_hook("tmp-written")) {
        ta_error(m->diag, "%s: failed on purpose (TINYAOT_DEBUG_FAIL_AT=tmp-written)", m->path);
        return false;
    }
    /* The last check and the swap under the lock: no other conversion
       checks module.path between them. */
    lock_parent(m);
    bool ok = check_and_swap(m);
    ta_module_dir_unlock(m);
    return ok;
}

static bool check_and_swap(TaModuleDir *m)
{
    /* Nothing may have appeared at module.path that was not checked. */
    m->say_forced = true;
    if (!check_replaceable(m))
        return false;
    if (m->config->archive != TA_ARCHIVE_NONE) {
        if (!ta_module_archive_commit(m))
            return false;
        test_hook("moved");
        return true;
    }
    bool force_fallback = test_hook("exchange");
    if (!ta_path_exists(m->path)) {
        if (force_fallback || rename_with(m->tmp, m->path, RENAME_FLAG_NOREPLACE) != 0) {
            if (!force_fallback && !exchange_unsupported(errno)) {
                ta_error(m->diag, "%s: cannot move the new module into place: %s", m->path,
                         strerror(errno));
                return false;
            }
            if (rename(m->tmp, m->path) != 0) {
                ta_error(m->diag, "%s: cannot move the new module into place: %s", m->path,
                         strerror(errno));
                return false;
            }
        }
        m->tmp = NULL;
        test_hook("moved");
        return true;
    }
    if (force_fallback || rename_with(m->tmp, m->path, RENAME_FLAG_EXCHANGE) != 0) {
        if (!force_fallback && !exchange_unsupported(errno)) {
            ta_error(m->diag, "%s: cannot replace the previous module: %s", m->path,
                     strerror(errno));
            return false;
        }
        return swap_by_two_renames(m);
    }
    /* m->tmp now holds the previous module. */
    const char *old = m->tmp;
    m->tmp = NULL;
    test_hook("exchanged");
    remove_previous(m, old);
    return true;
}
