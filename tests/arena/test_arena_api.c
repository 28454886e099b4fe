/*
 * test_arena_api.c - every function of ta_arena.h and every error path the
 * specification lists, on the ta_ names.
 */
#include "arena_test_util.h"

#if TA_ARENA_ALIGNMENT != 16
#error "these tests assume the default 16-byte alignment"
#endif

#define POOL ((size_t)TA_ARENA_SCRATCH_POOL_SIZE)
#define BUF_SIZE (POOL + 12288u) /* a tensor area of 12 KiB */
#define HDR TU_HDR               /* a descriptor's share of a tensor block */

/* Room for a BUF_SIZE arena at any alignment up to 256. */
static unsigned char storage[BUF_SIZE + 256];
static unsigned char shared_storage[2048 + 256];

static unsigned char *buf64(void)
{
    return tu_align(storage, 256);
}

/* Sets up `arena` over the 256-aligned buffer and checks it worked. */
static void setup(ta_arena_t *arena, size_t size)
{
    TA_CHECK_EQ(ta_arena_init(arena, buf64(), size), TA_OK);
    TA_CHECK(ta_arena_is_initialized(arena));
    ta_arena_set_log(arena, NULL, NULL); /* quiet: refusals are expected */
}

static void test_init_rejects_bad_arguments(void)
{
    ta_arena_t arena = {0};
    unsigned char *b = buf64();

    TA_CHECK_EQ(ta_arena_init(NULL, b, BUF_SIZE), TA_ERR_BAD_ARGUMENT);
    TA_CHECK_EQ(ta_arena_init(&arena, NULL, BUF_SIZE), TA_ERR_BAD_ARGUMENT);
    TA_CHECK(!ta_arena_is_initialized(&arena));
    TA_CHECK_EQ(ta_arena_init(&arena, b, 0), TA_ERR_BAD_ARGUMENT);
    TA_CHECK(!ta_arena_is_initialized(&arena));
    /* not larger than the scratch pool: equal, smaller, and larger only by
       less than one aligned block */
    TA_CHECK_EQ(ta_arena_init(&arena, b, POOL), TA_ERR_BAD_ARGUMENT);
    TA_CHECK_EQ(ta_arena_init(&arena, b, POOL - 1), TA_ERR_BAD_ARGUMENT);
    TA_CHECK_EQ(ta_arena_init(&arena, b, 1), TA_ERR_BAD_ARGUMENT);
    TA_CHECK_EQ(ta_arena_init(&arena, b, POOL + TA_ARENA_ALIGNMENT - 1), TA_ERR_BAD_ARGUMENT);
    TA_CHECK(!ta_arena_is_initialized(&arena));
    /* the smallest arena that works: one aligned block above the pool */
    TA_CHECK_EQ(ta_arena_init(&arena, b, POOL + TA_ARENA_ALIGNMENT), TA_OK);
    TA_CHECK(ta_arena_is_initialized(&arena));
    /* init_ex: bad alignments */
    TA_CHECK_EQ(ta_arena_init_ex(&arena, b, BUF_SIZE, 1024, 8), TA_ERR_BAD_ARGUMENT);
    TA_CHECK_EQ(ta_arena_init_ex(&arena, b, BUF_SIZE, 1024, 48), TA_ERR_BAD_ARGUMENT);
    TA_CHECK_EQ(ta_arena_init_ex(&arena, b, BUF_SIZE, (size_t)-1, 16), TA_ERR_BAD_ARGUMENT);
    TA_CHECK_EQ(ta_arena_init_ex(&arena, b, BUF_SIZE, BUF_SIZE, 16), TA_ERR_BAD_ARGUMENT);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_BAD_ARGUMENT);
    TA_CHECK_EQ(ta_arena_last_status(NULL), TA_ERR_BAD_ARGUMENT);
}

static void test_failed_init_leaves_arena_unusable(void)
{
    ta_arena_t arena = {0};
    uint32_t shape[] = {4};

    setup(&arena, BUF_SIZE);
    TA_CHECK(ta_tensor_alloc(&arena, shape, 1, TA_DTYPE_INT8, TA_LIFETIME_PERSISTENT) != NULL);
    TA_CHECK_EQ(ta_arena_init(&arena, NULL, BUF_SIZE), TA_ERR_BAD_ARGUMENT);
    TA_CHECK(!ta_arena_is_initialized(&arena));
    TA_CHECK(ta_tensor_alloc(&arena, shape, 1, TA_DTYPE_INT8, TA_LIFETIME_PERSISTENT) == NULL);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_NOT_INITIALIZED);
}

