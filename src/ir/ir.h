/*
 * ir.h - the in-memory graph every stage shares.
 *
 *   read (model/)  ->  TaModel with one TaGraph per subgraph
 *   passes/        ->  rewrite the selected graph in place
 *   lower/         ->  per operator: attributes, quantization parameters,
 *                      local tensors, kernel calls, MAC counts
 *   plan/          ->  a TaPlacement for every tensor
 *   emit/          ->  the module directory, reports and views
 *
 * Tensors and operators are owned by the graph's pool. A tensor's position
 * in TaGraph.tensors is its number in the generated `<prefix>_tensor_ident_t`.
 */
#ifndef TA_IR_H
#define TA_IR_H

#include "../../runtime/include/ta_module.h"
#include "../util/util.h"

/* Element types, numbered as LiteRT's TensorType enum. */
typedef enum TaDtype {
    TA_FLOAT32 = 0,
    TA_FLOAT16 = 1,
    TA_INT32 = 2,
    TA_UINT8 = 3,
    TA_INT64 = 4,
    TA_STRING = 5,
    TA_BOOL = 6,
    TA_INT16 = 7,
    TA_COMPLEX64 = 8,
    TA_INT8 = 9,
    TA_FLOAT64 = 10,
    TA_COMPLEX128 = 11,
    TA_UINT64 = 12,
    TA_RESOURCE = 13,
    TA_VARIANT = 14,
    TA_UINT32 = 15,
    TA_UINT16 = 16,
    TA_INT4 = 17,
    TA_BFLOAT16 = 18,
    TA_DTYPE_COUNT_KNOWN = 23
} TaDtype;

const char *ta_dtype_name(int dtype);  /* NumPy name: "int8"; "type<N>" if unknown */
const char *ta_dtype_ctype(int dtype); /* C type: "int8_t"; NULL if none */
size_t ta_dtype_size(int dtype);       /* bytes per element; 0 if not plain data */

/* real = (q - zero_point) * scale, per tensor or per channel along `axis`. */
typedef struct TaQuant {
    int num_scales;
    float *scale;
    int num_zero_points;
    int64_t *zero_point;
    int axis;
} TaQuant;

/* What a tensor is (TaTensor.role) and what a region holds (TaRegion.role)
   are one enumeration, the runtime's ta_region_role_t (TA_REGION_SCRATCH,
   TA_REGION_PERSISTENT, TA_REGION_CONSTANT), so a module's role table is
   written with its values. Its one name table, as placement rules, views
   and reports spell the roles: "scratch", "persistent", "constant". */
const char *ta_role_name(ta_region_role_t role);

#define TA_MAX_RANK 8

struct TaOp;
struct TaRegion;

/* Where the planner put a tensor. */
typedef struct TaPlacement {
    struct TaRegion *region; /* NULL: no bytes (empty tensor) */
    size_t offset;           /* from the region's first usable byte */
    size_t size;             /* bytes allocated (data size rounded up) */
    int memory;              /* TaMemory the kernels access it in */
    int source_memory;       /* where staged bytes come from; = memory otherwise */
    bool staged;
    /* Output over input: the tensor whose bytes this one's overlap (its
       producer's input, which it starts `overlap_lead` bytes below or
       more, or above when overlap_above), and why that is safe; NULL when
       it overlaps nothing. */
    const struct TaTensor *overlaps;
    size_t overlap_lead;
    const char *overlap_why;
    bool overlap_above; /* placed above `overlaps` (its producer walks backwards) */
} TaPlacement;

