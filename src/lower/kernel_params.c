/*
 * kernel_params.c - written by scripts/gen_kernel_table.py from the kernel headers; do not edit.
 * Each block sets STRUCT to the struct type and expands its list
 * (params_describe.h), so offsets and element types come from the real
 * struct: a list and a table cannot disagree.
 */
#include "kernel_params.h"

#include <stddef.h>
#include <stdint.h>

#include "../../runtime/kernels/ta_abs.h"
#include "../../runtime/kernels/ta_add_n.h"
#include "../../runtime/kernels/ta_add_n_f32.h"
#include "../../runtime/kernels/ta_add_sub.h"
#include "../../runtime/kernels/ta_arg_min_max.h"
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
#include "../../runtime/kernels/ta_gather.h"
#include "../../runtime/kernels/ta_hard_swish.h"
#include "../../runtime/kernels/ta_l2_normalization.h"
#include "../../runtime/kernels/ta_leaky_relu.h"
#include "../../runtime/kernels/ta_log_softmax.h"
#include "../../runtime/kernels/ta_log_softmax_f32.h"
#include "../../runtime/kernels/ta_logical.h"
#include "../../runtime/kernels/ta_lstm.h"
#include "../../runtime/kernels/ta_lstm_f32.h"
#include "../../runtime/kernels/ta_lut.h"
#include "../../runtime/kernels/ta_maximum_minimum.h"
#include "../../runtime/kernels/ta_mul.h"
#include "../../runtime/kernels/ta_pad_rows.h"
#include "../../runtime/kernels/ta_pooling.h"
#include "../../runtime/kernels/ta_pooling_f32.h"
#include "../../runtime/kernels/ta_prelu.h"
#include "../../runtime/kernels/ta_quantize.h"
#include "../../runtime/kernels/ta_reduce.h"
#include "../../runtime/kernels/ta_relu.h"
#include "../../runtime/kernels/ta_resize.h"
#include "../../runtime/kernels/ta_resize_f32.h"
#include "../../runtime/kernels/ta_rsqrt.h"
#include "../../runtime/kernels/ta_select.h"
#include "../../runtime/kernels/ta_sigmoid_params.h"
#include "../../runtime/kernels/ta_sign.h"
#include "../../runtime/kernels/ta_signal_fft_params.h"
#include "../../runtime/kernels/ta_signal_filter_bank.h"
#include "../../runtime/kernels/ta_signal_framing.h"
#include "../../runtime/kernels/ta_signal_noise.h"
#include "../../runtime/kernels/ta_signal_overlap_add.h"
#include "../../runtime/kernels/ta_signal_spectrum.h"
#include "../../runtime/kernels/ta_softmax.h"
#include "../../runtime/kernels/ta_softmax_f32.h"
#include "../../runtime/kernels/ta_squared_difference.h"
#include "../../runtime/kernels/ta_svdf.h"
#include "../../runtime/kernels/ta_svdf_f32.h"
#include "../../runtime/kernels/ta_transpose_conv.h"
#include "../../runtime/kernels/ta_transpose_conv_f32.h"
#include "../../runtime/kernels/ta_unary_f32.h"
#include "../../runtime/kernels/ta_variable.h"
#include "../../runtime/kernels/ta_weight_huffman.h"
#include "../../runtime/kernels/ta_weight_table.h"

#include "params_describe.h"

#define STRUCT ta_abs_params_t
DESCRIBE(TA_ABS_PARAMS)
#undef STRUCT

#define STRUCT ta_add_n_f32_params_t
DESCRIBE(TA_ADD_N_F32_PARAMS)
#undef STRUCT

#define STRUCT ta_add_n_s8_params_t
DESCRIBE(TA_ADD_N_S8_PARAMS)
#undef STRUCT

#define STRUCT ta_add_params_t
DESCRIBE(TA_ADD_PARAMS)
#undef STRUCT

#define STRUCT ta_arg_min_max_params_t
DESCRIBE(TA_ARG_MIN_MAX_PARAMS)
#undef STRUCT

