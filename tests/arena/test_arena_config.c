/*
 * test_arena_config.c - the build-time settings reach the arena. Built
 * (library sources included) with -D settings and the EXPECT_* values they
 * should produce:
 *   EXPECT_POOL     scratch pool of a ta_arena_init() arena
 *   EXPECT_DEFAULT  size of the default arena (syn_mem_init_default)
 *   EXPECT_ALIGN    alignment of every block
 */
#include "arena_test_util.h"
#include "syn_mem.h"

#if !defined(EXPECT_POOL) || !defined(EXPECT_DEFAULT) || !defined(EXPECT_ALIGN)
#error "build with -DEXPECT_POOL=... -DEXPECT_DEFAULT=... -DEXPECT_ALIGN=..."
#endif

static unsigned char storage[EXPECT_POOL + 4096 + EXPECT_ALIGN];

static void test_macros(void)
{
    TA_CHECK_EQ(TA_ARENA_SCRATCH_POOL_SIZE, EXPECT_POOL);
    TA_CHECK_EQ(CONFIG_SYNAPTIC_SCRATCH_POOL_SIZE, EXPECT_POOL);
    TA_CHECK_EQ(TA_ARENA_DEFAULT_SIZE, EXPECT_DEFAULT);
    TA_CHECK_EQ(CONFIG_SYNAPTIC_TENSOR_ARENA_SIZE, EXPECT_DEFAULT);
    TA_CHECK_EQ(TA_ARENA_ALIGNMENT, EXPECT_ALIGN);
}

static void test_arena_uses_settings(void)
{
    ta_arena_t arena = {0};
    ta_arena_stats_t s;
    uint32_t shape[] = {5};
    unsigned char *base = tu_align(storage, EXPECT_ALIGN);
    unsigned i;

    TA_CHECK_EQ(ta_arena_init(&arena, base, EXPECT_POOL), TA_ERR_BAD_ARGUMENT);
    TA_CHECK_EQ(ta_arena_init(&arena, base, EXPECT_POOL + 4096), TA_OK);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.scratch_total, EXPECT_POOL);
    TA_CHECK_EQ(s.alignment, EXPECT_ALIGN);
    for (i = 0; i < 4; i++) {
        ta_tensor_t *t = ta_tensor_alloc(&arena, shape, 1, TA_DTYPE_INT8,
                                         i % 2 ? TA_LIFETIME_PERSISTENT : TA_LIFETIME_EPHEMERAL);
        TA_CHECK(t != NULL);
        TA_CHECK(tu_aligned(t, EXPECT_ALIGN));
        TA_CHECK(tu_aligned(t->data, EXPECT_ALIGN));
        TA_CHECK(tu_aligned(ta_arena_scratch_acquire(&arena, 3), EXPECT_ALIGN));
    }
}

static void test_default_arena(void)
{
    syn_mem_stats_t st;
    TA_CHECK_INT(syn_mem_init_default(), 0);
    TA_CHECK_INT(syn_mem_get_stats(&st), 0);
    TA_CHECK(st.arena_total <= EXPECT_DEFAULT);
    TA_CHECK(st.arena_total + 2u * EXPECT_ALIGN > EXPECT_DEFAULT);
    TA_CHECK_EQ(st.scratch_total, EXPECT_POOL);
}

static const ta_test_case_t cases[] = {
    {"macros", test_macros},
    {"arena_uses_settings", test_arena_uses_settings},
    {"default_arena", test_default_arena},
};

static const ta_test_suite_t suite = {"arena_config", cases, TA_ARRAY_LEN(cases)};

TA_TEST_MAIN(suite)
