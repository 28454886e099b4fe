/*
 * fuzz_module_api.c - a generated module's public C API driven by random
 * call sequences: m_bind_arena, m_bind_arenas, m_context_init,
 * m_model_init, m_model_run, m_hydrate_constants and the latch, the io
 * helpers m_quantize_input / m_dequantize_output, and the runtime arena's
 * ta_arena_bind_module, in any order, with NULL, misaligned, overlapping,
 * too-small and oversized buffers, unknown regions, NULL contexts and
 * contexts never initialized.
 *
 * The module (prefix m; tests/fuzz/CMakeLists.txt converts it) is the
 * hello-world model with caller-bound arenas: a scratch region, a cold
 * constant region (the caller's blob, its sidecar file) and a staged
 * constant region. A shadow of the module's documented state
 * (docs/module-statuses.md: what is bound where, initialized, rebound, the
 * hydration latch) predicts the status of every call exactly; a different
 * status, a successful run whose outputs differ from the first successful
 * run's, a crash or a sanitizer report is a finding. ta_arena_bind_module
 * must return one of its documented statuses; the shadow then reads what
 * it bound.
 *
 * Every buffer lies in this file's own memory, and a bind is never told a
 * size larger than the memory behind it: a caller that lies about a size
 * cannot be detected by any API.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "m_internal.h"
#include "ta_arena_bind.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NUM_REGIONS M_NUM_ARENA_REGIONS
#define POOL_BYTES 4096
#define ARENA_BYTES 8192
#define BLOB_MAX 4096

static _Alignas(64) unsigned char pool[POOL_BYTES];
static _Alignas(64) unsigned char arena_mem[ARENA_BYTES];
static _Alignas(64) unsigned char blob[NUM_REGIONS][BLOB_MAX + 1];
static size_t blob_size[NUM_REGIONS];
static m_model_context_t ctx_a, ctx_b;

/* The shadow of the module's state. */
static struct {
    void *bound[NUM_REGIONS];
    int initialized, rebound, hydrated;
    m_model_context_t *live; /* the context of the last successful model_init */
    int have_reference;
    unsigned char reference[M_NUM_OUTPUTS][256];
} s;

/* ---- reading the fuzzer's bytes ---------------------------------------- */

static const uint8_t *in;
static size_t left;

static unsigned byte(void)
{
    if (!left)
        return 0;
    left--;
    return *in++;
}

static unsigned word(void)
{
    return byte() | byte() << 8;
}

static void fail(const char *what, long got, long want)
{
    fprintf(stderr, "fuzz_module_api: %s: got %ld, documented %ld\n", what, got, want);
    abort();
}

static void expect(const char *what, long got, long want)
{
    if (got != want)
        fail(what, got, want);
}

/* ---- the module's files -------------------------------------------------- */

/* Each cold constant region's sidecar: the blob the caller binds. */
static void load_blobs(void)
{
    static int loaded;
    if (loaded)
        return;
    loaded = 1;
    for (int r = 0; r < NUM_REGIONS; r++) {
        const char *name = m_module_desc.sidecar_files[r];
        if (!name)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", TA_FUZZ_MODULE_DIR, name);
        FILE *f = fopen(path, "rb");
        blob_size[r] = f ? fread(blob[r], 1, BLOB_MAX, f) : 0;
        if (!f || blob_size[r] != m_arena_sizes[r]) {
            fprintf(stderr, "fuzz_module_api: cannot read the sidecar %s\n", path);
            exit(2);
        }
        fclose(f);
    }
}

static int is_cold(int r)
{
    return m_module_desc.roles[r] == TA_REGION_CONSTANT && !m_module_desc.staged[r];
}

/* ---- the shadow ------------------------------------------------------------ */

static long expected_bind(int region, const void *buffer, size_t size)
{
    if (region < 0 || region >= NUM_REGIONS)
        return TA_ERR_UNKNOWN_REGION;
    if (!buffer)
        return TA_ERR_NULL_BUFFER;
    if (size < m_arena_sizes[region])
        return TA_ERR_BUFFER_TOO_SMALL;
    if ((uintptr_t)buffer % m_arena_alignments[region])
        return TA_ERR_MISALIGNED_BUFFER;
    uintptr_t lo = (uintptr_t)buffer, hi = lo + m_arena_sizes[region];
    for (int r = 0; r < NUM_REGIONS; r++) {
        uintptr_t other = (uintptr_t)s.bound[r];
        if (r != region && other && lo < other + m_arena_sizes[r] && other < hi)
            return TA_ERR_OVERLAPPING_BUFFER;
    }
    return TA_OK;
}

