/*
 * ta_depthwise_conv_2d_s4_walk.h - what the Helium and DSP paths of
 * ta_depthwise_conv_2d_s4.c (depth multiplier 1) share: how many taps
 * they unpack, and how a pixel's window is walked.
 */
#ifndef TA_DEPTHWISE_CONV_2D_S4_WALK_H
#define TA_DEPTHWISE_CONV_2D_S4_WALK_H

#include <stddef.h>
#include <stdint.h>

/* Taps a block's weights hold, unpacked once per row onto the stack (16
   bytes a tap on Helium, 8 on DSP); larger filters run the portable path. */
#define TA_DW_S4_TAPS 25

/* A window's steps in the input: between tap rows and tap columns (bytes),
   the taps of a filter row, the input zero point and the plain bias (NULL:
   zeros) that border windows start from. */
typedef struct {
    ptrdiff_t row_step, col_step;
    int32_t kw, zp;
    const int32_t *bias;
} ta_dw_s4_walk_t;

#endif /* TA_DEPTHWISE_CONV_2D_S4_WALK_H */
