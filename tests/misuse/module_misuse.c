/*
 * module_misuse.c - drives every status of every public function of a
 * generated module (prefix `m`), the same program on the host and on
 * Cortex-M55 under QEMU (tests/test_module_misuse.py builds both).
 *
 * Compile-time description of the module under test:
 *   MISUSE_STAGED          1: it has one staged constant arena, and
 *                          MISUSE_STAGED_DST / MISUSE_STAGED_SRC name its
 *                          first byte and its source blob (m_internal.h)
 *   MISUSE_CALLER_ARENAS   1: memory.allocate_arenas was false
 *   MISUSE_TABLE           1: module.schedule was table (operator callback)
 * The program replaces the weak m_hydrate_constants() to test each branch
 * of the hydration contract. Prints "ok" and returns 0 when every check
 * held; prints "FAIL file:line: check" and returns 1 at the first that
 * did not.
 */
#include "m_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef MISUSE_STAGED
#error "define MISUSE_STAGED to 0 or 1"
#endif
#ifndef MISUSE_CALLER_ARENAS
#error "define MISUSE_CALLER_ARENAS to 0 or 1"
#endif
#ifndef MISUSE_TABLE
#define MISUSE_TABLE 0
#endif

#define CHECK(c)                                                \
    do {                                                        \
        if (!(c)) {                                             \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); \
            exit(1);                                            \
        }                                                       \
    } while (0)

static m_model_context_t ctx;
static unsigned char reference[M_NUM_OUTPUTS][256];

/* Fills every input with a fixed pattern, so runs can be compared. */
static void fill_inputs(void)
{
    for (int i = 0; i < M_NUM_INPUTS; i++)
        for (size_t k = 0; k < ctx.inputs[i].size; k++)
            ((unsigned char *)ctx.inputs[i].data)[k] = (unsigned char)(k * 37u + 11u);
}

static void run_and_keep_reference(void)
{
    fill_inputs();
    CHECK(m_model_run(&ctx) == TA_OK);
    for (int i = 0; i < M_NUM_OUTPUTS; i++) {
        CHECK(ctx.outputs[i].size <= sizeof reference[i]);
        memcpy(reference[i], ctx.outputs[i].data, ctx.outputs[i].size);
    }
}

/* A run that succeeds must give the reference outputs. */
static void run_matches_reference(void)
{
    fill_inputs();
    CHECK(m_model_run(&ctx) == TA_OK);
    for (int i = 0; i < M_NUM_OUTPUTS; i++)
        CHECK(memcmp(reference[i], ctx.outputs[i].data, ctx.outputs[i].size) == 0);
}

/* Every status has its own number and a name of its own. */
static void statuses_are_distinct(void)
{
    static const int all[] = {TA_OK,
                              TA_ERR_BAD_ARGUMENT,
                              TA_ERR_UNKNOWN_REGION,
                              TA_ERR_NULL_BUFFER,
                              TA_ERR_BUFFER_TOO_SMALL,
                              TA_ERR_MISALIGNED_BUFFER,
                              TA_ERR_UNBOUND_REGION,
                              TA_ERR_HYDRATE_UNINITIALIZED,
                              TA_ERR_HYDRATE_NULL_BLOB,
                              TA_ERR_NULL_CONTEXT,
                              TA_ERR_BULK_NULL_ARGUMENT,
                              TA_ERR_BULK_WRONG_COUNT,
                              TA_ERR_TEST_MISMATCH,
                              TA_ERR_KERNEL,
                              TA_ERR_HYDRATION_FAILED,
                              TA_ERR_ARENA_REBOUND,
                              TA_ERR_NOT_INITIALIZED,
                              TA_ERR_ARENA_EXHAUSTED,
                              TA_ERR_ARENA_OVERFLOW,
                              TA_ERR_ARENA_NO_SHARED,
                              TA_ERR_HYDRATION_REQUIRED};
    const int n = (int)(sizeof all / sizeof all[0]);
    CHECK(TA_ERR_NOT_INITIALIZED == 14 && TA_ERR_HYDRATION_REQUIRED == 200);
    for (int i = 0; i < n; i++) {
        CHECK(strcmp(ta_status_name(all[i]), "unknown_status") != 0);
        for (int k = 0; k < i; k++)
            CHECK(all[i] != all[k] && strcmp(ta_status_name(all[i]), ta_status_name(all[k])) != 0);
    }
    CHECK(strcmp(ta_status_name(42), "unknown_status") == 0);
}

