/*
 * emit_sources.c - the module's C sources: public header, model glue,
 * internal header, arenas, constant blobs and one file per operator.
 *
 * Tensor addresses are written as "region base + offset", once, in the
 * internal header, under a name operators pass (KWS_T30_RELU). With own
 * arenas the base is the arena object itself, a link-time constant; with
 * caller-supplied arenas it is the pointer bound for that region. Text is
 * written with named-field templates (util/template.h): ${prefix} and
 * ${PREFIX} everywhere, other fields per template.
 */
#include "emit.h"

#include "../model/model.h"
#include "../passes/passes.h"
#include "../util/template.h"
#include "emit_identity.h"
#include "escape.h"
#include "module_sections.h"

#include <ctype.h>
#include <string.h>

typedef struct Ctx {
    const TaEmitInput *in;
    TaPool *pool;
    const char *p; /* prefix */
    const char *P; /* PREFIX */
    bool own;      /* memory.allocate_arenas */
    bool staged;   /* some constant region is staged */
    bool table;    /* module.schedule: table */
    int num_regions;
    TaFields fields;              /* prefix, PREFIX */
    const char **tensor_pointers; /* by tensor index: name_tensor_pointers */
} Ctx;

const char *ta_upper(TaPool *pool, const char *s)
{
    char *u = ta_strdup(pool, s);
    for (char *c = u; *c; c++)
        *c = isalnum((unsigned char)*c) ? (char)toupper((unsigned char)*c) : '_';
    return u;
}

const char *ta_tensor_enum(TaPool *pool, const char *prefix, const TaTensor *t)
{
    return ta_format(pool, "%s_TENSOR_%s", ta_upper(pool, prefix), ta_upper(pool, t->id));
}

const char *ta_region_enum(TaPool *pool, const char *prefix, const TaRegion *r)
{
    return ta_format(pool, "%s_ARENA_%s", ta_upper(pool, prefix), ta_upper(pool, r->name));
}

const char *ta_model_file(TaPool *pool, const char *prefix, const char *ext)
{
    if (strcmp(prefix, "model") == 0)
        return ta_format(pool, "model.%s", ext);
    return ta_format(pool, "%s_model.%s", prefix, ext);
}

bool ta_emit_write(const TaEmitInput *in, const char *dir, const char *name, const TaBuf *b)
{
    return ta_write_file(in->diag, ta_path_join(in->pool, dir, name), b->data ? b->data : "",
                         b->len);
}

static TaRegion *region(const Ctx *c, int i)
{
    return c->in->plan->regions.items[i];
}

static const char *section_of(const Ctx *c, int memory, bool data)
{
    const TaTargetMemory *m = c->in->plan->target->memories[memory];
    const char *s = ta_module_section_name(c->pool, m, data ? TA_SECTION_DATA : TA_SECTION_BSS,
                                           c->in->prefix);
    /* target.c admits only plain section names; escaped all the same. */
    return s ? ta_format(c->pool, "TA_SECTION(%s) ", ta_escape_c_string(c->pool, s)) : "";
}

/* The expression for a region's first usable byte. */
static const char *region_base(const Ctx *c, const TaRegion *r)
{
    return ta_format(c->pool, "%s_BASE_%s", c->P, ta_upper(c->pool, r->name));
}

/* Generated comments stay within this many columns. */
enum { COMMENT_WIDTH = 100 };

/* Appends `lead` and `text` as comment lines of at most COMMENT_WIDTH
   columns, each further line starting with `cont`. A line breaks after a
   space, '/' or ';' where one is near the limit, else at the limit but
   never inside a \xNN escape (ta_escape_c_comment writes every backslash
   as one). */
static void wrap_comment(TaBuf *b, const char *lead, const char *cont, const char *text)
{
    size_t col = strlen(lead);
    ta_buf_puts(b, lead);
    const char *s = text;
    while (col + strlen(s) > COMMENT_WIDTH && col < COMMENT_WIDTH) {
        size_t room = COMMENT_WIDTH - col, cut = 0;
        for (size_t i = room; i > room / 2 && !cut; i--)
            if (s[i - 1] == ' ' || s[i - 1] == '/' || s[i - 1] == ';')
                cut = i;
        if (!cut) {
            cut = room;
            for (size_t k = 1; k <= 3 && k <= cut; k++)
                if (s[cut - k] == '\\') {
                    cut -= k;
                    break;
                }
        }
        size_t keep = cut;
        while (keep > 0 && s[keep - 1] == ' ')
            keep--;
        ta_buf_append(b, s, keep);
        ta_buf_puts(b, "\n");
        ta_buf_puts(b, cont);
        col = strlen(cont);
        s += cut;
        while (*s == ' ')
            s++;
    }
    ta_buf_puts(b, s);
    ta_buf_puts(b, "\n");
}

/* Appends a block comment of prose: `text` (a template of `f`) filled
   into lines of at most PROSE_WIDTH columns, indented as this one is. */
enum { PROSE_WIDTH = 78 };
static void emit_prose(TaBuf *b, const TaFields *f, const char *text)
{
    TaBuf words = {0};
    ta_template(&words, f, text);
    ta_buf_puts(b, "/*");
    size_t col = 2;
    for (const char *w = words.data; w && *w;) {
        size_t len = strcspn(w, " \n");
        if (len) {
            if (col > 3 && col + 1 + len > PROSE_WIDTH) {
                ta_buf_puts(b, "\n  ");
                col = 2;
            }
            ta_buf_puts(b, " ");
            ta_buf_append(b, w, len);
            col += 1 + len;
        }
        w += len;
        w += strspn(w, " \n");
    }
    ta_buf_puts(b, col + 3 > PROSE_WIDTH ? "\n   */\n" : " */\n");
    ta_buf_free(&words);
}

static void describe_tensor(const Ctx *c, TaBuf *b, const char *lead, const TaTensor *t)
{
    TaBuf text = {0};
    ta_buf_printf(&text, "%-8s %s %s", t->id, ta_dtype_name(t->dtype), ta_shape_text(c->pool, t));
    if (t->place.region)
        ta_buf_printf(&text, " in %s +%zu", t->place.region->name, t->place.offset);
    if (t->alias_of)
        ta_buf_printf(&text, " (shares %s's bytes)", ta_tensor_root((TaTensor *)t)->id);
    const char *cont = " *             ";
    /* keep comments well-formed whatever the model names tensors */
    const char *name = t->name ? ta_format(c->pool, "\"%s\"", ta_escape_c_comment(c->pool, t->name))
                               : NULL;
    if (name && strlen(lead) + text.len + 1 + strlen(name) > COMMENT_WIDTH &&
        strlen(cont) + strlen(name) <= COMMENT_WIDTH) {
        /* A name that fits a line of its own gets one, unbroken. */
        wrap_comment(b, lead, cont, text.data);
        ta_buf_printf(b, "%s%s\n", cont, name);
    } else {
        if (name)
            ta_buf_printf(&text, " %s", name);
        wrap_comment(b, lead, cont, text.data);
    }
    ta_buf_free(&text);
}

/* The part of a model's tensor name that reads well in a C name: the last
   path step of its first name ("f/conv2d_4/Relu;f/bn" -> "RELU"), in
   upper case, at most 32 characters; "" without a name. */
static const char *short_tensor_name(TaPool *pool, const char *name)
{
    if (!name)
        return "";
    size_t end = strcspn(name, ";");
    while (end > 0 && name[end - 1] == '/')
        end--;
    size_t start = end;
    while (start > 0 && name[start - 1] != '/')
        start--;
    char *out = ta_alloc(pool, 33);
    size_t n = 0;
    for (size_t i = start; i < end && n < 32; i++) {
        unsigned char ch = (unsigned char)name[i];
        char o = isalnum(ch) && ch < 128 ? (char)toupper(ch) : '_';
        if (o == '_' && (n == 0 || out[n - 1] == '_'))
            continue;
        out[n++] = o;
    }
    while (n > 0 && out[n - 1] == '_')
        n--;
    out[n] = '\0';
    return out;
}