static void test_use_before_init(void)
{
    ta_arena_t arena = {0};
    ta_arena_stats_t stats;
    ta_arena_mark_t mark;
    uint32_t shape[] = {1, 2, 2, 1};

    TA_CHECK(!ta_arena_is_initialized(&arena));
    TA_CHECK(!ta_arena_is_initialized(NULL));
    TA_CHECK(ta_tensor_alloc(&arena, shape, 4, TA_DTYPE_INT8, TA_LIFETIME_EPHEMERAL) == NULL);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_NOT_INITIALIZED);
    TA_CHECK(ta_tensor_alloc(NULL, shape, 4, TA_DTYPE_INT8, TA_LIFETIME_EPHEMERAL) == NULL);
    TA_CHECK(ta_arena_scratch_acquire(&arena, 16) == NULL);
    TA_CHECK(ta_arena_scratch_acquire(NULL, 16) == NULL);
    TA_CHECK(ta_arena_alloc(&arena, 16, 0, TA_LIFETIME_PERSISTENT) == NULL);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &stats), TA_ERR_NOT_INITIALIZED);
    TA_CHECK_EQ(ta_arena_get_stats(NULL, &stats), TA_ERR_NOT_INITIALIZED);
    TA_CHECK_EQ(ta_arena_set_shared_region(&arena, shared_storage, 1024), TA_ERR_NOT_INITIALIZED);
    TA_CHECK_EQ(ta_arena_get_mark(&arena, &mark), TA_ERR_NOT_INITIALIZED);
    TA_CHECK_EQ(ta_arena_rollback(&arena, &mark), TA_ERR_NOT_INITIALIZED);
    /* these must simply do nothing */
    ta_arena_reset_ephemeral(&arena);
    ta_arena_reset_ephemeral(NULL);
    ta_arena_reset_shared(&arena);
    ta_arena_set_log(&arena, NULL, NULL);
    ta_arena_set_name(&arena, "x");
    ta_arena_print_stats(&arena);
    ta_arena_print_stats(NULL);
    TA_CHECK(!ta_arena_is_initialized(&arena));
}

static void test_copied_arena_is_not_initialized(void)
{
    ta_arena_t arena = {0}, copy;
    uint32_t shape[] = {8};

    setup(&arena, BUF_SIZE);
    copy = arena;
    TA_CHECK(!ta_arena_is_initialized(&copy));
    TA_CHECK(ta_tensor_alloc(&copy, shape, 1, TA_DTYPE_INT8, TA_LIFETIME_PERSISTENT) == NULL);
    TA_CHECK(ta_arena_is_initialized(&arena));
}

static void test_tensor_alloc_every_dtype(void)
{
    static const ta_dtype_t types[] = {TA_DTYPE_INT8, TA_DTYPE_UINT8, TA_DTYPE_INT16,
                                       TA_DTYPE_FLOAT16, TA_DTYPE_FLOAT32};
    static const size_t esize[] = {1, 1, 2, 2, 4};
    ta_arena_t arena = {0};
    ta_tensor_t *prev = NULL;
    size_t prev_size = 0;
    unsigned i;

    setup(&arena, BUF_SIZE);
    for (i = 0; i < TA_ARRAY_LEN(types); i++) {
        uint32_t shape[] = {1, 16, 16, 3};
        ta_lifetime_t life = (i % 2) ? TA_LIFETIME_EPHEMERAL : TA_LIFETIME_PERSISTENT;
        ta_tensor_t *t = ta_tensor_alloc(&arena, shape, 4, types[i], life);
        TA_CHECK(t != NULL);
        TA_CHECK(tu_aligned(t, 16));
        TA_CHECK(tu_aligned(t->data, 16));
        TA_CHECK_EQ(t->size, 768u * esize[i]);
        TA_CHECK_EQ(t->dtype, types[i]);
        TA_CHECK_EQ(t->ndim, 4);
        TA_CHECK_EQ(t->shape[0], 1);
        TA_CHECK_EQ(t->shape[1], 16);
        TA_CHECK_EQ(t->shape[2], 16);
        TA_CHECK_EQ(t->shape[3], 3);
        TA_CHECK_EQ(t->lifetime, life);
        /* descriptor and data are one block inside the arena */
        TA_CHECK((unsigned char *)t->data >= (unsigned char *)(t + 1));
        TA_CHECK(tu_inside(t, sizeof *t, buf64(), BUF_SIZE));
        TA_CHECK(tu_inside(t->data, t->size, buf64(), BUF_SIZE));
        TA_CHECK(!tu_overlap(t, sizeof *t, t->data, t->size));
        tu_fill(t->data, t->size, i);
        if (prev != NULL) {
            TA_CHECK(!tu_overlap(t, sizeof *t, prev->data, prev_size));
            TA_CHECK(!tu_overlap(t->data, t->size, prev->data, prev_size));
            TA_CHECK(tu_holds(prev->data, prev_size, i - 1));
        }
        prev = t;
        prev_size = t->size;
        TU_CHECK_STATS(&arena, BUF_SIZE);
    }
}

static void test_tensor_alloc_ranks(void)
{
    ta_arena_t arena = {0};
    uint32_t shape[] = {2, 3, 5, 7};
    uint8_t ndim;

    setup(&arena, BUF_SIZE);
    for (ndim = 1; ndim <= 4; ndim++) {
        size_t expect = 1;
        unsigned i;
        ta_tensor_t *t = ta_tensor_alloc(&arena, shape, ndim, TA_DTYPE_INT16,
                                         TA_LIFETIME_EPHEMERAL);
        TA_CHECK(t != NULL);
        for (i = 0; i < ndim; i++) {
            expect *= shape[i];
            TA_CHECK_EQ(t->shape[i], shape[i]);
        }
        for (; i < TA_TENSOR_MAX_DIMS; i++) {
            TA_CHECK_EQ(t->shape[i], 0);
        }
        TA_CHECK_EQ(t->ndim, ndim);
        TA_CHECK_EQ(t->size, expect * 2u);
    }
}