#if MISUSE_TABLE
/* Every operator reports init_started, init_finished (model_init), then
   run_started, run_finished (model_run), each with its status, in order. */
static int events[4];
static int next_op, bad_events;

static void on_operator(int32_t op, m_operator_state_t state, int32_t status, void *user_data)
{
    int started = state == m_op_state_init_started || state == m_op_state_run_started;
    if (user_data != &events || status != TA_OK || op < 0 || op >= M_NUM_OPERATORS ||
        (unsigned)state > 3u || op != next_op)
        bad_events++;
    if (!started)
        next_op = op + 1 == M_NUM_OPERATORS ? 0 : op + 1;
    events[state]++;
}

static void operator_callback(void)
{
    ctx.callback = on_operator;
    ctx.user_data = &events;
    next_op = 0;
    CHECK(m_model_init(&ctx) == TA_OK);
    CHECK(events[m_op_state_init_started] == M_NUM_OPERATORS &&
          events[m_op_state_init_finished] == M_NUM_OPERATORS);
    run_matches_reference();
    CHECK(bad_events == 0 && events[m_op_state_run_started] == M_NUM_OPERATORS &&
          events[m_op_state_run_finished] == M_NUM_OPERATORS);
    /* model_init keeps the application's callback and user data. */
    CHECK(m_model_init(&ctx) == TA_OK && ctx.callback == on_operator && ctx.user_data == &events);
    CHECK(events[m_op_state_init_started] == 2 * M_NUM_OPERATORS);
    ctx.callback = NULL;
    run_matches_reference();
    CHECK(bad_events == 0 && events[m_op_state_run_started] == M_NUM_OPERATORS);
}
#endif

#if MISUSE_STAGED
/* What the replacement does: 0 copy and mark, 1 copy without marking,
   2 return 42, 3 return a number that is also a status (14). */
static int hydrate_mode;
static int hydrate_calls;

int32_t m_hydrate_constants(m_model_context_t *c)
{
    CHECK(c == &ctx && c->arena_buffers != NULL);
    hydrate_calls++;
    if (hydrate_mode == 2)
        return 42;
    if (hydrate_mode == 3)
        return TA_ERR_NOT_INITIALIZED;
    memcpy(MISUSE_STAGED_DST, MISUSE_STAGED_SRC, sizeof MISUSE_STAGED_SRC);
    if (hydrate_mode == 0)
        m_mark_hydrated();
    return TA_OK;
}

static int staged_bytes_in_place(void)
{
    return memcmp(MISUSE_STAGED_DST, MISUSE_STAGED_SRC, sizeof MISUSE_STAGED_SRC) == 0;
}

