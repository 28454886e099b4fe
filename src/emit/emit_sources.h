/*
 * emit_sources.h - what the writers of the module's C sources share
 * (ta_emit_sources in emit_sources.c calls them, one file each):
 *
 *   <prefix>_model.h       emit_model_h.c
 *   <prefix>_internal.h    emit_internal_h.c
 *   <prefix>_model.c       emit_model_c.c, with emit_model_binding.c and
 *                          emit_model_schedule.c
 *   <prefix>_constants.c, <prefix>_arenas.c   emit_constants_arenas.c
 *   ops/<symbol>.c         emit_op_files.c
 *   the names they use     emit_names.c
 *
 * Tensor addresses are written as "region base + offset", once, in the
 * internal header, under a name operators pass (KWS_T30_RELU). With own
 * arenas the base is the arena object itself, a link-time constant; with
 * caller-supplied arenas it is the pointer bound for that region. Text is
 * written with named-field templates (util/template.h): ${prefix} and
 * ${PREFIX} everywhere, other fields per template.
 */
#ifndef TA_EMIT_SOURCES_H
#define TA_EMIT_SOURCES_H

#include "../util/template.h"
#include "emit.h"

/* One module's facts, set once by ta_emit_sources. */
typedef struct TaSourcesCtx {
    const TaEmitInput *in;
    TaPool *pool;
    const char *p; /* prefix */
    const char *P; /* PREFIX */
    bool own;      /* memory.allocate_arenas */
    bool staged;   /* some constant region is staged */
    bool table;    /* module.schedule: table */
    int num_regions;
    TaFields fields;              /* prefix, PREFIX */
    const char **tensor_pointers; /* by tensor index: ta_sources_tensor_pointers */
    /* By layer and call: the parameter struct the call passes (its own or
       an earlier layer's identical one), and whether later layers pass its
       own (ta_sources_share_params). */
    const char ***params_name;
    bool **params_exported;
} TaSourcesCtx;

/* Names (emit_names.c). */
TaRegion *ta_sources_region(const TaSourcesCtx *c, int i);
/* "TA_SECTION(\"<section>\") " for data (or bss) in `memory`; "" when the
   target gives it no section. */
const char *ta_sources_section(const TaSourcesCtx *c, int memory, bool data);
/* The expression for a region's first usable byte. */
const char *ta_sources_region_base(const TaSourcesCtx *c, const TaRegion *r);
const char **ta_sources_tensor_pointers(const TaSourcesCtx *c);
const char *ta_sources_tensor_ptr(const TaSourcesCtx *c, const TaTensor *t);
/* emit_shared_params.c: sets params_name and params_exported. */
void ta_sources_share_params(TaSourcesCtx *c);

/* The files, each appended to `b`; the operator file written to `dir`. */
void ta_emit_model_h(const TaSourcesCtx *c, TaBuf *b);
void ta_emit_internal_h(const TaSourcesCtx *c, TaBuf *b);
void ta_emit_model_c(const TaSourcesCtx *c, TaBuf *b);
void ta_emit_constants_c(const TaSourcesCtx *c, TaBuf *b);
void ta_emit_arenas_c(const TaSourcesCtx *c, TaBuf *b);
bool ta_emit_op_file(const TaSourcesCtx *c, const char *dir, const TaOp *op);
/* emit_row_chain.c: a chained operator's band function, and in the
   chain's first operator's file the chain's step table and _run(). */
void ta_emit_row_chain_functions(const TaSourcesCtx *c, TaBuf *b, const TaOp *op);
/* emit_model_push.c: model_push_rows (module.input_rows: push); nothing
   without row-push input. */
const TaRowChain *ta_push_chain(const TaGraph *g);
void ta_emit_model_h_push(const TaSourcesCtx *c, TaBuf *b);
void ta_emit_model_c_push(const TaSourcesCtx *c, TaBuf *b);
void ta_emit_model_init_push(const TaSourcesCtx *c, TaBuf *b);
/* emit_row_push.c: the chain's resumable runner with row-push input. */
void ta_emit_row_push_runner(const TaSourcesCtx *c, TaBuf *b, const TaOp *op);
/* emit_row_chain.c: a band step's call in a runner's loop, `indent` spaces in. */
const char *ta_emit_row_band_call(const TaSourcesCtx *c, const TaRowChain *ch, const char *sym,
                                  int indent);

/* Parts of <prefix>_model.c: the region and I/O tables, the binding
   functions and the module descriptor (emit_model_binding.c), and the
   operators' schedule (emit_model_schedule.c). */
void ta_emit_model_tables(const TaSourcesCtx *c, TaBuf *b);
void ta_emit_model_binding(const TaSourcesCtx *c, TaBuf *b);
void ta_emit_model_schedule(const TaSourcesCtx *c, TaBuf *b);

#endif /* TA_EMIT_SOURCES_H */
