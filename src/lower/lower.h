/*
 * lower.h - per-operator lowering.
 *
 * Each supported operator has a TaOpDef in a file here (ops.def names
 * the file; operators that share checks share one): `parse` decodes the
 * operator's options table into op->attrs, `lower` checks types and
 * shapes, computes every quantization parameter in the converter
 * (multipliers, shifts, folded bias sums, activation ranges), creates the
 * operator's local tensors and records its kernel calls and MAC count.
 * The emitter turns those records into C; no operator file writes C text.
 * Helpers that several operator files share are in common/.
 *
 * Adding an operator: docs/adding-an-operator.md, the one checklist (a
 * test holds it to the files an operator really needs). In short: this
 * file's TaOpDef in src/lower/<op>.c, one ops.def line, the kernel and its
 * header in runtime/kernels/ (the only place a kernel is registered: the
 * build writes kernel_params.c/.h and src/exec/kernel_table.c from it),
 * a generator variant in tests/gen/ops/.
 */
#ifndef TA_LOWER_H
#define TA_LOWER_H

#include "../ir/ir.h"
#include "../model/fb.h"
#include "kernel_params.h"
#include "ops.h"

typedef struct TaLower {
    TaPool *pool;
    TaDiag *diag;
    const TaModel *model; /* every subgraph (CALL_ONCE, resource variables) */
    TaGraph *graph;
    const char *model_path;
    const char *prefix;
    const TaVec *custom_operators; /* config custom_operators (TaCustomOperator*), or NULL */
    bool helium; /* the target's core has Helium: weights in its kernels' layouts */
    bool dsp;    /* the target's core has the DSP extension (Cortex-M4/M7/M33) */
} TaLower;

/* One operator's lowering; ops.def gives its builtin code and name. */
typedef struct TaOpDef {
    bool (*parse)(TaLower *L, TaOp *op); /* may be NULL */
    bool (*lower)(TaLower *L, TaOp *op);
} TaOpDef;

/* The definition for a builtin code, or NULL when tinyaot lacks it. */
const TaOpDef *ta_op_def_find(int builtin);
/* The definition for a custom operator's custom_code (custom_ops.def), or
   NULL when tinyaot lacks it. */
const TaOpDef *ta_custom_op_def_find(const char *custom_code);
/* The custom code of tinyaot's own custom operator with this canonical key, or NULL. */
const char *ta_builtin_custom_code_for_key(TaPool *pool, const char *key);

/* user_custom_op.c: the lowering of every custom_operators entry's code,
   and the check of the entries against the model (before lowering). */
extern const TaOpDef ta_op_user_custom;
bool ta_check_user_custom_ops(TaLower *L);

/* lower.c: runs parse and lower over every operator of the graph. Every
   unsupported operator or configuration is reported, one line each. */
bool ta_lower_graph(TaLower *L);

/* ---- helpers for operator files (lower.c) ------------------------------- */

/* "<model>: operator 3 (CONV_2D): <message>" */
void ta_op_error(TaLower *L, const TaOp *op, const char *fmt, ...) TA_PRINTF(3, 4);

/* The operator's builtin options table; ok=false when it has none. */
TaFbTable ta_op_options(TaLower *L, TaOp *op, TaFbReader *reader);

bool ta_expect_counts(TaLower *L, TaOp *op, int min_inputs, int max_inputs, int outputs);
/* A present input or output of one of the listed dtypes (-1 ends the list). */
bool ta_expect_dtype(TaLower *L, TaOp *op, const TaTensor *t, const char *role, ...);
/* Per-tensor quantization with one scale and zero point. */
bool ta_expect_per_tensor(TaLower *L, TaOp *op, const TaTensor *t, const char *role);
bool ta_expect_constant(TaLower *L, TaOp *op, const TaTensor *t, const char *role);
bool ta_expect_rank(TaLower *L, TaOp *op, const TaTensor *t, const char *role, int rank);

float ta_scale(const TaTensor *t);        /* first scale, 0 if none */
int32_t ta_zero_point(const TaTensor *t); /* first zero point, 0 if none */

/* Tensors the lowering creates; ids are "op<N>.<role>". */
TaTensor *ta_local_constant(TaLower *L, TaOp *op, const char *role, TaDtype dtype, int32_t count,
                            const void *data);
TaTensor *ta_local_scratch(TaLower *L, TaOp *op, const char *role, int32_t bytes);
/* The same, `count` elements of `dtype`. */
TaTensor *ta_local_scratch_of(TaLower *L, TaOp *op, const char *role, TaDtype dtype, int32_t count);
/* Records that constant `t` holds model tensor `from`'s values in another
   form: rules naming `from` place `t`, reports show `from`'s index. */