static void hydration_contract(void)
{
    /* Marking before init does not avoid the copy: init clears the latch. */
    memset(MISUSE_STAGED_DST, 0xa5, sizeof MISUSE_STAGED_SRC);
    m_mark_hydrated();
    int calls = hydrate_calls;
    CHECK(m_model_init(&ctx) == TA_OK);
    CHECK(hydrate_calls == calls + 1 && staged_bytes_in_place());
    run_matches_reference();
    /* context_init clears the latch: 200 until it is set again. */
    CHECK(m_context_init(&ctx) == TA_OK);
    CHECK(m_model_run(&ctx) == TA_ERR_HYDRATION_REQUIRED);
    CHECK(m_model_run(&ctx) == TA_ERR_HYDRATION_REQUIRED);
    m_mark_hydrated(); /* the bytes are still there */
    run_matches_reference();
    /* Success without marking is hydration_failed; a failure's own status is
       returned unchanged (as helia-aot does). Either way init stops before the
       operators' init hooks and runs stay off. */
    static const int32_t init_status[4] = {TA_OK, TA_ERR_HYDRATION_FAILED, 42,
                                           TA_ERR_NOT_INITIALIZED};
    for (hydrate_mode = 1; hydrate_mode <= 3; hydrate_mode++) {
        calls = hydrate_calls;
        CHECK(m_model_init(&ctx) == init_status[hydrate_mode]);
        CHECK(hydrate_calls == calls + 1);
        CHECK(m_model_run(&ctx) == TA_ERR_NOT_INITIALIZED);
        /* marking the latch by hand does not enable runs either */
        m_mark_hydrated();
        CHECK(m_model_run(&ctx) == TA_ERR_NOT_INITIALIZED);
    }
    hydrate_mode = 0;
    memset(MISUSE_STAGED_DST, 0, sizeof MISUSE_STAGED_SRC);
    CHECK(m_model_init(&ctx) == TA_OK && staged_bytes_in_place());
    run_matches_reference();
}
#endif

#if MISUSE_CALLER_ARENAS
/* Two sets of buffers, so a rebind can move a region somewhere new. */
enum { POOL_BYTES = 65536, MAX_ALIGN = 4096 };
/* Aligned for every region, so a buffer of one region can be offered to
   another and only the overlap is wrong with it. */
static unsigned char pool[2][POOL_BYTES + MAX_ALIGN] __attribute__((aligned(MAX_ALIGN)));
static void *buffers[2][M_NUM_ARENA_REGIONS];
static size_t sizes[M_NUM_ARENA_REGIONS];

static void carve_buffers(void)
{
    for (int set = 0; set < 2; set++) {
        uintptr_t at = (uintptr_t)pool[set], end = at + sizeof pool[set];
        for (int r = 0; r < M_NUM_ARENA_REGIONS; r++) {
            size_t align = m_arena_alignments[r];
            CHECK(align != 0 && (align & (align - 1)) == 0 && align <= MAX_ALIGN);
            at = (at + align - 1) & ~(uintptr_t)(align - 1);
            sizes[r] = m_arena_sizes[r];
            CHECK(sizes[r] <= end - at);
            buffers[set][r] = (void *)at;
            at += sizes[r] ? sizes[r] : 1;
        }
    }
}

static int overlap_checks; /* regions the overlap refusal was tried on */

