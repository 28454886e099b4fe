/*
 * test_weight_huffman.c - weights stored as Huffman codes (src/lower/
 * weight_huffman.c, runtime/kernels/ta_weight_huffman.c): skewed, flat,
 * single-value and Fibonacci-counted values (codes past 16 bits, so the
 * lengths are limited) decode to the values they were coded from, with
 * lookups of every width, one or two values a lookup; and the decoder, given any bytes at all in a
 * buffer of exactly the size its parameters give, reads no byte outside
 * it and writes no byte outside the output (AddressSanitizer in the
 * sanitized build).
 */
#include "../../runtime/include/ta_status.h"
#include "../../runtime/kernels/ta_weight_huffman.h"
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

enum { FLAT, SKEWED, ONE, FIBONACCI, ALL_256 };

static int8_t draw(int shape, int levels)
{
    switch (shape) {
    case FLAT: return (int8_t)(next_u32() % (uint32_t)levels * 7);
    case SKEWED: { /* value k with probability about 2^-(k+1) */
        int k = 0;
        while (k + 1 < levels && next_u32() % 2 == 0)
            k++;
        return (int8_t)(k * 13 - 60);
    }
    case ONE: return -3;
    case ALL_256: return (int8_t)next_u32();
    default: { /* value k with weight fib(k): depths far past 16 */
        static const uint32_t fib[] = {1,    1,    2,    3,    5,     8,     13,    21,
                                       34,   55,   89,   144,  233,   377,   610,   987,
                                       1597, 2584, 4181, 6765, 10946, 17711, 28657, 46368};
        uint32_t r = next_u32() % 121392u; /* the sum of fib */
        int k = 0;
        while (r >= fib[k]) {
            r -= fib[k];
            k++;
        }
        return (int8_t)(k - 12);
    }
    }
}

static int pairs_seen;

static void check_round_trip(int32_t n, int shape, int levels)
{
    int8_t *values = malloc((size_t)n);
    for (int32_t e = 0; e < n; e++)
        values[e] = draw(shape, levels);
    TaPool pool = {0};
    TaWeightHuffman h;
    CHECK(ta_weight_huffman_encode(&pool, values, n, &h), "n %d: not coded", (int)n);
    CHECK(h.stored_bytes == ta_weight_huffman_bytes(&h.params), "stored bytes");
    CHECK(h.params.max_length <= TA_WEIGHT_HUFFMAN_MAX_LENGTH &&
              h.params.lookup_bits <= TA_WEIGHT_HUFFMAN_MAX_LOOKUP_BITS,
          "n %d shape %d: length %d lookup %d", (int)n, shape, (int)h.params.max_length,
          (int)h.params.lookup_bits);
    uint8_t *stored = malloc((size_t)h.stored_bytes);
    memcpy(stored, h.stored, (size_t)h.stored_bytes);
    int8_t *out = malloc((size_t)n);
    CHECK(ta_weight_huffman_s8(&h.params, stored, out) == TA_OK, "status");
    CHECK(memcmp(out, values, (size_t)n) == 0,
          "n %d shape %d levels %d: lookup %d length %d long %d pairs %d decodes to other values",
          (int)n, shape, levels, (int)h.params.lookup_bits, (int)h.params.max_length,
          (int)h.params.long_symbols, (int)h.params.pairs);
    pairs_seen += h.params.pairs;
    free(out);
    free(stored);
    ta_pool_free(&pool);
    free(values);
}

/* Random bytes as the stored constant for random parameters. */
static void check_any_bytes(int lookup_bits)
{
    ta_weight_huffman_params_t p = {.lookup_bits = lookup_bits};
    p.max_length = lookup_bits + (int32_t)(next_u32() % (uint32_t)(17 - lookup_bits));
    p.long_symbols = (int32_t)(next_u32() % 257u);
    p.first_long = (int32_t)(next_u32() % ((1u << lookup_bits) + 1u));
    p.stream_bytes = (int32_t)(next_u32() % 64u);
    p.first_bit = (int32_t)(next_u32() % (uint32_t)(p.stream_bytes * 8 + 1));
    p.count = (int32_t)(next_u32() % 700u);
    p.pairs = (int32_t)(next_u32() % 2u);
    const int32_t bytes = ta_weight_huffman_bytes(&p);
    uint8_t *stored = malloc((size_t)bytes);
    for (int32_t i = 0; i < bytes; i++)
        stored[i] = (uint8_t)next_u32();
    int8_t *out = malloc(p.count > 0 ? (size_t)p.count : 1u); /* exactly the values */
    CHECK(ta_weight_huffman_s8(&p, stored, out) == TA_OK, "status");
    free(out);
    free(stored);
}

int main(void)
{
    static const int32_t counts[] = {1, 2, 7, 64, 100, 1000, 5000, 40000};
    static const int levels[] = {1, 2, 3, 16, 30};
    for (size_t c = 0; c < TA_COUNT_OF(counts); c++) {
        for (size_t l = 0; l < TA_COUNT_OF(levels); l++) {
            check_round_trip(counts[c], FLAT, levels[l]);
            check_round_trip(counts[c], SKEWED, levels[l]);
        }
        check_round_trip(counts[c], ONE, 1);
        check_round_trip(counts[c], FIBONACCI, 0);
        check_round_trip(counts[c], ALL_256, 0);
    }
    CHECK(pairs_seen > 0, "no coding took two values a lookup");
    for (int k = 0; k < 4000; k++)
        check_any_bytes(1 + k % TA_WEIGHT_HUFFMAN_MAX_LOOKUP_BITS);
    return check_summary("weight_huffman");
}