typedef struct TaTensor {
    int index;        /* position in TaGraph.tensors */
    int model_index;  /* index in the model subgraph; -1 if created */
    const char *id;   /* "11" for model tensors; "op3.multiplier" for created */
    const char *name; /* model's name, NULL if none or created */
    TaDtype dtype;
    int rank;
    int32_t dims[TA_MAX_RANK];
    bool has_signature;
    int32_t signature[TA_MAX_RANK];
    TaQuant *quant; /* NULL when the tensor carries no scale */
    ta_region_role_t role;
    const uint8_t *data; /* constant bytes, NULL if not constant */
    size_t data_size;
    bool is_variable;
    int input_index;    /* position in the module's inputs, or -1 */
    int output_index;   /* position in the module's outputs, or -1 */
    struct TaOp *owner; /* the operator a local tensor belongs to */
    /* A constant made from a model tensor (re-laid-out weights, a folded
       bias): that tensor, for rules and reports; NULL otherwise. */
    const struct TaTensor *derived_from;
    bool removed; /* dropped by a pass: not planned, not emitted */
    /* TFLite INT4 weights (passes/int4_weights.c): the model's packed bytes
       (two values a byte, low nibble first) while `data` holds them as int8;
       keep_packed when weights.format leaves them packed in the module. */
    const uint8_t *int4_packed;
    size_t int4_packed_size;
    bool int4_keep_packed;
    /* A constant stored in a compressed form ("int4"): the name views and
       reports show, and the bytes it would take as int8; NULL/0 if plain. */
    const char *stored_format;
    size_t dense_bytes;
    /* Kernel-ready weights whose bytes at even offsets below this hold
       their values with the sign bit flipped (ta_fully_connected_s8_words'
       pairs): lower/weight_table.c codes the values, its decoders flip
       them back. 0 for every other tensor. */
    size_t flipped_bytes;
    /* Decoded at conversion from a TFLM_DECODE (passes/decode_constants.c):
       weights.format auto keeps it compressed (lower/weight_table.c). */
    bool from_tflm_decode;

    /* Row streaming (src/passes/row_chains.c): the rows a chain's row
       buffer keeps and its bytes, which the planner places instead of the
       whole tensor; 0 for every other tensor. */
    int row_buffer_rows;
    size_t row_buffer_bytes;

    /* Set by the planner. */
    struct TaTensor
        *alias_of;           /* shares this tensor's bytes (zero-copy reshape, shared row buffer) */
    int first_use, last_use; /* layer indices; -1 if unused */
    TaPlacement place;
} TaTensor;

size_t ta_tensor_elements(const TaTensor *t);
size_t ta_tensor_bytes(const TaTensor *t);
/* The bytes the planner places: a row buffer's, else ta_tensor_bytes. */
size_t ta_tensor_planned_bytes(const TaTensor *t);
/* "[1,49,10,1]" in the pool. */
const char *ta_shape_text(TaPool *pool, const TaTensor *t);
/* The model tensor's index: t's own, or that of the model tensor a
   created constant was made from; -1 for neither. */
int ta_model_tensor(const TaTensor *t);
/* A constant's stored form ("int4": packed, "dense": as its dtype) and
   the bytes it takes as its dense dtype; NULL and -1 for other tensors. */
const char *ta_stored_format(const TaTensor *t);
int64_t ta_dense_bytes(const TaTensor *t);
/* Follows alias_of to the tensor that owns the bytes. */
TaTensor *ta_tensor_root(TaTensor *t);

/* One field of a kernel's parameter struct, as its runtime header's
   X-macro list declares it (src/lower/kernel_params.c builds the tables). */
typedef enum { TA_FIELD_INT32, TA_FIELD_UINT32, TA_FIELD_FLOAT, TA_FIELD_DOUBLE } TaFieldType;
typedef struct TaParamField {
    const char *name;
    size_t offset;
    TaFieldType type; /* of the field, or of each element of an array */
    int length;       /* 0 for a scalar; the array's length */
    long used_offset; /* -1, or the offset of the int32 field counting the elements in use */
} TaParamField;

/* A kernel's parameter struct: its C type name, size and fields in order. */
typedef struct TaParamsDesc {
    const char *type_name; /* "ta_conv_2d_params_t" */
    size_t size;
    const TaParamField *fields;
    int num_fields;
} TaParamsDesc;

/* A user kernel's call (config custom_operators, src/lower/user_custom_op.c):
   its args are the operator's inputs, then its outputs, handed to the
   kernel as one ta_custom_call_t of tensor views (runtime/include/ta_custom.h). */
typedef struct TaUserCall {
    int num_inputs;
    int num_outputs;
    struct TaTensor *scratch; /* NULL: no scratch */
    struct TaTensor *options; /* the custom_options bytes, or NULL */
    const char **headers;     /* file names under the module's custom/ */
    int num_headers;
} TaUserCall;

/*
 * A call from an operator's generated code into a runtime kernel:
 *   function(&params, arg0, arg1, ...)
 * Parameters are compile-time constants; arguments are tensor addresses
 * (NULL entries pass a null pointer).
 */