static void bind_statuses(void)
{
    void *nulls[M_NUM_ARENA_REGIONS];
    for (int r = 0; r < M_NUM_ARENA_REGIONS; r++) {
        nulls[r] = NULL;
        CHECK(m_module_desc.sizes[r] == m_arena_sizes[r]);
    }
    CHECK(m_module_desc.num_regions == M_NUM_ARENA_REGIONS && m_module_desc.bind_arena != NULL);
    CHECK(m_bind_arena((m_arena_region_t)M_NUM_ARENA_REGIONS, buffers[0][0], sizes[0]) ==
          TA_ERR_UNKNOWN_REGION);
    CHECK(m_bind_arena((m_arena_region_t)-1, buffers[0][0], sizes[0]) == TA_ERR_UNKNOWN_REGION);
    for (int r = 0; r < M_NUM_ARENA_REGIONS; r++) {
        m_arena_region_t region = (m_arena_region_t)r;
        CHECK(m_bind_arena(region, NULL, sizes[r]) == TA_ERR_NULL_BUFFER);
        if (sizes[r] > 0)
            CHECK(m_bind_arena(region, buffers[0][r], sizes[r] - 1) == TA_ERR_BUFFER_TOO_SMALL);
        if (m_arena_alignments[r] > 1)
            CHECK(m_bind_arena(region, (unsigned char *)buffers[0][r] + 1, sizes[r]) ==
                  TA_ERR_MISALIGNED_BUFFER);
    }
    CHECK(m_bind_arenas(NULL, sizes, M_NUM_ARENA_REGIONS) == TA_ERR_BULK_NULL_ARGUMENT);
    CHECK(m_bind_arenas(buffers[0], NULL, M_NUM_ARENA_REGIONS) == TA_ERR_BULK_NULL_ARGUMENT);
    CHECK(m_bind_arenas(buffers[0], sizes, M_NUM_ARENA_REGIONS + 1) == TA_ERR_BULK_WRONG_COUNT);
    CHECK(m_bind_arenas(nulls, sizes, M_NUM_ARENA_REGIONS) == TA_ERR_NULL_BUFFER);
    CHECK(m_context_init(&ctx) == TA_ERR_UNBOUND_REGION);
    /* No refused bind bound anything. */
    CHECK(m_model_init(&ctx) == TA_ERR_UNBOUND_REGION);
    CHECK(m_model_run(&ctx) == TA_ERR_NOT_INITIALIZED);
    for (int r = 0; r + 1 < M_NUM_ARENA_REGIONS; r++)
        CHECK(m_bind_arena((m_arena_region_t)r, buffers[0][r], sizes[r]) == TA_OK);
    CHECK(m_model_init(&ctx) == TA_ERR_UNBOUND_REGION); /* the last is still unbound */
    CHECK(m_model_run(&ctx) == TA_ERR_NOT_INITIALIZED);
    /* The last region over a bound one (over its first byte, inside it, over
       its end) is refused and binds nothing. */
    const int last = M_NUM_ARENA_REGIONS - 1;
    for (int r = 0; r < last; r++) {
        if (sizes[r] == 0 || sizes[last] == 0)
            continue;
        unsigned char *at = buffers[0][r];
        size_t step = m_arena_alignments[last];
        CHECK(m_bind_arena((m_arena_region_t)last, at, sizes[last]) == TA_ERR_OVERLAPPING_BUFFER);
        for (size_t off = step; off < sizes[r]; off += step * 7)
            CHECK(m_bind_arena((m_arena_region_t)last, at + off, sizes[last]) ==
                  TA_ERR_OVERLAPPING_BUFFER);
        overlap_checks++;
    }
    CHECK(m_model_init(&ctx) == TA_ERR_UNBOUND_REGION);
    CHECK(m_bind_arenas(buffers[0], sizes, M_NUM_ARENA_REGIONS) == TA_OK);
}

/* Each region moved after a successful init: runs return arena_rebound
   (9) until init runs again over the new buffer. */
/* A second context set up before a bind points into the old buffers: only
   the context the last model_init was given runs (found by a random-seed run
   of fuzz_module_api: such a run returned 0 with wrong outputs). */
static void stale_context(void)
{
    static m_model_context_t old;
    float x[1] = {0.5f};
    CHECK(m_context_init(&old) == TA_OK);
    CHECK(m_bind_arenas(buffers[0], sizes, M_NUM_ARENA_REGIONS) == TA_OK);
    CHECK(m_model_init(&ctx) == TA_OK);
    CHECK(m_model_run(&old) == TA_ERR_NOT_INITIALIZED);
    CHECK(m_quantize_input(&old, 0, x, 1) == TA_ERR_BAD_ARGUMENT);
    CHECK(m_dequantize_output(&old, 0, x, 1) == TA_ERR_BAD_ARGUMENT);
    run_matches_reference();
}

