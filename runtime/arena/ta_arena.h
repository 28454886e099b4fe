/*
 * ta_arena.h - the runtime tensor arena: a tensor memory manager for
 * firmware that never calls malloc.
 *
 * An arena manages one buffer the caller owns. Allocation is by bumping
 * pointers; memory comes back only in bulk, never one block at a time:
 *
 *   lower addresses                                      higher addresses
 *   +---------------+-------------------+---------------+----------------+
 *   | persistent -> |       free        | <- ephemeral  |  scratch pool  |
 *   +---------------+-------------------+---------------+----------------+
 *   ^ base (aligned up)                                 ^ pool      end ^
 *
 * - persistent blocks grow up from the base and live until the next init;
 * - ephemeral blocks grow down from the scratch pool toward the persistent
 *   ones; ta_arena_reset_ephemeral() drops all of them at once, in O(1);
 * - the scratch pool (TA_ARENA_SCRATCH_POOL_SIZE bytes by default) sits at
 *   the top; it is also emptied by ta_arena_reset_ephemeral();
 * - SHARED tensors come from a second buffer registered with
 *   ta_arena_set_shared_region() and are untouched by the reset.
 * The persistent and ephemeral regions meet in the middle and can never
 * cross, whatever the order of the calls. Every block starts at a multiple
 * of the arena's alignment (16 bytes by default).
 *
 * The arena is an object the caller owns (static storage or `= {0}`), so a
 * program can hold several. It does no locking: serialize the calls made on
 * one arena. Do not copy a ta_arena_t: a copy is treated as uninitialized.
 *
 * Functions that return a pointer return NULL on failure; the reason is
 * logged through the arena's log hook and kept for ta_arena_last_status().
 * Functions that return int return a status: TA_OK (0) or a TA_ERR_ code
 * from ta_status.h or below.
 */
#ifndef TA_ARENA_H
#define TA_ARENA_H

#include <stddef.h>
#include <stdint.h>

#include "ta_arena_config.h"
#include "ta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The element types a tensor can hold. */
typedef enum {
    TA_DTYPE_INT8 = 0,
    TA_DTYPE_UINT8 = 1,
    TA_DTYPE_INT16 = 2,
    TA_DTYPE_FLOAT16 = 3,
    TA_DTYPE_FLOAT32 = 4
} ta_dtype_t;

/* How long a block lives. */
typedef enum {
    TA_LIFETIME_PERSISTENT = 0, /* until the arena is initialized again */
    TA_LIFETIME_EPHEMERAL = 1,  /* until the next ta_arena_reset_ephemeral() */
    TA_LIFETIME_SHARED = 2      /* in the registered shared region, until it is
                                   registered again or ta_arena_reset_shared() */
} ta_lifetime_t;

#define TA_TENSOR_MAX_DIMS 4

/* A tensor descriptor. */
typedef struct ta_tensor {
    void *data;                         /* first byte of the tensor's data */
    size_t size;                        /* bytes of data: elements x element size */
    ta_dtype_t dtype;                   /* element type */
    uint8_t ndim;                       /* dimensions used, 1..TA_TENSOR_MAX_DIMS */
    uint32_t shape[TA_TENSOR_MAX_DIMS]; /* [batch, height, width, channels];
                                            entries past ndim are 0 */
    ta_lifetime_t lifetime;             /* where the block came from */
} ta_tensor_t;

/*
 * Statistics. They add up at every moment:
 *   arena_used = persistent_used + ephemeral_used + scratch_used
 *   arena_free = tensor_free + (scratch_total - scratch_used)
 *   arena_used + arena_free = arena_total
 *   arena_total + align_lost = the size passed to init
 * Alignment padding inside the arena is counted in the region it belongs to.
 */
