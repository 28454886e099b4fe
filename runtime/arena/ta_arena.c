/*
 * ta_arena.c - the runtime tensor arena (see ta_arena.h for the layout).
 *
 * How it works: an initialized arena holds five pointers into the caller's
 * buffer, in address order
 *
 *     base <= persist_top <= eph_bottom <= pool <= pool_top <= end
 *
 * [base, persist_top) is persistent, [eph_bottom, pool) ephemeral,
 * [pool, pool_top) the acquired part of the scratch pool [pool, end). An
 * allocation moves one pointer by a multiple of the alignment after
 * checking, in size_t arithmetic that cannot wrap, that it stays on its side
 * of its neighbour; a reset moves two pointers back. Nothing is ever
 * computed outside the buffer, so the ordering above is an invariant and
 * the regions cannot overlap.
 *
 * The code uses no dynamic memory, no floating point and no library call
 * other than the optional stdout log sink.
 */
#include "ta_arena.h"

#if TA_ARENA_LOG_STDIO
#include <stdio.h>
#endif

/* An initialized arena stores this value xor its own address. The value is
 * odd, so a zeroed object (check 0) never passes: it would have to sit at
 * this odd address, which no ta_arena_t can. */
#define TA_ARENA_CHECK ((uintptr_t)0x7A4A3E11u)

#define TA_ARENA_LINE_MAX 256

/* ===================================================================== */
/* Log lines                                                              */
/* ===================================================================== */

#if TA_ARENA_LOG_STDIO
static void default_log(void *user, const char *line)
{
    (void)user;
    fputs(line, stdout);
    fputc('\n', stdout);
    fflush(stdout);
}
#else
static void default_log(void *user, const char *line)
{
    (void)user;
    (void)line;
}
#endif

/* A line under construction; text past the end is dropped. */
typedef struct {
    char text[TA_ARENA_LINE_MAX];
    size_t len;
} line_t;

static void line_str(line_t *l, const char *s)
{
    while (*s != '\0' && l->len + 1 < sizeof l->text) {
        l->text[l->len++] = *s++;
    }
    l->text[l->len] = '\0';
}

static void line_uint(line_t *l, size_t v)
{
    char digits[3 * sizeof(size_t) + 1];
    size_t n = 0;
    do {
        digits[n++] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v != 0);
    while (n > 0 && l->len + 1 < sizeof l->text) {
        l->text[l->len++] = digits[--n];
    }
    l->text[l->len] = '\0';
}

static int is_initialized(const ta_arena_t *arena)
{
    return arena != NULL && arena->check == (TA_ARENA_CHECK ^ (uintptr_t)arena);
}

/* Starts a line with "ta_arena <name>: <fn>: " (no name if not initialized). */
static void line_start(line_t *l, const ta_arena_t *arena, const char *fn)
{
    l->len = 0;
    l->text[0] = '\0';
    line_str(l, "ta_arena");
    /* an arena that is not initialized may hold garbage: read no field */
    if (is_initialized(arena) && arena->name != NULL) {
        line_str(l, " ");
        line_str(l, arena->name);
    }
    line_str(l, ": ");
    line_str(l, fn);
    line_str(l, ": ");
}

/* Sends a line to the arena's hook, or to the default sink if it has none
 * yet (an arena that is not initialized). */
static void line_emit(const ta_arena_t *arena, const line_t *l)
{
    if (is_initialized(arena)) {
        if (arena->log_fn != NULL) {
            arena->log_fn(arena->log_user, l->text);
        }
    } else {
        default_log(NULL, l->text);
    }
}

/* Records a refusal: status, counter and one log line "<fn>: <why>". */
static void refuse(ta_arena_t *arena, int status, const char *fn, const char *why)
{
    line_t l;
    if (is_initialized(arena)) {
        arena->last_status = status;
        arena->failed_count++;
    } else if (arena != NULL) {
        arena->last_status = status;
    }
    line_start(&l, arena, fn);
    line_str(&l, why);
    line_emit(arena, &l);
}

/* Same, for "region exhausted": names the region and the sizes. */
static void refuse_exhausted(ta_arena_t *arena, const char *fn, const char *region, size_t need,
                             size_t free_bytes)
{
    line_t l;
    arena->last_status = TA_ERR_ARENA_EXHAUSTED;
    arena->failed_count++;
    line_start(&l, arena, fn);
    line_str(&l, region);
    line_str(&l, " region exhausted: need ");
    line_uint(&l, need);
    line_str(&l, " B, ");
    line_uint(&l, free_bytes);
    line_str(&l, " B free");
    line_emit(arena, &l);
}

