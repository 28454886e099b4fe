/*
 * tflm_decode.c - the three decoders of TFLite Micro's DECODE operator
 * (kernels/decode_state_lut.cc, decode_state_huffman.cc,
 * decode_state_prune.cc), written to give the same bytes on valid data and
 * a reason instead of an out-of-bounds read on anything else.
 */
#include "tflm_decode.h"

#include <stdarg.h>
#include <string.h>

enum {
    DCM_SIZE = 16,
    DCM_TYPE = 0,
    DCM_VERSION = 1,
    DCM_TYPE_VERSION = 4, /* each type's own format version */
    DCM_TYPE_LUT = 0,
    DCM_TYPE_HUFFMAN = 1,
    DCM_TYPE_PRUNE = 2,
    DCM_TYPE_CUSTOM = 127,
    LUT_PARAMS = 5,          /* bits 2-0: index bit width */
    LUT_STRIDE = 6,          /* values per channel's table */
    HUFFMAN_TABLE_FORMAT = 5 /* bit 0: 32-bit entries; bits 7-4: first lookup's bits - 1 */
};

typedef struct Decoder {
    TaPool *pool;
    const TaDecodeInput *in;
    uint8_t *dest;
    const char **why;
    size_t elements;
    size_t elem_size;
    /* TFLite Micro's channels: the output's scales when it is quantized;
       along the last axis (element i in channel i % channels) or axis 0
       (consecutive runs of elements / channels). */
    size_t channels;
    bool channel_last;
    const uint8_t *tables; /* the ancillary bytes after the DCM */
    size_t tables_size;
} Decoder;

static bool fail(Decoder *d, const char *fmt, ...) TA_PRINTF(2, 3);

static bool fail(Decoder *d, const char *fmt, ...)
{
    TaBuf b = {0};
    va_list ap;
    va_start(ap, fmt);
    ta_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    *d->why = ta_strdup(d->pool, b.data);
    ta_buf_free(&b);
    return false;
}

/* TFLite Micro takes the output as quantized when it has scales and zero
   points. */
static const TaQuant *affine(const TaTensor *t)
{
    return t->quant && t->quant->num_scales > 0 && t->quant->num_zero_points > 0 ? t->quant : NULL;
}

static bool find_channels(Decoder *d)
{
    const TaTensor *out = d->in->output;
    const TaQuant *q = affine(out);
    d->channels = 1;
    d->channel_last = false;
    if (!q)
        return true;
    d->channels = (size_t)q->num_scales;
    if (q->axis == out->rank - 1 && d->channels > 1)
        d->channel_last = true;
    else if (q->axis != 0)
        return fail(d,
                    "the output's quantization axis %d is neither 0 nor the last axis, the "
                    "channel layouts TFLite Micro decodes",
                    q->axis);
    /* TFLite Micro would decode past the output, or leave its tail unwritten */
    if (d->elements % d->channels != 0)
        return fail(d, "the output's %zu elements do not split into its %zu quantization channels",
                    d->elements, d->channels);
    return true;
}

static size_t channel_of(const Decoder *d, size_t element)
{
    return d->channel_last ? element % d->channels : element / (d->elements / d->channels);
}

/* The bytes of element i, as the byte-wise copies of TFLite Micro store it. */
static void store(Decoder *d, size_t i, const uint8_t *value)
{
    memcpy(d->dest + i * d->elem_size, value, d->elem_size);
}

/* The element size of the types a decoder writes, or 0. */
static size_t plain_size(TaDtype t)
{
    switch (t) {
    case TA_BOOL:
    case TA_INT8:
    case TA_INT16:
    case TA_INT32:
    case TA_INT64:
    case TA_FLOAT32: return ta_dtype_size(t);
    default: return 0;
    }
}

/* ---- LUT: bit-packed indices (most significant bit first) into one table
   of `stride` values per channel. */

static size_t packed_bits(const uint8_t *bytes, size_t first_bit, unsigned width)
{
    size_t v = 0;
    for (unsigned k = 0; k < width; k++) {
        size_t bit = first_bit + k;
        v = (v << 1) | ((bytes[bit >> 3] >> (7 - (bit & 7))) & 1u);
    }
    return v;
}

