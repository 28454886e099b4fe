/*
 * tinyaot.h - the public C API of the tinyaot compiler.
 *
 * One call converts a LiteRT model into a C module directory and, when
 * asked, describes what it generated ("views"): the operators in
 * execution order, the tensors in the order of <prefix>_tensor_ident_t,
 * the arena regions in the order of <prefix>_arena_region_t and where each
 * tensor is placed. The views are plain structs; none exposes the
 * compiler's internal graph.
 *
 * Ownership: tinyaot_convert() allocates the result; every pointer in it
 * stays valid until tinyaot_result_free(). Nothing in it is to be freed
 * or modified by the caller.
 */
#ifndef TINYAOT_H
#define TINYAOT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TINYAOT_VERSION "0.1.0"
/* The layout of the structs below: raised whenever a field is added or
   moved, so that a binding written for another layout (python/tinyaot)
   refuses the library instead of reading past its structs. */
#define TINYAOT_ABI_VERSION 6

/* Marks the library's entry points: libtinyaot is built with hidden
   visibility, so these four functions are all it exports. */
#if defined(__GNUC__)
#define TINYAOT_API __attribute__((visibility("default")))
#else
#define TINYAOT_API
#endif

typedef enum {
    TINYAOT_OK = 0,
    TINYAOT_ERROR_CONFIG = 1,      /* configuration file or keys */
    TINYAOT_ERROR_MODEL = 2,       /* unreadable or malformed model file */
    TINYAOT_ERROR_UNSUPPORTED = 3, /* operators or configurations tinyaot lacks */
    TINYAOT_ERROR_PLAN = 4,        /* placement rules, budgets, targets */
    TINYAOT_ERROR_OUTPUT = 5,      /* writing the module */
    TINYAOT_ERROR_ARGUMENT = 6,    /* bad arguments to this API */
    TINYAOT_ERROR_MEMORY = 7       /* the host ran out of memory */
} tinyaot_status;

/* Diagnostic levels passed to the diagnostic callback. The last three are
   progress messages, sent only when args.verbose asks for them: STAGE at
   verbose >= 1 (each stage of the conversion), DEBUG at >= 2 (what each
   stage decided, and its time), DETAIL at >= 3 (one line per operator). */
enum {
    TINYAOT_DIAG_ERROR = 0,
    TINYAOT_DIAG_WARNING = 1,
    TINYAOT_DIAG_NOTE = 2,
    TINYAOT_DIAG_STAGE = 3,
    TINYAOT_DIAG_DEBUG = 4,
    TINYAOT_DIAG_DETAIL = 5
};

/* A configuration key and its value, as on the command line:
   {"memory.dump_residency_json", "true"}. Values are YAML. */
typedef struct tinyaot_option {
    const char *key;
    const char *value;
} tinyaot_option;

typedef struct tinyaot_args {
    const char *config_path;       /* YAML file, or NULL */
    const tinyaot_option *options; /* override keys of the file */
    size_t num_options;
    int strict;       /* warnings (e.g. unmatched rules) are errors */
    int result_views; /* fill the views in the result */
    /* Receives each message (one line, no newline); NULL prints to stderr. */
    void (*diagnostic)(void *user, int level, const char *message);
    void *user;
    /* Replace module.path even if it is not a module tinyaot wrote (a
       module is recognised by its .tinyaot-module marker and untouched
       files). Even so, module.path may never be `/`, the working or home
       directory, or contain the model, the configuration or the target
       file; symbolic links are replaced, never followed. Added after
       0.1.0's first layout: code built against an older header (or older
       Python bindings) must be rebuilt, or this field is read past its
       struct. */
    int force;
    /* Debugging: prints the graph to stdout after the named pass, one line
       per operator (`tinyaot convert --dump-after PASS`): "read", "check",
       a transform ("FUSE_ACTIVATIONS", ...), "lower" or "drop_dead".
       NULL: no dump. Added after force (rebuild, as above). */
    const char *dump_after;
    /* Progress messages through `diagnostic` (TINYAOT_DIAG_STAGE and up):
       0 none (errors, warnings and notes only), 1 stages, 2 debug, 3
       per-operator details (`tinyaot convert --verbose N`). Added after
       dump_after (ABI version 3; rebuild, as above). */
    int verbose;
} tinyaot_args;

/* One kernel function an operator's code calls, keyed by role ("run"). */
typedef struct tinyaot_kernel_call {
    const char *role;
    const char *function;
} tinyaot_kernel_call;

