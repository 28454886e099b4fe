/* ta_l2_normalization_f32.h - float32 L2_NORMALIZATION over the last
   dimension (ta_l2_normalization.h's geometry, zero point unused), as
   TFLite's reference: each element divided by max(sqrtf(sum of squares),
   1e-6f), the sum in float in row order. */
#ifndef TA_L2_NORMALIZATION_F32_H
#define TA_L2_NORMALIZATION_F32_H

#include "ta_l2_normalization.h"

int ta_l2_normalization_f32(const ta_l2_normalization_params_t *p, const float *input,
                            float *output);

#endif /* TA_L2_NORMALIZATION_F32_H */
