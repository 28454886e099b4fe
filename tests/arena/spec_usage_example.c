/*
 * spec_usage_example.c - the usage example of tensor-arena-api.txt (the
 * hello_inference sample), compiled unchanged against the compatibility
 * header. Only the function around it and the includes are ours: the body
 * is the specification's text, kept byte for byte so that the test proves
 * code written against that API builds and runs as it is. The include is
 * the specification's own line, found through runtime/arena/synaptic/.
 */
#include "spec_usage_example.h"
#include <synaptic/syn_mem.h>

int spec_usage_example(void)
{
    /* Allocate a 1x16x16x3 INT8 input tensor from the ephemeral region */
    uint32_t input_shape[] = {1, 16, 16, 3};
    syn_tensor_t *input = syn_mem_tensor_alloc(input_shape, 4, SYN_NPU_DTYPE_INT8,
                                               SYN_MEM_EPHEMERAL);
    if (input == NULL) {
        return -ENOMEM;
    }

    /* Fill with a test pattern */
    uint8_t *data = (uint8_t *)input->data;
    for (size_t i = 0; i < input->size; i++) {
        data[i] = (uint8_t)(i & 0xFF);
    }

    /* ... run inference ... */

    syn_mem_print_stats();

    /* Reclaim all ephemeral tensors and scratch in O(1) */
    syn_mem_reset_ephemeral();
    return 0;
}