#define STRUCT ta_batch_matmul_f32_params_t
DESCRIBE(TA_BATCH_MATMUL_F32_PARAMS)
#undef STRUCT

#define STRUCT ta_batch_matmul_params_t
DESCRIBE(TA_BATCH_MATMUL_PARAMS)
#undef STRUCT

#define STRUCT ta_binary_f32_params_t
DESCRIBE(TA_BINARY_F32_PARAMS)
#undef STRUCT

#define STRUCT ta_binary_i32_params_t
DESCRIBE(TA_BINARY_I32_PARAMS)
#undef STRUCT

#define STRUCT ta_broadcast_args_params_t
DESCRIBE(TA_BROADCAST_ARGS_PARAMS)
#undef STRUCT

#define STRUCT ta_cast_params_t
DESCRIBE(TA_CAST_PARAMS)
#undef STRUCT

#define STRUCT ta_channel_params_params_t
DESCRIBE(TA_CHANNEL_PARAMS_PARAMS)
#undef STRUCT

#define STRUCT ta_circular_buffer_params_t
DESCRIBE(TA_CIRCULAR_BUFFER_PARAMS)
#undef STRUCT

#define STRUCT ta_comparison_f32_params_t
DESCRIBE(TA_COMPARISON_F32_PARAMS)
#undef STRUCT

#define STRUCT ta_comparison_params_t
DESCRIBE(TA_COMPARISON_PARAMS)
#undef STRUCT

#define STRUCT ta_conv_2d_add_params_t
DESCRIBE(TA_CONV_2D_ADD_PARAMS)
#undef STRUCT

#define STRUCT ta_conv_2d_f32_params_t
DESCRIBE(TA_CONV_2D_F32_PARAMS)
#undef STRUCT

#define STRUCT ta_conv_2d_params_t
DESCRIBE(TA_CONV_2D_PARAMS)
#undef STRUCT

#define STRUCT ta_conv_2d_s4_params_t
DESCRIBE(TA_CONV_2D_S4_PARAMS)
#undef STRUCT

#define STRUCT ta_copy_nd_params_t
DESCRIBE(TA_COPY_ND_PARAMS)
#undef STRUCT

#define STRUCT ta_copy_params_t
DESCRIBE(TA_COPY_PARAMS)
#undef STRUCT

#define STRUCT ta_cumsum_params_t
DESCRIBE(TA_CUMSUM_PARAMS)
#undef STRUCT

#define STRUCT ta_depthwise_conv_2d_f32_params_t
DESCRIBE(TA_DEPTHWISE_CONV_2D_F32_PARAMS)
#undef STRUCT

#define STRUCT ta_depthwise_conv_2d_params_t
DESCRIBE(TA_DEPTHWISE_CONV_2D_PARAMS)
#undef STRUCT

#define STRUCT ta_depthwise_conv_2d_s4_params_t
DESCRIBE(TA_DEPTHWISE_CONV_2D_S4_PARAMS)
#undef STRUCT

#define STRUCT ta_dequantize_params_t
DESCRIBE(TA_DEQUANTIZE_PARAMS)
#undef STRUCT

#define STRUCT ta_detection_postprocess_f32_params_t
DESCRIBE(TA_DETECTION_POSTPROCESS_F32_PARAMS)
#undef STRUCT

#define STRUCT ta_dynamic_update_slice_params_t
DESCRIBE(TA_DYNAMIC_UPDATE_SLICE_PARAMS)
#undef STRUCT

#define STRUCT ta_embedding_lookup_params_t
DESCRIBE(TA_EMBEDDING_LOOKUP_PARAMS)
#undef STRUCT

#define STRUCT ta_fill_params_t
DESCRIBE(TA_FILL_PARAMS)
#undef STRUCT

#define STRUCT ta_floor_div_mod_f32_params_t
DESCRIBE(TA_FLOOR_DIV_MOD_F32_PARAMS)
#undef STRUCT

#define STRUCT ta_fully_connected_f32_params_t
DESCRIBE(TA_FULLY_CONNECTED_F32_PARAMS)
#undef STRUCT

