/*
 * emit_identity.h - what identifies a module: the model's name,
 * description and version (model.*), the compiler's version and the plan
 * hash (report/identity.h computes them). The public header gets them as
 * macros in one block, <prefix>_model.c a linked copy of the hash, and the
 * views and the residency report the same values.
 */
#ifndef TA_EMIT_IDENTITY_H
#define TA_EMIT_IDENTITY_H

#include "emit.h"

#include "../report/identity.h"

/* The macro block of the public header and the definition in <prefix>_model.c. */
void ta_emit_identity_header(const TaEmitInput *in, const struct TaFields *fields, TaBuf *b);
void ta_emit_identity_source(const TaEmitInput *in, const struct TaFields *fields, TaBuf *b);
/* "model_name", ..., "plan_hash" as keys of the JSON object being written. */
void ta_emit_identity_json(const TaEmitInput *in, TaJson *j);

#endif
