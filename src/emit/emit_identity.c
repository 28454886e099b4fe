/*
 * emit_identity.c - the module's identity block (emit_identity.h): model
 * name, description and version, compiler version and plan hash.
 */
#include "emit_identity.h"

#include "../util/template.h"
#include "escape.h"

static TaModuleIdentity identity_of(const TaEmitInput *in)
{
    return ta_module_identity(in->pool, in->config, in->model, in->graph, in->plan);
}

void ta_emit_identity_header(const TaEmitInput *in, const TaFields *fields, TaBuf *b)
{
    TaModuleIdentity id = identity_of(in);
    TaFields f = ta_fields(in->pool, fields);
    ta_field(&f, "name", ta_escape_c_string(in->pool, id.model_name));
    ta_field(&f, "description", ta_escape_c_string(in->pool, id.model_description));
    ta_field(&f, "version", ta_escape_c_string(in->pool, id.model_version));
    ta_field(&f, "compiler", ta_escape_c_string(in->pool, id.compiler_version));
    ta_field(&f, "hash", id.plan_hash_hex);
    ta_template(
        b, &f,
        "/* ---- Module identity ------------------------------------------------------\n"
        "   The model (model.name, model.description, model.version), the tinyaot that\n"
        "   wrote this module, and a hash of its plan: every region, tensor placement\n"
        "   and kernel call. ${prefix}_plan_hash is the same value compiled into the\n"
        "   module: firmware built against this header checks\n"
        "   `${prefix}_plan_hash == ${PREFIX}_PLAN_HASH` to know it links this plan. */\n"
        "#define ${PREFIX}_MODEL_NAME $name\n"
        "#define ${PREFIX}_MODEL_DESCRIPTION $description\n"
        "#define ${PREFIX}_MODEL_VERSION $version\n"
        "#define ${PREFIX}_COMPILER_VERSION $compiler\n"
        "#define ${PREFIX}_PLAN_HASH UINT64_C($hash)\n"
        "extern const uint64_t ${prefix}_plan_hash;\n"
        "/* ---- end of module identity ---------------------------------------------- */\n\n");
}

void ta_emit_identity_source(const TaEmitInput *in, const TaFields *fields, TaBuf *b)
{
    (void)in;
    ta_template(b, fields,
                "\n/* The plan this module holds (see ${PREFIX}_PLAN_HASH in the header). */\n"
                "const uint64_t ${prefix}_plan_hash = ${PREFIX}_PLAN_HASH;\n");
}

void ta_emit_identity_json(const TaEmitInput *in, TaJson *j)
{
    TaModuleIdentity id = identity_of(in);
    ta_json_key(j, "model_name");
    ta_json_string(j, id.model_name);
    ta_json_key(j, "model_description");
    ta_json_string(j, id.model_description);
    ta_json_key(j, "model_version");
    ta_json_string(j, id.model_version);
    ta_json_key(j, "compiler_version");
    ta_json_string(j, id.compiler_version);
    /* A string: JSON numbers lose the low bits of a 64-bit value in many readers. */
    ta_json_key(j, "plan_hash");
    ta_json_string(j, id.plan_hash_hex);
}
