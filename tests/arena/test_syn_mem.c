/*
 * test_syn_mem.c - the compatibility header: the specification's names,
 * return conventions and error paths, and its usage example.
 *
 * The first case must run first: it checks the never-initialized state.
 */
#include "arena_test_util.h"
#include "spec_usage_example.h"
#include "syn_mem.h"

#define POOL ((size_t)CONFIG_SYNAPTIC_SCRATCH_POOL_SIZE)
#define BUF_SIZE (POOL + 8192u)

static unsigned char storage[BUF_SIZE + 64];
static unsigned char shared_storage[512 + 64];

static unsigned char *base16(void)
{
    return tu_align(storage, 16);
}

static void init_quiet(tu_log_t *log)
{
    TA_CHECK_INT(syn_mem_init(base16(), BUF_SIZE), 0);
    ta_arena_set_log(syn_mem_arena(), log != NULL ? tu_log_hook : NULL, log);
}

static void check_unusable(void)
{
    syn_mem_stats_t st;
    uint32_t shape[] = {1, 2, 2, 1};
    TA_CHECK(syn_mem_tensor_alloc(shape, 4, SYN_NPU_DTYPE_INT8, SYN_MEM_EPHEMERAL) == NULL);
    TA_CHECK(syn_mem_tensor_alloc(shape, 4, SYN_NPU_DTYPE_INT8, SYN_MEM_PERSISTENT) == NULL);
    TA_CHECK(syn_mem_scratch_acquire(16) == NULL);
    TA_CHECK_INT(syn_mem_get_stats(&st), -EINVAL);
    syn_mem_reset_ephemeral();
    syn_mem_print_stats();
    TA_CHECK_INT(spec_usage_example(), -ENOMEM);
}

static void test_use_before_init(void)
{
    check_unusable(); /* never initialized */
    TA_CHECK_INT(syn_mem_init(base16(), BUF_SIZE), 0);
    TA_CHECK_INT(syn_mem_init(NULL, BUF_SIZE), -EINVAL);
    check_unusable(); /* a failed init leaves it unusable */
}

static void test_init_errors(void)
{
    TA_CHECK_INT(syn_mem_init(NULL, BUF_SIZE), -EINVAL);
    TA_CHECK_INT(syn_mem_init(base16(), 0), -EINVAL);
    TA_CHECK_INT(syn_mem_init(base16(), CONFIG_SYNAPTIC_SCRATCH_POOL_SIZE), -EINVAL);
    TA_CHECK_INT(syn_mem_init(base16(), CONFIG_SYNAPTIC_SCRATCH_POOL_SIZE - 1), -EINVAL);
    TA_CHECK_INT(syn_mem_init(base16(), CONFIG_SYNAPTIC_SCRATCH_POOL_SIZE + 16), 0);
    TA_CHECK_INT(syn_mem_init(base16(), BUF_SIZE), 0);
}

static void test_usage_example_runs(void)
{
    tu_log_t log = {{0}, 0};
    syn_mem_stats_t st;
    char num[64];

    init_quiet(&log);
    TA_CHECK_INT(spec_usage_example(), 0);
    TA_CHECK_EQ(log.lines, 1); /* syn_mem_print_stats() */
    TA_CHECK(tu_contains(log.last, "ta_arena syn_mem: stats: "));
    TA_CHECK(tu_contains(log.last, tu_number("used ", TU_HDR + 768u, " ", num)));
    TA_CHECK(tu_contains(log.last, tu_number("ephemeral ", TU_HDR + 768u, " ", num)));
    TA_CHECK_INT(syn_mem_get_stats(&st), 0);
    TA_CHECK_EQ(st.arena_total, BUF_SIZE);
    TA_CHECK_EQ(st.arena_used, 0); /* the example's reset reclaimed it */
    TA_CHECK_EQ(st.arena_peak, TU_HDR + 768u);
    TA_CHECK_EQ(st.scratch_total, POOL);
    TA_CHECK_EQ(st.scratch_used, 0);
    TA_CHECK_EQ(st.alloc_count, 1);
    TA_CHECK_EQ(st.reset_count, 1);
    /* again: the reset made room, the same block is reused */
    TA_CHECK_INT(spec_usage_example(), 0);
    TA_CHECK_INT(syn_mem_get_stats(&st), 0);
    TA_CHECK_EQ(st.arena_peak, TU_HDR + 768u);
    TA_CHECK_EQ(st.reset_count, 2);
}

