/*
 * ta_arena_naive.c - the specification's bump allocator taken literally,
 * behind the ta_arena.h names, as the control for the improvement tests.
 *
 * It is deliberately what tensor-arena-api.txt describes and nothing more:
 * one static state (the arena object passed in is ignored), one bump offset
 * shared by persistent and ephemeral blocks with the reset rewinding it to
 * where the first ephemeral block went, offsets aligned but not the base,
 * size arithmetic without overflow checks, SHARED blocks taken from the same
 * bump pointer, and a usage figure that leaves the scratch pool out.
 * Test-only code: never link it into anything else.
 */
#include "ta_arena.h"

static struct {
    int initialized;
    unsigned char *base;
    size_t size;
    size_t offset;    /* next free byte of [0, size - pool) */
    size_t eph_start; /* where the first ephemeral block went */
    int eph_started;
    size_t scratch_off; /* next free byte of the pool */
    size_t peak;
    uint32_t allocs;
    uint32_t resets;
} g;

#define POOL ((size_t)TA_ARENA_SCRATCH_POOL_SIZE)
#define ALIGN16(n) (((n) + 15u) & ~(size_t)15u)

int ta_arena_init(ta_arena_t *arena, void *base, size_t size)
{
    (void)arena;
    if (base == NULL || size == 0 || size <= POOL) {
        return TA_ERR_BAD_ARGUMENT;
    }
    g.initialized = 1;
    g.base = (unsigned char *)base;
    g.size = size;
    g.offset = 0;
    g.eph_start = 0;
    g.eph_started = 0;
    g.scratch_off = 0;
    g.peak = 0;
    g.allocs = 0;
    g.resets = 0;
    return TA_OK;
}

int ta_arena_is_initialized(const ta_arena_t *arena)
{
    (void)arena;
    return g.initialized;
}

void ta_arena_set_log(ta_arena_t *arena, ta_arena_log_fn fn, void *user)
{
    (void)arena;
    (void)fn;
    (void)user;
}

int ta_arena_set_shared_region(ta_arena_t *arena, void *base, size_t size)
{
    (void)arena;
    (void)base;
    (void)size;
    return TA_OK; /* the specification has no shared region */
}

size_t ta_dtype_size(ta_dtype_t dtype)
{
    switch (dtype) {
    case TA_DTYPE_INT8:
    case TA_DTYPE_UINT8: return 1;
    case TA_DTYPE_INT16:
    case TA_DTYPE_FLOAT16: return 2;
    case TA_DTYPE_FLOAT32: return 4;
    default: return 0;
    }
}

int ta_tensor_init(ta_tensor_t *tensor, const uint32_t *shape, uint8_t ndim, ta_dtype_t dtype)
{
    size_t count = 1;
    unsigned i;
    if (tensor == NULL || shape == NULL || ndim == 0 || ndim > 4) {
        return TA_ERR_BAD_ARGUMENT;
    }
    for (i = 0; i < 4; i++) {
        tensor->shape[i] = i < ndim ? shape[i] : 0;
        if (i < ndim) {
            count *= shape[i];
        }
    }
    tensor->size = count * ta_dtype_size(dtype);
    tensor->dtype = dtype;
    tensor->ndim = ndim;
    return TA_OK;
}

ta_tensor_t *ta_tensor_alloc(ta_arena_t *arena, const uint32_t *shape, uint8_t ndim,
                             ta_dtype_t dtype, ta_lifetime_t lifetime)
{
    ta_tensor_t tmp, *t;
    size_t total;
    (void)arena;
    if (!g.initialized || ta_tensor_init(&tmp, shape, ndim, dtype) != TA_OK) {
        return NULL;
    }
    total = ALIGN16(sizeof(ta_tensor_t)) + ALIGN16(tmp.size);
    if (g.offset + total > g.size - POOL) {
        return NULL;
    }
    if (lifetime != TA_LIFETIME_PERSISTENT && !g.eph_started) {
        g.eph_start = g.offset;
        g.eph_started = 1;
    }
    t = (ta_tensor_t *)(void *)(g.base + g.offset);
    *t = tmp;
    t->data = g.base + g.offset + ALIGN16(sizeof(ta_tensor_t));
    t->lifetime = lifetime;
    g.offset += total;
    if (g.offset > g.peak) {
        g.peak = g.offset;
    }
    g.allocs++;
    return t;
}

void *ta_arena_scratch_acquire(ta_arena_t *arena, size_t size)
{
    void *p;
    (void)arena;
    if (!g.initialized || size == 0 || g.scratch_off + ALIGN16(size) > POOL) {
        return NULL;
    }
    p = g.base + (g.size - POOL) + g.scratch_off;
    g.scratch_off += ALIGN16(size);
    g.allocs++;
    return p;
}

void ta_arena_reset_ephemeral(ta_arena_t *arena)
{
    (void)arena;
    if (!g.initialized) {
        return;
    }
    if (g.eph_started) {
        g.offset = g.eph_start;
    }
    g.scratch_off = 0;
    g.resets++;
}

int ta_arena_get_stats(const ta_arena_t *arena, ta_arena_stats_t *stats)
{
    (void)arena;
    if (stats == NULL || !g.initialized) {
        return TA_ERR_BAD_ARGUMENT;
    }
    stats->arena_total = g.size;
    stats->arena_used = g.offset;
    stats->arena_free = g.size - g.offset;
    stats->arena_peak = g.peak;
    stats->persistent_used = g.eph_started ? g.eph_start : g.offset;
    stats->ephemeral_used = g.offset - stats->persistent_used;
    stats->tensor_free = g.size - POOL - g.offset;
    stats->scratch_total = POOL;
    stats->scratch_used = g.scratch_off;
    stats->scratch_peak = g.scratch_off;
    stats->shared_total = 0;
    stats->shared_used = 0;
    stats->align_lost = 0;
    stats->alignment = 16;
    stats->alloc_count = g.allocs;
    stats->reset_count = g.resets;
    stats->failed_count = 0;
    return TA_OK;
}

int ta_arena_last_status(const ta_arena_t *arena)
{
    (void)arena;
    return TA_OK;
}
