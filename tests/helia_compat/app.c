/*
 * app.c - firmware written against the generated API of a helia-aot 1.1.0
 * module with prefix `hw` (its headers hw_model.h, hw_context.h,
 * hw_tensors.h), used unchanged against a tinyaot module converted with the
 * same configuration (tests/test_helia_compat.py). The same file is also
 * compiled against helia-aot's own headers, so every name and number used
 * here is one helia-aot declares.
 *
 * The configuration, from the test's compiler line:
 *   APP_EXTERNAL        memory.allocate_arenas: false; the application binds
 *   APP_SCRATCH         the scratch region (hw_arena_dtcm)
 *   APP_COLD            the cold constant region the sidecar fills (external)
 *   APP_STAGED          the staged constant region, when constants are staged
 *   APP_HYDRATE         0: the module's weak hydration; 1: a replacement that
 *                       copies the __source.bin sidecar itself; 2: one that
 *                       fails with a custom status
 *
 * Arguments: input bytes, expected output bytes, cold sidecar, staged
 * source sidecar (the last two only where used). Prints one line per
 * check group and exits 0 when every check held.
 */
#include "hw_context.h"
#include "hw_model.h"
#include "hw_tensors.h"

#include <stdalign.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef APP_HYDRATE
#define APP_HYDRATE 0
#endif

#define CHECK(c)                                                \
    do {                                                        \
        if (!(c)) {                                             \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); \
            exit(1);                                            \
        }                                                       \
    } while (0)

/* The numbers are the API: the same in both products. */
_Static_assert(hw_status_ok == 0, "ok");
_Static_assert(hw_status_bind_unknown_region == 1, "unknown region");
_Static_assert(hw_status_bind_null_buffer == 2, "null buffer");
_Static_assert(hw_status_bind_undersized == 3, "undersized");
_Static_assert(hw_status_bind_misaligned == 4, "misaligned");
_Static_assert(hw_status_context_arena_unbound == 10, "unbound");
_Static_assert(hw_status_hydrate_uninited_context == 11, "hydrate uninitialized");
_Static_assert(hw_status_hydrate_null_blob == 12, "hydrate null blob");
_Static_assert(hw_status_null_context == 13, "null context");
_Static_assert(hw_status_not_initialized == 14, "not initialized");
_Static_assert(hw_status_bind_bulk_null_argument == 100, "bulk null");
_Static_assert(hw_status_bind_bulk_wrong_count == 101, "bulk count");
_Static_assert(hw_status_hydration_required == 200, "hydration required");
_Static_assert(hw_status_custom_first == 1000 && hw_status_custom_last == 1999, "custom");
_Static_assert(hw_op_state_init_started == 0 && hw_op_state_init_finished == 1 &&
                   hw_op_state_run_started == 2 && hw_op_state_run_finished == 3,
               "operator states");
_Static_assert(hw_num_arena_buffers >= 1, "regions");
_Static_assert(hw_num_inputs >= 1 && hw_num_outputs >= 1, "I/O");

/* Reads a whole file; its length in *n. */
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

/* ---- the operator callback: four states in order, for every operator */

typedef struct {
    int32_t count[4];
    int32_t next[2]; /* the operator expected next, per phase (init, run) */
    int32_t last;    /* the state reported last, -1 before any */
} trace_t;

static void on_operator(int32_t op, hw_operator_state_t state, int32_t status, void *user_data)
{
    trace_t *t = user_data;
    int phase = state >= hw_op_state_run_started;
    CHECK(status == hw_status_ok);
    if (state == hw_op_state_init_started || state == hw_op_state_run_started) {
        if (op == 0)
            t->next[phase] = 0;
        CHECK(op == t->next[phase] && t->last != (int32_t)state);
    } else {
        CHECK(t->last == (int32_t)state - 1 && op == t->next[phase]);
        t->next[phase]++;
    }
    t->last = (int32_t)state;
    t->count[state]++;
}

#if APP_HYDRATE != 0
/* The application's own hydration, replacing the module's weak one. */
static const uint8_t *staged_source;
static size_t staged_source_size;

int32_t hw_hydrate_constants(hw_model_context_t *ctx)
{
    if (APP_HYDRATE == 2)
        return 1234; /* a custom status: model_init returns it unchanged */
    CHECK(ctx != NULL && ctx->arena_buffers != NULL);
    CHECK(staged_source_size == hw_arena_sizes[APP_STAGED]);
    memcpy((void *)(uintptr_t)ctx->arena_buffers[APP_STAGED], staged_source, staged_source_size);
    hw_mark_hydrated();
    return hw_status_ok;
}
#endif

