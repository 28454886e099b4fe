/*
 * config.h - the conversion's configuration: a YAML file (--config) with
 * dotted command-line keys laid over it, checked into a TaConfig.
 */
#ifndef TA_CONFIG_H
#define TA_CONFIG_H

#include "yaml_tree.h"

/* A memory.tensors or operators entry. */
typedef struct TaRule {
    int index;         /* position in its list, for messages */
    const char *where; /* "file:line" of the entry */
    const char *type;  /* NULL: any kind / any operator type */
    const char **ids;  /* NULL: any id */
    int num_ids;
    const char **names; /* memory.tensors: fnmatch patterns of names; NULL: any name */
    int num_names;
    /* Attributes; NULL when the rule does not set them. */
    const char *memory;
    const char *constant_destination_memory;
    const char *code_placement;
    const char *scratch_placement;
    bool matched; /* set by the planner */
} TaRule;

typedef struct TaConstraint {
    const char *where;
    const char *name;
    bool has_max_size;
    uint64_t max_size;
    bool has_alignment;
    uint64_t arena_alignment;
} TaConstraint;

typedef struct TaTransformSetting {
    const char *name;
    bool enabled;
} TaTransformSetting;

/* What module.path names: a directory, or an archive of the module
   written in one piece (module_archive.c). */
typedef enum {
    TA_ARCHIVE_NONE, /* a directory */
    TA_ARCHIVE_ZIP,  /* ".zip": the module's files under <module.name>/ */
    TA_ARCHIVE_PACK  /* ".pack": a CMSIS-Pack, the .pdsc at the top */
} TaModuleArchive;

/* A memory.planner_options entry; planner_names.c knows the keys. */
typedef struct TaPlannerOptionSetting {
    const char *name;
    uint64_t value;
} TaPlannerOptionSetting;

typedef struct TaConfig {
    const char *config_path; /* the --config file, or NULL */
    bool force;              /* --force: replace module.path even if tinyaot did not write it */
    const char *model_path;
    int model_subgraph;
    /* model.name, model.description, model.version: recorded in the module
       (emit_identity.c); model_version NULL: the schema version of the file. */
    const char *model_name;
    const char *model_description;
    const char *model_version;
    const char *module_path;       /* without trailing '/' */
    TaModuleArchive archive;       /* module.path ends in .zip or .pack */
    const char *module_path_where; /* "file:line" of module.path, for messages */
    const char *module_name;
    const char *module_prefix;
    const char *module_type;     /* "cmake" | "zephyr" | "make" | "cmsis_pack" */
    const char *module_schedule; /* "calls" | "table" */
    const char *platform_name;
    const char *memory_planner; /* a name planner_names.c knows: "exact" */
    TaVec planner_options;      /* TaPlannerOptionSetting*, checked against the planner */
    bool dump_residency_json;
    bool allocate_arenas;
    bool output_over_input;             /* use the lowerings' overlap leads */
    bool keep_inputs;                   /* model inputs live to the end of a run */
    uint64_t overlap_test_shortfall;    /* tests: bytes closer than the lead */
    const char *overlap_test_direction; /* tests: "auto" | "below" | "above" */
    const char *row_streaming;          /* "auto" | "off" | "least_ram" (row_streaming.c) */
    /* tests: rows taken off each row buffer */
    uint64_t row_streaming_test_shortfall;
    bool row_streaming_test_share_all; /* tests: every row buffer in the largest's bytes */
    /* tests: rows' bytes shared from one step before their last read */
    bool row_streaming_test_share_early;
    bool row_streaming_test_unchecked; /* tests: a read of a lost row only warns */
    bool row_streaming_loops;          /* memory.row_streaming_loops (row_loops.c) */
    bool push_input_rows;              /* module.input_rows: push (row_streaming.c) */
    bool auto_hydrate_constants_given;
    TaVec tensor_rules;     /* TaRule* */
    TaVec operator_rules;   /* TaRule* */
    bool has_constraints;   /* an explicit list: the complete set of usable memories */
    TaVec constraints;      /* TaConstraint* */
    TaVec custom_operators; /* TaCustomOperator* (custom_operators.h) */
    TaVec transforms;       /* TaTransformSetting*, as given */
    bool transforms_exact;  /* given as a list: exactly these run */
    /* weights.format: "auto" | "packed" | "table" | "dense" (passes/int4_weights.c,
       lower/weight_table.c);
       weights.dense: tensors (names, globs or ids) stored dense anyway. */
    const char *weights_format;
    const char **weights_dense;
    int num_weights_dense;
    /* documentation.html: write <prefix>_documentation.html (emit_html.c) */
    bool documentation_html;
    bool test_enabled;
    double test_tolerance;
    uint64_t test_max_loop_iterations; /* the host executor's bound on WHILE loops */
    TaVec test_inputs;                 /* const char* per model input: raw bytes, or empty */
    TaVec test_outputs;                /* const char* per model output */
} TaConfig;

/*
 * Builds the configuration from an optional YAML file and command-line
 * overrides (`keys[i]` is a dotted key such as "memory.dump_residency_json",
 * `values[i]` its text, parsed as YAML). Reports every problem found; NULL
 * if there was any.
 */
TaConfig *ta_config_load(TaPool *pool, TaDiag *d, const char *config_path, const char *const *keys,
                         const char *const *values, int count);
/* The same; `need_module_path` false for analysis, which writes nothing.
   Relative model.path, module.path and platform.name (a path) given in
   the file resolve from the file's folder; on the command line, from the
   working directory. */
TaConfig *ta_config_load_ex(TaPool *pool, TaDiag *d, const char *config_path,
                            const char *const *keys, const char *const *values, int count,
                            bool need_module_path);

/* The canonical memory names; index = TaMemory. */
typedef enum {
    TA_MEM_ITCM,
    TA_MEM_DTCM,
    TA_MEM_SRAM,
    TA_MEM_PSRAM,
    TA_MEM_MRAM,
    TA_MEM_DRAM,
    TA_MEM_COUNT
} TaMemory;
const char *ta_memory_name(int memory);  /* "DTCM" */
const char *ta_memory_lower(int memory); /* "dtcm" */
int ta_memory_parse(const char *name);   /* -1 if unknown */

/* Closest candidate to `word` by edit distance, or NULL if none is close. */
const char *ta_suggest(const char *word, const char *const *candidates, int count);

#endif /* TA_CONFIG_H */
