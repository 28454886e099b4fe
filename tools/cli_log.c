/*
 * cli_log.c - the command line's message routing and --log-file; see
 * cli_log.h.
 */
#define _XOPEN_SOURCE 700 /* fdopen, O_NOFOLLOW */
#include "cli_log.h"

#include "../include/tinyaot/tinyaot.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void tinyaot_cli_log_message(void *user, int level, const char *message)
{
    CliLog *log = user;
    if (level >= TINYAOT_DIAG_STAGE) {
        if (level - TINYAOT_DIAG_STAGE < log->verbose) {
            printf("tinyaot: %s\n", message);
            fflush(stdout);
        }
    } else if (level == TINYAOT_DIAG_ERROR || log->show_warnings) {
        fprintf(stderr, "tinyaot: %s\n", message);
    }
    if (log->file)
        fprintf(log->file, "tinyaot: %s\n", message);
}

static bool same_file(const struct stat *st, const char *path)
{
    struct stat other;
    return path && stat(path, &other) == 0 && other.st_dev == st->st_dev &&
           other.st_ino == st->st_ino;
}

/* A log is text: a NUL in its first bytes means it is something else
   (a model, an archive) that appending would damage. */
static bool looks_like_text(int fd)
{
    char buf[4096];
    ssize_t n = pread(fd, buf, sizeof buf, 0);
    return n >= 0 && memchr(buf, '\0', (size_t)n) == NULL;
}

bool tinyaot_cli_log_open(CliLog *log, const char *path, const char *config_path,
                          const char *model_path, int argc, char **argv)
{
    /* Non-blocking: a FIFO without a reader fails at once instead of waiting. */
    int fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
    const char *why = NULL;
    struct stat st;
    if (fd < 0)
        why = errno == ELOOP ? "it is a symbolic link" : strerror(errno);
    else if (fstat(fd, &st) != 0)
        why = strerror(errno);
    else if (!S_ISREG(st.st_mode))
        why = "it is not a regular file";
    else if (same_file(&st, config_path) || same_file(&st, model_path))
        why = "it is the --config file or the model";
    else if (!looks_like_text(fd))
        why = "it holds binary data, not a log";
    if (!why && (log->file = fdopen(fd, "a")) == NULL)
        why = strerror(errno);
    if (why) {
        fprintf(stderr, "tinyaot: error: --log-file %s: cannot append to it: %s\n", path, why);
        if (fd >= 0)
            close(fd);
        return false;
    }
    fprintf(log->file, "== tinyaot %s:", tinyaot_version());
    for (int i = 1; i < argc; i++)
        fprintf(log->file, " %s", argv[i]);
    fprintf(log->file, "\n");
    return true;
}

void tinyaot_cli_log_close(CliLog *log)
{
    if (log->file && fclose(log->file) != 0)
        fprintf(stderr, "tinyaot: warning: --log-file: writing it failed: %s\n", strerror(errno));
    log->file = NULL;
}