/* ===================================================================== */
/* Arithmetic helpers                                                     */
/* ===================================================================== */

static int is_pow2(size_t v)
{
    return v != 0 && (v & (v - 1)) == 0;
}

/* 1 when the `size` bytes at p run past the top of the address space:
   such a range would wrap, and every comparison against it would lie. */
static int range_wraps(const void *p, size_t size)
{
    uintptr_t room = (uintptr_t)-1 - (uintptr_t)p; /* bytes from p to the top */
    return (uintmax_t)size > (uintmax_t)room;
}

/* Rounds v up to a multiple of align (a power of two); 0 if that wraps. */
static int round_up(size_t v, size_t align, size_t *out)
{
    if (v > SIZE_MAX - (align - 1)) {
        return 0;
    }
    *out = (v + (align - 1)) & ~(align - 1);
    return 1;
}

/* Bytes needed to move address p up to a multiple of align. */
static size_t pad_up(const unsigned char *p, size_t align)
{
    uintptr_t a = (uintptr_t)p;
    return (size_t)((align - (size_t)(a & (uintptr_t)(align - 1))) & (align - 1));
}

static size_t used_bytes(const ta_arena_t *arena)
{
    return (size_t)(arena->persist_top - arena->base) + (size_t)(arena->pool - arena->eph_bottom) +
           (size_t)(arena->pool_top - arena->pool);
}

static void note_success(ta_arena_t *arena)
{
    size_t used = used_bytes(arena);
    size_t scratch = (size_t)(arena->pool_top - arena->pool);
    arena->alloc_count++;
    arena->last_status = TA_OK;
    if (used > arena->peak) {
        arena->peak = used;
    }
    if (scratch > arena->scratch_peak) {
        arena->scratch_peak = scratch;
    }
}

/* ===================================================================== */
/* Set-up                                                                 */
/* ===================================================================== */

static void arena_clear(ta_arena_t *arena)
{
    arena->check = 0;
    arena->base = NULL;
    arena->persist_top = NULL;
    arena->eph_bottom = NULL;
    arena->pool = NULL;
    arena->pool_top = NULL;
    arena->end = NULL;
    arena->shared_base = NULL;
    arena->shared_top = NULL;
    arena->shared_end = NULL;
    arena->alignment = 0;
    arena->align_lost = 0;
    arena->peak = 0;
    arena->scratch_peak = 0;
    arena->alloc_count = 0;
    arena->reset_count = 0;
    arena->failed_count = 0;
    arena->shared_gen = 0;
    arena->last_status = TA_OK;
    arena->name = "arena";
    arena->log_fn = default_log;
    arena->log_user = NULL;
}

int ta_arena_init(ta_arena_t *arena, void *base, size_t size)
{
    return ta_arena_init_ex(arena, base, size, TA_ARENA_SCRATCH_POOL_SIZE, TA_ARENA_ALIGNMENT);
}