static void test_tensor_alloc(void)
{
    static const syn_npu_dtype_t types[] = {SYN_NPU_DTYPE_INT8, SYN_NPU_DTYPE_UINT8,
                                            SYN_NPU_DTYPE_INT16, SYN_NPU_DTYPE_FLOAT16,
                                            SYN_NPU_DTYPE_FLOAT32};
    static const size_t esize[] = {1, 1, 2, 2, 4};
    uint32_t shape[] = {2, 3, 4, 5, 6};
    syn_tensor_t *t;
    unsigned i;

    init_quiet(NULL);
    for (i = 0; i < TA_ARRAY_LEN(types); i++) {
        t = syn_mem_tensor_alloc(shape, 4, types[i],
                                 i % 2 ? SYN_MEM_PERSISTENT : SYN_MEM_EPHEMERAL);
        TA_CHECK(t != NULL);
        TA_CHECK_EQ(t->size, 120u * esize[i]);
        TA_CHECK_EQ(t->dtype, types[i]);
        TA_CHECK_EQ(t->ndim, 4);
        TA_CHECK_EQ(t->shape[3], 5);
        TA_CHECK_EQ(t->lifetime, i % 2 ? SYN_MEM_PERSISTENT : SYN_MEM_EPHEMERAL);
        TA_CHECK(tu_aligned(t, 16) && tu_aligned(t->data, 16));
        TA_CHECK(tu_inside(t->data, t->size, base16(), BUF_SIZE));
    }
    TA_CHECK(syn_mem_tensor_alloc(NULL, 4, SYN_NPU_DTYPE_INT8, SYN_MEM_EPHEMERAL) == NULL);
    TA_CHECK(syn_mem_tensor_alloc(shape, 0, SYN_NPU_DTYPE_INT8, SYN_MEM_EPHEMERAL) == NULL);
    TA_CHECK(syn_mem_tensor_alloc(shape, 5, SYN_NPU_DTYPE_INT8, SYN_MEM_EPHEMERAL) == NULL);
    {
        uint32_t huge[] = {BUF_SIZE};
        TA_CHECK(syn_mem_tensor_alloc(huge, 1, SYN_NPU_DTYPE_INT8, SYN_MEM_EPHEMERAL) == NULL);
        TA_CHECK(syn_mem_tensor_alloc(huge, 1, SYN_NPU_DTYPE_INT8, SYN_MEM_PERSISTENT) == NULL);
    }
    /* SHARED: refused until a shared region is registered */
    TA_CHECK(syn_mem_tensor_alloc(shape, 2, SYN_NPU_DTYPE_INT8, SYN_MEM_SHARED) == NULL);
    TA_CHECK_EQ(ta_arena_set_shared_region(syn_mem_arena(), shared_storage, 512), TA_OK);
    t = syn_mem_tensor_alloc(shape, 2, SYN_NPU_DTYPE_INT8, SYN_MEM_SHARED);
    TA_CHECK(t != NULL);
    TA_CHECK(tu_inside(t->data, t->size, shared_storage, sizeof shared_storage));
    TA_CHECK_EQ(t->lifetime, SYN_MEM_SHARED);
}

static void test_tensor_init(void)
{
    syn_tensor_t t;
    uint32_t shape[] = {1, 16, 16, 3};
    int marker;

    t.data = &marker;
    t.lifetime = SYN_MEM_PERSISTENT;
    TA_CHECK_INT(syn_mem_tensor_init(&t, shape, 4, SYN_NPU_DTYPE_FLOAT32), 0);
    TA_CHECK_EQ(t.size, 768u * 4u);
    TA_CHECK_EQ(t.dtype, SYN_NPU_DTYPE_FLOAT32);
    TA_CHECK_EQ(t.ndim, 4);
    TA_CHECK_EQ(t.shape[1], 16);
    TA_CHECK(t.data == &marker);
    TA_CHECK_EQ(t.lifetime, SYN_MEM_PERSISTENT);
    TA_CHECK_INT(syn_mem_tensor_init(NULL, shape, 4, SYN_NPU_DTYPE_INT8), -EINVAL);
    TA_CHECK_INT(syn_mem_tensor_init(&t, NULL, 4, SYN_NPU_DTYPE_INT8), -EINVAL);
    TA_CHECK_INT(syn_mem_tensor_init(&t, shape, 0, SYN_NPU_DTYPE_INT8), -EINVAL);
    TA_CHECK_INT(syn_mem_tensor_init(&t, shape, 5, SYN_NPU_DTYPE_INT8), -EINVAL);
}

