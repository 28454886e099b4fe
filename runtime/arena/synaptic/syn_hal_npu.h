/*
 * synaptic/syn_hal_npu.h - the element types under the specification's
 * include path, next to synaptic/syn_mem.h. The definitions are
 * ../syn_hal_npu.h.
 */
#ifndef SYNAPTIC_SYN_HAL_NPU_H
#define SYNAPTIC_SYN_HAL_NPU_H

#include "../syn_hal_npu.h"

#endif /* SYNAPTIC_SYN_HAL_NPU_H */
