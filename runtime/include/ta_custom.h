/*
 * ta_custom.h - the calling convention of a user kernel: a custom operator
 * the configuration's custom_operators entry brings (docs/custom-operators.md).
 *
 * The module calls the entry's `function` once per run of the operator:
 *
 *   int my_kernel(const ta_custom_call_t *call);
 *
 * with every input and output as a tensor view, the operator's scratch
 * (planned with the other scratch tensors, live only during the call) and
 * the operator's custom_options bytes from the model. The kernel returns
 * TA_OK (0) or a status of its own in 1000..1999, the range helia-aot keeps
 * for custom operators; model_run returns that status unchanged.
 */
#ifndef TA_CUSTOM_H
#define TA_CUSTOM_H

#include <stdint.h>

/* Element types, numbered as LiteRT's TensorType enum. */
enum {
    TA_CUSTOM_FLOAT32 = 0,
    TA_CUSTOM_INT32 = 2,
    TA_CUSTOM_UINT8 = 3,
    TA_CUSTOM_INT64 = 4,
    TA_CUSTOM_BOOL = 6,
    TA_CUSTOM_INT16 = 7,
    TA_CUSTOM_INT8 = 9,
    TA_CUSTOM_UINT32 = 15,
    TA_CUSTOM_UINT16 = 16
};

/* One input or output. `data` is NULL for an optional input the model
   leaves out (rank 0 then). An input's bytes are read only: constants may
   sit in flash. */
typedef struct {
    void *data;
    int32_t dtype; /* TA_CUSTOM_* */
    int32_t rank;
    const int32_t *dims; /* rank entries */
    int32_t num_elements;
    /* Per-tensor quantization: real = (q - zero_point) * scale; scale 0
       when the tensor has none. Per-channel tensors give channel 0's. */
    float scale;
    int32_t zero_point;
} ta_custom_tensor_t;

typedef struct {
    const ta_custom_tensor_t *inputs;
    int32_t num_inputs;
    const ta_custom_tensor_t *outputs;
    int32_t num_outputs;
    void *scratch; /* scratch_bytes bytes, NULL when 0; not kept between runs */
    uint32_t scratch_bytes;
    const uint8_t *options; /* the model's custom_options, NULL when it has none */
    uint32_t options_size;
} ta_custom_call_t;

typedef int (*ta_custom_kernel_fn)(const ta_custom_call_t *call);

#endif /* TA_CUSTOM_H */
