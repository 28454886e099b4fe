/*
 * fake_modules.c - the two stand-in modules of fake_modules.h.
 */
#include "fake_modules.h"

#include "ta_status.h"

/* ---- descriptors (what the generator would emit) ---------------------- */

static const size_t wake_sizes[] = {3000, 1000, 512, 256};
static const size_t wake_aligns[] = {16, 16, 16, 32};
static const unsigned char wake_roles[] = {TA_REGION_SCRATCH, TA_REGION_PERSISTENT,
                                           TA_REGION_CONSTANT, TA_REGION_CONSTANT};
static const unsigned char wake_staged[] = {0, 0, 0, 1};
static const char *const wake_sidecars[] = {NULL, NULL, "wake_arena_const_blob.bin", NULL};
static int wake_bind_arena(int region, void *buffer, size_t size);

const ta_module_desc_t wake_module_desc = {"wake",     4,           wake_sizes,    wake_aligns,
                                           wake_roles, wake_staged, wake_sidecars, wake_bind_arena};

static const size_t clf_sizes[] = {5000, 700, 1024, 100};
static const size_t clf_aligns[] = {64, 32, 16, 16};
static const unsigned char clf_roles[] = {TA_REGION_SCRATCH, TA_REGION_PERSISTENT,
                                          TA_REGION_CONSTANT, TA_REGION_SCRATCH};
static const unsigned char clf_staged[] = {0, 0, 0, 0};
static const char *const clf_sidecars[] = {NULL, NULL, "clf_arena_const_blob.bin", NULL};
static int clf_bind_arena(int region, void *buffer, size_t size);

const ta_module_desc_t clf_module_desc = {"clf",     4,          clf_sizes,    clf_aligns,
                                          clf_roles, clf_staged, clf_sidecars, clf_bind_arena};

fake_module_t fake_wake = {&wake_module_desc, 11, {0}, {0}, 0, -1, 0, 0};
fake_module_t fake_clf = {&clf_module_desc, 29, {0}, {0}, 0, -1, 0, 0};

/* ---- binding ----------------------------------------------------------- */

static int fake_bind(fake_module_t *m, int region, void *buffer, size_t size)
{
    const ta_module_desc_t *d = m->desc;
    m->bind_calls++;
    if (region < 0 || (unsigned)region >= d->num_regions) {
        return TA_ERR_UNKNOWN_REGION;
    }
    if (buffer == NULL) {
        return TA_ERR_NULL_BUFFER;
    }
    if (size < d->sizes[region]) {
        return TA_ERR_BUFFER_TOO_SMALL;
    }
    if (((uintptr_t)buffer & (uintptr_t)(d->alignments[region] - 1)) != 0) {
        return TA_ERR_MISALIGNED_BUFFER;
    }
    if (region == m->fail_region) {
        return m->fail_status;
    }
    m->bound[region] = buffer;
    m->bound_size[region] = size;
    return TA_OK;
}

static int wake_bind_arena(int region, void *buffer, size_t size)
{
    return fake_bind(&fake_wake, region, buffer, size);
}

static int clf_bind_arena(int region, void *buffer, size_t size)
{
    return fake_bind(&fake_clf, region, buffer, size);
}

void fake_reset(fake_module_t *m)
{
    unsigned r;
    for (r = 0; r < FAKE_MAX_REGIONS; r++) {
        m->bound[r] = NULL;
        m->bound_size[r] = 0;
    }
    m->bind_calls = 0;
    m->fail_region = -1;
    m->fail_status = 0;
    m->initialized = 0;
}

/* ---- constants ----------------------------------------------------------- */

static unsigned char const_byte(const fake_module_t *m, unsigned region, size_t j)
{
    return (unsigned char)((j * (m->seed + 3u) + region * 7u + m->seed + (j >> 7)) & 0xFFu);
}

void fake_make_blob(const fake_module_t *m, unsigned region, unsigned char *out, size_t size)
{
    size_t j;
    for (j = 0; j < size; j++) {
        out[j] = const_byte(m, region, j);
    }
}

/* ---- init and run -------------------------------------------------------- */

int fake_model_init(fake_module_t *m)
{
    const ta_module_desc_t *d = m->desc;
    unsigned r;
    size_t j;

    m->initialized = 0;
    for (r = 0; r < d->num_regions; r++) {
        if (m->bound[r] == NULL) {
            return TA_ERR_UNBOUND_REGION;
        }
    }
    for (r = 0; r < d->num_regions; r++) {
        unsigned char *b = (unsigned char *)m->bound[r];
        if (d->roles[r] == TA_REGION_PERSISTENT) {
            for (j = 0; j < d->sizes[r]; j++) {
                b[j] = 0;
            }
        } else if (d->roles[r] == TA_REGION_CONSTANT && d->staged[r]) {
            fake_make_blob(m, r, b, d->sizes[r]); /* hydration */
        }
    }
    m->initialized = 1;
    return TA_OK;
}