/* The internal header's name of every placed tensor an operator passes to
   a kernel, "KWS_T30_RELU" ("KWS_T_OP3_SHIFTS" for a created tensor), by
   tensor index; NULL for the others. Unique: a clash gets the index. */
static const char **name_tensor_pointers(const Ctx *c)
{
    const TaGraph *g = c->in->graph;
    const char **names = ta_alloc_array(c->pool, (size_t)(g->tensors.len + 1), sizeof *names);
    TaNameSet taken = ta_name_set(c->pool, 2 * (size_t)g->tensors.len);
    for (int i = 0; i < g->ops.len; i++) {
        const TaOp *op = TA_OP(g, i);
        for (int k = 0; k <= op->lowered.calls.len; k++) {
            const TaKernelCall *call = k < op->lowered.calls.len ? op->lowered.calls.items[k]
                                                                 : NULL;
            /* After the calls: the bool a control-flow marker tests. */
            int num_args = call ? call->args.len : 1;
            for (int a = 0; a < num_args; a++) {
                const TaTensor *t = call ? call->args.items[a] : op->control_cond;
                if (!t || !t->place.region || names[t->index])
                    continue;
                const char *id = ta_upper(c->pool, t->id);
                const char *tail = short_tensor_name(c->pool, t->name);
                const char *name = ta_format(c->pool, "%s_T%s%s%s%s", c->P,
                                             isdigit((unsigned char)t->id[0]) ? "" : "_", id,
                                             *tail ? "_" : "", tail);
                if (!ta_name_set_add(&taken, name)) {
                    name = ta_format(c->pool, "%s_%d", name, t->index);
                    ta_name_set_add(&taken, name);
                }
                names[t->index] = name;
            }
        }
    }
    return names;
}

/* A tensor argument of a kernel call: its pointer's name, or NULL. */
static const char *tensor_ptr(const Ctx *c, const TaTensor *t)
{
    if (!t || !t->place.region)
        return "NULL";
    return c->tensor_pointers[t->index];
}

/* The typed address a pointer name stands for. */
static const char *tensor_address(const Ctx *c, const TaTensor *t)
{
    const char *ctype = ta_dtype_ctype(t->dtype);
    bool ro = t->place.region->role == TA_REGION_CONSTANT && !t->place.region->staged;
    return ta_format(c->pool, "((%s%s *)(%s + %zu))", ro ? "const " : "", ctype ? ctype : "uint8_t",
                     region_base(c, t->place.region), t->place.offset);
}

/* ---- <prefix>_model.h ----------------------------------------------------- */