static bool decode_lut(Decoder *d)
{
    const uint8_t *dcm = d->in->ancillary;
    unsigned width = dcm[LUT_PARAMS] & 0x07u;
    if (width == 0)
        return fail(d, "LUT index bit width 0 (TFLite Micro takes 1 to 7)");
    size_t stride = dcm[LUT_STRIDE];
    d->elem_size = plain_size(d->in->output->dtype);
    if (!d->elem_size)
        return fail(d,
                    "a LUT cannot decode to %s (TFLite Micro: bool, int8, int16, int32, int64, "
                    "float32)",
                    ta_dtype_name(d->in->output->dtype));
    if (!find_channels(d))
        return false;
    size_t need = (d->elements * width + 7) / 8;
    if (d->in->encoded_size < need)
        return fail(d, "the encoded tensor has %zu bytes; %zu indices of %u bits need %zu",
                    d->in->encoded_size, d->elements, width, need);
    size_t values = d->tables_size / d->elem_size;
    for (size_t i = 0; i < d->elements; i++) {
        size_t channel = channel_of(d, i);
        size_t index = packed_bits(d->in->encoded, i * width, width);
        /* TFLite Micro does not bound the index by the stride: an index past
           one channel's table reads the next table, as here. */
        size_t at = channel * stride + index;
        if (at >= values)
            return fail(d,
                        "element %zu reads value %zu of channel %zu's table (stride %zu), past "
                        "the %zu values the ancillary tensor holds",
                        i, index, channel, stride, values);
        store(d, i, d->tables + at * d->elem_size);
    }
    return true;
}

/* ---- Huffman: a code stream read most significant bit first, looked up in
   tables of 16-bit (int8 output) or 32-bit entries: a top bit that marks a
   symbol, four bits of count, the rest the symbol or the offset of the
   next table. */

typedef struct HuffmanFormat {
    bool wide; /* 32-bit entries */
    unsigned found_bit, count_shift;
    uint32_t count_mask, value_mask;
    size_t entries;
} HuffmanFormat;