#ifdef APP_EXTERNAL
/* Buffers from the size and alignment macros, as firmware declares them. */
static alignas(64) uint8_t buffers[hw_num_arena_buffers][4096 * 16];

static void check_binding(const char *cold_path)
{
    void *bufs[hw_num_arena_buffers];
    size_t sizes[hw_num_arena_buffers];
    for (int i = 0; i < hw_num_arena_buffers; i++) {
        CHECK(hw_arena_sizes[i] <= sizeof buffers[i] && hw_arena_alignments[i] <= 64);
        bufs[i] = buffers[i];
        sizes[i] = hw_arena_sizes[i];
    }
    _Static_assert(hw_arena_dtcm_size > 0 && hw_arena_dtcm_alignment >= 1, "scratch macros");
    CHECK(hw_arena_sizes[APP_SCRATCH] == hw_arena_dtcm_size);
    CHECK(hw_arena_alignments[APP_SCRATCH] == hw_arena_dtcm_alignment);
#ifdef APP_COLD
    size_t n = 0;
    uint8_t *cold = slurp(cold_path, &n);
    CHECK(n == hw_arena_sizes[APP_COLD]);
    memcpy(buffers[APP_COLD], cold, n);
    free(cold);
#else
    (void)cold_path;
#endif
    hw_model_context_t ctx;
    memset(&ctx, 0, sizeof ctx);
    /* Nothing bound yet. */
    CHECK(hw_context_init(&ctx) == hw_status_context_arena_unbound);
    CHECK(hw_model_init(&ctx) == hw_status_context_arena_unbound);
    CHECK(hw_model_run(&ctx) == hw_status_not_initialized);
    /* One bind at a time, every refusal. */
    CHECK(hw_bind_arena((hw_arena_region_t)hw_num_arena_buffers, bufs[0], sizes[0]) ==
          hw_status_bind_unknown_region);
    CHECK(hw_bind_arena(APP_SCRATCH, NULL, sizes[APP_SCRATCH]) == hw_status_bind_null_buffer);
    CHECK(hw_bind_arena(APP_SCRATCH, bufs[APP_SCRATCH], hw_arena_dtcm_size - 1) ==
          hw_status_bind_undersized);
    if (hw_arena_dtcm_alignment > 1)
        CHECK(hw_bind_arena(APP_SCRATCH, buffers[APP_SCRATCH] + 1, sizes[APP_SCRATCH]) ==
              hw_status_bind_misaligned);
    /* Bulk binding: arguments first. */
    CHECK(hw_bind_arenas(NULL, sizes, hw_num_arena_buffers) == hw_status_bind_bulk_null_argument);
    CHECK(hw_bind_arenas(bufs, NULL, hw_num_arena_buffers) == hw_status_bind_bulk_null_argument);
    CHECK(hw_bind_arenas(bufs, sizes, hw_num_arena_buffers + 1) == hw_status_bind_bulk_wrong_count);
    CHECK(hw_bind_arenas(bufs, sizes, hw_num_arena_buffers - 1) == hw_status_bind_bulk_wrong_count);
    /* A per-region refusal passes through the bulk call. */
    void *with_null[hw_num_arena_buffers];
    memcpy(with_null, bufs, sizeof bufs);
    with_null[APP_SCRATCH] = NULL;
    CHECK(hw_bind_arenas(with_null, sizes, hw_num_arena_buffers) == hw_status_bind_null_buffer);
    /* Every region bound in one call, then one again by hand. */
    CHECK(hw_bind_arenas(bufs, sizes, hw_num_arena_buffers) == hw_status_ok);
    CHECK(hw_bind_arena(APP_SCRATCH, bufs[APP_SCRATCH], sizes[APP_SCRATCH]) == hw_status_ok);
    printf("binding: every refusal and the binds\n");
}
#endif

#ifdef APP_STAGED
static void check_hydration_misuse(void)
{
    hw_model_context_t ctx;
    memset(&ctx, 0, sizeof ctx);
#if APP_HYDRATE == 0 /* the module's own hydration, not a replacement */
    CHECK(hw_hydrate_constants(NULL) == hw_status_null_context);
    /* Before context_init the context has no arena table. */
    CHECK(hw_hydrate_constants(&ctx) == hw_status_hydrate_uninited_context);
    CHECK(hw_context_init(&ctx) == hw_status_ok);
    CHECK(!hw_is_hydrated());
    /* A table whose staged entry is NULL. */
    const void *nulls[hw_num_arena_buffers] = {0};
    hw_model_context_t forged = ctx;
    forged.arena_buffers = nulls;
    CHECK(hw_hydrate_constants(&forged) == hw_status_hydrate_null_blob);
    CHECK(!hw_is_hydrated());
    CHECK(hw_hydrate_constants(&ctx) == hw_status_ok && hw_is_hydrated());
    /* Idempotent until the latch is cleared. */
    CHECK(hw_hydrate_constants(&ctx) == hw_status_ok && hw_is_hydrated());
    hw_clear_hydrated();
    CHECK(!hw_is_hydrated());
    hw_mark_hydrated();
    CHECK(hw_is_hydrated());
#endif
    printf("hydration: misuse statuses\n");
}
#endif