static void emit_header(const Ctx *c, TaBuf *b)
{
    const TaGraph *g = c->in->graph;
    const char *p = c->p;
    TaFields f = ta_fields(c->pool, &c->fields);
    ta_field(&f, "model_file", ta_escape_c_comment(c->pool, ta_basename(c->in->model->path)));
    ta_field_int(&f, "num_inputs", g->inputs.len);
    ta_field_int(&f, "num_outputs", g->outputs.len);
    ta_field_int(&f, "num_operators", g->ops.len);
    ta_field_int(&f, "num_regions", c->num_regions);
    /* Arrays keep one element when there is nothing to list. */
    ta_field_int(&f, "input_slots", g->inputs.len ? g->inputs.len : 1);
    ta_field_int(&f, "output_slots", g->outputs.len ? g->outputs.len : 1);
    ta_field_int(&f, "region_slots", c->num_regions ? c->num_regions : 1);
    ta_field_int(&f, "num_tensors", g->tensors.len);
    /* Prose about the hydration latch only where constants are staged. */
    ta_field(&f, "clears_latch", c->staged ? ", clears the hydration latch" : "");
    ta_field(&f, "checks_bound", c->own ? "" : "Checks every region is bound. ");
    ta_field(&f, "checks_bound_context",
             c->own ? "" : "Returns TA_ERR_UNBOUND_REGION when a region is not bound. ");
    ta_field(&f, "clears_latch_context", c->staged ? " and clears the hydration latch" : "");
    ta_field(&f, "hydrates", c->staged ? "hydrates staged constants, " : "");
    ta_field(&f, "no_constants", c->staged ? "and no staged constants " : "");
    ta_field(&f, "run_statuses",
             ta_format(c->pool, "%s%s",
                       c->own ? ""
                              : ", TA_ERR_ARENA_REBOUND when an arena was bound since the"
                                " last successful init",
                       c->staged ? ", TA_ERR_HYDRATION_REQUIRED when the hydration latch is"
                                   " cleared"
                                 : ""));
    ta_template(b, &f,
                "/*\n * $model_h - generated by tinyaot from $model_file. Do not edit.\n"
                " *\n"
                " * Call ${prefix}_model_init() once (after binding every arena when the\n"
                " * application owns them), fill ctx.inputs[i].data, call\n"
                " * ${prefix}_model_run() and read ctx.outputs[i].data. Every function returns\n"
                " * TA_OK on success or a TA_ERR_ status of runtime/include/ta_status.h.\n */\n"
                "#ifndef ${PREFIX}_MODEL_H\n#define ${PREFIX}_MODEL_H\n\n"
                "#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n\n"
                "#include \"runtime/include/ta_io_dtype.h\"\n"
                "#include \"runtime/include/ta_module.h\"\n"
                "#include \"runtime/include/ta_status.h\"\n\n"
                "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
                "#define ${PREFIX}_NUM_INPUTS $num_inputs\n"
                "#define ${PREFIX}_NUM_OUTPUTS $num_outputs\n"
                "#define ${PREFIX}_NUM_OPERATORS $num_operators\n"
                "#define ${PREFIX}_NUM_ARENA_REGIONS $num_regions\n\n");
    ta_emit_api_version(&f, b);
    ta_emit_status_enum(c->pool, &f, b);
    ta_template(b, &f,
                "/* Arena regions: the index ${prefix}_bind_arena() takes, named as"
                " helia-aot names\n   them, then by tinyaot's names. */\ntypedef enum {\n");
    for (int i = 0; i < c->num_regions; i++) {
        const TaRegion *r = region(c, i);
        TaFields rf = ta_fields(c->pool, &f);
        ta_field(&rf, "region", ta_region_enum(c->pool, p, r));
        ta_field_int(&rf, "id", r->id);
        ta_field(&rf, "memory", ta_memory_name(r->memory));
        ta_field(&rf, "role", ta_role_name(r->role));
        const char *source = r->staged ? ta_memory_name(r->source_memory) : NULL;
        ta_field(&rf, "staged", source ? ta_format(c->pool, ", staged from %s", source) : "");
        ta_field(&rf, "api", r->api_name);
        ta_template(b, &rf, "    ${prefix}_$api = $id, /* $memory $role$staged */\n");
    }
    ta_template(b, &f, "    ${prefix}_num_arena_buffers = $num_regions,\n");
    for (int i = 0; i < c->num_regions; i++) {
        TaFields rf = ta_fields(c->pool, &f);
        ta_field(&rf, "region", ta_region_enum(c->pool, p, region(c, i)));
        ta_field(&rf, "api", region(c, i)->api_name);
        ta_field_int(&rf, "id", region(c, i)->id);
        ta_template(b, &rf, "    $region = $id, /* ${prefix}_$api */\n");
    }
    if (c->num_regions == 0)
        ta_template(b, &f, "    ${PREFIX}_ARENA_NONE = 0\n");
    ta_template(b, &f,
                "} ${prefix}_arena_region_t;\n\n"
                "/* Bytes (including any address-zero guard) and alignment per region. */\n");
    for (int i = 0; i < c->num_regions; i++) {
        const TaRegion *r = region(c, i);
        TaFields rf = ta_fields(c->pool, &f);
        ta_field(&rf, "region", ta_region_enum(c->pool, p, r));
        ta_field(&rf, "api", r->api_name);
        ta_field_size(&rf, "size", r->guard + r->size);
        ta_field_size(&rf, "align", r->alignment);
        ta_template(b, &rf,
                    "#define ${prefix}_${api}_size $size\n"
                    "#define ${prefix}_${api}_alignment $align\n"
                    "#define ${region}_SIZE ${prefix}_${api}_size\n"
                    "#define ${region}_ALIGN ${prefix}_${api}_alignment\n");
    }
    ta_emit_document_spellings(c->in, &f, b);
    ta_template(b, &f,
                "extern const size_t ${prefix}_arena_sizes[$region_slots];\n"
                "extern const size_t ${prefix}_arena_alignments[$region_slots];\n\n"
                "/* A tensor's number in the views (<prefix>_views.json); the module's\n"
                "   internal header names every one. */\n"
                "typedef int ${prefix}_tensor_ident_t;\n"
                "#define ${PREFIX}_NUM_TENSORS $num_tensors\n"
                "extern const ${prefix}_tensor_ident_t ${prefix}_inputs_id[$input_slots];\n"
                "extern const ${prefix}_tensor_ident_t ${prefix}_outputs_id[$output_slots];\n\n"
                "/* A model input or output: its tensor, its first byte (cast it to the\n"
                "   element type), its byte count and its quantization (zero for both when\n"
                "   it has none or one per channel). */\n"
                "typedef struct {\n    ${prefix}_tensor_ident_t id;\n    int8_t *data;\n"
                "    size_t size;\n    int32_t zero_point;\n    float scale;\n"
                "} ${prefix}_tensor_io_t;\n"
                "typedef ${prefix}_tensor_io_t ${prefix}_tensor_t;\n\n"
                "/* The operator callback (module.schedule: table): model_init reports\n"
                "   init_started and init_finished, model_run run_started and run_finished\n"
                "   for every operator in order; `op` is its layer_index, `status` its\n"
                "   result so far. */\n"
                "typedef enum {\n"
                "    ${prefix}_op_state_init_started = 0,\n"
                "    ${prefix}_op_state_init_finished = 1,\n"
                "    ${prefix}_op_state_run_started = 2,\n"
                "    ${prefix}_op_state_run_finished = 3\n"
                "} ${prefix}_operator_state_t;\n"
                "typedef void (*${prefix}_operator_callback)(int32_t op,"
                " ${prefix}_operator_state_t state,\n"
                "                                          int32_t status, void *user_data);\n"
                "typedef ${prefix}_operator_callback ${prefix}_op_callback_t;\n\n"
                "typedef struct ${prefix}_model_context {\n"
                "    ${prefix}_operator_callback callback; /* the application's; NULL: none */\n"
                "    void *user_data;\n"
                "    const void *const *arena_buffers; /* by region, set by context_init */\n"
                "    const size_t *arena_sizes;\n"
                "    ${prefix}_tensor_io_t inputs[$input_slots];"
                "  /* valid after a successful ${prefix}_model_init */\n"
                "    ${prefix}_tensor_io_t outputs[$output_slots];\n"
                "} ${prefix}_model_context_t;\n\n");
    emit_prose(b, &f,
               "${checks_bound_context}Sets arena_buffers, arena_sizes and"
               " inputs/outputs${clears_latch_context}; leaves callback and user_data as the"
               " application set them. ${prefix}_model_init calls it. TA_ERR_NULL_CONTEXT for a "
               "NULL ctx.");
    ta_template(b, &f, "int32_t ${prefix}_context_init(${prefix}_model_context_t *ctx);\n");
    emit_prose(b, &f,
               "${checks_bound}Initializes the context, zeroes persistent"
               " state, ${hydrates}gives state that does not start at zero its initial value,"
               " then enables runs.");
    ta_template(b, &f, "int32_t ${prefix}_model_init(${prefix}_model_context_t *ctx);\n");
    emit_prose(b, &f,
               "Runs every operator once. Returns TA_ERR_NOT_INITIALIZED before a"
               " successful init$run_statuses.");
    ta_template(b, &f, "int32_t ${prefix}_model_run(${prefix}_model_context_t *ctx);\n");
    if (!c->staged) {
        emit_prose(b, &f,
                   "Does nothing: this module copies no constants at init. Every module has"
                   " it, so code written for any module links against this one.");
        ta_template(b, &f, "void ${prefix}_mark_hydrated(void);\n");
    } else {
        emit_prose(b, &f,
                   "The hydration latch: set when the staged constants are in place,"
                   " cleared by ${prefix}_context_init.");
        ta_template(b, &f,
                    "bool ${prefix}_is_hydrated(void);\nvoid ${prefix}_mark_hydrated(void);\n"
                    "void ${prefix}_clear_hydrated(void);\n");
        emit_prose(b, &f,
                   "Copies every staged constant arena from its source into"
                   " ctx->arena_buffers[region] and sets the latch; does nothing when the latch"
                   " is set. ${prefix}_model_init calls it after ${prefix}_context_init. Weak:"
                   " replace it to use DMA; a replacement must make every staged byte ready,"
                   " call ${prefix}_mark_hydrated() and return TA_OK. model_init returns any"
                   " other status it returns unchanged, and TA_ERR_HYDRATION_FAILED for TA_OK"
                   " without the latch set, before any operator init reads the weights."
                   " Returns TA_ERR_NULL_CONTEXT, TA_ERR_HYDRATE_UNINITIALIZED (no arena table"
                   " yet) or TA_ERR_HYDRATE_NULL_BLOB (a staged region's entry NULL).");
        ta_template(b, &f,
                    "int32_t ${prefix}_hydrate_constants(${prefix}_model_context_t *ctx);\n");
    }
    if (!c->own) {
        emit_prose(b, &f,
                   "Binds an application buffer to a region (before ${prefix}_model_init). A"
                   " successful bind after init makes runs return TA_ERR_ARENA_REBOUND until"
                   " ${prefix}_model_init runs again: the new buffer holds no state"
                   " ${no_constants}yet. A refused bind changes nothing.");
        ta_template(b, &f,
                    "int32_t ${prefix}_bind_arena(${prefix}_arena_region_t region, void *buffer,"
                    " size_t size);\n");
        emit_prose(b, &f,
                   "Binds every region at once: buffers[i] of sizes[i] bytes, in region order,"
                   " stopping at the first refusal. TA_ERR_BULK_NULL_ARGUMENT when either array"
                   " is NULL, TA_ERR_BULK_WRONG_COUNT when n is not ${prefix}_num_arena_buffers.");
        ta_template(b, &f,
                    "int32_t ${prefix}_bind_arenas(void *const *buffers, const size_t *sizes,"
                    " size_t n);\n");
    }
    ta_buf_puts(b, "\n");
    ta_emit_identity_header(c->in, &c->fields, b);
    ta_emit_io_header(c->in, &c->fields, b);
    ta_template(b, &f,
                "\n/* The regions as data, for generic binding code. */\n"
                "extern const ta_module_desc_t ${prefix}_module_desc;\n\n"
                "#ifdef __cplusplus\n}\n#endif\n\n#endif /* ${PREFIX}_MODEL_H */\n");
}

/* ---- <prefix>_internal.h --------------------------------------------------- */

