/*
 * validate_oracle.c - TensorFlow Lite Micro's interpreter as validate's
 * reference: finding a Python that can run it, and running it.
 *
 * The Python named by --python or $TINYAOT_PYTHON is the only one tried
 * (a Python the user names is never replaced by another). Otherwise, in
 * order: python3 beside the running executable (where pip puts the
 * `tinyaot` command of a virtual environment), the project's .venv found
 * from the executable (build/tinyaot in a clone: ../.venv), then python3 on
 * PATH. The first that imports numpy and tflite_micro wins.
 */
#define _XOPEN_SOURCE 700
#include "validate.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../src/config/resources.h"

/* The last non-empty line of a file into buf ("" when none). */
static void last_line(const char *path, char *buf, size_t size)
{
    size_t n = 0;
    unsigned char *text = va_read_file(path, &n);
    buf[0] = '\0';
    if (!text)
        return;
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r'))
        text[--n] = '\0';
    const char *line = strrchr((char *)text, '\n');
    snprintf(buf, size, "%s", line ? line + 1 : (char *)text);
    free(text);
}

char *va_write_oracle(const char *work)
{
    const TaResource *script = ta_resource_find("python/tinyaot/oracle.py");
    char *path = va_format("%s/oracle.py", work);
    if (!script || !path || !va_write_file(path, script->data, script->size)) {
        fprintf(stderr, "tinyaot validate: cannot write the oracle script into %s\n", work);
        free(path);
        return NULL;
    }
    return path;
}

/* True when `python` runs the oracle (imports numpy and tflite_micro);
   `found` receives the probe's line ("TFLite Micro <version>"), or the
   reason it cannot. */
static bool probe(const char *python, const char *script, const char *work, char *found,
                  size_t found_size)
{
    char *log = va_format("%s/oracle_probe.log", work);
    if (!log)
        return false;
    char *argv[] = {(char *)python, (char *)script, "--probe", NULL};
    int status;
    VaEnd end = va_run(argv, NULL, log, 120, &status);
    last_line(log, found, found_size);
    if (end == VA_TIMED_OUT)
        snprintf(found, found_size, "importing tflite_micro took longer than 120 s");
    else if (end == VA_EXITED && status != 0 && !found[0])
        snprintf(found, found_size, "it exited with status %d", status);
    else if (end == VA_NOT_STARTED)
        snprintf(found, found_size, "it could not be started");
    free(log);
    return end == VA_EXITED && status == 0;
}

/* The directory of the running executable (malloc'd), or NULL. */
static char *exe_dir(void)
{
    char path[4096];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0)
        return NULL;
    path[n] = '\0';
    char *slash = strrchr(path, '/');
    if (!slash)
        return NULL;
    *slash = '\0';
    return va_format("%s", path[0] ? path : "/");
}

typedef struct Candidate {
    char *path; /* NULL: not found */
    const char *how;
} Candidate;

static size_t candidates(const char *named, const char *named_how, Candidate *c)
{
    size_t n = 0;
    if (named) {
        c[n++] = (Candidate){va_find_program(named), named_how};
        if (!c[0].path)
            c[0].path = va_format("%s", named);
        return n;
    }
    char *dir = exe_dir();
    if (dir) {
        c[n++] = (Candidate){va_format("%s/python3", dir), "beside the tinyaot executable"};
        /* Only the parent resolved: a venv's python is a symbolic link
           that must be run by its path in the venv. */
        char *up = va_format("%s/..", dir), *real = up ? realpath(up, NULL) : NULL;
        c[n++] = (Candidate){va_format("%s/.venv/bin/python", real ? real : up),
                             "the project's .venv"};
        free(real);
        free(up);
        free(dir);
    }
    c[n++] = (Candidate){va_find_program("python3"), "python3 on PATH"};
    if (!c[n - 1].path)
        c[n - 1].path = va_format("python3");
    return n;
}

int va_find_oracle(const char *named, const char *named_how, const char *script, const char *work,
                   char **python, char *version, size_t version_size, char *tried,
                   size_t tried_size)
{
    Candidate c[4] = {{0}};
    size_t n = candidates(named, named_how, c), used = 0;
    int found = 1;
    tried[0] = '\0';
    for (size_t i = 0; i < n && found != 0 && !va_interrupted; i++) {
        char why[400];
        if (!c[i].path || access(c[i].path, X_OK) != 0)
            snprintf(why, sizeof why, "not there");
        else if (probe(c[i].path, script, work, why, sizeof why)) {
            snprintf(version, version_size, "%s", why);
            *python = c[i].path;
            c[i].path = NULL;
            found = 0;
            continue;
        }
        int w = snprintf(tried + used, tried_size - used, "%s%s (%s): %s", used ? "; " : "",
                         c[i].path ? c[i].path : "?", c[i].how, why);
        if (w > 0 && (size_t)w < tried_size - used)
            used += (size_t)w;
    }
    for (size_t i = 0; i < n; i++)
        free(c[i].path);
    return found;
}

int va_run_oracle(const char *python, const char *script, const char *work, const char *model,
                  size_t runs, const char *layers_dir)
{
    char *log = va_format("%s/oracle_run.log", work);
    char *runs_text = va_format("%zu", runs);
    char *in = va_format("%s/inputs.bin", work);
    char *out = va_format("%s/expected.bin", work);
    int result = 1;
    if (log && runs_text && in && out) {
        char *cmd[] = {(char *)python,
                       (char *)script,
                       (char *)model,
                       in,
                       out,
                       runs_text,
                       layers_dir ? "--layers" : NULL,
                       (char *)layers_dir,
                       NULL};
        int status;
        VaEnd end = va_run(cmd, NULL, log, 1800, &status);
        if (end == VA_EXITED && status == 0) {
            result = 0;
        } else if (end != VA_INTERRUPTED) {
            fprintf(stderr, "tinyaot validate: TFLite Micro's interpreter failed on %s:\n", model);
            va_print_log_tail(stderr, log, 20);
        }
    }
    free(log);
    free(runs_text);
    free(in);
    free(out);
    return result;
}
