/*
 * ta_arena_bind.h - binds the regions of generated modules (converted with
 * `memory.allocate_arenas: false`) from a runtime tensor arena.
 *
 * A module describes its regions in `<prefix>_module_desc` (ta_module.h).
 * ta_arena_bind_module() gives each region a buffer and hands it to the
 * module's bind function:
 *
 *   role        staged  buffer
 *   PERSISTENT    -     a persistent block of the arena
 *   CONSTANT      1     a persistent block (the module copies its constants
 *                       into it during model_init)
 *   CONSTANT      0     the caller's blob for that region (the sidecar bytes),
 *                       checked for size and alignment, never written
 *   SCRATCH       -     a slice of one scratch buffer: the caller's (shared
 *                       by several modules) or a block from the arena's
 *                       scratch pool or ephemeral region
 *
 * A module with several scratch regions gets them packed one after the
 * other, each at its own alignment, in one scratch buffer: they are live at
 * the same time during a run. Its persistent and staged constant regions
 * are packed the same way into one persistent block. A region of size 0
 * is bound to a valid, aligned, non-NULL pointer with size 0. Modules that never run at the same time can
 * share one scratch buffer sized by ta_modules_scratch_requirement().
 *
 * Scratch taken from the arena's scratch pool or ephemeral region is
 * released by ta_arena_reset_ephemeral(). After each reset, take the shared
 * scratch again with ta_arena_alloc_modules_scratch() as the first
 * allocation: it returns the same address, so the bindings stay valid. (Do
 * not call ta_arena_bind_module() again for that: it would take a second
 * persistent block.) Or bind a scratch buffer that no reset touches.
 */
#ifndef TA_ARENA_BIND_H
#define TA_ARENA_BIND_H

#include "ta_arena.h"
#include "ta_module.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where scratch comes from when the caller supplies no buffer. */
typedef enum {
    TA_BIND_SCRATCH_FROM_POOL = 0,     /* the arena's scratch pool */
    TA_BIND_SCRATCH_FROM_EPHEMERAL = 1 /* the arena's ephemeral region */
} ta_bind_scratch_source_t;

typedef struct ta_bind_options {
    /* One buffer for all of the module's scratch regions, or NULL to take
       one from the arena as scratch_source says. */
    void *scratch;
    size_t scratch_size;
    ta_bind_scratch_source_t scratch_source;
    /* desc->num_regions entries, indexed by region: the bytes of each cold
       constant region (other entries are ignored and may be NULL). NULL if
       the module has no cold constant region. */
    const void *const *const_blobs;
    /* desc->num_regions entries: the byte count of each blob, or NULL to
       take the region sizes on trust. */
    const size_t *const_blob_sizes;
} ta_bind_options_t;

/*
 * Bytes and alignment of one scratch buffer holding all scratch regions of
 * `desc` (0 and 1 if it has none). TA_ERR_BAD_ARGUMENT for a malformed
 * descriptor, TA_ERR_ARENA_OVERFLOW if the sum overflows.
 */
int ta_module_scratch_requirement(const ta_module_desc_t *desc, size_t *size, size_t *alignment);

/*
 * The scratch buffer that `count` modules can share: the largest size and
 * the largest alignment of their requirements.
 */
int ta_modules_scratch_requirement(const ta_module_desc_t *const *descs, unsigned count,
                                   size_t *size, size_t *alignment);

/*
 * Bytes and alignment of the one persistent block ta_arena_bind_module()
 * takes for `desc`: its persistent and staged constant regions packed the
 * same way (0 and 1 if it has none). The arena rounds the block up to its
 * own alignment.
 */
int ta_module_persistent_requirement(const ta_module_desc_t *desc, size_t *size, size_t *alignment);

/*
 * Allocates one scratch buffer that the `count` modules can share, from the
 * arena's scratch pool or ephemeral region. Stores its size in *size (may
 * be NULL). NULL on failure (see ta_arena_last_status()); NULL also when
 * no module has scratch (*size is 0 then).
 */
void *ta_arena_alloc_modules_scratch(ta_arena_t *arena, const ta_module_desc_t *const *descs,
                                     unsigned count, ta_bind_scratch_source_t source, size_t *size);

/*
 * Binds every region of `desc` (see the table above); options may be NULL
 * (scratch from the pool, no cold constants). Every check and allocation
 * happens before the first call to the module's bind function, and a
 * refusal gives back the blocks this call took. If the module's own bind
 * function refuses a region (it should not: sizes and alignments were
 * checked), the blocks are given back too and the module is left partly
 * bound: bind it again before model_init. Returns TA_OK or:
 *   TA_ERR_NOT_INITIALIZED    the arena is not initialized
 *   TA_ERR_BAD_ARGUMENT       desc malformed or an option invalid
 *   TA_ERR_NULL_BUFFER        a cold constant region has no blob
 *   TA_ERR_BUFFER_TOO_SMALL   a blob or the scratch buffer is too small
 *   TA_ERR_MISALIGNED_BUFFER  a blob or the scratch buffer is misaligned
 *   TA_ERR_ARENA_EXHAUSTED    the arena has no room
 *   TA_ERR_ARENA_OVERFLOW     sizes overflow size_t
 *   anything the module's bind function returns
 */
int ta_arena_bind_module(ta_arena_t *arena, const ta_module_desc_t *desc,
                         const ta_bind_options_t *options);

#ifdef __cplusplus
}
#endif

#endif /* TA_ARENA_BIND_H */
