/* ta_weight_table.c - table-coded weights decoded; see the header. */
#include "ta_weight_table.h"

#include "../include/ta_simd.h"
#include "../include/ta_status.h"

#include <stdbool.h>
#include <string.h>

/* Layout 0: one index at a time from a bit buffer refilled byte by byte,
   so no byte past the stream is read. */
static void decode_stream(const ta_weight_table_params_t *p, const int8_t *tables,
                          const uint8_t *codes, int8_t *out)
{
    const uint32_t mask = (1u << p->bits) - 1u;
    uint32_t buffer = 0;
    int32_t held = 0, channel = 0, in_run = 0;
    const int8_t *table = tables;
    for (int32_t e = 0; e < p->count; e++) {
        while (held < p->bits) {
            buffer |= (uint32_t)*codes++ << held;
            held += 8;
        }
        out[e] = table[buffer & mask];
        buffer >>= p->bits;
        held -= p->bits;
        if (p->run > 0) {
            if (++in_run == p->run) { /* the next run's table */
                in_run = 0;
                table += (int32_t)1 << p->bits;
            }
        } else if (++channel == p->groups) { /* back to channel 0's table */
            channel = 0;
            table = tables;
        } else {
            table += (int32_t)1 << p->bits;
        }
    }
}

/* The values of the low nibbles of b's four bytes, in a word (little
   endian: byte k of the word, value k). */
static inline uint32_t four_values(const int8_t *table, uint32_t b)
{
    const uint8_t *t = (const uint8_t *)table;
    return (uint32_t)t[b & 15u] | (uint32_t)t[(b >> 8) & 15u] << 8 |
           (uint32_t)t[(b >> 16) & 15u] << 16 | (uint32_t)t[(b >> 24) & 15u] << 24;
}

/* Layout 1: `n` elements (a run) from 16-byte blocks of 32 indices. */
static void decode_nibble_run(const int8_t *table, const uint8_t *codes, int32_t n, int8_t *out)
{
    int32_t e = 0;
#if defined(TA_HAVE_MVE)
    /* Two gathers from the 16-entry table per block. */
    for (; e + 32 <= n; e += 32, codes += 16) {
        const uint8x16_t b = vld1q_u8(codes);
        vst1q_s8(out + e, vldrbq_gather_offset_s8(table, vandq_u8(b, vdupq_n_u8(15))));
        vst1q_s8(out + e + 16, vldrbq_gather_offset_s8(table, vshrq_n_u8(b, 4)));
    }
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* A word of indices at a time: four values a store. */
    for (; e + 32 <= n; e += 32, codes += 16)
        for (int32_t j = 0; j < 16; j += 4) {
            uint32_t b;
            memcpy(&b, codes + j, 4);
            const uint32_t lo = four_values(table, b), hi = four_values(table, b >> 4);
            memcpy(out + e + j, &lo, 4);
            memcpy(out + e + j + 16, &hi, 4);
        }
#else
    for (; e + 32 <= n; e += 32, codes += 16)
        for (int32_t j = 0; j < 16; j++) {
            const uint32_t b = codes[j];
            out[e + j] = table[b & 15u];
            out[e + j + 16] = table[b >> 4];
        }
#endif
    for (int32_t j = 0; e + j < n; j++) /* the last, partial block */
        out[e + j] = table[j < 16 ? codes[j] & 15u : (uint32_t)codes[j - 16] >> 4];
}

/* Layout 2: the bitmap's set bits take the kept values in order. */
static void decode_bitmap(const ta_weight_table_params_t *p, const uint8_t *stored, int8_t *out)
{
    const int8_t *values = (const int8_t *)stored + (p->count + 7) / 8;
    int32_t next = 0;
    for (int32_t e = 0; e < p->count; e++) {
        const bool kept = (stored[e / 8] >> (e % 8)) & 1u && next < p->kept;
        out[e] = kept ? values[next++] : 0;
    }
}

int ta_weight_table_s8(const ta_weight_table_params_t *p, const uint8_t *stored, int8_t *weights)
{
    if (p->layout == TA_WEIGHT_TABLE_BITMAP) {
        decode_bitmap(p, stored, weights);
        ta_weight_flip_even(weights, p->flipped);
        return TA_OK;
    }
    const int8_t *tables = (const int8_t *)stored;
    const uint8_t *codes = stored + (p->groups << p->bits);
    if (p->layout == TA_WEIGHT_TABLE_NIBBLE_BLOCKS) {
        const int32_t block_bytes = (p->run + 31) / 32 * 16;
        for (int32_t g = 0; g < p->groups; g++)
            decode_nibble_run(tables + g * 16, codes + g * block_bytes, p->run,
                              weights + g * p->run);
    } else {
        decode_stream(p, tables, codes, weights);
    }
    ta_weight_flip_even(weights, p->flipped);
    return TA_OK;
}