int ta_arena_init_ex(ta_arena_t *arena, void *base, size_t size, size_t scratch_size,
                     size_t alignment)
{
    static const char fn[] = "init";
    unsigned char *p = (unsigned char *)base;
    size_t head, usable, scratch;
    line_t l;

    if (arena == NULL) {
        refuse(NULL, TA_ERR_BAD_ARGUMENT, fn, "arena object is NULL");
        return TA_ERR_BAD_ARGUMENT;
    }
    arena_clear(arena); /* a failed init leaves the arena unusable */
    if (alignment == 0) {
        alignment = TA_ARENA_ALIGNMENT;
    }
    if (p == NULL || size == 0) {
        refuse(arena, TA_ERR_BAD_ARGUMENT, fn, p == NULL ? "base is NULL" : "size is 0");
        return TA_ERR_BAD_ARGUMENT;
    }
    if (range_wraps(p, size)) {
        refuse(arena, TA_ERR_BAD_ARGUMENT, fn,
               "base + size wraps past the end of the address space");
        return TA_ERR_BAD_ARGUMENT;
    }
    if (!is_pow2(alignment) || alignment < 16) {
        refuse(arena, TA_ERR_BAD_ARGUMENT, fn, "alignment is not a power of two of at least 16");
        return TA_ERR_BAD_ARGUMENT;
    }
    if (!round_up(scratch_size, alignment, &scratch)) {
        refuse(arena, TA_ERR_BAD_ARGUMENT, fn, "scratch pool size overflows");
        return TA_ERR_BAD_ARGUMENT;
    }
    head = pad_up(p, alignment);
    usable = head < size ? ((size - head) & ~(alignment - 1)) : 0;
    if (usable <= scratch) {
        line_start(&l, arena, fn);
        line_str(&l, "arena of ");
        line_uint(&l, size);
        line_str(&l, " B (");
        line_uint(&l, usable);
        line_str(&l, " B once aligned) is not larger than the scratch pool of ");
        line_uint(&l, scratch);
        line_str(&l, " B");
        arena->last_status = TA_ERR_BAD_ARGUMENT;
        line_emit(arena, &l);
        return TA_ERR_BAD_ARGUMENT;
    }

    arena->base = p + head;
    arena->end = arena->base + usable;
    arena->pool = arena->end - scratch;
    arena->pool_top = arena->pool;
    arena->persist_top = arena->base;
    arena->eph_bottom = arena->pool;
    arena->alignment = alignment;
    arena->align_lost = size - usable;
    arena->check = TA_ARENA_CHECK ^ (uintptr_t)arena;
    return TA_OK;
}

int ta_arena_is_initialized(const ta_arena_t *arena)
{
    return is_initialized(arena);
}

void ta_arena_set_name(ta_arena_t *arena, const char *name)
{
    if (is_initialized(arena)) {
        arena->name = name != NULL ? name : "arena";
    }
}

void ta_arena_set_log(ta_arena_t *arena, ta_arena_log_fn fn, void *user)
{
    if (is_initialized(arena)) {
        arena->log_fn = fn;
        arena->log_user = user;
    }
}

int ta_arena_set_shared_region(ta_arena_t *arena, void *base, size_t size)
{
    static const char fn[] = "set_shared_region";
    unsigned char *p = (unsigned char *)base;
    size_t head, usable;
    uintptr_t lo, hi;

    if (!is_initialized(arena)) {
        refuse(arena, TA_ERR_NOT_INITIALIZED, fn, "arena not initialized");
        return TA_ERR_NOT_INITIALIZED;
    }
    if (p == NULL && size == 0) {
        arena->shared_base = NULL;
        arena->shared_top = NULL;
        arena->shared_end = NULL;
        arena->shared_gen++;
        arena->last_status = TA_OK;
        return TA_OK;
    }
    if (p == NULL || size == 0) {
        refuse(arena, TA_ERR_BAD_ARGUMENT, fn, p == NULL ? "base is NULL" : "size is 0");
        return TA_ERR_BAD_ARGUMENT;
    }
    if (range_wraps(p, size)) {
        refuse(arena, TA_ERR_BAD_ARGUMENT, fn,
               "base + size wraps past the end of the address space");
        return TA_ERR_BAD_ARGUMENT;
    }
    head = pad_up(p, arena->alignment);
    usable = head < size ? ((size - head) & ~(arena->alignment - 1)) : 0;
    if (usable == 0) {
        refuse(arena, TA_ERR_BAD_ARGUMENT, fn, "region holds no aligned block");
        return TA_ERR_BAD_ARGUMENT;
    }
    /* Compare addresses as integers: the buffers are different objects. */
    lo = (uintptr_t)p;
    hi = lo + (uintptr_t)size;
    if (lo < (uintptr_t)arena->end && (uintptr_t)arena->base < hi) {
        refuse(arena, TA_ERR_BAD_ARGUMENT, fn, "region overlaps the arena");
        return TA_ERR_BAD_ARGUMENT;
    }
    arena->shared_base = p + head;
    arena->shared_top = arena->shared_base;
    arena->shared_end = arena->shared_base + usable;
    arena->shared_gen++;
    arena->last_status = TA_OK;
    return TA_OK;
}

void ta_arena_reset_shared(ta_arena_t *arena)
{
    if (is_initialized(arena)) {
        arena->shared_top = arena->shared_base;
        arena->shared_gen++;
    }
}

/* ===================================================================== */
/* Allocation                                                             */
/* ===================================================================== */

