/*
 * custom_operators.h - the configuration's custom_operators entries: the
 * user's own operators, each a custom code of the model, the C files of its
 * kernel, what its outputs must be and the scratch it needs
 * (docs/custom-operators.md).
 */
#ifndef TA_CUSTOM_OPERATORS_H
#define TA_CUSTOM_OPERATORS_H

#include "yaml_tree.h"

#define TA_CUSTOM_MAX_RANK 8

/* A file of the kernel, copied byte for byte to custom/<name> in the module. */
typedef struct TaCustomFile {
    const char *path; /* as resolved from the configuration */
    const char *name; /* its file name, the one under custom/ */
} TaCustomFile;

/* What one output must be: its shape and dtype, each either that of an
   input (`same_as_input_<N>`) or written out. */
typedef struct TaCustomOutput {
    const char *where;
    int shape_input; /* >= 0: the shape of that input; -1: rank and dims */
    int rank;
    int32_t dims[TA_CUSTOM_MAX_RANK];
    int dtype_input; /* >= 0: the dtype of that input; -1: dtype */
    int dtype;       /* LiteRT TensorType number */
} TaCustomOutput;

typedef struct TaCustomOperator {
    const char *where; /* "file:line" of the entry */
    const char *code;  /* as written: the model's custom_code */
    const char *key;   /* the canonical key: upper case, '-' and ' ' as '_' */
    const char *function;
    TaVec sources; /* TaCustomFile* (.c) */
    TaVec headers; /* TaCustomFile* (.h) */
    TaCustomOutput *outputs;
    int num_outputs;
    uint32_t scratch_bytes;
} TaCustomOperator;

/* The canonical key of a custom code, as helia-aot's custom_code_to_op_key
   makes it; NULL (and *why set) when the code has a character a C
   identifier cannot hold or no letter or digit. */
const char *ta_custom_code_key(TaPool *pool, const char *code, const char **why);

/* Reads one checked entry (its keys are known) of custom_operators;
   `path` is "custom_operators[2]", `config_dir` resolves relative file
   names (NULL: the working directory). Reports every problem; NULL if
   there was any. */
TaCustomOperator *ta_custom_operator_load(TaPool *pool, TaDiag *d, const TaNode *entry,
                                          const char *path, const char *config_dir);

/* Problems between entries: two entries for one key, two different files
   copied under the same name. */
bool ta_custom_operators_check(TaDiag *d, const TaVec *operators);

/* The entry for an operator's custom code (compared by canonical key), or NULL. */
const TaCustomOperator *ta_custom_operator_find(TaPool *pool, const TaVec *operators,
                                                const char *custom_code);

#endif /* TA_CUSTOM_OPERATORS_H */
