/*
 * syn_mem.c - the specification's syn_mem_* functions over one default
 * arena object.
 */
#include "syn_mem.h"

static ta_arena_t syn_mem_default_arena; /* zeroed: not initialized */

ta_arena_t *syn_mem_arena(void)
{
    return &syn_mem_default_arena;
}

int syn_mem_init(void *arena_base, size_t arena_size)
{
    int status = ta_arena_init(&syn_mem_default_arena, arena_base, arena_size);
    if (status != TA_OK) {
        return -EINVAL;
    }
    ta_arena_set_name(&syn_mem_default_arena, "syn_mem");
    return 0;
}

void syn_mem_reset_ephemeral(void)
{
    ta_arena_reset_ephemeral(&syn_mem_default_arena);
}

syn_tensor_t *syn_mem_tensor_alloc(const uint32_t *shape, uint8_t ndim, syn_npu_dtype_t dtype,
                                   syn_mem_lifetime_t lifetime)
{
    return ta_tensor_alloc(&syn_mem_default_arena, shape, ndim, dtype, lifetime);
}

void syn_mem_tensor_free(syn_tensor_t *tensor)
{
    ta_tensor_free(&syn_mem_default_arena, tensor);
}

int syn_mem_tensor_init(syn_tensor_t *tensor, const uint32_t *shape, uint8_t ndim,
                        syn_npu_dtype_t dtype)
{
    return ta_tensor_init(tensor, shape, ndim, dtype) == TA_OK ? 0 : -EINVAL;
}

void *syn_mem_scratch_acquire(size_t size)
{
    return ta_arena_scratch_acquire(&syn_mem_default_arena, size);
}

void syn_mem_scratch_release(void *ptr)
{
    ta_arena_scratch_release(&syn_mem_default_arena, ptr);
}

int syn_mem_get_stats(syn_mem_stats_t *stats)
{
    ta_arena_stats_t s;

    if (stats == NULL || ta_arena_get_stats(&syn_mem_default_arena, &s) != TA_OK) {
        return -EINVAL;
    }
    stats->arena_total = s.arena_total;
    stats->arena_used = s.arena_used;
    stats->arena_peak = s.arena_peak;
    stats->scratch_total = s.scratch_total;
    stats->scratch_used = s.scratch_used;
    stats->alloc_count = s.alloc_count;
    stats->reset_count = s.reset_count;
    return 0;
}

void syn_mem_print_stats(void)
{
    ta_arena_print_stats(&syn_mem_default_arena);
}
