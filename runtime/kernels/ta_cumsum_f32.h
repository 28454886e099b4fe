/* ta_cumsum_f32.h - float32 CUMSUM (ta_cumsum.h's geometry; the int8
   fields are unused): sums start at 0.0f and add in the axis's order. */
#ifndef TA_CUMSUM_F32_H
#define TA_CUMSUM_F32_H

#include "ta_cumsum.h"

int ta_cumsum_f32(const ta_cumsum_params_t *p, const float *input, float *output);

#endif /* TA_CUMSUM_F32_H */