/*
 * Takes `size` bytes (a multiple of the arena's alignment) aligned to
 * `align` (a power of two, at least the arena's) from the region of
 * `lifetime`. Logs and returns NULL when the region has no room.
 */
static unsigned char *take(ta_arena_t *arena, const char *fn, size_t size, size_t align,
                           ta_lifetime_t lifetime)
{
    unsigned char *block;
    size_t gap, pad;

    switch (lifetime) {
    case TA_LIFETIME_PERSISTENT:
        gap = (size_t)(arena->eph_bottom - arena->persist_top);
        pad = pad_up(arena->persist_top, align);
        if (pad > gap || size > gap - pad) {
            refuse_exhausted(arena, fn, "persistent", size, gap);
            return NULL;
        }
        block = arena->persist_top + pad;
        arena->persist_top = block + size;
        return block;

    case TA_LIFETIME_EPHEMERAL: {
        uintptr_t bottom = (uintptr_t)arena->eph_bottom;
        size_t drop;
        gap = (size_t)(arena->eph_bottom - arena->persist_top);
        if (size > gap) {
            refuse_exhausted(arena, fn, "ephemeral", size, gap);
            return NULL;
        }
        /* the new bottom: below the old one by size, then aligned down */
        drop = (size_t)(bottom - ((bottom - (uintptr_t)size) & ~(uintptr_t)(align - 1)));
        if (drop > gap) {
            refuse_exhausted(arena, fn, "ephemeral", drop, gap);
            return NULL;
        }
        arena->eph_bottom -= drop;
        return arena->eph_bottom;
    }

    case TA_LIFETIME_SHARED:
        if (arena->shared_base == NULL) {
            refuse(arena, TA_ERR_ARENA_NO_SHARED, fn,
                   "SHARED refused: no shared region is registered "
                   "(call ta_arena_set_shared_region first)");
            return NULL;
        }
        gap = (size_t)(arena->shared_end - arena->shared_top);
        pad = pad_up(arena->shared_top, align);
        if (pad > gap || size > gap - pad) {
            refuse_exhausted(arena, fn, "shared", size, gap);
            return NULL;
        }
        block = arena->shared_top + pad;
        arena->shared_top = block + size;
        return block;

    default: refuse(arena, TA_ERR_BAD_ARGUMENT, fn, "unknown lifetime"); return NULL;
    }
}

/* log2 of the element size of dtype; -1 for an unknown type. */
static int dtype_shift(ta_dtype_t dtype)
{
    switch (dtype) {
    case TA_DTYPE_INT8: return 0;
    case TA_DTYPE_UINT8: return 0;
    case TA_DTYPE_INT16: return 1;
    case TA_DTYPE_FLOAT16: return 1;
    case TA_DTYPE_FLOAT32: return 2;
    default: return -1;
    }
}

/* *out = a * b if that fits in size_t (returns 1), else returns 0. */
#if SIZE_MAX <= 0xFFFFFFFFu
static int mul_fits(size_t a, size_t b, size_t *out)
{
    uint64_t p = (uint64_t)a * (uint64_t)b; /* cannot wrap: both < 2^32 */
    if (p > (uint64_t)SIZE_MAX) {
        return 0;
    }
    *out = (size_t)p;
    return 1;
}
#else
static int mul_fits(size_t a, size_t b, size_t *out)
{
    if (b != 0 && a > SIZE_MAX / b) {
        return 0;
    }
    *out = a * b;
    return 1;
}
#endif

size_t ta_dtype_size(ta_dtype_t dtype)
{
    int shift = dtype_shift(dtype);
    return shift < 0 ? 0u : (size_t)1 << shift;
}

/*
 * Checks a shape and computes its byte size. Returns TA_OK, or the status
 * with *why set to the reason. A shape with a 0 dimension is empty (0 bytes)
 * whatever its other dimensions are.
 */