static void test_scratch(void)
{
    syn_mem_stats_t st;
    unsigned char *a, *b;
    size_t n = 0;

    init_quiet(NULL);
    TA_CHECK(syn_mem_scratch_acquire(0) == NULL);
    a = (unsigned char *)syn_mem_scratch_acquire(100);
    b = (unsigned char *)syn_mem_scratch_acquire(100);
    TA_CHECK(a != NULL && b != NULL);
    TA_CHECK(tu_aligned(a, 16) && tu_aligned(b, 16));
    TA_CHECK(b == a + 112);
    TA_CHECK(a == base16() + BUF_SIZE - POOL); /* the top of the arena */
    syn_mem_scratch_release(a);                /* a no-op */
    TA_CHECK_INT(syn_mem_get_stats(&st), 0);
    TA_CHECK_EQ(st.scratch_used, 224);
    while (syn_mem_scratch_acquire(16) != NULL) {
        n++;
    }
    TA_CHECK_EQ(n, (POOL - 224) / 16);
    syn_mem_reset_ephemeral();
    TA_CHECK(syn_mem_scratch_acquire(100) == a);
}

static void test_get_stats_and_free(void)
{
    syn_mem_stats_t st;
    uint32_t shape[] = {10};
    syn_tensor_t *t;

    init_quiet(NULL);
    TA_CHECK_INT(syn_mem_get_stats(NULL), -EINVAL);
    t = syn_mem_tensor_alloc(shape, 1, SYN_NPU_DTYPE_INT16, SYN_MEM_PERSISTENT);
    TA_CHECK(t != NULL);
    syn_mem_tensor_free(t); /* a no-op */
    syn_mem_tensor_free(NULL);
    TA_CHECK_INT(syn_mem_get_stats(&st), 0);
    TA_CHECK_EQ(st.arena_used, TU_HDR + 32u);
    TA_CHECK_EQ(st.alloc_count, 1);
    syn_mem_reset_ephemeral();
    TA_CHECK_INT(syn_mem_get_stats(&st), 0);
    TA_CHECK_EQ(st.arena_used, TU_HDR + 32u); /* persistent survives */
    TA_CHECK_EQ(st.reset_count, 1);
}

static void test_init_default(void)
{
    syn_mem_stats_t st;
    TA_CHECK_INT(syn_mem_init_default(), 0);
    ta_arena_set_log(syn_mem_arena(), NULL, NULL);
    TA_CHECK_INT(syn_mem_get_stats(&st), 0);
    TA_CHECK(st.arena_total <= CONFIG_SYNAPTIC_TENSOR_ARENA_SIZE);
    TA_CHECK(st.arena_total + 2u * TA_ARENA_ALIGNMENT > CONFIG_SYNAPTIC_TENSOR_ARENA_SIZE);
    TA_CHECK_EQ(st.scratch_total, POOL);
    TA_CHECK_INT(spec_usage_example(), 0);
}

static void test_names_and_types(void)
{
    syn_tensor_t t;
    syn_mem_lifetime_t life = SYN_MEM_SHARED;
    syn_npu_dtype_t dt = SYN_NPU_DTYPE_FLOAT16;
    syn_mem_stats_t st;

    t.lifetime = life;
    t.dtype = dt;
    t.ndim = 4;
    t.shape[3] = 7;
    t.size = 0;
    t.data = NULL;
    st.alloc_count = 1;
    st.reset_count = 2;
    TA_CHECK_EQ(t.lifetime, TA_LIFETIME_SHARED);
    TA_CHECK_EQ(t.dtype, TA_DTYPE_FLOAT16);
    TA_CHECK_EQ(sizeof t.shape / sizeof t.shape[0], 4);
    TA_CHECK_EQ(st.alloc_count + st.reset_count, 3);
    TA_CHECK(SYN_MEM_PERSISTENT != SYN_MEM_EPHEMERAL && SYN_MEM_EPHEMERAL != SYN_MEM_SHARED);
    TA_CHECK_EQ(CONFIG_SYNAPTIC_SCRATCH_POOL_SIZE, TA_ARENA_SCRATCH_POOL_SIZE);
    TA_CHECK_EQ(CONFIG_SYNAPTIC_TENSOR_ARENA_SIZE, TA_ARENA_DEFAULT_SIZE);
}

static const ta_test_case_t cases[] = {
    {"use_before_init", test_use_before_init},
    {"init_errors", test_init_errors},
    {"usage_example_runs", test_usage_example_runs},
    {"tensor_alloc", test_tensor_alloc},
    {"tensor_init", test_tensor_init},
    {"scratch", test_scratch},
    {"get_stats_and_free", test_get_stats_and_free},
    {"init_default", test_init_default},
    {"names_and_types", test_names_and_types},
};

const ta_test_suite_t ta_suite_syn_mem = {"syn_mem", cases, TA_ARRAY_LEN(cases)};

TA_TEST_MAIN(ta_suite_syn_mem)
