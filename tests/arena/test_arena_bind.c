/*
 * test_arena_bind.c - binding two (fake) converted modules from one arena:
 * separate persistent state, one shared scratch buffer, outputs checked
 * against an oracle, and the arena's peak equal to persistent + the larger
 * scratch. Plus every refusal of the binding helper.
 *
 * The numbers below are worked out by hand from the descriptors in
 * fake_modules.c, not by calling the helpers under test:
 *   wake persistent block: region 1 (1000 B) at 0, staged region 3 (256 B,
 *     align 32) at 1024 -> 1280 B, align 32
 *   clf persistent block: region 1 (700 B) -> 700 B, align 32; 704 B in an
 *     arena of alignment 16
 *   wake scratch: region 0 -> 3000 B, align 16
 *   clf scratch: region 0 (5000 B) at 0, region 3 (100 B) at 5008
 *     -> 5108 B, align 64
 *   shared scratch: 5108 B, align 64; 5120 B in the arena
 *   peak = 1280 + 704 + 5120 = 7104
 */
#include "arena_test_util.h"
#include "fake_modules.h"
#include "ta_arena_bind.h"

#define BUF_SIZE 16384u
#define WAKE_PERSIST 1280u
#define CLF_PERSIST 704u
#define SHARED_SCRATCH 5108u
#define SHARED_SCRATCH_IN_ARENA 5120u
#define EXPECTED_PEAK (WAKE_PERSIST + CLF_PERSIST + SHARED_SCRATCH_IN_ARENA)

static unsigned char storage[BUF_SIZE + 256];
static unsigned char own_scratch[SHARED_SCRATCH + 128];
static unsigned char wake_blob_storage[512 + 64];
static unsigned char clf_blob_storage[1024 + 64];

static const ta_module_desc_t *const both[] = {&wake_module_desc, &clf_module_desc};

typedef struct {
    const void *blobs[4];
    size_t blob_sizes[4];
} blobs_t;

static unsigned char *arena_base(void)
{
    return tu_align(storage, 256);
}

/* Loads the "sidecar" bytes of each cold constant region. */
static void load_blobs(blobs_t *wake, blobs_t *clf)
{
    unsigned char *wb = tu_align(wake_blob_storage, 64);
    unsigned char *cb = tu_align(clf_blob_storage, 64);
    unsigned r;
    for (r = 0; r < 4; r++) {
        wake->blobs[r] = NULL;
        wake->blob_sizes[r] = 0;
        clf->blobs[r] = NULL;
        clf->blob_sizes[r] = 0;
    }
    fake_make_blob(&fake_wake, 2, wb, 512);
    fake_make_blob(&fake_clf, 2, cb, 1024);
    wake->blobs[2] = wb;
    wake->blob_sizes[2] = 512;
    clf->blobs[2] = cb;
    clf->blob_sizes[2] = 1024;
}

static ta_bind_options_t options(const blobs_t *b, void *scratch, size_t size,
                                 ta_bind_scratch_source_t source)
{
    ta_bind_options_t o;
    o.scratch = scratch;
    o.scratch_size = size;
    o.scratch_source = source;
    o.const_blobs = b->blobs;
    o.const_blob_sizes = b->blob_sizes;
    return o;
}

static void make_input(int8_t *in, unsigned seed)
{
    unsigned i;
    for (i = 0; i < FAKE_INPUT_LEN; i++) {
        in[i] = (int8_t)((int)((i * 37u + seed * 11u) % 256u) - 128);
    }
}

/* Runs wake and clf alternately and compares with the oracle each time. */
static void run_both_against_oracle(unsigned runs)
{
    fake_oracle_t wake_state = {{0}}, clf_state = {{0}};
    unsigned i;

    TA_CHECK_EQ(fake_model_init(&fake_wake), TA_OK);
    TA_CHECK_EQ(fake_model_init(&fake_clf), TA_OK);
    for (i = 0; i < runs; i++) {
        int8_t in[FAKE_INPUT_LEN];
        uint32_t out_wake = 0, out_clf = 0;
        make_input(in, i);
        TA_CHECK_EQ(fake_model_run(&fake_wake, in, &out_wake), TA_OK);
        TA_CHECK_EQ(out_wake, fake_oracle_run(&fake_wake, &wake_state, in));
        make_input(in, i + 100);
        TA_CHECK_EQ(fake_model_run(&fake_clf, in, &out_clf), TA_OK);
        TA_CHECK_EQ(out_clf, fake_oracle_run(&fake_clf, &clf_state, in));
    }
}

