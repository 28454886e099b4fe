/*
 * test_out_of_memory.c - every allocation of a conversion may fail: the
 * conversion then returns TINYAOT_ERROR_MEMORY with one diagnostic, leaves
 * no module and no temporary directory, and the process carries on (the
 * sanitized build also shows nothing leaks). The Nth allocation fails
 * through the test hook TINYAOT_DEBUG_FAIL_ALLOC=N, for N = 1, 2, ... until
 * the conversion has more allocations than N and succeeds.
 *
 *   test_out_of_memory MODEL WORKDIR
 */
#define _XOPEN_SOURCE 700 /* setenv, mkdtemp, nftw */
#include "../../include/tinyaot/tinyaot.h"

#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static void quiet(void *user, int level, const char *message)
{
    (void)user, (void)level, (void)message;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s MODEL WORKDIR\n", argv[0]);
        return 2;
    }
    char module[4200], parent[4096];
    snprintf(parent, sizeof parent, "%s/oomXXXXXX", argv[2]);
    mkdir(argv[2], 0777);
    if (!mkdtemp(parent)) {
        perror(parent);
        return 2;
    }
    /* A parent the conversion creates: a failure must remove it again. */
    snprintf(module, sizeof module, "%s/new/out", parent);
    /* The documentation page too: its writer allocates more than any other. */
    tinyaot_option options[] = {{"model.path", argv[1]},
                                {"module.path", module},
                                {"module.prefix", "oom"},
                                {"documentation.html", "true"}};
    tinyaot_args args = {.options = options,
                         .num_options = sizeof options / sizeof options[0],
                         .result_views = 1,
                         .diagnostic = quiet,
                         .force = 1};
    enum { MAX_ALLOCATIONS = 100000 };
    for (long n = 1; n <= MAX_ALLOCATIONS; n++) {
        char value[32];
        snprintf(value, sizeof value, "%ld", n);
        setenv("TINYAOT_DEBUG_FAIL_ALLOC", value, 1);
        tinyaot_result *r = NULL;
        tinyaot_status status = tinyaot_convert(&args, &r);
        if (!r) {
            fprintf(stderr, "FAIL: allocation %ld: no result\n", n);
            return 1;
        }
        if (status == TINYAOT_OK) {
            tinyaot_result_free(r);
            struct stat st;
            if (stat(module, &st) != 0) {
                fprintf(stderr, "FAIL: a successful conversion wrote no module\n");
                return 1;
            }
            printf("every one of the conversion's %ld allocations failed cleanly\n", n - 1);
            nftw(parent, remove_one, 16, FTW_DEPTH | FTW_PHYS);
            return n > 1 ? 0 : 1;
        }
        int ok = status == TINYAOT_ERROR_MEMORY && r->num_diagnostics == 1 &&
                 strstr(r->diagnostics[0], "out of memory") && r->num_operators == 0 &&
                 r->num_tensors == 0 && r->module_path == NULL;
        if (!ok) {
            fprintf(stderr, "FAIL: allocation %ld: status %d, %zu diagnostics: %s\n", n,
                    (int)status, r->num_diagnostics, r->num_diagnostics ? r->diagnostics[0] : "");
            tinyaot_result_free(r);
            return 1;
        }
        tinyaot_result_free(r);
        if (entries(parent) != 0) {
            fprintf(stderr, "FAIL: allocation %ld: the failed conversion left files in %s\n", n,
                    parent);
            return 1;
        }
    }
    fprintf(stderr, "FAIL: the conversion never succeeded within %d allocations\n",
            MAX_ALLOCATIONS);
    return 1;
}
