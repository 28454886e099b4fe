/*
 * ta_arena_config.h - build-time settings of the runtime tensor arena.
 *
 * Every setting has a default and can be overridden on the compiler command
 * line (-DNAME=VALUE). Out-of-range values stop the build with #error, so a
 * bad setting never turns into a run-time surprise. Use the same settings
 * for the library and for the code that includes its headers.
 *
 *   TA_ARENA_SCRATCH_POOL_SIZE  bytes reserved for the scratch pool at the top
 *                               of an arena set up by ta_arena_init();
 *                               1024..65536, default 4096.
 *                               CONFIG_SYNAPTIC_SCRATCH_POOL_SIZE is accepted
 *                               as another name for it.
 *   TA_ARENA_DEFAULT_SIZE       size of the default arena buffer (the
 *                               compatibility layer's syn_mem_init_default());
 *                               4096..524288, default 65536, and larger than
 *                               the scratch pool.
 *                               CONFIG_SYNAPTIC_TENSOR_ARENA_SIZE is accepted
 *                               as another name for it.
 *   TA_ARENA_ALIGNMENT          alignment of every allocation made by
 *                               ta_arena_init() arenas; a power of two,
 *                               16..4096, default 16. Raise it for DMA
 *                               engines or cache lines (e.g. 32 or 64).
 *   TA_ARENA_LOG_STDIO          1: an arena's default log hook writes each
 *                               line to stdout; 0: the default hook drops
 *                               lines (the application installs its own with
 *                               ta_arena_set_log()). Defaults to 1 on hosted
 *                               builds for an operating system, 0 otherwise
 *                               (bare metal), so no stdio is linked there.
 */
#ifndef TA_ARENA_CONFIG_H
#define TA_ARENA_CONFIG_H

/* ---- scratch pool size ---------------------------------------------- */
#if defined(CONFIG_SYNAPTIC_SCRATCH_POOL_SIZE)
#if defined(TA_ARENA_SCRATCH_POOL_SIZE)
#if (TA_ARENA_SCRATCH_POOL_SIZE) != (CONFIG_SYNAPTIC_SCRATCH_POOL_SIZE)
#error "TA_ARENA_SCRATCH_POOL_SIZE and CONFIG_SYNAPTIC_SCRATCH_POOL_SIZE disagree"
#endif
#else
#define TA_ARENA_SCRATCH_POOL_SIZE CONFIG_SYNAPTIC_SCRATCH_POOL_SIZE
#endif
#endif
#ifndef TA_ARENA_SCRATCH_POOL_SIZE
#define TA_ARENA_SCRATCH_POOL_SIZE 4096
#endif
#if (TA_ARENA_SCRATCH_POOL_SIZE) < 1024 || (TA_ARENA_SCRATCH_POOL_SIZE) > 65536
#error \
    "TA_ARENA_SCRATCH_POOL_SIZE (CONFIG_SYNAPTIC_SCRATCH_POOL_SIZE) must be in the range 1024..65536"
#endif

/* ---- default arena size --------------------------------------------- */
#if defined(CONFIG_SYNAPTIC_TENSOR_ARENA_SIZE)
#if defined(TA_ARENA_DEFAULT_SIZE)
#if (TA_ARENA_DEFAULT_SIZE) != (CONFIG_SYNAPTIC_TENSOR_ARENA_SIZE)
#error "TA_ARENA_DEFAULT_SIZE and CONFIG_SYNAPTIC_TENSOR_ARENA_SIZE disagree"
#endif
#else
#define TA_ARENA_DEFAULT_SIZE CONFIG_SYNAPTIC_TENSOR_ARENA_SIZE
#endif
#endif
#ifndef TA_ARENA_DEFAULT_SIZE
#define TA_ARENA_DEFAULT_SIZE 65536
#endif
#if (TA_ARENA_DEFAULT_SIZE) < 4096 || (TA_ARENA_DEFAULT_SIZE) > 524288
#error "TA_ARENA_DEFAULT_SIZE (CONFIG_SYNAPTIC_TENSOR_ARENA_SIZE) must be in the range 4096..524288"
#endif
#if (TA_ARENA_DEFAULT_SIZE) <= (TA_ARENA_SCRATCH_POOL_SIZE)
#error "TA_ARENA_DEFAULT_SIZE must be larger than TA_ARENA_SCRATCH_POOL_SIZE"
#endif

/* ---- allocation alignment ------------------------------------------- */
#ifndef TA_ARENA_ALIGNMENT
#define TA_ARENA_ALIGNMENT 16
#endif
#if (TA_ARENA_ALIGNMENT) < 16 || (TA_ARENA_ALIGNMENT) > 4096 || \
    ((TA_ARENA_ALIGNMENT) & ((TA_ARENA_ALIGNMENT)-1)) != 0
#error "TA_ARENA_ALIGNMENT must be a power of two in the range 16..4096"
#endif

/* ---- default log sink ----------------------------------------------- */
#ifndef TA_ARENA_LOG_STDIO
#if defined(__STDC_HOSTED__) && __STDC_HOSTED__ == 1 && \
    (defined(__unix__) || defined(__APPLE__) || defined(_WIN32))
#define TA_ARENA_LOG_STDIO 1
#else
#define TA_ARENA_LOG_STDIO 0
#endif
#endif
#if (TA_ARENA_LOG_STDIO) != 0 && (TA_ARENA_LOG_STDIO) != 1
#error "TA_ARENA_LOG_STDIO must be 0 or 1"
#endif

#endif /* TA_ARENA_CONFIG_H */
