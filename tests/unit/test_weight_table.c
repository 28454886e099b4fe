/*
 * test_weight_table.c - weights stored as tables (src/lower/
 * weight_table_encode.c, runtime/kernels/ta_weight_table.c): every coding
 * the encoder chooses decodes to the values it was given (1 to 130
 * distinct values, per tensor or per channel, runs or last-axis channels,
 * counts across whole and partial 32-element blocks; a bitmap of the
 * values that are not zero for sparse ones), and the decoder,
 * given any bytes at all in a buffer of exactly the size its parameters
 * give, reads no byte outside it and writes no byte outside the output
 * (AddressSanitizer in the sanitized build): every index has a table
 * entry by construction, so a corrupted stream gives wrong values, never
 * an out-of-bounds read.
 */
#include "../../runtime/include/ta_status.h"
#include "../../runtime/kernels/ta_weight_table.h"
#include "lower/weight_table.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "xorshift.h"

static uint32_t rng_state = 24u;

static uint32_t next_u32(void)
{
    return xorshift32(&rng_state);
}

/* Values drawn from `levels` of their own, one set or one per channel
   (channel of element e: e / (n / channels) along axis 0, or e % channels). */
static void draw(int8_t *v, int32_t n, int32_t channels, int levels, int mode)
{
    int8_t pools[64][130];
    for (int32_t c = 0; c < channels; c++)
        for (int k = 0; k < levels; k++)
            pools[c][k] = (int8_t)(next_u32() & 0xFF);
    for (int32_t e = 0; e < n; e++) {
        const int32_t c = mode == 0 ? 0 : mode == 1 ? e / (n / channels) : e % channels;
        v[e] = pools[c][next_u32() % (uint32_t)levels];
    }
}

/* Encoded, copied into an exact-size buffer, decoded into an exact-size one. */
static void check_round_trip(int32_t n, int32_t channels, int levels, int mode)
{
    int8_t *values = malloc((size_t)n);
    draw(values, n, channels, levels, mode);
    TaPool pool = {0};
    TaWeightTable t;
    const bool ok = ta_weight_table_encode(&pool, values, n, channels, &t);
    CHECK(ok || levels > 128, "n %d channels %d levels %d: not coded", (int)n, (int)channels,
          levels);
    if (ok) {
        CHECK(t.stored_bytes == ta_weight_table_bytes(&t.params), "stored bytes %d", (int)n);
        uint8_t *stored = malloc((size_t)t.stored_bytes);
        memcpy(stored, t.stored, (size_t)t.stored_bytes);
        int8_t *out = malloc((size_t)n);
        CHECK(ta_weight_table_s8(&t.params, stored, out) == TA_OK, "status");
        CHECK(memcmp(out, values, (size_t)n) == 0,
              "n %d channels %d levels %d mode %d: bits %d groups %d run %d layout %d decodes "
              "to other values",
              (int)n, (int)channels, levels, mode, (int)t.params.bits, (int)t.params.groups,
              (int)t.params.run, (int)t.params.layout);
        free(out);
        free(stored);
    }
    ta_pool_free(&pool);
    free(values);
}

/* Mostly zeros with any values between: the bitmap is the smallest coding. */
static void check_sparse_round_trip(int32_t n)
{
    int8_t *values = malloc((size_t)n);
    for (int32_t e = 0; e < n; e++)
        values[e] = next_u32() % 8 == 0 ? (int8_t)(next_u32() | 1u) : 0;
    TaPool pool = {0};
    TaWeightTable t;
    CHECK(ta_weight_table_encode(&pool, values, n, 1, &t), "n %d: not coded", (int)n);
    CHECK(n < 64 || t.params.layout == TA_WEIGHT_TABLE_BITMAP, "n %d: layout %d", (int)n,
          (int)t.params.layout);
    uint8_t *stored = malloc((size_t)t.stored_bytes);
    memcpy(stored, t.stored, (size_t)t.stored_bytes);
    int8_t *out = malloc((size_t)n);
    CHECK(ta_weight_table_s8(&t.params, stored, out) == TA_OK, "status");
    CHECK(memcmp(out, values, (size_t)n) == 0, "n %d: the bitmap decodes to other values", (int)n);
    free(out);
    free(stored);
    ta_pool_free(&pool);
    free(values);
}

/* Random bytes as the stored constant for every parameter shape. */
static void check_any_bytes(int32_t n, int32_t groups, int bits, bool runs, int layout)
{
    ta_weight_table_params_t p = {
        .count = n, .bits = bits, .groups = groups, .run = runs ? n / groups : 0, .layout = layout};
    const int32_t bytes = ta_weight_table_bytes(&p);
    uint8_t *stored = malloc((size_t)bytes);
    for (int32_t i = 0; i < bytes; i++)
        stored[i] = (uint8_t)next_u32();
    int8_t *out = malloc((size_t)n);
    CHECK(ta_weight_table_s8(&p, stored, out) == TA_OK, "status");
    free(out);
    free(stored);
}

int main(void)
{
    static const int levels[] = {1, 2, 3, 4, 5, 8, 9, 16, 17, 33, 64, 100, 128, 130};
    static const int32_t counts[] = {1, 2, 7, 15, 16, 17, 31, 32, 33, 63, 64, 65, 96, 100, 257};
    for (size_t c = 0; c < TA_COUNT_OF(counts); c++)
        for (size_t l = 0; l < TA_COUNT_OF(levels); l++)
            for (int32_t channels = 1; channels <= 5; channels++)
                for (int mode = 0; mode < 3; mode++)
                    if (counts[c] % channels == 0 && (channels > 1 || mode == 0))
                        check_round_trip(counts[c], channels, levels[l], mode);
    for (size_t c = 0; c < TA_COUNT_OF(counts); c++)
        for (int32_t groups = 1; groups <= 4; groups++)
            for (int bits = 1; bits <= 7; bits++)
                if (counts[c] % groups == 0) {
                    check_any_bytes(counts[c], groups, bits, true, TA_WEIGHT_TABLE_STREAM);
                    check_any_bytes(counts[c], groups, bits, false, TA_WEIGHT_TABLE_STREAM);
                    if (bits == 4)
                        check_any_bytes(counts[c], groups, 4, true, TA_WEIGHT_TABLE_NIBBLE_BLOCKS);
                }
    for (size_t c = 0; c < TA_COUNT_OF(counts); c++)
        for (int k = 0; k < 8; k++) {
            check_any_bytes(counts[c], 1, 1, false, TA_WEIGHT_TABLE_BITMAP);
            check_sparse_round_trip(counts[c] * (k + 1));
        }
    return check_summary("weight_table");
}
