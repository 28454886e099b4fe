/*
 * test_arena_improvements.c - one case per deliberate improvement over the
 * specification's bump allocator.
 *
 * Each case is also built against naive/ta_arena_naive.c, a literal
 * implementation of the specification, and ctest expects every case to
 * FAIL there (arena_improvements_naive_*): that is what shows the case
 * tests the improvement and not something both allocators do.
 */
#include "arena_test_util.h"

#define POOL ((size_t)TA_ARENA_SCRATCH_POOL_SIZE)
#define AREA 12288u /* tensor area: persistent + ephemeral */
#define BUF_SIZE (POOL + AREA)

static unsigned char storage_a[BUF_SIZE + 64];
static unsigned char storage_b[BUF_SIZE + 64];
static unsigned char storage_shared[1024 + 64];

static void quiet_init(ta_arena_t *arena, unsigned char *base, size_t size)
{
    TA_CHECK_EQ(ta_arena_init(arena, base, size), TA_OK);
    ta_arena_set_log(arena, NULL, NULL);
}

/* A tensor's whole block: descriptor through the end of its data. */
static size_t block_size(const ta_tensor_t *t)
{
    return (size_t)((const unsigned char *)t->data - (const unsigned char *)t) + t->size;
}

/*
 * 1. Persistent blocks grow up from the base and ephemeral ones down from
 * the pool, so a persistent allocation made after ephemeral ones can never
 * be overwritten by the ephemeral allocations of the next inference.
 */
static void test_persistent_after_ephemeral_never_overlaps(void)
{
    ta_arena_t arena = {0};
    ta_tensor_t *persist[4];
    uint32_t small[] = {1, 8, 8, 4};   /* 256 bytes */
    uint32_t large[] = {1, 16, 16, 8}; /* 2048 bytes */
    unsigned round, i;

    quiet_init(&arena, tu_align(storage_a, 16), BUF_SIZE);
    /* interleave: ephemeral, persistent, ephemeral, persistent, ... */
    for (i = 0; i < 4; i++) {
        ta_tensor_t *e = ta_tensor_alloc(&arena, small, 4, TA_DTYPE_INT8, TA_LIFETIME_EPHEMERAL);
        persist[i] = ta_tensor_alloc(&arena, small, 4, TA_DTYPE_INT8, TA_LIFETIME_PERSISTENT);
        TA_CHECK(e != NULL && persist[i] != NULL);
        TA_CHECK(!tu_overlap(e, block_size(e), persist[i], block_size(persist[i])));
        tu_fill(persist[i]->data, persist[i]->size, 100 + i);
    }
    /* later inferences: reset, then use as much ephemeral memory as fits */
    for (round = 0; round < 3; round++) {
        ta_tensor_t *e;
        unsigned n = 0;
        ta_arena_reset_ephemeral(&arena);
        while ((e = ta_tensor_alloc(&arena, large, 4, TA_DTYPE_INT8, TA_LIFETIME_EPHEMERAL)) !=
               NULL) {
            for (i = 0; i < 4; i++) {
                TA_CHECK(!tu_overlap(e, block_size(e), persist[i], block_size(persist[i])));
            }
            tu_fill(e, block_size(e), 7); /* overwrite descriptor and data */
            n++;
        }
        TA_CHECK(n >= 4);
        for (i = 0; i < 4; i++) {
            TA_CHECK(tu_holds(persist[i]->data, persist[i]->size, 100 + i));
        }
    }
}

