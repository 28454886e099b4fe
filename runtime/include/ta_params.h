/*
 * ta_params.h - how a kernel header declares its parameter struct.
 *
 * Each kernel header lists the fields of its parameter struct once, as an
 * X-macro taking three field kinds:
 *
 *   #define TA_FOO_PARAMS(FIELD, ARRAY, ARRAY_USED) \
 *       FIELD(int32_t, size)                        \
 *       ARRAY(int32_t, multipliers, 4)              \
 *       ARRAY_USED(int32_t, dims, TA_FOO_MAX_RANK, rank)
 *   typedef struct { TA_PARAM_MEMBERS(TA_FOO_PARAMS) } ta_foo_params_t;
 *
 * FIELD is a scalar, ARRAY an array whose every element is meaningful,
 * ARRAY_USED an array of which only the first `used` elements (another
 * field of the struct) are. The runtime sees a plain struct; the compiler
 * expands the same list into a field table, so a lowering that sets a
 * field the kernel lacks does not build, and the generated initializer
 * names exactly the struct's fields.
 */
#ifndef TA_PARAMS_H
#define TA_PARAMS_H

#define TA_PARAM_FIELD(type, name) type name;
#define TA_PARAM_ARRAY(type, name, length) type name[length];
#define TA_PARAM_ARRAY_USED(type, name, length, used) type name[length];

/* The struct members of a parameter list. */
#define TA_PARAM_MEMBERS(LIST) LIST(TA_PARAM_FIELD, TA_PARAM_ARRAY, TA_PARAM_ARRAY_USED)

/* Field groups several kernels' lists share, in the order they appear
   there (the windowed operators: convolutions, depthwise, transposed
   convolution, pooling). A list names a group as `TA_..._FIELDS(FIELD)`. */
#define TA_WINDOW_INPUT_FIELDS(FIELD) \
    FIELD(int32_t, batches)           \
    FIELD(int32_t, input_height)      \
    FIELD(int32_t, input_width)       \
    FIELD(int32_t, input_depth)       \
    FIELD(int32_t, filter_height)     \
    FIELD(int32_t, filter_width)
#define TA_WINDOW_OUTPUT_FIELDS(FIELD) \
    FIELD(int32_t, output_height)      \
    FIELD(int32_t, output_width)       \
    FIELD(int32_t, output_depth)
/* The window's steps; pad_top and pad_left are rows and columns of padding
   before the first input row and column. */
#define TA_WINDOW_STEP_FIELDS(FIELD) \
    FIELD(int32_t, stride_height)    \
    FIELD(int32_t, stride_width)     \
    FIELD(int32_t, dilation_height)  \
    FIELD(int32_t, dilation_width)   \
    FIELD(int32_t, pad_top)          \
    FIELD(int32_t, pad_left)
/* Pooling's window: `depth` channels in and out, pad_height/pad_width rows
   and columns of padding above and left of the first input row/column. */
#define TA_POOL_WINDOW_FIELDS(FIELD) \
    FIELD(int32_t, batches)          \
    FIELD(int32_t, input_height)     \
    FIELD(int32_t, input_width)      \
    FIELD(int32_t, depth)            \
    FIELD(int32_t, output_height)    \
    FIELD(int32_t, output_width)     \
    FIELD(int32_t, stride_height)    \
    FIELD(int32_t, stride_width)     \
    FIELD(int32_t, filter_height)    \
    FIELD(int32_t, filter_width)     \
    FIELD(int32_t, pad_height)       \
    FIELD(int32_t, pad_width)
/* An integer output's requantization: output_offset is the output zero
   point; multiplier and shift are per tensor (unused where a kernel takes
   per-channel arrays). */
#define TA_REQUANT_FIELDS(FIELD)  \
    FIELD(int32_t, output_offset) \
    FIELD(int32_t, multiplier)    \
    FIELD(int32_t, shift)
/* The fused activation's clamp: int32_t for integer outputs, float for
   float ones (as TFLite's CalculateActivationRange gives it). */
#define TA_ACTIVATION_FIELDS(FIELD, type) \
    FIELD(type, activation_min)           \
    FIELD(type, activation_max)

#endif /* TA_PARAMS_H */