#define STRUCT ta_fully_connected_params_t
DESCRIBE(TA_FULLY_CONNECTED_PARAMS)
#undef STRUCT

#define STRUCT ta_fully_connected_s4_params_t
DESCRIBE(TA_FULLY_CONNECTED_S4_PARAMS)
#undef STRUCT

#define STRUCT ta_gather_nd_params_t
DESCRIBE(TA_GATHER_ND_PARAMS)
#undef STRUCT

#define STRUCT ta_gather_params_t
DESCRIBE(TA_GATHER_PARAMS)
#undef STRUCT

#define STRUCT ta_hard_swish_params_t
DESCRIBE(TA_HARD_SWISH_PARAMS)
#undef STRUCT

#define STRUCT ta_l2_normalization_params_t
DESCRIBE(TA_L2_NORMALIZATION_PARAMS)
#undef STRUCT

#define STRUCT ta_leaky_relu_params_t
DESCRIBE(TA_LEAKY_RELU_PARAMS)
#undef STRUCT

#define STRUCT ta_log_softmax_f32_params_t
DESCRIBE(TA_LOG_SOFTMAX_F32_PARAMS)
#undef STRUCT

#define STRUCT ta_log_softmax_params_t
DESCRIBE(TA_LOG_SOFTMAX_PARAMS)
#undef STRUCT

#define STRUCT ta_logical_not_params_t
DESCRIBE(TA_LOGICAL_NOT_PARAMS)
#undef STRUCT

#define STRUCT ta_logical_params_t
DESCRIBE(TA_LOGICAL_PARAMS)
#undef STRUCT

#define STRUCT ta_lstm_f32_params_t
DESCRIBE(TA_LSTM_F32_PARAMS)
#undef STRUCT

#define STRUCT ta_lstm_params_t
DESCRIBE(TA_LSTM_PARAMS)
#undef STRUCT

#define STRUCT ta_lut_params_t
DESCRIBE(TA_LUT_PARAMS)
#undef STRUCT

#define STRUCT ta_maximum_minimum_params_t
DESCRIBE(TA_MAXIMUM_MINIMUM_PARAMS)
#undef STRUCT

#define STRUCT ta_mul_params_t
DESCRIBE(TA_MUL_PARAMS)
#undef STRUCT

#define STRUCT ta_pad_rows_params_t
DESCRIBE(TA_PAD_ROWS_PARAMS)
#undef STRUCT

#define STRUCT ta_pool_f32_params_t
DESCRIBE(TA_POOL_F32_PARAMS)
#undef STRUCT

#define STRUCT ta_pool_params_t
DESCRIBE(TA_POOL_PARAMS)
#undef STRUCT

#define STRUCT ta_prelu_params_t
DESCRIBE(TA_PRELU_PARAMS)
#undef STRUCT

#define STRUCT ta_quantize_params_t
DESCRIBE(TA_QUANTIZE_PARAMS)
#undef STRUCT

#define STRUCT ta_reduce_params_t
DESCRIBE(TA_REDUCE_PARAMS)
#undef STRUCT

#define STRUCT ta_relu6_params_t
DESCRIBE(TA_RELU6_PARAMS)
#undef STRUCT

#define STRUCT ta_relu_params_t
DESCRIBE(TA_RELU_PARAMS)
#undef STRUCT

#define STRUCT ta_resize_bilinear_f32_params_t
DESCRIBE(TA_RESIZE_BILINEAR_F32_PARAMS)
#undef STRUCT

#define STRUCT ta_resize_bilinear_params_t
DESCRIBE(TA_RESIZE_BILINEAR_PARAMS)
#undef STRUCT

#define STRUCT ta_resize_nearest_params_t
DESCRIBE(TA_RESIZE_NEAREST_PARAMS)
#undef STRUCT

#define STRUCT ta_rsqrt_params_t
DESCRIBE(TA_RSQRT_PARAMS)
#undef STRUCT

#define STRUCT ta_select_params_t
DESCRIBE(TA_SELECT_PARAMS)
#undef STRUCT