static int shape_bytes(const uint32_t *shape, uint8_t ndim, ta_dtype_t dtype, size_t *bytes,
                       const char **why)
{
    size_t count = 1;
    int shift = dtype_shift(dtype), overflow = 0, empty = 0;
    unsigned i;

    if (shape == NULL) {
        *why = "shape is NULL";
        return TA_ERR_BAD_ARGUMENT;
    }
    if (ndim == 0 || ndim > TA_TENSOR_MAX_DIMS) {
        *why = "ndim is not in 1..4";
        return TA_ERR_BAD_ARGUMENT;
    }
    if (shift < 0) {
        *why = "unknown dtype";
        return TA_ERR_BAD_ARGUMENT;
    }
    for (i = 0; i < ndim; i++) {
        if (shape[i] == 0) {
            empty = 1;
        } else if (!overflow && !mul_fits(count, (size_t)shape[i], &count)) {
            overflow = 1;
        }
    }
    if (empty) {
        *bytes = 0;
        return TA_OK;
    }
    if (overflow) {
        *why = "element count overflows size_t";
        return TA_ERR_ARENA_OVERFLOW;
    }
    if (count > (SIZE_MAX >> shift)) {
        *why = "byte size overflows size_t";
        return TA_ERR_ARENA_OVERFLOW;
    }
    *bytes = count << shift;
    return TA_OK;
}

static void fill_descriptor(ta_tensor_t *t, const uint32_t *shape, uint8_t ndim, ta_dtype_t dtype,
                            size_t bytes)
{
    unsigned i;
    t->size = bytes;
    t->dtype = dtype;
    t->ndim = ndim;
    for (i = 0; i < TA_TENSOR_MAX_DIMS; i++) {
        t->shape[i] = i < ndim ? shape[i] : 0u;
    }
}

ta_tensor_t *ta_tensor_alloc(ta_arena_t *arena, const uint32_t *shape, uint8_t ndim,
                             ta_dtype_t dtype, ta_lifetime_t lifetime)
{
    static const char fn[] = "tensor_alloc";
    const char *why = "";
    size_t bytes, header, data, total;
    unsigned char *block;
    ta_tensor_t *t;
    int status;

    if (!is_initialized(arena)) {
        refuse(arena, TA_ERR_NOT_INITIALIZED, fn, "arena not initialized");
        return NULL;
    }
    status = shape_bytes(shape, ndim, dtype, &bytes, &why);
    if (status != TA_OK) {
        refuse(arena, status, fn, why);
        return NULL;
    }
    if (lifetime != TA_LIFETIME_PERSISTENT && lifetime != TA_LIFETIME_EPHEMERAL &&
        lifetime != TA_LIFETIME_SHARED) {
        refuse(arena, TA_ERR_BAD_ARGUMENT, fn, "unknown lifetime");
        return NULL;
    }
    /* descriptor, then the data at the next multiple of the alignment */
    header = (sizeof(ta_tensor_t) + (arena->alignment - 1)) & ~(arena->alignment - 1);
    if (!round_up(bytes, arena->alignment, &data) || data > SIZE_MAX - header) {
        refuse(arena, TA_ERR_ARENA_OVERFLOW, fn, "block size overflows size_t");
        return NULL;
    }
    total = header + data;
    block = take(arena, fn, total, arena->alignment, lifetime);
    if (block == NULL) {
        return NULL;
    }
    t = (ta_tensor_t *)(void *)block;
    fill_descriptor(t, shape, ndim, dtype, bytes);
    t->data = block + header;
    t->lifetime = lifetime;
    note_success(arena);
    return t;
}

void ta_tensor_free(ta_arena_t *arena, ta_tensor_t *tensor)
{
    (void)arena;
    (void)tensor;
}

int ta_tensor_init(ta_tensor_t *tensor, const uint32_t *shape, uint8_t ndim, ta_dtype_t dtype)
{
    const char *why = "";
    size_t bytes;
    int status;

    if (tensor == NULL) {
        return TA_ERR_BAD_ARGUMENT;
    }
    status = shape_bytes(shape, ndim, dtype, &bytes, &why);
    if (status != TA_OK) {
        return status;
    }
    fill_descriptor(tensor, shape, ndim, dtype, bytes);
    return TA_OK;
}

void *ta_arena_alloc(ta_arena_t *arena, size_t size, size_t alignment, ta_lifetime_t lifetime)
{
    static const char fn[] = "alloc";
    size_t rounded;
    unsigned char *block;

    if (!is_initialized(arena)) {
        refuse(arena, TA_ERR_NOT_INITIALIZED, fn, "arena not initialized");
        return NULL;
    }
    if (size == 0 || (alignment != 0 && !is_pow2(alignment))) {
        refuse(arena, TA_ERR_BAD_ARGUMENT, fn,
               size == 0 ? "size is 0" : "alignment is not a power of two");
        return NULL;
    }
    if (alignment < arena->alignment) {
        alignment = arena->alignment;
    }
    if (!round_up(size, arena->alignment, &rounded)) {
        refuse(arena, TA_ERR_ARENA_OVERFLOW, fn, "size overflows size_t");
        return NULL;
    }
    block = take(arena, fn, rounded, alignment, lifetime);
    if (block != NULL) {
        note_success(arena);
    }
    return block;
}