/* The region layout each module was given. */
static void check_bindings(const blobs_t *wb, const blobs_t *cb, const unsigned char *scratch)
{
    unsigned char *base = arena_base();
    unsigned r;

    TA_CHECK_EQ(fake_wake.bind_calls, 4);
    TA_CHECK_EQ(fake_clf.bind_calls, 4);
    for (r = 0; r < 4; r++) {
        TA_CHECK(fake_wake.bound[r] != NULL && fake_clf.bound[r] != NULL);
        TA_CHECK(tu_aligned(fake_wake.bound[r], wake_module_desc.alignments[r]));
        TA_CHECK(tu_aligned(fake_clf.bound[r], clf_module_desc.alignments[r]));
        TA_CHECK_EQ(fake_wake.bound_size[r], wake_module_desc.sizes[r]);
        TA_CHECK_EQ(fake_clf.bound_size[r], clf_module_desc.sizes[r]);
    }
    /* scratch: both modules start at the one shared buffer */
    TA_CHECK(fake_wake.bound[0] == scratch);
    TA_CHECK(fake_clf.bound[0] == scratch);
    TA_CHECK((unsigned char *)fake_clf.bound[3] == scratch + 5008);
    /* cold constants: the caller's blobs, as given */
    TA_CHECK(fake_wake.bound[2] == wb->blobs[2]);
    TA_CHECK(fake_clf.bound[2] == cb->blobs[2]);
    /* persistent and staged: persistent blocks at the bottom of the arena,
       one module after the other */
    TA_CHECK((unsigned char *)fake_wake.bound[1] == base);
    TA_CHECK((unsigned char *)fake_wake.bound[3] == base + 1024);
    TA_CHECK((unsigned char *)fake_clf.bound[1] == base + WAKE_PERSIST);
    TA_CHECK(!tu_overlap(fake_wake.bound[1], 1000, fake_clf.bound[1], 700));
    TA_CHECK(!tu_overlap(fake_wake.bound[3], 256, fake_clf.bound[1], 700));
    TA_CHECK(!tu_overlap(fake_wake.bound[1], 1000, fake_wake.bound[3], 256));
    TA_CHECK(!tu_overlap(scratch, SHARED_SCRATCH, base, WAKE_PERSIST + CLF_PERSIST));
}

static void test_requirements(void)
{
    size_t size = 0, align = 0;

    TA_CHECK_EQ(ta_module_scratch_requirement(&wake_module_desc, &size, &align), TA_OK);
    TA_CHECK_EQ(size, 3000);
    TA_CHECK_EQ(align, 16);
    TA_CHECK_EQ(ta_module_scratch_requirement(&clf_module_desc, &size, &align), TA_OK);
    TA_CHECK_EQ(size, SHARED_SCRATCH);
    TA_CHECK_EQ(align, 64);
    TA_CHECK_EQ(ta_modules_scratch_requirement(both, 2, &size, &align), TA_OK);
    TA_CHECK_EQ(size, SHARED_SCRATCH);
    TA_CHECK_EQ(align, 64);
    TA_CHECK_EQ(ta_modules_scratch_requirement(both, 1, &size, &align), TA_OK);
    TA_CHECK_EQ(size, 3000);
    TA_CHECK_EQ(align, 16);
    TA_CHECK_EQ(ta_module_persistent_requirement(&wake_module_desc, &size, &align), TA_OK);
    TA_CHECK_EQ(size, WAKE_PERSIST);
    TA_CHECK_EQ(align, 32);
    TA_CHECK_EQ(ta_module_persistent_requirement(&clf_module_desc, &size, &align), TA_OK);
    TA_CHECK_EQ(size, 700);
    TA_CHECK_EQ(align, 32);
    TA_CHECK_EQ(ta_modules_scratch_requirement(NULL, 2, &size, &align), TA_ERR_BAD_ARGUMENT);
    TA_CHECK_EQ(ta_modules_scratch_requirement(both, 0, &size, &align), TA_ERR_BAD_ARGUMENT);
    TA_CHECK_EQ(ta_module_scratch_requirement(NULL, &size, &align), TA_ERR_BAD_ARGUMENT);
    TA_CHECK_EQ(ta_module_scratch_requirement(&wake_module_desc, NULL, &align),
                TA_ERR_BAD_ARGUMENT);
}