static void emit_internal(const Ctx *c, TaBuf *b)
{
    const char *p = c->p;
    const TaGraph *g = c->in->graph;
    TaFields f = ta_fields(c->pool, &c->fields);
    ta_field_int(&f, "region_slots", c->num_regions ? c->num_regions : 1);
    ta_template(b, &f,
                "/* ${prefix}_internal.h - generated by tinyaot. Private to the module. */\n"
                "#ifndef ${PREFIX}_INTERNAL_H\n#define ${PREFIX}_INTERNAL_H\n\n"
                "#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n\n"
                "#include \"$model_h\"\n#include \"runtime/include/ta_compiler.h\"\n\n");
    if (g->tensors.len) {
        ta_buf_puts(b,
                    "/* Every tensor of the module, numbered as the views list them. */\nenum {\n");
        for (int i = 0; i < g->tensors.len; i++)
            ta_buf_printf(b, "    %s = %d,\n", ta_tensor_enum(c->pool, p, TA_TENSOR(g, i)), i);
        ta_buf_puts(b, "};\n\n");
    }
    ta_buf_puts(b, "/* First usable byte of each region. */\n");
    if (!c->own)
        ta_template(b, &f, "extern void *${prefix}_bound[$region_slots];\n");
    for (int i = 0; i < c->num_regions; i++) {
        const TaRegion *r = region(c, i);
        bool ro = r->role == TA_REGION_CONSTANT && !r->staged;
        TaFields rf = ta_fields(c->pool, &f);
        ta_field(&rf, "base", region_base(c, r));
        ta_field(&rf, "qualifier", ro ? "const " : "");
        ta_field_size(&rf, "guard", r->guard);
        if (c->own) {
            ta_field(&rf, "symbol", r->symbol);
            ta_field_size(&rf, "size", r->guard + r->size);
            ta_template(b, &rf,
                        "extern ${qualifier}uint8_t $symbol[$size];\n"
                        "#define $base ($symbol + $guard)\n");
        } else {
            ta_field(&rf, "region", ta_region_enum(c->pool, p, r));
            ta_field(&rf, "cast", ro ? "(const uint8_t *)" : "(uint8_t *)");
            ta_template(b, &rf, "#define $base (${cast}${prefix}_bound[$region] + $guard)\n");
        }
    }
    for (int i = 0; i < c->num_regions; i++) {
        const TaRegion *r = region(c, i);
        if (r->staged)
            ta_buf_printf(b, "extern const uint8_t %s[%zu];\n", r->source_symbol,
                          r->source_guard + r->size);
    }
    bool any_pointer = false;
    for (int i = 0; i < g->tensors.len; i++) {
        const char *name = c->tensor_pointers[i];
        if (!name)
            continue;
        if (!any_pointer)
            ta_buf_puts(b, "\n/* The tensors operators pass to kernels, as typed pointers. */\n");
        any_pointer = true;
        ta_buf_printf(b, "#define %s %s\n", name, tensor_address(c, TA_TENSOR(g, i)));
    }
    ta_buf_puts(b, "\n/* Operators, in execution order. */\n");
    for (int i = 0; i < g->ops.len; i++) {
        const TaOp *op = TA_OP(g, i);
        if (ta_op_calls_with_role(op, "init"))
            ta_buf_printf(b, "int %s_init(void);\n", op->lowered.symbol);
        if (ta_op_calls_with_role(op, "run"))
            ta_buf_printf(b, "int %s_run(void);\n", op->lowered.symbol);
    }
    ta_template(b, &f, "\n#endif /* ${PREFIX}_INTERNAL_H */\n");
}

/* ---- ops/<symbol>.c ---------------------------------------------------------- */

/* `int <symbol>_<role>(void)`: the op's calls of that role, in order,
   stopping at the first failing one. Parameter structs are numbered by
   position in op->lowered.calls, whatever their role, and named after the op, so
   that no two file-scope names of a module (or of modules with different
   prefixes) clash even when their files are compiled as one unit. */
static void emit_function(const Ctx *c, TaBuf *b, const TaOp *op, const char *role)
{
    const int n_calls = ta_op_calls_with_role(op, role);
    ta_buf_printf(b, "int %s_%s(void)\n{\n", op->lowered.symbol, role);
    if (n_calls > 1)
        ta_buf_puts(b, "    int status;\n");
    int done = 0;
    for (int k = 0; k < op->lowered.calls.len; k++) {
        const TaKernelCall *call = op->lowered.calls.items[k];
        if (strcmp(call->role, role) != 0)
            continue;
        bool last = ++done == n_calls;
        if (call->user) {
            const char **pointers = ta_alloc_array(c->pool, (size_t)call->args.len + 1,
                                                   sizeof *pointers);
            for (int a = 0; a < call->args.len; a++)
                pointers[a] = tensor_ptr(c, call->args.items[a]);
            ta_emit_user_call(b, op->lowered.symbol, call, k, pointers, last);
            if (!last)
                ta_buf_puts(b, "    if (status != TA_OK)\n        return status;\n");
            continue;
        }
        const char *indent = "    ";
        ta_buf_printf(b, "%s%s%s(", indent, last ? "return " : "status = ", call->function);
        int n = 0;
        if (call->params_desc) {
            ta_buf_printf(b, "&%s_params%d", op->lowered.symbol, k);
            n++;
        }
        for (int a = 0; a < call->args.len; a++) {
            const TaTensor *t = call->args.items[a];
            ta_buf_printf(b, "%s\n%s    %s", n++ ? "," : "", indent, tensor_ptr(c, t));
        }
        ta_buf_puts(b, ");\n");
        if (!last)
            ta_buf_puts(b, "    if (status != TA_OK)\n        return status;\n");
    }
    ta_buf_puts(b, "}\n");
}

static bool emit_op(const Ctx *c, const char *dir, const TaOp *op)
{
    TaBuf b = {0};
    ta_buf_printf(&b, "/*\n * Layer %d: %s", op->index, ta_escape_c_comment(c->pool, op->type));
    if (op->model_index >= 0)
        ta_buf_printf(&b, " (model operator %d)", op->model_index);
    ta_buf_puts(&b, "\n *\n");
    for (int i = 0; i < op->num_inputs; i++)
        if (op->inputs[i])
            describe_tensor(c, &b, " *   in    ", op->inputs[i]);
    for (int i = 0; i < op->num_outputs; i++)
        describe_tensor(c, &b, " *   out   ", op->outputs[i]);
    for (int i = 0; i < op->lowered.locals.len; i++)
        describe_tensor(c, &b, " *   local ", op->lowered.locals.items[i]);
    ta_buf_puts(&b, " */\n");
    ta_buf_printf(&b, "#include \"../%s_internal.h\"\n", c->p);
    const char *last_header = NULL;
    for (int k = 0; k < op->lowered.calls.len; k++) {
        const TaKernelCall *call = op->lowered.calls.items[k];
        if (!last_header || strcmp(last_header, call->header) != 0)
            ta_buf_printf(&b, "#include \"../%s\"\n", call->header);
        last_header = call->header;
        for (int h = 0; call->user && h < call->user->num_headers; h++)
            ta_buf_printf(&b, "#include \"../custom/%s\"\n", call->user->headers[h]);
    }
    ta_buf_puts(&b, "\n");
    for (int k = 0; k < op->lowered.calls.len; k++)
        if (((const TaKernelCall *)op->lowered.calls.items[k])->user)
            ta_emit_user_call_dims(&b, op->lowered.symbol, op->lowered.calls.items[k], k);
    for (int k = 0; k < op->lowered.calls.len; k++) {
        const TaKernelCall *call = op->lowered.calls.items[k];
        if (!call->params_desc)
            continue;
        ta_buf_printf(&b, "static const %s %s_params%d = {\n", call->params_desc->type_name,
                      op->lowered.symbol, k);
        ta_params_text(&b, call, false);
        ta_buf_puts(&b, "};\n\n");
    }
    if (ta_op_calls_with_role(op, "init"))
        emit_function(c, &b, op, "init");
    if (ta_op_calls_with_role(op, "run")) {
        if (ta_op_calls_with_role(op, "init"))
            ta_buf_puts(&b, "\n");
        if (op->code_memory >= 0) {
            const TaTargetMemory *m = c->in->plan->target->memories[op->code_memory];
            const char *section = ta_module_section_name(c->pool, m, TA_SECTION_CODE,
                                                         c->in->prefix);
            ta_buf_printf(&b, "/* operators: code_placement %s */\nTA_SECTION(%s)\n",
                          ta_memory_name(op->code_memory), ta_escape_c_string(c->pool, section));
        }
        emit_function(c, &b, op, "run");
    }
    bool ok = ta_emit_write(c->in, dir, ta_format(c->pool, "ops/%s.c", op->lowered.symbol), &b);
    ta_buf_free(&b);
    return ok;
}

