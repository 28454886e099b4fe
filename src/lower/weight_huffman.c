/*
 * weight_huffman.c - int8 values as a canonical Huffman code
 * (runtime/kernels/ta_weight_huffman.h's layout): code lengths from the
 * value counts (at most 16 bits: counts halved until they fit), the
 * lookup width that leaves at most 1/64 of the elements to the slow path.
 */
#include "weight_table.h"

#include <string.h>

enum { SYMBOLS = 256, MAX_LENGTH = TA_WEIGHT_HUFFMAN_MAX_LENGTH };

/* The lightest node not yet merged, marked merged (the first of equal
   weights: deterministic). */
static int take_smallest(const int64_t *w, bool *done, int nodes)
{
    int best = 0;
    bool found = false;
    for (int i = 0; i < nodes; i++)
        if (!done[i] && (!found || w[i] < w[best])) {
            best = i;
            found = true;
        }
    done[best] = true;
    return best;
}

/* Huffman code lengths of the symbols of nonzero weight (two smallest
   merged at a time; 256 symbols at most). The longest length. */
static int huffman_lengths(const int64_t *weight, uint8_t *length)
{
    int64_t w[2 * SYMBOLS];
    int parent[2 * SYMBOLS], nodes = 0, leaf_of[SYMBOLS];
    bool done[2 * SYMBOLS] = {false};
    for (int s = 0; s < SYMBOLS; s++) {
        length[s] = 0;
        leaf_of[s] = -1;
        if (weight[s] > 0) {
            leaf_of[s] = nodes;
            w[nodes] = weight[s];
            parent[nodes++] = -1;
        }
    }
    for (int active = nodes; active > 1; active--) {
        const int a = take_smallest(w, done, nodes), b = take_smallest(w, done, nodes);
        w[nodes] = w[a] + w[b];
        parent[nodes] = -1;
        parent[a] = parent[b] = nodes++;
    }
    int longest = 0;
    for (int s = 0; s < SYMBOLS; s++) {
        if (leaf_of[s] < 0)
            continue;
        int depth = 0;
        for (int i = leaf_of[s]; parent[i] >= 0; i = parent[i])
            depth++;
        length[s] = (uint8_t)(depth > 0 ? depth : 1); /* one symbol: a 1-bit code */
        longest = length[s] > longest ? length[s] : longest;
    }
    return longest;
}

/* Lengths of at most MAX_LENGTH bits: the counts halved (kept nonzero)
   until the code fits. */
static int limited_lengths(const int64_t *count, uint8_t *length)
{
    int64_t w[SYMBOLS];
    memcpy(w, count, sizeof w);
    for (;;) {
        const int longest = huffman_lengths(w, length);
        if (longest <= MAX_LENGTH)
            return longest;
        for (int s = 0; s < SYMBOLS; s++)
            w[s] = w[s] > 0 ? (w[s] >> 1) | 1 : 0;
    }
}

/* Symbols (as uint8) in canonical order: by length, then value. */
static int canonical_order(const uint8_t *length, int longest, uint8_t *order)
{
    int n = 0;
    for (int l = 1; l <= longest; l++)
        for (int s = 0; s < SYMBOLS; s++)
            if (length[s] == l)
                order[n++] = (uint8_t)s;
    return n;
}

/* The smallest lookup width whose longer codes take at most 1/64 of the
   elements. */
static int lookup_bits_for(const int64_t *count, const uint8_t *length, int longest, int32_t n)
{
    const int widest = longest < TA_WEIGHT_HUFFMAN_MAX_LOOKUP_BITS
                           ? longest
                           : TA_WEIGHT_HUFFMAN_MAX_LOOKUP_BITS;
    for (int b = 1; b < widest; b++) {
        int64_t past = 0;
        for (int s = 0; s < SYMBOLS; s++)
            past += length[s] > b ? count[s] : 0;
        if (past * 64 <= n)
            return b;
    }
    return widest;
}

/* Estimated decode instructions of a value (ta_weight_huffman.c, both
   boards): a lookup step, and a code past the lookup (a bit at a time). */
enum { STEP_INSTRUCTIONS = 16, LONG_INSTRUCTIONS = 80 };

static double decode_cost(const int64_t *count, const uint8_t *length, int32_t n, int b, bool pairs)
{
    double past = 0, pair = 0; /* shares of long codes, of lookups giving two values */
    for (int s = 0; s < SYMBOLS; s++) {
        const double share = (double)count[s] / n;
        past += length[s] > b ? share : 0;
        for (int t = 0; pairs && length[s] > 0 && t < SYMBOLS; t++)
            if (length[t] > 0 && length[s] + length[t] <= b)
                pair += share * (double)count[t] / n; /* as if values were independent */
    }
    return STEP_INSTRUCTIONS / (1 + pair) + LONG_INSTRUCTIONS * past;
}

/* The lookup: at first the smallest width leaving at most 1/64 of the
   elements to longer codes, one value an entry; then, of the widths and
   entry forms whose bytes exceed that one's by at most 1/16 of the
   stream's, the one of the fewest estimated instructions (two values an
   entry, often one bit narrower for the same bytes). */