static void test_tensor_alloc_rejects_bad_arguments(void)
{
    ta_arena_t arena = {0};
    ta_arena_stats_t before, after;
    uint32_t shape[] = {1, 2, 3, 4, 5};

    setup(&arena, BUF_SIZE);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &before), TA_OK);
    TA_CHECK(ta_tensor_alloc(&arena, NULL, 1, TA_DTYPE_INT8, TA_LIFETIME_PERSISTENT) == NULL);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_BAD_ARGUMENT);
    TA_CHECK(ta_tensor_alloc(&arena, shape, 0, TA_DTYPE_INT8, TA_LIFETIME_PERSISTENT) == NULL);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_BAD_ARGUMENT);
    TA_CHECK(ta_tensor_alloc(&arena, shape, 5, TA_DTYPE_INT8, TA_LIFETIME_PERSISTENT) == NULL);
    TA_CHECK(ta_tensor_alloc(&arena, shape, 255, TA_DTYPE_INT8, TA_LIFETIME_PERSISTENT) == NULL);
    TA_CHECK(ta_tensor_alloc(&arena, shape, 2, (ta_dtype_t)5, TA_LIFETIME_PERSISTENT) == NULL);
    TA_CHECK(ta_tensor_alloc(&arena, shape, 2, TA_DTYPE_INT8, (ta_lifetime_t)3) == NULL);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_BAD_ARGUMENT);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &after), TA_OK);
    TA_CHECK_EQ(after.arena_used, before.arena_used);
    TA_CHECK_EQ(after.alloc_count, before.alloc_count);
    TA_CHECK_EQ(after.failed_count, before.failed_count + 6);
    /* a good call clears the status */
    TA_CHECK(ta_tensor_alloc(&arena, shape, 4, TA_DTYPE_INT8, TA_LIFETIME_PERSISTENT) != NULL);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_OK);
}

static void test_zero_sized_dimension(void)
{
    ta_arena_t arena = {0};
    uint32_t shape[] = {0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0};
    ta_tensor_t *t;

    setup(&arena, BUF_SIZE);
    t = ta_tensor_alloc(&arena, shape, 4, TA_DTYPE_FLOAT32, TA_LIFETIME_EPHEMERAL);
    TA_CHECK(t != NULL);
    TA_CHECK_EQ(t->size, 0);
    TA_CHECK(t->data != NULL);
}

/* Fills one region with 256-byte blocks until refused. */
static unsigned fill_region(ta_arena_t *arena, ta_lifetime_t life)
{
    uint32_t shape[1]; /* descriptor + data = 256 bytes */
    unsigned n = 0;
    shape[0] = (uint32_t)(256u - HDR);
    while (ta_tensor_alloc(arena, shape, 1, TA_DTYPE_UINT8, life) != NULL) {
        n++;
        TA_CHECK(n < 1000);
    }
    return n;
}

static void test_exhaustion(void)
{
    ta_arena_t arena = {0};
    ta_arena_stats_t s;
    unsigned n_persist, n_eph, n;
    size_t tensor_area = BUF_SIZE - POOL;

    TA_CHECK(sizeof(ta_tensor_t) <= HDR);
    setup(&arena, BUF_SIZE);
    /* ephemeral first, then persistent finds nothing left */
    n = fill_region(&arena, TA_LIFETIME_EPHEMERAL);
    TA_CHECK_EQ(n, tensor_area / 256u);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_ARENA_EXHAUSTED);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    n_eph = (unsigned)(s.ephemeral_used / 256u);
    TA_CHECK_EQ(n_eph, tensor_area / 256u);
    TA_CHECK_EQ(s.tensor_free, tensor_area - n_eph * 256u);
    /* nothing left for persistent either */
    n_persist = fill_region(&arena, TA_LIFETIME_PERSISTENT);
    TA_CHECK_EQ(n_persist, 0);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_ARENA_EXHAUSTED);
    TU_CHECK_STATS(&arena, BUF_SIZE);
    /* after a reset the whole tensor area is free again */
    ta_arena_reset_ephemeral(&arena);
    n_persist = fill_region(&arena, TA_LIFETIME_PERSISTENT);
    TA_CHECK_EQ(n_persist, tensor_area / 256u);
    n = fill_region(&arena, TA_LIFETIME_EPHEMERAL);
    TA_CHECK_EQ(n, 0);
    ta_arena_reset_ephemeral(&arena);
    TA_CHECK_EQ(fill_region(&arena, TA_LIFETIME_EPHEMERAL), 0);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.persistent_used, tensor_area);
    TU_CHECK_STATS(&arena, BUF_SIZE);
    /* the scratch pool is separate and still fully available */
    TA_CHECK(ta_arena_scratch_acquire(&arena, POOL) != NULL);
    TA_CHECK(ta_arena_scratch_acquire(&arena, 1) == NULL);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_ARENA_EXHAUSTED);
    TU_CHECK_STATS(&arena, BUF_SIZE);
}

static void test_exhaustion_is_logged(void)
{
    ta_arena_t arena = {0};
    ta_arena_stats_t s;
    tu_log_t log = {{0}, 0};
    uint32_t shape[] = {BUF_SIZE};

    setup(&arena, BUF_SIZE);
    ta_arena_set_log(&arena, tu_log_hook, &log);
    ta_arena_set_name(&arena, "npu");
    TA_CHECK(ta_tensor_alloc(&arena, shape, 1, TA_DTYPE_INT8, TA_LIFETIME_PERSISTENT) == NULL);
    TA_CHECK_EQ(log.lines, 1);
    TA_CHECK(tu_contains(log.last, "npu"));
    TA_CHECK(tu_contains(log.last, "persistent region exhausted"));
    TA_CHECK(ta_arena_scratch_acquire(&arena, 0) == NULL);
    TA_CHECK_EQ(log.lines, 2);
    TA_CHECK(tu_contains(log.last, "size is 0"));
    TA_CHECK(ta_arena_alloc(&arena, BUF_SIZE, 0, TA_LIFETIME_EPHEMERAL) == NULL);
    TA_CHECK_EQ(log.lines, 3);
    TA_CHECK(tu_contains(log.last, "ephemeral region exhausted"));
    TA_CHECK(ta_arena_scratch_acquire(&arena, POOL + 1) == NULL);
    TA_CHECK_EQ(log.lines, 4);
    TA_CHECK(tu_contains(log.last, "scratch region exhausted"));
    /* every refusal is counted */
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.failed_count, 4);
    TA_CHECK_EQ(s.alloc_count, 0);
}

