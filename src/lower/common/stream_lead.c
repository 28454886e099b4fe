/* stream_lead.c - see stream_lead.h. */
#include "stream_lead.h"

/* The first input pixel (linear index within the image) a window reads
   along one axis: the first tap inside [0, in), or -1 when none is. */
static int32_t first_inside(int32_t start, int32_t in, int32_t filter, int32_t dilation)
{
    for (int32_t k = 0; k < filter; k++) {
        const int32_t i = start + k * dilation;
        if (i >= 0 && i < in)
            return i;
    }
    return -1;
}

/* The last input pixel a window reads along one axis (see first_inside). */
static int32_t last_inside(int32_t start, int32_t in, int32_t filter, int32_t dilation)
{
    for (int32_t k = filter - 1; k >= 0; k--) {
        const int32_t i = start + k * dilation;
        if (i >= 0 && i < in)
            return i;
    }
    return -1;
}

size_t ta_stream_lead(const TaStreamGeometry *g, int32_t batch, TaStreamReads reads)
{
    TA_ASSERT(batch >= 1 &&
              (reads != TA_STREAM_CHANNEL_ALIGNED || g->in_pixel_bytes == g->out_pixel_bytes));
    /* Output pixels written past pixel q while some window byte of q (or
       later) may still be read: from q on, the next `ahead` pixels. */
    const int32_t ahead = reads == TA_STREAM_IN_PLACE          ? batch
                          : reads == TA_STREAM_CHANNEL_ALIGNED ? batch - 1
                                                               : 0;
    const int64_t per_image = (int64_t)g->out_h * g->out_w;
    const int64_t pixels = per_image * g->batches;
    if (pixels <= 0)
        return 0;
    /* first[q]: first input byte output pixel q reads (INT64_MAX: none);
       walked backwards it becomes the first byte any pixel from q reads. */
    int64_t *first = ta_heap_realloc(NULL, (size_t)pixels * sizeof *first);
    for (int64_t q = 0; q < pixels; q++) {
        const int64_t b = q / per_image, oy = q % per_image / g->out_w, ox = q % g->out_w;
        const int32_t iy = first_inside((int32_t)oy * g->stride_h - g->pad_top, g->in_h,
                                        g->filter_h, g->dilation_h);
        const int32_t ix = first_inside((int32_t)ox * g->stride_w - g->pad_left, g->in_w,
                                        g->filter_w, g->dilation_w);
        first[q] = iy < 0 || ix < 0
                       ? INT64_MAX
                       : ((b * g->in_h + iy) * g->in_w + ix) * (int64_t)g->in_pixel_bytes;
    }
    int64_t lead = 0, still_read = INT64_MAX;
    for (int64_t q = pixels - 1; q >= 0; q--) {
        still_read = first[q] < still_read ? first[q] : still_read;
        if (still_read == INT64_MAX)
            continue;
        const int64_t end = q + ahead < pixels ? q + ahead : pixels;
        const int64_t need = end * (int64_t)g->out_pixel_bytes - still_read;
        lead = need > lead ? need : lead;
    }
    ta_heap_free(first);
    return (size_t)lead;
}

void ta_declare_overlap(TaLower *L, TaOp *op, int input, const TaStreamGeometry *g, int32_t batch,
                        TaStreamReads reads, const char *kernel)
{
    static const char *const read_text[] = {
        [TA_STREAM_IN_PLACE] = "each group written while its windows are read in place",
        [TA_STREAM_CHANNEL_ALIGNED] = "channel blocks written after their windows are read",
        [TA_STREAM_BUFFERED] = "each group's windows copied before it is written",
    };
    const size_t lead = ta_stream_lead(g, batch, reads);
    TaTensor *in = op->inputs[input], *out = op->outputs[0];
    if (!in || in->role != TA_REGION_SCRATCH || out->role != TA_REGION_SCRATCH ||
        lead >= ta_tensor_bytes(out))
        return;
    op->plan_hints.overlap_input = input;
    op->plan_hints.overlap_lead = lead;
    op->plan_hints.overlap_why = ta_format(
        L->pool,
        "%s: output pixels in raster order, at most %d at a time, %s, so "
        "no input byte is overwritten before its last read when the "
        "output starts %zu bytes or more below input %s",
        kernel, (int)batch, read_text[reads], lead, in->id);
}

size_t ta_stream_lead_reversed_rows(const TaStreamGeometry *g)
{
    const int64_t rows = (int64_t)g->batches * g->out_h;
    const int64_t row_bytes = (int64_t)g->out_w * (int64_t)g->out_pixel_bytes;
    /* Rows are walked from the last: when row r is written, every row up
       to r may still read, so the end of what they read is a running
       maximum from row 0 on. */
    int64_t lead = 0, read_end = 0;
    for (int64_t r = 0; r < rows; r++) {
        const int64_t b = r / g->out_h, oy = r % g->out_h;
        const int32_t iy = last_inside((int32_t)oy * g->stride_h - g->pad_top, g->in_h, g->filter_h,
                                       g->dilation_h);
        for (int32_t ox = 0; iy >= 0 && ox < g->out_w; ox++) {
            const int32_t ix = last_inside(ox * g->stride_w - g->pad_left, g->in_w, g->filter_w,
                                           g->dilation_w);
            if (ix < 0)
                continue;
            const int64_t end = ((b * g->in_h + iy) * g->in_w + ix + 1) *
                                (int64_t)g->in_pixel_bytes;
            read_end = end > read_end ? end : read_end;
        }
        const int64_t need = read_end - r * row_bytes;
        lead = need > lead ? need : lead;
    }
    return (size_t)lead;
}

void ta_declare_reverse_overlap(TaLower *L, TaOp *op, int input, const TaStreamGeometry *g,
                                int32_t *reverse_rows, const char *kernel)
{
    const size_t lead = ta_stream_lead_reversed_rows(g);
    if (op->plan_hints.overlap_input != input || lead >= ta_tensor_bytes(op->outputs[0]))
        return;
    op->plan_hints.overlap_reverse_rows = reverse_rows;
    op->plan_hints.overlap_back_lead = lead;
    op->plan_hints.overlap_back_why = ta_format(
        L->pool,
        "%s: output rows from the last to the first, each read "
        "before or while it is written, so no input byte is "
        "overwritten before its last read when the output starts "
        "%zu bytes or more above input %s",
        kernel, lead, op->inputs[input]->id);
}
