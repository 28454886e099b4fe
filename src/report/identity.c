/*
 * identity.c - the module's identity (identity.h).
 */
#include "identity.h"

TaModuleIdentity ta_module_identity(TaPool *pool, const TaConfig *config, const TaModel *model,
                                    const TaGraph *graph, const TaPlan *plan)
{
    TaModuleIdentity id = {
        .model_name = config->model_name,
        .model_description = config->model_description,
        .model_version = config->model_version ? config->model_version
                                               : ta_format(pool, "%u", model->version),
        .compiler_version = tinyaot_version(),
        .plan_hash = ta_plan_hash(pool, graph, plan),
    };
    id.plan_hash_hex = ta_format(pool, "0x%016llx", (unsigned long long)id.plan_hash);
    return id;
}

const tinyaot_module_identity *ta_build_identity(TaPool *pool, const TaConfig *config,
                                                 const TaModel *model, const TaGraph *graph,
                                                 const TaPlan *plan)
{
    TaModuleIdentity id = ta_module_identity(pool, config, model, graph, plan);
    tinyaot_module_identity *out = ta_alloc(pool, sizeof *out);
    *out = (tinyaot_module_identity){
        ta_strdup(pool, id.model_name), ta_strdup(pool, id.model_description),
        ta_strdup(pool, id.model_version), ta_strdup(pool, id.compiler_version), id.plan_hash};
    return out;
}