/* Shapes whose size wraps to 0 (or near it) in size_t arithmetic. */
static void test_size_overflow_returns_null(void)
{
    ta_arena_t arena = {0};
    ta_tensor_t desc;
#if SIZE_MAX > 0xFFFFFFFFu
    /* 2^64 elements; 2^62 floats = 2^64 bytes; exactly SIZE_MAX bytes
       (2^64 - 1 = (2^32 - 1) * 641 * 6700417) so rounding up wraps */
    uint32_t count_wraps[] = {65536u, 65536u, 65536u, 65536u};
    uint32_t bytes_wrap[] = {65536u, 65536u, 65536u, 16384u};
    uint32_t round_wraps[] = {4294967295u, 641u, 6700417u};
    uint8_t n_count = 4, n_bytes = 4, n_round = 3;
#else
    uint32_t count_wraps[] = {65536u, 65536u};
    uint32_t bytes_wrap[] = {32768u, 32768u};
    uint32_t round_wraps[] = {4294967295u};
    uint8_t n_count = 2, n_bytes = 2, n_round = 1;
#endif

    quiet_init(&arena, tu_align(storage_a, 16), BUF_SIZE);
    TA_CHECK(ta_tensor_alloc(&arena, count_wraps, n_count, TA_DTYPE_INT8, TA_LIFETIME_EPHEMERAL) ==
             NULL);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_ARENA_OVERFLOW);
    TA_CHECK(ta_tensor_alloc(&arena, bytes_wrap, n_bytes, TA_DTYPE_FLOAT32,
                             TA_LIFETIME_PERSISTENT) == NULL);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_ARENA_OVERFLOW);
    TA_CHECK(ta_tensor_alloc(&arena, round_wraps, n_round, TA_DTYPE_UINT8,
                             TA_LIFETIME_PERSISTENT) == NULL);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_ARENA_OVERFLOW);
    TA_CHECK(ta_arena_scratch_acquire(&arena, SIZE_MAX - 3) == NULL);
    /* the descriptor-only initializer refuses them too */
    TA_CHECK(ta_tensor_init(&desc, count_wraps, n_count, TA_DTYPE_INT8) != TA_OK);
    TA_CHECK(ta_tensor_init(&desc, bytes_wrap, n_bytes, TA_DTYPE_FLOAT32) != TA_OK);
    TU_CHECK_STATS(&arena, BUF_SIZE);
}

/*
 * An arena over a misaligned buffer still hands out aligned blocks, inside
 * the buffer, and says how many bytes the alignment cost.
 */
static void test_unaligned_base_is_aligned_up(void)
{
    unsigned off;
    uint32_t shape[] = {3, 5};

    for (off = 1; off < 16; off += 2) {
        ta_arena_t arena = {0};
        ta_arena_stats_t s;
        unsigned char *base = tu_align(storage_a, 16) + off;
        ta_tensor_t *p, *e;
        unsigned char *sc;

        quiet_init(&arena, base, BUF_SIZE);
        p = ta_tensor_alloc(&arena, shape, 2, TA_DTYPE_FLOAT32, TA_LIFETIME_PERSISTENT);
        e = ta_tensor_alloc(&arena, shape, 2, TA_DTYPE_INT16, TA_LIFETIME_EPHEMERAL);
        sc = (unsigned char *)ta_arena_scratch_acquire(&arena, 40);
        TA_CHECK(p != NULL && e != NULL && sc != NULL);
        TA_CHECK(tu_aligned(p, 16) && tu_aligned(p->data, 16));
        TA_CHECK(tu_aligned(e, 16) && tu_aligned(e->data, 16));
        TA_CHECK(tu_aligned(sc, 16));
        TA_CHECK(tu_inside(p, block_size(p), base, BUF_SIZE));
        TA_CHECK(tu_inside(e, block_size(e), base, BUF_SIZE));
        TA_CHECK(tu_inside(sc, 40, base, BUF_SIZE));
        TA_CHECK(p == (ta_tensor_t *)(void *)(base + (16 - off)));
        TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
        /* head: 16 - off bytes; tail: off bytes (BUF_SIZE is a multiple of 16) */
        TA_CHECK_EQ(s.align_lost, 16);
        TA_CHECK_EQ(s.arena_total, BUF_SIZE - 16);
        TU_CHECK_STATS(&arena, BUF_SIZE);
    }
}

/*
 * Arenas are objects: two of them over two buffers do not share a pointer,
 * a counter or a reset.
 */