/* ---- <prefix>_constants.c and <prefix>_arenas.c -------------------------------- */

static void emit_blob(const Ctx *c, TaBuf *b, const TaRegion *r, const char *symbol, size_t guard,
                      int memory)
{
    TaFields f = ta_fields(c->pool, &c->fields);
    ta_field(&f, "section", section_of(c, memory, true));
    ta_field_size(&f, "align", r->alignment);
    ta_field(&f, "symbol", symbol);
    ta_field_size(&f, "bytes", guard + r->size);
    ta_template(b, &f, "${section}TA_ALIGNED($align) const uint8_t $symbol[$bytes] = {\n");
    if (guard)
        ta_buf_printf(b, "    /* %zu-byte guard: no tensor at address 0 */\n    ", guard);
    for (size_t i = 0; i < guard; i++)
        ta_buf_puts(b, "0, ");
    if (guard)
        ta_buf_puts(b, "\n");
    size_t pos = 0;
    for (int i = 0; i < r->tensors.len; i++) {
        const TaTensor *t = r->tensors.items[i];
        ta_buf_printf(b, "    /* +%zu: tensor %s, %s %s */", t->place.offset, t->id,
                      ta_dtype_name(t->dtype), ta_shape_text(c->pool, t));
        pos = t->place.offset;
        size_t end = i + 1 < r->tensors.len
                         ? ((const TaTensor *)r->tensors.items[i + 1])->place.offset
                         : r->size;
        for (size_t k = pos; k < end; k++)
            ta_buf_printf(b, "%s%u,", (k - pos) % 16 == 0 ? "\n    " : " ", r->bytes[k]);
        ta_buf_puts(b, "\n");
    }
    ta_buf_puts(b, "};\n\n");
}

static void emit_constants(const Ctx *c, TaBuf *b)
{
    ta_template(b, &c->fields,
                "/* ${prefix}_constants.c - generated by tinyaot: constant blobs.\n"
                "   Each region is one byte array; a comment gives each tensor's offset,\n"
                "   type and shape. Values wider than a byte (int32 multipliers, shifts\n"
                "   and bias sums, int16, int64 and float data) are stored little-endian,\n"
                "   the order of every Cortex-M and host the kernels read them on. */\n"
                "#include \"${prefix}_internal.h\"\n\n"
                "#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \\\n"
                "    __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__\n"
                "#error \"the constants are little-endian: this target is not\"\n"
                "#endif\n\n");
    for (int i = 0; i < c->num_regions; i++) {
        const TaRegion *r = region(c, i);
        if (r->role != TA_REGION_CONSTANT)
            continue;
        if (r->staged)
            emit_blob(c, b, r, r->source_symbol, r->source_guard, r->source_memory);
        else if (c->own)
            emit_blob(c, b, r, r->symbol, r->guard, r->memory);
    }
}

static void emit_arenas(const Ctx *c, TaBuf *b)
{
    ta_template(b, &c->fields,
                "/* ${prefix}_arenas.c - generated by tinyaot: writable arenas. */\n"
                "#include \"${prefix}_internal.h\"\n\n");
    if (!c->own) {
        ta_buf_puts(b, "/* memory.allocate_arenas is false: the application supplies every\n"
                       "   arena with the bind functions of the model header. */\n");
        return;
    }
    for (int i = 0; i < c->num_regions; i++) {
        const TaRegion *r = region(c, i);
        if (r->role == TA_REGION_CONSTANT && !r->staged)
            continue;
        TaFields f = ta_fields(c->pool, &c->fields);
        ta_field(&f, "region", ta_region_enum(c->pool, c->p, r));
        ta_field(&f, "memory", ta_memory_name(r->memory));
        ta_field(&f, "holds", r->staged ? "staged constants" : ta_role_name(r->role));
        ta_field_size(&f, "size", r->size);
        ta_field(&f, "section", section_of(c, r->memory, false));
        ta_field_size(&f, "align", r->alignment);
        ta_field(&f, "symbol", r->symbol);
        ta_field_size(&f, "bytes", r->guard + r->size);
        ta_template(b, &f,
                    "/* $region: $memory $holds, $size bytes */\n"
                    "${section}TA_ALIGNED($align) uint8_t $symbol[$bytes];\n\n");
    }
}

/* ---- <prefix>_model.c ------------------------------------------------------------ */

/* The elements of an array initializer, "a, b, c"; `empty` when there are
   none (the array keeps one element). */
static const char *elements(const Ctx *c, const TaVec *items, const char *empty)
{
    if (items->len == 0)
        return empty;
    TaBuf b = {0};
    for (int i = 0; i < items->len; i++)
        ta_buf_printf(&b, "%s%s", i ? ", " : "", (const char *)items->items[i]);
    const char *s = ta_strdup(c->pool, b.data);
    ta_buf_free(&b);
    return s;
}

/* The runtime's name of a region role (ta_module.h), as the tables say it. */
static const char *region_role_name(ta_region_role_t role)
{
    switch (role) {
    case TA_REGION_SCRATCH: return "TA_REGION_SCRATCH";
    case TA_REGION_PERSISTENT: return "TA_REGION_PERSISTENT";
    case TA_REGION_CONSTANT: return "TA_REGION_CONSTANT";
    }
    ta_unreachable();
}

static void emit_tables(const Ctx *c, TaBuf *b)
{
    const char *p = c->p;
    const TaGraph *g = c->in->graph;
    TaVec sizes = {0}, alignments = {0}, roles = {0}, staged = {0}, sidecars = {0};
    for (int i = 0; i < c->num_regions; i++) {
        const TaRegion *r = region(c, i);
        const char *e = ta_region_enum(c->pool, p, r);
        ta_vec_push(c->pool, &sizes, ta_format(c->pool, "%s_SIZE", e));
        ta_vec_push(c->pool, &alignments, ta_format(c->pool, "%s_ALIGN", e));
        ta_vec_push(c->pool, &roles, (void *)region_role_name(r->role));
        ta_vec_push(c->pool, &staged, ta_format(c->pool, "%d", (int)r->staged));
        ta_vec_push(
            c->pool, &sidecars,
            (void *)(r->sidecar_file ? ta_escape_c_string(c->pool, r->sidecar_file) : "NULL"));
    }
    TaVec inputs = {0}, outputs = {0};
    for (int i = 0; i < g->inputs.len; i++)
        ta_vec_push(c->pool, &inputs, (void *)ta_tensor_enum(c->pool, p, g->inputs.items[i]));
    for (int i = 0; i < g->outputs.len; i++)
        ta_vec_push(c->pool, &outputs, (void *)ta_tensor_enum(c->pool, p, g->outputs.items[i]));
    TaFields f = ta_fields(c->pool, &c->fields);
    ta_field_int(&f, "region_slots", c->num_regions ? c->num_regions : 1);
    ta_field_int(&f, "input_slots", g->inputs.len ? g->inputs.len : 1);
    ta_field_int(&f, "output_slots", g->outputs.len ? g->outputs.len : 1);
    ta_field(&f, "sizes", elements(c, &sizes, "0"));
    ta_field(&f, "alignments", elements(c, &alignments, "0"));
    ta_field(&f, "roles", elements(c, &roles, "0"));
    ta_field(&f, "staged", elements(c, &staged, "0"));
    ta_field(&f, "sidecars", elements(c, &sidecars, "NULL"));
    ta_field(&f, "inputs", elements(c, &inputs, "0"));
    ta_field(&f, "outputs", elements(c, &outputs, "0"));
    ta_template(b, &f,
                "const size_t ${prefix}_arena_sizes[$region_slots] = {$sizes};\n"
                "const size_t ${prefix}_arena_alignments[$region_slots] = {$alignments};\n"
                "static const unsigned char ${prefix}_region_roles[$region_slots] = {$roles};\n"
                "static const unsigned char ${prefix}_region_staged[$region_slots] = {$staged};\n"
                "static const char *const ${prefix}_region_sidecars[$region_slots] = {$sidecars};\n"
                "\n"
                "const ${prefix}_tensor_ident_t ${prefix}_inputs_id[$input_slots] = {$inputs};\n"
                "const ${prefix}_tensor_ident_t ${prefix}_outputs_id[$output_slots] = {$outputs};\n"
                "\n");
}