static void test_reset_ephemeral(void)
{
    ta_arena_t arena = {0};
    ta_arena_stats_t s;
    uint32_t shape[] = {100};
    ta_tensor_t *p, *e1, *e2;
    void *sc1, *sc2;

    setup(&arena, BUF_SIZE);
    p = ta_tensor_alloc(&arena, shape, 1, TA_DTYPE_INT8, TA_LIFETIME_PERSISTENT);
    e1 = ta_tensor_alloc(&arena, shape, 1, TA_DTYPE_INT8, TA_LIFETIME_EPHEMERAL);
    sc1 = ta_arena_scratch_acquire(&arena, 300);
    TA_CHECK(p != NULL && e1 != NULL && sc1 != NULL);
    tu_fill(p->data, p->size, 7);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.reset_count, 0);
    TA_CHECK_EQ(s.ephemeral_used, HDR + 112u);
    TA_CHECK_EQ(s.scratch_used, 304u);

    ta_arena_reset_ephemeral(&arena);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.reset_count, 1);
    TA_CHECK_EQ(s.ephemeral_used, 0);
    TA_CHECK_EQ(s.scratch_used, 0);
    TA_CHECK_EQ(s.persistent_used, HDR + 112u);
    TA_CHECK(tu_holds(p->data, p->size, 7));
    TU_CHECK_STATS(&arena, BUF_SIZE);
    /* the same calls give the same addresses again */
    e2 = ta_tensor_alloc(&arena, shape, 1, TA_DTYPE_INT8, TA_LIFETIME_EPHEMERAL);
    sc2 = ta_arena_scratch_acquire(&arena, 300);
    TA_CHECK(e2 == e1);
    TA_CHECK(sc2 == sc1);
    ta_arena_reset_ephemeral(&arena);
    ta_arena_reset_ephemeral(&arena);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.reset_count, 3);
    TA_CHECK(tu_holds(p->data, p->size, 7));
}

static void test_scratch_acquire(void)
{
    ta_arena_t arena = {0};
    ta_arena_stats_t s;
    unsigned char *a, *b, *c;

    setup(&arena, BUF_SIZE);
    a = (unsigned char *)ta_arena_scratch_acquire(&arena, 1);
    b = (unsigned char *)ta_arena_scratch_acquire(&arena, 17);
    c = (unsigned char *)ta_arena_scratch_acquire_aligned(&arena, 10, 128);
    TA_CHECK(a != NULL && b != NULL && c != NULL);
    TA_CHECK(tu_aligned(a, 16) && tu_aligned(b, 16) && tu_aligned(c, 128));
    /* the pool is the top of the arena */
    TA_CHECK(tu_inside(a, 1, buf64() + BUF_SIZE - POOL, POOL));
    TA_CHECK(tu_inside(c, 10, buf64() + BUF_SIZE - POOL, POOL));
    TA_CHECK(b == a + 16);
    TA_CHECK(!tu_overlap(b, 17, c, 10));
    ta_arena_scratch_release(&arena, b); /* a no-op */
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.scratch_used, (size_t)(c + 16 - a));
    TA_CHECK_EQ(s.scratch_peak, s.scratch_used);
    TA_CHECK_EQ(s.scratch_total, POOL);
    TA_CHECK_EQ(s.alloc_count, 3);
    TA_CHECK(ta_arena_scratch_acquire(&arena, 0) == NULL);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_BAD_ARGUMENT);
    TA_CHECK(ta_arena_scratch_acquire_aligned(&arena, 16, 24) == NULL);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_BAD_ARGUMENT);
    TA_CHECK(ta_arena_scratch_acquire(&arena, POOL) == NULL);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_ARENA_EXHAUSTED);
    TA_CHECK(ta_arena_scratch_acquire(&arena, (size_t)-1) == NULL);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_ARENA_OVERFLOW);
    TU_CHECK_STATS(&arena, BUF_SIZE);
    ta_arena_reset_ephemeral(&arena);
    TA_CHECK(ta_arena_scratch_acquire(&arena, POOL) == a);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.scratch_peak, POOL);
}