void ta_derived_from(TaTensor *t, const TaTensor *from);
/* Declares that the operator needs no kernel call and why ("its output is
   a constant", ...): a lowering that makes no call, aliases no input and
   declares nothing is tinyaot's bug (lower.c), not a silent no-op. */
void ta_lower_no_code(TaOp *op, const char *why);
/* State kept between runs (persistent), zero after model_init. */
TaTensor *ta_local_state(TaLower *L, TaOp *op, const char *role, TaDtype dtype, int32_t count);

/* A call to `function`, declared in `header`, added to the op's calls. */
TaKernelCall *ta_call(TaLower *L, TaOp *op, const char *function, const char *header);
/* The same for a call made once by model_init (role "init"), after
   persistent memory is zeroed: setting state that does not start at zero. */
TaKernelCall *ta_init_call(TaLower *L, TaOp *op, const char *function, const char *header);

/* The call's parameter struct, zeroed, for the lowering to fill:
     ta_conv_2d_params_t *p = TA_CALL_PARAMS(L, c, ta_conv_2d_params_t);
     p->batches = batches;
   The emitter prints every field the struct's list declares. */
#define TA_CALL_PARAMS(L, c, type) ((type *)ta_call_params((L), (c), &type##_desc))
void *ta_call_params(TaLower *L, TaKernelCall *c, const TaParamsDesc *desc);

void ta_call_arg(TaLower *L, TaKernelCall *c, TaTensor *t);

/* Declares that the kernel may write output 0 over input `first` (or, if
   that one differs in size, over input `first + 1`): it reads every element
   of that input before writing the output element at the same place. The
   planner uses it when nothing reads the input afterwards. */
void ta_allow_inplace(TaOp *op, int first);

/* ---- common/variable_state.c: state that persists between runs ---------- */

/* A variable tensor (SVDF/LSTM state) starts where TFLite Micro resets it:
   the zero point for int8, 0 otherwise. Adds the init call when that is
   not all zero bytes (model_init zeroes persistent memory first). */
void ta_init_variable_tensor(TaLower *L, TaOp *op, TaTensor *state);
/* An init call setting every byte of persistent `state` to `byte`; none
   for 0. */
void ta_init_fill_bytes(TaLower *L, TaOp *op, TaTensor *state, int byte);

/* ---- common/quant.c: TFLite's conversion-time quantization arithmetic --- */

/* Fused activations, numbered as LiteRT's ActivationFunctionType. */
enum {
    TA_ACT_NONE = 0,
    TA_ACT_RELU = 1,
    TA_ACT_RELU_N1_TO_1 = 2,
    TA_ACT_RELU6 = 3,
    TA_ACT_TANH = 4,
    TA_ACT_SIGN_BIT = 5
};
const char *ta_activation_name(int act);

/* double -> (multiplier, shift), as TFLite's QuantizeMultiplier. */
void ta_quantize_multiplier(double m, int32_t *multiplier, int *shift);
/* The largest left shift each requantization form computes exactly: the
   int32 form shifts x left in 32 bits before the high multiply
   (ta_quant.h), the int64 form shifts right by 15 - shift, which must
   stay positive. */
enum { TA_SHIFT_MAX_INT32 = 30, TA_SHIFT_MAX_INT64 = 14 };
/* ta_quantize_multiplier for a kernel, the one check every operator uses:
   false (and one error naming `what` and the factor) when the shift
   exceeds `max_shift` (TA_SHIFT_MAX_*), which no kernel computes exactly. */
bool ta_requant(TaLower *L, TaOp *op, const char *what, double real, int max_shift,
                int32_t *multiplier, int *shift);
/* The clamp range of a fused activation on a quantized output; false (and
   an error) for activations integer kernels cannot fuse. */
bool ta_activation_range(TaLower *L, TaOp *op, int act, const TaTensor *out, int32_t *lo,
                         int32_t *hi);
/* The range of an integer dtype. */
void ta_dtype_range(TaDtype dtype, int32_t *lo, int32_t *hi);

/* ---- common/float_activation.c: fused activations on float32 outputs ---- */

/* The clamp [lo, hi] of a fused activation on a float32 output, as
   TFLite's CalculateActivationRange<float>; false (and an error) for TANH
   and SIGN_BIT. Kernels clamp with ta_activation_f32 (ta_float.h). */
bool ta_float_activation_range(TaLower *L, TaOp *op, int act, float *lo, float *hi);

#endif /* TA_LOWER_H */