static void test_independent_arenas(void)
{
    ta_arena_t a = {0}, b = {0};
    ta_arena_stats_t sa, sb;
    unsigned char *base_a = tu_align(storage_a, 16);
    unsigned char *base_b = tu_align(storage_b, 16);
    uint32_t shape[] = {64};
    ta_tensor_t *ta1, *ta2, *tb1, *tb2;
    unsigned n;

    quiet_init(&a, base_a, BUF_SIZE);
    ta1 = ta_tensor_alloc(&a, shape, 1, TA_DTYPE_INT8, TA_LIFETIME_EPHEMERAL);
    quiet_init(&b, base_b, BUF_SIZE);
    tb1 = ta_tensor_alloc(&b, shape, 1, TA_DTYPE_INT8, TA_LIFETIME_EPHEMERAL);
    ta2 = ta_tensor_alloc(&a, shape, 1, TA_DTYPE_INT8, TA_LIFETIME_PERSISTENT);
    tb2 = ta_tensor_alloc(&b, shape, 1, TA_DTYPE_INT8, TA_LIFETIME_PERSISTENT);
    TA_CHECK(ta1 != NULL && ta2 != NULL && tb1 != NULL && tb2 != NULL);
    TA_CHECK(tu_inside(ta1, block_size(ta1), base_a, BUF_SIZE));
    TA_CHECK(tu_inside(ta2, block_size(ta2), base_a, BUF_SIZE));
    TA_CHECK(tu_inside(tb1, block_size(tb1), base_b, BUF_SIZE));
    TA_CHECK(tu_inside(tb2, block_size(tb2), base_b, BUF_SIZE));
    TA_CHECK(tu_inside(ta_arena_scratch_acquire(&a, 16), 16, base_a, BUF_SIZE));
    TA_CHECK(tu_inside(ta_arena_scratch_acquire(&b, 16), 16, base_b, BUF_SIZE));

    /* resetting b leaves a's ephemeral blocks and scratch alone */
    ta_arena_reset_ephemeral(&b);
    TA_CHECK_EQ(ta_arena_get_stats(&a, &sa), TA_OK);
    TA_CHECK_EQ(ta_arena_get_stats(&b, &sb), TA_OK);
    TA_CHECK_EQ(sa.reset_count, 0);
    TA_CHECK_EQ(sb.reset_count, 1);
    TA_CHECK_EQ(sa.ephemeral_used, block_size(ta1));
    TA_CHECK_EQ(sa.scratch_used, 16);
    TA_CHECK_EQ(sb.ephemeral_used, 0);
    TA_CHECK_EQ(sa.alloc_count, 3);
    TA_CHECK_EQ(sb.alloc_count, 3);
    TA_CHECK_EQ(sa.persistent_used, block_size(ta2));

    /* exhausting b leaves a with room */
    n = 0;
    while (ta_tensor_alloc(&b, shape, 1, TA_DTYPE_INT8, TA_LIFETIME_PERSISTENT) != NULL) {
        n++;
        TA_CHECK(n < 1000);
    }
    TA_CHECK(ta_tensor_alloc(&a, shape, 1, TA_DTYPE_INT8, TA_LIFETIME_PERSISTENT) != NULL);
    TU_CHECK_STATS(&a, BUF_SIZE);
    TU_CHECK_STATS(&b, BUF_SIZE);
}

/*
 * SHARED tensors come from a registered shared region, outside the arena,
 * and survive ephemeral resets; without a region they are refused loudly.
 */
static void test_shared_tensors_use_registered_region(void)
{
    ta_arena_t arena = {0};
    tu_log_t log = {{0}, 0};
    unsigned char *base = tu_align(storage_a, 16);
    unsigned char *shared = tu_align(storage_shared, 16);
    uint32_t shape[] = {1, 4, 4, 8};
    uint32_t big[] = {1, 16, 16, 8};
    ta_tensor_t *s1, *e;
    ta_arena_stats_t st;
    unsigned round;

    TA_CHECK_EQ(ta_arena_init(&arena, base, BUF_SIZE), TA_OK);
    ta_arena_set_log(&arena, tu_log_hook, &log);
    TA_CHECK(ta_tensor_alloc(&arena, shape, 4, TA_DTYPE_INT8, TA_LIFETIME_SHARED) == NULL);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_ARENA_NO_SHARED);
    TA_CHECK_EQ(log.lines, 1);
    TA_CHECK(tu_contains(log.last, "SHARED"));
    TA_CHECK(tu_contains(log.last, "no shared region is registered"));

    TA_CHECK_EQ(ta_arena_set_shared_region(&arena, shared, 1024), TA_OK);
    s1 = ta_tensor_alloc(&arena, shape, 4, TA_DTYPE_INT8, TA_LIFETIME_SHARED);
    TA_CHECK(s1 != NULL);
    TA_CHECK(tu_inside(s1, block_size(s1), shared, 1024));
    TA_CHECK(!tu_overlap(s1, block_size(s1), base, BUF_SIZE));
    TA_CHECK_EQ(s1->lifetime, TA_LIFETIME_SHARED);
    tu_fill(s1->data, s1->size, 42);
    for (round = 0; round < 2; round++) {
        ta_arena_reset_ephemeral(&arena);
        while ((e = ta_tensor_alloc(&arena, big, 4, TA_DTYPE_INT8, TA_LIFETIME_EPHEMERAL)) !=
               NULL) {
            tu_fill(e, block_size(e), 9);
        }
        TA_CHECK(tu_holds(s1->data, s1->size, 42));
        TA_CHECK_EQ(s1->lifetime, TA_LIFETIME_SHARED);
        TA_CHECK_EQ(s1->size, 128);
    }
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &st), TA_OK);
    TA_CHECK_EQ(st.shared_used, block_size(s1));
}

