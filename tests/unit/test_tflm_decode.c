/*
 * test_tflm_decode.c - the DECODE decoders of src/passes/tflm_decode.c on
 * hand-made cases (LUT per tensor and per channel along the last axis,
 * Huffman, Prune with per-channel zero points), then on corrupted copies of
 * them: every truncation of the ancillary and encoded bytes and random
 * byte changes, each in a buffer of exactly its size so that the sanitized
 * build catches any read past it. A corrupted case must decode or give a
 * reason, never crash.
 */
#include "passes/tflm_decode.h"

#include "check.h"

#include <stdlib.h>
#include <string.h>

typedef struct Case {
    const char *name;
    TaDtype dtype;
    int rank;
    int32_t dims[3];
    int channels; /* quantization scales; 0: none */
    int axis;
    int64_t zero_points[4];
    uint8_t encoded[16];
    size_t encoded_size;
    uint8_t ancillary[40];
    size_t ancillary_size;
    uint8_t expected[16]; /* the decoded bytes */
    size_t expected_size;
} Case;

/* The DCM header (16 bytes), then the type's tables. */
static const Case cases[] = {
    {.name = "LUT int8, 2 bits, one table",
     .dtype = TA_INT8,
     .rank = 2,
     .dims = {3, 4},
     .encoded = {0x1B, 0xE4, 0x5A},
     .encoded_size = 3,
     .ancillary = {0,  1,    0,  0,   1, 0xF2, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* */
                   10, 0xEC, 30, 0xD8},
     .ancillary_size = 20,
     .expected = {10, 0xEC, 30, 0xD8, 0xD8, 30, 0xEC, 10, 0xEC, 0xEC, 30, 30},
     .expected_size = 12},
    {.name = "LUT int16, 1 bit, tables along the last axis",
     .dtype = TA_INT16,
     .rank = 2,
     .dims = {2, 3},
     .channels = 3,
     .axis = 1,
     .encoded = {0x54},
     .encoded_size = 1,
     .ancillary = {0,   1, 0,   0, 1,    0x11, 2,    0,    0, 0, 0, 0, 0, 0, 0, 0, /* */
                   100, 0, 200, 0, 0xFF, 0xFF, 0xFE, 0xFF, 7, 0, 8, 0},
     .ancillary_size = 28,
     .expected = {100, 0, 0xFE, 0xFF, 7, 0, 200, 0, 0xFF, 0xFF, 8, 0},
     .expected_size = 12},
    {.name = "Huffman int8, 16-bit entries",
     .dtype = TA_INT8,
     .rank = 1,
     .dims = {6},
     .encoded = {0x59, 0, 0, 0, 0, 0, 0, 0},
     .encoded_size = 8,
     .ancillary = {1,    1,    0,    0,    1,    0x10, 0,    0,   0, 0, 0, 0, 0, 0, 0, 0, /* */
                   0x05, 0x88, 0x05, 0x88, 0xFD, 0x90, 0x09, 0x90},
     .ancillary_size = 24,
     .expected = {5, 0xFD, 9, 5, 5, 0xFD},
     .expected_size = 6},
    {.name = "Prune int8, zero points per channel",
     .dtype = TA_INT8,
     .rank = 2,
     .dims = {2, 3},
     .channels = 2,
     .zero_points = {4, -1},
     .encoded = {0xAC},
     .encoded_size = 1,
     .ancillary = {2, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* */
                   9, 8, 7, 6},
     .ancillary_size = 20,
     .expected = {9, 4, 8, 0xFF, 7, 6},
     .expected_size = 6},
};

typedef struct Output {
    TaTensor tensor;
    TaQuant quant;
    float scales[4];
} Output;

static void make_output(const Case *c, Output *o)
{
    memset(o, 0, sizeof *o);
    o->tensor.dtype = c->dtype;
    o->tensor.rank = c->rank;
    memcpy(o->tensor.dims, c->dims, sizeof c->dims);
    if (c->channels) {
        for (int i = 0; i < c->channels; i++)
            o->scales[i] = 0.5f;
        o->quant = (TaQuant){.num_scales = c->channels,
                             .scale = o->scales,
                             .num_zero_points = c->channels,
                             .zero_point = (int64_t *)c->zero_points,
                             .axis = c->axis};
        o->tensor.quant = &o->quant;
    }
}

/* Decodes from exact-size copies; returns whether it succeeded, and checks
   that a failure says why. */
static bool decode_copy(const Case *c, const uint8_t *enc, size_t enc_size, const uint8_t *anc,
                        size_t anc_size, uint8_t *out_copy)
{
    TaPool pool = {0};
    Output o;
    make_output(c, &o);
    uint8_t *e = malloc(enc_size ? enc_size : 1), *a = malloc(anc_size ? anc_size : 1);
    uint8_t *dest = malloc(c->expected_size);
    memcpy(e, enc, enc_size);
    memcpy(a, anc, anc_size);
    TaDecodeInput in = {.encoded = e,
                        .encoded_size = enc_size,
                        .ancillary = a,
                        .ancillary_size = anc_size,
                        .output = &o.tensor};
    const char *why = NULL;
    bool ok = ta_tflm_decode(&pool, &in, dest, &why);
    CHECK(ok || (why && *why), "%s: a failure without a reason", c->name);
    if (ok && out_copy)
        memcpy(out_copy, dest, c->expected_size);
    free(e);
    free(a);
    free(dest);
    ta_pool_free(&pool);
    return ok;
}

static void check_valid(const Case *c)
{
    uint8_t got[16];
    bool ok = decode_copy(c, c->encoded, c->encoded_size, c->ancillary, c->ancillary_size, got);
    CHECK(ok, "%s: refused", c->name);
    CHECK(!ok || memcmp(got, c->expected, c->expected_size) == 0, "%s: wrong values", c->name);
}

static void check_truncations(const Case *c)
{
    for (size_t n = 0; n < c->ancillary_size; n++)
        decode_copy(c, c->encoded, c->encoded_size, c->ancillary, n, NULL);
    for (size_t n = 0; n < c->encoded_size; n++)
        decode_copy(c, c->encoded, n, c->ancillary, c->ancillary_size, NULL);
    /* short of what a whole set of outputs needs: refused */
    CHECK(!decode_copy(c, c->encoded, c->encoded_size, c->ancillary, 15, NULL),
          "%s: a header of 15 bytes decoded", c->name);
}

/* A small deterministic generator (rand() differs between C libraries). */
static unsigned next_random(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return *state >> 8;
}

static void check_flips(const Case *c, int flips, unsigned *seed)
{
    uint8_t enc[16], anc[40];
    for (int k = 0; k < flips; k++) {
        memcpy(enc, c->encoded, c->encoded_size);
        memcpy(anc, c->ancillary, c->ancillary_size);
        int changes = 1 + next_random(seed) % 3;
        for (int j = 0; j < changes; j++) {
            unsigned r = (unsigned)next_random(seed);
            if (r % 4 == 0)
                enc[r / 4 % c->encoded_size] = (uint8_t)next_random(seed);
            else
                anc[r / 4 % (r % 4 == 1 ? 16 : c->ancillary_size)] = (uint8_t)next_random(seed);
        }
        decode_copy(c, enc, c->encoded_size, anc, c->ancillary_size, NULL);
    }
}

int main(void)
{
    unsigned seed = 12345;
    for (size_t i = 0; i < TA_COUNT_OF(cases); i++) {
        check_valid(&cases[i]);
        check_truncations(&cases[i]);
        check_flips(&cases[i], 3000, &seed);
    }
    return check_summary("tflm_decode");
}