static void test_tensor_init(void)
{
    ta_tensor_t t;
    uint32_t shape[] = {2, 3, 4, 5, 6};
    int marker = 0;

    t.data = &marker;
    t.lifetime = TA_LIFETIME_SHARED;
    TA_CHECK_EQ(ta_tensor_init(&t, shape, 3, TA_DTYPE_FLOAT16), TA_OK);
    TA_CHECK_EQ(t.size, 2u * 3u * 4u * 2u);
    TA_CHECK_EQ(t.ndim, 3);
    TA_CHECK_EQ(t.dtype, TA_DTYPE_FLOAT16);
    TA_CHECK_EQ(t.shape[0], 2);
    TA_CHECK_EQ(t.shape[2], 4);
    TA_CHECK_EQ(t.shape[3], 0);
    TA_CHECK(t.data == &marker);                 /* untouched */
    TA_CHECK_EQ(t.lifetime, TA_LIFETIME_SHARED); /* untouched */

    TA_CHECK_EQ(ta_tensor_init(NULL, shape, 3, TA_DTYPE_INT8), TA_ERR_BAD_ARGUMENT);
    TA_CHECK_EQ(ta_tensor_init(&t, NULL, 3, TA_DTYPE_INT8), TA_ERR_BAD_ARGUMENT);
    TA_CHECK_EQ(ta_tensor_init(&t, shape, 0, TA_DTYPE_INT8), TA_ERR_BAD_ARGUMENT);
    TA_CHECK_EQ(ta_tensor_init(&t, shape, 5, TA_DTYPE_INT8), TA_ERR_BAD_ARGUMENT);
    TA_CHECK_EQ(ta_tensor_init(&t, shape, 2, (ta_dtype_t)9), TA_ERR_BAD_ARGUMENT);
    /* a refused call leaves the descriptor as it was */
    TA_CHECK_EQ(t.size, 2u * 3u * 4u * 2u);
    TA_CHECK_EQ(t.ndim, 3);
    {
        uint32_t big[] = {0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu};
        TA_CHECK_EQ(ta_tensor_init(&t, big, 4, TA_DTYPE_INT8), TA_ERR_ARENA_OVERFLOW);
        TA_CHECK_EQ(t.size, 2u * 3u * 4u * 2u);
    }
}

static void test_tensor_free_is_a_noop(void)
{
    ta_arena_t arena = {0};
    ta_arena_stats_t before, after;
    uint32_t shape[] = {64};
    ta_tensor_t *t;

    setup(&arena, BUF_SIZE);
    t = ta_tensor_alloc(&arena, shape, 1, TA_DTYPE_INT8, TA_LIFETIME_EPHEMERAL);
    TA_CHECK(t != NULL);
    tu_fill(t->data, t->size, 3);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &before), TA_OK);
    ta_tensor_free(&arena, t);
    ta_tensor_free(&arena, NULL);
    ta_tensor_free(NULL, NULL);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &after), TA_OK);
    TA_CHECK_EQ(after.arena_used, before.arena_used);
    TA_CHECK_EQ(after.ephemeral_used, before.ephemeral_used);
    TA_CHECK_EQ(after.arena_free, before.arena_free);
    TA_CHECK_EQ(after.alloc_count, before.alloc_count);
    TA_CHECK_EQ(after.failed_count, before.failed_count);
    TA_CHECK(tu_holds(t->data, t->size, 3));
}

static void test_stats_values(void)
{
    ta_arena_t arena = {0};
    ta_arena_stats_t s;
    uint32_t shape[] = {10, 10};

    setup(&arena, BUF_SIZE);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, NULL), TA_ERR_BAD_ARGUMENT);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.arena_total, BUF_SIZE);
    TA_CHECK_EQ(s.arena_used, 0);
    TA_CHECK_EQ(s.arena_free, BUF_SIZE);
    TA_CHECK_EQ(s.arena_peak, 0);
    TA_CHECK_EQ(s.scratch_total, POOL);
    TA_CHECK_EQ(s.tensor_free, BUF_SIZE - POOL);
    TA_CHECK_EQ(s.align_lost, 0);
    TA_CHECK_EQ(s.alignment, TA_ARENA_ALIGNMENT);
    TA_CHECK_EQ(s.shared_total, 0);
    /* 100 bytes of data: HDR + 112 per tensor */
    TA_CHECK(ta_tensor_alloc(&arena, shape, 2, TA_DTYPE_INT8, TA_LIFETIME_PERSISTENT));
    TA_CHECK(ta_tensor_alloc(&arena, shape, 2, TA_DTYPE_INT8, TA_LIFETIME_EPHEMERAL));
    TA_CHECK(ta_tensor_alloc(&arena, shape, 2, TA_DTYPE_INT8, TA_LIFETIME_EPHEMERAL));
    TA_CHECK(ta_arena_scratch_acquire(&arena, 64));
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.persistent_used, HDR + 112u);
    TA_CHECK_EQ(s.ephemeral_used, 2u * (HDR + 112u));
    TA_CHECK_EQ(s.scratch_used, 64);
    TA_CHECK_EQ(s.arena_used, 3u * (HDR + 112u) + 64u);
    TA_CHECK_EQ(s.arena_peak, 3u * (HDR + 112u) + 64u);
    TA_CHECK_EQ(s.alloc_count, 4);
    TA_CHECK_EQ(s.failed_count, 0);
    ta_arena_reset_ephemeral(&arena);
    TA_CHECK(ta_tensor_alloc(&arena, shape, 2, TA_DTYPE_INT8, TA_LIFETIME_EPHEMERAL));
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.arena_used, 2u * (HDR + 112u));
    TA_CHECK_EQ(s.arena_peak, 3u * (HDR + 112u) + 64u); /* the high-water mark stays */
    TA_CHECK_EQ(s.alloc_count, 5);
    TA_CHECK_EQ(s.reset_count, 1);
    TU_CHECK_STATS(&arena, BUF_SIZE);
}

