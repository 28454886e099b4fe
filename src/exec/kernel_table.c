/* kernel_table.c - written by scripts/gen_kernel_table.py from the kernel headers; do not edit.
 * Every runtime kernel by name, with a thunk that calls it with its own
 * arity (see kernel_table.h). */
#include "kernel_table.h"

#include <string.h>

#include "../../runtime/kernels/ta_abs.h"
#include "../../runtime/kernels/ta_add_n.h"
#include "../../runtime/kernels/ta_add_n_f32.h"
#include "../../runtime/kernels/ta_add_sub.h"
#include "../../runtime/kernels/ta_arg_min_max.h"
#include "../../runtime/kernels/ta_arg_min_max_f32.h"
#include "../../runtime/kernels/ta_batch_matmul.h"
#include "../../runtime/kernels/ta_batch_matmul_f32.h"
#include "../../runtime/kernels/ta_binary_f32.h"
#include "../../runtime/kernels/ta_binary_i32.h"
#include "../../runtime/kernels/ta_broadcast_args.h"
#include "../../runtime/kernels/ta_cast.h"
#include "../../runtime/kernels/ta_channel_params.h"
#include "../../runtime/kernels/ta_circular_buffer.h"
#include "../../runtime/kernels/ta_comparison.h"
#include "../../runtime/kernels/ta_comparison_f32.h"
#include "../../runtime/kernels/ta_conv_2d.h"
#include "../../runtime/kernels/ta_conv_2d_add.h"
#include "../../runtime/kernels/ta_conv_2d_f32.h"
#include "../../runtime/kernels/ta_conv_2d_s4.h"
#include "../../runtime/kernels/ta_copy.h"
#include "../../runtime/kernels/ta_copy_nd.h"
#include "../../runtime/kernels/ta_cumsum.h"
#include "../../runtime/kernels/ta_cumsum_f32.h"
#include "../../runtime/kernels/ta_depthwise_conv_2d.h"
#include "../../runtime/kernels/ta_depthwise_conv_2d_f32.h"
#include "../../runtime/kernels/ta_depthwise_conv_2d_s4.h"
#include "../../runtime/kernels/ta_dequantize.h"
#include "../../runtime/kernels/ta_detection_postprocess_f32.h"
#include "../../runtime/kernels/ta_dynamic_update_slice.h"
#include "../../runtime/kernels/ta_embedding_lookup.h"
#include "../../runtime/kernels/ta_floor_div_mod_f32.h"
#include "../../runtime/kernels/ta_fully_connected.h"
#include "../../runtime/kernels/ta_fully_connected_f32.h"
#include "../../runtime/kernels/ta_fully_connected_s4.h"
#include "../../runtime/kernels/ta_fully_connected_sparse.h"
#include "../../runtime/kernels/ta_fully_connected_words.h"
#include "../../runtime/kernels/ta_gather.h"
#include "../../runtime/kernels/ta_hard_swish.h"
#include "../../runtime/kernels/ta_l2_normalization.h"
#include "../../runtime/kernels/ta_l2_normalization_f32.h"
#include "../../runtime/kernels/ta_leaky_relu.h"
#include "../../runtime/kernels/ta_log_softmax.h"
#include "../../runtime/kernels/ta_log_softmax_f32.h"
#include "../../runtime/kernels/ta_logical.h"
#include "../../runtime/kernels/ta_logistic.h"
#include "../../runtime/kernels/ta_lstm.h"
#include "../../runtime/kernels/ta_lstm_f32.h"
#include "../../runtime/kernels/ta_lut.h"
#include "../../runtime/kernels/ta_maximum_minimum.h"
#include "../../runtime/kernels/ta_mul.h"
#include "../../runtime/kernels/ta_pad_rows.h"
#include "../../runtime/kernels/ta_pool_rows.h"
#include "../../runtime/kernels/ta_pooling.h"
#include "../../runtime/kernels/ta_pooling_f32.h"
#include "../../runtime/kernels/ta_prelu.h"
#include "../../runtime/kernels/ta_quantize.h"
#include "../../runtime/kernels/ta_reduce.h"
#include "../../runtime/kernels/ta_reduce_f32.h"
#include "../../runtime/kernels/ta_relu.h"
#include "../../runtime/kernels/ta_resize.h"
#include "../../runtime/kernels/ta_resize_f32.h"
#include "../../runtime/kernels/ta_rsqrt.h"
#include "../../runtime/kernels/ta_select.h"
#include "../../runtime/kernels/ta_sign.h"
#include "../../runtime/kernels/ta_signal_fft_f32.h"
#include "../../runtime/kernels/ta_signal_fft_i32.h"
#include "../../runtime/kernels/ta_signal_filter_bank.h"
#include "../../runtime/kernels/ta_signal_framing.h"
#include "../../runtime/kernels/ta_signal_noise.h"
#include "../../runtime/kernels/ta_signal_overlap_add.h"
#include "../../runtime/kernels/ta_signal_rfft.h"
#include "../../runtime/kernels/ta_signal_spectrum.h"
#include "../../runtime/kernels/ta_softmax.h"
#include "../../runtime/kernels/ta_softmax_f32.h"
#include "../../runtime/kernels/ta_squared_difference.h"
#include "../../runtime/kernels/ta_svdf.h"
#include "../../runtime/kernels/ta_svdf_f32.h"
#include "../../runtime/kernels/ta_tanh.h"
#include "../../runtime/kernels/ta_transpose_conv.h"
#include "../../runtime/kernels/ta_transpose_conv_f32.h"
#include "../../runtime/kernels/ta_unary_f32.h"
#include "../../runtime/kernels/ta_variable.h"
#include "../../runtime/kernels/ta_weight_huffman.h"
#include "../../runtime/kernels/ta_weight_table.h"

