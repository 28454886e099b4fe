/* fuzz_common.c - see fuzz_common.h. */
#define _XOPEN_SOURCE 700
#include "fuzz_common.h"

#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[4096];

static void fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz check failed: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    abort();
}

static void quiet(void *user, int level, const char *message)
{
    (void)user;
    (void)level;
    (void)message;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void remove_dir(void)
{
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

const char *fuzz_dir(void)
{
    if (dir[0])
        return dir;
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/tinyaot-fuzz-%ld", tmp && *tmp ? tmp : "/tmp", (long)getpid());
    if (mkdir(dir, 0700) != 0 && access(dir, W_OK) != 0)
        fail("cannot create the scratch directory", dir);
    atexit(remove_dir);
    return dir;
}

const char *fuzz_write_file(const char *name, const uint8_t *data, size_t size)
{
    static char path[4200];
    snprintf(path, sizeof path, "%s/%s", fuzz_dir(), name);
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
        fail("cannot write", path);
    return path;
}

/* Nothing but the inputs the target wrote may be left beside the module. */
static void check_scratch_dir(int module_expected)
{
    DIR *d = opendir(fuzz_dir());
    if (!d)
        fail("cannot list the scratch directory", fuzz_dir());
    int module_seen = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (!strcmp(e->d_name, "module"))
            module_seen = 1;
        else if (strncmp(e->d_name, "in.", 3) != 0)
            fail("a conversion left this beside the module", e->d_name);
    }
    closedir(d);
    if (module_seen != module_expected)
        fail(module_expected ? "a successful conversion wrote no module"
                             : "a failed conversion left a module",
             NULL);
}

void fuzz_convert(const char *config_path, const tinyaot_option *options, size_t num_options)
{
    char module[4200];
    snprintf(module, sizeof module, "%s/module", fuzz_dir());
    tinyaot_option opts[16];
    size_t n = 0;
    for (; n < num_options && n < 15; n++)
        opts[n] = options[n];
    opts[n++] = (tinyaot_option){"module.path", module};
    /* Diagnostics are collected in the result; the sink only keeps them off stderr. */
    tinyaot_args args = {
        .config_path = config_path, .options = opts, .num_options = n, .diagnostic = quiet};
    tinyaot_result *r = NULL;
    tinyaot_status st = tinyaot_convert(&args, &r);
    if (!r)
        fail("tinyaot_convert gave no result", NULL);
    if (st != r->status)
        fail("the returned status differs from the result's", NULL);
    if (st < TINYAOT_OK || st > TINYAOT_ERROR_ARGUMENT)
        fail("status out of range", NULL);
    for (size_t i = 0; i < r->num_diagnostics; i++)
        if (!r->diagnostics[i] || strchr(r->diagnostics[i], '\n'))
            fail("a diagnostic is not one line", r->diagnostics[i]);
    if (st != TINYAOT_OK && r->num_diagnostics == 0)
        fail("a failure without a diagnostic", NULL);
    check_scratch_dir(st == TINYAOT_OK);
    if (getenv("TA_FUZZ_VERBOSE")) /* for triage: what each replayed input did */
        printf("status %d%s%s\n", (int)st, r->num_diagnostics ? ": " : "",
               r->num_diagnostics ? r->diagnostics[0] : "");
    tinyaot_result_free(r);
    nftw(module, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}
