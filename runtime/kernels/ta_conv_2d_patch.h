/*
 * ta_conv_2d_patch.h - what the int8 CONV_2D paths share (the portable one
 * and the dispatch in ta_conv_2d.c, Helium in ta_conv_2d_mve.c, DSP in
 * ta_conv_2d_dsp.c): a pixel's taps as segments, the im2col gathers
 * (ta_conv_2d_patch.c), the interleaved blocks' sums over segments, the
 * portable requantization and the sizes of the working buffers.
 */
#ifndef TA_CONV_2D_PATCH_H
#define TA_CONV_2D_PATCH_H

#include "ta_conv_2d.h"

#include "../include/ta_compiler.h"
#include "../include/ta_quant.h"
#include "../include/ta_simd.h"

#include <stddef.h>
#include <string.h>

/*
 * A pixel's taps as segments: runs of weights (at w_offset in every filter)
 * that meet one contiguous run of input `x`, or, for x == NULL, taps
 * outside the image. Those give back the zero point the converter folded
 * into bias_sum: pad_value * their weights. Four output channels then share
 * each load of the input through every segment, at the border as inside.
 */
typedef struct {
    const int8_t *x;
    int32_t w_offset;
    int32_t length;
} segment_t;

enum { MAX_PATCH = TA_CONV_2D_MAX_PATCH, MAX_SEGMENTS = 16 };

typedef struct {
    segment_t seg[MAX_SEGMENTS];
    int32_t count;
} segments_t;

/* The input values one output pixel's filter sees (window at (iy0, ix0)
   of image in_b), in weight order, with the zero point (pad_value) for
   taps outside the image; ungrouped filters only. */
void ta_conv_2d_gather_patch(const ta_conv_2d_params_t *p, const int8_t *in_b, int32_t iy0,
                             int32_t ix0, int8_t *patch);

/* Input columns ix0 .. ix0 + cols - 1 of row iy (all filter_depth
   channels: ungrouped filters), pad_value outside the image, to dst;
   Helium cores only. */
void ta_conv_2d_gather_columns(const ta_conv_2d_params_t *p, const int8_t *in_b, int32_t iy,
                               int32_t ix0, int32_t cols, int8_t *dst);

/* The patches of three consecutive output pixels in raster order from
   (oy, ox), TA_CONV_2D_TRIPLE_PATCH bytes apart; Helium cores only. */
void ta_conv_2d_gather_patches3(const ta_conv_2d_params_t *p, const int8_t *in_b, int32_t oy,
                                int32_t ox, int8_t *patches);

/* Bytes [t0, t0 + len) of one pixel's im2col patch (a long filter's piece)
   to dst. */
void ta_conv_2d_gather_taps(const ta_conv_2d_params_t *p, const int8_t *in_b, int32_t iy0,
                            int32_t ix0, int32_t t0, int32_t len, int8_t *dst);

/* Sums of up to LONG_GROUP channels of several pixels kept in memory (long
   filters: across the pieces of their patches). */
enum { LONG_GROUP = 64 };

/* Bytes of the column buffer: at least one patch, its vector tail, and
   room for the columns of many pixels. */
enum { COLUMN_BUFFER = 2 * MAX_PATCH, COLUMN_TAIL = 16 };

/* How the Helium path scatters input rows into columns: per_vector whole
   columns' bytes a vector, lane i to byte offsets[i]. */
typedef struct {
    int32_t per_vector;
    uint8_t offsets[16];
} column_scatter_t;

#if !defined(TA_HAVE_MVE)
/* ta_mul_by_quantized_multiplier for a multiplier >= 0 (the converter
   rejects negative scales, so CONV_2D's multipliers are never negative):
   the doubling high multiply then cannot saturate. For a right shift r
   (shift = -r < 0, so no left shift) its rounding and the shift's fold
   into one floor, floor(floor(a / 2^31) / 2^r) = floor(a / 2^(31 + r)),
   of a = acc * multiplier + 2^30 + (2^(r-1) - neg) * 2^31, where neg (the
   ties-away-from-zero step) is 1 for a negative acc: it matters only when
   the first rounding is non-zero, and then has the product's sign. One
   multiply-accumulate onto a 64-bit constant (SMLAL) and a shift of its
   high word: the same value as TFLite's two roundings. */
static inline int32_t requantize_nonnegative(int32_t acc, int32_t multiplier, int32_t shift)
{
    if (!TA_LIKELY(shift < 0)) /* scales above 1/2: rare in convolutions */
        return (int32_t)(((int64_t)ta_shift_left_wrap(acc, (int)shift) * multiplier +
                          ((int64_t)1 << 30)) >>
                         31);
    const int32_t r1 = -shift - 1;
    const uint32_t half_less_neg = ((uint32_t)1 << r1) - ((uint32_t)acc >> 31);
    const int64_t sum = (int64_t)(((uint64_t)half_less_neg << 31) | 0x40000000u) +
                        (int64_t)acc * multiplier;
    return (int32_t)(sum >> 32) >> r1;
}
#endif

#endif /* TA_CONV_2D_PATCH_H */