static void test_print_stats_through_hook(void)
{
    ta_arena_t arena = {0};
    tu_log_t log = {{0}, 0};
    uint32_t shape[] = {100};
    char num[64];
    size_t i;

    setup(&arena, BUF_SIZE);
    ta_arena_set_log(&arena, tu_log_hook, &log);
    TA_CHECK(ta_tensor_alloc(&arena, shape, 1, TA_DTYPE_INT8, TA_LIFETIME_PERSISTENT));
    TA_CHECK(ta_arena_scratch_acquire(&arena, 32));
    ta_arena_print_stats(&arena);
    TA_CHECK_EQ(log.lines, 1);
    for (i = 0; log.last[i] != '\0'; i++) {
        TA_CHECK(log.last[i] != '\n'); /* one line */
    }
    TA_CHECK(tu_contains(log.last, "ta_arena arena: stats: "));
    TA_CHECK(tu_contains(log.last, tu_number("total ", BUF_SIZE, " ", num)));
    TA_CHECK(tu_contains(log.last, tu_number("used ", HDR + 112u + 32u, " ", num)));
    TA_CHECK(tu_contains(log.last, tu_number("persistent ", HDR + 112u, " ", num)));
    TA_CHECK(tu_contains(log.last, "ephemeral 0 "));
    TA_CHECK(tu_contains(log.last, tu_number("peak ", HDR + 112u + 32u, " ", num)));
    TA_CHECK(tu_contains(log.last, "scratch 32/"));
    ta_arena_set_name(&arena, "main");
    ta_arena_print_stats(&arena);
    TA_CHECK_EQ(log.lines, 2);
    TA_CHECK(tu_contains(log.last, "ta_arena main: stats: "));
    /* NULL silences the arena */
    ta_arena_set_log(&arena, NULL, NULL);
    ta_arena_print_stats(&arena);
    TA_CHECK_EQ(log.lines, 2);
}

static void test_alloc_blocks(void)
{
    ta_arena_t arena = {0};
    unsigned char *p1, *p2, *e1, *e2;
    ta_arena_stats_t s;

    setup(&arena, BUF_SIZE);
    p1 = (unsigned char *)ta_arena_alloc(&arena, 1, 0, TA_LIFETIME_PERSISTENT);
    p2 = (unsigned char *)ta_arena_alloc(&arena, 10, 256, TA_LIFETIME_PERSISTENT);
    e1 = (unsigned char *)ta_arena_alloc(&arena, 1, 0, TA_LIFETIME_EPHEMERAL);
    e2 = (unsigned char *)ta_arena_alloc(&arena, 10, 256, TA_LIFETIME_EPHEMERAL);
    TA_CHECK(p1 == buf64());
    TA_CHECK(p2 == buf64() + 256);
    TA_CHECK(e1 == buf64() + BUF_SIZE - POOL - 16);
    TA_CHECK(tu_aligned(e2, 256));
    TA_CHECK(e2 + 16 <= e1);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.persistent_used, 256u + 16u);
    TA_CHECK_EQ(s.ephemeral_used, (size_t)(buf64() + BUF_SIZE - POOL - e2));
    TU_CHECK_STATS(&arena, BUF_SIZE);
    TA_CHECK(ta_arena_alloc(&arena, 0, 0, TA_LIFETIME_PERSISTENT) == NULL);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_BAD_ARGUMENT);
    TA_CHECK(ta_arena_alloc(&arena, 8, 12, TA_LIFETIME_PERSISTENT) == NULL);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_BAD_ARGUMENT);
    TA_CHECK(ta_arena_alloc(&arena, 8, 0, (ta_lifetime_t)9) == NULL);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_BAD_ARGUMENT);
    TA_CHECK(ta_arena_alloc(&arena, (size_t)-5, 0, TA_LIFETIME_EPHEMERAL) == NULL);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_ARENA_OVERFLOW);
    TA_CHECK(ta_arena_alloc(&arena, BUF_SIZE, 0, TA_LIFETIME_EPHEMERAL) == NULL);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_ARENA_EXHAUSTED);
    TU_CHECK_STATS(&arena, BUF_SIZE);
}