typedef struct TaKernelCall {
    const char *role;     /* "run": every model run; "init": once in model_init, after
                                persistent regions are zeroed and constants are in
                                place (may only touch persistent and constant tensors) */
    const char *function; /* e.g. "ta_fully_connected_s8" */
    const char *header;   /* runtime header declaring it, e.g. "kernels/ta_fully_connected.h" */
    const TaParamsDesc *params_desc; /* NULL: the kernel takes no parameter struct */
    void *params_struct;             /* the filled struct, params_desc->size bytes */
    TaVec args;                      /* TaTensor* (may be NULL) */
    /* Offsets of fields this call's kernel does not read; the emitter
       leaves them out of the initializer when zero: TA_CALL_IGNORES. */
    size_t ignored_fields[4];
    int num_ignored_fields;
    const TaUserCall *user; /* a user kernel's call, or NULL */
} TaKernelCall;

/* Marks a field of the call's parameter struct as one its kernel ignores
   in this call, e.g. the per-tensor multiplier when per-channel arrays are
   passed. */
void ta_call_ignores(TaKernelCall *c, size_t offset);
#define TA_CALL_IGNORES(c, type, field) ta_call_ignores((c), offsetof(type, field))
/* Whether the field at `offset` is one the call's kernel ignores. */
bool ta_call_ignores_field(const TaKernelCall *c, size_t offset);

struct TaOpDef;

/* FUSE_RESIDUAL_ADD: what a CONV_2D absorbed from the ADD that was the only
   reader of its output. The convolution's inputs become (input, weights,
   bias or NULL, residual), its output the ADD's. */
typedef struct TaResidualAdd {
    struct TaOp *add;      /* the ADD, out of the graph: options, model index */
    TaTensor *conv_output; /* the convolution's own result, out of the graph:
                              its quantization is the ADD's input's */
    int conv_operand;      /* the ADD input (0 or 1) the convolution fed */
    bool row_pieces;       /* row streaming on: each piece a whole output row,
                              one call per band of a row chain */
} TaResidualAdd;

/* Control flow in the flat operator list (src/passes/inline_control_flow.c
   puts IF and WHILE subgraphs there; docs/control-flow.md). A marker is an
   operator with no kernel call; the emitter and the host executor turn the
   markers into C control flow, blocks nest as brackets do:
     IF_BEGIN (cond) ... IF_ELSE ... IF_END
     LOOP_BEGIN ... LOOP_TEST (cond: leave the loop when false) ... LOOP_END */
typedef enum TaControl {
    TA_CONTROL_NONE = 0,
    TA_CONTROL_IF_BEGIN,
    TA_CONTROL_IF_ELSE,
    TA_CONTROL_IF_END,
    TA_CONTROL_LOOP_BEGIN,
    TA_CONTROL_LOOP_TEST,
    TA_CONTROL_LOOP_END
} TaControl;

/* TaOp.rewrites: what the transforms folded into the operator. */
typedef struct TaOpRewrites {
    int folded_activation;       /* FUSE_ACTIVATIONS: a standalone activation folded in */
    TaResidualAdd *residual_add; /* FUSE_RESIDUAL_ADD, or NULL */
    /* SPARSE_CHANNELS: output channels it no longer computes, and constant
       input channels folded into its bias (docs/pruned-models.md). */
    int sparse_removed;
    int sparse_folded;
} TaOpRewrites;

/* TaOp.lowered: the code the lowering made for the operator. */
typedef struct TaOpLowered {
    const char *symbol; /* <prefix>_<type>_<id> */
    TaVec locals;       /* TaTensor* owned by this operator */
    TaVec calls;        /* TaKernelCall* */
    /* Why the operator runs no kernel, as its lowering declared it
       (ta_lower_no_code); NULL when it calls one or aliases its input. */
    const char *no_code;
    bool has_macs;
    int64_t macs;
    /* analyze's count where the views spec defines none (LSTM, SVDF):
       one MAC per weight for each row the weights multiply. */
    bool has_analysis_macs;
    int64_t analysis_macs;
    bool has_parameters;
    int64_t parameters;
} TaOpLowered;

/* TaOp.plan_hints: how the lowering lets output 0 share an input's bytes. */
typedef struct TaOpPlanHints {
    int inplace_input; /* -1, or the input whose bytes output 0 may reuse */
    /* Output over input (src/lower/common/stream_lead.h): -1, or the input
       output 0 may overlap, its start overlap_lead bytes below that input's
       start or lower, because the kernel reads those bytes before it writes
       over them; overlap_why says how (the residency report shows it). */
    int overlap_input;
    size_t overlap_lead;
    const char *overlap_why;
    /* Output above input, the other direction: non-NULL when the kernel can
       walk its rows backwards (the parameter the planner sets to 1 when it
       places the output overlap_back_lead bytes or more above the input). */
    int32_t *overlap_reverse_rows;
    size_t overlap_back_lead;
    const char *overlap_back_why;
} TaOpPlanHints;

