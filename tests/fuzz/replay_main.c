/*
 * replay_main.c - runs a fuzz target once on each file named on the
 * command line (a directory: each file in it, sorted), without libFuzzer.
 * ctest uses it to replay the seeds and every regression input in the
 * plain and the sanitized build; a failed check aborts.
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replayed;

static void replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        exit(2);
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "replay: out of memory reading %s\n", path);
        exit(2);
    }
    /* An exact-size copy, so the sanitizer sees a read past the end. */
    uint8_t *exact = malloc(n ? n : 1);
    memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    replayed++;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: no such file or directory: %s\n", argv[i]);
            return 2;
        }
        if (!S_ISDIR(st.st_mode)) {
            replay_file(argv[i]);
            continue;
        }
        struct dirent **names;
        int count = scandir(argv[i], &names, NULL, by_name);
        for (int k = 0; k < count; k++) {
            char path[4200];
            snprintf(path, sizeof path, "%s/%s", argv[i], names[k]->d_name);
            struct stat entry;
            /* Regular files only; a folder's README says what it holds. */
            if (names[k]->d_name[0] != '.' && strcmp(names[k]->d_name, "README") != 0 &&
                stat(path, &entry) == 0 && S_ISREG(entry.st_mode))
                replay_file(path);
            free(names[k]);
        }
        free(names);
    }
    printf("replayed %d inputs\n", replayed);
    return replayed > 0 ? 0 : 2;
}
