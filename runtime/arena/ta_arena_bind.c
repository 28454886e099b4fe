/*
 * ta_arena_bind.c - binding generated modules' regions from an arena.
 *
 * ta_arena_bind_module() works in three steps so that a refusal leaves the
 * arena as it was: check the descriptor and the caller's buffers; take at
 * most two blocks from the arena (one scratch, one persistent), rolling back
 * to a mark if the second does not fit; only then call the module's bind
 * function once per region. Inside each block the regions are packed in
 * region order at their own alignments, so every region's address follows
 * from the block's address and the descriptor alone.
 */
#include "ta_arena_bind.h"

static int is_pow2(size_t v)
{
    return v != 0 && (v & (v - 1)) == 0;
}

static size_t region_alignment(const ta_module_desc_t *desc, unsigned r)
{
    return desc->alignments[r] == 0 ? 1 : desc->alignments[r];
}

static int is_staged(const ta_module_desc_t *desc, unsigned r)
{
    return desc->staged != NULL && desc->staged[r] != 0;
}

/* Regions that live in the module's persistent block. */
static int is_persistent_kind(const ta_module_desc_t *desc, unsigned r)
{
    return desc->roles[r] == TA_REGION_PERSISTENT ||
           (desc->roles[r] == TA_REGION_CONSTANT && is_staged(desc, r));
}

/* Regions that live in the module's scratch buffer. */
static int is_scratch_kind(const ta_module_desc_t *desc, unsigned r)
{
    return desc->roles[r] == TA_REGION_SCRATCH;
}

/* Checks everything the helpers read from a descriptor. */
static int check_desc(const ta_module_desc_t *desc)
{
    unsigned r;

    if (desc == NULL || desc->bind_arena == NULL) {
        return TA_ERR_BAD_ARGUMENT;
    }
    if (desc->num_regions == 0) {
        return TA_OK;
    }
    if (desc->sizes == NULL || desc->alignments == NULL || desc->roles == NULL) {
        return TA_ERR_BAD_ARGUMENT;
    }
    for (r = 0; r < desc->num_regions; r++) {
        if (desc->alignments[r] != 0 && !is_pow2(desc->alignments[r])) {
            return TA_ERR_BAD_ARGUMENT;
        }
        if (desc->roles[r] != TA_REGION_SCRATCH && desc->roles[r] != TA_REGION_PERSISTENT &&
            desc->roles[r] != TA_REGION_CONSTANT) {
            return TA_ERR_BAD_ARGUMENT;
        }
    }
    return TA_OK;
}

/*
 * Packs the regions `pick` selects one after the other in region order,
 * each at its own alignment. Gives the block's size and alignment, and the
 * offset of region `offset_of` in *offset (if offset is not NULL).
 */
static int pack(const ta_module_desc_t *desc, int (*pick)(const ta_module_desc_t *, unsigned),
                unsigned offset_of, size_t *offset, size_t *size, size_t *alignment)
{
    size_t off = 0, align = 1;
    unsigned r;

    for (r = 0; r < desc->num_regions; r++) {
        size_t a;
        if (!pick(desc, r)) {
            continue;
        }
        a = region_alignment(desc, r);
        if (off > SIZE_MAX - (a - 1)) {
            return TA_ERR_ARENA_OVERFLOW;
        }
        off = (off + (a - 1)) & ~(a - 1);
        if (r == offset_of && offset != NULL) {
            *offset = off;
        }
        if (desc->sizes[r] > SIZE_MAX - off) {
            return TA_ERR_ARENA_OVERFLOW;
        }
        off += desc->sizes[r];
        if (a > align) {
            align = a;
        }
    }
    *size = off;
    *alignment = align;
    return TA_OK;
}

/* 1 if `pick` selects at least one region of desc. */
static int has_any(const ta_module_desc_t *desc, int (*pick)(const ta_module_desc_t *, unsigned))
{
    unsigned r;
    for (r = 0; r < desc->num_regions; r++) {
        if (pick(desc, r)) {
            return 1;
        }
    }
    return 0;
}