/* An operator's facts, grouped by the pass that writes them; each later
   pass only reads the groups above its own. */
typedef struct TaOp {
    /* The model reader (src/model/read_tflite.c). index is renumbered by
       the passes that reorder or remove operators (ta_graph_compact,
       inline_control_flow.c, ORDER_FOR_PEAK, SCHEDULE_CONSTANT_DEQUANTIZE). */
    int index;          /* position in TaGraph.ops (execution order), from 0 */
    int model_index;    /* operator index in the model subgraph; -1 if created */
    int model_subgraph; /* the model subgraph it comes from (IF/WHILE bodies) */
    int builtin;        /* LiteRT BuiltinOperator, or -1 for custom */
    const char *type;   /* "CONV_2D", or the custom code */
    int version;
    TaTensor **inputs; /* NULL entries: optional inputs left out (-1) */
    int num_inputs;
    TaTensor **outputs;
    int num_outputs;
    TaTensor **intermediates;
    int num_intermediates;
    /* Raw options from the model, decoded by the operator's parse hook. */
    int options_type;
    const uint8_t *options_buf; /* the model bytes and the table position */
    size_t options_buf_len;
    size_t options_pos; /* 0: no options table */
    const uint8_t *custom_options;
    size_t custom_options_size;

    /* Control-flow inlining (src/passes/inline_control_flow.c). */
    TaControl control;             /* a control-flow marker, or TA_CONTROL_NONE */
    struct TaTensor *control_cond; /* IF_BEGIN, LOOP_TEST: the bool tested */

    /* The graph transforms (src/passes/, transforms.h). */
    TaOpRewrites rewrites;
    bool removed; /* dropped by a pass */

    /* Lowering (src/lower/lower.c and the operator's file): its definition
       and the attributes its parse hook decoded from the options. */
    const struct TaOpDef *def; /* NULL: tinyaot has no lowering for it */
    void *attrs;               /* operator-specific, from the parse hook */
    /* Lowering: the code it runs. */
    TaOpLowered lowered;
    /* Lowering: hints to the planner, how output 0 may share an input's bytes. */
    TaOpPlanHints plan_hints;

    /* Row streaming: the chain the operator runs in, band by band, and its
       position there (src/passes/row_chains.c); NULL when it runs alone. */
    struct TaRowChain *row_chain;
    int row_chain_pos;

    /* The planner's placement rules (src/plan/rules.c, operators: rules). */
    int code_memory; /* TaMemory its code is linked into, or -1 */
} TaOp;

/* ORDER_FOR_PEAK's result (src/passes/order_for_peak.c); peaks are its
   model of the planner's scratch bytes. */
typedef struct TaOrderReport {
    bool searched;            /* the pass ran */
    bool complete;            /* the search covered every order (the result is proven) */
    bool changed;             /* the order differs from the model's */
    int states;               /* sets of operators the search visited */
    int64_t model_order_peak; /* the model's order */
    int64_t peak;             /* the order chosen */
} TaOrderReport;

/* Row streaming (docs/row-streaming.md): one step of a chain's schedule,
   fixed at conversion. A band: chain operator `op` computes output rows
   [out_row, out_row + out_rows) from `in_rows` input rows starting
   in_offset bytes into its input buffer (pad_top: the band's own), writing
   out_offset bytes into its output buffer. A move (op -1): move_bytes of
   buffer `buffer` from in_offset to out_offset, rows still to be read.
   A push (op TA_ROW_PUSH, chains with push_input only): the chain's input
   rows [in_row, in_row + in_rows) arrive at out_offset of buffer 0. */
enum { TA_ROW_MOVE = -1, TA_ROW_PUSH = -2 };
typedef struct TaRowStep {
    int op;
    int buffer;
    int out_row, out_rows;
    int in_row, in_rows, pad_top;
    size_t in_offset, out_offset, move_bytes;
    /* A step of a row loop (row_loops.c): what each repetition of its loop
       adds to its rows and offsets; 0 in chain->steps. */
    int out_row_step, in_row_step;
    size_t in_offset_step, out_offset_step;
    /* A band of an operator with a second input (a fused residual): its
       rows [out_row, out_row + out_rows), second_offset bytes into buffer
       chain->second_buffer[op] (a loop's step: second_offset_step more
       each repetition). */
    size_t second_offset, second_offset_step;
} TaRowStep;