/* Shared scratch from the ephemeral region of an arena with the default pool. */
static void test_two_modules_share_scratch_from_ephemeral(void)
{
    ta_arena_t arena = {0};
    ta_arena_stats_t s;
    blobs_t wb, cb;
    ta_bind_options_t o;
    unsigned char *scratch;
    size_t size = 0;

    fake_reset(&fake_wake);
    fake_reset(&fake_clf);
    load_blobs(&wb, &cb);
    TA_CHECK_EQ(ta_arena_init(&arena, arena_base(), BUF_SIZE), TA_OK);
    scratch = (unsigned char *)ta_arena_alloc_modules_scratch(
        &arena, both, 2, TA_BIND_SCRATCH_FROM_EPHEMERAL, &size);
    TA_CHECK(scratch != NULL);
    TA_CHECK_EQ(size, SHARED_SCRATCH);
    TA_CHECK(tu_aligned(scratch, 64));
    o = options(&wb, scratch, size, TA_BIND_SCRATCH_FROM_POOL);
    TA_CHECK_EQ(ta_arena_bind_module(&arena, &wake_module_desc, &o), TA_OK);
    o = options(&cb, scratch, size, TA_BIND_SCRATCH_FROM_POOL);
    TA_CHECK_EQ(ta_arena_bind_module(&arena, &clf_module_desc, &o), TA_OK);
    check_bindings(&wb, &cb, scratch);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.persistent_used, WAKE_PERSIST + CLF_PERSIST);
    TA_CHECK_EQ(s.ephemeral_used, SHARED_SCRATCH_IN_ARENA);
    TA_CHECK_EQ(s.arena_peak, EXPECTED_PEAK);
    run_both_against_oracle(5);

    /* between inferences: reset, then take the shared scratch first again;
       it lands where it was, so the bindings stay valid */
    ta_arena_reset_ephemeral(&arena);
    TA_CHECK(ta_arena_alloc_modules_scratch(&arena, both, 2, TA_BIND_SCRATCH_FROM_EPHEMERAL,
                                            &size) == scratch);
    {
        fake_oracle_t ws = {{0}}, cs = {{0}};
        int8_t in[FAKE_INPUT_LEN];
        uint32_t out;
        unsigned i;
        /* replay the oracle to where the modules are (5 runs each) */
        for (i = 0; i < 5; i++) {
            make_input(in, i);
            (void)fake_oracle_run(&fake_wake, &ws, in);
            make_input(in, i + 100);
            (void)fake_oracle_run(&fake_clf, &cs, in);
        }
        make_input(in, 77);
        TA_CHECK_EQ(fake_model_run(&fake_clf, in, &out), TA_OK);
        TA_CHECK_EQ(out, fake_oracle_run(&fake_clf, &cs, in));
        TA_CHECK_EQ(fake_model_run(&fake_wake, in, &out), TA_OK);
        TA_CHECK_EQ(out, fake_oracle_run(&fake_wake, &ws, in));
    }
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.arena_peak, EXPECTED_PEAK);
    TU_CHECK_STATS(&arena, BUF_SIZE);
}

/* Shared scratch from the scratch pool of an arena with a larger pool. */
static void test_two_modules_share_scratch_from_pool(void)
{
    ta_arena_t arena = {0};
    ta_arena_stats_t s;
    blobs_t wb, cb;
    ta_bind_options_t o;
    unsigned char *scratch;
    size_t size = 0;

    fake_reset(&fake_wake);
    fake_reset(&fake_clf);
    load_blobs(&wb, &cb);
    TA_CHECK_EQ(ta_arena_init_ex(&arena, arena_base(), BUF_SIZE, 8192, 0), TA_OK);
    scratch = (unsigned char *)ta_arena_alloc_modules_scratch(&arena, both, 2,
                                                              TA_BIND_SCRATCH_FROM_POOL, &size);
    TA_CHECK(scratch == arena_base() + BUF_SIZE - 8192);
    o = options(&wb, scratch, size, TA_BIND_SCRATCH_FROM_POOL);
    TA_CHECK_EQ(ta_arena_bind_module(&arena, &wake_module_desc, &o), TA_OK);
    o = options(&cb, scratch, size, TA_BIND_SCRATCH_FROM_POOL);
    TA_CHECK_EQ(ta_arena_bind_module(&arena, &clf_module_desc, &o), TA_OK);
    check_bindings(&wb, &cb, scratch);
    run_both_against_oracle(4);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.scratch_used, SHARED_SCRATCH_IN_ARENA);
    TA_CHECK_EQ(s.ephemeral_used, 0);
    TA_CHECK_EQ(s.arena_peak, EXPECTED_PEAK);
    TU_CHECK_STATS(&arena, BUF_SIZE);
}