/* OperatorView: one generated operator, in execution order. */
typedef struct tinyaot_operator_view {
    int layer_index;           /* position in execution order, from 0 */
    const char *symbol;        /* <prefix>_<type>_<id> */
    const char *type;          /* e.g. "CONV_2D" (the type generated) */
    const int *source_indices; /* model operator indices it came from */
    size_t num_source_indices;
    const char *const *input_ids; /* tensors it reads, operand order */
    size_t num_input_ids;
    const char *const *output_ids; /* tensors it writes, operand order */
    size_t num_output_ids;
    const char *const *local_tensor_ids; /* its own tensors, as lowered */
    size_t num_local_tensor_ids;
    int has_kernel_calls; /* 0: the operator does not record calls (None) */
    const tinyaot_kernel_call *kernel_calls;
    size_t num_kernel_calls;
    int has_macs; /* 0: no defined count (None) */
    int64_t macs;
    int has_parameters; /* 0: None */
    int64_t parameters;
} tinyaot_operator_view;

/* QuantizationView: real = (q - zero_point) * scale. */
typedef struct tinyaot_quantization_view {
    const double *scale;
    size_t num_scales;
    const int64_t *zero_point; /* empty when the model gives none */
    size_t num_zero_points;
    int axis;
} tinyaot_quantization_view;

/* TensorView: one tensor of the module, in <prefix>_tensor_ident_t order. */
typedef struct tinyaot_tensor_view {
    const char *id;
    const char *name; /* NULL: unnamed or created by the conversion */
    const int64_t *shape;
    size_t rank;
    const char *dtype;                             /* NumPy name, "int8" */
    const char *ctype;                             /* C type, "int8_t" */
    const tinyaot_quantization_view *quantization; /* NULL: no scale */
    const char *kind; /* "input", "output", "constant", "persistent", "scratch" */
    int input_index;  /* -1: None */
    int output_index; /* -1: None */
    int64_t nbytes;   /* bytes the plan allocated for it */
    /* The model tensor's index: its own, or for a constant made from one
       (re-laid-out weights, a folded bias) that tensor's; -1: None. */
    int model_tensor;
    /* Constants: how the module stores the bytes ("int4": packed two values
       a byte, read in place by the kernels; "dense": as dtype) and what they
       take as the dense dtype; NULL and -1 for other tensors. */
    const char *stored_format;
    int64_t dense_nbytes;
} tinyaot_tensor_view;

/* RegionView: one arena region, in <prefix>_arena_region_t order. */
typedef struct tinyaot_region_view {
    int id;
    const char *memory;        /* where operators access it: "DTCM" */
    const char *source_memory; /* staged constants: copied from; else = memory */
    const char *role;          /* "scratch", "persistent", "constant" */
    int64_t offset;            /* address-zero guard before the first usable byte */
    int64_t size;              /* usable bytes */
    int64_t alignment;
    const char *symbol;        /* NULL when the application binds it */
    const char *source_symbol; /* staged: the source blob, else NULL */
    int64_t source_offset;
    const char *sidecar_file; /* caller-supplied constant region's .bin, else NULL */
} tinyaot_region_view;

/* PlacementView: where one tensor lives; `tensor_id` is its key. */
typedef struct tinyaot_placement_view {
    const char *tensor_id;
    int region; /* -1: None (a tensor with no elements) */
    int64_t offset;
    int64_t size;
    const char *source_memory;
    int staged;
} tinyaot_placement_view;

/* What identifies the module (the header's identity block): model.name,
   model.description, model.version (default: the schema version the file
   records), tinyaot's version and the plan hash (<PREFIX>_PLAN_HASH). */
typedef struct tinyaot_module_identity {
    const char *model_name;
    const char *model_description;
    const char *model_version;
    const char *compiler_version;
    uint64_t plan_hash;
} tinyaot_module_identity;

typedef struct tinyaot_result {
    tinyaot_status status;
    const char *module_path;        /* where the module was written, or NULL */
    const char *const *diagnostics; /* every message, in order */
    size_t num_diagnostics;
    /* Views; empty unless args.result_views was set and the conversion succeeded. */
    const tinyaot_operator_view *operators;
    size_t num_operators;
    const tinyaot_tensor_view *tensors;
    size_t num_tensors;
    const tinyaot_region_view *regions;
    size_t num_regions;
    const tinyaot_placement_view *placements; /* one per tensor, in tensor order */
    size_t num_placements;
    /* Per region: most scratch bytes live at once (-1 for other roles). */
    const int64_t *region_lower_bounds;
    /* Added after the first layout: per operator and per memory figures
       (see tinyaot_analyze below); NULL when not asked for. */
    const struct tinyaot_analysis *analysis;
    /* Added in ABI version 3: set with the views; NULL otherwise. */
    const tinyaot_module_identity *identity;
} tinyaot_result;