/* Exhausts the tensor area with TU_HDR + 16 byte blocks (they divide AREA
 * exactly for TU_HDR 32 or 48) and the pool with 16-byte blocks. */
static void exhaust(ta_arena_t *arena, ta_lifetime_t life)
{
    uint32_t shape[] = {16};
    unsigned n = 0;
    while (ta_tensor_alloc(arena, shape, 1, TA_DTYPE_UINT8, life) != NULL) {
        n++;
        TA_CHECK(n < 10000);
        TU_CHECK_STATS(arena, BUF_SIZE);
    }
    while (ta_arena_scratch_acquire(arena, 16) != NULL) {
        n++;
        TA_CHECK(n < 20000);
        TU_CHECK_STATS(arena, BUF_SIZE);
    }
}

/*
 * The statistics add up after every step: used + free = total, used is the
 * sum of the three regions, and "free" is memory that can still be had.
 */
static void test_stats_add_up(void)
{
    ta_arena_t arena = {0};
    ta_arena_stats_t s;
    uint32_t shape[] = {8}; /* 16 bytes of INT16: blocks of TU_HDR + 16 */

    quiet_init(&arena, tu_align(storage_a, 16), BUF_SIZE);
    TU_CHECK_STATS(&arena, BUF_SIZE);
    TA_CHECK(ta_tensor_alloc(&arena, shape, 1, TA_DTYPE_INT16, TA_LIFETIME_PERSISTENT));
    TU_CHECK_STATS(&arena, BUF_SIZE);
    TA_CHECK(ta_tensor_alloc(&arena, shape, 1, TA_DTYPE_INT16, TA_LIFETIME_EPHEMERAL));
    TU_CHECK_STATS(&arena, BUF_SIZE);
    TA_CHECK(ta_arena_scratch_acquire(&arena, 100));
    TU_CHECK_STATS(&arena, BUF_SIZE);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.arena_used, 2u * (TU_HDR + 16u) + 112u);
    ta_arena_reset_ephemeral(&arena);
    TU_CHECK_STATS(&arena, BUF_SIZE);

    exhaust(&arena, TA_LIFETIME_EPHEMERAL);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.arena_free, 0); /* nothing can be had, and it says so */
    TA_CHECK_EQ(s.arena_used, s.arena_total);
    TA_CHECK_EQ(s.arena_peak, s.arena_total);
    ta_arena_reset_ephemeral(&arena);
    TU_CHECK_STATS(&arena, BUF_SIZE);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.arena_used, TU_HDR + 16u);
    TA_CHECK_EQ(s.arena_free, BUF_SIZE - (TU_HDR + 16u));
    exhaust(&arena, TA_LIFETIME_PERSISTENT);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.arena_free, 0);
}

static const ta_test_case_t cases[] = {
    {"persistent_after_ephemeral_never_overlaps", test_persistent_after_ephemeral_never_overlaps},
    {"size_overflow_returns_null", test_size_overflow_returns_null},
    {"unaligned_base_is_aligned_up", test_unaligned_base_is_aligned_up},
    {"independent_arenas", test_independent_arenas},
    {"shared_tensors_use_registered_region", test_shared_tensors_use_registered_region},
    {"stats_add_up", test_stats_add_up},
};

const ta_test_suite_t ta_suite_arena_improvements = {"arena_improvements", cases,
                                                     TA_ARRAY_LEN(cases)};

TA_TEST_MAIN(ta_suite_arena_improvements)
