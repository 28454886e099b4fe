/*
 * binary.h - shared by the binary elementwise operators (ADD, SUB, MUL,
 * SQUARED_DIFFERENCE, MAXIMUM/MINIMUM, comparisons): operand checks and
 * the collapsed broadcast shape their kernels iterate over
 * (runtime/kernels/ta_broadcast.h describes it).
 */
#ifndef TA_LOWER_BINARY_H
#define TA_LOWER_BINARY_H

#include "../../../runtime/kernels/ta_broadcast.h"
#include "../lower.h"

typedef struct TaBroadcast {
    int rank; /* >= 1 */
    int32_t dims[TA_BROADCAST_MAX_DIMS];
    int32_t stride1[TA_BROADCAST_MAX_DIMS]; /* elements; 0: input 1 broadcast */
    int32_t stride2[TA_BROADCAST_MAX_DIMS];
} TaBroadcast;

/* Checks that in1 and in2 broadcast (NumPy rules) to out's shape and
   collapses the three shapes; false with an error otherwise. */
bool ta_broadcast_plan(TaLower *L, TaOp *op, const TaTensor *in1, const TaTensor *in2,
                       const TaTensor *out, TaBroadcast *bc);

/* Stores the plan in a kernel's parameter fields rank, dims, stride1 and
   stride2 (arrays of TA_BROADCAST_MAX_DIMS). */
void ta_broadcast_store(const TaBroadcast *bc, int32_t *rank, int32_t *dims, int32_t *stride1,
                        int32_t *stride2);

/* Two inputs and one output, the inputs of one dtype among those listed
   (-1 ends the list), each per-tensor quantized with a zero point in its
   dtype's range. The output must have the inputs' dtype and quantization
   unless out_dtype >= 0, then it must have that dtype (and is not checked
   for quantization). */
bool ta_binary_expect(TaLower *L, TaOp *op, int out_dtype, const int *dtypes);

/* int16 inputs and output with zero point 0, which TFLite Micro's int16
   MUL and SQUARED_DIFFERENCE require; always true for int8. False with an
   error otherwise. */
bool ta_binary_expect_int16_zero_points(TaLower *L, TaOp *op);

/* The kernel call's arguments (input 1, input 2, output), the same for
   every binary kernel, and leave for the output to overwrite an input of
   its size (the kernels read each element before writing its place). */
void ta_binary_call_args(TaLower *L, TaOp *op, TaKernelCall *c);

#endif /* TA_LOWER_BINARY_H */
