/*
 * identity.h - what identifies a module: the model's name, description and
 * version (model.*; the version defaults to the schema version the file
 * records), tinyaot's version and the plan hash (plan/plan_hash.c). The
 * header, the views, the residency report and the C API's result all take
 * them from here.
 */
#ifndef TA_REPORT_IDENTITY_H
#define TA_REPORT_IDENTITY_H

#include "../../include/tinyaot/tinyaot.h"
#include "../config/config.h"
#include "../plan/plan.h"

typedef struct TaModuleIdentity {
    const char *model_name;
    const char *model_description;
    const char *model_version; /* model.version, else the file's schema version */
    const char *compiler_version;
    uint64_t plan_hash;
    const char *plan_hash_hex; /* "0x" and 16 hex digits */
} TaModuleIdentity;

TaModuleIdentity ta_module_identity(TaPool *pool, const TaConfig *config, const TaModel *model,
                                    const TaGraph *graph, const TaPlan *plan);
/* The same for the C API's result, allocated in `pool`. */
const tinyaot_module_identity *ta_build_identity(TaPool *pool, const TaConfig *config,
                                                 const TaModel *model, const TaGraph *graph,
                                                 const TaPlan *plan);

#endif
