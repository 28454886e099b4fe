/*
 * kernel_params.h - the field table of every kernel parameter struct.
 *
 * The runtime headers declare each struct as an X-macro list
 * (runtime/include/ta_params.h); kernel_params.c expands the same lists
 * into these tables, which the emitter walks to print a filled struct as a
 * C initializer. A lowering names the struct type, never a field string:
 *   ta_conv_2d_params_t *p = TA_CALL_PARAMS(L, c, ta_conv_2d_params_t);
 * finds `ta_conv_2d_params_t_desc` here.
 */
#ifndef TA_KERNEL_PARAMS_H
#define TA_KERNEL_PARAMS_H

#include "../ir/ir.h"

/* One line per parameter struct, sorted by kernel family, a family's float
   variant after its integer one. */
#define TA_KERNEL_PARAM_STRUCTS(S)             \
    S(ta_abs_params_t)                         \
    S(ta_add_params_t)                         \
    S(ta_add_n_f32_params_t)                   \
    S(ta_add_n_s8_params_t)                    \
    S(ta_arg_min_max_params_t)                 \
    S(ta_batch_matmul_params_t)                \
    S(ta_batch_matmul_f32_params_t)            \
    S(ta_binary_f32_params_t)                  \
    S(ta_binary_i32_params_t)                  \
    S(ta_broadcast_args_params_t)              \
    S(ta_cast_params_t)                        \
    S(ta_circular_buffer_params_t)             \
    S(ta_comparison_params_t)                  \
    S(ta_comparison_f32_params_t)              \
    S(ta_conv_2d_add_params_t)                 \
    S(ta_conv_2d_params_t)                     \
    S(ta_conv_2d_s4_params_t)                  \
    S(ta_conv_2d_f32_params_t)                 \
    S(ta_copy_nd_params_t)                     \
    S(ta_copy_params_t)                        \
    S(ta_cumsum_params_t)                      \
    S(ta_depthwise_conv_2d_params_t)           \
    S(ta_depthwise_conv_2d_s4_params_t)        \
    S(ta_depthwise_conv_2d_f32_params_t)       \
    S(ta_dequantize_params_t)                  \
    S(ta_detection_postprocess_f32_params_t)   \
    S(ta_dynamic_update_slice_params_t)        \
    S(ta_embedding_lookup_params_t)            \
    S(ta_fill_params_t)                        \
    S(ta_floor_div_mod_f32_params_t)           \
    S(ta_fully_connected_params_t)             \
    S(ta_fully_connected_s4_params_t)          \
    S(ta_fully_connected_f32_params_t)         \
    S(ta_gather_nd_params_t)                   \
    S(ta_gather_params_t)                      \
    S(ta_hard_swish_params_t)                  \
    S(ta_l2_normalization_params_t)            \
    S(ta_leaky_relu_params_t)                  \
    S(ta_log_softmax_params_t)                 \
    S(ta_log_softmax_f32_params_t)             \
    S(ta_logical_not_params_t)                 \
    S(ta_logical_params_t)                     \
    S(ta_lstm_params_t)                        \
    S(ta_lstm_f32_params_t)                    \
    S(ta_lut_params_t)                         \
    S(ta_maximum_minimum_params_t)             \
    S(ta_mul_params_t)                         \
    S(ta_pool_params_t)                        \
    S(ta_pool_f32_params_t)                    \
    S(ta_prelu_params_t)                       \
    S(ta_quantize_params_t)                    \
    S(ta_reduce_params_t)                      \
    S(ta_relu6_params_t)                       \
    S(ta_relu_params_t)                        \
    S(ta_resize_bilinear_params_t)             \
    S(ta_resize_bilinear_f32_params_t)         \
    S(ta_resize_nearest_params_t)              \
    S(ta_rsqrt_params_t)                       \
    S(ta_select_params_t)                      \
    S(ta_sigmoid_params_t)                     \
    S(ta_signal_delay_params_t)                \
    S(ta_signal_energy_params_t)               \
    S(ta_signal_fft_auto_scale_params_t)       \
    S(ta_signal_filter_bank_log_params_t)      \
    S(ta_signal_filter_bank_params_t)          \
    S(ta_signal_filter_bank_sqrt_params_t)     \
    S(ta_signal_framer_params_t)               \
    S(ta_signal_overlap_add_params_t)          \
    S(ta_signal_pcan_params_t)                 \
    S(ta_signal_rfft_params_t)                 \
    S(ta_signal_spectral_subtraction_params_t) \
    S(ta_signal_stacker_params_t)              \
    S(ta_signal_window_params_t)               \
    S(ta_softmax_params_t)                     \
    S(ta_softmax_f32_params_t)                 \
    S(ta_squared_difference_params_t)          \
    S(ta_svdf_params_t)                        \
    S(ta_svdf_f32_params_t)                    \
    S(ta_transpose_conv_params_t)              \
    S(ta_transpose_conv_f32_params_t)          \
    S(ta_unary_f32_params_t)                   \
    S(ta_variable_fill_params_t)

#define TA_DECLARE_PARAMS_DESC(type) extern const TaParamsDesc type##_desc;
TA_KERNEL_PARAM_STRUCTS(TA_DECLARE_PARAMS_DESC)
#undef TA_DECLARE_PARAMS_DESC

#endif /* TA_KERNEL_PARAMS_H */
