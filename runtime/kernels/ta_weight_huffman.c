/* ta_weight_huffman.c - Huffman-coded weights decoded; see the header. */
#include "ta_weight_huffman.h"

#include "../include/ta_status.h"

/* The stream's next bits, the next one at bit 31; `held` of them are real
   or zeros past the end. */
typedef struct {
    const uint8_t *next, *end;
    uint32_t bits;
    int32_t held;
} BitReader;

/* At least 25 bits held, so one code (at most 16 bits) needs no refill. */
static inline void refill(BitReader *r)
{
    while (r->held <= 24) {
        const uint32_t byte = r->next < r->end ? *r->next++ : 0u;
        r->bits |= byte << (24 - r->held);
        r->held += 8;
    }
}

/* n: 1 to 25 bits. */
static inline uint32_t take(BitReader *r, int32_t n)
{
    const uint32_t v = r->bits >> (32 - n);
    r->bits <<= n;
    r->held -= n;
    return v;
}

/* A code longer than the lookup: its lookup_bits prefix, then one bit a
   length through the canonical ranges (the counts). */
static int8_t decode_long(const ta_weight_huffman_params_t *p, const uint8_t *counts,
                          const int8_t *symbols, BitReader *r)
{
    uint32_t code = take(r, p->lookup_bits), first = (uint32_t)p->first_long, index = 0;
    for (int32_t k = 0; k < p->max_length - p->lookup_bits; k++) {
        code = code << 1 | take(r, 1);
        first <<= 1;
        const uint32_t n = (uint32_t)counts[2 * k] | (uint32_t)counts[2 * k + 1] << 8;
        if (code - first < n) {
            const uint32_t i = index + (code - first);
            return i < (uint32_t)p->long_symbols ? symbols[i] : 0;
        }
        index += n;
        first += n;
    }
    return 0; /* no code: a corrupted stream */
}

int ta_weight_huffman_s8(const ta_weight_huffman_params_t *p, const uint8_t *stored,
                         int8_t *weights)
{
    const int32_t b = p->lookup_bits;
    const uint8_t *counts = stored + (2 << b);
    const int8_t *symbols = (const int8_t *)counts + 2 * (p->max_length - b);
    const uint8_t *stream = stored + ta_weight_huffman_table_bytes(p);
    BitReader r = {stream + p->first_bit / 8, stream + p->stream_bytes, 0u, 0};
    refill(&r);
    if (p->first_bit % 8 != 0)
        take(&r, p->first_bit % 8);
    for (int32_t e = 0; e < p->count; e++) {
        refill(&r);
        const uint8_t *entry = stored + 2 * (r.bits >> (32 - b));
        const uint32_t length = entry[1];
        if (length - 1u < (uint32_t)b) {
            weights[e] = (int8_t)entry[0];
            r.bits <<= length;
            r.held -= (int32_t)length;
        } else {
            weights[e] = decode_long(p, counts, symbols, &r);
        }
    }
    return TA_OK;
}