static int call_ta_abs_f32(const void *p, void *const *a)
{
    return ta_abs_f32(p, a[0], a[1]);
}
static int call_ta_abs_i16(const void *p, void *const *a)
{
    return ta_abs_i16(p, a[0], a[1]);
}
static int call_ta_abs_s16(const void *p, void *const *a)
{
    return ta_abs_s16(p, a[0], a[1]);
}
static int call_ta_abs_s8(const void *p, void *const *a)
{
    return ta_abs_s8(p, a[0], a[1]);
}
static int call_ta_add_f32(const void *p, void *const *a)
{
    return ta_add_f32(p, a[0], a[1], a[2]);
}
static int call_ta_add_i32(const void *p, void *const *a)
{
    return ta_add_i32(p, a[0], a[1], a[2]);
}
static int call_ta_add_n_f32_accumulate(const void *p, void *const *a)
{
    return ta_add_n_f32_accumulate(p, a[0], a[1]);
}
static int call_ta_add_n_f32_first(const void *p, void *const *a)
{
    return ta_add_n_f32_first(p, a[0], a[1]);
}
static int call_ta_add_n_s8_accumulate(const void *p, void *const *a)
{
    return ta_add_n_s8_accumulate(p, a[0], a[1]);
}
static int call_ta_add_n_s8_finish(const void *p, void *const *a)
{
    return ta_add_n_s8_finish(p, a[0], a[1], a[2]);
}
static int call_ta_add_n_s8_first(const void *p, void *const *a)
{
    return ta_add_n_s8_first(p, a[0], a[1]);
}
static int call_ta_add_s16(const void *p, void *const *a)
{
    return ta_add_s16(p, a[0], a[1], a[2]);
}
static int call_ta_add_s8(const void *p, void *const *a)
{
    return ta_add_s8(p, a[0], a[1], a[2]);
}
static int call_ta_arg_max_f32_i32(const void *p, void *const *a)
{
    return ta_arg_max_f32_i32(p, a[0], a[1]);
}
static int call_ta_arg_max_s8_i32(const void *p, void *const *a)
{
    return ta_arg_max_s8_i32(p, a[0], a[1]);
}
static int call_ta_arg_max_s8_i64(const void *p, void *const *a)
{
    return ta_arg_max_s8_i64(p, a[0], a[1]);
}
static int call_ta_arg_min_f32_i32(const void *p, void *const *a)
{
    return ta_arg_min_f32_i32(p, a[0], a[1]);
}
static int call_ta_arg_min_s8_i32(const void *p, void *const *a)
{
    return ta_arg_min_s8_i32(p, a[0], a[1]);
}
static int call_ta_arg_min_s8_i64(const void *p, void *const *a)
{
    return ta_arg_min_s8_i64(p, a[0], a[1]);
}
static int call_ta_average_pool_f32(const void *p, void *const *a)
{
    return ta_average_pool_f32(p, a[0], a[1]);
}
static int call_ta_average_pool_finish_s8(const void *p, void *const *a)
{
    return ta_average_pool_finish_s8(p, a[0], a[1]);
}
static int call_ta_average_pool_rows_s8(const void *p, void *const *a)
{
    return ta_average_pool_rows_s8(p, a[0], a[1]);
}
static int call_ta_average_pool_s16(const void *p, void *const *a)
{
    return ta_average_pool_s16(p, a[0], a[1]);
}
static int call_ta_average_pool_s8(const void *p, void *const *a)
{
    return ta_average_pool_s8(p, a[0], a[1]);
}
static int call_ta_batch_matmul_f32(const void *p, void *const *a)
{
    return ta_batch_matmul_f32(p, a[0], a[1], a[2]);
}
static int call_ta_batch_matmul_s16(const void *p, void *const *a)
{
    return ta_batch_matmul_s16(p, a[0], a[1], a[2]);
}
static int call_ta_batch_matmul_s8(const void *p, void *const *a)
{
    return ta_batch_matmul_s8(p, a[0], a[1], a[2], a[3], a[4]);
}
static int call_ta_broadcast_args_i32(const void *p, void *const *a)
{
    return ta_broadcast_args_i32(p, a[0], a[1], a[2]);
}
static int call_ta_broadcast_args_i64(const void *p, void *const *a)
{
    return ta_broadcast_args_i64(p, a[0], a[1], a[2]);
}
static int call_ta_cast_b_f32(const void *p, void *const *a)
{
    return ta_cast_b_f32(p, a[0], a[1]);
}
static int call_ta_cast_b_i16(const void *p, void *const *a)
{
    return ta_cast_b_i16(p, a[0], a[1]);
}
static int call_ta_cast_b_i32(const void *p, void *const *a)
{
    return ta_cast_b_i32(p, a[0], a[1]);
}
static int call_ta_cast_b_i8(const void *p, void *const *a)
{
    return ta_cast_b_i8(p, a[0], a[1]);
}
static int call_ta_cast_f32_i16(const void *p, void *const *a)
{
    return ta_cast_f32_i16(p, a[0], a[1]);
}
static int call_ta_cast_f32_i32(const void *p, void *const *a)
{
    return ta_cast_f32_i32(p, a[0], a[1]);
}
static int call_ta_cast_f32_i8(const void *p, void *const *a)
{
    return ta_cast_f32_i8(p, a[0], a[1]);
}
static int call_ta_cast_i16_f32(const void *p, void *const *a)
{
    return ta_cast_i16_f32(p, a[0], a[1]);
}
static int call_ta_cast_i16_i32(const void *p, void *const *a)
{
    return ta_cast_i16_i32(p, a[0], a[1]);
}
static int call_ta_cast_i16_i8(const void *p, void *const *a)
{
    return ta_cast_i16_i8(p, a[0], a[1]);
}
static int call_ta_cast_i32_f32(const void *p, void *const *a)
{
    return ta_cast_i32_f32(p, a[0], a[1]);
}
static int call_ta_cast_i32_i16(const void *p, void *const *a)
{
    return ta_cast_i32_i16(p, a[0], a[1]);
}
static int call_ta_cast_i32_i8(const void *p, void *const *a)
{
    return ta_cast_i32_i8(p, a[0], a[1]);
}
static int call_ta_cast_i8_f32(const void *p, void *const *a)
{
    return ta_cast_i8_f32(p, a[0], a[1]);
}
static int call_ta_cast_i8_i16(const void *p, void *const *a)
{
    return ta_cast_i8_i16(p, a[0], a[1]);
}
static int call_ta_cast_i8_i32(const void *p, void *const *a)
{
    return ta_cast_i8_i32(p, a[0], a[1]);
}
static int call_ta_ceil_f32(const void *p, void *const *a)
{
    return ta_ceil_f32(p, a[0], a[1]);
}
static int call_ta_channel_params(const void *p, void *const *a)
{
    return ta_channel_params(p, a[0], a[1], a[2], a[3], a[4]);
}
static int call_ta_circular_buffer_s8(const void *p, void *const *a)
{
    return ta_circular_buffer_s8(p, a[0], a[1], a[2]);
}
static int call_ta_comparison_f32(const void *p, void *const *a)
{
    return ta_comparison_f32(p, a[0], a[1], a[2]);
}
static int call_ta_comparison_s8(const void *p, void *const *a)
{
    return ta_comparison_s8(p, a[0], a[1], a[2]);
}
static int call_ta_conv_2d_add_s8(const void *p, void *const *a)
{
    return ta_conv_2d_add_s8(p, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
}
static int call_ta_conv_2d_add_s8_columns(const void *p, void *const *a)
{
    return ta_conv_2d_add_s8_columns(p, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
}
static int call_ta_conv_2d_add_s8_interleaved(const void *p, void *const *a)
{
    return ta_conv_2d_add_s8_interleaved(p, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
}
static int call_ta_conv_2d_add_s8_long(const void *p, void *const *a)
{
    return ta_conv_2d_add_s8_long(p, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
}
static int call_ta_conv_2d_f32(const void *p, void *const *a)
{
    return ta_conv_2d_f32(p, a[0], a[1], a[2], a[3]);
}
static int call_ta_conv_2d_s16(const void *p, void *const *a)
{
    return ta_conv_2d_s16(p, a[0], a[1], a[2], a[3], a[4], a[5]);
}
static int call_ta_conv_2d_s4(const void *p, void *const *a)
{
    return ta_conv_2d_s4(p, a[0], a[1], a[2], a[3], a[4], a[5]);
}
static int call_ta_conv_2d_s8(const void *p, void *const *a)
{
    return ta_conv_2d_s8(p, a[0], a[1], a[2], a[3], a[4], a[5]);
}
static int call_ta_conv_2d_s8_columns(const void *p, void *const *a)
{
    return ta_conv_2d_s8_columns(p, a[0], a[1], a[2], a[3], a[4], a[5]);
}
static int call_ta_conv_2d_s8_interleaved(const void *p, void *const *a)
{
    return ta_conv_2d_s8_interleaved(p, a[0], a[1], a[2], a[3], a[4], a[5]);
}
static int call_ta_conv_2d_s8_long(const void *p, void *const *a)
{
    return ta_conv_2d_s8_long(p, a[0], a[1], a[2], a[3], a[4], a[5]);
}
static int call_ta_conv_2d_s8_one_row(const void *p, void *const *a)
{
    return ta_conv_2d_s8_one_row(p, a[0], a[1], a[2], a[3], a[4], a[5]);
}
static int call_ta_conv_2d_s8_pointwise_off4(const void *p, void *const *a)
{
    return ta_conv_2d_s8_pointwise_off4(p, a[0], a[1], a[2], a[3], a[4], a[5]);
}
static int call_ta_conv_2d_s8_pointwise_triples(const void *p, void *const *a)
{
    return ta_conv_2d_s8_pointwise_triples(p, a[0], a[1], a[2], a[3], a[4], a[5]);
}
static int call_ta_copy(const void *p, void *const *a)
{
    return ta_copy(p, a[0], a[1]);
}
static int call_ta_copy_nd(const void *p, void *const *a)
{
    return ta_copy_nd(p, a[0], a[1]);
}
static int call_ta_cos_f32(const void *p, void *const *a)
{
    return ta_cos_f32(p, a[0], a[1]);
}
static int call_ta_cumsum_f32(const void *p, void *const *a)
{
    return ta_cumsum_f32(p, a[0], a[1]);
}
static int call_ta_cumsum_s8(const void *p, void *const *a)
{
    return ta_cumsum_s8(p, a[0], a[1]);
}
static int call_ta_depthwise_conv_2d_f32(const void *p, void *const *a)
{
    return ta_depthwise_conv_2d_f32(p, a[0], a[1], a[2], a[3]);
}
static int call_ta_depthwise_conv_2d_s16(const void *p, void *const *a)
{
    return ta_depthwise_conv_2d_s16(p, a[0], a[1], a[2], a[3], a[4], a[5]);
}
static int call_ta_depthwise_conv_2d_s4(const void *p, void *const *a)
{
    return ta_depthwise_conv_2d_s4(p, a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
}
static int call_ta_depthwise_conv_2d_s8(const void *p, void *const *a)
{
    return ta_depthwise_conv_2d_s8(p, a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
}
static int call_ta_depthwise_conv_2d_s8_m1_fast(const void *p, void *const *a)
{
    return ta_depthwise_conv_2d_s8_m1_fast(p, a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
}
static int call_ta_dequantize_s16_f32(const void *p, void *const *a)
{
    return ta_dequantize_s16_f32(p, a[0], a[1]);
}
static int call_ta_dequantize_s8_f32(const void *p, void *const *a)
{
    return ta_dequantize_s8_f32(p, a[0], a[1]);
}
static int call_ta_detection_postprocess_f32(const void *p, void *const *a)
{
    return ta_detection_postprocess_f32(p, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
}
static int call_ta_div_f32(const void *p, void *const *a)
{
    return ta_div_f32(p, a[0], a[1], a[2]);
}
static int call_ta_div_i32(const void *p, void *const *a)
{
    return ta_div_i32(p, a[0], a[1], a[2]);
}
static int call_ta_dynamic_update_slice_i32(const void *p, void *const *a)
{
    return ta_dynamic_update_slice_i32(p, a[0], a[1], a[2], a[3]);
}
static int call_ta_dynamic_update_slice_i64(const void *p, void *const *a)
{
    return ta_dynamic_update_slice_i64(p, a[0], a[1], a[2], a[3]);
}
static int call_ta_elu_f32(const void *p, void *const *a)
{
    return ta_elu_f32(p, a[0], a[1]);
}
static int call_ta_embedding_lookup_s8_f32(const void *p, void *const *a)
{
    return ta_embedding_lookup_s8_f32(p, a[0], a[1], a[2]);
}
static int call_ta_exp_f32(const void *p, void *const *a)
{
    return ta_exp_f32(p, a[0], a[1]);
}
static int call_ta_fill(const void *p, void *const *a)
{
    return ta_fill(p, a[0]);
}
static int call_ta_floor_div_f32(const void *p, void *const *a)
{
    return ta_floor_div_f32(p, a[0], a[1], a[2]);
}
static int call_ta_floor_f32(const void *p, void *const *a)
{
    return ta_floor_f32(p, a[0], a[1]);
}
static int call_ta_floor_mod_f32(const void *p, void *const *a)
{
    return ta_floor_mod_f32(p, a[0], a[1], a[2]);
}
static int call_ta_fully_connected_f32(const void *p, void *const *a)
{
    return ta_fully_connected_f32(p, a[0], a[1], a[2], a[3]);
}
static int call_ta_fully_connected_s16(const void *p, void *const *a)
{
    return ta_fully_connected_s16(p, a[0], a[1], a[2], a[3], a[4], a[5]);
}
static int call_ta_fully_connected_s16_acc32(const void *p, void *const *a)
{
    return ta_fully_connected_s16_acc32(p, a[0], a[1], a[2], a[3], a[4], a[5]);
}
static int call_ta_fully_connected_s4(const void *p, void *const *a)
{
    return ta_fully_connected_s4(p, a[0], a[1], a[2], a[3], a[4], a[5]);
}
static int call_ta_fully_connected_s8(const void *p, void *const *a)
{
    return ta_fully_connected_s8(p, a[0], a[1], a[2], a[3], a[4], a[5]);
}
static int call_ta_fully_connected_s8_interleaved(const void *p, void *const *a)
{
    return ta_fully_connected_s8_interleaved(p, a[0], a[1], a[2], a[3], a[4], a[5]);
}
static int call_ta_fully_connected_s8_sparse(const void *p, void *const *a)
{
    return ta_fully_connected_s8_sparse(p, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
}
static int call_ta_fully_connected_s8_words(const void *p, void *const *a)
{
    return ta_fully_connected_s8_words(p, a[0], a[1], a[2], a[3], a[4], a[5]);
}
static int call_ta_gather(const void *p, void *const *a)
{
    return ta_gather(p, a[0], a[1], a[2]);
}
static int call_ta_gather_i32(const void *p, void *const *a)
{
    return ta_gather_i32(p, a[0], a[1], a[2]);
}
static int call_ta_gather_nd_i32(const void *p, void *const *a)
{
    return ta_gather_nd_i32(p, a[0], a[1], a[2]);
}
static int call_ta_hard_swish_f32(const void *p, void *const *a)
{
    return ta_hard_swish_f32(p, a[0], a[1]);
}
static int call_ta_hard_swish_s8(const void *p, void *const *a)
{
    return ta_hard_swish_s8(p, a[0], a[1]);
}
static int call_ta_l2_normalization_f32(const void *p, void *const *a)
{
    return ta_l2_normalization_f32(p, a[0], a[1]);
}
static int call_ta_l2_normalization_s8(const void *p, void *const *a)
{
    return ta_l2_normalization_s8(p, a[0], a[1]);
}
static int call_ta_l2_pool_f32(const void *p, void *const *a)
{
    return ta_l2_pool_f32(p, a[0], a[1]);
}
static int call_ta_leaky_relu_f32(const void *p, void *const *a)
{
    return ta_leaky_relu_f32(p, a[0], a[1]);
}
static int call_ta_leaky_relu_s16(const void *p, void *const *a)
{
    return ta_leaky_relu_s16(p, a[0], a[1]);
}
static int call_ta_leaky_relu_s8(const void *p, void *const *a)
{
    return ta_leaky_relu_s8(p, a[0], a[1]);
}
static int call_ta_log_f32(const void *p, void *const *a)
{
    return ta_log_f32(p, a[0], a[1]);
}
static int call_ta_log_softmax_f32(const void *p, void *const *a)
{
    return ta_log_softmax_f32(p, a[0], a[1]);
}
static int call_ta_log_softmax_s8(const void *p, void *const *a)
{
    return ta_log_softmax_s8(p, a[0], a[1]);
}
static int call_ta_logical_and_b(const void *p, void *const *a)
{
    return ta_logical_and_b(p, a[0], a[1], a[2]);
}
static int call_ta_logical_not_b(const void *p, void *const *a)
{
    return ta_logical_not_b(p, a[0], a[1]);
}
static int call_ta_logical_or_b(const void *p, void *const *a)
{
    return ta_logical_or_b(p, a[0], a[1], a[2]);
}
static int call_ta_logistic_f32(const void *p, void *const *a)
{
    return ta_logistic_f32(p, a[0], a[1]);
}
static int call_ta_logistic_s16(const void *p, void *const *a)
{
    return ta_logistic_s16(p, a[0], a[1]);
}
static int call_ta_logistic_s8(const void *p, void *const *a)
{
    return ta_logistic_s8(p, a[0], a[1], a[2]);
}
static int call_ta_lstm_f32(const void *p, void *const *a)
{
    return ta_lstm_f32(p, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
}
static int call_ta_lstm_s8(const void *p, void *const *a)
{
    return ta_lstm_s8(p, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8]);
}
static int call_ta_lut_s8(const void *p, void *const *a)
{
    return ta_lut_s8(p, a[0], a[1], a[2]);
}
static int call_ta_max_pool_f32(const void *p, void *const *a)
{
    return ta_max_pool_f32(p, a[0], a[1]);
}
static int call_ta_max_pool_s16(const void *p, void *const *a)
{
    return ta_max_pool_s16(p, a[0], a[1]);
}
static int call_ta_max_pool_s8(const void *p, void *const *a)
{
    return ta_max_pool_s8(p, a[0], a[1]);
}
static int call_ta_maximum_f32(const void *p, void *const *a)
{
    return ta_maximum_f32(p, a[0], a[1], a[2]);
}
static int call_ta_maximum_i32(const void *p, void *const *a)
{
    return ta_maximum_i32(p, a[0], a[1], a[2]);
}
static int call_ta_maximum_s16(const void *p, void *const *a)
{
    return ta_maximum_s16(p, a[0], a[1], a[2]);
}
static int call_ta_maximum_s8(const void *p, void *const *a)
{
    return ta_maximum_s8(p, a[0], a[1], a[2]);
}
static int call_ta_minimum_f32(const void *p, void *const *a)
{
    return ta_minimum_f32(p, a[0], a[1], a[2]);
}
static int call_ta_minimum_i32(const void *p, void *const *a)
{
    return ta_minimum_i32(p, a[0], a[1], a[2]);
}
static int call_ta_minimum_s16(const void *p, void *const *a)
{
    return ta_minimum_s16(p, a[0], a[1], a[2]);
}
static int call_ta_minimum_s8(const void *p, void *const *a)
{
    return ta_minimum_s8(p, a[0], a[1], a[2]);
}
static int call_ta_mul_f32(const void *p, void *const *a)
{
    return ta_mul_f32(p, a[0], a[1], a[2]);
}
static int call_ta_mul_i32(const void *p, void *const *a)
{
    return ta_mul_i32(p, a[0], a[1], a[2]);
}
static int call_ta_mul_s16(const void *p, void *const *a)
{
    return ta_mul_s16(p, a[0], a[1], a[2]);
}
static int call_ta_mul_s8(const void *p, void *const *a)
{
    return ta_mul_s8(p, a[0], a[1], a[2]);
}
static int call_ta_neg_f32(const void *p, void *const *a)
{
    return ta_neg_f32(p, a[0], a[1]);
}
static int call_ta_pad_rows_s8(const void *p, void *const *a)
{
    return ta_pad_rows_s8(p, a[0], a[1]);
}
static int call_ta_prelu_f32(const void *p, void *const *a)
{
    return ta_prelu_f32(p, a[0], a[1], a[2]);
}
static int call_ta_prelu_s16(const void *p, void *const *a)
{
    return ta_prelu_s16(p, a[0], a[1], a[2]);
}
static int call_ta_prelu_s8(const void *p, void *const *a)
{
    return ta_prelu_s8(p, a[0], a[1], a[2]);
}
static int call_ta_quantize_f32_s16(const void *p, void *const *a)
{
    return ta_quantize_f32_s16(p, a[0], a[1]);
}
static int call_ta_quantize_f32_s8(const void *p, void *const *a)
{
    return ta_quantize_f32_s8(p, a[0], a[1]);
}
static int call_ta_reduce_all_b(const void *p, void *const *a)
{
    return ta_reduce_all_b(p, a[0], a[1]);
}
static int call_ta_reduce_max_f32(const void *p, void *const *a)
{
    return ta_reduce_max_f32(p, a[0], a[1]);
}
static int call_ta_reduce_max_s8(const void *p, void *const *a)
{
    return ta_reduce_max_s8(p, a[0], a[1]);
}
static int call_ta_reduce_mean_f32(const void *p, void *const *a)
{
    return ta_reduce_mean_f32(p, a[0], a[1]);
}
static int call_ta_reduce_min_f32(const void *p, void *const *a)
{
    return ta_reduce_min_f32(p, a[0], a[1]);
}
static int call_ta_reduce_min_s8(const void *p, void *const *a)
{
    return ta_reduce_min_s8(p, a[0], a[1]);
}
static int call_ta_reduce_sum_f32(const void *p, void *const *a)
{
    return ta_reduce_sum_f32(p, a[0], a[1]);
}
static int call_ta_reduce_sum_s16(const void *p, void *const *a)
{
    return ta_reduce_sum_s16(p, a[0], a[1]);
}
static int call_ta_reduce_sum_s8(const void *p, void *const *a)
{
    return ta_reduce_sum_s8(p, a[0], a[1]);
}
static int call_ta_relu6_f32(const void *p, void *const *a)
{
    return ta_relu6_f32(p, a[0], a[1]);
}
static int call_ta_relu6_s16(const void *p, void *const *a)
{
    return ta_relu6_s16(p, a[0], a[1]);
}
static int call_ta_relu6_s8(const void *p, void *const *a)
{
    return ta_relu6_s8(p, a[0], a[1]);
}
static int call_ta_relu_f32(const void *p, void *const *a)
{
    return ta_relu_f32(p, a[0], a[1]);
}
static int call_ta_relu_s16(const void *p, void *const *a)
{
    return ta_relu_s16(p, a[0], a[1]);
}
static int call_ta_relu_s8(const void *p, void *const *a)
{
    return ta_relu_s8(p, a[0], a[1]);
}
static int call_ta_requantize_s16_s16(const void *p, void *const *a)
{
    return ta_requantize_s16_s16(p, a[0], a[1]);
}
static int call_ta_requantize_s16_s32(const void *p, void *const *a)
{
    return ta_requantize_s16_s32(p, a[0], a[1]);
}
static int call_ta_requantize_s16_s8(const void *p, void *const *a)
{
    return ta_requantize_s16_s8(p, a[0], a[1]);
}
static int call_ta_requantize_s32_s16(const void *p, void *const *a)
{
    return ta_requantize_s32_s16(p, a[0], a[1]);
}
static int call_ta_requantize_s32_s8(const void *p, void *const *a)
{
    return ta_requantize_s32_s8(p, a[0], a[1]);
}
static int call_ta_requantize_s8_s16(const void *p, void *const *a)
{
    return ta_requantize_s8_s16(p, a[0], a[1]);
}
static int call_ta_requantize_s8_s32(const void *p, void *const *a)
{
    return ta_requantize_s8_s32(p, a[0], a[1]);
}
static int call_ta_requantize_s8_s8(const void *p, void *const *a)
{
    return ta_requantize_s8_s8(p, a[0], a[1]);
}
static int call_ta_requantize_s8_u8(const void *p, void *const *a)
{
    return ta_requantize_s8_u8(p, a[0], a[1]);
}
static int call_ta_requantize_u8_s8(const void *p, void *const *a)
{
    return ta_requantize_u8_s8(p, a[0], a[1]);
}
static int call_ta_resize_bilinear_f32(const void *p, void *const *a)
{
    return ta_resize_bilinear_f32(p, a[0], a[1]);
}
static int call_ta_resize_bilinear_s8(const void *p, void *const *a)
{
    return ta_resize_bilinear_s8(p, a[0], a[1], a[2], a[3]);
}
static int call_ta_resize_nearest(const void *p, void *const *a)
{
    return ta_resize_nearest(p, a[0], a[1], a[2], a[3]);
}
static int call_ta_round_f32(const void *p, void *const *a)
{
    return ta_round_f32(p, a[0], a[1]);
}
static int call_ta_rsqrt_f32(const void *p, void *const *a)
{
    return ta_rsqrt_f32(p, a[0], a[1]);
}
static int call_ta_rsqrt_s16(const void *p, void *const *a)
{
    return ta_rsqrt_s16(p, a[0], a[1]);
}
static int call_ta_select(const void *p, void *const *a)
{
    return ta_select(p, a[0], a[1], a[2], a[3]);
}
static int call_ta_sign_f32(const void *p, void *const *a)
{
    return ta_sign_f32(p, a[0], a[1]);
}
static int call_ta_sign_i32(const void *p, void *const *a)
{
    return ta_sign_i32(p, a[0], a[1]);
}
static int call_ta_signal_delay_i16(const void *p, void *const *a)
{
    return ta_signal_delay_i16(p, a[0], a[1], a[2]);
}
static int call_ta_signal_energy_i16(const void *p, void *const *a)
{
    return ta_signal_energy_i16(p, a[0], a[1]);
}
static int call_ta_signal_fft_auto_scale_i16(const void *p, void *const *a)
{
    return ta_signal_fft_auto_scale_i16(p, a[0], a[1], a[2]);
}
static int call_ta_signal_filter_bank_log_u32(const void *p, void *const *a)
{
    return ta_signal_filter_bank_log_u32(p, a[0], a[1]);
}
static int call_ta_signal_filter_bank_sqrt_u64(const void *p, void *const *a)
{
    return ta_signal_filter_bank_sqrt_u64(p, a[0], a[1], a[2]);
}
static int call_ta_signal_filter_bank_u32(const void *p, void *const *a)
{
    return ta_signal_filter_bank_u32(p, a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
}
static int call_ta_signal_framer_i16(const void *p, void *const *a)
{
    return ta_signal_framer_i16(p, a[0], a[1], a[2], a[3], a[4]);
}
static int call_ta_signal_irfft_f32(const void *p, void *const *a)
{
    return ta_signal_irfft_f32(p, a[0], a[1], a[2], a[3], a[4]);
}
static int call_ta_signal_irfft_i16(const void *p, void *const *a)
{
    return ta_signal_irfft_i16(p, a[0], a[1], a[2], a[3], a[4]);
}
static int call_ta_signal_irfft_i32(const void *p, void *const *a)
{
    return ta_signal_irfft_i32(p, a[0], a[1], a[2], a[3], a[4]);
}
static int call_ta_signal_overlap_add_f32(const void *p, void *const *a)
{
    return ta_signal_overlap_add_f32(p, a[0], a[1], a[2]);
}
static int call_ta_signal_overlap_add_i16(const void *p, void *const *a)
{
    return ta_signal_overlap_add_i16(p, a[0], a[1], a[2]);
}
static int call_ta_signal_pcan_u32(const void *p, void *const *a)
{
    return ta_signal_pcan_u32(p, a[0], a[1], a[2], a[3]);
}
static int call_ta_signal_rfft_f32(const void *p, void *const *a)
{
    return ta_signal_rfft_f32(p, a[0], a[1], a[2], a[3], a[4]);
}
static int call_ta_signal_rfft_i16(const void *p, void *const *a)
{
    return ta_signal_rfft_i16(p, a[0], a[1], a[2], a[3], a[4]);
}
static int call_ta_signal_rfft_i32(const void *p, void *const *a)
{
    return ta_signal_rfft_i32(p, a[0], a[1], a[2], a[3], a[4]);
}
static int call_ta_signal_spectral_subtraction_u32(const void *p, void *const *a)
{
    return ta_signal_spectral_subtraction_u32(p, a[0], a[1], a[2], a[3]);
}
static int call_ta_signal_stacker_i16(const void *p, void *const *a)
{
    return ta_signal_stacker_i16(p, a[0], a[1], a[2], a[3], a[4]);
}
static int call_ta_signal_window_i16(const void *p, void *const *a)
{
    return ta_signal_window_i16(p, a[0], a[1], a[2]);
}
static int call_ta_sin_f32(const void *p, void *const *a)
{
    return ta_sin_f32(p, a[0], a[1]);
}
static int call_ta_softmax_f32(const void *p, void *const *a)
{
    return ta_softmax_f32(p, a[0], a[1]);
}
static int call_ta_softmax_s16(const void *p, void *const *a)
{
    return ta_softmax_s16(p, a[0], a[1], a[2], a[3]);
}
static int call_ta_softmax_s8(const void *p, void *const *a)
{
    return ta_softmax_s8(p, a[0], a[1], a[2]);
}
static int call_ta_softmax_s8_s16(const void *p, void *const *a)
{
    return ta_softmax_s8_s16(p, a[0], a[1], a[2]);
}
static int call_ta_sqrt_f32(const void *p, void *const *a)
{
    return ta_sqrt_f32(p, a[0], a[1]);
}
static int call_ta_square_f32(const void *p, void *const *a)
{
    return ta_square_f32(p, a[0], a[1]);
}
static int call_ta_squared_difference_f32(const void *p, void *const *a)
{
    return ta_squared_difference_f32(p, a[0], a[1], a[2]);
}
static int call_ta_squared_difference_s16(const void *p, void *const *a)
{
    return ta_squared_difference_s16(p, a[0], a[1], a[2]);
}
static int call_ta_squared_difference_s8(const void *p, void *const *a)
{
    return ta_squared_difference_s8(p, a[0], a[1], a[2]);
}
static int call_ta_sub_f32(const void *p, void *const *a)
{
    return ta_sub_f32(p, a[0], a[1], a[2]);
}
static int call_ta_sub_s16(const void *p, void *const *a)
{
    return ta_sub_s16(p, a[0], a[1], a[2]);
}
static int call_ta_sub_s8(const void *p, void *const *a)
{
    return ta_sub_s8(p, a[0], a[1], a[2]);
}
static int call_ta_svdf_f32(const void *p, void *const *a)
{
    return ta_svdf_f32(p, a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
}
static int call_ta_svdf_s16(const void *p, void *const *a)
{
    return ta_svdf_s16(p, a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
}
static int call_ta_svdf_s8(const void *p, void *const *a)
{
    return ta_svdf_s8(p, a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
}
static int call_ta_tanh_f32(const void *p, void *const *a)
{
    return ta_tanh_f32(p, a[0], a[1]);
}
static int call_ta_tanh_s16(const void *p, void *const *a)
{
    return ta_tanh_s16(p, a[0], a[1]);
}
static int call_ta_tanh_s8(const void *p, void *const *a)
{
    return ta_tanh_s8(p, a[0], a[1], a[2]);
}
static int call_ta_transpose_conv_f32(const void *p, void *const *a)
{
    return ta_transpose_conv_f32(p, a[0], a[1], a[2], a[3]);
}
static int call_ta_transpose_conv_s16(const void *p, void *const *a)
{
    return ta_transpose_conv_s16(p, a[0], a[1], a[2], a[3], a[4], a[5]);
}
static int call_ta_transpose_conv_s8(const void *p, void *const *a)
{
    return ta_transpose_conv_s8(p, a[0], a[1], a[2], a[3], a[4], a[5]);
}
static int call_ta_variable_fill(const void *p, void *const *a)
{
    return ta_variable_fill(p, a[0]);
}
static int call_ta_weight_huffman_s8(const void *p, void *const *a)
{
    return ta_weight_huffman_s8(p, a[0], a[1]);
}
static int call_ta_weight_table_s8(const void *p, void *const *a)
{
    return ta_weight_table_s8(p, a[0], a[1]);
}

/* Sorted by name, in strcmp order, for the binary search below. */
static const TaKernelEntry entries[] = {
    {"ta_abs_f32", 2, "r:float w:float", call_ta_abs_f32},
    {"ta_abs_i16", 2, "r:int16_t w:int16_t", call_ta_abs_i16},
    {"ta_abs_s16", 2, "r:int16_t w:int16_t", call_ta_abs_s16},
    {"ta_abs_s8", 2, "r:int8_t w:int8_t", call_ta_abs_s8},
    {"ta_add_f32", 3, "r:float r:float w:float", call_ta_add_f32},
    {"ta_add_i32", 3, "r:int32_t r:int32_t w:int32_t", call_ta_add_i32},
    {"ta_add_n_f32_accumulate", 2, "r:float w:float", call_ta_add_n_f32_accumulate},
    {"ta_add_n_f32_first", 2, "r:float w:float", call_ta_add_n_f32_first},
    {"ta_add_n_s8_accumulate", 2, "r:int8_t w:void", call_ta_add_n_s8_accumulate},
    {"ta_add_n_s8_finish", 3, "r:int8_t w:void w:int8_t", call_ta_add_n_s8_finish},
    {"ta_add_n_s8_first", 2, "r:int8_t w:void", call_ta_add_n_s8_first},
    {"ta_add_s16", 3, "r:int16_t r:int16_t w:int16_t", call_ta_add_s16},
    {"ta_add_s8", 3, "r:int8_t r:int8_t w:int8_t", call_ta_add_s8},
    {"ta_arg_max_f32_i32", 2, "r:float w:int32_t", call_ta_arg_max_f32_i32},
    {"ta_arg_max_s8_i32", 2, "r:int8_t w:int32_t", call_ta_arg_max_s8_i32},
    {"ta_arg_max_s8_i64", 2, "r:int8_t w:int64_t", call_ta_arg_max_s8_i64},
    {"ta_arg_min_f32_i32", 2, "r:float w:int32_t", call_ta_arg_min_f32_i32},
    {"ta_arg_min_s8_i32", 2, "r:int8_t w:int32_t", call_ta_arg_min_s8_i32},
    {"ta_arg_min_s8_i64", 2, "r:int8_t w:int64_t", call_ta_arg_min_s8_i64},
    {"ta_average_pool_f32", 2, "r:float w:float", call_ta_average_pool_f32},
    {"ta_average_pool_finish_s8", 2, "r:int32_t w:int8_t", call_ta_average_pool_finish_s8},
    {"ta_average_pool_rows_s8", 2, "r:int8_t w:int32_t", call_ta_average_pool_rows_s8},
    {"ta_average_pool_s16", 2, "r:int16_t w:int16_t", call_ta_average_pool_s16},
    {"ta_average_pool_s8", 2, "r:int8_t w:int8_t", call_ta_average_pool_s8},
    {"ta_batch_matmul_f32", 3, "r:float r:float w:float", call_ta_batch_matmul_f32},
    {"ta_batch_matmul_s16", 3, "r:int16_t r:int16_t w:int16_t", call_ta_batch_matmul_s16},
    {"ta_batch_matmul_s8", 5, "r:int8_t r:int8_t r:int32_t w:void w:int8_t", call_ta_batch_matmul_s8},
    {"ta_broadcast_args_i32", 3, "r:int32_t r:int32_t w:int32_t", call_ta_broadcast_args_i32},
    {"ta_broadcast_args_i64", 3, "r:int64_t r:int64_t w:int64_t", call_ta_broadcast_args_i64},
    {"ta_cast_b_f32", 2, "r:bool w:float", call_ta_cast_b_f32},
    {"ta_cast_b_i16", 2, "r:bool w:int16_t", call_ta_cast_b_i16},
    {"ta_cast_b_i32", 2, "r:bool w:int32_t", call_ta_cast_b_i32},
    {"ta_cast_b_i8", 2, "r:bool w:int8_t", call_ta_cast_b_i8},
    {"ta_cast_f32_i16", 2, "r:float w:int16_t", call_ta_cast_f32_i16},
    {"ta_cast_f32_i32", 2, "r:float w:int32_t", call_ta_cast_f32_i32},
    {"ta_cast_f32_i8", 2, "r:float w:int8_t", call_ta_cast_f32_i8},
    {"ta_cast_i16_f32", 2, "r:int16_t w:float", call_ta_cast_i16_f32},
    {"ta_cast_i16_i32", 2, "r:int16_t w:int32_t", call_ta_cast_i16_i32},
    {"ta_cast_i16_i8", 2, "r:int16_t w:int8_t", call_ta_cast_i16_i8},
    {"ta_cast_i32_f32", 2, "r:int32_t w:float", call_ta_cast_i32_f32},
    {"ta_cast_i32_i16", 2, "r:int32_t w:int16_t", call_ta_cast_i32_i16},
    {"ta_cast_i32_i8", 2, "r:int32_t w:int8_t", call_ta_cast_i32_i8},
    {"ta_cast_i8_f32", 2, "r:int8_t w:float", call_ta_cast_i8_f32},
    {"ta_cast_i8_i16", 2, "r:int8_t w:int16_t", call_ta_cast_i8_i16},
    {"ta_cast_i8_i32", 2, "r:int8_t w:int32_t", call_ta_cast_i8_i32},
    {"ta_ceil_f32", 2, "r:float w:float", call_ta_ceil_f32},
    {"ta_channel_params", 5, "r:int8_t r:int32_t r:int8_t w:int32_t w:int32_t", call_ta_channel_params},
    {"ta_circular_buffer_s8", 3, "r:int8_t w:int8_t w:int8_t", call_ta_circular_buffer_s8},
    {"ta_comparison_f32", 3, "r:float r:float w:bool", call_ta_comparison_f32},
    {"ta_comparison_s8", 3, "r:int8_t r:int8_t w:bool", call_ta_comparison_s8},
    {"ta_conv_2d_add_s8", 8, "r:int8_t r:int8_t r:int32_t r:int32_t r:int32_t r:int8_t w:int8_t w:int8_t", call_ta_conv_2d_add_s8},
    {"ta_conv_2d_add_s8_columns", 8, "r:int8_t r:int8_t r:int32_t r:int32_t r:int32_t r:int8_t w:int8_t w:int8_t", call_ta_conv_2d_add_s8_columns},
    {"ta_conv_2d_add_s8_interleaved", 8, "r:int8_t r:int8_t r:int32_t r:int32_t r:int32_t r:int8_t w:int8_t w:int8_t", call_ta_conv_2d_add_s8_interleaved},
    {"ta_conv_2d_add_s8_long", 8, "r:int8_t r:int8_t r:int32_t r:int32_t r:int32_t r:int8_t w:int8_t w:int8_t", call_ta_conv_2d_add_s8_long},
    {"ta_conv_2d_f32", 4, "r:float r:float r:float w:float", call_ta_conv_2d_f32},
    {"ta_conv_2d_s16", 6, "r:int16_t r:int8_t r:int64_t r:int32_t r:int32_t w:int16_t", call_ta_conv_2d_s16},
    {"ta_conv_2d_s4", 6, "r:int8_t r:int8_t r:int32_t r:int32_t r:int32_t w:int8_t", call_ta_conv_2d_s4},
    {"ta_conv_2d_s8", 6, "r:int8_t r:int8_t r:int32_t r:int32_t r:int32_t w:int8_t", call_ta_conv_2d_s8},
    {"ta_conv_2d_s8_columns", 6, "r:int8_t r:int8_t r:int32_t r:int32_t r:int32_t w:int8_t", call_ta_conv_2d_s8_columns},
    {"ta_conv_2d_s8_interleaved", 6, "r:int8_t r:int8_t r:int32_t r:int32_t r:int32_t w:int8_t", call_ta_conv_2d_s8_interleaved},
    {"ta_conv_2d_s8_long", 6, "r:int8_t r:int8_t r:int32_t r:int32_t r:int32_t w:int8_t", call_ta_conv_2d_s8_long},
    {"ta_conv_2d_s8_one_row", 6, "r:int8_t r:int8_t r:int32_t r:int32_t r:int32_t w:int8_t", call_ta_conv_2d_s8_one_row},
    {"ta_conv_2d_s8_pointwise_off4", 6, "r:int8_t r:int8_t r:int32_t r:int32_t r:int32_t w:int8_t", call_ta_conv_2d_s8_pointwise_off4},
    {"ta_conv_2d_s8_pointwise_triples", 6, "r:int8_t r:int8_t r:int32_t r:int32_t r:int32_t w:int8_t", call_ta_conv_2d_s8_pointwise_triples},
    {"ta_copy", 2, "r:void w:void", call_ta_copy},
    {"ta_copy_nd", 2, "r:void w:void", call_ta_copy_nd},
    {"ta_cos_f32", 2, "r:float w:float", call_ta_cos_f32},
    {"ta_cumsum_f32", 2, "r:float w:float", call_ta_cumsum_f32},
    {"ta_cumsum_s8", 2, "r:int8_t w:int8_t", call_ta_cumsum_s8},
    {"ta_depthwise_conv_2d_f32", 4, "r:float r:float r:float w:float", call_ta_depthwise_conv_2d_f32},
    {"ta_depthwise_conv_2d_s16", 6, "r:int16_t r:int8_t r:int64_t r:int32_t r:int32_t w:int16_t", call_ta_depthwise_conv_2d_s16},
    {"ta_depthwise_conv_2d_s4", 7, "r:int8_t r:int8_t r:int32_t r:int32_t r:int32_t r:int32_t w:int8_t", call_ta_depthwise_conv_2d_s4},
    {"ta_depthwise_conv_2d_s8", 7, "r:int8_t r:int8_t r:int32_t r:int32_t r:int32_t r:int32_t w:int8_t", call_ta_depthwise_conv_2d_s8},
    {"ta_depthwise_conv_2d_s8_m1_fast", 7, "r:int8_t r:int8_t r:int32_t r:int32_t r:int32_t r:int32_t w:int8_t", call_ta_depthwise_conv_2d_s8_m1_fast},
    {"ta_dequantize_s16_f32", 2, "r:int16_t w:float", call_ta_dequantize_s16_f32},
    {"ta_dequantize_s8_f32", 2, "r:int8_t w:float", call_ta_dequantize_s8_f32},
    {"ta_detection_postprocess_f32", 8, "r:float r:float r:float w:void w:float w:float w:float w:float", call_ta_detection_postprocess_f32},
    {"ta_div_f32", 3, "r:float r:float w:float", call_ta_div_f32},
    {"ta_div_i32", 3, "r:int32_t r:int32_t w:int32_t", call_ta_div_i32},
    {"ta_dynamic_update_slice_i32", 4, "r:void r:void r:int32_t w:void", call_ta_dynamic_update_slice_i32},
    {"ta_dynamic_update_slice_i64", 4, "r:void r:void r:int64_t w:void", call_ta_dynamic_update_slice_i64},
    {"ta_elu_f32", 2, "r:float w:float", call_ta_elu_f32},
    {"ta_embedding_lookup_s8_f32", 3, "r:int32_t r:int8_t w:float", call_ta_embedding_lookup_s8_f32},
    {"ta_exp_f32", 2, "r:float w:float", call_ta_exp_f32},
    {"ta_fill", 1, "w:void", call_ta_fill},
    {"ta_floor_div_f32", 3, "r:float r:float w:float", call_ta_floor_div_f32},
    {"ta_floor_f32", 2, "r:float w:float", call_ta_floor_f32},
    {"ta_floor_mod_f32", 3, "r:float r:float w:float", call_ta_floor_mod_f32},
    {"ta_fully_connected_f32", 4, "r:float r:float r:float w:float", call_ta_fully_connected_f32},
    {"ta_fully_connected_s16", 6, "r:int16_t r:int8_t r:int64_t r:int32_t r:int32_t w:int16_t", call_ta_fully_connected_s16},
    {"ta_fully_connected_s16_acc32", 6, "r:int16_t r:int8_t r:int32_t r:int32_t r:int32_t w:int16_t", call_ta_fully_connected_s16_acc32},
    {"ta_fully_connected_s4", 6, "r:int8_t r:int8_t r:int32_t r:int32_t r:int32_t w:int8_t", call_ta_fully_connected_s4},
    {"ta_fully_connected_s8", 6, "r:int8_t r:int8_t r:int32_t r:int32_t r:int32_t w:int8_t", call_ta_fully_connected_s8},
    {"ta_fully_connected_s8_interleaved", 6, "r:int8_t r:int8_t r:int32_t r:int32_t r:int32_t w:int8_t", call_ta_fully_connected_s8_interleaved},
    {"ta_fully_connected_s8_sparse", 8, "r:int8_t r:int32_t r:uint16_t r:int8_t r:int32_t r:int32_t r:int32_t w:int8_t", call_ta_fully_connected_s8_sparse},
    {"ta_fully_connected_s8_words", 6, "r:int8_t r:int8_t r:int32_t r:int32_t r:int32_t w:int8_t", call_ta_fully_connected_s8_words},
    {"ta_gather", 3, "r:void r:int32_t w:void", call_ta_gather},
    {"ta_gather_i32", 3, "r:void r:int32_t w:void", call_ta_gather_i32},
    {"ta_gather_nd_i32", 3, "r:void r:int32_t w:void", call_ta_gather_nd_i32},
    {"ta_hard_swish_f32", 2, "r:float w:float", call_ta_hard_swish_f32},
    {"ta_hard_swish_s8", 2, "r:int8_t w:int8_t", call_ta_hard_swish_s8},
    {"ta_l2_normalization_f32", 2, "r:float w:float", call_ta_l2_normalization_f32},
    {"ta_l2_normalization_s8", 2, "r:int8_t w:int8_t", call_ta_l2_normalization_s8},
    {"ta_l2_pool_f32", 2, "r:float w:float", call_ta_l2_pool_f32},
    {"ta_leaky_relu_f32", 2, "r:float w:float", call_ta_leaky_relu_f32},
    {"ta_leaky_relu_s16", 2, "r:int16_t w:int16_t", call_ta_leaky_relu_s16},
    {"ta_leaky_relu_s8", 2, "r:int8_t w:int8_t", call_ta_leaky_relu_s8},
    {"ta_log_f32", 2, "r:float w:float", call_ta_log_f32},
    {"ta_log_softmax_f32", 2, "r:float w:float", call_ta_log_softmax_f32},
    {"ta_log_softmax_s8", 2, "r:int8_t w:int8_t", call_ta_log_softmax_s8},
    {"ta_logical_and_b", 3, "r:bool r:bool w:bool", call_ta_logical_and_b},
    {"ta_logical_not_b", 2, "r:bool w:bool", call_ta_logical_not_b},
    {"ta_logical_or_b", 3, "r:bool r:bool w:bool", call_ta_logical_or_b},
    {"ta_logistic_f32", 2, "r:float w:float", call_ta_logistic_f32},
    {"ta_logistic_s16", 2, "r:int16_t w:int16_t", call_ta_logistic_s16},
    {"ta_logistic_s8", 3, "r:int8_t r:int8_t w:int8_t", call_ta_logistic_s8},
    {"ta_lstm_f32", 8, "r:float r:float r:float r:float w:float w:float w:float w:float", call_ta_lstm_f32},
    {"ta_lstm_s8", 9, "r:int8_t r:int8_t r:int8_t r:int32_t r:int32_t w:int8_t w:int16_t w:int16_t w:int8_t", call_ta_lstm_s8},
    {"ta_lut_s8", 3, "r:int8_t r:int8_t w:int8_t", call_ta_lut_s8},
    {"ta_max_pool_f32", 2, "r:float w:float", call_ta_max_pool_f32},
    {"ta_max_pool_s16", 2, "r:int16_t w:int16_t", call_ta_max_pool_s16},
    {"ta_max_pool_s8", 2, "r:int8_t w:int8_t", call_ta_max_pool_s8},
    {"ta_maximum_f32", 3, "r:float r:float w:float", call_ta_maximum_f32},
    {"ta_maximum_i32", 3, "r:int32_t r:int32_t w:int32_t", call_ta_maximum_i32},
    {"ta_maximum_s16", 3, "r:int16_t r:int16_t w:int16_t", call_ta_maximum_s16},
    {"ta_maximum_s8", 3, "r:int8_t r:int8_t w:int8_t", call_ta_maximum_s8},
    {"ta_minimum_f32", 3, "r:float r:float w:float", call_ta_minimum_f32},
    {"ta_minimum_i32", 3, "r:int32_t r:int32_t w:int32_t", call_ta_minimum_i32},
    {"ta_minimum_s16", 3, "r:int16_t r:int16_t w:int16_t", call_ta_minimum_s16},
    {"ta_minimum_s8", 3, "r:int8_t r:int8_t w:int8_t", call_ta_minimum_s8},
    {"ta_mul_f32", 3, "r:float r:float w:float", call_ta_mul_f32},
    {"ta_mul_i32", 3, "r:int32_t r:int32_t w:int32_t", call_ta_mul_i32},
    {"ta_mul_s16", 3, "r:int16_t r:int16_t w:int16_t", call_ta_mul_s16},
    {"ta_mul_s8", 3, "r:int8_t r:int8_t w:int8_t", call_ta_mul_s8},
    {"ta_neg_f32", 2, "r:float w:float", call_ta_neg_f32},
    {"ta_pad_rows_s8", 2, "r:int8_t w:int8_t", call_ta_pad_rows_s8},
    {"ta_prelu_f32", 3, "r:float r:float w:float", call_ta_prelu_f32},
    {"ta_prelu_s16", 3, "r:int16_t r:int8_t w:int16_t", call_ta_prelu_s16},
    {"ta_prelu_s8", 3, "r:int8_t r:int8_t w:int8_t", call_ta_prelu_s8},
    {"ta_quantize_f32_s16", 2, "r:float w:int16_t", call_ta_quantize_f32_s16},
    {"ta_quantize_f32_s8", 2, "r:float w:int8_t", call_ta_quantize_f32_s8},
    {"ta_reduce_all_b", 2, "r:bool w:bool", call_ta_reduce_all_b},
    {"ta_reduce_max_f32", 2, "r:float w:float", call_ta_reduce_max_f32},
    {"ta_reduce_max_s8", 2, "r:int8_t w:int8_t", call_ta_reduce_max_s8},
    {"ta_reduce_mean_f32", 2, "r:float w:float", call_ta_reduce_mean_f32},
    {"ta_reduce_min_f32", 2, "r:float w:float", call_ta_reduce_min_f32},
    {"ta_reduce_min_s8", 2, "r:int8_t w:int8_t", call_ta_reduce_min_s8},
    {"ta_reduce_sum_f32", 2, "r:float w:float", call_ta_reduce_sum_f32},
    {"ta_reduce_sum_s16", 2, "r:int16_t w:int16_t", call_ta_reduce_sum_s16},
    {"ta_reduce_sum_s8", 2, "r:int8_t w:int8_t", call_ta_reduce_sum_s8},
    {"ta_relu6_f32", 2, "r:float w:float", call_ta_relu6_f32},
    {"ta_relu6_s16", 2, "r:int16_t w:int16_t", call_ta_relu6_s16},
    {"ta_relu6_s8", 2, "r:int8_t w:int8_t", call_ta_relu6_s8},
    {"ta_relu_f32", 2, "r:float w:float", call_ta_relu_f32},
    {"ta_relu_s16", 2, "r:int16_t w:int16_t", call_ta_relu_s16},
    {"ta_relu_s8", 2, "r:int8_t w:int8_t", call_ta_relu_s8},
    {"ta_requantize_s16_s16", 2, "r:int16_t w:int16_t", call_ta_requantize_s16_s16},
    {"ta_requantize_s16_s32", 2, "r:int16_t w:int32_t", call_ta_requantize_s16_s32},
    {"ta_requantize_s16_s8", 2, "r:int16_t w:int8_t", call_ta_requantize_s16_s8},
    {"ta_requantize_s32_s16", 2, "r:int32_t w:int16_t", call_ta_requantize_s32_s16},
    {"ta_requantize_s32_s8", 2, "r:int32_t w:int8_t", call_ta_requantize_s32_s8},
    {"ta_requantize_s8_s16", 2, "r:int8_t w:int16_t", call_ta_requantize_s8_s16},
    {"ta_requantize_s8_s32", 2, "r:int8_t w:int32_t", call_ta_requantize_s8_s32},
    {"ta_requantize_s8_s8", 2, "r:int8_t w:int8_t", call_ta_requantize_s8_s8},
    {"ta_requantize_s8_u8", 2, "r:int8_t w:uint8_t", call_ta_requantize_s8_u8},
    {"ta_requantize_u8_s8", 2, "r:uint8_t w:int8_t", call_ta_requantize_u8_s8},
    {"ta_resize_bilinear_f32", 2, "r:float w:float", call_ta_resize_bilinear_f32},
    {"ta_resize_bilinear_s8", 4, "r:int8_t r:int32_t r:int32_t w:int8_t", call_ta_resize_bilinear_s8},
    {"ta_resize_nearest", 4, "r:void r:int32_t r:int32_t w:void", call_ta_resize_nearest},
    {"ta_round_f32", 2, "r:float w:float", call_ta_round_f32},
    {"ta_rsqrt_f32", 2, "r:float w:float", call_ta_rsqrt_f32},
    {"ta_rsqrt_s16", 2, "r:int16_t w:int16_t", call_ta_rsqrt_s16},
    {"ta_select", 4, "r:bool r:void r:void w:void", call_ta_select},
    {"ta_sign_f32", 2, "r:float w:float", call_ta_sign_f32},
    {"ta_sign_i32", 2, "r:int32_t w:int32_t", call_ta_sign_i32},
    {"ta_signal_delay_i16", 3, "r:int16_t w:int16_t w:int16_t", call_ta_signal_delay_i16},
    {"ta_signal_energy_i16", 2, "r:int16_t w:uint32_t", call_ta_signal_energy_i16},
    {"ta_signal_fft_auto_scale_i16", 3, "r:int16_t w:int16_t w:int32_t", call_ta_signal_fft_auto_scale_i16},
    {"ta_signal_filter_bank_log_u32", 2, "r:uint32_t w:int16_t", call_ta_signal_filter_bank_log_u32},
    {"ta_signal_filter_bank_sqrt_u64", 3, "r:uint64_t r:int32_t w:uint32_t", call_ta_signal_filter_bank_sqrt_u64},
    {"ta_signal_filter_bank_u32", 7, "r:uint32_t r:int16_t r:int16_t r:int16_t r:int16_t r:int16_t w:uint64_t", call_ta_signal_filter_bank_u32},
    {"ta_signal_framer_i16", 5, "r:int16_t w:int16_t w:int32_t w:int16_t w:bool", call_ta_signal_framer_i16},
    {"ta_signal_irfft_f32", 5, "r:float r:float r:float w:void w:float", call_ta_signal_irfft_f32},
    {"ta_signal_irfft_i16", 5, "r:int16_t r:int16_t r:int16_t w:void w:int16_t", call_ta_signal_irfft_i16},
    {"ta_signal_irfft_i32", 5, "r:int32_t r:int32_t r:int32_t w:void w:int32_t", call_ta_signal_irfft_i32},
    {"ta_signal_overlap_add_f32", 3, "r:float w:float w:float", call_ta_signal_overlap_add_f32},
    {"ta_signal_overlap_add_i16", 3, "r:int16_t w:int16_t w:int16_t", call_ta_signal_overlap_add_i16},
    {"ta_signal_pcan_u32", 4, "r:uint32_t r:uint32_t r:int16_t w:uint32_t", call_ta_signal_pcan_u32},
    {"ta_signal_rfft_f32", 5, "r:float r:float r:float w:void w:float", call_ta_signal_rfft_f32},
    {"ta_signal_rfft_i16", 5, "r:int16_t r:int16_t r:int16_t w:void w:int16_t", call_ta_signal_rfft_i16},
    {"ta_signal_rfft_i32", 5, "r:int32_t r:int32_t r:int32_t w:void w:int32_t", call_ta_signal_rfft_i32},
    {"ta_signal_spectral_subtraction_u32", 4, "r:uint32_t w:uint32_t w:uint32_t w:uint32_t", call_ta_signal_spectral_subtraction_u32},
    {"ta_signal_stacker_i16", 5, "r:int16_t w:int16_t w:int32_t w:int16_t w:bool", call_ta_signal_stacker_i16},
    {"ta_signal_window_i16", 3, "r:int16_t r:int16_t w:int16_t", call_ta_signal_window_i16},
    {"ta_sin_f32", 2, "r:float w:float", call_ta_sin_f32},
    {"ta_softmax_f32", 2, "r:float w:float", call_ta_softmax_f32},
    {"ta_softmax_s16", 4, "r:int16_t r:int16_t r:int16_t w:int16_t", call_ta_softmax_s16},
    {"ta_softmax_s8", 3, "r:int8_t r:int32_t w:int8_t", call_ta_softmax_s8},
    {"ta_softmax_s8_s16", 3, "r:int8_t r:int32_t w:int16_t", call_ta_softmax_s8_s16},
    {"ta_sqrt_f32", 2, "r:float w:float", call_ta_sqrt_f32},
    {"ta_square_f32", 2, "r:float w:float", call_ta_square_f32},
    {"ta_squared_difference_f32", 3, "r:float r:float w:float", call_ta_squared_difference_f32},
    {"ta_squared_difference_s16", 3, "r:int16_t r:int16_t w:int16_t", call_ta_squared_difference_s16},
    {"ta_squared_difference_s8", 3, "r:int8_t r:int8_t w:int8_t", call_ta_squared_difference_s8},
    {"ta_sub_f32", 3, "r:float r:float w:float", call_ta_sub_f32},
    {"ta_sub_s16", 3, "r:int16_t r:int16_t w:int16_t", call_ta_sub_s16},
    {"ta_sub_s8", 3, "r:int8_t r:int8_t w:int8_t", call_ta_sub_s8},
    {"ta_svdf_f32", 7, "r:float r:float r:float r:float w:float w:void w:float", call_ta_svdf_f32},
    {"ta_svdf_s16", 7, "r:int8_t r:int8_t r:int16_t r:int32_t r:int32_t w:int16_t w:int8_t", call_ta_svdf_s16},
    {"ta_svdf_s8", 7, "r:int8_t r:int8_t r:int8_t r:int32_t r:int32_t w:int8_t w:int8_t", call_ta_svdf_s8},
    {"ta_tanh_f32", 2, "r:float w:float", call_ta_tanh_f32},
    {"ta_tanh_s16", 2, "r:int16_t w:int16_t", call_ta_tanh_s16},
    {"ta_tanh_s8", 3, "r:int8_t r:int8_t w:int8_t", call_ta_tanh_s8},
    {"ta_transpose_conv_f32", 4, "r:float r:float r:float w:float", call_ta_transpose_conv_f32},
    {"ta_transpose_conv_s16", 6, "r:int16_t r:int8_t r:int64_t r:int32_t r:int32_t w:int16_t", call_ta_transpose_conv_s16},
    {"ta_transpose_conv_s8", 6, "r:int8_t r:int8_t r:int32_t r:int32_t r:int32_t w:int8_t", call_ta_transpose_conv_s8},
    {"ta_variable_fill", 1, "w:void", call_ta_variable_fill},
    {"ta_weight_huffman_s8", 2, "r:uint8_t w:int8_t", call_ta_weight_huffman_s8},
    {"ta_weight_table_s8", 2, "r:uint8_t w:int8_t", call_ta_weight_table_s8},
};

const TaKernelEntry *ta_kernel_find(const char *name)
{
    size_t lo = 0, hi = sizeof entries / sizeof entries[0];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int order = strcmp(name, entries[mid].name);
        if (order == 0)
            return &entries[mid];
        if (order < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

size_t ta_kernel_count(void)
{
    return sizeof entries / sizeof entries[0];
}

const TaKernelEntry *ta_kernel_at(size_t i)
{
    return i < ta_kernel_count() ? &entries[i] : NULL;
}
