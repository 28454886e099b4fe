/* ta_pad_rows.h - int8 PAD of an NHWC tensor of one batch, row by row:
 * each output row is the pad value or an input row with its columns and
 * channels padded. A run of output rows needs only the input rows it
 * copies, so a row chain (docs/row-streaming.md) runs it on bands like a
 * window layer of one row: input_height, pad_top and output_height then
 * describe the band. */
#ifndef TA_PAD_ROWS_H
#define TA_PAD_ROWS_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_PAD_ROWS_PARAMS(FIELD, ARRAY, ARRAY_USED)                        \
    FIELD(int32_t, input_height)                                            \
    FIELD(int32_t, pad_top) /* padding rows before input row 0 */           \
    FIELD(int32_t, output_height)                                           \
    FIELD(int32_t, input_width)                                             \
    FIELD(int32_t, pad_left)                                                \
    FIELD(int32_t, output_width)                                            \
    FIELD(int32_t, input_depth)                                             \
    FIELD(int32_t, pad_front) /* padding channels before input channel 0 */ \
    FIELD(int32_t, output_depth)                                            \
    FIELD(int32_t, value) /* the pad value (the output zero point or PADV2's) */
typedef struct {
    TA_PARAM_MEMBERS(TA_PAD_ROWS_PARAMS)
} ta_pad_rows_params_t;

/* Output row oy is input row oy - pad_top, padded, or all pad value when
   that row is outside [0, input_height). Input and output must not overlap. */
int ta_pad_rows_s8(const ta_pad_rows_params_t *p, const int8_t *input, int8_t *output);

#endif /* TA_PAD_ROWS_H */