static void emit_binding(const Ctx *c, TaBuf *b)
{
    TaFields f = ta_fields(c->pool, &c->fields);
    ta_field_int(&f, "region_slots", c->num_regions ? c->num_regions : 1);
    const char *descriptor =
        "const ta_module_desc_t ${prefix}_module_desc = {\n"
        "    \"${prefix}\", ${PREFIX}_NUM_ARENA_REGIONS, ${prefix}_arena_sizes,"
        " ${prefix}_arena_alignments,\n"
        "    ${prefix}_region_roles, ${prefix}_region_staged, ${prefix}_region_sidecars,"
        " $bind};\n\n";
    if (c->own) {
        ta_field(&f, "bind", "NULL");
        ta_template(b, &f, descriptor);
        return;
    }
    ta_template(b, &f, "void *${prefix}_bound[$region_slots];\n\n");
    if (c->num_regions == 0) {
        /* Nothing to bind; a range test against 0 would warn as always true. */
        ta_template(b, &f,
                    "int32_t ${prefix}_bind_arena(${prefix}_arena_region_t region, void *buffer,"
                    " size_t size)\n{\n"
                    "    (void)region;\n    (void)buffer;\n    (void)size;\n"
                    "    return TA_ERR_UNKNOWN_REGION;\n}\n\n");
    } else {
        /* Compared as unsigned: with short enums (arm-none-eabi) the type is
           unsigned and a "< 0" test warns as always false. */
        ta_template(
            b, &f,
            "int32_t ${prefix}_bind_arena(${prefix}_arena_region_t region, void *buffer,"
            " size_t size)\n{\n"
            "    if ((unsigned)region >= (unsigned)${PREFIX}_NUM_ARENA_REGIONS)\n"
            "        return TA_ERR_UNKNOWN_REGION;\n"
            "    if (buffer == NULL)\n        return TA_ERR_NULL_BUFFER;\n"
            "    if (size < ${prefix}_arena_sizes[region])\n"
            "        return TA_ERR_BUFFER_TOO_SMALL;\n"
            "    if ((uintptr_t)buffer % ${prefix}_arena_alignments[region] != 0)\n"
            "        return TA_ERR_MISALIGNED_BUFFER;\n"
            "    /* Regions never share bytes: a buffer over another (the constant\n"
            "       blob, say) would be overwritten by the run. */\n"
            "    uintptr_t lo = (uintptr_t)buffer, hi = lo + ${prefix}_arena_sizes[region];\n"
            "    for (int r = 0; r < ${PREFIX}_NUM_ARENA_REGIONS; r++) {\n"
            "        uintptr_t other = (uintptr_t)${prefix}_bound[r];\n"
            "        if (r != (int)region && other != 0 && lo < other + ${prefix}_arena_sizes[r] "
            "&&\n"
            "            other < hi)\n"
            "            return TA_ERR_OVERLAPPING_BUFFER;\n"
            "    }\n"
            "    ${prefix}_bound[region] = buffer;\n"
            "    if (${prefix}_initialized) {\n"
            "        /* Runs wait for a model_init over the new buffer. */\n"
            "        ${prefix}_initialized = 0;\n        ${prefix}_rebound = 1;\n    }\n"
            "    return TA_OK;\n}\n\n");
    }
    ta_template(
        b, &f,
        "int32_t ${prefix}_bind_arenas(void *const *buffers, const size_t *sizes, size_t n)\n"
        "{\n"
        "    if (buffers == NULL || sizes == NULL)\n"
        "        return TA_ERR_BULK_NULL_ARGUMENT;\n"
        "    if (n != (size_t)${prefix}_num_arena_buffers)\n"
        "        return TA_ERR_BULK_WRONG_COUNT;\n"
        "    for (int i = 0; i < ${PREFIX}_NUM_ARENA_REGIONS; i++) {\n"
        "        int32_t status = ${prefix}_bind_arena((${prefix}_arena_region_t)i,"
        " buffers[i], sizes[i]);\n"
        "        if (status != TA_OK)\n            return status;\n    }\n"
        "    return TA_OK;\n}\n\n"
        "static int ${prefix}_bind_by_index(int region, void *buffer, size_t size)\n{\n"
        "    return ${prefix}_bind_arena((${prefix}_arena_region_t)region, buffer, size);\n"
        "}\n\n");
    ta_field(&f, "bind", ta_format(c->pool, "%s_bind_by_index", c->p));
    ta_template(b, &f, descriptor);
}

static void emit_io_pointer(const Ctx *c, TaBuf *b, const char *field, int i, const TaTensor *t)
{
    const char *data = "NULL";
    if (t->place.region) {
        data = ta_format(c->pool, "(int8_t *)(%s + %zu)", region_base(c, t->place.region),
                         t->place.offset);
    }
    TaFields f = ta_fields(c->pool, &c->fields);
    ta_field(&f, "field", field);
    ta_field_int(&f, "index", i);
    ta_field(&f, "data", data);
    const bool input = strcmp(field, "inputs") == 0;
    ta_field(&f, "KIND", input ? "INPUT" : "OUTPUT");
    ta_field(&f, "id", ta_tensor_enum(c->pool, c->p, t));
    ta_template(b, &f,
                "    ctx->$field[$index].id = $id;\n"
                "    ctx->$field[$index].data = $data;\n"
                "    ctx->$field[$index].size = ${PREFIX}_${KIND}${index}_SIZE;\n");
    ta_emit_io_quantization(c->in, &f, b, t, input, i);
}

/* An IF or WHILE marker (ir.h, TaControl) as the C statement it opens or
   closes; returns the indentation depth after it. */
static int emit_control(const Ctx *c, TaBuf *b, const TaOp *op, int depth)
{
    const char *cond = op->control_cond ? tensor_ptr(c, op->control_cond) : NULL;
    const char *in = ta_format(c->pool, "%*s", 4 * depth, "");
    const char *out = depth > 1 ? ta_format(c->pool, "%*s", 4 * (depth - 1), "") : in;
    const char *from = op->model_index >= 0 && op->model_subgraph > 0
                           ? ta_format(c->pool, " (model subgraph %d operator %d)",
                                       op->model_subgraph, op->model_index)
                       : op->model_index >= 0
                           ? ta_format(c->pool, " (model operator %d)", op->model_index)
                           : "";
    switch (op->control) {
    case TA_CONTROL_IF_BEGIN:
        ta_buf_printf(b, "%s/* layer %d: IF%s */\n%sif (%s[0]) {\n", in, op->index, from, in, cond);
        return depth + 1;
    case TA_CONTROL_IF_ELSE:
        ta_buf_printf(b, "%s} else { /* layer %d */\n", out, op->index);
        return depth;
    case TA_CONTROL_IF_END:
    case TA_CONTROL_LOOP_END:
        ta_buf_printf(b, "%s} /* layer %d: end of %s */\n", out, op->index,
                      op->control == TA_CONTROL_IF_END ? "IF" : "WHILE");
        return depth - 1;
    case TA_CONTROL_LOOP_BEGIN:
        ta_buf_printf(b, "%s/* layer %d: WHILE%s */\n%sfor (;;) {\n", in, op->index, from, in);
        return depth + 1;
    case TA_CONTROL_LOOP_TEST:
        ta_buf_printf(b, "%sif (!%s[0]) /* layer %d: the loop's condition */\n%s    break;\n", in,
                      cond, op->index, in);
        return depth;
    case TA_CONTROL_NONE: break;
    }
    ta_unreachable();
    return depth;
}

