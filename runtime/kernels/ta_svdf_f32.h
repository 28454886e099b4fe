/*
 * ta_svdf_f32.h - float32 SVDF as TFLite Micro's EvalFloatSvdfReference
 * runs it, loop for loop:
 *   1. the activation state [batches, filters * memory] moves one element
 *      left as a whole;
 *   2. per batch and filter, the feature dot product (from 0.0f, input
 *      depth in order) lands in the filter's newest state slot;
 *   3. per batch and filter, the time dot product of weights_time with the
 *      filter's memory (from 0.0f, oldest first) goes to scratch;
 *   4. each output starts at its bias (0.0f without one), adds its rank
 *      filters' sums in order, then the fused activation as
 *      ActivationValFloat: NONE passes every value, RELU max(0, x),
 *      RELU_N1_TO_1 max(-1, min(x, 1)), RELU6 max(0, min(x, 6)) with
 *      std::max/std::min's comparisons, TANH tanhf, SIGN_BIT 1 for a set
 *      sign bit, else 0.
 */
#ifndef TA_SVDF_F32_H
#define TA_SVDF_F32_H

#include <stdint.h>

#include "../include/ta_params.h"

/* The fused activations, numbered as LiteRT's ActivationFunctionType. */
enum {
    TA_SVDF_F32_NONE = 0,
    TA_SVDF_F32_RELU = 1,
    TA_SVDF_F32_RELU_N1_TO_1 = 2,
    TA_SVDF_F32_RELU6 = 3,
    TA_SVDF_F32_TANH = 4,
    TA_SVDF_F32_SIGN_BIT = 5
};

#define TA_SVDF_F32_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, batches)                          \
    FIELD(int32_t, input_size)                       \
    FIELD(int32_t, filters) /* units * rank */       \
    FIELD(int32_t, rank)                             \
    FIELD(int32_t, memory)                           \
    FIELD(int32_t, activation) /* TA_SVDF_F32_* */
typedef struct {
    TA_PARAM_MEMBERS(TA_SVDF_F32_PARAMS)
} ta_svdf_f32_params_t;

/* bias may be NULL; scratch holds batches * filters floats. */
int ta_svdf_f32(const ta_svdf_f32_params_t *p, const float *input, const float *weights_feature,
                const float *weights_time, const float *bias, float *state, void *scratch,
                float *output);

#endif /* TA_SVDF_F32_H */
