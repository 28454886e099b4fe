/*
 * syn_mem.h - compatibility header: the tensor memory manager API of the
 * specification (tensor-arena-api.txt), with its exact names, implemented
 * over one default ta_arena_t object (syn_mem.c).
 *
 * Code written against that API builds unchanged. The differences are the
 * runtime tensor arena's deliberate improvements (see README.md in this
 * directory) and three readings of prototypes the specification prints
 * garbled:
 *   - syn_mem_tensor_alloc() returns `syn_tensor_t *` (the specification's
 *     table says `syn_tensor_t`, its usage example and its "NULL on failure"
 *     need a pointer);
 *   - `shape` is `const uint32_t *` in syn_mem_tensor_alloc() and
 *     syn_mem_tensor_init() (the table says `const uint32_t`);
 *   - syn_mem_tensor_init() takes `syn_tensor_t *` (a descriptor passed by
 *     value could not be filled in).
 * Status returns are 0 or -EINVAL as specified; pointer returns are NULL on
 * failure.
 */
#ifndef SYN_MEM_H
#define SYN_MEM_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "syn_hal_npu.h"
#include "ta_arena.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef CONFIG_SYNAPTIC_SCRATCH_POOL_SIZE
#define CONFIG_SYNAPTIC_SCRATCH_POOL_SIZE TA_ARENA_SCRATCH_POOL_SIZE
#endif
#ifndef CONFIG_SYNAPTIC_TENSOR_ARENA_SIZE
#define CONFIG_SYNAPTIC_TENSOR_ARENA_SIZE TA_ARENA_DEFAULT_SIZE
#endif

/* Lifetime classes: the same type as ta_lifetime_t. */
typedef ta_lifetime_t syn_mem_lifetime_t;
#define SYN_MEM_PERSISTENT TA_LIFETIME_PERSISTENT
#define SYN_MEM_EPHEMERAL TA_LIFETIME_EPHEMERAL
#define SYN_MEM_SHARED TA_LIFETIME_SHARED

/* The descriptor: data, size, dtype, ndim, shape[4], lifetime. */
typedef ta_tensor_t syn_tensor_t;

/* The statistics the specification lists, and only those. */
typedef struct {
    size_t arena_total;   /* bytes managed, scratch pool included */
    size_t arena_used;    /* persistent + ephemeral + scratch in use */
    size_t arena_peak;    /* highest arena_used since init */
    size_t scratch_total; /* bytes of the scratch pool */
    size_t scratch_used;  /* bytes of it in use */
    uint32_t alloc_count; /* allocations since init */
    uint32_t reset_count; /* ephemeral resets since init */
} syn_mem_stats_t;

int syn_mem_init(void *arena_base, size_t arena_size);
void syn_mem_reset_ephemeral(void);
syn_tensor_t *syn_mem_tensor_alloc(const uint32_t *shape, uint8_t ndim, syn_npu_dtype_t dtype,
                                   syn_mem_lifetime_t lifetime);
void syn_mem_tensor_free(syn_tensor_t *tensor);
int syn_mem_tensor_init(syn_tensor_t *tensor, const uint32_t *shape, uint8_t ndim,
                        syn_npu_dtype_t dtype);
void *syn_mem_scratch_acquire(size_t size);
void syn_mem_scratch_release(void *ptr);
int syn_mem_get_stats(syn_mem_stats_t *stats);
void syn_mem_print_stats(void);

/* ---- additions (not in the specification) ---------------------------- */

/*
 * The arena object behind the functions above, to reach the rest of the
 * ta_arena API: ta_arena_set_log(), ta_arena_set_shared_region(), ...
 */
ta_arena_t *syn_mem_arena(void);

/*
 * syn_mem_init() over a static buffer of CONFIG_SYNAPTIC_TENSOR_ARENA_SIZE
 * bytes, which is linked in only by programs that call this function.
 */
int syn_mem_init_default(void);

#ifdef __cplusplus
}
#endif

#endif /* SYN_MEM_H */
