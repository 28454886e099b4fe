/*
 * ta_broadcast.h - the broadcast shape that the converter gives the binary
 * elementwise kernels (ADD, SUB, MUL, SQUARED_DIFFERENCE, MAXIMUM,
 * MINIMUM, comparisons), and the parameter fields that carry it.
 *
 * The converter collapses the two input shapes and the output shape into
 * at most TA_BROADCAST_MAX_DIMS dimensions (size-1 output dimensions
 * dropped, neighbours with the same broadcast pattern merged) and gives,
 * per dimension, each input's element stride: 0 where that input is
 * broadcast. The output is dense. The innermost dimension is a "row":
 * there each input's stride is 1 or 0 (never both 0), so kernels run a
 * tight loop per row, and without broadcasting the whole tensor is a
 * single row. ta_broadcast_rows.h walks the rows.
 */
#ifndef TA_BROADCAST_H
#define TA_BROADCAST_H

#include <stdint.h>

#define TA_BROADCAST_MAX_DIMS 6

/* The first fields of every binary elementwise kernel's parameter list
   (the X-macro lists of runtime/include/ta_params.h). */
#define TA_BROADCAST_PARAMS(FIELD, ARRAY, ARRAY_USED)         \
    FIELD(int32_t, rank)                                      \
    ARRAY_USED(int32_t, dims, TA_BROADCAST_MAX_DIMS, rank)    \
    ARRAY_USED(int32_t, stride1, TA_BROADCAST_MAX_DIMS, rank) \
    ARRAY_USED(int32_t, stride2, TA_BROADCAST_MAX_DIMS, rank)

/* Each input brought to a common scale, as TFLite's ADD, SUB,
   SQUARED_DIFFERENCE and comparisons do:
   x = requant((in + input_offset) << left_shift) by the input's multiplier
   (< 1, shift <= 0). */
#define TA_BINARY_RESCALE_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, left_shift)                             \
    FIELD(int32_t, input1_offset) /* -zero point */        \
    FIELD(int32_t, input1_multiplier)                      \
    FIELD(int32_t, input1_shift) /* <= 0 */                \
    FIELD(int32_t, input2_offset)                          \
    FIELD(int32_t, input2_multiplier)                      \
    FIELD(int32_t, input2_shift)

/* The result requantized to the output and clamped. */
#define TA_BINARY_OUTPUT_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, output_offset) /* +zero point */       \
    FIELD(int32_t, output_multiplier)                     \
    FIELD(int32_t, output_shift)                          \
    FIELD(int32_t, activation_min)                        \
    FIELD(int32_t, activation_max)

#endif /* TA_BROADCAST_H */