void *ta_arena_scratch_acquire(ta_arena_t *arena, size_t size)
{
    return ta_arena_scratch_acquire_aligned(arena, size, 0);
}

void *ta_arena_scratch_acquire_aligned(ta_arena_t *arena, size_t size, size_t alignment)
{
    static const char fn[] = "scratch_acquire";
    size_t rounded, gap, pad;
    unsigned char *block;

    if (!is_initialized(arena)) {
        refuse(arena, TA_ERR_NOT_INITIALIZED, fn, "arena not initialized");
        return NULL;
    }
    if (size == 0 || (alignment != 0 && !is_pow2(alignment))) {
        refuse(arena, TA_ERR_BAD_ARGUMENT, fn,
               size == 0 ? "size is 0" : "alignment is not a power of two");
        return NULL;
    }
    if (alignment < arena->alignment) {
        alignment = arena->alignment;
    }
    if (!round_up(size, arena->alignment, &rounded)) {
        refuse(arena, TA_ERR_ARENA_OVERFLOW, fn, "size overflows size_t");
        return NULL;
    }
    gap = (size_t)(arena->end - arena->pool_top);
    pad = pad_up(arena->pool_top, alignment);
    if (pad > gap || rounded > gap - pad) {
        refuse_exhausted(arena, fn, "scratch", rounded, gap);
        return NULL;
    }
    block = arena->pool_top + pad;
    arena->pool_top = block + rounded;
    note_success(arena);
    return block;
}

void ta_arena_scratch_release(ta_arena_t *arena, void *ptr)
{
    (void)arena;
    (void)ptr;
}

void ta_arena_reset_ephemeral(ta_arena_t *arena)
{
    if (!is_initialized(arena)) {
        refuse(arena, TA_ERR_NOT_INITIALIZED, "reset_ephemeral", "arena not initialized");
        return;
    }
    arena->eph_bottom = arena->pool;
    arena->pool_top = arena->pool;
    arena->reset_count++;
}

int ta_arena_get_mark(const ta_arena_t *arena, ta_arena_mark_t *mark)
{
    if (mark == NULL) {
        return TA_ERR_BAD_ARGUMENT;
    }
    if (!is_initialized(arena)) {
        return TA_ERR_NOT_INITIALIZED;
    }
    mark->persist_top = arena->persist_top;
    mark->eph_bottom = arena->eph_bottom;
    mark->pool_top = arena->pool_top;
    mark->shared_top = arena->shared_top;
    mark->reset_count = arena->reset_count;
    mark->shared_gen = arena->shared_gen;
    return TA_OK;
}

/* lo <= p <= hi, comparing addresses as integers (p may be foreign). */
static int within(const unsigned char *p, const unsigned char *lo, const unsigned char *hi)
{
    return (uintptr_t)lo <= (uintptr_t)p && (uintptr_t)p <= (uintptr_t)hi;
}

int ta_arena_rollback(ta_arena_t *arena, const ta_arena_mark_t *mark)
{
    static const char fn[] = "rollback";

    if (!is_initialized(arena)) {
        refuse(arena, TA_ERR_NOT_INITIALIZED, fn, "arena not initialized");
        return TA_ERR_NOT_INITIALIZED;
    }
    if (mark == NULL) {
        refuse(arena, TA_ERR_BAD_ARGUMENT, fn, "mark is NULL");
        return TA_ERR_BAD_ARGUMENT;
    }
    /* Check every pointer first, so a bad mark changes nothing. */
    if (!within(mark->persist_top, arena->base, arena->persist_top) ||
        (mark->reset_count == arena->reset_count &&
         (!within(mark->eph_bottom, arena->eph_bottom, arena->pool) ||
          !within(mark->pool_top, arena->pool, arena->pool_top))) ||
        (mark->shared_gen == arena->shared_gen && arena->shared_base != NULL &&
         !within(mark->shared_top, arena->shared_base, arena->shared_top))) {
        refuse(arena, TA_ERR_BAD_ARGUMENT, fn,
               "mark does not belong to this arena's current state");
        return TA_ERR_BAD_ARGUMENT;
    }
    arena->persist_top = arena->base + (mark->persist_top - arena->base);
    if (mark->reset_count == arena->reset_count) {
        arena->eph_bottom = arena->pool - (arena->pool - mark->eph_bottom);
        arena->pool_top = arena->pool + (mark->pool_top - arena->pool);
    }
    if (mark->shared_gen == arena->shared_gen && arena->shared_base != NULL) {
        arena->shared_top = arena->shared_base + (mark->shared_top - arena->shared_base);
    }
    arena->last_status = TA_OK;
    return TA_OK;
}

