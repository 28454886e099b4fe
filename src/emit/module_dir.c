/*
 * module_dir.c - the marker, the checks before replacing module.path, and
 * the swap; see module_dir.h for the rules.
 */
#if defined(__linux__)
#define _GNU_SOURCE /* syscall() for renameat2 */
#else
#define _XOPEN_SOURCE 700
#endif
#include "module_dir.h"

#include "../../include/tinyaot/tinyaot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

#define MARKER_MAGIC "tinyaot-module 1\n"
#define MARKER_MAX_BYTES (64u << 20)

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

/* ---- hashing and small file helpers ----------------------------------------- */

#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

static uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * FNV_PRIME;
    return h;
}

/* Size and hash of a regular file, without following a symbolic link. */
static bool hash_file(const char *path, uint64_t *size, uint64_t *hash)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return false;
    }
    uint64_t h = FNV_OFFSET, n = 0;
    unsigned char buf[65536];
    for (;;) {
        ssize_t r = read(fd, buf, sizeof buf);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            close(fd);
            return false;
        }
        if (r == 0)
            break;
        h = fnv1a(h, buf, (size_t)r);
        n += (uint64_t)r;
    }
    close(fd);
    *size = n;
    *hash = h;
    return true;
}

/* The names in a directory, sorted; NULL (errno set) if it cannot be read. */
static int compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static TaVec *list_dir(TaPool *pool, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    TaVec *names = ta_alloc(pool, sizeof *names);
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            ta_vec_push(pool, names, ta_strdup(pool, e->d_name));
    closedir(d);
    if (names->len)
        qsort(names->items, (size_t)names->len, sizeof *names->items, compare_names);
    return names;
}

/* ---- the marker ---------------------------------------------------------------- */

typedef struct MarkerFile {
    const char *path; /* relative to the module directory */
    uint64_t size;
    uint64_t hash;
} MarkerFile;

typedef struct Marker {
    bool complete; /* false: written when a temporary directory is made */
    TaVec files;   /* MarkerFile* */
} Marker;

/* Collects every regular file under `root`/`rel` into `out` (sorted);
   false when something other than a file or directory is there. */
static bool collect_files(TaPool *pool, const char *root, const char *rel, TaVec *out)
{
    const char *dir = *rel ? ta_path_join(pool, root, rel) : root;
    TaVec *names = list_dir(pool, dir);
    if (!names)
        return false;
    for (int i = 0; i < names->len; i++) {
        const char *name = names->items[i];
        const char *sub = *rel ? ta_format(pool, "%s/%s", rel, name) : name;
        if (!*rel && strcmp(name, TA_MODULE_MARKER) == 0)
            continue;
        struct stat st;
        const char *full = ta_path_join(pool, root, sub);
        if (lstat(full, &st) != 0)
            return false;
        if (S_ISDIR(st.st_mode)) {
            if (!collect_files(pool, root, sub, out))
                return false;
            continue;
        }
        MarkerFile *f = ta_alloc(pool, sizeof *f);
        f->path = sub;
        if (!S_ISREG(st.st_mode) || !hash_file(full, &f->size, &f->hash))
            return false;
        ta_vec_push(pool, out, f);
    }
    return true;
}

static void marker_text(TaBuf *b, const Marker *mk)
{
    ta_buf_puts(b, MARKER_MAGIC);
    ta_buf_puts(b, "generator tinyaot " TINYAOT_VERSION "\n");
    if (!mk->complete)
        ta_buf_puts(b, "state incomplete\n");
    for (int i = 0; i < mk->files.len; i++) {
        const MarkerFile *f = mk->files.items[i];
        ta_buf_printf(b, "file %llu %016llx %s\n", (unsigned long long)f->size,
                      (unsigned long long)f->hash, f->path);
    }
    ta_buf_printf(b, "checksum %016llx\n", (unsigned long long)fnv1a(FNV_OFFSET, b->data, b->len));
}

/* Writes the marker through a temporary name and a rename, so the marker
   of `dir` is always whole. */
