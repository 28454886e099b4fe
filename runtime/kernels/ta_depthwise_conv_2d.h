/*
 * ta_depthwise_conv_2d.h - DEPTHWISE_CONV_2D, NHWC input and output,
 * weights [1][kh][kw][output_depth], output channel o = c * depth_multiplier
 * + m reading input channel c.
 *
 * As in ta_conv_2d.h, the converter folds the input zero point into
 * bias_sum and out-of-image taps read `pad_value` (the input zero point),
 * which gives TFLite's result exactly. Per output pixel the kernel
 * accumulates a block of output channels at a time in local accumulators,
 * so inner loops walk weights contiguously and no working memory is needed.
 *
 * Order of writes (what lets the output overlap the input, see
 * src/lower/common/stream_lead.h): output pixels in raster order, each
 * written after its window is read, at most two at a time (Helium,
 * 8-channel layers), a block of channels at a time after reading just
 * those channels of the window, unless ta_dw_rereads_channels (then the
 * whole pixel is read before its last block is written); except that on DSP, 3x3 int8 layers whose rows have
 * at least TA_DW_DSP_ROW_PIXELS interior pixels take each row's interior
 * channels four at a time outside, so a whole output row is written
 * before the row is done reading.
 *
 * With `reverse_rows` set, every path walks the output rows (of all
 * images) from the last to the first instead, each row as above: the
 * output may then start above its input (the planner picks the direction
 * per layer, so that a chain of layers stays within one lead).
 */
#ifndef TA_DEPTHWISE_CONV_2D_H
#define TA_DEPTHWISE_CONV_2D_H

#include <stdint.h>

#include "../include/ta_params.h"

/* Interior pixels a row needs for the DSP path's row-at-a-time loop. */
#define TA_DW_DSP_ROW_PIXELS 8

/* Whether the Helium path's last block of a pixel (int8, depth multiplier
   1) reads channels the pixel's block before it has already written: it
   ends at the depth and moves back over them, for depths above 8 off a
   multiple of 8 that leave more than 4 channels after the blocks of 16. */
static inline int ta_dw_rereads_channels(int32_t depth)
{
    return depth > 8 && depth % 8 != 0 && depth % 16 > 4;
}

#define TA_DEPTHWISE_CONV_2D_PARAMS(FIELD, ARRAY, ARRAY_USED)                           \
    TA_WINDOW_INPUT_FIELDS(FIELD)                                                       \
    FIELD(int32_t, depth_multiplier)                                                    \
    TA_WINDOW_OUTPUT_FIELDS(FIELD)                                                      \
    TA_WINDOW_STEP_FIELDS(FIELD)                                                        \
    FIELD(int32_t, pad_value) /* input zero point; 0 for int16 */                       \
    TA_REQUANT_FIELDS(FIELD)                                                            \
    TA_ACTIVATION_FIELDS(FIELD, int32_t)                                                \
    /* 1 when every shift (per-tensor or per-channel) is negative, so requantization */ \
    /* shifts right only (the Helium fast path). */                                     \
    FIELD(int32_t, right_shifts_only)                                                   \
    /* 1 when every int8 accumulator stays below 2^30 in magnitude (the converter */    \
    /* bounds bias + 255 * sum |w|), so 2 * acc fits int32 (the DSP path's */           \
    /* requantization). */                                                              \
    FIELD(int32_t, small_accumulators)                                                  \
    /* 1: output rows from the last to the first (set by the planner when the output */ \
    /* is placed above its input). */                                                   \
    FIELD(int32_t, reverse_rows)
typedef struct {
    TA_PARAM_MEMBERS(TA_DEPTHWISE_CONV_2D_PARAMS)
} ta_depthwise_conv_2d_params_t;

/* int8 input and output, int32 accumulators. `bias` is the bias without
   the zero point folded in (bias_sum when that is 0; NULL: zeros), which
   the SIMD paths start from at border pixels. */
int ta_depthwise_conv_2d_s8(const ta_depthwise_conv_2d_params_t *p, const int8_t *input,
                            const int8_t *weights, const int32_t *bias_sum, const int32_t *bias,
                            const int32_t *multipliers, const int32_t *shifts, int8_t *output);

/* ta_depthwise_conv_2d_s8 for the common layer the converter selects it
   for: depth multiplier 1, per-channel multipliers and shifts, right
   shifts only, small accumulators, the full int8 activation range and a
   multiple of 8 output channels. A module calling only this entry links
   none of the other requantization forms; other layers get TA_ERR_KERNEL. */
int ta_depthwise_conv_2d_s8_m1_fast(const ta_depthwise_conv_2d_params_t *p, const int8_t *input,
                                    const int8_t *weights, const int32_t *bias_sum,
                                    const int32_t *bias, const int32_t *multipliers,
                                    const int32_t *shifts, int8_t *output);

/* ta_depthwise_conv_2d_s8_m1_fast without its check: a row chain's band
   of a layer the converter gave that entry (every band's parameters
   differ from the layer's in their rows only), so that no band repeats
   the check (not a kernel of the executor's table: it returns nothing). */
void ta_depthwise_conv_2d_s8_m1_fast_rows(const ta_depthwise_conv_2d_params_t *p,
                                          const int8_t *input, const int8_t *weights,
                                          const int32_t *bias_sum, const int32_t *bias,
                                          const int32_t *multipliers, const int32_t *shifts,
                                          int8_t *output);

/* int16 input and output (zero points 0), int64 bias and accumulators. */
int ta_depthwise_conv_2d_s16(const ta_depthwise_conv_2d_params_t *p, const int16_t *input,
                             const int8_t *weights, const int64_t *bias, const int32_t *multipliers,
                             const int32_t *shifts, int16_t *output);

#endif /* TA_DEPTHWISE_CONV_2D_H */