static void test_mark_and_rollback(void)
{
    ta_arena_t arena = {0}, other = {0};
    ta_arena_mark_t mark, foreign;
    ta_arena_stats_t s;
    static unsigned char other_buf[8192];

    setup(&arena, BUF_SIZE);
    TA_CHECK_EQ(ta_arena_get_mark(&arena, NULL), TA_ERR_BAD_ARGUMENT);
    TA_CHECK(ta_arena_alloc(&arena, 100, 0, TA_LIFETIME_PERSISTENT));
    TA_CHECK(ta_arena_alloc(&arena, 100, 0, TA_LIFETIME_EPHEMERAL));
    TA_CHECK_EQ(ta_arena_get_mark(&arena, &mark), TA_OK);
    TA_CHECK(ta_arena_alloc(&arena, 500, 0, TA_LIFETIME_PERSISTENT));
    TA_CHECK(ta_arena_alloc(&arena, 500, 0, TA_LIFETIME_EPHEMERAL));
    TA_CHECK(ta_arena_scratch_acquire(&arena, 500));
    TA_CHECK_EQ(ta_arena_rollback(&arena, &mark), TA_OK);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.persistent_used, 112);
    TA_CHECK_EQ(s.ephemeral_used, 112);
    TA_CHECK_EQ(s.scratch_used, 0);
    TU_CHECK_STATS(&arena, BUF_SIZE);
    /* after a reset the mark's ephemeral part is stale and ignored */
    TA_CHECK(ta_arena_alloc(&arena, 500, 0, TA_LIFETIME_PERSISTENT));
    ta_arena_reset_ephemeral(&arena);
    TA_CHECK(ta_arena_alloc(&arena, 32, 0, TA_LIFETIME_EPHEMERAL));
    TA_CHECK_EQ(ta_arena_rollback(&arena, &mark), TA_OK);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.persistent_used, 112);
    TA_CHECK_EQ(s.ephemeral_used, 32);
    /* a mark from another arena, or one ahead of the arena, is refused */
    TA_CHECK_EQ(ta_arena_init(&other, other_buf, sizeof other_buf), TA_OK);
    ta_arena_set_log(&other, NULL, NULL);
    TA_CHECK(ta_arena_alloc(&other, 64, 0, TA_LIFETIME_PERSISTENT));
    TA_CHECK_EQ(ta_arena_get_mark(&other, &foreign), TA_OK);
    TA_CHECK_EQ(ta_arena_rollback(&arena, &foreign), TA_ERR_BAD_ARGUMENT);
    TA_CHECK_EQ(ta_arena_rollback(&arena, NULL), TA_ERR_BAD_ARGUMENT);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.persistent_used, 112);
    /* a mark ahead of the arena (blocks already dropped) is refused too */
    TA_CHECK_EQ(ta_arena_get_mark(&arena, &mark), TA_OK);
    TA_CHECK(ta_arena_alloc(&arena, 64, 0, TA_LIFETIME_EPHEMERAL));
    TA_CHECK(ta_arena_scratch_acquire(&arena, 64));
    TA_CHECK_EQ(ta_arena_get_mark(&arena, &foreign), TA_OK);
    TA_CHECK_EQ(ta_arena_rollback(&arena, &mark), TA_OK);
    TA_CHECK_EQ(ta_arena_rollback(&arena, &foreign), TA_ERR_BAD_ARGUMENT);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.ephemeral_used, 32);
    TA_CHECK_EQ(s.scratch_used, 0);
    /* the shared region rolls back too, unless it was emptied since */
    TA_CHECK_EQ(ta_arena_set_shared_region(&arena, shared_storage, 1024), TA_OK);
    TA_CHECK(ta_arena_alloc(&arena, 100, 0, TA_LIFETIME_SHARED));
    TA_CHECK_EQ(ta_arena_get_mark(&arena, &mark), TA_OK);
    TA_CHECK(ta_arena_alloc(&arena, 200, 0, TA_LIFETIME_SHARED));
    TA_CHECK_EQ(ta_arena_get_mark(&arena, &foreign), TA_OK);
    TA_CHECK_EQ(ta_arena_rollback(&arena, &mark), TA_OK);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.shared_used, 112);
    TA_CHECK_EQ(ta_arena_rollback(&arena, &foreign), TA_ERR_BAD_ARGUMENT);
    ta_arena_reset_shared(&arena);
    TA_CHECK(ta_arena_alloc(&arena, 16, 0, TA_LIFETIME_SHARED));
    TA_CHECK_EQ(ta_arena_rollback(&arena, &mark), TA_OK);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.shared_used, 16);
}

static void test_init_ex_alignment_and_pool(void)
{
    ta_arena_t arena = {0};
    ta_arena_stats_t s;
    uint32_t shape[] = {3};
    ta_tensor_t *t;
    unsigned i;

    TA_CHECK_EQ(ta_arena_init_ex(&arena, buf64(), BUF_SIZE, 1000, 64), TA_OK);
    ta_arena_set_log(&arena, NULL, NULL);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.scratch_total, 1024); /* rounded up to the alignment */
    TA_CHECK_EQ(s.alignment, 64);
    for (i = 0; i < 6; i++) {
        t = ta_tensor_alloc(&arena, shape, 1, TA_DTYPE_INT8,
                            (i & 1) ? TA_LIFETIME_PERSISTENT : TA_LIFETIME_EPHEMERAL);
        TA_CHECK(t != NULL);
        TA_CHECK(tu_aligned(t, 64));
        TA_CHECK(tu_aligned(t->data, 64));
        TA_CHECK(tu_aligned(ta_arena_scratch_acquire(&arena, 1), 64));
    }
    TU_CHECK_STATS(&arena, BUF_SIZE);
    /* no scratch pool at all */
    TA_CHECK_EQ(ta_arena_init_ex(&arena, buf64(), BUF_SIZE, 0, 0), TA_OK);
    ta_arena_set_log(&arena, NULL, NULL);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.scratch_total, 0);
    TA_CHECK_EQ(s.alignment, TA_ARENA_ALIGNMENT);
    TA_CHECK(ta_arena_scratch_acquire(&arena, 1) == NULL);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_ARENA_EXHAUSTED);
}

static void test_shared_region_api(void)
{
    ta_arena_t arena = {0};
    ta_arena_stats_t s;
    unsigned char *sh = tu_align(shared_storage, 256);
    uint32_t shape[] = {32};
    ta_tensor_t *t;

    setup(&arena, BUF_SIZE);
    TA_CHECK_EQ(ta_arena_set_shared_region(&arena, NULL, 64), TA_ERR_BAD_ARGUMENT);
    TA_CHECK_EQ(ta_arena_set_shared_region(&arena, sh, 0), TA_ERR_BAD_ARGUMENT);
    TA_CHECK_EQ(ta_arena_set_shared_region(&arena, sh + 1, 15), TA_ERR_BAD_ARGUMENT);
    /* overlapping the arena itself is refused */
    TA_CHECK_EQ(ta_arena_set_shared_region(&arena, buf64() + 64, 1024), TA_ERR_BAD_ARGUMENT);
    TA_CHECK_EQ(ta_arena_set_shared_region(&arena, sh, 1024), TA_OK);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.shared_total, 1024);
    t = ta_tensor_alloc(&arena, shape, 1, TA_DTYPE_INT16, TA_LIFETIME_SHARED);
    TA_CHECK(t != NULL);
    TA_CHECK((unsigned char *)t == sh);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.shared_used, HDR + 64u);
    TA_CHECK_EQ(s.arena_used, 0); /* the shared region is not the arena */
    TA_CHECK(ta_arena_alloc(&arena, 2000, 0, TA_LIFETIME_SHARED) == NULL);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_ARENA_EXHAUSTED);
    ta_arena_reset_shared(&arena);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.shared_used, 0);
    TA_CHECK(ta_tensor_alloc(&arena, shape, 1, TA_DTYPE_INT16, TA_LIFETIME_SHARED) == t);
    /* unregister */
    TA_CHECK_EQ(ta_arena_set_shared_region(&arena, NULL, 0), TA_OK);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.shared_total, 0);
    TA_CHECK(ta_tensor_alloc(&arena, shape, 1, TA_DTYPE_INT16, TA_LIFETIME_SHARED) == NULL);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_ARENA_NO_SHARED);
}

