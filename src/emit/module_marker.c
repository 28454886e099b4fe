/*
 * module_marker.c - the .tinyaot-module marker: written into every module,
 * read back and compared with the directory; see module_marker.h.
 */
#define _XOPEN_SOURCE 700
#include "module_marker.h"

#include "../../include/tinyaot/tinyaot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MARKER_MAGIC "tinyaot-module 1\n"
#define MARKER_MAX_BYTES (64u << 20)

/* ---- hashing and small file helpers ----------------------------------------- */

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
    uint64_t h = TA_FNV1A64_OFFSET, n = 0;
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
        h = ta_fnv1a64(h, buf, (size_t)r);
        n += (uint64_t)r;
    }
    close(fd);
    *size = n;
    *hash = h;
    return true;
}

/* Byte order, the same on every system, so the marker is deterministic. */
static int compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

TaVec *ta_list_dir(TaPool *pool, const char *dir)
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

/* Collects every regular file under `root`/`rel` into `out` (sorted);
   false when something other than a file or directory is there. */
bool ta_marker_collect(TaPool *pool, const char *root, const char *rel, TaVec *out)
{
    const char *dir = *rel ? ta_path_join(pool, root, rel) : root;
    TaVec *names = ta_list_dir(pool, dir);
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
            if (!ta_marker_collect(pool, root, sub, out))
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
    ta_buf_printf(b, "checksum %016llx\n",
                  (unsigned long long)ta_fnv1a64(TA_FNV1A64_OFFSET, b->data, b->len));
}

/* Writes the marker through a temporary name and a rename, so the marker
   of `dir` is always whole. */
bool ta_marker_write(TaPool *pool, TaDiag *diag, const char *dir, const Marker *mk)
{
    TaBuf b = {0};
    marker_text(&b, mk);
    const char *path = ta_path_join(pool, dir, TA_MODULE_MARKER);
    const char *part = ta_format(pool, "%s.part", path);
    bool ok = ta_write_file(diag, part, b.data, b.len);
    ta_buf_free(&b);
    if (ok && rename(part, path) != 0) {
        ta_error(diag, "%s: cannot write: %s", path, strerror(errno));
        ok = false;
    }
    return ok;
}

/* Reads and checks the marker of `dir`. NULL with *why set when there is
   none (*why = NULL) or it is damaged. */
Marker *ta_marker_read(TaPool *pool, const char *dir, const char **why)
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
    if (got != n || n < sizeof MARKER_MAGIC ||
        memcmp(text, MARKER_MAGIC, sizeof MARKER_MAGIC - 1) || text[n - 1] != '\n' ||
        memchr(text, '\0', n))
        return NULL;
    /* The last line is the checksum of everything before it. */
    text[n - 1] = '\0';
    char *last = strrchr(text, '\n');
    unsigned long long sum;
    char extra;
    if (!last || sscanf(last + 1, "checksum %16llx%c", &sum, &extra) != 1 ||
        strlen(last + 1) != 9 + 16 ||
        ta_fnv1a64(TA_FNV1A64_OFFSET, text, (size_t)(last + 1 - text)) != sum) {
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

/* ---- comparing with a directory ------------------------------------------------ */

/* The marker's files sorted by path, so each lookup is a binary search
   and checking a module stays linear-logarithmic in its files. */
typedef struct Listed {
    const MarkerFile **files;
    int n;
} Listed;

static int by_path(const void *a, const void *b)
{
    return strcmp((*(const MarkerFile *const *)a)->path, (*(const MarkerFile *const *)b)->path);
}

/* The first listed file whose path is not below `key` (lower bound). */
static int first_at_or_after(const Listed *L, const char *key)
{
    int lo = 0, hi = L->n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (strcmp(L->files[mid]->path, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static const MarkerFile *find_listed(const Listed *L, const char *path)
{
    int i = first_at_or_after(L, path);
    return i < L->n && strcmp(L->files[i]->path, path) == 0 ? L->files[i] : NULL;
}

/* Whether some listed file sits below directory `sub`. */
static bool dir_on_the_way(TaPool *pool, const Listed *L, const char *sub)
{
    const char *prefix = ta_format(pool, "%s/", sub);
    int i = first_at_or_after(L, prefix);
    return i < L->n && strncmp(L->files[i]->path, prefix, strlen(prefix)) == 0;
}

static const char *unlisted(TaPool *pool, const char *dir, const char *rel, const Listed *L);

const char *ta_marker_unlisted(TaPool *pool, const char *dir, const char *rel, const Marker *mk)
{
    Listed L = {ta_alloc_array(pool, (size_t)mk->files.len + 1, sizeof(MarkerFile *)),
                mk->files.len};
    for (int i = 0; i < L.n; i++)
        L.files[i] = mk->files.items[i];
    qsort(L.files, (size_t)L.n, sizeof *L.files, by_path);
    return unlisted(pool, dir, rel, &L);
}

/* Null when every entry under `dir`/`rel` is a file the marker lists with
   its size and hash, or a directory on the way to one; else the first
   entry that is not, and why. */
static const char *unlisted(TaPool *pool, const char *dir, const char *rel, const Listed *L)
{
    const char *here = *rel ? ta_path_join(pool, dir, rel) : dir;
    TaVec *names = ta_list_dir(pool, here);
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
            if (!dir_on_the_way(pool, L, sub))
                return ta_format(pool, "directory %s was not written by tinyaot", full);
            const char *why = unlisted(pool, dir, sub, L);
            if (why)
                return why;
            continue;
        }
        if (!S_ISREG(st.st_mode))
            return ta_format(pool, "%s is %s, which tinyaot never writes", full,
                             ta_file_kind(st.st_mode));
        const MarkerFile *listed = find_listed(L, sub);
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
