/*
 * yaml_tree.h - YAML documents as a small tree with source lines, read
 * with libyaml. Configuration, command-line values and target files all
 * become TaNode trees; config.c and target.c check them against what they
 * expect and report problems with the file and line.
 */
#ifndef TA_YAML_TREE_H
#define TA_YAML_TREE_H

#include "../util/util.h"

typedef enum { TA_NODE_SCALAR, TA_NODE_SEQUENCE, TA_NODE_MAP } TaNodeKind;

typedef struct TaNode {
    TaNodeKind kind;
    const char *origin;    /* file name, or "command line" */
    int line;              /* 1-based; 0 when not from a file */
    const char *scalar;    /* TA_NODE_SCALAR */
    bool quoted;           /* scalar was quoted: never a number or bool */
    struct TaNode **items; /* TA_NODE_SEQUENCE items, TA_NODE_MAP values */
    const char **keys;     /* TA_NODE_MAP keys, parallel to items */
    int *key_lines;
    int count;
    int cap;
} TaNode;

/* Parses YAML text (one document). NULL after reporting an error. An empty
   document gives an empty map. */
TaNode *ta_yaml_parse(TaPool *pool, TaDiag *d, const char *origin, const char *text, size_t len,
                      bool line_numbers);
TaNode *ta_yaml_load_file(TaPool *pool, TaDiag *d, const char *path);

TaNode *ta_node_map_get(const TaNode *map, const char *key);
void ta_node_map_set(TaPool *pool, TaNode *map, const char *key, TaNode *value);
TaNode *ta_node_new(TaPool *pool, TaNodeKind kind, const char *origin, int line);

/* "file:12" or "command line" for messages. */
const char *ta_node_where(TaPool *pool, const TaNode *n);

/* Scalar conversions; false when the text is not of that type. */
bool ta_scalar_bool(const TaNode *n, bool *out);
/* Decimal without leading zeros (010 is refused, not read as octal) or 0x hex. */
bool ta_scalar_int(const TaNode *n, int64_t *out);
bool ta_scalar_has_leading_zero(const TaNode *n);    /* "010", "-07": for the message */
bool ta_scalar_double(const TaNode *n, double *out); /* finite only: no nan, no inf */
bool ta_scalar_is_null(const TaNode *n);

#endif /* TA_YAML_TREE_H */
