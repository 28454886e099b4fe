/*
 * weight_table.h - weights stored as indices into tables of values
 * (runtime/kernels/ta_weight_table.h), decoded at run time into a scratch
 * tensor right before the kernel that reads them.
 *
 * Runs after every operator's lowering, on the kernel-ready weights (the
 * layout and folded sums the lowering made from the dense values), so the
 * kernels and their arithmetic are those of the dense model.
 */
#ifndef TA_WEIGHT_TABLE_LOWER_H
#define TA_WEIGHT_TABLE_LOWER_H

#include "../../runtime/kernels/ta_channel_params.h"
#include "../../runtime/kernels/ta_weight_huffman.h"
#include "../../runtime/kernels/ta_weight_table.h"
#include "lower.h"

/* weights.format and weights.dense (config.h), which the weight passes
   share: INT4 packing, tables, SPARSE_WEIGHTS. */
typedef struct TaWeightsOptions {
    const char *format;       /* "auto" | "packed" | "table" | "huffman" | "sparse" | "dense" */
    const char *const *dense; /* names, globs or ids stored dense */
    int num_dense;
} TaWeightsOptions;

/* weights.dense names the tensor: its id, its model name, or a glob. */
bool ta_weights_named_dense(const TaWeightsOptions *o, const TaTensor *t);

/* A table coding of `n` int8 values: its kernel parameters and stored
   bytes (tables, then indices). */
typedef struct TaWeightTable {
    ta_weight_table_params_t params;
    uint8_t *stored;
    int32_t stored_bytes;
    int max_values; /* the most distinct values one table holds */
} TaWeightTable;

/* The smallest coding of `values`: tables (one, one per run of n /
   channels elements, or one per element modulo `channels`; channels <= 1:
   one only; at most 128 values a table) or the bitmap of the values that
   are not zero (max_values: the distinct values of the tensor). false for
   no values. weight_table_encode.c. */
bool ta_weight_table_encode(TaPool *pool, const int8_t *values, int32_t n, int32_t channels,
                            TaWeightTable *out);

/* A canonical Huffman coding of `n` int8 values: its kernel parameters and
   stored bytes (runtime/kernels/ta_weight_huffman.h). */
typedef struct TaWeightHuffman {
    ta_weight_huffman_params_t params;
    uint8_t *stored;
    int32_t stored_bytes;
} TaWeightHuffman;

/* false for no values. weight_huffman.c. */
bool ta_weight_huffman_encode(TaPool *pool, const int8_t *values, int32_t n, TaWeightHuffman *out);

/* After the decode of `dense` into `decoded`, the call that rebuilds the
   per-channel parameters kernel call `c` reads from a compact form
   (ta_channel_params.h), its arguments switched to the rebuilt scratch;
   NULL when none is worth it. channel_params.c. */
TaKernelCall *ta_compact_channel_params(TaLower *L, TaOp *op, TaKernelCall *c,
                                        const TaTensor *dense, TaTensor *decoded);

/* Every CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED whose weights
   weights.format (`o`) stores as tables or Huffman codes gets the decode
   call before its kernel, which then reads the decoded scratch. false
   (one error) when weights.format huffman codes no weights at all. */
bool ta_lower_weight_tables(TaLower *L, const TaWeightsOptions *o);

#endif /* TA_WEIGHT_TABLE_LOWER_H */
