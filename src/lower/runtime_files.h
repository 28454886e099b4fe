/*
 * runtime_files.h - the runtime files a lowered graph needs (see
 * runtime_files.c).
 */
#ifndef TA_RUNTIME_FILES_H
#define TA_RUNTIME_FILES_H

#include "../ir/ir.h"

/* Every runtime file a module of `graph` needs (the kernels its calls
   name and what they include), sorted: what the module copies and what
   analysis sizes. */
bool ta_runtime_files(TaPool *pool, TaDiag *diag, const TaGraph *graph, TaVec *files);

#endif /* TA_RUNTIME_FILES_H */
