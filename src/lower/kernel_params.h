/*
 * kernel_params.h - written by scripts/gen_kernel_table.py from the kernel headers; do not edit.
 * The field table of every kernel parameter struct (kernel_params.c), which
 * the emitter walks to print a filled struct as a C initializer. A lowering
 * names the struct type, never a field string:
 *   ta_conv_2d_params_t *p = TA_CALL_PARAMS(L, c, ta_conv_2d_params_t);
 * finds `ta_conv_2d_params_t_desc` here.
 */
#ifndef TA_KERNEL_PARAMS_H
#define TA_KERNEL_PARAMS_H

#include "../ir/ir.h"

extern const TaParamsDesc ta_abs_params_t_desc;
extern const TaParamsDesc ta_add_n_f32_params_t_desc;
extern const TaParamsDesc ta_add_n_s8_params_t_desc;
extern const TaParamsDesc ta_add_params_t_desc;
extern const TaParamsDesc ta_arg_min_max_params_t_desc;
extern const TaParamsDesc ta_batch_matmul_f32_params_t_desc;
extern const TaParamsDesc ta_batch_matmul_params_t_desc;
extern const TaParamsDesc ta_binary_f32_params_t_desc;
extern const TaParamsDesc ta_binary_i32_params_t_desc;
extern const TaParamsDesc ta_broadcast_args_params_t_desc;
extern const TaParamsDesc ta_cast_params_t_desc;
extern const TaParamsDesc ta_channel_params_params_t_desc;
extern const TaParamsDesc ta_circular_buffer_params_t_desc;
extern const TaParamsDesc ta_comparison_f32_params_t_desc;
extern const TaParamsDesc ta_comparison_params_t_desc;
extern const TaParamsDesc ta_conv_2d_add_params_t_desc;
extern const TaParamsDesc ta_conv_2d_f32_params_t_desc;
extern const TaParamsDesc ta_conv_2d_params_t_desc;
extern const TaParamsDesc ta_conv_2d_s4_params_t_desc;
extern const TaParamsDesc ta_copy_nd_params_t_desc;
extern const TaParamsDesc ta_copy_params_t_desc;
extern const TaParamsDesc ta_cumsum_params_t_desc;
extern const TaParamsDesc ta_depthwise_conv_2d_f32_params_t_desc;
extern const TaParamsDesc ta_depthwise_conv_2d_params_t_desc;
extern const TaParamsDesc ta_depthwise_conv_2d_s4_params_t_desc;
extern const TaParamsDesc ta_dequantize_params_t_desc;
extern const TaParamsDesc ta_detection_postprocess_f32_params_t_desc;
extern const TaParamsDesc ta_dynamic_update_slice_params_t_desc;
extern const TaParamsDesc ta_embedding_lookup_params_t_desc;
extern const TaParamsDesc ta_fill_params_t_desc;
extern const TaParamsDesc ta_floor_div_mod_f32_params_t_desc;
extern const TaParamsDesc ta_fully_connected_f32_params_t_desc;
extern const TaParamsDesc ta_fully_connected_params_t_desc;
extern const TaParamsDesc ta_fully_connected_s4_params_t_desc;
extern const TaParamsDesc ta_gather_nd_params_t_desc;
extern const TaParamsDesc ta_gather_params_t_desc;
extern const TaParamsDesc ta_hard_swish_params_t_desc;
extern const TaParamsDesc ta_l2_normalization_params_t_desc;
extern const TaParamsDesc ta_leaky_relu_params_t_desc;
extern const TaParamsDesc ta_log_softmax_f32_params_t_desc;
extern const TaParamsDesc ta_log_softmax_params_t_desc;
extern const TaParamsDesc ta_logical_not_params_t_desc;
extern const TaParamsDesc ta_logical_params_t_desc;
extern const TaParamsDesc ta_lstm_f32_params_t_desc;
extern const TaParamsDesc ta_lstm_params_t_desc;
extern const TaParamsDesc ta_lut_params_t_desc;
extern const TaParamsDesc ta_maximum_minimum_params_t_desc;
extern const TaParamsDesc ta_mul_params_t_desc;
extern const TaParamsDesc ta_pad_rows_params_t_desc;
extern const TaParamsDesc ta_pool_f32_params_t_desc;
extern const TaParamsDesc ta_pool_params_t_desc;
extern const TaParamsDesc ta_prelu_params_t_desc;
extern const TaParamsDesc ta_quantize_params_t_desc;
extern const TaParamsDesc ta_reduce_params_t_desc;
extern const TaParamsDesc ta_relu6_params_t_desc;
extern const TaParamsDesc ta_relu_params_t_desc;
extern const TaParamsDesc ta_resize_bilinear_f32_params_t_desc;
extern const TaParamsDesc ta_resize_bilinear_params_t_desc;
extern const TaParamsDesc ta_resize_nearest_params_t_desc;
extern const TaParamsDesc ta_rsqrt_params_t_desc;
extern const TaParamsDesc ta_select_params_t_desc;
extern const TaParamsDesc ta_sigmoid_params_t_desc;
extern const TaParamsDesc ta_sign_params_t_desc;
extern const TaParamsDesc ta_signal_delay_params_t_desc;
extern const TaParamsDesc ta_signal_energy_params_t_desc;
extern const TaParamsDesc ta_signal_fft_auto_scale_params_t_desc;
extern const TaParamsDesc ta_signal_filter_bank_log_params_t_desc;
extern const TaParamsDesc ta_signal_filter_bank_params_t_desc;
extern const TaParamsDesc ta_signal_filter_bank_sqrt_params_t_desc;
extern const TaParamsDesc ta_signal_framer_params_t_desc;
extern const TaParamsDesc ta_signal_overlap_add_params_t_desc;
extern const TaParamsDesc ta_signal_pcan_params_t_desc;
extern const TaParamsDesc ta_signal_rfft_params_t_desc;
extern const TaParamsDesc ta_signal_spectral_subtraction_params_t_desc;
extern const TaParamsDesc ta_signal_stacker_params_t_desc;
extern const TaParamsDesc ta_signal_window_params_t_desc;
extern const TaParamsDesc ta_softmax_f32_params_t_desc;
extern const TaParamsDesc ta_softmax_params_t_desc;
extern const TaParamsDesc ta_squared_difference_params_t_desc;
extern const TaParamsDesc ta_svdf_f32_params_t_desc;
extern const TaParamsDesc ta_svdf_params_t_desc;
extern const TaParamsDesc ta_transpose_conv_f32_params_t_desc;
extern const TaParamsDesc ta_transpose_conv_params_t_desc;
extern const TaParamsDesc ta_unary_f32_params_t_desc;
extern const TaParamsDesc ta_variable_fill_params_t_desc;
extern const TaParamsDesc ta_weight_huffman_params_t_desc;
extern const TaParamsDesc ta_weight_table_params_t_desc;

#endif /* TA_KERNEL_PARAMS_H */
