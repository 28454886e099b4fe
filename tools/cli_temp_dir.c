/*
 * cli_temp_dir.c - the temporary directory `tinyaot validate` and `tinyaot
 * profile` work in: made, marked as this process's, removed afterwards
 * (also on Ctrl-C), and the ones earlier runs left behind when killed with
 * SIGKILL (which no handler sees) removed by the next run.
 *
 * A directory is removed as stale only when all of these hold: its name is
 * one of ours (tinyaot-validate.* or tinyaot-profile.*) directly in TMPDIR;
 * it is a real directory (opened with O_NOFOLLOW), owned by our user; it
 * holds our marker file (a regular file, also ours) naming this host and a
 * process that no longer runs - no process with that id, or one started at
 * another time (the id was reused). Removal never follows a symbolic link
 * (ta_remove_tree). --keep removes the marker: a kept directory stays.
 * A run killed between making its directory and writing the marker
 * (microseconds) leaves an empty one: an empty directory of ours older
 * than a minute is removed too (rmdir, which removes nothing else).
 */
#define _XOPEN_SOURCE 700
#include "validate.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../src/util/util.h"

#define MARKER ".tinyaot-owner"
#define MARKER_TAG "tinyaot temporary directory"

enum { EXIT_CANNOT = 3, EXIT_SIGNAL = 130 };

static const char *const kinds[] = {"tinyaot-validate.", "tinyaot-profile."};

/* When process `pid` started (clock ticks after boot, /proc/<pid>/stat
   field 22), 0 where that cannot be read. */
static unsigned long long start_time(long pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    /* The command name (field 2) may hold spaces and ')': count from the last ')'. */
    const char *p = strrchr(buf, ')');
    unsigned long long t = 0;
    for (int field = 2; p && field < 22; field++)
        p = strchr(p + 1, ' ');
    if (p)
        t = strtoull(p + 1, NULL, 10);
    return t;
}

static void host_name(char *buf, size_t size)
{
    if (gethostname(buf, size) != 0)
        snprintf(buf, size, "unknown");
    buf[size - 1] = '\0';
    for (char *c = buf; *c; c++)
        if (*c == ' ' || *c == '\n')
            *c = '_';
}

static bool write_marker(const char *work)
{
    char host[256], *path = va_format("%s/" MARKER, work);
    host_name(host, sizeof host);
    char *text = va_format(MARKER_TAG " %s %ld %llu\n", host, (long)getpid(),
                           start_time((long)getpid()));
    bool ok = path && text && va_write_file(path, text, strlen(text));
    free(path);
    free(text);
    return ok;
}

/* True when the process the marker names runs no more. */
static bool owner_is_dead(const char *marker)
{
    char host[256], marker_host[256];
    long pid;
    unsigned long long started;
    if (sscanf(marker, MARKER_TAG " %255s %ld %llu", marker_host, &pid, &started) != 3 || pid <= 0)
        return false;
    host_name(host, sizeof host);
    if (strcmp(host, marker_host) != 0 || pid == (long)getpid())
        return false; /* another machine's TMPDIR entry, or ours */
    if (kill((pid_t)pid, 0) != 0)
        return errno == ESRCH;
    unsigned long long now = start_time(pid);
    return started && now && now != started; /* the id now names another process */
}

/* The marker of the directory `name` in `dirfd`, if that is a real
   directory of ours holding a regular marker file of ours. */
static bool read_marker(int dirfd, const char *name, char *buf, size_t size)
{
    int dir = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dir < 0)
        return false;
    struct stat st;
    bool ok = fstat(dir, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid();
    int fd = ok ? openat(dir, MARKER, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) : -1;
    close(dir);
    if (fd < 0)
        return false;
    ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid();
    ssize_t n = ok ? read(fd, buf, size - 1) : -1;
    close(fd);
    if (n <= 0)
        return false;
    buf[n] = '\0';
    return true;
}

static bool is_ours(const char *name)
{
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strncmp(name, kinds[i], strlen(kinds[i])) == 0 && !strchr(name, '/'))
            return true;
    return false;
}

enum { EMPTY_GRACE_SECONDS = 60 };

/* True when `name` in `dirfd` is a real, empty directory of ours whose last
   change is over a minute old: a run made it and was killed before it could
   write its marker (a live run writes it microseconds after mkdtemp). */
static bool is_abandoned_empty(int dirfd, const char *name)
{
    int dir = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dir < 0)
        return false;
    struct stat st;
    bool old = fstat(dir, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
               time(NULL) - st.st_mtime > EMPTY_GRACE_SECONDS;
    DIR *d = old ? fdopendir(dir) : NULL;
    if (!d) {
        close(dir);
        return false;
    }
    bool empty = true;
    for (struct dirent *e; empty && (e = readdir(d));)
        empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
    closedir(d);
    return empty;
}

/* Removes the directories of killed runs in `tmp`; says so on stderr. */
static void remove_stale(const char *tmp, const char *who)
{
    DIR *d = opendir(tmp);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        char marker[512];
        if (!is_ours(e->d_name))
            continue;
        bool empty = is_abandoned_empty(dirfd(d), e->d_name);
        if (!empty &&
            (!read_marker(dirfd(d), e->d_name, marker, sizeof marker) || !owner_is_dead(marker)))
            continue;
        char *path = va_format("%s/%s", tmp, e->d_name);
        if (path &&
            (empty ? unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR) == 0 : ta_remove_tree(path)))
            fprintf(stderr, "%s: removed %s, left behind by a run that was killed\n", who, path);
        free(path);
    }
    closedir(d);
}

int va_run_in_temp_dir(const char *command, bool keep, int (*body)(void *user, const char *work),
                       void *user)
{
    const char *tmp = getenv("TMPDIR");
    tmp = tmp && *tmp ? tmp : "/tmp";
    char *who = va_format("tinyaot %s", command);
    char *work = va_format("%s/tinyaot-%s.XXXXXX", tmp, command);
    int status;
    if (who)
        remove_stale(tmp, who);
    if (!who || !work || !mkdtemp(work)) {
        fprintf(stderr, "tinyaot %s: cannot create a temporary directory in %s (TMPDIR)\n", command,
                tmp);
        status = EXIT_CANNOT;
    } else if (!write_marker(work)) {
        fprintf(stderr, "%s: cannot write into the temporary directory %s\n", who, work);
        ta_remove_tree(work);
        status = EXIT_CANNOT;
    } else {
        va_catch_signals();
        status = body(user, work);
        if (va_interrupted) {
            fprintf(stderr, "%s: interrupted\n", who);
            status = EXIT_SIGNAL;
        }
        fflush(stdout);
        if (keep) {
            /* A kept directory is the user's now: no later run removes it. */
            char *marker = va_format("%s/" MARKER, work);
            if (marker)
                unlink(marker);
            free(marker);
            fprintf(stderr, "%s: kept %s\n", who, work);
        } else if (!ta_remove_tree(work))
            fprintf(stderr, "%s: could not remove %s\n", who, work);
    }
    free(who);
    free(work);
    return status;
}