static void bound_now(int region, void *buffer)
{
    s.bound[region] = buffer;
    if (s.initialized) {
        s.initialized = 0;
        s.rebound = 1;
    }
}

static int all_bound(void)
{
    for (int r = 0; r < NUM_REGIONS; r++)
        if (!s.bound[r])
            return 0;
    return 1;
}

/* A clean module: nothing bound, not initialized, latch cleared. No API
   unbinds, so the bindings the last input left are cleared in m_bound (the
   module's own table, m_internal.h); a model_init with nothing bound then
   clears the initialized and rebound flags, as documented. */
static void reset(void)
{
    memset(m_bound, 0, sizeof m_bound);
    memset(&s, 0, sizeof s);
    memset(&ctx_a, 0, sizeof ctx_a);
    memset(&ctx_b, 0, sizeof ctx_b);
    expect("model_init with nothing bound", m_model_init(&ctx_b), TA_ERR_UNBOUND_REGION);
    m_clear_hydrated();
}

/* ---- arguments ----------------------------------------------------------------- */

static m_model_context_t *pick_context(void)
{
    switch (byte() % 4) {
    case 0: return NULL;
    case 1: return &ctx_b;
    default: return &ctx_a;
    }
}

/* A buffer of the pool for `region` (any region number), as one of: NULL,
   aligned, misaligned, or over another bound region; with the size it is
   said to have, never beyond the pool. */
static void *pick_buffer(int region, size_t *size)
{
    int r = region >= 0 && region < NUM_REGIONS ? region : 0;
    size_t need = m_arena_sizes[r], align = m_arena_alignments[r];
    size_t off = word() % POOL_BYTES;
    unsigned kind = byte();
    void *buffer;
    switch (kind % 4) {
    case 0:
        buffer = NULL;
        off = 0;
        break;
    case 1: /* over a bound region, when there is one */
        for (int k = 0; k < NUM_REGIONS; k++)
            if (s.bound[(r + k + 1) % NUM_REGIONS] &&
                (unsigned char *)s.bound[(r + k + 1) % NUM_REGIONS] >= pool &&
                (unsigned char *)s.bound[(r + k + 1) % NUM_REGIONS] < pool + POOL_BYTES) {
                off = (size_t)((unsigned char *)s.bound[(r + k + 1) % NUM_REGIONS] - pool) +
                      byte() % 64;
                break;
            }
        /* fall through */
    case 2: off -= off % align; break; /* aligned */
    default: break;                    /* as drawn: misaligned mostly */
    }
    if (off + need > POOL_BYTES)
        off = (POOL_BYTES - need) & ~(align - 1);
    if (kind % 4)
        buffer = pool + off;
    size_t room = POOL_BYTES - off;
    switch ((kind >> 2) % 4) {
    case 0: *size = need; break;
    case 1: *size = need ? need - 1 - byte() % need : 0; break; /* too small */
    case 2: *size = room; break;
    default: *size = need + byte() % (room - need + 1); break;
    }
    return buffer;
}

/* ---- the calls ------------------------------------------------------------------ */

static void call_bind(void)
{
    int region = (int)(byte() % (NUM_REGIONS + 2)) - (byte() % 8 == 0 ? 1000 : 0);
    size_t size;
    void *buffer = pick_buffer(region, &size);
    long want = expected_bind(region, buffer, size);
    /* The caller's blob goes where a cold region will be bound. */
    if (want == TA_OK && is_cold(region))
        memcpy(buffer, blob[region], blob_size[region]);
    expect("bind_arena", m_bind_arena((m_arena_region_t)region, buffer, size), want);
    if (want == TA_OK)
        bound_now(region, buffer);
}

