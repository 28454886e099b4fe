/*
 * tflm_decode.h - TFLite Micro's compressed constants (its TFLM_DECODE
 * operator), decoded on the host as TFLite Micro's decoders would at run
 * time.
 *
 * A DECODE output is computed from two constants: the encoded bytes and
 * an ancillary tensor that starts with a 16-byte header (DCM: byte 0 the
 * decode type, byte 1 the DCM version, bytes 4-15 the type's own fields),
 * followed by the type's tables. Types: 0 LUT (bit-packed indices into
 * value tables, per channel when the output is quantized per channel),
 * 1 Huffman (a code stream and Xtensa-format decode tables), 2 Prune (a
 * bitmap of kept values; the rest are the zero point). Type 127 and
 * unknown types are refused, as TFLite Micro refuses them.
 *
 * Every header field and every read is checked against the buffers: bad
 * data gives a reason, never a read past a buffer.
 */
#ifndef TA_TFLM_DECODE_H
#define TA_TFLM_DECODE_H

#include "../ir/ir.h"

typedef struct TaDecodeInput {
    const uint8_t *encoded;
    size_t encoded_size;
    const uint8_t *ancillary; /* the DCM header, then the type's data */
    size_t ancillary_size;
    const TaTensor *output; /* dtype, shape and quantization of the result */
} TaDecodeInput;

/* Fills `dest` (ta_tensor_bytes(in->output) bytes) with the decoded values.
   On bad or unsupported data returns false and sets *why (in the pool) to
   what is wrong, a phrase without the operator's name. */
bool ta_tflm_decode(TaPool *pool, const TaDecodeInput *in, uint8_t *dest, const char **why);

#endif /* TA_TFLM_DECODE_H */