/* Row loops: chain->loop_steps[first, first + count) run `repeats`
   times, repetition r with each step's rows and offsets advanced r times
   by its *_step fields: only offsets in the chain's input and output
   advance, by in_advance and out_advance rows of theirs. */
typedef struct TaRowLoop {
    int first, count, repeats;
    int in_advance, out_advance;
} TaRowLoop;

/* A chain of window operators (layers first_op .. first_op + num_ops - 1)
   run as one schedule; buffers[0] is the chain's input, buffers[num_ops]
   its output (whole tensors), the others row buffers. */
typedef struct TaRowChain {
    int first_op, num_ops;
    struct TaTensor **buffers;
    int *buffer_rows;           /* rows of each row buffer (1 .. num_ops - 1) */
    TaVec steps;                /* TaRowStep* */
    int calls, moves;           /* band calls and moves per run */
    int64_t moved_bytes;        /* bytes the moves copy per run */
    int64_t saved_bytes;        /* whole intermediates minus row buffers */
    int64_t added_instructions; /* estimate (row_chains.c) */
    /* A chain ending in an average pool over every row: its bands add row
       sums into `sums` (rows_call), then finish_call, in place of the
       pool's own call (plain_call) while the chain is on, writes the
       output; NULL otherwise. */
    struct TaKernelCall *rows_call, *finish_call, *plain_call;
    struct TaTensor *sums;
    /* A pool of more than one output row: the band that completes an
       output row's window writes it (finish_call on `sums`; the step's
       pad_top: that window's rows), not one finish_call at the end. */
    bool sums_per_row;
    /* The steps as loops, which the module runs (row_loops.c): expanded,
       exactly `steps`. */
    TaVec loop_steps; /* TaRowStep* */
    TaVec loops;      /* TaRowLoop* */
    /* Per operator: the buffer its window reads (k in a plain chain), and
       the buffer its second input, read row for row, lives in (-1: none),
       such as a fused residual held until the long branch reaches it
       (residual blocks: a chain is then a small DAG; buffer k + 1 is
       always operator k's output). */
    int *input_buffer, *second_buffer;
    /* Row-push input (module.input_rows: push): buffers[0]
       is a row buffer of buffer_rows[0] rows too, filled by push steps. */
    bool push_input;
    int pushes; /* push steps per run */
    /* Per buffer: the row buffer whose bytes it shares from their start
       (the planner's alias while the chain is on; src/passes/row_share.c),
       -1: bytes of its own. */
    int *shares;
} TaRowChain;

typedef struct TaGraph {
    int model_index; /* subgraph index in the model */
    const char *name;
    TaVec tensors; /* TaTensor* */
    TaVec ops;     /* TaOp* in execution order */
    TaVec inputs;  /* TaTensor* */
    TaVec outputs; /* TaTensor* */
    TaOrderReport order;
    TaVec row_chains; /* TaRowChain*, in execution order */
    /* The scratch arenas the planner made with the chains and without
       them (src/passes/row_plan.c); 0 when it did not plan both. */
    size_t row_arena_with, row_arena_without;
} TaGraph;

typedef struct TaMetadata {
    const char *name;
    const uint8_t *data;
    size_t size;
} TaMetadata;

typedef struct TaModel {
    const char *path;
    const uint8_t *bytes;
    size_t size;
    uint32_t version;
    const char *description;
    TaVec subgraphs; /* TaGraph* */
    TaVec metadata;  /* TaMetadata* */
} TaModel;

#define TA_TENSOR(g, i) ((TaTensor *)(g)->tensors.items[i])
#define TA_OP(g, i) ((TaOp *)(g)->ops.items[i])

/* graph.c */
/* The operand slots of operators not removed that read t (a tensor read
   by more than one cannot be rewritten in place). */
int ta_tensor_readers(const TaGraph *g, const TaTensor *t);
TaTensor *ta_graph_new_tensor(TaPool *pool, TaGraph *g, const char *id, TaDtype dtype, int rank,
                              const int32_t *dims);
const char *ta_op_describe(TaPool *pool, const TaOp *op); /* "operator 3 (CONV_2D)" */
/* How many of the operator's kernel calls have this role ("run", "init"). */
int ta_op_calls_with_role(const TaOp *op, const char *role);
/* Renumbers layer indices and tensor indices after a pass removed items. */
void ta_graph_compact(TaPool *pool, TaGraph *g);