/* Converts; always sets *result (even on failure, for its diagnostics),
   except when not even the result can be allocated: then *result is NULL
   and the status TINYAOT_ERROR_MEMORY. */
TINYAOT_API tinyaot_status tinyaot_convert(const tinyaot_args *args, tinyaot_result **result);
TINYAOT_API void tinyaot_result_free(tinyaot_result *result);
/* The placement of a tensor by id, or NULL. */
TINYAOT_API const tinyaot_placement_view *tinyaot_result_placement(const tinyaot_result *result,
                                                                   const char *tensor_id);
TINYAOT_API const char *tinyaot_version(void);
/* TINYAOT_ABI_VERSION of the library's own build. */
TINYAOT_API int tinyaot_abi_version(void);

/* ---- Analysis, configuration keys and platforms ---------------------------
   Added after the first layout of tinyaot_result: `analysis` is its last
   member, so code built against the older header reads the older members
   unchanged. */

/* One configuration key exactly as the loader accepts it; "[]" stands
   for any element of a list ("memory.tensors[].attributes.memory"). */
typedef struct tinyaot_config_key {
    const char *key;
    const char *type;
    const char *default_value;
    const char *meaning; /* one line */
} tinyaot_config_key;

/* Every key, in the order of the documentation; static storage. */
TINYAOT_API const tinyaot_config_key *tinyaot_config_keys(size_t *count);

/* Per operator, parallel to tinyaot_result.operators. */
typedef struct tinyaot_operator_analysis {
    int64_t scratch_live;      /* bytes of scratch tensors (every memory) live while it runs */
    int64_t output_bytes;      /* bytes of its outputs */
    const char *output_memory; /* memory of its first output, NULL when it takes none */
    /* Stack bytes its deepest kernel needs (kernel_stack_basis says how
       they are measured); the arenas do not hold these. */
    int64_t kernel_stack_m55;
    int64_t kernel_stack_m4;
    /* Multiply-accumulates per inference: the view's macs where the views
       spec defines them, else tinyaot's own count (UNIDIRECTIONAL_SEQUENCE_LSTM
       and SVDF: one per weight for each row it multiplies); has_macs 0: none. */
    int has_macs;
    int64_t macs;
} tinyaot_operator_analysis;

/* Per memory of the target. Bytes include guards and alignment padding. */
typedef struct tinyaot_memory_summary {
    const char *memory;          /* "DTCM" */
    int usable;                  /* the planner may use it (memory.constraints) */
    int64_t scratch;             /* the scratch arena */
    int64_t scratch_lower_bound; /* most scratch bytes live at once, there */
    int64_t persistent;
    int64_t constants;      /* constants read in place */
    int64_t staged;         /* constants copied here at init */
    int64_t staged_sources; /* source blobs of constants staged elsewhere */
    int64_t used;           /* all of it */
    int64_t budget;         /* memory.constraints max_size, else the capacity */
    int64_t free;           /* budget - used */
} tinyaot_memory_summary;

/* A row chain (memory.row_streaming, docs/row-streaming.md): layers
   first_layer..last_layer run band by band, their intermediates in row
   buffers. */
typedef struct tinyaot_row_chain {
    int first_layer, last_layer;
    int64_t ram_saved;             /* whole intermediates' bytes minus the row buffers' */
    int calls, moves;              /* band calls and row moves per inference */
    int64_t moved_bytes;           /* bytes the moves copy per inference */
    int64_t added_instructions;    /* estimate: the extra calls and the moves */
    size_t num_buffers;            /* row buffers: last_layer - first_layer */
    const char *const *buffer_ids; /* tensor ids */
    const int *buffer_rows;        /* rows each keeps */
    const int *buffer_heights;     /* of the tensor's rows */
    const int64_t *buffer_bytes;
    /* Per row buffer: the layers reading it, as a window or row for row
       (2: a residual block's input, read by its long branch and as the
       residual); which layer reads it as a residual, -1: none. */
    const int *buffer_readers;
    const int *buffer_residual_of;
    /* Per row buffer: the id of the row buffer whose bytes it shares (their
       rows are never live at one step), NULL: bytes of its own. */
    const char *const *buffer_shares;
} tinyaot_row_chain;

