/*
 * host_runner.c - runs a generated module on the host over input files.
 *
 * Build it together with a module's sources, naming the module's prefix:
 *
 *   cc -std=c99 -DTA_PREFIX=kws -I out/kws tools/host_runner.c \
 *      <every .c file of out/kws, recursively> -lm
 *
 *   runner [--module-dir DIR] [--reinit-each] INPUTS OUTPUTS RUNS
 *
 * INPUTS holds RUNS records, each the bytes of every model input in order
 * (ctx.inputs[i].size each); OUTPUTS receives RUNS records of every output.
 * Runs follow each other without re-initialization, as on a device, so
 * stateful models carry their state (--reinit-each re-initializes first).
 * For modules converted with memory.allocate_arenas: false, the runner
 * allocates every region itself and loads constant sidecars from DIR.
 */
#define _POSIX_C_SOURCE 200112L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TA_CAT2(a, b) a##b
#define TA_CAT(a, b) TA_CAT2(a, b)
#define TA_STR2(x) #x
#define TA_STR(x) TA_STR2(x)
#define PFX(name) TA_CAT(TA_PREFIX, name)

#include TA_STR(TA_CAT(TA_PREFIX, _model.h))

static int fail(const char *what, int status)
{
    fprintf(stderr, "runner: %s failed with status %d (%s)\n", what, status,
            ta_status_name(status));
    return 1;
}

/* Binds every region of a module that does not own its arenas. */
static int bind_regions(const ta_module_desc_t *m, const char *dir)
{
    for (unsigned r = 0; r < m->num_regions; r++) {
        size_t align = m->alignments[r] < sizeof(void *) ? sizeof(void *) : m->alignments[r];
        void *buf = NULL;
        if (posix_memalign(&buf, align, m->sizes[r] ? m->sizes[r] : 1) != 0)
            return fail("posix_memalign", TA_ERR_BAD_ARGUMENT);
        memset(buf, 0, m->sizes[r]);
        if (m->sidecar_files[r]) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", dir, m->sidecar_files[r]);
            FILE *f = fopen(path, "rb");
            if (!f) {
                fprintf(stderr, "runner: cannot open sidecar %s\n", path);
                return 1;
            }
            /* The sidecar holds the data only: any address-zero guard
               comes first in the region, so the data fills its end. */
            fseek(f, 0, SEEK_END);
            long n = ftell(f);
            fseek(f, 0, SEEK_SET);
            size_t guard = n >= 0 && (size_t)n <= m->sizes[r] ? m->sizes[r] - (size_t)n : 0;
            if (n < 0 || (size_t)n > m->sizes[r] ||
                fread((char *)buf + guard, 1, (size_t)n, f) != (size_t)n) {
                fclose(f);
                fprintf(stderr, "runner: sidecar %s does not fit region %u\n", path, r);
                return 1;
            }
            fclose(f);
        }
        int status = m->bind_arena((int)r, buf, m->sizes[r]);
        if (status != TA_OK)
            return fail("bind_arena", status);
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *dir = ".";
    int reinit_each = 0;
    int i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
        if (strcmp(argv[i], "--module-dir") == 0 && i + 1 < argc)
            dir = argv[++i];
        else if (strcmp(argv[i], "--reinit-each") == 0)
            reinit_each = 1;
        else {
            fprintf(stderr, "runner: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (argc - i != 3) {
        fprintf(stderr, "usage: runner [--module-dir DIR] [--reinit-each] INPUTS OUTPUTS RUNS\n");
        return 2;
    }
    FILE *in = fopen(argv[i], "rb");
    FILE *out = fopen(argv[i + 1], "wb");
    long runs = strtol(argv[i + 2], NULL, 10);
    if (!in || !out) {
        fprintf(stderr, "runner: cannot open %s or %s\n", argv[i], argv[i + 1]);
        return 1;
    }
    const ta_module_desc_t *desc = &PFX(_module_desc);
    if (desc->bind_arena && bind_regions(desc, dir) != 0)
        return 1;
    PFX(_model_context_t) ctx;
    memset(&ctx, 0, sizeof ctx);
    int status = PFX(_model_init)(&ctx);
    if (status != TA_OK)
        return fail("model_init", status);
    for (long r = 0; r < runs; r++) {
        if (reinit_each && r > 0 && (status = PFX(_model_init)(&ctx)) != TA_OK)
            return fail("model_init", status);
        for (int k = 0; k < (int)(sizeof ctx.inputs / sizeof ctx.inputs[0]); k++) {
            if (fread(ctx.inputs[k].data, 1, ctx.inputs[k].size, in) != ctx.inputs[k].size) {
                fprintf(stderr, "runner: %s ends early (run %ld, input %d)\n", argv[i], r, k);
                return 1;
            }
        }
        status = PFX(_model_run)(&ctx);
        if (status != TA_OK)
            return fail("model_run", status);
        for (int k = 0; k < (int)(sizeof ctx.outputs / sizeof ctx.outputs[0]); k++)
            fwrite(ctx.outputs[k].data, 1, ctx.outputs[k].size, out);
    }
    fclose(in);
    if (fclose(out) != 0) {
        fprintf(stderr, "runner: writing %s failed\n", argv[i + 1]);
        return 1;
    }
    return 0;
}