static uint32_t table_entry(const Decoder *d, const HuffmanFormat *f, size_t at)
{
    const uint8_t *p = d->tables + at * (f->wide ? 4u : 2u);
    uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8;
    if (f->wide)
        v |= (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    return v;
}

/* A lookup may read past the last code (the bits it puts back): TFLite
   Micro reads them from the word after, which a proper table ignores, so
   they read as zeros here, up to one word past the end. */
enum { HUFFMAN_LOOKAHEAD_BITS = 32 };

static bool huffman_bits(Decoder *d, size_t *pos, unsigned count, size_t *value)
{
    size_t total = d->in->encoded_size * 8;
    if (*pos + count > total + HUFFMAN_LOOKAHEAD_BITS)
        return fail(d, "the code stream ends after %zu bits, before the codes of %zu elements",
                    total, d->elements);
    size_t v = 0;
    for (unsigned k = 0; k < count; k++) {
        size_t bit = *pos + k;
        v = (v << 1) | (bit < total ? (d->in->encoded[bit >> 3] >> (7 - (bit & 7))) & 1u : 0u);
    }
    *value = v;
    *pos += count;
    return true;
}

static bool huffman_lookup(Decoder *d, const HuffmanFormat *f, size_t at, uint32_t *entry)
{
    if (at >= f->entries)
        return fail(d, "a code leads to table entry %zu, past the %zu entries of the tables", at,
                    f->entries);
    *entry = table_entry(d, f, at);
    return true;
}

static bool decode_huffman(Decoder *d)
{
    const uint8_t *dcm = d->in->ancillary;
    TaDtype dtype = d->in->output->dtype;
    HuffmanFormat f = {.wide = (dcm[HUFFMAN_TABLE_FORMAT] & 0x01u) != 0};
    unsigned first_bits = (unsigned)(dcm[HUFFMAN_TABLE_FORMAT] >> 4) + 1;
    if (dtype != TA_INT8 && dtype != TA_INT16)
        return fail(d, "Huffman cannot decode to %s (TFLite Micro: int8, int16)",
                    ta_dtype_name(dtype));
    if (!f.wide && dtype != TA_INT8)
        return fail(d, "Huffman tables of 16-bit entries decode to int8 only, the output is %s",
                    ta_dtype_name(dtype));
    f.found_bit = f.wide ? 31 : 15;
    f.count_shift = f.wide ? 27 : 11;
    f.count_mask = 0x0Fu << f.count_shift;
    f.value_mask = (1u << f.count_shift) - 1;
    f.entries = d->tables_size / (f.wide ? 4u : 2u);
    d->elem_size = ta_dtype_size(dtype);
    size_t pos = 0;
    for (size_t i = 0; i < d->elements; i++) {
        unsigned used = first_bits;
        size_t index = 0, at;
        uint32_t entry = 0;
        if (!huffman_bits(d, &pos, used, &index) || !huffman_lookup(d, &f, index, &entry))
            return false;
        at = index;
        while (!((entry >> f.found_bit) & 1u)) {
            used = ((entry & f.count_mask) >> f.count_shift) + 1;
            if (!huffman_bits(d, &pos, used, &index))
                return false;
            at += (entry & f.value_mask) + index;
            if (!huffman_lookup(d, &f, at, &entry))
                return false;
        }
        /* the symbol is the entry's low bits, as TFLite Micro narrows it */
        uint8_t symbol[2] = {(uint8_t)(entry & 0xFFu), (uint8_t)(entry >> 8 & 0xFFu)};
        store(d, i, symbol);
        /* the lookup read `used` bits; the symbol's code is `kept` of them */
        unsigned kept = (entry & f.count_mask) >> f.count_shift;
        if (used > kept)
            pos -= used - kept;
        if (pos > d->in->encoded_size * 8)
            return fail(d, "the code of element %zu ends past the %zu bits of the code stream", i,
                        d->in->encoded_size * 8);
    }
    return true;
}

/* ---- Prune: one bit per element (most significant first), set for the
   values kept in order after the DCM; the others are the zero point. */

typedef struct PruneZeros {
    bool per_channel;
    int8_t single;
} PruneZeros;

static bool prune_zeros(Decoder *d, PruneZeros *z)
{
    const TaQuant *q = affine(d->in->output);
    *z = (PruneZeros){0};
    if (!q)
        return true;
    bool non_zero = false;
    for (size_t c = 0; c < d->channels; c++) {
        int64_t zp = q->zero_point[c];
        non_zero |= zp != 0;
        if (zp < INT8_MIN || zp > INT8_MAX)
            return fail(d, "zero point %lld of channel %zu does not fit int8", (long long)zp, c);
    }
    if (non_zero && d->in->output->dtype != TA_INT8)
        return fail(d, "pruned %s values need every zero point to be 0 (TFLite Micro's rule)",
                    ta_dtype_name(d->in->output->dtype));
    z->per_channel = d->channels > 1 && non_zero;
    z->single = (int8_t)q->zero_point[0];
    return true;
}

static bool decode_prune(Decoder *d)
{
    d->elem_size = plain_size(d->in->output->dtype);
    if (!d->elem_size)
        return fail(d,
                    "Prune cannot decode to %s (TFLite Micro: bool, int8, int16, int32, int64, "
                    "float32)",
                    ta_dtype_name(d->in->output->dtype));
    PruneZeros z;
    if (!find_channels(d) || !prune_zeros(d, &z))
        return false;
    size_t need = (d->elements + 7) / 8;
    if (d->in->encoded_size < need)
        return fail(d, "the encoded tensor has %zu bytes; a bitmap of %zu elements needs %zu",
                    d->in->encoded_size, d->elements, need);
    const TaQuant *q = affine(d->in->output);
    size_t values = d->tables_size / d->elem_size, next = 0;
    for (size_t i = 0; i < d->elements; i++) {
        if (packed_bits(d->in->encoded, i, 1)) {
            if (next >= values)
                return fail(d,
                            "the bitmap keeps more than the %zu values the ancillary tensor "
                            "holds",
                            values);
            store(d, i, d->tables + next++ * d->elem_size);
            continue;
        }
        /* the zero point, widened to the element (0 for all but int8) */
        int8_t zp = z.per_channel ? (int8_t)q->zero_point[channel_of(d, i)] : z.single;
        memset(d->dest + i * d->elem_size, zp < 0 ? 0xFF : 0, d->elem_size);
        d->dest[i * d->elem_size] = (uint8_t)zp;
    }
    return true;
}

bool ta_tflm_decode(TaPool *pool, const TaDecodeInput *in, uint8_t *dest, const char **why)
{
    Decoder d = {.pool = pool,
                 .in = in,
                 .dest = dest,
                 .why = why,
                 .elements = ta_tensor_elements(in->output)};
    if (in->ancillary_size < DCM_SIZE)
        return fail(&d, "the ancillary tensor has %zu bytes, less than the %d of its header",
                    in->ancillary_size, DCM_SIZE);
    d.tables = in->ancillary + DCM_SIZE;
    d.tables_size = in->ancillary_size - DCM_SIZE;
    const uint8_t *dcm = in->ancillary;
    if (dcm[DCM_VERSION] != 1)
        return fail(&d, "header version %u (TFLite Micro reads version 1)", dcm[DCM_VERSION]);
    /* each known type's own format version, checked here for all three */
    static const char *const type_names[] = {
        [DCM_TYPE_LUT] = "LUT", [DCM_TYPE_HUFFMAN] = "Huffman", [DCM_TYPE_PRUNE] = "Prune"};
    if (dcm[DCM_TYPE] <= DCM_TYPE_PRUNE && dcm[DCM_TYPE_VERSION] != 1)
        return fail(&d, "%s format version %u (TFLite Micro reads version 1)",
                    type_names[dcm[DCM_TYPE]], dcm[DCM_TYPE_VERSION]);
    switch (dcm[DCM_TYPE]) {
    case DCM_TYPE_LUT: return decode_lut(&d);
    case DCM_TYPE_HUFFMAN: return decode_huffman(&d);
    case DCM_TYPE_PRUNE: return decode_prune(&d);
    case DCM_TYPE_CUSTOM:
        return fail(&d, "custom decode type 127, which TFLite Micro does not support either");
    default:
        return fail(&d, "unknown decode type %u (TFLite Micro knows 0 LUT, 1 Huffman, 2 Prune)",
                    dcm[DCM_TYPE]);
    }
}
