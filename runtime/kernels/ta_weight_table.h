/*
 * ta_weight_table.h - weights stored as k-bit indices into tables of int8
 * values (clustered weights, TFLite Micro's LUT compression), decoded
 * into a scratch tensor right before the operator that reads them.
 *
 * The stored constant is `groups` tables of 2^bits values each (every
 * index a table can hold has a value, so no index reads past it), then
 * the indices. Element e uses table e / run (run > 0: runs of `run`
 * elements, a weight tensor's output channels) or e % groups (run == 0:
 * a last-axis channel). Indices are laid out as:
 *   layout 0: a bit stream, element e at bits [e * bits, e * bits + bits)
 *             counted from bit 0 of byte 0 (ceil(count * bits / 8) bytes);
 *   layout 1: bits == 4 with runs: each run in blocks of 32 elements, 16
 *             bytes each, byte j holding element j in its low nibble and
 *             element j + 16 in its high one (a run's last block padded
 *             with zeros), so a vector of 16 bytes gives 32 indices;
 *   layout 2: no tables (groups 0): a bitmap of the elements that are not
 *             zero (element e at bit e % 8 of byte e / 8), then those
 *             `kept` values in order (pruned weights). A bitmap with more
 *             bits set than `kept` gives zeros past them, never a read past
 *             the constant.
 * `flipped` > 0: the bytes at even offsets below it then have their sign
 * bits flipped (ta_weight_flip_even).
 */
#ifndef TA_WEIGHT_TABLE_H
#define TA_WEIGHT_TABLE_H

#include <stdint.h>
#include <string.h>

#include "../include/ta_params.h"

#define TA_WEIGHT_TABLE_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, count)                                \
    FIELD(int32_t, bits)                                 \
    FIELD(int32_t, groups)                               \
    FIELD(int32_t, run)                                  \
    FIELD(int32_t, layout)                               \
    FIELD(int32_t, kept)                                 \
    FIELD(int32_t, flipped)
typedef struct {
    TA_PARAM_MEMBERS(TA_WEIGHT_TABLE_PARAMS)
} ta_weight_table_params_t;

enum { TA_WEIGHT_TABLE_STREAM = 0, TA_WEIGHT_TABLE_NIBBLE_BLOCKS = 1, TA_WEIGHT_TABLE_BITMAP = 2 };

/* Bytes of the stored constant (tables and indices) for these parameters. */
static inline int32_t ta_weight_table_bytes(const ta_weight_table_params_t *p)
{
    if (p->layout == TA_WEIGHT_TABLE_BITMAP)
        return (p->count + 7) / 8 + p->kept;
    const int32_t tables = p->groups << p->bits;
    if (p->layout == TA_WEIGHT_TABLE_NIBBLE_BLOCKS)
        return tables + p->groups * ((p->run + 31) / 32) * 16;
    return tables + (int32_t)(((int64_t)p->count * p->bits + 7) / 8);
}

int ta_weight_table_s8(const ta_weight_table_params_t *p, const uint8_t *stored, int8_t *weights);

/* The decoders' last step: the sign bits of the bytes at even offsets
   below `flipped` (a multiple of 4) flipped, for a layout that stores
   them so (ta_fully_connected_s8_words'); the codes hold the values. */
static inline void ta_weight_flip_even(int8_t *weights, int32_t flipped)
{
    for (int32_t i = 0; i < flipped; i += 4) {
        uint32_t v;
        memcpy(&v, weights + i, 4);
        v ^= 0x00800080u;
        memcpy(weights + i, &v, 4);
    }
}

#endif /* TA_WEIGHT_TABLE_H */
