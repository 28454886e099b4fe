/* ta_weight_huffman.c - Huffman-coded weights decoded; see the header. */
#include "ta_weight_huffman.h"

#include "ta_weight_table.h"

#include "../include/ta_status.h"

#include <string.h>

/* The stream's next bits, the next one at bit 31; `held` of them are real
   or zeros past the end. Copied into locals in the decode loop, so that
   they stay in registers. */
typedef struct {
    const uint8_t *next, *end;
    uint32_t bits;
    int32_t held;
} BitReader;

/* At least 17 bits held, so one code (at most 16 bits) needs no refill:
   two bytes a time, zeros past the end. */
static inline void refill(BitReader *r)
{
    while (r->held <= 16) {
        uint32_t two = 0;
        if (r->end - r->next >= 2) {
            two = (uint32_t)r->next[0] << 8 | r->next[1];
            r->next += 2;
        } else if (r->next < r->end) {
            two = (uint32_t)*r->next++ << 8;
        }
        r->bits |= two << (16 - r->held);
        r->held += 16;
    }
}

/* n: 1 to 17 bits (refilled before). */
static inline uint32_t take(BitReader *r, int32_t n)
{
    const uint32_t v = r->bits >> (32 - n);
    r->bits <<= n;
    r->held -= n;
    return v;
}

/* Rare paths out of line, so the decode loop keeps its values in registers. */
#if defined(__GNUC__)
#define TA_HUFFMAN_COLD __attribute__((noinline, cold))
#else
#define TA_HUFFMAN_COLD
#endif

/* A code longer than the lookup: its lookup_bits prefix, then one bit a
   length through the canonical ranges (the counts). */
TA_HUFFMAN_COLD static int8_t decode_long(const ta_weight_huffman_params_t *p,
                                          const uint8_t *counts, const int8_t *symbols,
                                          BitReader *r)
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

/* A checked refill for the stream's last bytes. */
TA_HUFFMAN_COLD static BitReader refill_tail(BitReader r)
{
    refill(&r);
    return r;
}

/* A long code: the value, and the reader after it (by value, so the
   decode loop's copies need no address). */
typedef struct {
    BitReader r;
    int8_t value;
} LongCode;

TA_HUFFMAN_COLD static LongCode long_code(const ta_weight_huffman_params_t *p,
                                          const uint8_t *counts, const int8_t *symbols, BitReader r)
{
    LongCode c;
    refill(&r); /* the loops below may enter with as few as lookup_bits held */
    c.value = decode_long(p, counts, symbols, &r);
    refill(&r); /* and take two lookups after each refill */
    c.r = r;
    return c;
}

/* The decode state in locals (kept in registers by the loops below). */
#define TA_HUFFMAN_STATE(p, stored, entry_bytes)                                      \
    const int32_t b = (p)->lookup_bits, drop = 32 - b;                                \
    const uint8_t *const lookup = (stored);                                           \
    const uint8_t *const counts = lookup + ((entry_bytes) << b);                      \
    const int8_t *const symbols = (const int8_t *)counts + 2 * ((p)->max_length - b); \
    const uint8_t *const stream = lookup + ta_weight_huffman_table_bytes(p);          \
    const uint8_t *const end = stream + (p)->stream_bytes;                            \
    BitReader r = start((p), stream, end);                                            \
    uint32_t bits = r.bits;                                                           \
    int32_t held = r.held;                                                            \
    const uint8_t *next = r.next

/* At least 17 bits held: two bytes unchecked while two remain, else the
   checked refill. */
#define TA_HUFFMAN_REFILL()                                                \
    do {                                                                   \
        if (held <= 16) {                                                  \
            if (end - next >= 2) {                                         \
                bits |= ((uint32_t)next[0] << 8 | next[1]) << (16 - held); \
                next += 2;                                                 \
                held += 16;                                                \
            } else {                                                       \
                r = refill_tail((BitReader){next, end, bits, held});       \
                bits = r.bits, held = r.held, next = r.next;               \
            }                                                              \
        }                                                                  \
    } while (0)

