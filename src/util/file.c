/* file.c - whole-file reads and writes, directories. POSIX. */
#define _XOPEN_SOURCE 700
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Opens `path` for reading only if it is a regular file. The open does not
   block (O_NONBLOCK: a FIFO would otherwise wait for a writer forever) and
   the type is checked on the descriptor, so nothing can swap the file in
   between. */
static int open_regular(TaDiag *d, const char *path, struct stat *st)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        ta_error(d, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    if (fstat(fd, st) != 0) {
        ta_error(d, "%s: cannot read: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st->st_mode)) {
        ta_error(d, "%s: is %s, not a regular file; only regular files are read", path,
                 ta_file_kind(st->st_mode));
        close(fd);
        return -1;
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        ta_error(d, "%s: cannot read: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

const char *ta_file_kind(unsigned mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISLNK(mode))
        return "a symbolic link";
    if (S_ISREG(mode))
        return "a regular file";
    return "not a regular file";
}

uint8_t *ta_read_file(TaPool *pool, TaDiag *d, const char *path, size_t *size)
{
    struct stat st;
    int fd = open_regular(d, path, &st);
    if (fd < 0)
        return NULL;
    size_t n = (size_t)st.st_size;
    uint8_t *data = ta_alloc(pool, n + 1);
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, data + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    if (got != n) {
        ta_error(d, "%s: read failed", path);
        return NULL;
    }
    *size = n;
    return data;
}

bool ta_write_file(TaDiag *d, const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        ta_error(d, "%s: cannot create: %s", path, strerror(errno));
        return false;
    }
    bool ok = (size == 0 || fwrite(data, 1, size, f) == size);
    ok = (fclose(f) == 0) && ok;
    if (!ok)
        ta_error(d, "%s: write failed", path);
    return ok;
}

bool ta_mkdir_p(TaDiag *d, const char *path)
{
    size_t n = strlen(path);
    char *tmp = ta_heap_realloc(NULL, n + 1);
    memcpy(tmp, path, n + 1);
    bool ok = true;
    for (size_t i = 1; i <= n && ok; i++) {
        if (tmp[i] != '/' && tmp[i] != '\0')
            continue;
        char saved = tmp[i];
        tmp[i] = '\0';
        if (mkdir(tmp, 0777) != 0 && errno != EEXIST) {
            ta_error(d, "%s: cannot create directory: %s", tmp, strerror(errno));
            ok = false;
        }
        tmp[i] = saved;
    }
    ta_heap_free(tmp);
    return ok;
}

/* Removes `name` (relative to `dirfd`) and, for a directory, everything in
   it. Symbolic links are removed, never followed; a directory on another
   file system (a mount point) is left alone, so nothing outside the tree is
   touched. Every step works on descriptors, not on paths that could be
   changed underneath. */
static bool remove_at(int dirfd, const char *name, dev_t dev, int depth)
{
    struct stat st;
    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return errno == ENOENT;
    if (!S_ISDIR(st.st_mode))
        return unlinkat(dirfd, name, 0) == 0 || errno == ENOENT;
    if (st.st_dev != dev || depth > 256)
        return false;
    int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return false;
    DIR *dir = fdopendir(fd);
    if (!dir) {
        close(fd);
        return false;
    }
    /* Names first, removal after: a directory changed while it is read may
       return entries twice or not at all. */
    char **names = NULL;
    size_t count = 0, cap = 0;
    bool ok = true;
    for (struct dirent *e; (e = readdir(dir));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (count == cap) {
            cap = cap ? cap * 2 : 16;
            names = ta_heap_realloc(names, cap * sizeof *names);
        }
        size_t len = strlen(e->d_name);
        names[count] = ta_heap_realloc(NULL, len + 1);
        memcpy(names[count], e->d_name, len + 1);
        count++;
    }
    for (size_t i = 0; i < count; i++) {
        ok = remove_at(fd, names[i], dev, depth + 1) && ok;
        ta_heap_free(names[i]);
    }
    ta_heap_free(names);
    closedir(dir);
    return ok && unlinkat(dirfd, name, AT_REMOVEDIR) == 0;
}

bool ta_remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT;
    return remove_at(AT_FDCWD, path, st.st_dev, 0);
}

bool ta_path_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

char *ta_path_join(TaPool *pool, const char *a, const char *b)
{
    size_t n = strlen(a);
    if (n == 0)
        return ta_strdup(pool, b);
    return ta_format(pool, "%s%s%s", a, a[n - 1] == '/' ? "" : "/", b);
}

char *ta_dirname(TaPool *pool, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return ta_strdup(pool, ".");
    if (slash == path)
        return ta_strdup(pool, "/");
    return ta_strndup(pool, path, (size_t)(slash - path));
}

const char *ta_basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}