/* The caller's own scratch buffer: the arena holds only persistent state. */
static void test_two_modules_with_caller_scratch(void)
{
    ta_arena_t arena = {0};
    ta_arena_stats_t s;
    blobs_t wb, cb;
    ta_bind_options_t o;
    unsigned char *scratch = tu_align(own_scratch, 64);

    fake_reset(&fake_wake);
    fake_reset(&fake_clf);
    load_blobs(&wb, &cb);
    TA_CHECK_EQ(ta_arena_init(&arena, arena_base(), BUF_SIZE), TA_OK);
    o = options(&wb, scratch, SHARED_SCRATCH, TA_BIND_SCRATCH_FROM_POOL);
    TA_CHECK_EQ(ta_arena_bind_module(&arena, &wake_module_desc, &o), TA_OK);
    o = options(&cb, scratch, SHARED_SCRATCH, TA_BIND_SCRATCH_FROM_POOL);
    TA_CHECK_EQ(ta_arena_bind_module(&arena, &clf_module_desc, &o), TA_OK);
    check_bindings(&wb, &cb, scratch);
    run_both_against_oracle(3);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.arena_peak, WAKE_PERSIST + CLF_PERSIST);
    TA_CHECK_EQ(s.alloc_count, 2);
}

/* Without a shared buffer each bind takes its own scratch from the arena. */
static void test_per_module_scratch_from_arena(void)
{
    ta_arena_t arena = {0};
    ta_arena_stats_t s;
    blobs_t wb, cb;
    ta_bind_options_t o;

    fake_reset(&fake_wake);
    fake_reset(&fake_clf);
    load_blobs(&wb, &cb);
    TA_CHECK_EQ(ta_arena_init(&arena, arena_base(), BUF_SIZE), TA_OK);
    o = options(&wb, NULL, 0, TA_BIND_SCRATCH_FROM_POOL);
    TA_CHECK_EQ(ta_arena_bind_module(&arena, &wake_module_desc, &o), TA_OK);
    o = options(&cb, NULL, 0, TA_BIND_SCRATCH_FROM_EPHEMERAL);
    TA_CHECK_EQ(ta_arena_bind_module(&arena, &clf_module_desc, &o), TA_OK);
    TA_CHECK(fake_wake.bound[0] == arena_base() + BUF_SIZE - TA_ARENA_SCRATCH_POOL_SIZE);
    TA_CHECK(fake_clf.bound[0] != fake_wake.bound[0]);
    TA_CHECK(!tu_overlap(fake_wake.bound[0], 3000, fake_clf.bound[0], SHARED_SCRATCH));
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.scratch_used, 3008);
    TA_CHECK_EQ(s.ephemeral_used, SHARED_SCRATCH_IN_ARENA);
    TA_CHECK_EQ(s.persistent_used, WAKE_PERSIST + CLF_PERSIST);
    run_both_against_oracle(2);
}