typedef struct ta_arena_stats {
    size_t arena_total;     /* bytes managed: aligned base to aligned end,
                               scratch pool included */
    size_t arena_used;      /* bytes allocated now, in all three regions */
    size_t arena_free;      /* bytes not allocated, in all three regions */
    size_t arena_peak;      /* highest arena_used since init */
    size_t persistent_used; /* bytes of the persistent region */
    size_t ephemeral_used;  /* bytes of the ephemeral region */
    size_t tensor_free;     /* gap between the persistent and ephemeral regions */
    size_t scratch_total;   /* bytes of the scratch pool */
    size_t scratch_used;    /* bytes acquired from the scratch pool now */
    size_t scratch_peak;    /* highest scratch_used since init */
    size_t shared_total;    /* bytes of the registered shared region (0: none) */
    size_t shared_used;     /* bytes allocated from the shared region */
    size_t align_lost;      /* bytes of the caller's buffer left out to align
                               the base up and the end down */
    size_t alignment;       /* alignment of every block */
    uint32_t alloc_count;   /* successful allocations since init (tensors,
                               blocks and scratch) */
    uint32_t reset_count;   /* ta_arena_reset_ephemeral() calls since init */
    uint32_t failed_count;  /* allocations refused since init */
} ta_arena_stats_t;

/* A log sink: receives one line, without a trailing newline. */
typedef void (*ta_arena_log_fn)(void *user, const char *line);

/*
 * The arena object. Its fields are private to ta_arena.c: read the arena
 * through the functions below.
 */
typedef struct ta_arena {
    uintptr_t check;            /* TA_ARENA_CHECK ^ address of this object */
    unsigned char *base;        /* aligned base */
    unsigned char *persist_top; /* first byte above the persistent region */
    unsigned char *eph_bottom;  /* first byte of the ephemeral region */
    unsigned char *pool;        /* first byte of the scratch pool */
    unsigned char *pool_top;    /* first free byte of the scratch pool */
    unsigned char *end;         /* one past the last managed byte */
    unsigned char *shared_base; /* registered shared region, or NULL */
    unsigned char *shared_top;
    unsigned char *shared_end;
    size_t alignment;
    size_t align_lost;
    size_t peak;
    size_t scratch_peak;
    uint32_t alloc_count;
    uint32_t reset_count;
    uint32_t failed_count;
    uint32_t shared_gen; /* bumped when the shared region is emptied */
    int last_status;
    const char *name;
    ta_arena_log_fn log_fn;
    void *log_user;
} ta_arena_t;

/* A position to roll back to; see ta_arena_get_mark(). */
typedef struct ta_arena_mark {
    unsigned char *persist_top;
    unsigned char *eph_bottom;
    unsigned char *pool_top;
    unsigned char *shared_top;
    uint32_t reset_count;
    uint32_t shared_gen;
} ta_arena_mark_t;

/* ---- set-up ------------------------------------------------------------ */

/*
 * Sets up `arena` over [base, base + size) with the build-time scratch pool
 * size and alignment. The base is aligned up and the end down; the bytes
 * left out are reported as align_lost. Fails with TA_ERR_BAD_ARGUMENT if
 * arena or base is NULL, size is 0, or the aligned buffer is not larger than
 * the scratch pool. A failed init leaves the arena uninitialized.
 */
int ta_arena_init(ta_arena_t *arena, void *base, size_t size);

/*
 * ta_arena_init() with an explicit scratch pool size (0 for none; rounded up
 * to the alignment) and alignment (a power of two, at least 16; 0 selects
 * TA_ARENA_ALIGNMENT).
 */
int ta_arena_init_ex(ta_arena_t *arena, void *base, size_t size, size_t scratch_size,
                     size_t alignment);

/* 1 if `arena` was initialized successfully (and not copied), else 0. */
int ta_arena_is_initialized(const ta_arena_t *arena);

/* A name for log lines ("arena" by default). The string is not copied. */
void ta_arena_set_name(ta_arena_t *arena, const char *name);

/*
 * Replaces the arena's log hook; NULL silences it. init installs the default
 * hook (stdout when TA_ARENA_LOG_STDIO is 1, otherwise a no-op), so call
 * this, and ta_arena_set_name(), after init; on an arena that is not
 * initialized both do nothing.
 */
void ta_arena_set_log(ta_arena_t *arena, ta_arena_log_fn fn, void *user);