/* dump.c: the graph as text after `pass`, one line per operator (and,
   once lowered, its local tensors and kernel calls). */
void ta_graph_dump(TaBuf *out, const TaGraph *g, const char *pass);
/* verify.c: stops tinyaot (ta_bug) when the graph after pass `after`
   breaks an invariant every pass keeps (debug builds run it after each). */
void ta_graph_verify(TaPool *pool, const TaGraph *g, const char *after);
/* row_band.c: the int32 scalar field `name` of `params` (a copy of the
   call's struct), or NULL; the top padding's field name; a copy of the
   call's struct narrowed to a band of rows (false: not a window kernel). */
int32_t *ta_params_int32(const TaKernelCall *call, void *params, const char *name);
const char *ta_row_band_pad_field(const TaKernelCall *call);
bool ta_row_band_params(const TaKernelCall *call, void *copy, int32_t in_rows, int32_t pad_top,
                        int32_t out_rows);
/* Turns a row chain on (its operators and row buffers marked, a summing
   pool's calls swapped) or off (as lowering left them). */
void ta_row_chain_mark(TaGraph *g, TaRowChain *chain, bool on);
/* row_band.c: whether a layer of the chain has a second input or a window
   on another buffer than the one before it (a residual block): its band
   functions then take a `second` pointer and its tables name the buffers. */
bool ta_row_chain_is_dag(const TaRowChain *chain);
/* row_band.c: whether the chain ends in a pool of one output row, summed
   band by band and written once at the end (<symbol>_finish). */
bool ta_row_chain_finishes_at_end(const TaRowChain *chain);
/* row_band.c: bytes in one row of chain buffer j (NHWC: width x depth). */
size_t ta_row_chain_row_bytes(const TaRowChain *chain, int j);
/* row_band.c: an elementwise kernel a chain runs on bands of rows (a
   separate ADD, SUB or MUL of two same-shaped tensors: one run of
   elements, rank 1; ADD, SUB, MUL or PRELU whose second operand is
   broadcast along the outermost dimension, a per-channel or scalar
   constant; an int8 activation or requantization of one): its elements,
   0 for any other call; whether it is a unary one; whether its second
   operand is broadcast (the same elements for every band); the elements
   one unit of its counting field covers (1 but for a broadcast one:
   the inner dimensions' product); that field ("dims[0]", "size"); and
   the parameters narrowed to `elements` (a band's rows times a row's
   elements). */
int32_t ta_row_band_elements(const TaKernelCall *call);
bool ta_row_band_is_unary(const TaKernelCall *call);
bool ta_row_band_is_broadcast(const TaKernelCall *call);
int32_t ta_row_band_unit(const TaKernelCall *call);
const char *ta_row_band_elements_field(const TaKernelCall *call);
bool ta_row_band_elementwise(const TaKernelCall *call, void *copy, int32_t elements);
/* The call a chain's operator k runs on each band. */
const TaKernelCall *ta_row_band_call(const TaGraph *g, const TaRowChain *chain, int k);
/* row_band.c: the band (input rows, top padding, output rows) operator k
   of the chain runs most often (the first of equals), when it runs one
   more than once and is a window layer that writes its output (not an
   elementwise layer, not a summing pool): its band function then passes
   its parameter struct, written for that band, without a copy. */
bool ta_row_band_usual(const TaGraph *g, const TaRowChain *chain, int k, int32_t *in_rows,
                       int32_t *pad_top, int32_t *out_rows);

/* row_band.c: the function a chain runs the call's bands through (a
   band: output rows times a row's pixels, one run), or NULL:
   ta_conv_2d_s8_pointwise_rows for ta_conv_2d_s8_interleaved,
   ta_conv_2d_s8_pointwise_triples_rows for
   ta_conv_2d_s8_pointwise_triples, of a 1x1 filter, stride 1, no padding,
   one image, rows as wide in as out, per-channel arrays. */
const char *ta_row_band_pointwise(const TaKernelCall *call);

/* params_text.c: the fields of a call's parameter struct in list order,
   but the zero ones its kernel ignores; `one_line` "name=value ..." for a
   dump, else one "    .name = value,\n" per field for a C initializer. */
void ta_params_text(TaBuf *b, const TaKernelCall *call, bool one_line);

#endif /* TA_IR_H */
