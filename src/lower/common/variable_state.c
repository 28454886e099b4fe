/*
 * variable_state.c - where persistent state starts: model_init zeroes
 * persistent memory, so only state that starts elsewhere gets an init
 * call (SVDF/LSTM variable tensors, resource variables in variables.c).
 */
#include "../../../runtime/kernels/ta_variable.h"
#include "../lower.h"

void ta_init_fill_bytes(TaLower *L, TaOp *op, TaTensor *state, int byte)
{
    if (byte == 0)
        return; /* model_init has zeroed persistent memory */
    TaKernelCall *c = ta_init_call(L, op, "ta_variable_fill", "runtime/kernels/ta_variable.h");
    ta_variable_fill_params_t *p = TA_CALL_PARAMS(L, c, ta_variable_fill_params_t);
    p->bytes = (int64_t)ta_tensor_bytes(state);
    p->byte_value = byte;
    ta_call_arg(L, c, state);
}

void ta_init_variable_tensor(TaLower *L, TaOp *op, TaTensor *state)
{
    /* TFLite Micro resets int8 variable tensors to their zero point and
       every other type to zero bytes. */
    ta_init_fill_bytes(L, op, state,
                       state->dtype == TA_INT8 ? (uint8_t)(int8_t)ta_zero_point(state) : 0);
}