static void rebind_after_init(void)
{
    for (int r = 0; r < M_NUM_ARENA_REGIONS; r++) {
        int set = 1; /* every region starts in set 0: the bind really moves it */
        CHECK(m_model_init(&ctx) == TA_OK);
        run_matches_reference();
        /* A refused bind changes nothing. */
        CHECK(m_bind_arena((m_arena_region_t)r, NULL, sizes[r]) == TA_ERR_NULL_BUFFER);
        run_matches_reference();
        memset(buffers[set][r], 0x5a, sizes[r]);
        CHECK(m_bind_arena((m_arena_region_t)r, buffers[set][r], sizes[r]) == TA_OK);
        CHECK(m_model_run(&ctx) == TA_ERR_ARENA_REBOUND);
        CHECK(m_model_run(&ctx) == TA_ERR_ARENA_REBOUND);
        /* nor the io helpers, whose tensors may have moved with the bind */
        {
            float x[1] = {0.5f};
            CHECK(m_quantize_input(&ctx, 0, x, 1) == TA_ERR_BAD_ARGUMENT);
            CHECK(m_dequantize_output(&ctx, 0, x, 1) == TA_ERR_BAD_ARGUMENT);
        }
        /* neither context_init nor the latch re-enables runs */
        CHECK(m_context_init(&ctx) == TA_OK);
        m_mark_hydrated();
        CHECK(m_model_run(&ctx) == TA_ERR_ARENA_REBOUND);
        CHECK(m_model_init(&ctx) == TA_OK);
        run_matches_reference();
    }
    /* The same through the descriptor and through bind_arenas. */
    CHECK(m_module_desc.bind_arena(0, buffers[0][0], sizes[0]) == TA_OK);
    CHECK(m_model_run(&ctx) == TA_ERR_ARENA_REBOUND);
    CHECK(m_model_init(&ctx) == TA_OK);
    run_matches_reference();
    CHECK(m_bind_arenas(buffers[1], sizes, M_NUM_ARENA_REGIONS) == TA_OK);
    CHECK(m_model_run(&ctx) == TA_ERR_ARENA_REBOUND);
    /* An init refused for its argument changes nothing: still 9. */
    CHECK(m_model_init(NULL) == TA_ERR_NULL_CONTEXT);
    CHECK(m_model_run(&ctx) == TA_ERR_ARENA_REBOUND);
#if MISUSE_STAGED
    /* An init that fails after a rebind: runs are off as before any init. */
    hydrate_mode = 1;
    CHECK(m_model_init(&ctx) == TA_ERR_HYDRATION_FAILED);
    CHECK(m_model_run(&ctx) == TA_ERR_NOT_INITIALIZED);
    hydrate_mode = 0;
#endif
    CHECK(m_model_init(&ctx) == TA_OK);
    run_matches_reference();
    stale_context();
}
#endif

int main(void)
{
    statuses_are_distinct();
    CHECK(m_context_init(NULL) == TA_ERR_NULL_CONTEXT);
    CHECK(m_model_init(NULL) == TA_ERR_NULL_CONTEXT);
    CHECK(m_model_run(NULL) == TA_ERR_NULL_CONTEXT);
    CHECK(m_model_run(&ctx) == TA_ERR_NOT_INITIALIZED);
    /* With caller arenas context_init needs every region bound. */
    CHECK(m_context_init(&ctx) == (MISUSE_CALLER_ARENAS ? TA_ERR_UNBOUND_REGION : TA_OK));
    CHECK(m_model_run(&ctx) == TA_ERR_NOT_INITIALIZED); /* context_init is not init */
#if MISUSE_CALLER_ARENAS
    carve_buffers();
    bind_statuses();
#endif
    CHECK(m_model_init(&ctx) == TA_OK);
    run_and_keep_reference();
    run_matches_reference();            /* runs repeat */
    CHECK(m_model_init(&ctx) == TA_OK); /* init repeats */
    run_matches_reference();
    CHECK(m_model_run(NULL) == TA_ERR_NULL_CONTEXT);
#if MISUSE_TABLE
    operator_callback();
#endif
#if MISUSE_CALLER_ARENAS
    rebind_after_init();
#endif
#if MISUSE_STAGED
    hydration_contract();
#else
    /* Without staged constants the latch guards nothing: runs go on. */
    CHECK(m_context_init(&ctx) == TA_OK);
    run_matches_reference();
    m_mark_hydrated();
    run_matches_reference();
#endif
#if MISUSE_CALLER_ARENAS
    CHECK(overlap_checks > 0); /* the overlap refusal was really tried */
#endif
    printf("ok\n");
    return 0;
}