static bool write_marker(TaModuleDir *m, const char *dir, const Marker *mk)
{
    TaBuf b = {0};
    marker_text(&b, mk);
    const char *path = ta_path_join(m->pool, dir, TA_MODULE_MARKER);
    const char *part = ta_format(m->pool, "%s.part", path);
    bool ok = ta_write_file(m->diag, part, b.data, b.len);
    ta_buf_free(&b);
    if (ok && rename(part, path) != 0) {
        ta_error(m->diag, "%s: cannot write: %s", path, strerror(errno));
        ok = false;
    }
    return ok;
}

/* Reads and checks the marker of `dir`. NULL with *why set when there is
   none (*why = NULL) or it is damaged. */
static Marker *read_marker(TaPool *pool, const char *dir, const char **why)
{
    *why = NULL;
    const char *path = ta_path_join(pool, dir, TA_MODULE_MARKER);
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno != ENOENT)
            *why = ta_format(pool, "cannot open it: %s", strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > MARKER_MAX_BYTES) {
        close(fd);
        *why = "it is not a regular file of a plausible size";
        return NULL;
    }
    size_t n = (size_t)st.st_size, got = 0;
    char *text = ta_alloc(pool, n + 1);
    while (got < n) {
        ssize_t r = read(fd, text + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    *why = "its content is not what tinyaot writes";
    if (got != n || n < sizeof MARKER_MAGIC || memcmp(text, MARKER_MAGIC, sizeof MARKER_MAGIC - 1) ||
        text[n - 1] != '\n' || memchr(text, '\0', n))
        return NULL;
    /* The last line is the checksum of everything before it. */
    text[n - 1] = '\0';
    char *last = strrchr(text, '\n');
    unsigned long long sum;
    char extra;
    if (!last || sscanf(last + 1, "checksum %16llx%c", &sum, &extra) != 1 ||
        strlen(last + 1) != 9 + 16 ||
        fnv1a(FNV_OFFSET, text, (size_t)(last + 1 - text)) != sum) {
        *why = "its checksum does not match";
        return NULL;
    }
    *last = '\0';
    Marker *mk = ta_alloc(pool, sizeof *mk);
    mk->complete = true;
    char *line = text + sizeof MARKER_MAGIC - 1;
    while (*line) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        unsigned long long size, hash;
        int path_at = 0;
        if (strncmp(line, "generator ", 10) == 0) {
            /* informational */
        } else if (strcmp(line, "state incomplete") == 0) {
            mk->complete = false;
        } else if (sscanf(line, "file %llu %16llx %n", &size, &hash, &path_at) == 2 &&
                   path_at > 0 && line[path_at]) {
            MarkerFile *f = ta_alloc(pool, sizeof *f);
            f->path = line + path_at;
            f->size = size;
            f->hash = hash;
            ta_vec_push(pool, &mk->files, f);
        } else {
            return NULL;
        }
        if (!nl)
            break;
        line = nl + 1;
    }
    *why = NULL;
    return mk;
}

/* ---- may module.path be replaced? ------------------------------------------------ */

/* Null when every entry under `dir`/`rel` is a file the marker lists with
   its size and hash, or a directory on the way to one; else the first
   entry that is not, and why. */
