/* model.h - reading LiteRT flatbuffers into a TaModel. */
#ifndef TA_MODEL_H
#define TA_MODEL_H

#include "../ir/ir.h"

/* Reads and validates a .tflite file. NULL (with one error) on bad input. */
TaModel *ta_read_tflite(TaPool *pool, TaDiag *diag, const char *path);
/* The same over bytes already in memory; `path` only names them in messages. */
TaModel *ta_read_tflite_bytes(TaPool *pool, TaDiag *diag, const char *path, const uint8_t *bytes,
                              size_t size);

/* "CONV_2D" for a builtin code, NULL if the schema has no such code. */
const char *ta_builtin_name(int builtin);
/* The BuiltinOptions union member name for a type code, or NULL. */
const char *ta_builtin_options_name(int type);

#endif /* TA_MODEL_H */
