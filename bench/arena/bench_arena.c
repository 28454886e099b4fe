/*
 * bench_arena.c - micro-benchmark of the runtime tensor arena.
 *
 * On the host it prints calls per second (clock(); the batches are
 * repeated until they last at least 0.2 s, and the time of the untimed
 * preparation, measured alone, is subtracted). Built with the QEMU kit
 * (TA_QEMU defined) it prints instructions per operation on the target
 * from the kit's deterministic instruction counter. The figures are only
 * printed: nothing here is asserted about speed. The program does check
 * that every allocation it times succeeded, so a broken allocator cannot
 * pass for a fast one.
 *
 * Operations, each timed in batches of BATCH calls:
 *   tensor_alloc ephemeral   1x8x8x4 INT8; before each batch: a reset
 *   tensor_alloc persistent  same shape; before each batch: a re-init
 *   scratch_acquire          1/64 of the pool; before each batch: a reset
 *   reset_ephemeral          before each batch: a reset and one allocation
 * BENCH_LABEL names the allocator linked in (the arena, or the control
 * allocator of the tests when built against it).
 */
#include <stddef.h>
#include <stdint.h>

#include "ta_arena.h"

#ifndef BENCH_LABEL
#define BENCH_LABEL "ta_arena"
#endif

#define BATCH 64u
#define ARENA_BYTES (TA_ARENA_SCRATCH_POOL_SIZE + 32768u)
/* BATCH of these fill the scratch pool: 64 bytes with the default pool */
#define SCRATCH_BYTES ((size_t)TA_ARENA_SCRATCH_POOL_SIZE / BATCH / 16u * 16u)

#if defined(TA_QEMU)
/* The arena in DTCM, as firmware would place it. */
static unsigned char arena_buffer[ARENA_BYTES] __attribute__((section(".dtcm_bss"), aligned(16)));
#else
static unsigned char arena_buffer[ARENA_BYTES + 16];
#endif

static ta_arena_t arena;
static void *volatile sink; /* keeps results observable */

/* ---- output ------------------------------------------------------------ */

#if defined(TA_QEMU)
#include "icount.h"
#include "semihost.h"
static void out_str(const char *s)
{
    ta_semihost_write_str(s);
}
static void out_uint(unsigned long long v)
{
    ta_semihost_write_uint(v);
}
static void fail(const char *what)
{
    ta_semihost_write_str("bench_arena: FAILED: ");
    ta_semihost_write_str(what);
    ta_semihost_write_str("\n");
    ta_semihost_exit(1);
}
#else
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static void out_str(const char *s)
{
    fputs(s, stdout);
}
static void out_uint(unsigned long long v)
{
    printf("%llu", v);
}
static void fail(const char *what)
{
    printf("bench_arena: FAILED: %s\n", what);
    exit(1);
}
#endif

static unsigned char *aligned_base(void)
{
    uintptr_t a = (uintptr_t)arena_buffer;
    return arena_buffer + ((16u - (unsigned)(a & 15u)) & 15u);
}

static void setup(void)
{
    if (ta_arena_init(&arena, aligned_base(), ARENA_BYTES) != TA_OK) {
        fail("ta_arena_init");
    }
    ta_arena_set_log(&arena, NULL, NULL);
}

/* ---- the operations, BATCH calls each ---------------------------------- */

static const uint32_t shape[] = {1, 8, 8, 4};

static void batch_alloc_ephemeral(void)
{
    unsigned i;
    for (i = 0; i < BATCH; i++) {
        void *t = ta_tensor_alloc(&arena, shape, 4, TA_DTYPE_INT8, TA_LIFETIME_EPHEMERAL);
        if (t == NULL) {
            fail("ephemeral tensor_alloc returned NULL");
        }
        sink = t;
    }
}

static void batch_alloc_persistent(void)
{
    unsigned i;
    for (i = 0; i < BATCH; i++) {
        void *t = ta_tensor_alloc(&arena, shape, 4, TA_DTYPE_INT8, TA_LIFETIME_PERSISTENT);
        if (t == NULL) {
            fail("persistent tensor_alloc returned NULL");
        }
        sink = t;
    }
}

