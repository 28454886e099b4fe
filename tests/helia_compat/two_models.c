/*
 * two_models.c - memory-placement.txt's "Two models in one image", with
 * the spellings its text uses: two modules (prefixes wake and clf)
 * converted with memory.allocate_arenas: false, each region bound before
 * that module is initialized, the cold constant regions bound to the bytes
 * of the `wake_arena_const___blob.bin` / `clf_arena_const___blob.bin`
 * sidecars, and one scratch buffer sized to the larger of
 * `wake_arena__size` and `clf_arena__size` (aligned to the larger
 * alignment) bound into both. Outputs are copied out before the other
 * model runs, as the document's caution asks.
 *
 * Arguments: the two sidecars, each model's input bytes and expected
 * output bytes (wake first).
 */
#include "clf_model.h"
#include "wake_model.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(c)                                                \
    do {                                                        \
        if (!(c)) {                                             \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); \
            exit(1);                                            \
        }                                                       \
    } while (0)

#define MAX(a, b) ((a) > (b) ? (a) : (b))

static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    CHECK(fseek(f, 0, SEEK_END) == 0);
    long len = ftell(f);
    CHECK(len >= 0 && fseek(f, 0, SEEK_SET) == 0);
    uint8_t *data = malloc((size_t)len + 1);
    CHECK(data != NULL && fread(data, 1, (size_t)len, f) == (size_t)len);
    fclose(f);
    *n = (size_t)len;
    return data;
}

/* One scratch buffer for both models. */
static _Alignas(MAX(wake_arena__alignment, clf_arena__alignment)) uint8_t
    shared_scratch[MAX(wake_arena__size, clf_arena__size)];

int main(int argc, char **argv)
{
    CHECK(argc == 7);
    size_t wake_n, clf_n, wake_in_n, clf_in_n, wake_want_n, clf_want_n;
    uint8_t *wake_const = slurp(argv[1], &wake_n);
    uint8_t *clf_const = slurp(argv[2], &clf_n);
    uint8_t *wake_in = slurp(argv[3], &wake_in_n);
    uint8_t *wake_want = slurp(argv[4], &wake_want_n);
    uint8_t *clf_in = slurp(argv[5], &clf_in_n);
    uint8_t *clf_want = slurp(argv[6], &clf_want_n);

    /* Every region of each module, from the sizes and alignments tables. */
    for (int r = 0; r < wake_num_arena_buffers; r++) {
        void *buffer = shared_scratch;
        if (r != wake_arena_dtcm) {
            CHECK(wake_arena_sizes[r] == wake_n);
            buffer = wake_const;
        }
        CHECK((uintptr_t)buffer % wake_arena_alignments[r] == 0);
        CHECK(wake_bind_arena((wake_arena_region_t)r, buffer, MAX(wake_arena_sizes[r], 1)) ==
              wake_status_ok);
    }
    for (int r = 0; r < clf_num_arena_buffers; r++) {
        void *buffer = shared_scratch;
        if (r != clf_arena_dtcm) {
            CHECK(clf_arena_sizes[r] == clf_n);
            buffer = clf_const;
        }
        CHECK(clf_bind_arena((clf_arena_region_t)r, buffer, MAX(clf_arena_sizes[r], 1)) ==
              clf_status_ok);
    }
    wake_model_context_t wake_ctx;
    clf_model_context_t clf_ctx;
    memset(&wake_ctx, 0, sizeof wake_ctx);
    memset(&clf_ctx, 0, sizeof clf_ctx);
    CHECK(wake_model_init(&wake_ctx) == wake_status_ok);
    CHECK(clf_model_init(&clf_ctx) == clf_status_ok);

    uint8_t *wake_out = malloc(wake_want_n), *clf_out = malloc(clf_want_n);
    CHECK(wake_out && clf_out);
    for (int round = 0; round < 2; round++) {
        CHECK(wake_in_n == wake_ctx.inputs[0].size && wake_want_n == wake_ctx.outputs[0].size);
        memcpy(wake_ctx.inputs[0].data, wake_in, wake_in_n);
        CHECK(wake_model_run(&wake_ctx) == wake_status_ok);
        memcpy(wake_out, wake_ctx.outputs[0].data, wake_want_n); /* before clf runs */
        CHECK(clf_in_n == clf_ctx.inputs[0].size && clf_want_n == clf_ctx.outputs[0].size);
        memcpy(clf_ctx.inputs[0].data, clf_in, clf_in_n);
        CHECK(clf_model_run(&clf_ctx) == clf_status_ok);
        memcpy(clf_out, clf_ctx.outputs[0].data, clf_want_n);
        CHECK(memcmp(wake_out, wake_want, wake_want_n) == 0);
        CHECK(memcmp(clf_out, clf_want, clf_want_n) == 0);
    }
    printf("two models, one scratch buffer: outputs as expected\n");
    free(wake_const);
    free(clf_const);
    free(wake_in);
    free(wake_want);
    free(clf_in);
    free(clf_want);
    free(wake_out);
    free(clf_out);
    return 0;
}
