/*
 * test_reader_fuzz.c - the model reader and the stages after it against
 * hostile files: every truncation of each shared model and thousands of
 * random byte flips. Each mutated file must either convert (in memory:
 * read, check, lower, plan) or fail with errors of one line each (a
 * damaged file gives exactly one; a truncation that only drops unused
 * trailing bytes may still parse and report unsupported operators, and one
 * that drops only the zero padding at the end may convert); it
 * must never crash, hang or read out of bounds (run it under ASan/UBSan).
 *
 *   test_reader_fuzz MODELS_DIR [FLIPS_PER_MODEL] [SEED] [PART/PARTS]
 *
 * PART/PARTS (e.g. 0/2) takes every PARTS-th model of the sorted list from
 * the PART-th on, so that ctest can run the parts side by side.
 */
#define _XOPEN_SOURCE 700
#include "config/config.h"
#include "config/target.h"
#include "lower/lower.h"
#include "model/model.h"
#include "passes/passes.h"
#include "plan/plan.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Under AddressSanitizer a truncation poisons the bytes past its end, so a
   read beyond the first n bytes is reported as it would be for an
   allocation of exactly n bytes. */
#if defined(__SANITIZE_ADDRESS__)
#define READER_FUZZ_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define READER_FUZZ_ASAN 1
#endif
#endif
#ifdef READER_FUZZ_ASAN
#include <sanitizer/asan_interface.h>
#else
#define ASAN_POISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#define ASAN_UNPOISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#endif

static int failures;

static void quiet_sink(void *user, int level, const char *line)
{
    (void)user;
    (void)level;
    (void)line;
}

/* Lowering and planning, after the graph passes. */
static void lower_and_plan(TaPool *pool, TaDiag *diag, const char *label, TaModel *m, TaGraph *g)
{
    TaLower L = {
        .pool = pool, .diag = diag, .model = m, .graph = g, .model_path = label, .prefix = "fz"};
    if (!ta_lower_graph(&L))
        return;
    TaPassCtx pass = {.pool = pool, .diag = diag, .graph = g, .model = m, .model_path = label};
    ta_pass_drop_dead(&pass);
    const char *keys[] = {"model.path", "module.path"};
    const char *values[] = {"x", "y"};
    TaConfig *cfg = ta_config_load(pool, diag, NULL, keys, values, 2);
    TaTarget *t = ta_target_load(pool, diag, "host");
    TaPlanInput in = {
        .pool = pool, .diag = diag, .graph = g, .config = cfg, .target = t, .prefix = "fz"};
    if (cfg && t)
        ta_plan(&in);
}

/* Runs the in-memory pipeline; returns the number of error lines. */
static int convert_bytes(const char *label, const uint8_t *bytes, size_t size, int *lines)
{
    TaPool pool = {0};
    TaDiag diag = {.pool = &pool, .sink = quiet_sink};
    TaModel *m = ta_read_tflite_bytes(&pool, &diag, label, bytes, size);
    if (m) {
        TaGraph *g = m->subgraphs.items[0];
        TaPassCtx pass = {
            .pool = &pool, .diag = &diag, .graph = g, .model = m, .model_path = label};
        if (ta_pass_check(&pass) && ta_pass_mark_io(&pass) && ta_pass_decode_constants(&pass))
            lower_and_plan(&pool, &diag, label, m, g);
    }
    int errors = diag.errors;
    *lines = diag.lines.len;
    ta_pool_free(&pool);
    return errors;
}

