/*
 * weight_table_encode.c - int8 values as k-bit indices into tables
 * (runtime/kernels/ta_weight_table.h's layouts), the grouping and bit
 * width that take the fewest bytes.
 */
#include "weight_table.h"

#include <string.h>

enum { MAX_BITS = 7 };

/* Table g's elements for the grouping (runs of `run`, or modulo `groups`):
   the first, the end and the step, so each loop visits its group alone. */
static void group_span(const ta_weight_table_params_t *p, int32_t g, int32_t *first, int32_t *end,
                       int32_t *step)
{
    *first = p->run > 0 ? g * p->run : g;
    *end = p->run > 0 ? (g + 1) * p->run : p->count;
    *step = p->run > 0 ? 1 : p->groups;
}

/* The bits every table's values need (0: more than 2^MAX_BITS); fills the
   tables, sorted, padded with zeros. */
static int fill_tables(const ta_weight_table_params_t *p, const int8_t *values, int8_t *tables,
                       int *max_values)
{
    bool seen[256];
    int most = 0;
    for (int32_t g = 0; g < p->groups; g++) {
        memset(seen, 0, sizeof seen);
        int32_t first, end, step;
        group_span(p, g, &first, &end, &step);
        for (int32_t e = first; e < end; e += step)
            seen[(uint8_t)(values[e] + 128)] = true;
        int n = 0;
        for (int v = 0; v < 256; v++)
            if (seen[v]) {
                if (n < (1 << MAX_BITS))
                    tables[g << MAX_BITS | n] = (int8_t)(v - 128);
                n++;
            }
        most = n > most ? n : most;
    }
    *max_values = most;
    if (most > (1 << MAX_BITS))
        return 0;
    int bits = 1;
    while ((1 << bits) < most)
        bits++;
    return bits;
}

/* The indices in p's layout after the tables; tables_wide holds each
   table at a stride of 2^MAX_BITS. Group by group, each value's index
   looked up in a map of the group's table. */
static void write_codes(const ta_weight_table_params_t *p, const int8_t *values,
                        const int8_t *tables_wide, int distinct, uint8_t *stored)
{
    const int32_t size = 1 << p->bits;
    for (int32_t g = 0; g < p->groups; g++)
        memcpy(stored + g * size, tables_wide + (g << MAX_BITS), (size_t)size);
    uint8_t *codes = stored + (p->groups << p->bits);
    const int32_t block_bytes = (p->run + 31) / 32 * 16;
    for (int32_t g = 0; g < p->groups; g++) {
        uint8_t index_of[256] = {0};
        for (int i = distinct - 1; i >= 0; i--) /* the first of equal entries wins */
            index_of[(uint8_t)tables_wide[(g << MAX_BITS) + i]] = (uint8_t)i;
        int32_t first, end, step;
        group_span(p, g, &first, &end, &step);
        for (int32_t e = first; e < end; e += step) {
            const int k = index_of[(uint8_t)values[e]];
            if (p->layout == TA_WEIGHT_TABLE_NIBBLE_BLOCKS) {
                const int32_t i = e % p->run, byte = g * block_bytes + i / 32 * 16 + i % 16;
                codes[byte] |= (uint8_t)(i % 32 < 16 ? k : k << 4);
            } else {
                const int64_t bit = (int64_t)e * p->bits;
                codes[bit / 8] |= (uint8_t)(k << (bit % 8));
                if (bit % 8 + p->bits > 8)
                    codes[bit / 8 + 1] |= (uint8_t)(k >> (8 - bit % 8));
            }
        }
    }
}

static bool try_grouping(TaPool *pool, const int8_t *values, int32_t n, int32_t groups, int32_t run,
                         TaWeightTable *best)
{
    ta_weight_table_params_t p = {.count = n, .groups = groups, .run = run};
    int8_t *tables = ta_alloc_array(pool, (size_t)groups << MAX_BITS, 1);
    memset(tables, 0, (size_t)groups << MAX_BITS);
    int most = 0;
    p.bits = fill_tables(&p, values, tables, &most);
    if (p.bits == 0)
        return false;
    p.layout = p.bits == 4 && run > 0 ? TA_WEIGHT_TABLE_NIBBLE_BLOCKS : TA_WEIGHT_TABLE_STREAM;
    const int32_t bytes = ta_weight_table_bytes(&p);
    if (best->stored && bytes >= best->stored_bytes)
        return false;
    uint8_t *stored = ta_alloc_array(pool, (size_t)bytes, 1);
    memset(stored, 0, (size_t)bytes);
    write_codes(&p, values, tables, most, stored);
    *best = (TaWeightTable){
        .params = p, .stored = stored, .stored_bytes = bytes, .max_values = most};
    return true;
}

/* The bitmap of the values that are not zero, then those values. */
static void try_bitmap(TaPool *pool, const int8_t *values, int32_t n, TaWeightTable *best)
{
    bool seen[256] = {false};
    int32_t kept = 0;
    int distinct = 0;
    for (int32_t e = 0; e < n; e++) {
        kept += values[e] != 0;
        distinct += !seen[(uint8_t)values[e]];
        seen[(uint8_t)values[e]] = true;
    }
    const ta_weight_table_params_t p = {.count = n, .layout = TA_WEIGHT_TABLE_BITMAP, .kept = kept};
    const int32_t bytes = ta_weight_table_bytes(&p);
    if (bytes <= 0 || (best->stored && bytes >= best->stored_bytes))
        return;
    uint8_t *stored = ta_alloc_array(pool, (size_t)bytes, 1);
    memset(stored, 0, (size_t)bytes);
    int8_t *kept_values = (int8_t *)stored + (n + 7) / 8;
    for (int32_t e = 0, k = 0; e < n; e++)
        if (values[e] != 0) {
            stored[e / 8] |= (uint8_t)(1u << (e % 8));
            kept_values[k++] = values[e];
        }
    *best = (TaWeightTable){
        .params = p, .stored = stored, .stored_bytes = bytes, .max_values = distinct};
}

bool ta_weight_table_encode(TaPool *pool, const int8_t *values, int32_t n, int32_t channels,
                            TaWeightTable *out)
{
    *out = (TaWeightTable){0};
    if (n <= 0)
        return false;
    try_grouping(pool, values, n, 1, n, out);
    if (channels > 1 && n % channels == 0) {
        try_grouping(pool, values, n, channels, n / channels, out);
        try_grouping(pool, values, n, channels, 0, out);
    }
    try_bitmap(pool, values, n, out);
    return out->stored != NULL;
}
