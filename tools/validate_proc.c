/*
 * validate_proc.c - what `tinyaot validate` needs of the operating system:
 * child processes with a timeout that an interrupt also stops, programs on
 * PATH, whole files, and listing a module's C sources.
 */
#define _XOPEN_SOURCE 700 /* nftw */
#include "validate.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

volatile int va_interrupted;

static void on_signal(int sig)
{
    (void)sig;
    va_interrupted = 1;
}

void va_catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

char *va_format(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

static bool is_executable_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

char *va_find_program(const char *name)
{
    if (!name || !*name)
        return NULL;
    if (strchr(name, '/'))
        return is_executable_file(name) ? va_format("%s", name) : NULL;
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    for (const char *p = path;;) {
        const char *end = strchr(p, ':');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char *candidate = len ? va_format("%.*s/%s", (int)len, p, name) : va_format("./%s", name);
        if (candidate && is_executable_file(candidate))
            return candidate;
        free(candidate);
        if (!end)
            return NULL;
        p = end + 1;
    }
}

static bool group_is_gone(pid_t group)
{
    return kill(-group, 0) != 0 && errno == ESRCH;
}

/* Stops the child's whole process group: SIGTERM first, so that a compiler
   driver deletes its temporary files in $TMPDIR, then SIGKILL to whatever is
   left after a second. Returns once the group is gone (or after 3 s: members
   orphaned to a parent that never reaps them stay as zombies). */
static void stop_group(pid_t pid)
{
    kill(-pid, SIGTERM);
    bool leader_ended = false;
    for (int i = 0; i < 150; i++) {
        if (!leader_ended && waitpid(pid, NULL, WNOHANG) == pid)
            leader_ended = true;
        if (leader_ended && group_is_gone(pid))
            return;
        if (i == 50) /* 1 s */
            kill(-pid, SIGKILL);
        nanosleep(&(struct timespec){0, 20000000L}, NULL);
    }
    if (!leader_ended)
        waitpid(pid, NULL, 0);
}

VaEnd va_run(char *const *argv, const char *cwd, const char *log_path, int timeout_s, int *status)
{
    *status = -1;
    if (va_interrupted)
        return VA_INTERRUPTED;
    /* Signals stay blocked until the child has put back the default
       actions: a Ctrl-C between fork and exec must stop the child, not set
       the flag in its copy of this process and let it run on. */
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old);
    pid_t pid = fork();
    if (pid < 0) {
        sigprocmask(SIG_SETMASK, &old, NULL);
        return VA_NOT_STARTED;
    }
    if (pid == 0) {
        /* The child: its own process group, so stopping it stops what it
           starts too (the compiler's cc1, say). */
        setpgid(0, 0);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        sigprocmask(SIG_SETMASK, &old, NULL);
        int in = open("/dev/null", O_RDONLY);
        if (in >= 0)
            dup2(in, 0);
        if (log_path) {
            int out = open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
            if (out >= 0) {
                dup2(out, 1);
                dup2(out, 2);
            }
        }
        if (cwd && chdir(cwd) != 0)
            _exit(126);
        execvp(argv[0], argv);
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);
    sigprocmask(SIG_SETMASK, &old, NULL);
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        int st;
        pid_t got = waitpid(pid, &st, WNOHANG);
        if (got == pid) {
            *status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
            return VA_EXITED;
        }
        if (got < 0 && errno != EINTR)
            return VA_NOT_STARTED;
        if (va_interrupted) {
            stop_group(pid);
            return VA_INTERRUPTED;
        }
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (timeout_s > 0 && now.tv_sec - start.tv_sec >= timeout_s) {
            stop_group(pid);
            return VA_TIMED_OUT;
        }
        nanosleep(&(struct timespec){0, 10000000L}, NULL);
    }
}

unsigned char *va_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    unsigned char *data = malloc(cap + 1);
    while (data) {
        size_t got = fread(data + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        unsigned char *bigger = realloc(data, cap * 2 + 1);
        if (!bigger) {
            free(data);
            data = NULL;
            break;
        }
        data = bigger;
        cap *= 2;
    }
    bool failed = ferror(f) != 0;
    fclose(f);
    if (!data || failed) {
        free(data);
        return NULL;
    }
    data[n] = '\0';
    *size = n;
    return data;
}

bool va_write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}

void va_print_log_tail(FILE *out, const char *path, int max_lines)
{
    size_t size = 0;
    unsigned char *text = va_read_file(path, &size);
    if (!text)
        return;
    size_t start = size;
    int lines = 0;
    while (start > 0 && lines <= max_lines) {
        start--;
        if (text[start] == '\n' && start + 1 < size)
            lines++;
    }
    if (lines > max_lines)
        start++;
    for (const char *line = (const char *)text + start; *line;) {
        const char *end = strchr(line, '\n');
        int len = end ? (int)(end - line) : (int)strlen(line);
        fprintf(out, "    %.*s\n", len, line);
        line += len + (end ? 1 : 0);
    }
    free(text);
}

/* nftw has no user pointer: the list being filled. */
static char **found;
static size_t num_found, cap_found;
static bool found_failed;

static int collect(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)ftw;
    size_t len = strlen(path);
    if (type != FTW_F || !S_ISREG(st->st_mode) || len < 2 || strcmp(path + len - 2, ".c") != 0)
        return 0;
    if (num_found == cap_found) {
        size_t cap = cap_found ? 2 * cap_found : 64;
        char **bigger = realloc(found, cap * sizeof *bigger);
        if (!bigger) {
            found_failed = true;
            return 1;
        }
        found = bigger;
        cap_found = cap;
    }
    found[num_found] = va_format("%s", path);
    if (!found[num_found]) {
        found_failed = true;
        return 1;
    }
    num_found++;
    return 0;
}

static int compare_paths(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

char **va_list_c_files(const char *dir, size_t *count)
{
    found = NULL;
    num_found = cap_found = 0;
    found_failed = false;
    if (nftw(dir, collect, 16, FTW_PHYS) != 0 || found_failed) {
        va_free_list(found, num_found);
        return NULL;
    }
    if (num_found)
        qsort(found, num_found, sizeof *found, compare_paths);
    *count = num_found;
    return found;
}

void va_free_list(char **list, size_t count)
{
    for (size_t i = 0; list && i < count; i++)
        free(list[i]);
    free(list);
}