static void emit_schedule(const Ctx *c, TaBuf *b)
{
    const TaGraph *g = c->in->graph;
    TaFields f = ta_fields(c->pool, &c->fields);
    if (!c->table) {
        ta_template(b, &f,
                    "static int32_t ${prefix}_run_operators(${prefix}_model_context_t *ctx)\n{\n"
                    "    (void)ctx;\n");
        int depth = 1; /* of the statement's indentation */
        for (int i = 0; i < g->ops.len; i++)
            if (ta_op_calls_with_role(TA_OP(g, i), "run")) {
                ta_buf_puts(b, "    int32_t status;\n");
                break;
            }
        for (int i = 0; i < g->ops.len; i++) {
            const TaOp *op = TA_OP(g, i);
            if (op->control != TA_CONTROL_NONE) {
                depth = emit_control(c, b, op, depth);
                continue;
            }
            const char *indent = ta_format(c->pool, "%*s", 4 * depth, "");
            if (!ta_op_calls_with_role(op, "run")) {
                ta_buf_printf(b, "%s/* layer %d: %s needs no code (%s) */\n", indent, i,
                              ta_escape_c_comment(c->pool, op->type),
                              op->num_outputs && op->outputs[0]->alias_of
                                  ? "its output shares its input's bytes"
                              : op->lowered.calls.len ? "it only initializes state"
                              : op->lowered.no_code
                                  ? ta_escape_c_comment(c->pool, op->lowered.no_code)
                                  : "its outputs share their inputs' bytes");
                continue;
            }
            ta_buf_printf(b, "%sif ((status = %s_run()) != TA_OK)\n%s    return status;\n", indent,
                          op->lowered.symbol, indent);
        }
        ta_buf_puts(b, "    return TA_OK;\n}\n\n");
        return;
    }
    ta_field_int(&f, "operator_slots", g->ops.len ? g->ops.len : 1);
    ta_template(b, &f,
                "typedef int (*${prefix}_op_fn)(void);\n"
                "/* The schedule, by layer_index; NULL: no code for that layer. */\n"
                "static const ${prefix}_op_fn ${prefix}_schedule[$operator_slots] = {\n");
    for (int i = 0; i < g->ops.len; i++) {
        const TaOp *op = TA_OP(g, i);
        if (ta_op_calls_with_role(op, "run"))
            ta_buf_printf(b, "    %s_run,\n", op->lowered.symbol);
        else
            ta_buf_printf(b, "    NULL, /* %s */\n", ta_escape_c_comment(c->pool, op->type));
    }
    if (!g->ops.len)
        ta_buf_puts(b, "    NULL\n");
    ta_buf_puts(b, "};\n\n");
    ta_template(b, &f,
                "/* The init hooks, by layer_index; NULL: that layer has none. */\n"
                "static const ${prefix}_op_fn ${prefix}_init_schedule[$operator_slots] = {\n");
    for (int i = 0; i < g->ops.len; i++) {
        const TaOp *op = TA_OP(g, i);
        if (ta_op_calls_with_role(op, "init"))
            ta_buf_printf(b, "    %s_init,\n", op->lowered.symbol);
        else
            ta_buf_puts(b, "    NULL,\n");
    }
    if (!g->ops.len)
        ta_buf_puts(b, "    NULL\n");
    ta_buf_puts(b, "};\n\n");
    /* One loop for both phases: init reports states 0/1, run 2/3. */
    ta_template(b, &f,
                "static int32_t ${prefix}_each_operator(${prefix}_model_context_t *ctx,\n"
                "                                       const ${prefix}_op_fn *hooks,"
                " ${prefix}_operator_state_t started)\n{\n"
                "    const ${prefix}_operator_callback callback = ctx->callback;\n"
                "    const ${prefix}_operator_state_t finished ="
                " (${prefix}_operator_state_t)(started + 1);\n"
                "    int32_t status = TA_OK;\n"
                "    for (int32_t i = 0; i < ${PREFIX}_NUM_OPERATORS; i++) {\n"
                "        if (callback)\n"
                "            callback(i, started, status, ctx->user_data);\n"
                "        status = hooks[i] ? hooks[i]() : TA_OK;\n"
                "        if (callback)\n"
                "            callback(i, finished, status, ctx->user_data);\n"
                "        if (status != TA_OK)\n            return status;\n    }\n"
                "    return TA_OK;\n}\n\n"
                "static int32_t ${prefix}_run_operators(${prefix}_model_context_t *ctx)\n{\n"
                "    return ${prefix}_each_operator(ctx, ${prefix}_schedule,"
                " ${prefix}_op_state_run_started);\n}\n\n");
}

/* The weak default hydration: one copy per staged region, into the buffer
   the context's arena table holds for it. */
static void emit_hydrate(const Ctx *c, TaBuf *b)
{
    TaFields f = ta_fields(c->pool, &c->fields);
    ta_template(b, &f,
                "TA_WEAK int32_t ${prefix}_hydrate_constants(${prefix}_model_context_t *ctx)\n{\n"
                "    if (ctx == NULL)\n        return TA_ERR_NULL_CONTEXT;\n"
                "    if (ctx->arena_buffers == NULL)\n"
                "        return TA_ERR_HYDRATE_UNINITIALIZED;\n"
                "    if (${prefix}_hydrated)\n        return TA_OK;\n");
    for (int i = 0; i < c->num_regions; i++) {
        const TaRegion *r = region(c, i);
        if (!r->staged)
            continue;
        TaFields rf = ta_fields(c->pool, &f);
        ta_field(&rf, "region", ta_region_enum(c->pool, c->p, r));
        ta_template(b, &rf,
                    "    if (ctx->arena_buffers[$region] == NULL)\n"
                    "        return TA_ERR_HYDRATE_NULL_BLOB;\n");
    }
    for (int i = 0; i < c->num_regions; i++) {
        const TaRegion *r = region(c, i);
        if (!r->staged)
            continue;
        TaFields rf = ta_fields(c->pool, &f);
        ta_field(&rf, "region", ta_region_enum(c->pool, c->p, r));
        ta_field(&rf, "source", r->source_symbol);
        ta_field_size(&rf, "guard", r->guard);
        ta_field_size(&rf, "source_guard", r->source_guard);
        ta_field_size(&rf, "size", r->size);
        /* The table is const for the application's sake; the buffer is writable. */
        ta_template(b, &rf,
                    "    memcpy((uint8_t *)(uintptr_t)ctx->arena_buffers[$region] + $guard,\n"
                    "           $source + $source_guard, $size);\n");
    }
    ta_template(b, &f, "    ${prefix}_mark_hydrated();\n    return TA_OK;\n}\n\n");
}

static void emit_context_init(const Ctx *c, TaBuf *b)
{
    const TaGraph *g = c->in->graph;
    TaFields f = ta_fields(c->pool, &c->fields);
    ta_field_int(&f, "region_slots", c->num_regions ? c->num_regions : 1);
    if (c->own) {
        TaBuf bases = {0};
        for (int i = 0; i < c->num_regions; i++)
            ta_buf_printf(&bases, "%s%s", i ? ", " : "", region(c, i)->symbol);
        ta_field(&f, "bases", bases.len ? ta_strdup(c->pool, bases.data) : "NULL");
        ta_buf_free(&bases);
        ta_template(
            b, &f,
            "/* Each region's arena, as ctx->arena_buffers shows it. */\n"
            "static const void *const ${prefix}_arena_table[$region_slots] = {$bases};\n\n");
    }
    ta_template(b, &f,
                "int32_t ${prefix}_context_init(${prefix}_model_context_t *ctx)\n{\n"
                "    if (ctx == NULL)\n        return TA_ERR_NULL_CONTEXT;\n");
    if (!c->own)
        ta_template(b, &f,
                    "    for (int i = 0; i < ${PREFIX}_NUM_ARENA_REGIONS; i++)\n"
                    "        if (${prefix}_bound[i] == NULL)\n"
                    "            return TA_ERR_UNBOUND_REGION;\n"
                    "    ctx->arena_buffers = (const void *const *)${prefix}_bound;\n");
    else
        ta_template(b, &f, "    ctx->arena_buffers = ${prefix}_arena_table;\n");
    ta_template(b, &f, "    ctx->arena_sizes = ${prefix}_arena_sizes;\n");
    for (int i = 0; i < g->inputs.len; i++)
        emit_io_pointer(c, b, "inputs", i, g->inputs.items[i]);
    for (int i = 0; i < g->outputs.len; i++)
        emit_io_pointer(c, b, "outputs", i, g->outputs.items[i]);
    if (c->staged)
        ta_template(b, &f, "    ${prefix}_clear_hydrated();\n");
    ta_template(b, &f, "    return TA_OK;\n}\n\n");
}

