/*
 * emit.h - writing the module directory.
 *
 *   <prefix>_model.h      the one header an application includes (model.h
 *                         and model.c when the prefix is "model")
 *   <prefix>_model.c      init, run, hydration, binding, schedule
 *   <prefix>_test_case.h/.c  the built-in test case (test.enabled)
 *   <prefix>_internal.h   tensor addresses and operator prototypes
 *   <prefix>_arenas.c     the writable arenas (own-arena mode)
 *   <prefix>_constants.c  constant blobs, one per constant region
 *   ops/<symbol>.c        one file per operator that has code
 *   custom/               the kernel files of custom_operators entries
 *   runtime/              the runtime sources the module calls
 *   CMakeLists.txt, <name>.mk, zephyr/   build files
 *   tinyaot.<name>.pdsc   the CMSIS-Pack description (module.type: cmsis_pack)
 *   <prefix>_sections.ld  GNU ld fragment (targets with sections)
 *   <prefix>_residency.json, <prefix>_views.json
 *   <prefix>_documentation.html   the page a person reads (documentation.html)
 *   <prefix>_arena_<region>.bin   sidecars (caller-supplied arenas)
 *
 *   .tinyaot-module       the marker: every file above with size and hash
 *
 * Everything goes into a fresh temporary directory first; ta_emit swaps it
 * into place only when every file was written (module_dir.h).
 */
#ifndef TA_EMIT_H
#define TA_EMIT_H

#include "../config/config.h"
#include "../plan/plan.h"

typedef struct TaEmitInput {
    TaPool *pool;
    TaDiag *diag;
    const TaConfig *config;
    const TaModel *model;
    TaGraph *graph;
    const TaPlan *plan;
    const char *prefix;
} TaEmitInput;

bool ta_emit(const TaEmitInput *in);

/* Writers of single files into `dir` (emit_*.c). */
bool ta_emit_sources(const TaEmitInput *in, const char *dir);
bool ta_emit_build_files(const TaEmitInput *in, const char *dir, TaVec *sources,
                         TaVec *runtime_sources);
/* <prefix>_sections.ld, for targets with sections (emit_linker.c). */
bool ta_emit_linker_fragment(const TaEmitInput *in, const char *dir);
/* The #warning for a Helium/DSP target compiled without it (emit_cpu_check.c). */
void ta_emit_cpu_check(const TaEmitInput *in, TaBuf *b);
/* module.type: zephyr: zephyr/module.yml, Kconfig, CMakeLists.txt, snippets. */
bool ta_emit_zephyr(const TaEmitInput *in, const char *dir, const TaVec *sources,
                    const TaVec *runtime);
/* module.type: cmsis_pack: tinyaot.<name>.pdsc (emit_cmsis_pack.c). */
bool ta_emit_cmsis_pack(const TaEmitInput *in, const char *dir, const TaVec *sources,
                        const TaVec *runtime_sources);
bool ta_emit_residency(const TaEmitInput *in, const char *dir);
/* emit_user_call.c: a user kernel's call (TaUserCall) in its operator's
   file: the dims arrays before the function, then the call in it, with
   `pointers` the argument tensors' names; and the kernels' files copied
   to custom/, each .c added to `sources`. */
void ta_emit_user_call_dims(TaBuf *b, const char *symbol, const TaKernelCall *call, int k);
void ta_emit_user_call(TaBuf *b, const char *symbol, const TaKernelCall *call, int k,
                       const char *const *pointers, bool last);
bool ta_emit_user_files(const TaEmitInput *in, const char *dir, TaVec *sources);
bool ta_emit_views_json(const TaEmitInput *in, const char *dir);
/* documentation.html: <prefix>_documentation.html (emit_html.c). */
bool ta_emit_documentation(const TaEmitInput *in, const char *dir);
/* test.enabled: <prefix>_test_case.h/.c (emit_test_case.c); adds the
   source to `sources`. */
bool ta_emit_test_case(const TaEmitInput *in, const char *dir, TaVec *sources);

/* I/O metadata (emit_io_metadata.c): the macros and prototypes of the
   public header, and the two conversion functions of <prefix>_model.c.
   `fields` defines prefix and PREFIX. */
struct TaFields;
void ta_emit_io_header(const TaEmitInput *in, const struct TaFields *fields, TaBuf *b);
void ta_emit_io_source(const TaEmitInput *in, const struct TaFields *fields, TaBuf *b);

/* Quantization of one input or output for context_init's I/O views
   (emit_io_metadata.c): its zero_point and scale fields, with `fields`
   defining field and index; `i` is its place among the inputs (`input`)
   or the outputs. */
void ta_emit_io_quantization(const TaEmitInput *in, const struct TaFields *fields, TaBuf *b,
                             const TaTensor *t, bool input, int i);

/* helia-aot 1.1.0's names (emit_helia_api.c): the <prefix>_status_t
   enumeration, the spellings of memory-placement.txt's example, and the
   files: its header names and its sidecars. */
void ta_emit_api_version(const struct TaFields *fields, TaBuf *b);
void ta_emit_status_enum(TaPool *pool, const struct TaFields *fields, TaBuf *b);
void ta_emit_document_spellings(const TaEmitInput *in, const struct TaFields *fields, TaBuf *b);
bool ta_emit_helia_files(const TaEmitInput *in, const struct TaFields *fields, const char *dir);

/* Shared naming helpers. */
/* "<prefix>_model.<ext>"; just "model.<ext>" when the prefix is "model"
   (the default), so the name never doubles. */
const char *ta_model_file(TaPool *pool, const char *prefix, const char *ext);
const char *ta_upper(TaPool *pool, const char *s);
const char *ta_tensor_enum(TaPool *pool, const char *prefix, const TaTensor *t);
const char *ta_region_enum(TaPool *pool, const char *prefix, const TaRegion *r);
/* Module files must be written with this helper so failures are reported. */
bool ta_emit_write(const TaEmitInput *in, const char *dir, const char *name, const TaBuf *b);

#endif /* TA_EMIT_H */