static void call_bind_all(void)
{
    void *buffers[NUM_REGIONS];
    size_t sizes[NUM_REGIONS];
    unsigned how = byte();
    size_t n = how % 8 == 0 ? NUM_REGIONS + 1 - byte() % 3 : NUM_REGIONS;
    for (int r = 0; r < NUM_REGIONS; r++)
        buffers[r] = pick_buffer(r, &sizes[r]);
    long want = TA_OK;
    if (how % 16 == 1 || how % 16 == 2)
        want = TA_ERR_BULK_NULL_ARGUMENT;
    else if (n != NUM_REGIONS)
        want = TA_ERR_BULK_WRONG_COUNT;
    /* The regions before the first refusal are bound, in order. */
    for (int r = 0; want == TA_OK && r < NUM_REGIONS; r++) {
        want = expected_bind(r, buffers[r], sizes[r]);
        if (want == TA_OK && is_cold(r))
            memcpy(buffers[r], blob[r], blob_size[r]);
        if (want == TA_OK)
            bound_now(r, buffers[r]);
    }
    long got = m_bind_arenas(how % 16 == 1 ? NULL : buffers, how % 16 == 2 ? NULL : sizes, n);
    expect("bind_arenas", got, want);
}

static void call_context_init(void)
{
    m_model_context_t *ctx = pick_context();
    long want = !ctx ? TA_ERR_NULL_CONTEXT : !all_bound() ? TA_ERR_UNBOUND_REGION : TA_OK;
    expect("context_init", m_context_init(ctx), want);
    if (want == TA_OK)
        s.hydrated = 0;
}

static void call_model_init(void)
{
    m_model_context_t *ctx = pick_context();
    long want = !ctx ? TA_ERR_NULL_CONTEXT : !all_bound() ? TA_ERR_UNBOUND_REGION : TA_OK;
    expect("model_init", m_model_init(ctx), want);
    if (ctx) {
        s.initialized = want == TA_OK;
        s.rebound = 0;
    }
    if (want == TA_OK) {
        s.hydrated = 1;
        s.live = ctx;
    }
}

/* The bound constants as the model wrote them: the input pointer of a
   context model_init did not set up since the last bind is stale, and
   quantize_input through it may have written into a blob. */
static int blobs_intact(void)
{
    for (int r = 0; r < NUM_REGIONS; r++)
        if (is_cold(r) && memcmp(s.bound[r], blob[r], blob_size[r]) != 0)
            return 0;
    return 1;
}

static void call_model_run(void)
{
    m_model_context_t *ctx = pick_context();
    /* Only the context the last successful model_init was given runs:
       another may point into buffers bound before. */
    long want = !ctx ? TA_ERR_NULL_CONTEXT
                : !s.initialized || ctx != s.live
                    ? (s.rebound ? TA_ERR_ARENA_REBOUND : TA_ERR_NOT_INITIALIZED)
                : !s.hydrated ? TA_ERR_HYDRATION_REQUIRED
                              : TA_OK;
    if (want == TA_OK)
        for (int i = 0; i < M_NUM_INPUTS; i++)
            for (size_t k = 0; k < s.live->inputs[i].size; k++)
                ((unsigned char *)s.live->inputs[i].data)[k] = (unsigned char)(k * 37u + 11u);
    expect("model_run", m_model_run(ctx), want);
    if (want != TA_OK || !blobs_intact())
        return;
    for (int i = 0; i < M_NUM_OUTPUTS; i++) {
        size_t n = s.live->outputs[i].size < 256 ? s.live->outputs[i].size : 256;
        if (!s.have_reference)
            memcpy(s.reference[i], s.live->outputs[i].data, n);
        else if (memcmp(s.reference[i], s.live->outputs[i].data, n) != 0)
            fail("model_run: outputs differ from the first successful run's", i, -1);
    }
    s.have_reference = 1;
}

static void call_hydrate(void)
{
    m_model_context_t *ctx = pick_context();
    long want = !ctx                  ? TA_ERR_NULL_CONTEXT
                : !ctx->arena_buffers ? TA_ERR_HYDRATE_UNINITIALIZED
                                      : TA_OK;
    for (int r = 0; want == TA_OK && !s.hydrated && r < NUM_REGIONS; r++)
        if (m_module_desc.staged[r] && !ctx->arena_buffers[r])
            want = TA_ERR_HYDRATE_NULL_BLOB;
    expect("hydrate_constants", m_hydrate_constants(ctx), want);
    if (want == TA_OK)
        s.hydrated = 1;
}