int main(int argc, char **argv)
{
    CHECK(argc >= 3);
    size_t in_n = 0, want_n = 0;
    uint8_t *input = slurp(argv[1], &in_n);
    uint8_t *want = slurp(argv[2], &want_n);

    CHECK(hw_context_init(NULL) == hw_status_null_context);
    CHECK(hw_model_init(NULL) == hw_status_null_context);
    CHECK(hw_model_run(NULL) == hw_status_null_context);
    hw_model_context_t ctx;
    memset(&ctx, 0, sizeof ctx);
    CHECK(hw_model_run(&ctx) == hw_status_not_initialized);
    printf("null context and not initialized\n");

#if APP_HYDRATE == 1
    staged_source = slurp(argv[4], &staged_source_size);
#endif
#ifdef APP_EXTERNAL
    check_binding(argc > 3 ? argv[3] : "");
#endif
#ifdef APP_STAGED
    check_hydration_misuse();
#endif

    trace_t trace;
    memset(&trace, 0, sizeof trace);
    trace.last = -1;
    ctx.callback = on_operator;
    ctx.user_data = &trace;
#if APP_HYDRATE == 2
    CHECK(hw_model_init(&ctx) == 1234);
    CHECK(hw_model_run(&ctx) == hw_status_not_initialized);
    printf("a replacement's custom status passes through model_init\n");
    free(input);
    free(want);
    return 0;
#else
    CHECK(hw_model_init(&ctx) == hw_status_ok);
#endif
    /* The context's fields. */
    CHECK(ctx.callback == on_operator && ctx.user_data == &trace);
    CHECK(ctx.arena_buffers != NULL && ctx.arena_sizes == hw_arena_sizes);
    CHECK(ctx.inputs[0].data != NULL && ctx.inputs[0].size == hw_input_0_nbytes);
    CHECK(ctx.outputs[0].size == hw_output_0_nbytes && want_n == ctx.outputs[0].size);
    CHECK(ctx.inputs[0].zero_point == hw_inputs_zero_point[0]);
    CHECK(ctx.inputs[0].scale == hw_inputs_scale[0]);
    CHECK(ctx.outputs[0].zero_point == hw_outputs_zero_point[0]);
    CHECK(ctx.inputs[0].id == hw_inputs_id[0] && ctx.outputs[0].id == hw_outputs_id[0]);
    CHECK((int32_t)hw_input_0_size == hw_inputs_len[0]);
    CHECK(in_n == ctx.inputs[0].size);
    int32_t operators = trace.count[hw_op_state_init_started];
    CHECK(operators > 0 && trace.count[hw_op_state_init_finished] == operators);
    CHECK(trace.count[hw_op_state_run_started] == 0);

    memcpy(ctx.inputs[0].data, input, in_n);
    CHECK(hw_model_run(&ctx) == hw_status_ok);
    CHECK(memcmp(ctx.outputs[0].data, want, want_n) == 0);
    CHECK(trace.count[hw_op_state_run_started] == operators);
    CHECK(trace.count[hw_op_state_run_finished] == operators);
    printf("init and run: %d operators, four states each, outputs as expected\n", (int)operators);

#ifdef APP_STAGED
    CHECK(hw_is_hydrated());
    hw_clear_hydrated();
    memcpy(ctx.inputs[0].data, input, in_n);
    CHECK(hw_model_run(&ctx) == hw_status_hydration_required);
    hw_mark_hydrated();
    CHECK(hw_model_run(&ctx) == hw_status_ok);
    CHECK(memcmp(ctx.outputs[0].data, want, want_n) == 0);
    printf("hydration required after clear_hydrated, runs again after mark_hydrated\n");
#endif
    /* Reinitialization works and runs again. */
    ctx.callback = NULL;
    CHECK(hw_model_init(&ctx) == hw_status_ok);
    memcpy(ctx.inputs[0].data, input, in_n);
    CHECK(hw_model_run(&ctx) == hw_status_ok);
    CHECK(memcmp(ctx.outputs[0].data, want, want_n) == 0);
    free(input);
    free(want);
#if APP_HYDRATE == 1
    free((void *)staged_source);
#endif
    printf("all checks passed\n");
    return 0;
}
