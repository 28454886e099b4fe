/* ta_pool_rows.h - an int8 average pool a band of rows at a time (row
 * streaming, docs/row-streaming.md): the pool has one output row whose
 * window spans every input row, so each band's rows are summed as they
 * come and the output is written once, at the end. */
#ifndef TA_POOL_ROWS_H
#define TA_POOL_ROWS_H

#include "ta_pooling.h"

/* Adds each of the band's input_height rows' window sums (the pool's
   columns: filter_width, stride_width, pad_width) to
   sums[output_width * depth]; output_height 1 marks the first band, which
   starts the sums from zero (0: the band adds to them). */
int ta_average_pool_rows_s8(const ta_pool_params_t *p, const int8_t *input, int32_t *sums);
/* The output row from the sums, each divided by its window's pixel count
   (input_height: the whole input's) and rounded half away from zero, as
   ta_average_pool_s8 does: integer sums in any order, the same bytes. */
int ta_average_pool_finish_s8(const ta_pool_params_t *p, const int32_t *sums, int8_t *output);

#endif /* TA_POOL_ROWS_H */