static void test_bind_refusals(void)
{
    ta_arena_t arena = {0};
    ta_arena_stats_t before, after;
    blobs_t wb, cb;
    ta_bind_options_t o;
    unsigned char *scratch = tu_align(own_scratch, 64);
    ta_module_desc_t bad;
    size_t bad_aligns[4] = {16, 16, 16, 3};
    unsigned char bad_roles[4] = {0, 1, 2, 7};

    fake_reset(&fake_wake);
    load_blobs(&wb, &cb);
    o = options(&wb, scratch, SHARED_SCRATCH, TA_BIND_SCRATCH_FROM_POOL);
    /* arena not initialized */
    TA_CHECK_EQ(ta_arena_bind_module(&arena, &wake_module_desc, &o), TA_ERR_NOT_INITIALIZED);
    TA_CHECK_EQ(ta_arena_bind_module(NULL, &wake_module_desc, &o), TA_ERR_NOT_INITIALIZED);
    TA_CHECK(ta_arena_alloc_modules_scratch(&arena, both, 2, TA_BIND_SCRATCH_FROM_POOL, NULL) ==
             NULL);
    TA_CHECK_EQ(ta_arena_init(&arena, arena_base(), BUF_SIZE), TA_OK);
    ta_arena_set_log(&arena, NULL, NULL);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &before), TA_OK);

    /* malformed descriptors */
    TA_CHECK_EQ(ta_arena_bind_module(&arena, NULL, &o), TA_ERR_BAD_ARGUMENT);
    bad = wake_module_desc;
    bad.bind_arena = NULL;
    TA_CHECK_EQ(ta_arena_bind_module(&arena, &bad, &o), TA_ERR_BAD_ARGUMENT);
    bad = wake_module_desc;
    bad.alignments = bad_aligns;
    TA_CHECK_EQ(ta_arena_bind_module(&arena, &bad, &o), TA_ERR_BAD_ARGUMENT);
    bad = wake_module_desc;
    bad.roles = bad_roles;
    TA_CHECK_EQ(ta_arena_bind_module(&arena, &bad, &o), TA_ERR_BAD_ARGUMENT);
    bad = wake_module_desc;
    bad.sizes = NULL;
    TA_CHECK_EQ(ta_arena_bind_module(&arena, &bad, &o), TA_ERR_BAD_ARGUMENT);

    /* cold constant blobs: missing, short, misaligned */
    o.const_blobs = NULL;
    TA_CHECK_EQ(ta_arena_bind_module(&arena, &wake_module_desc, &o), TA_ERR_NULL_BUFFER);
    TA_CHECK_EQ(ta_arena_bind_module(&arena, &wake_module_desc, NULL), TA_ERR_NULL_BUFFER);
    o = options(&wb, scratch, SHARED_SCRATCH, TA_BIND_SCRATCH_FROM_POOL);
    wb.blobs[2] = NULL;
    TA_CHECK_EQ(ta_arena_bind_module(&arena, &wake_module_desc, &o), TA_ERR_NULL_BUFFER);
    load_blobs(&wb, &cb);
    wb.blob_sizes[2] = 511;
    TA_CHECK_EQ(ta_arena_bind_module(&arena, &wake_module_desc, &o), TA_ERR_BUFFER_TOO_SMALL);
    load_blobs(&wb, &cb);
    wb.blobs[2] = (const unsigned char *)wb.blobs[2] + 8;
    TA_CHECK_EQ(ta_arena_bind_module(&arena, &wake_module_desc, &o), TA_ERR_MISALIGNED_BUFFER);
    load_blobs(&wb, &cb);

    /* the caller's scratch buffer: short, misaligned; a bad source */
    o = options(&cb, scratch, SHARED_SCRATCH - 1, TA_BIND_SCRATCH_FROM_POOL);
    TA_CHECK_EQ(ta_arena_bind_module(&arena, &clf_module_desc, &o), TA_ERR_BUFFER_TOO_SMALL);
    o = options(&cb, scratch + 32, SHARED_SCRATCH, TA_BIND_SCRATCH_FROM_POOL);
    TA_CHECK_EQ(ta_arena_bind_module(&arena, &clf_module_desc, &o), TA_ERR_MISALIGNED_BUFFER);
    o = options(&cb, NULL, 0, (ta_bind_scratch_source_t)5);
    TA_CHECK_EQ(ta_arena_bind_module(&arena, &clf_module_desc, &o), TA_ERR_BAD_ARGUMENT);
    TA_CHECK(ta_arena_alloc_modules_scratch(&arena, both, 2, (ta_bind_scratch_source_t)5, NULL) ==
             NULL);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_BAD_ARGUMENT);
    /* clf's 5108 B of scratch do not fit the default pool */
    o = options(&cb, NULL, 0, TA_BIND_SCRATCH_FROM_POOL);
    if (TA_ARENA_SCRATCH_POOL_SIZE < SHARED_SCRATCH) {
        TA_CHECK_EQ(ta_arena_bind_module(&arena, &clf_module_desc, &o), TA_ERR_ARENA_EXHAUSTED);
    }

    /* none of that took memory or reached the module */
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &after), TA_OK);
    TA_CHECK_EQ(after.arena_used, before.arena_used);
    TA_CHECK_EQ(fake_wake.bind_calls, 0);
    TU_CHECK_STATS(&arena, BUF_SIZE);
}