static int requirement(const ta_module_desc_t *desc,
                       int (*pick)(const ta_module_desc_t *, unsigned), size_t *size,
                       size_t *alignment)
{
    size_t s, a;
    int status;

    if (size == NULL || alignment == NULL) {
        return TA_ERR_BAD_ARGUMENT;
    }
    status = check_desc(desc);
    if (status == TA_OK) {
        status = pack(desc, pick, desc->num_regions, NULL, &s, &a);
    }
    if (status != TA_OK) {
        return status;
    }
    *size = s;
    *alignment = a;
    return TA_OK;
}

int ta_module_scratch_requirement(const ta_module_desc_t *desc, size_t *size, size_t *alignment)
{
    return requirement(desc, is_scratch_kind, size, alignment);
}

int ta_module_persistent_requirement(const ta_module_desc_t *desc, size_t *size, size_t *alignment)
{
    return requirement(desc, is_persistent_kind, size, alignment);
}

int ta_modules_scratch_requirement(const ta_module_desc_t *const *descs, unsigned count,
                                   size_t *size, size_t *alignment)
{
    size_t max_size = 0, max_align = 1;
    unsigned i;

    if (descs == NULL || count == 0 || size == NULL || alignment == NULL) {
        return TA_ERR_BAD_ARGUMENT;
    }
    for (i = 0; i < count; i++) {
        size_t s, a;
        int status = ta_module_scratch_requirement(descs[i], &s, &a);
        if (status != TA_OK) {
            return status;
        }
        if (s > max_size) {
            max_size = s;
        }
        if (a > max_align) {
            max_align = a;
        }
    }
    *size = max_size;
    *alignment = max_align;
    return TA_OK;
}

/* Takes a scratch block of `size` bytes (at least 1) from the arena. */
static void *take_scratch(ta_arena_t *arena, ta_bind_scratch_source_t source, size_t size,
                          size_t alignment)
{
    if (size == 0) {
        size = 1; /* empty regions still need a valid pointer */
    }
    if (source == TA_BIND_SCRATCH_FROM_POOL) {
        return ta_arena_scratch_acquire_aligned(arena, size, alignment);
    }
    return ta_arena_alloc(arena, size, alignment, TA_LIFETIME_EPHEMERAL);
}

void *ta_arena_alloc_modules_scratch(ta_arena_t *arena, const ta_module_desc_t *const *descs,
                                     unsigned count, ta_bind_scratch_source_t source, size_t *size)
{
    size_t s = 0, a = 1;
    void *block;
    int status;

    if (size != NULL) {
        *size = 0;
    }
    if (!ta_arena_is_initialized(arena)) {
        /* let the arena log and record the refusal */
        return ta_arena_scratch_acquire(arena, 1);
    }
    status = ta_modules_scratch_requirement(descs, count, &s, &a);
    if (status == TA_OK && source != TA_BIND_SCRATCH_FROM_POOL &&
        source != TA_BIND_SCRATCH_FROM_EPHEMERAL) {
        status = TA_ERR_BAD_ARGUMENT;
    }
    if (status != TA_OK) {
        arena->last_status = status;
        return NULL;
    }
    if (s == 0) {
        arena->last_status = TA_OK;
        return NULL;
    }
    block = take_scratch(arena, source, s, a);
    if (block != NULL && size != NULL) {
        *size = s;
    }
    return block;
}

/* Checks the caller's cold constant blobs and scratch buffer. */
static int check_buffers(const ta_module_desc_t *desc, const ta_bind_options_t *opt,
                         size_t scratch_size, size_t scratch_align)
{
    unsigned r;

    for (r = 0; r < desc->num_regions; r++) {
        const void *blob;
        if (desc->roles[r] != TA_REGION_CONSTANT || is_staged(desc, r)) {
            continue;
        }
        blob = opt->const_blobs != NULL ? opt->const_blobs[r] : NULL;
        if (blob == NULL) {
            return TA_ERR_NULL_BUFFER;
        }
        if (opt->const_blob_sizes != NULL && opt->const_blob_sizes[r] < desc->sizes[r]) {
            return TA_ERR_BUFFER_TOO_SMALL;
        }
        if (((uintptr_t)blob & (uintptr_t)(region_alignment(desc, r) - 1)) != 0) {
            return TA_ERR_MISALIGNED_BUFFER;
        }
    }
    if (opt->scratch != NULL) {
        if (opt->scratch_size < scratch_size) {
            return TA_ERR_BUFFER_TOO_SMALL;
        }
        if (((uintptr_t)opt->scratch & (uintptr_t)(scratch_align - 1)) != 0) {
            return TA_ERR_MISALIGNED_BUFFER;
        }
    } else if (opt->scratch_source != TA_BIND_SCRATCH_FROM_POOL &&
               opt->scratch_source != TA_BIND_SCRATCH_FROM_EPHEMERAL) {
        return TA_ERR_BAD_ARGUMENT;
    }
    return TA_OK;
}