static uint8_t *load(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc((size_t)n + 1);
    if (!p || fread(p, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(p);
        return NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return p;
}

static uint64_t rng_state;
static uint64_t next_random(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return rng_state >> 33;
}

/* Whether bytes [n, size) are only the zero padding a FlatBuffers writer
   adds to align the buffer's end (less than 4 bytes): dropping them leaves a
   file that still converts. */
static bool only_end_padding(const uint8_t *bytes, size_t n, size_t size)
{
    if (size - n >= 4)
        return false;
    for (size_t i = n; i < size; i++)
        if (bytes[i])
            return false;
    return true;
}

static void fuzz_model(const char *path, int flips)
{
    size_t size;
    uint8_t *bytes = load(path, &size);
    if (!bytes) {
        printf("FAIL %s: cannot read\n", path);
        failures++;
        return;
    }
    int lines;
    int base_errors = convert_bytes(path, bytes, size, &lines);
    /* Every truncation, longest first: one copy whose bytes from n on are
       poisoned. Each step poisons only byte n's part of its 8-byte shadow
       granule (the granules after it are poisoned already), so the walk
       costs no copying; a copy per length made it quadratic (minutes for
       person_detect under ASan). */
    int truncation_failures = 0;
    uint8_t *cut = malloc(size);
    memcpy(cut, bytes, size);
    for (size_t n = size; n-- > 0;) {
        const size_t granule_end = (n | 7) + 1;
        ASAN_POISON_MEMORY_REGION(cut + n, (granule_end < size ? granule_end : size) - n);
        int errors = convert_bytes(path, cut, n, &lines);
        const bool may_convert = base_errors == 0 && only_end_padding(bytes, n, size);
        if ((errors < 1 && !may_convert) || lines != errors) {
            if (truncation_failures++ < 3)
                printf("FAIL %s truncated to %zu bytes: %d errors, %d lines\n", path, n, errors,
                       lines);
        }
    }
    ASAN_UNPOISON_MEMORY_REGION(cut, size);
    free(cut);
    /* Random flips of 1 to 4 bytes. */
    int accepted = 0, rejected = 0, flip_failures = 0;
    uint8_t *copy = malloc(size);
    for (int i = 0; i < flips; i++) {
        memcpy(copy, bytes, size);
        int count = 1 + (int)(next_random() % 4);
        for (int k = 0; k < count; k++)
            copy[next_random() % size] ^= (uint8_t)(1 + next_random() % 255);
        int errors = convert_bytes(path, copy, size, &lines);
        if (errors == 0)
            accepted++;
        else if (lines == errors)
            rejected++;
        else
            flip_failures++;
    }
    free(copy);
    failures += truncation_failures + flip_failures;
    printf("%-45s %7zu bytes: %s; truncations %zu (%d bad); flips %d: %d converted, %d "
           "rejected, %d bad\n",
           strrchr(path, '/') ? strrchr(path, '/') + 1 : path, size,
           base_errors ? "unsupported as a whole" : "converts", size, truncation_failures, flips,
           accepted, rejected, flip_failures);
    free(bytes);
}

static int compare(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_reader_fuzz MODELS_DIR [FLIPS] [SEED]\n");
        return 2;
    }
    int flips = argc > 2 ? atoi(argv[2]) : 2000;
    rng_state = argc > 3 ? strtoull(argv[3], NULL, 10) : 12345;
    int part = 0, parts = 1;
    if (argc > 4 &&
        (sscanf(argv[4], "%d/%d", &part, &parts) != 2 || parts < 1 || part < 0 || part >= parts)) {
        fprintf(stderr, "test_reader_fuzz: PART/PARTS is %s, not e.g. 0/2\n", argv[4]);
        return 2;
    }
    DIR *dir = opendir(argv[1]);
    if (!dir) {
        printf("FAIL: cannot open %s\n", argv[1]);
        return 1;
    }
    char *names[256];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dir)) && n < 256) {
        size_t len = strlen(e->d_name);
        if (len > 7 && strcmp(e->d_name + len - 7, ".tflite") == 0) {
            names[n] = malloc(strlen(argv[1]) + len + 2);
            sprintf(names[n++], "%s/%s", argv[1], e->d_name);
        }
    }
    closedir(dir);
    qsort(names, (size_t)n, sizeof names[0], compare);
    if (n == 0) {
        printf("FAIL: no .tflite files in %s\n", argv[1]);
        return 1;
    }
    for (int i = 0; i < n; i++) {
        if (i % parts == part)
            fuzz_model(names[i], flips);
        free(names[i]);
    }
    printf("%s: %d problems\n", failures ? "FAIL" : "ok", failures);
    return failures ? 1 : 0;
}