typedef struct tinyaot_analysis {
    const char *platform;                       /* target name */
    const tinyaot_operator_analysis *operators; /* num_operators entries */
    const tinyaot_memory_summary *memories;     /* target memories, TaMemory order */
    size_t num_memories;
    int64_t total_macs;
    /* Flash estimate in bytes; see flash_basis for how it is made. */
    int64_t flash_code;      /* generated operator and model code */
    int64_t flash_kernels;   /* runtime kernels the module uses */
    int64_t flash_constants; /* constant blobs stored in flash-like memory */
    int64_t flash_total;
    const char *flash_basis; /* one line: what the estimate measures */
    /* Operators tinyaot cannot convert, one message each (empty when
       every operator is supported; then the views are filled). */
    const char *const *unsupported;
    size_t num_unsupported;
    /* The most stack any one operator's kernels need, on Cortex-M55 and
       Cortex-M4, and the layer index of that operator (-1: none). */
    int64_t kernel_stack_m55;
    int64_t kernel_stack_m4;
    int kernel_stack_layer;
    const char *kernel_stack_basis; /* one line: how the figures are measured */
    /* Added later, parallel to `memories`: the planner whose offsets the
       memory's scratch arena has (memory.planner; "greedy" when exact
       stopped at its node limit with nothing better; NULL: no scratch
       there), and whether that arena is proven minimal (1) or not (0). */
    const char *const *scratch_planners;
    const int *scratch_proven;
    /* Runtime sources the module uses that have no size measured for the
       target's core (scripts/flash_sizes.py): left out of flash_kernels. */
    const char *const *flash_unmeasured;
    size_t num_flash_unmeasured;
    /* Added in ABI version 5, parallel to `operators` (transform
       SPARSE_CHANNELS, docs/design.md, "Pruned models"): output channels
       the operator no longer computes, and constant input channels folded
       into its bias. */
    const int *channels_removed;
    const int *channels_folded;
    /* Added in ABI version 6: the row chains, in execution order. */
    const tinyaot_row_chain *row_chains;
    size_t num_row_chains;
    /* The scratch arenas (every memory) planned with the chains and
       without them; 0 when the conversion found no chain to try. */
    int64_t row_arena_with, row_arena_without;
} tinyaot_analysis;

/* Runs the conversion's pipeline up to (not including) writing the module:
   reads the same configuration (module.path is not needed), writes
   nothing, and always sets *result; result->analysis is set when the
   model was read, result->module_path is NULL. The views are filled when
   the status is TINYAOT_OK. tinyaot_convert() also fills `analysis` when
   args.result_views is set. */
TINYAOT_API tinyaot_status tinyaot_analyze(const tinyaot_args *args, tinyaot_result **result);

/* A target's memory, as `tinyaot platforms NAME` shows it. */
typedef struct tinyaot_platform_memory {
    const char *name; /* "DTCM" */
    uint64_t base;
    uint64_t capacity;
    int writable;
    int executable;
    int is_volatile;
    const char *bss_section; /* NULL: none */
    const char *data_section;
    const char *code_section;
} tinyaot_platform_memory;

typedef struct tinyaot_platform {
    tinyaot_status status;
    const char *name;
    const char *description;
    const char *core;
    const char *origin; /* file it came from ("<built-in>/targets/host.yaml") */
    int64_t min_alignment;
    const tinyaot_platform_memory *memories;
    size_t num_memories;
    const char *const *spill_order; /* memory names */
    size_t num_spill;
    const char *const *diagnostics;
    size_t num_diagnostics;
} tinyaot_platform;

#define TINYAOT_PLATFORM_NAME_MAX 64
/* Writes the names of the built-in targets, sorted, into names[0..max-1]
   and returns how many there are (call with max 0 to count). */
TINYAOT_API size_t tinyaot_platform_names(char (*names)[TINYAOT_PLATFORM_NAME_MAX], size_t max);
/* Loads a built-in target by name or a target YAML file by path; always
   sets *platform (free it with tinyaot_platform_free). */
TINYAOT_API tinyaot_status tinyaot_platform_load(const char *name, tinyaot_platform **platform);
TINYAOT_API void tinyaot_platform_free(tinyaot_platform *platform);

#ifdef __cplusplus
}
#endif

#endif /* TINYAOT_H */