/* Bytes of scratch region r given the input. */
static unsigned char scratch_byte(const int8_t *input, unsigned r, size_t j)
{
    return (unsigned char)((unsigned char)input[j % FAKE_INPUT_LEN] + j + r);
}

/*
 * The model, written once over "where the bytes are": persistent region p,
 * scratch regions read back from `scratch`, constants from `consts`.
 */
typedef struct {
    unsigned char *persistent;
    size_t persistent_size;
    unsigned char *scratch[FAKE_MAX_REGIONS];
    const unsigned char *consts[FAKE_MAX_REGIONS];
} fake_view_t;

static uint32_t compute(const ta_module_desc_t *d, const fake_view_t *v, const int8_t *input)
{
    uint32_t acc, counter;
    unsigned r, c;
    size_t j;

    for (r = 0; r < d->num_regions; r++) {
        if (v->scratch[r] != NULL) {
            for (j = 0; j < d->sizes[r]; j++) {
                v->scratch[r][j] = scratch_byte(input, r, j);
            }
        }
    }
    counter = (uint32_t)v->persistent[0] | ((uint32_t)v->persistent[1] << 8) |
              ((uint32_t)v->persistent[2] << 16) | ((uint32_t)v->persistent[3] << 24);
    acc = counter * 1000u;
    for (j = 4; j < v->persistent_size; j++) {
        acc += v->persistent[j];
    }
    for (r = 0; r < d->num_regions; r++) {
        if (v->scratch[r] == NULL) {
            continue;
        }
        for (j = 0; j < d->sizes[r]; j++) {
            uint32_t w = 0;
            for (c = 0; c < d->num_regions; c++) {
                if (v->consts[c] != NULL) {
                    w += v->consts[c][j % d->sizes[c]];
                }
            }
            acc += (uint32_t)v->scratch[r][j] * w;
        }
    }
    counter++;
    v->persistent[0] = (unsigned char)(counter & 0xFFu);
    v->persistent[1] = (unsigned char)((counter >> 8) & 0xFFu);
    v->persistent[2] = (unsigned char)((counter >> 16) & 0xFFu);
    v->persistent[3] = (unsigned char)((counter >> 24) & 0xFFu);
    v->persistent[4 + counter % (v->persistent_size - 4)] ^= (unsigned char)(acc & 0xFFu);
    return acc;
}

int fake_model_run(fake_module_t *m, const int8_t *input, uint32_t *output)
{
    const ta_module_desc_t *d = m->desc;
    fake_view_t v;
    unsigned r;

    if (!m->initialized) {
        return TA_ERR_NOT_INITIALIZED;
    }
    v.persistent = NULL;
    v.persistent_size = 0;
    for (r = 0; r < FAKE_MAX_REGIONS; r++) {
        v.scratch[r] = NULL;
        v.consts[r] = NULL;
    }
    for (r = 0; r < d->num_regions; r++) {
        if (d->roles[r] == TA_REGION_SCRATCH) {
            v.scratch[r] = (unsigned char *)m->bound[r];
        } else if (d->roles[r] == TA_REGION_CONSTANT) {
            v.consts[r] = (const unsigned char *)m->bound[r];
        } else {
            v.persistent = (unsigned char *)m->bound[r];
            v.persistent_size = d->sizes[r];
        }
    }
    *output = compute(d, &v, input);
    return TA_OK;
}

uint32_t fake_oracle_run(const fake_module_t *m, fake_oracle_t *state, const int8_t *input)
{
    static unsigned char scratch[FAKE_MAX_REGIONS][8192];
    static unsigned char consts[FAKE_MAX_REGIONS][2048];
    const ta_module_desc_t *d = m->desc;
    fake_view_t v;
    unsigned r;

    v.persistent = state->persistent;
    v.persistent_size = 0;
    for (r = 0; r < FAKE_MAX_REGIONS; r++) {
        v.scratch[r] = NULL;
        v.consts[r] = NULL;
    }
    for (r = 0; r < d->num_regions; r++) {
        if (d->roles[r] == TA_REGION_SCRATCH) {
            v.scratch[r] = scratch[r];
        } else if (d->roles[r] == TA_REGION_CONSTANT) {
            fake_make_blob(m, r, consts[r], d->sizes[r]);
            v.consts[r] = consts[r];
        } else {
            v.persistent_size = d->sizes[r];
        }
    }
    return compute(d, &v, input);
}
