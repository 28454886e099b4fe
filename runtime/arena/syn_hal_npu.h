/*
 * syn_hal_npu.h - compatibility header: the element-type names of the
 * specification's NPU layer, mapped onto the runtime tensor arena's types.
 *
 * Only the data-type part of that layer is provided; syn_mem.h includes it.
 */
#ifndef SYN_HAL_NPU_H
#define SYN_HAL_NPU_H

#include "ta_arena.h"

/* The same type as ta_dtype_t, so descriptors need no conversion. */
typedef ta_dtype_t syn_npu_dtype_t;

#define SYN_NPU_DTYPE_INT8 TA_DTYPE_INT8
#define SYN_NPU_DTYPE_UINT8 TA_DTYPE_UINT8
#define SYN_NPU_DTYPE_INT16 TA_DTYPE_INT16
#define SYN_NPU_DTYPE_FLOAT16 TA_DTYPE_FLOAT16
#define SYN_NPU_DTYPE_FLOAT32 TA_DTYPE_FLOAT32

#endif /* SYN_HAL_NPU_H */