/*
 * Registers [base, base + size) as the region SHARED tensors come from
 * (base aligned up, end down), replacing and emptying any previous one.
 * base NULL with size 0 unregisters. The region may not overlap the arena.
 */
int ta_arena_set_shared_region(ta_arena_t *arena, void *base, size_t size);

/* Empties the shared region (it stays registered). */
void ta_arena_reset_shared(ta_arena_t *arena);

/* ---- allocation -------------------------------------------------------- */

/*
 * Allocates a descriptor and its data as one block of the arena's alignment
 * in the region named by `lifetime`, and fills the descriptor in. NULL if
 * the arena is not initialized, shape is NULL, ndim is 0 or above
 * TA_TENSOR_MAX_DIMS, dtype or lifetime is unknown, the size overflows,
 * SHARED is asked with no shared region, or there is no room.
 */
ta_tensor_t *ta_tensor_alloc(ta_arena_t *arena, const uint32_t *shape, uint8_t ndim,
                             ta_dtype_t dtype, ta_lifetime_t lifetime);

/* Does nothing: blocks are reclaimed only in bulk. */
void ta_tensor_free(ta_arena_t *arena, ta_tensor_t *tensor);

/*
 * Fills a caller-owned descriptor's size, dtype, ndim and shape, leaving
 * data and lifetime alone. TA_ERR_BAD_ARGUMENT on NULL arguments, bad ndim
 * or dtype; TA_ERR_ARENA_OVERFLOW if the byte size overflows size_t.
 */
int ta_tensor_init(ta_tensor_t *tensor, const uint32_t *shape, uint8_t ndim, ta_dtype_t dtype);

/* Bytes per element of `dtype`; 0 for an unknown type. */
size_t ta_dtype_size(ta_dtype_t dtype);

/*
 * Allocates `size` bytes (size > 0) in the region named by `lifetime`,
 * aligned to the larger of `alignment` (0 or a power of two) and the
 * arena's alignment.
 */
void *ta_arena_alloc(ta_arena_t *arena, size_t size, size_t alignment, ta_lifetime_t lifetime);

/* Takes `size` bytes (size > 0) from the scratch pool. */
void *ta_arena_scratch_acquire(ta_arena_t *arena, size_t size);

/* ta_arena_scratch_acquire() with a stronger alignment (0 or a power of 2). */
void *ta_arena_scratch_acquire_aligned(ta_arena_t *arena, size_t size, size_t alignment);

/* Does nothing: the pool is emptied by ta_arena_reset_ephemeral(). */
void ta_arena_scratch_release(ta_arena_t *arena, void *ptr);

/*
 * Drops every ephemeral block and empties the scratch pool, in O(1), and
 * counts a reset. Persistent and shared blocks are untouched.
 */
void ta_arena_reset_ephemeral(ta_arena_t *arena);

/*
 * Records the current top of each region, so that blocks allocated after it
 * can be dropped together with ta_arena_rollback().
 */
int ta_arena_get_mark(const ta_arena_t *arena, ta_arena_mark_t *mark);

/*
 * Drops every block allocated after `mark` was taken. A region that was
 * reset (or re-registered) since then is left as it is. Statistics other
 * than the usage figures (peaks, counters) are not rolled back.
 */
int ta_arena_rollback(ta_arena_t *arena, const ta_arena_mark_t *mark);

/* ---- inspection -------------------------------------------------------- */

/* Copies the statistics. TA_ERR_BAD_ARGUMENT, TA_ERR_NOT_INITIALIZED. */
int ta_arena_get_stats(const ta_arena_t *arena, ta_arena_stats_t *stats);

/* Logs one line summing the statistics up through the arena's log hook. */
void ta_arena_print_stats(const ta_arena_t *arena);

/*
 * Status of the most recent call on `arena` that can fail (an allocation,
 * a registration, a rollback): TA_OK after a success.
 */
int ta_arena_last_status(const ta_arena_t *arena);

/* A short name for any status the arena returns. */
const char *ta_arena_status_name(int status);

#ifdef __cplusplus
}
#endif

#endif /* TA_ARENA_H */
