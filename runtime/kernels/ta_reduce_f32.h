/*
 * ta_reduce_f32.h - float32 MEAN, SUM, REDUCE_MAX and REDUCE_MIN over
 * constant axes, as TFLite Micro's float reduction (reference_ops::
 * ReduceGeneric and Mean). The dimension groups are ta_reduce.h's (its
 * requantization fields are unused here); each output starts at its
 * initial value and takes its inputs in increasing input offset, the
 * reference's order:
 *   SUM:  0.0f, then current = in + current;
 *   MEAN: the same sum, then sum / (float)count, count the product of the
 *         reduced dimensions;
 *   REDUCE_MAX: -FLT_MAX, then current = in > current ? in : current;
 *   REDUCE_MIN: FLT_MAX, then current = in < current ? in : current
 * (so a NaN never wins, and an all-NaN group gives the initial value).
 * Built with -ffp-contract=off.
 */
#ifndef TA_REDUCE_F32_H
#define TA_REDUCE_F32_H

#include "ta_reduce.h"

int ta_reduce_sum_f32(const ta_reduce_params_t *p, const float *input, float *output);
int ta_reduce_mean_f32(const ta_reduce_params_t *p, const float *input, float *output);
int ta_reduce_max_f32(const ta_reduce_params_t *p, const float *input, float *output);
int ta_reduce_min_f32(const ta_reduce_params_t *p, const float *input, float *output);

#endif /* TA_REDUCE_F32_H */