#define STRUCT ta_sigmoid_params_t
DESCRIBE(TA_SIGMOID_PARAMS)
#undef STRUCT

#define STRUCT ta_sign_params_t
DESCRIBE(TA_SIGN_PARAMS)
#undef STRUCT

#define STRUCT ta_signal_delay_params_t
DESCRIBE(TA_SIGNAL_DELAY_PARAMS)
#undef STRUCT

#define STRUCT ta_signal_energy_params_t
DESCRIBE(TA_SIGNAL_ENERGY_PARAMS)
#undef STRUCT

#define STRUCT ta_signal_fft_auto_scale_params_t
DESCRIBE(TA_SIGNAL_FFT_AUTO_SCALE_PARAMS)
#undef STRUCT

#define STRUCT ta_signal_filter_bank_log_params_t
DESCRIBE(TA_SIGNAL_FILTER_BANK_LOG_PARAMS)
#undef STRUCT

#define STRUCT ta_signal_filter_bank_params_t
DESCRIBE(TA_SIGNAL_FILTER_BANK_PARAMS)
#undef STRUCT

#define STRUCT ta_signal_filter_bank_sqrt_params_t
DESCRIBE(TA_SIGNAL_FILTER_BANK_SQRT_PARAMS)
#undef STRUCT

#define STRUCT ta_signal_framer_params_t
DESCRIBE(TA_SIGNAL_FRAMER_PARAMS)
#undef STRUCT

#define STRUCT ta_signal_overlap_add_params_t
DESCRIBE(TA_SIGNAL_OVERLAP_ADD_PARAMS)
#undef STRUCT

#define STRUCT ta_signal_pcan_params_t
DESCRIBE(TA_SIGNAL_PCAN_PARAMS)
#undef STRUCT

#define STRUCT ta_signal_rfft_params_t
DESCRIBE(TA_SIGNAL_RFFT_PARAMS)
#undef STRUCT

#define STRUCT ta_signal_spectral_subtraction_params_t
DESCRIBE(TA_SIGNAL_SPECTRAL_SUBTRACTION_PARAMS)
#undef STRUCT

#define STRUCT ta_signal_stacker_params_t
DESCRIBE(TA_SIGNAL_STACKER_PARAMS)
#undef STRUCT

#define STRUCT ta_signal_window_params_t
DESCRIBE(TA_SIGNAL_WINDOW_PARAMS)
#undef STRUCT

#define STRUCT ta_softmax_f32_params_t
DESCRIBE(TA_SOFTMAX_F32_PARAMS)
#undef STRUCT

#define STRUCT ta_softmax_params_t
DESCRIBE(TA_SOFTMAX_PARAMS)
#undef STRUCT

#define STRUCT ta_squared_difference_params_t
DESCRIBE(TA_SQUARED_DIFFERENCE_PARAMS)
#undef STRUCT

#define STRUCT ta_svdf_f32_params_t
DESCRIBE(TA_SVDF_F32_PARAMS)
#undef STRUCT

#define STRUCT ta_svdf_params_t
DESCRIBE(TA_SVDF_PARAMS)
#undef STRUCT

#define STRUCT ta_transpose_conv_f32_params_t
DESCRIBE(TA_TRANSPOSE_CONV_F32_PARAMS)
#undef STRUCT

#define STRUCT ta_transpose_conv_params_t
DESCRIBE(TA_TRANSPOSE_CONV_PARAMS)
#undef STRUCT

#define STRUCT ta_unary_f32_params_t
DESCRIBE(TA_UNARY_F32_PARAMS)
#undef STRUCT

#define STRUCT ta_variable_fill_params_t
DESCRIBE(TA_VARIABLE_FILL_PARAMS)
#undef STRUCT

#define STRUCT ta_weight_huffman_params_t
DESCRIBE(TA_WEIGHT_HUFFMAN_PARAMS)
#undef STRUCT

#define STRUCT ta_weight_table_params_t
DESCRIBE(TA_WEIGHT_TABLE_PARAMS)
#undef STRUCT
