/*
 * synaptic/syn_mem.h - the include path tensor-arena-api.txt gives,
 * `#include <synaptic/syn_mem.h>`, with runtime/arena on the include path
 * (the ta_arena CMake target exports it). The API is ../syn_mem.h.
 */
#ifndef SYNAPTIC_SYN_MEM_H
#define SYNAPTIC_SYN_MEM_H

#include "../syn_mem.h"

#endif /* SYNAPTIC_SYN_MEM_H */