static void choose_lookup(const int64_t *count, const uint8_t *length, int longest, int32_t n,
                          int64_t bits, ta_weight_huffman_params_t *p)
{
    const int first = lookup_bits_for(count, length, longest, n);
    const int64_t budget = ((int64_t)2 << first) + bits / (8 * 16);
    p->lookup_bits = first;
    p->pairs = 0;
    double best = decode_cost(count, length, n, first, false);
    const int widest = longest < TA_WEIGHT_HUFFMAN_MAX_LOOKUP_BITS
                           ? longest
                           : TA_WEIGHT_HUFFMAN_MAX_LOOKUP_BITS;
    for (int b = 2; b <= widest; b++)
        for (int pairs = 0; pairs <= 1; pairs++) {
            const double cost = decode_cost(count, length, n, b, pairs);
            if (((int64_t)(pairs ? 4 : 2) << b) <= budget && cost < best) {
                best = cost;
                p->lookup_bits = b;
                p->pairs = pairs;
            }
        }
}

static void put_bits(uint8_t *stream, int64_t *at, uint32_t code, int len)
{
    for (int i = len - 1; i >= 0; i--, (*at)++)
        if ((code >> i) & 1u)
            stream[*at / 8] |= (uint8_t)(0x80u >> (*at % 8));
}

/* Pairs: each entry whose prefix holds a second code whole after its
   first gets that code's value, the bits of both and the flag (the
   entry's layout: ta_weight_huffman.h). */
static void add_second_codes(uint8_t *lookup, int b)
{
    const uint32_t size = 1u << b, mask = size - 1u;
    for (uint32_t i = 0; i < size; i++) {
        const uint32_t first = lookup[4 * i + 2];
        if (first == 0 || first >= (uint32_t)b)
            continue;
        const uint32_t rest = (i << first) & mask; /* the bits after the first code */
        const uint32_t second = lookup[4 * rest + 3] & 0x7Fu;
        if (second > 0 && first + second <= (uint32_t)b) {
            lookup[4 * i + 1] = lookup[4 * rest];
            lookup[4 * i + 2] = (uint8_t)(first + second);
            lookup[4 * i + 3] = (uint8_t)(first | 0x80u);
        }
    }
}

static int64_t stream_bits(const int64_t *count, const uint8_t *length)
{
    int64_t bits = 0;
    for (int s = 0; s < SYMBOLS; s++)
        bits += count[s] * length[s];
    return bits;
}

/* Lookup, counts, symbols and stream of the canonical code. */
static void write_stored(const ta_weight_huffman_params_t *p, const int8_t *values, int32_t n,
                         const uint8_t *length, const uint8_t *order, int symbols, uint8_t *stored)
{
    const int b = p->lookup_bits, entry = p->pairs ? 4 : 2;
    uint8_t *counts = stored + (entry << b);
    uint8_t *longs = counts + 2 * (p->max_length - b);
    uint8_t *stream = stored + ta_weight_huffman_table_bytes(p);
    uint32_t code_of[SYMBOLS] = {0}, code = 0;
    int prev = 0, nlong = 0;
    for (int i = 0; i < symbols; i++) {
        const int s = order[i], l = length[s];
        code <<= l - prev;
        prev = l;
        code_of[s] = code++;
        if (l <= b) {
            for (uint32_t k = 0; k < 1u << (b - l); k++) {
                uint8_t *e = stored + entry * ((code_of[s] << (b - l)) + k);
                e[0] = (uint8_t)s;
                if (p->pairs)
                    e[2] = e[3] = (uint8_t)l; /* one value: bits taken = its length */
                else
                    e[1] = (uint8_t)l;
            }
        } else {
            counts[2 * (l - b - 1)]++;
            if (counts[2 * (l - b - 1)] == 0)
                counts[2 * (l - b - 1) + 1]++;
            longs[nlong++] = (uint8_t)s;
        }
    }
    if (p->pairs)
        add_second_codes(stored, b);
    int64_t at = 0;
    for (int32_t e = 0; e < n; e++)
        put_bits(stream, &at, code_of[(uint8_t)values[e]], length[(uint8_t)values[e]]);
}

bool ta_weight_huffman_encode(TaPool *pool, const int8_t *values, int32_t n, TaWeightHuffman *out)
{
    *out = (TaWeightHuffman){0};
    if (n <= 0)
        return false;
    int64_t count[SYMBOLS] = {0};
    for (int32_t e = 0; e < n; e++)
        count[(uint8_t)values[e]]++;
    uint8_t length[SYMBOLS], order[SYMBOLS];
    const int longest = limited_lengths(count, length);
    const int symbols = canonical_order(length, longest, order);
    ta_weight_huffman_params_t p = {.count = n, .max_length = longest};
    const int64_t bits = stream_bits(count, length);
    choose_lookup(count, length, longest, n, bits, &p);
    int64_t first_long = 0;
    for (int s = 0; s < SYMBOLS; s++) {
        p.long_symbols += length[s] > p.lookup_bits;
        if (length[s] > 0 && length[s] <= p.lookup_bits)
            first_long += 1 << (p.lookup_bits - length[s]);
    }
    if ((bits + 7) / 8 > INT32_MAX / 2)
        return false;
    p.first_long = (int32_t)first_long;
    p.stream_bytes = (int32_t)((bits + 7) / 8);
    out->params = p;
    out->stored_bytes = ta_weight_huffman_bytes(&p);
    out->stored = ta_alloc_array(pool, (size_t)out->stored_bytes, 1);
    memset(out->stored, 0, (size_t)out->stored_bytes);
    write_stored(&p, values, n, length, order, symbols, out->stored);
    return true;
}