static const char *unlisted_entry(TaPool *pool, const char *dir, const char *rel,
                                  const Marker *mk)
{
    const char *here = *rel ? ta_path_join(pool, dir, rel) : dir;
    TaVec *names = list_dir(pool, here);
    if (!names)
        return ta_format(pool, "%s cannot be read: %s", here, strerror(errno));
    for (int i = 0; i < names->len; i++) {
        const char *name = names->items[i];
        if (!*rel && strcmp(name, TA_MODULE_MARKER) == 0)
            continue;
        const char *sub = *rel ? ta_format(pool, "%s/%s", rel, name) : name;
        const char *full = ta_path_join(pool, dir, sub);
        struct stat st;
        if (lstat(full, &st) != 0)
            return ta_format(pool, "%s cannot be read: %s", full, strerror(errno));
        if (S_ISDIR(st.st_mode)) {
            size_t n = strlen(sub);
            bool on_the_way = false;
            for (int k = 0; k < mk->files.len && !on_the_way; k++) {
                const MarkerFile *f = mk->files.items[k];
                on_the_way = strncmp(f->path, sub, n) == 0 && f->path[n] == '/';
            }
            if (!on_the_way)
                return ta_format(pool, "directory %s was not written by tinyaot", full);
            const char *why = unlisted_entry(pool, dir, sub, mk);
            if (why)
                return why;
            continue;
        }
        if (!S_ISREG(st.st_mode))
            return ta_format(pool, "%s is %s, which tinyaot never writes", full,
                             ta_file_kind(st.st_mode));
        const MarkerFile *listed = NULL;
        for (int k = 0; k < mk->files.len && !listed; k++)
            if (strcmp(((const MarkerFile *)mk->files.items[k])->path, sub) == 0)
                listed = mk->files.items[k];
        if (!listed)
            return ta_format(pool, "%s was not written by tinyaot", full);
        uint64_t size, hash;
        if (!hash_file(full, &size, &hash))
            return ta_format(pool, "%s cannot be read: %s", full, strerror(errno));
        if (size != listed->size || hash != listed->hash)
            return ta_format(pool, "%s was changed after tinyaot wrote it", full);
    }
    return NULL;
}

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
    for (size_t i = 0; i < TA_COUNT_OF(guarded); i++) {
        const char *p = guarded[i].path && *guarded[i].path
                            ? real_path(m->pool, guarded[i].path)
                            : NULL;
        if (p && contains(self, p)) {
            ta_error(m->diag, "module.path %s is %s; refusing to replace it (even with --force)",
                     m->path, guarded[i].what);
            return false;
        }
    }
    return true;
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
    if (m->config->force)
        return true;
    const char *hint = "; refusing to replace it: remove it, choose another module.path, or "
                       "pass --force";
    if (!S_ISDIR(st.st_mode)) {
        ta_error(m->diag, "module.path %s exists and is %s, not a module directory%s", m->path,
                 ta_file_kind(st.st_mode), hint);
        return false;
    }
    TaVec *names = list_dir(m->pool, m->path);
    if (!names) {
        ta_error(m->diag, "module.path %s: cannot read it: %s", m->path, strerror(errno));
        return false;
    }
    if (names->len == 0)
        return true;
    const char *why;
    Marker *mk = read_marker(m->pool, m->path, &why);
    if (!mk && !why) {
        ta_error(m->diag, "module.path %s exists and was not written by tinyaot (it has no %s "
                 "marker)%s", m->path, TA_MODULE_MARKER, hint);
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
    why = unlisted_entry(m->pool, m->path, "", mk);
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
    Marker *mk = read_marker(pool, path, &why);
    *complete = mk && mk->complete;
    if (mk)
        return true;
    TaVec *names = list_dir(pool, path);
    return names && names->len == 0;
}

static void clean_leftovers(TaModuleDir *m)
{
    TaVec *names = list_dir(m->pool, m->parent);
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
    *m = (TaModuleDir){.pool = pool, .diag = diag, .config = config, .path = config->module_path};
    m->parent = ta_dirname(pool, m->path);
    m->base = ta_basename(m->path);
}

bool ta_module_dir_prepare(TaModuleDir *m)
{
    clean_leftovers(m);
    return check_replaceable(m);
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
    if (!write_marker(m, tmp, &incomplete)) {
        ta_module_dir_abort(m);
        return false;
    }
    test_hook("tmp-created");
    return true;
}

void ta_module_dir_abort(TaModuleDir *m)
{
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
        ta_warn(m->diag, "%s: the new module is in place but the previous one, now at %s, could "
                "not be removed completely", m->path, old);
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

bool ta_module_dir_commit(TaModuleDir *m)
{
    Marker mk = {.complete = true};
    if (!collect_files(m->pool, m->tmp, "", &mk.files)) {
        ta_error(m->diag, "%s: cannot list the files just written", m->tmp);
        return false;
    }
    if (!write_marker(m, m->tmp, &mk))
        return false;
    if (test_hook("tmp-written")) {
        ta_error(m->diag, "%s: failed on purpose (TINYAOT_DEBUG_FAIL_AT=tmp-written)", m->path);
        return false;
    }
    /* Nothing may have appeared at module.path that was not checked. */
    if (!check_replaceable(m))
        return false;
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
