/*
 * ta_weight_huffman.h - int8 weights stored as a canonical Huffman code
 * (TFLite Micro's TFLM_DECODE Huffman weights, re-coded at conversion;
 * skewed value counts), decoded into a scratch tensor right before the
 * operator that reads them, or a piece of it at a time.
 *
 * The stored constant is, in order:
 *   lookup   2^lookup_bits entries of two bytes: the value, then the
 *            length of the code the entry's lookup_bits-bit prefix starts
 *            (1 to lookup_bits), or 0 for a prefix of a longer code; with
 *            `pairs`, four bytes: the value; the value of a second code
 *            that the prefix holds whole after the first (0 when none);
 *            the bits the entry takes (the first code's length, or both
 *            codes' when it holds two; 0 for a prefix of a longer code);
 *            the first code's length, plus 128 when the entry holds two
 *            values. So one lookup gives two values, stored as the entry's
 *            first two bytes (larger tensors, where the lookup's bytes are
 *            few against the stream's);
 *   counts   one byte pair (little endian) per length lookup_bits + 1 to
 *            max_length: how many codes have that length;
 *   symbols  the long_symbols values of the longer codes, in code order;
 *   stream   stream_bytes bytes, the codes most significant bit first
 *            from bit 7 of byte 0; decoding starts at bit first_bit.
 * Codes are canonical: of one length they are consecutive, and every code
 * of a length comes after every shorter one, so the lookup's first
 * first_long prefixes are the short codes and the rest start long ones.
 * A stream that ends early reads as zeros and a count or prefix that
 * points past the symbols gives 0: no input reads past the constant.
 * `flipped`: as ta_weight_table.h's.
 */
#ifndef TA_WEIGHT_HUFFMAN_H
#define TA_WEIGHT_HUFFMAN_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_WEIGHT_HUFFMAN_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, count)                                  \
    FIELD(int32_t, lookup_bits)                            \
    FIELD(int32_t, max_length)                             \
    FIELD(int32_t, long_symbols)                           \
    FIELD(int32_t, first_long)                             \
    FIELD(int32_t, stream_bytes)                           \
    FIELD(int32_t, first_bit)                              \
    FIELD(int32_t, pairs)                                  \
    FIELD(int32_t, flipped)
typedef struct {
    TA_PARAM_MEMBERS(TA_WEIGHT_HUFFMAN_PARAMS)
} ta_weight_huffman_params_t;

enum { TA_WEIGHT_HUFFMAN_MAX_LENGTH = 16, TA_WEIGHT_HUFFMAN_MAX_LOOKUP_BITS = 8 };

/* Bytes of the stored constant before the stream (lookup, counts, symbols). */
static inline int32_t ta_weight_huffman_table_bytes(const ta_weight_huffman_params_t *p)
{
    return ((p->pairs ? 4 : 2) << p->lookup_bits) + 2 * (p->max_length - p->lookup_bits) +
           p->long_symbols;
}

/* Bytes of the whole stored constant. */
static inline int32_t ta_weight_huffman_bytes(const ta_weight_huffman_params_t *p)
{
    return ta_weight_huffman_table_bytes(p) + p->stream_bytes;
}

int ta_weight_huffman_s8(const ta_weight_huffman_params_t *p, const uint8_t *stored,
                         int8_t *weights);

#endif /* TA_WEIGHT_HUFFMAN_H */