/* Gives back what this call took and reports `status`. */
static int undo(ta_arena_t *arena, const ta_arena_mark_t *mark, int status)
{
    (void)ta_arena_rollback(arena, mark);
    arena->last_status = status;
    return status;
}

/* The buffer and size region r is bound to. */
static void *region_buffer(const ta_module_desc_t *desc, unsigned r, const ta_bind_options_t *opt,
                           unsigned char *scratch, unsigned char *persistent, size_t *size)
{
    size_t off = 0, s, a;

    *size = desc->sizes[r];
    if (is_scratch_kind(desc, r)) {
        (void)pack(desc, is_scratch_kind, r, &off, &s, &a);
        return scratch + off;
    }
    if (is_persistent_kind(desc, r)) {
        (void)pack(desc, is_persistent_kind, r, &off, &s, &a);
        return persistent + off;
    }
    /* a cold constant: the caller's blob, which is never written */
    if (opt->const_blob_sizes != NULL) {
        *size = opt->const_blob_sizes[r];
    }
    /* check_buffers made sure the blob is there */
    return opt->const_blobs != NULL ? (void *)(uintptr_t)opt->const_blobs[r] : NULL;
}

int ta_arena_bind_module(ta_arena_t *arena, const ta_module_desc_t *desc,
                         const ta_bind_options_t *options)
{
    static const ta_bind_options_t defaults = {NULL, 0, TA_BIND_SCRATCH_FROM_POOL, NULL, NULL};
    const ta_bind_options_t *opt = options != NULL ? options : &defaults;
    size_t scratch_size = 0, scratch_align = 1;
    size_t persist_size = 0, persist_align = 1;
    unsigned char *scratch = NULL, *persistent = NULL;
    ta_arena_mark_t mark;
    unsigned r;
    int status;

    if (!ta_arena_is_initialized(arena)) {
        return TA_ERR_NOT_INITIALIZED;
    }
    status = check_desc(desc);
    if (status == TA_OK) {
        status = pack(desc, is_scratch_kind, desc->num_regions, NULL, &scratch_size,
                      &scratch_align);
    }
    if (status == TA_OK) {
        status = pack(desc, is_persistent_kind, desc->num_regions, NULL, &persist_size,
                      &persist_align);
    }
    if (status == TA_OK) {
        status = check_buffers(desc, opt, scratch_size, scratch_align);
    }
    if (status != TA_OK) {
        arena->last_status = status;
        return status;
    }

    (void)ta_arena_get_mark(arena, &mark);
    if (has_any(desc, is_scratch_kind)) {
        scratch = (unsigned char *)opt->scratch;
        if (scratch == NULL) {
            scratch = (unsigned char *)take_scratch(arena, opt->scratch_source, scratch_size,
                                                    scratch_align);
            if (scratch == NULL) {
                return undo(arena, &mark, ta_arena_last_status(arena));
            }
        }
    }
    if (has_any(desc, is_persistent_kind)) {
        persistent = (unsigned char *)ta_arena_alloc(arena, persist_size == 0 ? 1 : persist_size,
                                                     persist_align, TA_LIFETIME_PERSISTENT);
        if (persistent == NULL) {
            return undo(arena, &mark, ta_arena_last_status(arena));
        }
    }

    for (r = 0; r < desc->num_regions; r++) {
        size_t size;
        void *buffer = region_buffer(desc, r, opt, scratch, persistent, &size);
        status = desc->bind_arena((int)r, buffer, size);
        if (status != TA_OK) {
            return undo(arena, &mark, status);
        }
    }
    arena->last_status = TA_OK;
    return TA_OK;
}
