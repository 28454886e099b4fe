/*
 * plan_axis.h - the offset axis of a memory-plan picture (emit_html.c):
 * bytes of a region to pixels down the plot.
 *
 * The axis is linear except where that would draw a tensor thinner than a
 * minimum: the region is cut at every tensor's first and one-past-last
 * byte, and each piece that some tensor covers gets at least the minimum
 * height. Every position moves down by the same amount the pieces above it
 * grew, so the axis stays strictly increasing: two tensors overlap in the
 * picture exactly where they share bytes, and a tiny tensor never covers
 * its neighbour. Pixels are counted in hundredths, in integers, so the
 * page's text is the same on every host.
 */
#ifndef TA_PLAN_AXIS_H
#define TA_PLAN_AXIS_H

#include "../util/util.h"

#include <stdint.h>

/* A byte range [offset, offset + size) of the region. */
typedef struct TaByteRange {
    size_t offset, size;
} TaByteRange;

typedef struct TaPlanAxis {
    size_t region_size;
    int num_edges;     /* cuts, 0 and region_size included, increasing */
    size_t *edge;      /* byte offset of each cut */
    int64_t *edge_px;  /* its position, hundredths of a pixel */
    bool *stretched;   /* piece i (edge i to i + 1) was grown to the minimum */
    int64_t height_px; /* hundredths of a pixel: the plot's height */
} TaPlanAxis;

/* The axis for `n` tensors of a region of `region_size` bytes drawn about
   `linear_px` pixels tall, every covered piece at least `min_px`. */
TaPlanAxis ta_plan_axis(TaPool *pool, size_t region_size, const TaByteRange *tensors, int n,
                        int linear_px, int min_px);

/* Where byte `offset` (0 to region_size) is, in hundredths of a pixel. */
int64_t ta_plan_axis_at(const TaPlanAxis *axis, size_t offset);

/* Bytes per pixel where the axis is linear: "31", or "1.1" under ten
   (digits only, no thousands separator). */
const char *ta_plan_axis_scale_text(TaPool *pool, const TaPlanAxis *axis, int linear_px);

/* "12.34": hundredths of a pixel as SVG writes a coordinate. */
const char *ta_px_text(TaPool *pool, int64_t hundredths);

#endif /* TA_PLAN_AXIS_H */