/* A region whose end would lie past the top of the address space wraps:
   the overlap check must refuse it rather than compare wrapped addresses.
   The addresses are formed as integers and never dereferenced. */
static void test_ranges_that_wrap_are_refused(void)
{
    ta_arena_t arena = {0};
    uintptr_t below = (uintptr_t)buf64() - 4096u;
    uintptr_t top = (UINTPTR_MAX - 4095u) & ~(uintptr_t)255;

    setup(&arena, BUF_SIZE);
    /* starts below the arena and, wrapped, "ends" below it too */
    TA_CHECK_EQ(ta_arena_set_shared_region(&arena, (void *)below, SIZE_MAX - 100),
                TA_ERR_BAD_ARGUMENT);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_BAD_ARGUMENT);
    TA_CHECK_EQ(ta_arena_set_shared_region(&arena, (void *)top, 8192), TA_ERR_BAD_ARGUMENT);
    /* no region was registered: SHARED is still refused */
    TA_CHECK(ta_arena_alloc(&arena, 64, 0, TA_LIFETIME_SHARED) == NULL);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_ARENA_NO_SHARED);
    /* the arena itself: a buffer that wraps is refused at init */
    TA_CHECK_EQ(ta_arena_init(&arena, (void *)top, 1u << 16), TA_ERR_BAD_ARGUMENT);
    TA_CHECK(!ta_arena_is_initialized(&arena));
    /* a range ending exactly at the top does not wrap (checked, not used) */
    setup(&arena, BUF_SIZE);
    TA_CHECK_EQ(ta_arena_set_shared_region(&arena, (void *)top, (size_t)(UINTPTR_MAX - top)),
                TA_OK);
}

static void test_names_and_sizes(void)
{
    TA_CHECK_EQ(ta_dtype_size(TA_DTYPE_INT8), 1);
    TA_CHECK_EQ(ta_dtype_size(TA_DTYPE_UINT8), 1);
    TA_CHECK_EQ(ta_dtype_size(TA_DTYPE_INT16), 2);
    TA_CHECK_EQ(ta_dtype_size(TA_DTYPE_FLOAT16), 2);
    TA_CHECK_EQ(ta_dtype_size(TA_DTYPE_FLOAT32), 4);
    TA_CHECK_EQ(ta_dtype_size((ta_dtype_t)77), 0);
    TA_CHECK(tu_contains(ta_arena_status_name(TA_ERR_ARENA_EXHAUSTED), "exhausted"));
    TA_CHECK(tu_contains(ta_arena_status_name(TA_ERR_ARENA_OVERFLOW), "overflow"));
    TA_CHECK(tu_contains(ta_arena_status_name(TA_ERR_ARENA_NO_SHARED), "shared"));
    TA_CHECK(tu_contains(ta_arena_status_name(TA_ERR_NOT_INITIALIZED), "not_initialized"));
    TA_CHECK(tu_contains(ta_arena_status_name(TA_OK), "ok"));
}

static const ta_test_case_t cases[] = {
    {"init_rejects_bad_arguments", test_init_rejects_bad_arguments},
    {"failed_init_leaves_arena_unusable", test_failed_init_leaves_arena_unusable},
    {"use_before_init", test_use_before_init},
    {"copied_arena_is_not_initialized", test_copied_arena_is_not_initialized},
    {"tensor_alloc_every_dtype", test_tensor_alloc_every_dtype},
    {"tensor_alloc_ranks", test_tensor_alloc_ranks},
    {"tensor_alloc_rejects_bad_arguments", test_tensor_alloc_rejects_bad_arguments},
    {"zero_sized_dimension", test_zero_sized_dimension},
    {"exhaustion", test_exhaustion},
    {"exhaustion_is_logged", test_exhaustion_is_logged},
    {"reset_ephemeral", test_reset_ephemeral},
    {"scratch_acquire", test_scratch_acquire},
    {"tensor_init", test_tensor_init},
    {"tensor_free_is_a_noop", test_tensor_free_is_a_noop},
    {"stats_values", test_stats_values},
    {"print_stats_through_hook", test_print_stats_through_hook},
    {"alloc_blocks", test_alloc_blocks},
    {"mark_and_rollback", test_mark_and_rollback},
    {"init_ex_alignment_and_pool", test_init_ex_alignment_and_pool},
    {"shared_region_api", test_shared_region_api},
    {"ranges_that_wrap_are_refused", test_ranges_that_wrap_are_refused},
    {"names_and_sizes", test_names_and_sizes},
};

const ta_test_suite_t ta_suite_arena_api = {"arena_api", cases, TA_ARRAY_LEN(cases)};

TA_TEST_MAIN(ta_suite_arena_api)
