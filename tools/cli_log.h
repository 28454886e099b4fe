/*
 * cli_log.h - where `tinyaot convert` sends the library's messages:
 * errors (and, unless --verbose 0, warnings and notes) to stderr, progress
 * lines up to the --verbose level to stdout, and with --log-file every
 * message, at every level, appended to the log.
 */
#ifndef TINYAOT_CLI_LOG_H
#define TINYAOT_CLI_LOG_H

#include <stdbool.h>
#include <stdio.h>

typedef struct CliLog {
    int verbose;        /* progress levels shown on stdout: 0..3 */
    bool show_warnings; /* warnings and notes on stderr */
    FILE *file;         /* --log-file, or NULL */
} CliLog;

/* The tinyaot_args.diagnostic callback; `user` is a CliLog. */
void tinyaot_cli_log_message(void *user, int level, const char *message);
/* Opens `path` for appending and writes the run's first line (the command).
   Refuses (one line on stderr, false) a path that is not a regular file, is
   the --config file or the model named on the command line, or holds
   anything but text. */
bool tinyaot_cli_log_open(CliLog *log, const char *path, const char *config_path,
                          const char *model_path, int argc, char **argv);
void tinyaot_cli_log_close(CliLog *log);

#endif
