/* file.c - whole-file reads and writes, directories. POSIX. */
#define _XOPEN_SOURCE 700
#include "util.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

uint8_t *ta_read_file(TaPool *pool, TaDiag *d, const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        ta_error(d, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        ta_error(d, "%s: not a regular file", path);
        fclose(f);
        return NULL;
    }
    size_t n = (size_t)st.st_size;
    uint8_t *data = ta_alloc(pool, n + 1);
    if (n && fread(data, 1, n, f) != n) {
        ta_error(d, "%s: read failed", path);
        fclose(f);
        return NULL;
    }
    fclose(f);
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
    char *tmp = malloc(n + 1);
    if (!tmp)
        ta_bug(__FILE__, __LINE__, "out of memory");
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
    free(tmp);
    return ok;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

bool ta_remove_tree(const char *path)
{
    if (!ta_path_exists(path))
        return true;
    return nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) == 0;
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