/* One code past the lookup, its value stored at *out. */
#define TA_HUFFMAN_LONG(out)                                                                  \
    do {                                                                                      \
        const LongCode c = long_code(p, counts, symbols, (BitReader){next, end, bits, held}); \
        *(out) = c.value;                                                                     \
        bits = c.r.bits, held = c.r.held, next = c.r.next;                                    \
    } while (0)

/* The reader at bit first_bit of the stream. */
static BitReader start(const ta_weight_huffman_params_t *p, const uint8_t *stream,
                       const uint8_t *end)
{
    BitReader r = {stream + p->first_bit / 8, end, 0u, 0};
    refill(&r);
    if (p->first_bit % 8 != 0)
        take(&r, p->first_bit % 8);
    return r;
}

/* One lookup of two-byte entries: one value. At least lookup_bits held. */
#define TA_HUFFMAN_SINGLE_STEP()                               \
    do {                                                       \
        const uint8_t *entry = lookup + ((bits >> drop) << 1); \
        const uint32_t length = entry[1];                      \
        if (length - 1u < (uint32_t)b) {                       \
            *out = (int8_t)entry[0];                           \
            bits <<= length;                                   \
            held -= (int32_t)length;                           \
        } else {                                               \
            TA_HUFFMAN_LONG(out);                              \
        }                                                      \
        out++;                                                 \
    } while (0)

/* One lookup of four-byte entries: the entry's two value bytes stored
   whole (the second overwritten when the entry holds one value), then on
   by one value or two, branch-free. At least lookup_bits held and room
   for two values. */
#define TA_HUFFMAN_PAIR_STEP()                                 \
    do {                                                       \
        const uint8_t *entry = lookup + ((bits >> drop) << 2); \
        const uint32_t used = entry[2];                        \
        if (used - 1u < (uint32_t)b) {                         \
            memcpy(out, entry, 2);                             \
            out += 1 + (entry[3] >> 7);                        \
            bits <<= used;                                     \
            held -= (int32_t)used;                             \
        } else {                                               \
            TA_HUFFMAN_LONG(out);                              \
            out++;                                             \
        }                                                      \
    } while (0)

/* Two lookups a refill: a refill leaves at least 17 bits, a lookup takes
   at most lookup_bits (8), the long path refills itself. */
static void decode_singles(const ta_weight_huffman_params_t *p, const uint8_t *stored,
                           int8_t *weights)
{
    TA_HUFFMAN_STATE(p, stored, 2);
    int8_t *out = weights, *const stop = weights + p->count;
    while (stop - out >= 2) {
        TA_HUFFMAN_REFILL();
        TA_HUFFMAN_SINGLE_STEP();
        TA_HUFFMAN_SINGLE_STEP();
    }
    if (out < stop) {
        TA_HUFFMAN_REFILL();
        TA_HUFFMAN_SINGLE_STEP();
    }
}

static void decode_pairs(const ta_weight_huffman_params_t *p, const uint8_t *stored,
                         int8_t *weights)
{
    TA_HUFFMAN_STATE(p, stored, 4);
    int8_t *out = weights, *const stop = weights + p->count;
    while (stop - out >= 4) {
        TA_HUFFMAN_REFILL();
        TA_HUFFMAN_PAIR_STEP();
        TA_HUFFMAN_PAIR_STEP();
    }
    while (stop - out >= 2) {
        TA_HUFFMAN_REFILL();
        TA_HUFFMAN_PAIR_STEP();
    }
    if (out < stop) { /* the last value alone: the first code's length */
        TA_HUFFMAN_REFILL();
        const uint8_t *entry = lookup + ((bits >> drop) << 2);
        const uint32_t length = entry[3] & 0x7Fu;
        if (length - 1u < (uint32_t)b)
            *out = (int8_t)entry[0];
        else
            TA_HUFFMAN_LONG(out);
    }
}

int ta_weight_huffman_s8(const ta_weight_huffman_params_t *p, const uint8_t *stored,
                         int8_t *weights)
{
    if (p->pairs)
        decode_pairs(p, stored, weights);
    else
        decode_singles(p, stored, weights);
    ta_weight_flip_even(weights, p->flipped);
    return TA_OK;
}