/* ===================================================================== */
/* Inspection                                                             */
/* ===================================================================== */

int ta_arena_get_stats(const ta_arena_t *arena, ta_arena_stats_t *stats)
{
    if (stats == NULL) {
        return TA_ERR_BAD_ARGUMENT;
    }
    if (!is_initialized(arena)) {
        return TA_ERR_NOT_INITIALIZED;
    }
    stats->arena_total = (size_t)(arena->end - arena->base);
    stats->persistent_used = (size_t)(arena->persist_top - arena->base);
    stats->ephemeral_used = (size_t)(arena->pool - arena->eph_bottom);
    stats->tensor_free = (size_t)(arena->eph_bottom - arena->persist_top);
    stats->scratch_total = (size_t)(arena->end - arena->pool);
    stats->scratch_used = (size_t)(arena->pool_top - arena->pool);
    stats->scratch_peak = arena->scratch_peak;
    stats->arena_used = used_bytes(arena);
    stats->arena_free = stats->tensor_free + (stats->scratch_total - stats->scratch_used);
    stats->arena_peak = arena->peak;
    if (arena->shared_base != NULL) {
        stats->shared_total = (size_t)(arena->shared_end - arena->shared_base);
        stats->shared_used = (size_t)(arena->shared_top - arena->shared_base);
    } else {
        stats->shared_total = 0;
        stats->shared_used = 0;
    }
    stats->align_lost = arena->align_lost;
    stats->alignment = arena->alignment;
    stats->alloc_count = arena->alloc_count;
    stats->reset_count = arena->reset_count;
    stats->failed_count = arena->failed_count;
    return TA_OK;
}

void ta_arena_print_stats(const ta_arena_t *arena)
{
    ta_arena_stats_t s;
    line_t l;

    line_start(&l, arena, "stats");
    if (ta_arena_get_stats(arena, &s) != TA_OK) {
        line_str(&l, "arena not initialized");
        line_emit(arena, &l);
        return;
    }
    line_str(&l, "total ");
    line_uint(&l, s.arena_total);
    line_str(&l, " usable ");
    line_uint(&l, s.arena_total - s.scratch_total);
    line_str(&l, " used ");
    line_uint(&l, s.arena_used);
    line_str(&l, " (persistent ");
    line_uint(&l, s.persistent_used);
    line_str(&l, " ephemeral ");
    line_uint(&l, s.ephemeral_used);
    line_str(&l, " scratch ");
    line_uint(&l, s.scratch_used);
    line_str(&l, "/");
    line_uint(&l, s.scratch_total);
    line_str(&l, ") free ");
    line_uint(&l, s.arena_free);
    line_str(&l, " peak ");
    line_uint(&l, s.arena_peak);
    line_str(&l, " shared ");
    line_uint(&l, s.shared_used);
    line_str(&l, "/");
    line_uint(&l, s.shared_total);
    line_str(&l, " allocs ");
    line_uint(&l, s.alloc_count);
    line_str(&l, " resets ");
    line_uint(&l, s.reset_count);
    line_str(&l, " failed ");
    line_uint(&l, s.failed_count);
    line_str(&l, " lost ");
    line_uint(&l, s.align_lost);
    line_emit(arena, &l);
}

int ta_arena_last_status(const ta_arena_t *arena)
{
    return arena != NULL ? arena->last_status : TA_ERR_BAD_ARGUMENT;
}

const char *ta_arena_status_name(int status)
{
    switch (status) {
    case TA_ERR_ARENA_EXHAUSTED: return "arena_exhausted";
    case TA_ERR_ARENA_OVERFLOW: return "size_overflow";
    case TA_ERR_ARENA_NO_SHARED: return "no_shared_region";
    default: return ta_status_name(status);
    }
}