static void call_latch(void)
{
    switch (byte() % 3) {
    case 0:
        m_mark_hydrated();
        s.hydrated = 1;
        break;
    case 1:
        m_clear_hydrated();
        s.hydrated = 0;
        break;
    default: expect("is_hydrated", m_is_hydrated(), s.hydrated); break;
    }
}

static void call_io(int quantize)
{
    m_model_context_t *ctx = pick_context();
    int i = (int)(byte() % 4) - 1;
    size_t n = byte() % 4;
    float values[4] = {(float)(int8_t)byte(), -1e30f, 1e30f, 0.5f};
    float *buffer = byte() % 8 == 0 ? NULL : values;
    int num = quantize ? M_NUM_INPUTS : M_NUM_OUTPUTS;
    long want = TA_ERR_BAD_ARGUMENT;
    if (ctx && buffer && s.initialized && ctx == s.live && i >= 0 && i < num) {
        m_tensor_io_t *t = quantize ? &ctx->inputs[i] : &ctx->outputs[i];
        if (t->data && n <= t->size) /* int8 model: one byte an element */
            want = TA_OK;
    }
    long got = quantize ? m_quantize_input(ctx, i, buffer, n)
                        : m_dequantize_output(ctx, i, buffer, n);
    expect(quantize ? "quantize_input" : "dequantize_output", got, want);
}

/* The runtime arena binds every region of m_module_desc. */
static void call_arena_bind(ta_arena_t *arena)
{
    static _Alignas(64) unsigned char scratch[POOL_BYTES / 2 + 1];
    const void *blobs[NUM_REGIONS] = {0};
    size_t sizes[NUM_REGIONS] = {0};
    unsigned how = byte();
    for (int r = 0; r < NUM_REGIONS; r++) {
        blobs[r] = is_cold(r) && how % 5 ? blob[r] : NULL;
        sizes[r] = blob_size[r] - (how % 7 == 0 && blob_size[r]);
    }
    ta_bind_options_t options = {
        .scratch = how % 3 == 0 ? NULL : scratch + (how % 11 == 0),
        .scratch_size = word() % sizeof scratch,
        .scratch_source = (ta_bind_scratch_source_t)(byte() % 3),
        .const_blobs = how % 13 == 0 ? NULL : blobs,
        .const_blob_sizes = how % 2 ? sizes : NULL,
    };
    int status = ta_arena_bind_module(arena, &m_module_desc, how % 17 == 0 ? NULL : &options);
    switch (status) {
    case TA_OK:
    case TA_ERR_NOT_INITIALIZED:
    case TA_ERR_BAD_ARGUMENT:
    case TA_ERR_NULL_BUFFER:
    case TA_ERR_BUFFER_TOO_SMALL:
    case TA_ERR_MISALIGNED_BUFFER:
    case TA_ERR_ARENA_EXHAUSTED:
    case TA_ERR_ARENA_OVERFLOW:
    case TA_ERR_UNKNOWN_REGION:
    case TA_ERR_OVERLAPPING_BUFFER: break;
    default: fail("ta_arena_bind_module: an undocumented status", status, 0);
    }
    /* What it bound, through the module's bind: the shadow follows. */
    for (int r = 0; r < NUM_REGIONS; r++)
        if (m_bound[r] != s.bound[r])
            bound_now(r, m_bound[r]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    in = data;
    left = size;
    load_blobs();
    reset();
    ta_arena_t arena;
    memset(&arena, 0, sizeof arena);
    /* An arena of a drawn size (too small ones included), or none at all. */
    size_t arena_size = word() % (ARENA_BYTES + 1);
    if (byte() % 4)
        ta_arena_init(&arena, arena_mem + byte() % 8, arena_size - (arena_size >= 8 ? 8 : 0));
    while (left) {
        switch (byte() % 10) {
        case 0: call_bind(); break;
        case 1: call_bind_all(); break;
        case 2: call_context_init(); break;
        case 3: call_model_init(); break;
        case 4: call_model_run(); break;
        case 5: call_hydrate(); break;
        case 6: call_latch(); break;
        case 7: call_io(1); break;
        case 8: call_io(0); break;
        default: call_arena_bind(&arena); break;
        }
    }
    return 0;
}