static void emit_model_init(const Ctx *c, TaBuf *b)
{
    const TaGraph *g = c->in->graph;
    TaFields f = ta_fields(c->pool, &c->fields);
    ta_template(b, &f,
                "int32_t ${prefix}_model_init(${prefix}_model_context_t *ctx)\n{\n"
                "    if (ctx == NULL)\n        return TA_ERR_NULL_CONTEXT;\n"
                "    ${prefix}_initialized = 0;\n");
    if (!c->own)
        ta_template(b, &f, "    ${prefix}_rebound = 0;\n");
    ta_template(b, &f,
                "    int32_t status = ${prefix}_context_init(ctx);\n"
                "    if (status != TA_OK)\n        return status;\n");
    for (int i = 0; i < c->num_regions; i++) {
        const TaRegion *r = region(c, i);
        if (r->role == TA_REGION_PERSISTENT)
            ta_buf_printf(b, "    memset(%s, 0, %zu);\n", region_base(c, r), r->size);
    }
    if (c->staged)
        ta_template(b, &f,
                    "    if ((status = ${prefix}_hydrate_constants(ctx)) != TA_OK)\n"
                    "        return status;\n"
                    "    /* Success without the latch: the staged bytes may not be there. */\n"
                    "    if (!${prefix}_hydrated)\n        return TA_ERR_HYDRATION_FAILED;\n");
    /* State that does not start at zero bytes (zero points, initial
       values of variables), in layer order, once constants are in place. */
    if (c->table) {
        ta_template(b, &f,
                    "    status = ${prefix}_each_operator(ctx, ${prefix}_init_schedule,"
                    " ${prefix}_op_state_init_started);\n"
                    "    if (status != TA_OK)\n        return status;\n");
    } else {
        for (int i = 0; i < g->ops.len; i++) {
            const TaOp *op = TA_OP(g, i);
            if (ta_op_calls_with_role(op, "init"))
                ta_buf_printf(b, "    if ((status = %s_init()) != TA_OK)\n        return status;\n",
                              op->lowered.symbol);
        }
    }
    ta_template(b, &f, "    ${prefix}_initialized = 1;\n    return TA_OK;\n}\n\n");
}

static void emit_model_c(const Ctx *c, TaBuf *b)
{
    TaFields f = ta_fields(c->pool, &c->fields);
    ta_template(b, &f,
                "/* $model_c - generated by tinyaot: initialization and scheduling. */\n"
                "#include \"${prefix}_internal.h\"\n\n#include <string.h>\n\n");
    ta_emit_cpu_check(c->in, b);
    emit_tables(c, b);
    ta_template(b, &f,
                "/* Module-global: one model instance per prefix. */\n"
                "static int ${prefix}_initialized;\n");
    if (c->staged)
        ta_template(b, &f, "static bool ${prefix}_hydrated;\n");
    if (!c->own)
        ta_template(b, &f,
                    "static int ${prefix}_rebound; /* bound since the last successful init */\n");
    ta_buf_puts(b, "\n");
    emit_binding(c, b);
    if (c->staged) {
        ta_template(
            b, &f,
            "bool ${prefix}_is_hydrated(void)\n{\n    return ${prefix}_hydrated;\n}\n\n"
            "void ${prefix}_mark_hydrated(void)\n{\n    ${prefix}_hydrated = true;\n}\n\n"
            "void ${prefix}_clear_hydrated(void)\n{\n    ${prefix}_hydrated = false;\n}\n\n");
        emit_hydrate(c, b);
    } else {
        ta_template(b, &f, "void ${prefix}_mark_hydrated(void)\n{\n}\n\n");
    }
    emit_context_init(c, b);
    emit_schedule(c, b);
    emit_model_init(c, b);
    ta_template(b, &f,
                "int32_t ${prefix}_model_run(${prefix}_model_context_t *ctx)\n{\n"
                "    if (ctx == NULL)\n        return TA_ERR_NULL_CONTEXT;\n");
    ta_template(b, &f,
                c->own ? "    if (!${prefix}_initialized)\n        return TA_ERR_NOT_INITIALIZED;\n"
                       : "    if (!${prefix}_initialized)\n"
                         "        return ${prefix}_rebound ? TA_ERR_ARENA_REBOUND"
                         " : TA_ERR_NOT_INITIALIZED;\n");
    if (c->staged)
        ta_template(b, &f,
                    "    if (!${prefix}_hydrated)\n        return TA_ERR_HYDRATION_REQUIRED;\n");
    ta_template(b, &f, "    return ${prefix}_run_operators(ctx);\n}\n\n");
    ta_emit_io_source(c->in, &c->fields, b);
    ta_emit_identity_source(c->in, &c->fields, b);
}

bool ta_emit_sources(const TaEmitInput *in, const char *dir)
{
    Ctx c = {.in = in,
             .pool = in->pool,
             .p = in->prefix,
             .P = ta_upper(in->pool, in->prefix),
             .own = in->config->allocate_arenas,
             .table = strcmp(in->config->module_schedule, "table") == 0,
             .num_regions = in->plan->regions.len};
    if (c.table && ta_graph_has_control_flow(in->graph)) {
        ta_error(in->diag, "module.schedule: table runs operators from a table, which cannot "
                           "express IF or WHILE; use module.schedule: calls");
        return false;
    }
    c.tensor_pointers = name_tensor_pointers(&c);
    c.fields = ta_fields(in->pool, NULL);
    ta_field(&c.fields, "prefix", c.p);
    ta_field(&c.fields, "PREFIX", c.P);
    ta_field(&c.fields, "model_h", ta_model_file(in->pool, in->prefix, "h"));
    ta_field(&c.fields, "model_c", ta_model_file(in->pool, in->prefix, "c"));
    for (int i = 0; i < c.num_regions; i++)
        c.staged = c.staged || region(&c, i)->staged;
    struct {
        const char *name;
        void (*fn)(const Ctx *, TaBuf *);
    } files[] = {
        {ta_model_file(in->pool, in->prefix, "h"), emit_header},
        {ta_format(in->pool, "%s_internal.h", in->prefix), emit_internal},
        {ta_model_file(in->pool, in->prefix, "c"), emit_model_c},
        {ta_format(in->pool, "%s_constants.c", in->prefix), emit_constants},
        {ta_format(in->pool, "%s_arenas.c", in->prefix), emit_arenas},
    };
    bool ok = true;
    for (size_t i = 0; i < TA_COUNT_OF(files) && ok; i++) {
        TaBuf b = {0};
        files[i].fn(&c, &b);
        ok = ta_emit_write(in, dir, files[i].name, &b);
        ta_buf_free(&b);
    }
    for (int i = 0; i < in->graph->ops.len && ok; i++)
        if (TA_OP(in->graph, i)->lowered.calls.len)
            ok = emit_op(&c, dir, TA_OP(in->graph, i));
    ok = ok && ta_emit_helia_files(in, &c.fields, dir);
    /* Sidecars: the data of each cold constant region the application binds. */
    for (int i = 0; i < c.num_regions && ok; i++) {
        const TaRegion *r = region(&c, i);
        if (r->sidecar_file)
            ok = ta_write_file(in->diag, ta_path_join(in->pool, dir, r->sidecar_file), r->bytes,
                               r->size);
    }
    return ok;
}