static void batch_scratch(void)
{
    unsigned i;
    for (i = 0; i < BATCH; i++) {
        void *p = ta_arena_scratch_acquire(&arena, SCRATCH_BYTES);
        if (p == NULL) {
            fail("scratch_acquire returned NULL");
        }
        sink = p;
    }
}

static void batch_reset(void)
{
    unsigned i;
    for (i = 0; i < BATCH; i++) {
        ta_arena_reset_ephemeral(&arena);
    }
}

/* Untimed preparation before each batch. */
static void prep_reset(void)
{
    ta_arena_reset_ephemeral(&arena);
}

static void prep_reinit(void)
{
    setup();
}

static void prep_one_ephemeral(void)
{
    ta_arena_reset_ephemeral(&arena);
    sink = ta_tensor_alloc(&arena, shape, 4, TA_DTYPE_INT8, TA_LIFETIME_EPHEMERAL);
}

typedef struct {
    const char *name;
    void (*prep)(void);
    void (*batch)(void);
} op_t;

static const op_t ops[] = {
    {"tensor_alloc ephemeral (1x8x8x4 int8)", prep_reset, batch_alloc_ephemeral},
    {"tensor_alloc persistent (1x8x8x4 int8)", prep_reinit, batch_alloc_persistent},
    {"scratch_acquire (pool size / 64)", prep_reset, batch_scratch},
    {"reset_ephemeral", prep_one_ephemeral, batch_reset},
};

/* Prints v/100 with two decimals. */
static void out_centi(unsigned long long v)
{
    out_uint(v / 100u);
    out_str(".");
    out_uint((v / 10u) % 10u);
    out_uint(v % 10u);
}

#if defined(TA_QEMU)

/* Instructions per call: each batch counted whole (loop and call included,
 * as a real caller pays them too), four batches, divided by the calls. */
static void measure(const op_t *op)
{
    uint64_t total = 0;
    unsigned rep;
    for (rep = 0; rep < 4; rep++) {
        op->prep();
        ta_icount_start();
        op->batch();
        total += ta_icount_stop();
    }
    out_str(BENCH_LABEL ": cortex-m55: ");
    out_str(op->name);
    out_str(": ");
    out_centi((unsigned long long)(total * 100u / (4u * BATCH)));
    out_str(" instructions per call\n");
}

#else

/* Seconds for `batches` rounds of prep + batch (with_batch) or prep only. */
static double timed(const op_t *op, unsigned long batches, int with_batch)
{
    unsigned long k;
    clock_t start = clock();
    for (k = 0; k < batches; k++) {
        op->prep();
        if (with_batch) {
            op->batch();
        }
    }
    return (double)(clock() - start) / (double)CLOCKS_PER_SEC;
}

/* Calls per second: (prep + batch) rounds less prep-only rounds, with the
 * round count doubled until the measurement lasts at least 0.2 s. */
static void measure(const op_t *op)
{
    unsigned long batches = 1024;
    double both, prep_only, seconds;
    unsigned long long calls;

    for (;;) {
        both = timed(op, batches, 1);
        if (both >= 0.2 || batches >= (1ul << 30)) {
            break;
        }
        batches *= 2;
    }
    prep_only = timed(op, batches, 0);
    seconds = both > prep_only ? both - prep_only : both;
    calls = (unsigned long long)batches * BATCH;
    out_str(BENCH_LABEL ": host: ");
    out_str(op->name);
    out_str(": ");
    out_uint((unsigned long long)((double)calls / seconds));
    out_str(" calls/s (");
    out_uint(calls);
    out_str(" calls, ");
    out_centi((unsigned long long)(seconds * 1e9 / (double)calls * 100.0));
    out_str(" ns per call)\n");
}

#endif

int main(void)
{
    ta_arena_stats_t s;
    unsigned i;

    setup();
    for (i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        measure(&ops[i]);
    }
    /* the operations really happened */
    if (ta_arena_get_stats(&arena, &s) != TA_OK || s.alloc_count == 0 || s.reset_count == 0) {
        fail("statistics do not show the work");
    }
    return 0;
}
