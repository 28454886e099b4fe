/*
 * stream_lead.h - how far below its input a streaming kernel's output may
 * start ("output over input").
 *
 * A window kernel (convolution, depthwise convolution, pooling) that walks
 * its output pixels in raster order reads, for each pixel, a window of
 * input pixels that never starts before the windows of earlier pixels.
 * Bytes of input that no later pixel reads may be overwritten, so the
 * output can start below the input's start and run up into it. The kernel
 * paths differ only in how many consecutive output pixels they may write
 * before reading the windows of all of them (a "batch": 1 for a pixel at a
 * time, 2 or 4 for pixel pairs and quads, a whole row for row-at-a-time
 * loops, any order inside the batch). The lead is then exact arithmetic
 * over the geometry: for every run of `batch` pixels starting at q, the
 * output bytes up to the run's end must lie below the first input byte any
 * pixel from q on still reads.
 */
#ifndef TA_STREAM_LEAD_H
#define TA_STREAM_LEAD_H

#include "../lower.h"

typedef struct TaStreamGeometry {
    int32_t batches;
    int32_t in_h, in_w;
    int32_t out_h, out_w;
    int32_t filter_h, filter_w;
    int32_t stride_h, stride_w;
    int32_t dilation_h, dilation_w;
    int32_t pad_top, pad_left;
    size_t in_pixel_bytes;  /* bytes of one input pixel (all channels) */
    size_t out_pixel_bytes; /* bytes of one output pixel */
} TaStreamGeometry;

/* How a path reads the windows of the batch of pixels it writes. */
typedef enum {
    /* In place, while it writes the batch (any order inside it). */
    TA_STREAM_IN_PLACE,
    /* Output channel c reads only input channel c (same bytes per pixel)
       and a block of channels is written after reading just those
       channels of the batch's windows: the batch's last pixel may end
       where its window's unread channels begin. */
    TA_STREAM_CHANNEL_ALIGNED,
    /* Copied (an im2col patch, a widened pair) before any write of the
       batch: only later batches' windows must stay intact. */
    TA_STREAM_BUFFERED
} TaStreamReads;

/* The smallest lead in bytes (output start at least this far below the
   input start) for kernels writing output pixels in raster order (across
   rows and images) in groups of at most `batch` consecutive pixels, each
   group's windows read as `reads` says. */
size_t ta_stream_lead(const TaStreamGeometry *g, int32_t batch, TaStreamReads reads);

/* Computes the lead of output 0 over input `input` and records it on `op`
   when that saves memory (the lead is below the output's size), with the
   reason for the report: `kernel` names the operator and how it walks. */
void ta_declare_overlap(TaLower *L, TaOp *op, int input, const TaStreamGeometry *g, int32_t batch,
                        TaStreamReads reads, const char *kernel);

/* Output above input: for kernels that can walk output rows (across
   images) from the last to the first, each row written in any order after
   or while reading its windows, the smallest lead in bytes (output start
   at least this far above the input start): for every row, its bytes must
   start above the end of the input any row up to it still reads. */
size_t ta_stream_lead_reversed_rows(const TaStreamGeometry *g);

/* After ta_declare_overlap recorded a forward lead over `input`, records
   the reversed-rows lead too when it saves memory; `reverse_rows` is the
   kernel parameter the planner sets when it places the output above. */
void ta_declare_reverse_overlap(TaLower *L, TaOp *op, int input, const TaStreamGeometry *g,
                                int32_t *reverse_rows, const char *kernel);

#endif /* TA_STREAM_LEAD_H */