/* No room for the persistent block: the scratch taken first is given back. */
static void test_bind_exhaustion_rolls_back(void)
{
    ta_arena_t arena = {0};
    ta_arena_stats_t s;
    blobs_t wb, cb;
    ta_bind_options_t o;

    fake_reset(&fake_wake);
    load_blobs(&wb, &cb);
    /* 1024 B of tensor area: wake's 3000 B scratch fits in an 4096 B pool
       but its 1280 B persistent block does not fit */
    TA_CHECK_EQ(ta_arena_init_ex(&arena, arena_base(), 1024 + 4096, 4096, 0), TA_OK);
    ta_arena_set_log(&arena, NULL, NULL);
    o = options(&wb, NULL, 0, TA_BIND_SCRATCH_FROM_POOL);
    TA_CHECK_EQ(ta_arena_bind_module(&arena, &wake_module_desc, &o), TA_ERR_ARENA_EXHAUSTED);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_ARENA_EXHAUSTED);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.arena_used, 0);
    TA_CHECK_EQ(fake_wake.bind_calls, 0);
    TA_CHECK_EQ(fake_model_init(&fake_wake), TA_ERR_UNBOUND_REGION);
    {
        uint32_t out;
        int8_t in[FAKE_INPUT_LEN] = {0};
        TA_CHECK_EQ(fake_model_run(&fake_wake, in, &out), TA_ERR_NOT_INITIALIZED);
    }
}

/* A module's own bind refusal comes back, and the arena is rolled back. */
static void test_module_refusal_is_returned(void)
{
    ta_arena_t arena = {0};
    ta_arena_stats_t s;
    blobs_t wb, cb;
    ta_bind_options_t o;

    fake_reset(&fake_wake);
    load_blobs(&wb, &cb);
    TA_CHECK_EQ(ta_arena_init(&arena, arena_base(), BUF_SIZE), TA_OK);
    fake_wake.fail_region = 3;
    fake_wake.fail_status = TA_ERR_UNKNOWN_REGION;
    o = options(&wb, NULL, 0, TA_BIND_SCRATCH_FROM_EPHEMERAL);
    TA_CHECK_EQ(ta_arena_bind_module(&arena, &wake_module_desc, &o), TA_ERR_UNKNOWN_REGION);
    TA_CHECK_EQ(fake_wake.bind_calls, 4);
    TA_CHECK_EQ(ta_arena_get_stats(&arena, &s), TA_OK);
    TA_CHECK_EQ(s.arena_used, 0);
    TA_CHECK_EQ(ta_arena_last_status(&arena), TA_ERR_UNKNOWN_REGION);
    /* bound again without the fault, it works */
    fake_wake.fail_region = -1;
    TA_CHECK_EQ(ta_arena_bind_module(&arena, &wake_module_desc, &o), TA_OK);
    TA_CHECK_EQ(fake_model_init(&fake_wake), TA_OK);
}

/* Regions of size 0 still get a valid aligned pointer. */
static int empty_calls;
static int empty_bind(int region, void *buffer, size_t size)
{
    (void)region;
    if (buffer == NULL || size != 0 || ((uintptr_t)buffer & 15u) != 0) {
        return TA_ERR_BAD_ARGUMENT;
    }
    empty_calls++;
    return TA_OK;
}

static void test_empty_regions(void)
{
    static const size_t sizes[] = {0, 0};
    static const size_t aligns[] = {16, 16};
    static const unsigned char roles[] = {TA_REGION_SCRATCH, TA_REGION_PERSISTENT};
    static const ta_module_desc_t empty = {"empty", 2,    sizes, aligns,
                                           roles,   NULL, NULL,  empty_bind};
    ta_arena_t arena = {0};

    TA_CHECK_EQ(ta_arena_init(&arena, arena_base(), BUF_SIZE), TA_OK);
    TA_CHECK_EQ(ta_arena_bind_module(&arena, &empty, NULL), TA_OK);
    TA_CHECK_EQ(empty_calls, 2);
}

static const ta_test_case_t cases[] = {
    {"requirements", test_requirements},
    {"two_modules_share_scratch_from_ephemeral", test_two_modules_share_scratch_from_ephemeral},
    {"two_modules_share_scratch_from_pool", test_two_modules_share_scratch_from_pool},
    {"two_modules_with_caller_scratch", test_two_modules_with_caller_scratch},
    {"per_module_scratch_from_arena", test_per_module_scratch_from_arena},
    {"bind_refusals", test_bind_refusals},
    {"bind_exhaustion_rolls_back", test_bind_exhaustion_rolls_back},
    {"module_refusal_is_returned", test_module_refusal_is_returned},
    {"empty_regions", test_empty_regions},
};

const ta_test_suite_t ta_suite_arena_bind = {"arena_bind", cases, TA_ARRAY_LEN(cases)};

TA_TEST_MAIN(ta_suite_arena_bind)
