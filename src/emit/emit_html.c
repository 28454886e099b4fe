/*
 * emit_html.c - <prefix>_documentation.html (documentation.html: true):
 * one page a person reads to see what a conversion made. It shows the
 * conversion's summary, the model's inputs and outputs with their
 * quantization, the operators (type, shapes, MACs, kernels), the regions
 * and memories, and a picture of the memory plan: per region, offset down
 * against operator index across, one rectangle per planned tensor, whose
 * SVG <title> (the hover text) gives its name, id, size and lifetime and
 * which carries its id and name when it is large enough (plan_label.c).
 * The picture is drawn in pixels: a fixed width, and an offset axis that
 * is linear but draws no tensor thinner than MIN_TENSOR_PX (plan_axis.c);
 * each rectangle keeps its plan's offset and size in data- attributes.
 *
 * Every figure comes from what the rest of the module is written from:
 * the views (report/views.c, as <prefix>_views.json), the analysis
 * (report/analyze.c, as `tinyaot analyze`) and the plan's regions and
 * lifetimes (as <prefix>_residency.json); nothing is computed here twice.
 *
 * The page is self-contained and loads nothing: the stylesheet
 * (documentation.css, built into tinyaot) is pasted in, the pictures are
 * inline SVG, there is no script, and a Content-Security-Policy forbids
 * every fetch. Its bytes depend only on the conversion (no date, no
 * absolute path), and every string from the model, the target or the
 * configuration goes through ta_escape_markup.
 */
#include "emit.h"

#include "../config/resources.h"
#include "../report/analyze.h"
#include "../report/views.h"
#include "../util/template.h"
#include "escape.h"
#include "plan_axis.h"
#include "plan_label.h"

#include <string.h>

/* The picture's fixed measures in pixels: the plot's width and its height
   where the offset axis is linear, the least height a tensor is drawn
   (plan_axis.h), the room for the offset labels on the left, for the
   operator labels below, and the margins above and on the right. */
enum {
    PLOT_WIDTH = 960,
    PLOT_HEIGHT = 280,
    MIN_TENSOR_PX = 3,
    AXIS_LEFT = 96,
    AXIS_BELOW = 38,
    MARGIN_TOP = 8,
    MARGIN_RIGHT = 16
};

typedef struct Doc {
    const TaEmitInput *in;
    TaPool *pool;
    TaBuf *b;
    tinyaot_result views; /* the same views <prefix>_views.json holds */
    const tinyaot_analysis *analysis;
    TaFields fields; /* page-wide: prefix, model, css */
} Doc;

static const char *esc(const Doc *d, const char *s)
{
    return ta_escape_markup(d->pool, s ? s : "");
}

/* The text built in `b`, moved into the pool. */
static const char *kept(const Doc *d, TaBuf *b)
{
    const char *s = ta_strdup(d->pool, b->data ? b->data : "");
    ta_buf_free(b);
    return s;
}

/* 1234567 -> "1,234,567": the page is read by people. */
static const char *grouped(const Doc *d, int64_t v)
{
    unsigned long long magnitude = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    const char *digits = ta_format(d->pool, "%llu", magnitude);
    size_t n = strlen(digits);
    TaBuf b = {0};
    if (v < 0)
        ta_buf_puts(&b, "-");
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            ta_buf_puts(&b, ",");
        ta_buf_append(&b, digits + i, 1);
    }
    return kept(d, &b);
}

/* ---- tables ----------------------------------------------------------------- */

static void table_begin(const Doc *d, const char *const *heads, size_t n)
{
    ta_buf_puts(d->b, "<div class=\"scroll\"><table>\n<tr>");
    for (size_t i = 0; i < n; i++)
        ta_buf_printf(d->b, "<th>%s</th>", heads[i]);
    ta_buf_puts(d->b, "</tr>\n");
}

static void table_end(const Doc *d)
{
    ta_buf_puts(d->b, "</table></div>\n");
}

/* A cell of HTML already escaped (or made here from numbers). */
static void cell(const Doc *d, const char *html)
{
    ta_buf_printf(d->b, "<td>%s</td>", html);
}

static void text_cell(const Doc *d, const char *text)
{
    cell(d, esc(d, text));
}

/* A name from the model: long and without spaces, so it may wrap anywhere. */
static void name_cell(const Doc *d, const char *text)
{
    ta_buf_printf(d->b, "<td class=\"name\">%s</td>", esc(d, text));
}

static void number_cell(const Doc *d, int64_t v)
{
    ta_buf_printf(d->b, "<td class=\"num\">%s</td>", grouped(d, v));
}

/* A number the views may leave out (None): an empty cell then. */
static void optional_number_cell(const Doc *d, bool present, int64_t v)
{
    if (present)
        number_cell(d, v);
    else
        cell(d, "");
}

/* A row of the summary: a heading cell and a value. */
static void summary_row(const Doc *d, const char *head, const char *html)
{
    ta_buf_printf(d->b, "<tr><th>%s</th><td class=\"name\">%s</td></tr>\n", head, html);
}

/* ---- tensors as the views give them ----------------------------------------------- */

static const tinyaot_tensor_view *tensor_view(const Doc *d, const char *id)
{
    for (size_t i = 0; i < d->views.num_tensors; i++)
        if (strcmp(d->views.tensors[i].id, id) == 0)
            return &d->views.tensors[i];
    return NULL;
}

/* "[1, 49, 10, 1]" */
static const char *shape_text(const Doc *d, const tinyaot_tensor_view *t)
{
    TaBuf b = {0};
    ta_buf_puts(&b, "[");
    for (size_t i = 0; i < t->rank; i++)
        ta_buf_printf(&b, "%s%lld", i ? ", " : "", (long long)t->shape[i]);
    ta_buf_puts(&b, "]");
    return kept(d, &b);
}

/* The shape in a table: kept on one line. */
static const char *shape_html(const Doc *d, const tinyaot_tensor_view *t)
{
    return ta_format(d->pool, "<span class=\"shape\">%s</span>", shape_text(d, t));
}

/* Per-channel lists are long: the first few and the count. */
enum { LISTED_CHANNELS = 4 };

static const char *scales_text(const Doc *d, const tinyaot_quantization_view *q)
{
    if (!q)
        return "";
    TaBuf b = {0};
    for (size_t i = 0; i < q->num_scales && i < LISTED_CHANNELS; i++) {
        ta_buf_puts(&b, i ? ", " : "");
        ta_buf_shortest_double(&b, q->scale[i]);
    }
    if (q->num_scales > LISTED_CHANNELS)
        ta_buf_printf(&b, ", ... (%zu channels, axis %d)", q->num_scales, q->axis);
    return kept(d, &b);
}

static const char *zero_points_text(const Doc *d, const tinyaot_quantization_view *q)
{
    if (!q)
        return "";
    TaBuf b = {0};
    for (size_t i = 0; i < q->num_zero_points && i < LISTED_CHANNELS; i++)
        ta_buf_printf(&b, "%s%lld", i ? ", " : "", (long long)q->zero_point[i]);
    if (q->num_zero_points > LISTED_CHANNELS)
        ta_buf_puts(&b, ", ...");
    return kept(d, &b);
}

/* "<code>7</code> int8 [1, 16]" per tensor, one line each. */
static const char *tensor_list_html(const Doc *d, const char *const *ids, size_t n)
{
    TaBuf b = {0};
    for (size_t i = 0; i < n; i++) {
        const tinyaot_tensor_view *t = tensor_view(d, ids[i]);
        ta_buf_printf(&b, "%s<span class=\"tensor\"><code>%s</code>", i ? "<br>" : "",
                      esc(d, ids[i]));
        if (t)
            ta_buf_printf(&b, " %s %s", esc(d, t->dtype), shape_html(d, t));
        ta_buf_puts(&b, "</span>");
    }
    return kept(d, &b);
}

/* ---- sections --------------------------------------------------------------------- */

static void summary_section(const Doc *d)
{
    const TaEmitInput *in = d->in;
    const TaConfig *cfg = in->config;
    const tinyaot_analysis *a = d->analysis;
    ta_buf_puts(d->b, "<h2 id=\"summary\">Summary</h2>\n<table>\n");
    summary_row(d, "Model", esc(d, ta_basename(in->model->path)));
    summary_row(d, "Subgraph",
                ta_format(d->pool, "%d%s%s", in->graph->model_index, in->graph->name ? " " : "",
                          esc(d, in->graph->name)));
    summary_row(d, "Prefix", ta_format(d->pool, "<code>%s</code>", esc(d, in->prefix)));
    summary_row(d, "Target", esc(d, in->plan->target->name));
    summary_row(d, "Generator", "tinyaot " TINYAOT_VERSION);
    /* h14-features: model.name, model.description, model.version and the
       plan hash (<PREFIX>_PLAN_HASH) belong here, as more summary_row()s,
       once the configuration and the plan carry them. */
    summary_row(d, "Operators", grouped(d, (int64_t)d->views.num_operators));
    summary_row(d, "MACs per run", grouped(d, a->total_macs));
    summary_row(d, "Tensors", grouped(d, (int64_t)d->views.num_tensors));
    summary_row(
        d, "Schedule",
        ta_format(d->pool, "<code>module.schedule: %s</code>", esc(d, cfg->module_schedule)));
    summary_row(d, "Arenas",
                cfg->allocate_arenas
                    ? "allocated by the module"
                    : "bound by the application (<code>memory.allocate_arenas: false</code>)");
    summary_row(d, "Flash (estimate)",
                ta_format(d->pool, "%s bytes: code %s, kernels %s, constants %s (%s)",
                          grouped(d, a->flash_total), grouped(d, a->flash_code),
                          grouped(d, a->flash_kernels), grouped(d, a->flash_constants),
                          esc(d, a->flash_basis)));
    summary_row(d, "Kernel stack",
                ta_format(d->pool, "%s bytes on Cortex-M55, %s on Cortex-M4 (%s)",
                          grouped(d, a->kernel_stack_m55), grouped(d, a->kernel_stack_m4),
                          esc(d, a->kernel_stack_basis)));
    ta_buf_puts(d->b, "</table>\n");
}

static void io_rows(const Doc *d, bool inputs)
{
    for (size_t i = 0; i < d->views.num_tensors; i++) {
        const tinyaot_tensor_view *t = &d->views.tensors[i];
        int index = inputs ? t->input_index : t->output_index;
        if (index < 0)
            continue;
        const tinyaot_placement_view *p = &d->views.placements[i]; /* tensor order */
        ta_buf_puts(d->b, "<tr>");
        cell(d, inputs ? "input" : "output");
        number_cell(d, index);
        cell(d, ta_format(d->pool, "<code>%s</code>", esc(d, t->id)));
        name_cell(d, t->name);
        text_cell(d, t->dtype);
        cell(d, shape_html(d, t));
        text_cell(d, scales_text(d, t->quantization));
        text_cell(d, zero_points_text(d, t->quantization));
        if (p->region >= 0) {
            number_cell(d, p->region);
            number_cell(d, p->offset);
        } else {
            cell(d, "");
            cell(d, "");
        }
        /* The tensor's own bytes, then what the plan allocated for it
           (rounded up to the region's alignment: views' nbytes). */
        number_cell(d, (int64_t)ta_tensor_bytes(TA_TENSOR(d->in->graph, (int)i)));
        number_cell(d, t->nbytes);
        ta_buf_puts(d->b, "</tr>\n");
    }
}

static void io_section(const Doc *d)
{
    static const char *const heads[] = {"",       "index",  "id",    "name",
                                        "dtype",  "shape",  "scale", "zero point",
                                        "region", "offset", "bytes", "allocated"};
    ta_buf_puts(d->b, "<h2 id=\"io\">Inputs and outputs</h2>\n"
                      "<p class=\"note\">real value = (quantized value - zero point) &times; "
                      "scale</p>\n");
    table_begin(d, heads, TA_COUNT_OF(heads));
    io_rows(d, true);
    io_rows(d, false);
    table_end(d);
}

static const char *kernel_calls_html(const Doc *d, const tinyaot_operator_view *v)
{
    TaBuf b = {0};
    for (size_t i = 0; i < v->num_kernel_calls; i++)
        ta_buf_printf(&b, "%s%s: <code>%s</code>", i ? "<br>" : "", esc(d, v->kernel_calls[i].role),
                      esc(d, v->kernel_calls[i].function));
    if (!v->num_kernel_calls)
        ta_buf_puts(&b, "none (shares its input's bytes)");
    return kept(d, &b);
}

static void operators_section(const Doc *d)
{
    static const char *const heads[] = {
        "layer",   "symbol", "type",       "model operator", "inputs",
        "outputs", "MACs",   "parameters", "kernels",        "scratch live (bytes)"};
    ta_buf_puts(d->b, "<h2 id=\"operators\">Operators</h2>\n"
                      "<p class=\"note\">In execution order; scratch live counts the scratch "
                      "bytes in use while the operator runs.</p>\n");
    table_begin(d, heads, TA_COUNT_OF(heads));
    for (size_t i = 0; i < d->views.num_operators; i++) {
        const tinyaot_operator_view *v = &d->views.operators[i];
        ta_buf_printf(d->b, "<tr id=\"op-%d\">", v->layer_index);
        number_cell(d, v->layer_index);
        cell(d, ta_format(d->pool, "<code>%s</code>", esc(d, v->symbol)));
        text_cell(d, v->type);
        if (v->num_source_indices)
            number_cell(d, v->source_indices[0]);
        else
            cell(d, "created");
        cell(d, tensor_list_html(d, v->input_ids, v->num_input_ids));
        cell(d, tensor_list_html(d, v->output_ids, v->num_output_ids));
        optional_number_cell(d, v->has_macs, v->macs);
        optional_number_cell(d, v->has_parameters, v->parameters);
        cell(d, kernel_calls_html(d, v));
        number_cell(d, d->analysis->operators[i].scratch_live);
        ta_buf_puts(d->b, "</tr>\n");
    }
    table_end(d);
}

/* Per operator type, in order of first appearance: how many, and their
   share of the MACs (the views' counts summed). */
static void operator_types_table(const Doc *d)
{
    static const char *const heads[] = {"type", "operators", "MACs", "share of MACs"};
    const int64_t total = d->analysis->total_macs;
    ta_buf_puts(d->b, "<h3 id=\"operator-types\">By type</h3>\n");
    table_begin(d, heads, TA_COUNT_OF(heads));
    for (size_t i = 0; i < d->views.num_operators; i++) {
        const char *type = d->views.operators[i].type;
        bool seen = false;
        for (size_t k = 0; k < i && !seen; k++)
            seen = strcmp(d->views.operators[k].type, type) == 0;
        if (seen)
            continue;
        int64_t count = 0, macs = 0;
        for (size_t k = i; k < d->views.num_operators; k++) {
            const tinyaot_operator_view *v = &d->views.operators[k];
            if (strcmp(v->type, type) == 0) {
                count++;
                macs += v->has_macs ? v->macs : 0;
            }
        }
        ta_buf_puts(d->b, "<tr>");
        text_cell(d, type);
        number_cell(d, count);
        number_cell(d, macs);
        /* Tenths of a percent, in integers: the same text everywhere. */
        int64_t permille = total > 0 ? (macs * 1000 + total / 2) / total : 0;
        ta_buf_printf(d->b, "<td class=\"num\">%lld.%lld%%</td></tr>\n", (long long)(permille / 10),
                      (long long)(permille % 10));
    }
    table_end(d);
}

/* Every tensor of the module, in <prefix>_tensor_ident_t order, with
   where it lives and when (operators, the extra column after the run). */
static void tensors_section(const Doc *d)
{
    static const char *const heads[] = {
        "#",      "id",    "name",      "kind",      "dtype",    "shape",          "region",
        "offset", "bytes", "allocated", "first use", "last use", "shares bytes of"};
    const TaGraph *g = d->in->graph;
    ta_buf_puts(d->b, "<h2 id=\"tensors\">Tensors</h2>\n"
                      "<p class=\"note\">Uses are operator indices; the last use of an "
                      "output is one past the last operator: the application reads it after "
                      "the run.</p>\n");
    table_begin(d, heads, TA_COUNT_OF(heads));
    for (size_t i = 0; i < d->views.num_tensors; i++) {
        const tinyaot_tensor_view *v = &d->views.tensors[i];
        const tinyaot_placement_view *p = &d->views.placements[i];
        const TaTensor *t = TA_TENSOR(g, (int)i);
        ta_buf_printf(d->b, "<tr id=\"tensor-%zu\">", i);
        number_cell(d, (int64_t)i);
        cell(d, ta_format(d->pool, "<code>%s</code>", esc(d, v->id)));
        name_cell(d, v->name);
        text_cell(d, v->kind);
        text_cell(d, v->dtype);
        cell(d, shape_html(d, v));
        if (p->region >= 0)
            cell(d, ta_format(d->pool, "<a href=\"#plan-%d\">%d</a>", p->region, p->region));
        else
            cell(d, "none (no bytes)");
        number_cell(d, p->offset);
        number_cell(d, (int64_t)ta_tensor_bytes(t));
        number_cell(d, p->size);
        optional_number_cell(d, t->first_use >= 0, t->first_use);
        optional_number_cell(d, t->last_use >= 0, t->last_use);
        cell(d, t->alias_of ? ta_format(d->pool, "<code>%s</code>",
                                        esc(d, ta_tensor_root((TaTensor *)t)->id))
                            : "");
        ta_buf_puts(d->b, "</tr>\n");
    }
    table_end(d);
}

static void regions_section(const Doc *d)
{
    static const char *const heads[] = {"id",          "name",    "role",     "memory",
                                        "source",      "guard",   "size",     "alignment",
                                        "lower bound", "tensors", "C object", "source / sidecar"};
    ta_buf_puts(d->b, "<h2 id=\"regions\">Regions</h2>\n");
    table_begin(d, heads, TA_COUNT_OF(heads));
    for (size_t i = 0; i < d->views.num_regions; i++) {
        const tinyaot_region_view *v = &d->views.regions[i];
        const TaRegion *r = d->in->plan->regions.items[i];
        ta_buf_printf(d->b, "<tr><td class=\"num\"><a href=\"#plan-%d\">%d</a></td>", v->id, v->id);
        cell(d, ta_format(d->pool, "<code>%s</code>", esc(d, r->name)));
        text_cell(d, v->role);
        text_cell(d, v->memory);
        text_cell(d, v->source_memory);
        number_cell(d, v->offset);
        number_cell(d, v->size);
        number_cell(d, v->alignment);
        optional_number_cell(d, d->views.region_lower_bounds[i] >= 0,
                             d->views.region_lower_bounds[i]);
        number_cell(d, r->tensors.len);
        cell(d, v->symbol ? ta_format(d->pool, "<code>%s</code>", esc(d, v->symbol))
                          : "bound by the application");
        const char *extra = v->source_symbol ? v->source_symbol : v->sidecar_file;
        cell(d, extra ? ta_format(d->pool, "<code>%s</code>", esc(d, extra)) : "");
        ta_buf_puts(d->b, "</tr>\n");
    }
    table_end(d);
}

static void memories_section(const Doc *d)
{
    static const char *const heads[] = {"memory",     "usable",    "scratch", "scratch lower bound",
                                        "persistent", "constants", "staged",  "staged sources",
                                        "used",       "budget",    "free"};
    ta_buf_puts(d->b, "<h2 id=\"memories\">Memories</h2>\n"
                      "<p class=\"note\">Bytes per memory of the target, guards and alignment "
                      "padding included.</p>\n");
    table_begin(d, heads, TA_COUNT_OF(heads));
    for (size_t i = 0; i < d->analysis->num_memories; i++) {
        const tinyaot_memory_summary *m = &d->analysis->memories[i];
        ta_buf_puts(d->b, "<tr>");
        text_cell(d, m->memory);
        cell(d, m->usable ? "yes" : "no");
        number_cell(d, m->scratch);
        number_cell(d, m->scratch_lower_bound);
        number_cell(d, m->persistent);
        number_cell(d, m->constants);
        number_cell(d, m->staged);
        number_cell(d, m->staged_sources);
        number_cell(d, m->used);
        number_cell(d, m->budget);
        number_cell(d, m->free);
        ta_buf_puts(d->b, "</tr>\n");
    }
    table_end(d);
}

/* ---- the picture of the plan ------------------------------------------------------- */

/* Operator i as the hover texts name it: "3 (CONV_2D)". */
static const char *op_text(const Doc *d, int layer)
{
    const TaGraph *g = d->in->graph;
    if (layer < 0 || layer >= g->ops.len)
        return ta_format(d->pool, "%d", layer);
    return ta_format(d->pool, "%d (%s)", layer, TA_OP(g, layer)->type);
}

/* What the rectangle's width stands for, in words. Scratch tensors live
   from their first to their last use; inputs are written by the
   application before operator 0, outputs read after the last operator
   (the extra column); state and constants last as long as the module. */
static const char *lifetime_text(const Doc *d, const TaTensor *t, const TaRegion *r)
{
    const int num_ops = d->in->graph->ops.len;
    const int last_op = t->last_use < num_ops ? t->last_use : num_ops - 1;
    const char *uses;
    if (t->first_use < 0)
        uses = "no operator uses it";
    else if (t->first_use == last_op)
        uses = ta_format(d->pool, "used by operator %s", op_text(d, last_op));
    else
        uses = ta_format(d->pool, "used by operators %s to %s", op_text(d, t->first_use),
                         op_text(d, last_op));
    if (r->role == TA_REGION_PERSISTENT)
        return ta_format(d->pool, "the life of the module (persistent state), %s", uses);
    if (r->role == TA_REGION_CONSTANT)
        return ta_format(d->pool, "the life of the module (constant%s%s), %s",
                         r->staged ? ", staged from " : "",
                         r->staged ? ta_memory_name(r->source_memory) : "", uses);
    if (t->first_use < 0)
        return "unused";
    const char *from = t->input_index >= 0
                           ? "before operator 0 (the application writes it)"
                           : ta_format(d->pool, "operator %s", op_text(d, t->first_use));
    const char *to = t->last_use >= num_ops
                         ? "after the run (the application reads it)"
                         : ta_format(d->pool, "operator %s", op_text(d, t->last_use));
    return ta_format(d->pool, "from %s to %s", from, to);
}

/* The ids of tensors that share t's bytes (zero-copy views), or NULL. */
static const char *sharers_text(const Doc *d, const TaTensor *t)
{
    const TaGraph *g = d->in->graph;
    TaBuf b = {0};
    for (int i = 0; i < g->tensors.len; i++) {
        TaTensor *other = TA_TENSOR(g, i);
        if (other != t && !other->removed && other->alias_of && ta_tensor_root(other) == t)
            ta_buf_printf(&b, "%s%s", b.len ? ", " : "", other->id);
    }
    const char *s = b.len ? ta_strdup(d->pool, b.data) : NULL;
    ta_buf_free(&b);
    return s;
}

/* The hover text of a tensor's rectangle, as HTML: each value escaped,
   the lines apart (a tooltip shows them as lines). */
static const char *tensor_title(const Doc *d, const TaTensor *t, const TaRegion *r)
{
    const tinyaot_tensor_view *v = tensor_view(d, t->id);
    const char *sharers = sharers_text(d, t);
    TaFields f = ta_fields(d->pool, NULL);
    ta_field(&f, "id", esc(d, t->id));
    ta_field(&f, "name", t->name ? esc(d, ta_format(d->pool, "\"%s\"", t->name)) : "(no name)");
    ta_field(&f, "kind", v ? v->kind : "");
    ta_field(&f, "dtype", v ? esc(d, v->dtype) : "");
    ta_field(&f, "shape", v ? shape_text(d, v) : "");
    ta_field(&f, "size", grouped(d, (int64_t)t->place.size));
    ta_field(&f, "offset", grouped(d, (int64_t)t->place.offset));
    ta_field(&f, "region", esc(d, r->name));
    ta_field(&f, "lifetime", esc(d, lifetime_text(d, t, r)));
    ta_field(&f, "sharers",
             sharers ? ta_format(d->pool, "\nalso tensors %s (the same bytes)", esc(d, sharers))
                     : "");
    TaBuf b = {0};
    ta_template(&b, &f,
                "tensor $id $name, $kind\n$dtype $shape, $size bytes at offset $offset of "
                "$region\nlive: $lifetime$sharers");
    return kept(d, &b);
}

/* Where a region's picture sits and how it scales: pixels in hundredths.
   Across, the plot is PLOT_WIDTH pixels whatever the operator count, one
   equal column per operator and one for the application after the run. */
typedef struct Plot {
    const TaRegion *r;
    TaPlanAxis axis;
    int columns;
    int64_t left, top, width;
} Plot;

static int64_t column_x(const Plot *p, int column)
{
    return p->left + p->width * column / p->columns;
}

static int64_t offset_y(const Plot *p, size_t offset)
{
    return p->top + ta_plan_axis_at(&p->axis, offset);
}

static Plot plot_of(const Doc *d, const TaRegion *r)
{
    TaByteRange *ranges = ta_alloc_array(d->pool, (size_t)r->tensors.len + 1, sizeof *ranges);
    for (int i = 0; i < r->tensors.len; i++) {
        const TaTensor *t = r->tensors.items[i];
        ranges[i] = (TaByteRange){t->place.offset, t->place.size};
    }
    Plot p = {.r = r, .columns = d->in->graph->ops.len + 1};
    p.axis = ta_plan_axis(d->pool, r->size, ranges, r->tensors.len, PLOT_HEIGHT, MIN_TENSOR_PX);
    if (p.axis.height_px < MIN_TENSOR_PX * 100)
        p.axis.height_px = MIN_TENSOR_PX * 100; /* an empty region still shows its frame */
    p.left = AXIS_LEFT * 100;
    p.top = MARGIN_TOP * 100;
    p.width = PLOT_WIDTH * 100;
    return p;
}

/* The columns a tensor's rectangle spans: scratch from its first to its
   last use, every other kind the whole picture. */
static void tensor_columns(const Plot *p, const TaTensor *t, int *first, int *last)
{
    *first = 0;
    *last = p->columns - 1;
    if (p->r->role == TA_REGION_SCRATCH) {
        *first = t->first_use < 0 ? 0 : t->first_use;
        *last = t->last_use < *first ? *first : t->last_use;
    }
}

static void tensor_rect(const Doc *d, const Plot *p, const TaTensor *t)
{
    int first, last;
    tensor_columns(p, t, &first, &last);
    const tinyaot_tensor_view *v = tensor_view(d, t->id);
    const int64_t x = column_x(p, first), y = offset_y(p, t->place.offset);
    TaFields f = ta_fields(d->pool, NULL);
    ta_field(&f, "kind", v ? v->kind : ta_role_name(p->r->role));
    ta_field(&f, "id", esc(d, t->id));
    ta_field(&f, "x", ta_px_text(d->pool, x));
    ta_field(&f, "width", ta_px_text(d->pool, column_x(p, last + 1) - x));
    ta_field(&f, "y", ta_px_text(d->pool, y));
    ta_field(&f, "height", ta_px_text(d->pool, offset_y(p, t->place.offset + t->place.size) - y));
    ta_field_size(&f, "offset", t->place.offset);
    ta_field_size(&f, "size", t->place.size);
    ta_field_int(&f, "first", t->first_use);
    ta_field_int(&f, "last", t->last_use);
    ta_field(&f, "title", tensor_title(d, t, p->r));
    ta_template(d->b, &f,
                "<rect class=\"tensor kind-$kind\" data-id=\"$id\" data-offset=\"$offset\" "
                "data-size=\"$size\" data-first=\"$first\" data-last=\"$last\" x=\"$x\" "
                "y=\"$y\" width=\"$width\" height=\"$height\"><title>$title</title></rect>\n");
}

/* Where a tensor's label goes: columns from..to, bytes lo..hi of it. */
typedef struct LabelArea {
    int from, to;
    size_t lo, hi;
} LabelArea;

static bool bytes_overlap(const TaTensor *a, const TaTensor *b)
{
    return a->place.offset < b->place.offset + b->place.size &&
           b->place.offset < a->place.offset + a->place.size;
}

/* The tensors drawn after t (over it) that share bytes with t: the plan
   may put an operator's output over its input, and their rectangles then
   cover part of t's. */
static int sharers_of(const Doc *d, const Plot *p, const TaTensor *t, const TaTensor ***out)
{
    const TaTensor **sharers = ta_alloc_array(d->pool, (size_t)p->r->tensors.len + 1,
                                              sizeof *sharers);
    int n = 0;
    bool after = false;
    for (int i = 0; i < p->r->tensors.len; i++) {
        const TaTensor *o = p->r->tensors.items[i];
        if (after && bytes_overlap(o, t))
            sharers[n++] = o;
        after = after || o == t;
    }
    *out = sharers;
    return n;
}

/* Whether sharer o is drawn in any of the columns from..to. */
static bool drawn_in(const Plot *p, const TaTensor *o, int from, int to)
{
    int first, last;
    tensor_columns(p, o, &first, &last);
    return first <= to && from <= last;
}

/* The tallest stretch of t's bytes that no sharer drawn in columns
   from..to covers, in *area; its height in hundredths of a pixel. */
static int64_t free_bytes(const Plot *p, const TaTensor *t, const TaTensor **sharers, int n,
                          LabelArea *area)
{
    const size_t start = t->place.offset, end = start + t->place.size;
    int64_t best = 0;
    for (int k = -1; k < n; k++) { /* a stretch starts at t's start or a sharer's end */
        size_t lo = k < 0 ? start : sharers[k]->place.offset + sharers[k]->place.size;
        size_t hi = end;
        bool covered = lo >= end || (k >= 0 && !drawn_in(p, sharers[k], area->from, area->to));
        for (int j = 0; j < n && !covered; j++) {
            const TaTensor *o = sharers[j];
            if (!drawn_in(p, o, area->from, area->to))
                continue;
            if (o->place.offset <= lo && lo < o->place.offset + o->place.size)
                covered = true;
            else if (o->place.offset > lo && o->place.offset < hi)
                hi = o->place.offset;
        }
        int64_t height = covered ? 0 : offset_y(p, hi) - offset_y(p, lo);
        if (height > best) {
            best = height;
            area->lo = lo;
            area->hi = hi;
        }
    }
    return best;
}

/* The part of t's rectangle that holds the most label characters and no
   rectangle drawn after it covers; false if no part holds a line. So
   labels never cover each other: of two overlapping rectangles, the label
   of the one drawn first avoids the other's rectangle, and the other's
   label stays inside it. A tensor that nothing covers has all of it. */
static bool label_area(const Doc *d, const Plot *p, const TaTensor *t, LabelArea *best)
{
    const TaTensor **sharers;
    const int n = sharers_of(d, p, t, &sharers);
    int first, last;
    tensor_columns(p, t, &first, &last);
    int64_t most = 0;
    for (int from = first; from <= last; from++) {
        for (int to = n ? from : last; to <= last; to++) {
            LabelArea area = {.from = from, .to = to};
            int64_t height = free_bytes(p, t, sharers, n, &area);
            int64_t lines = (height - 100) / (LABEL_LINE_PX * 100);
            int64_t width = column_x(p, to + 1) - column_x(p, from) - 2 * LABEL_PAD_PX * 100;
            int64_t chars = lines * (width / LABEL_CHAR_PX100);
            if (height >= LABEL_MIN_HEIGHT_PX * 100 && chars > most) {
                most = chars;
                *best = area;
            }
        }
        if (!n)
            break; /* the whole rectangle is free: nothing larger */
    }
    return most > 0;
}

/* The id and name on the rectangle, when it is tall and wide enough, in
   as many lines as its label area holds, centred there; written after
   every rectangle, so none covers a label. */
static void tensor_label(const Doc *d, const Plot *p, const TaTensor *t)
{
    LabelArea area;
    if (!label_area(d, p, t, &area))
        return;
    const int64_t x = column_x(p, area.from);
    const int64_t width = column_x(p, area.to + 1) - x;
    const int64_t y = offset_y(p, area.lo);
    const int64_t height = offset_y(p, area.hi) - y;
    const char *lines[LABEL_MAX_LINES];
    int n = ta_plan_label(d->pool, t->id, t->name, width,
                          (int)((height - 100) / (LABEL_LINE_PX * 100)), lines);
    if (n == 0)
        return;
    const int64_t top = y + height / 2 - (int64_t)n * LABEL_LINE_PX * 100 / 2;
    const char *x_text = ta_px_text(d->pool, x + LABEL_PAD_PX * 100);
    ta_buf_printf(d->b, "<text class=\"label\" data-id=\"%s\">", esc(d, t->id));
    for (int i = 0; i < n; i++)
        ta_buf_printf(d->b, "<tspan x=\"%s\" y=\"%s\">%s</tspan>", x_text,
                      ta_px_text(d->pool, top + (2 * i + 1) * LABEL_LINE_PX * 100 / 2), lines[i]);
    ta_buf_puts(d->b, "</text>\n");
}

/* A mark left of the plot beside each piece of the region drawn taller
   than its bytes (plan_axis.h), saying which bytes. */
static void stretch_marks(const Doc *d, const Plot *p)
{
    const TaPlanAxis *a = &p->axis;
    for (int i = 0; i + 1 < a->num_edges; i++) {
        if (!a->stretched[i])
            continue;
        size_t bytes = a->edge[i + 1] - a->edge[i];
        ta_buf_printf(d->b,
                      "<rect class=\"stretch\" x=\"%d\" y=\"%s\" width=\"3\" height=\"%s\">"
                      "<title>offsets %s to %s (%s byte%s) drawn %d pixels tall, more than "
                      "the scale gives them</title></rect>\n",
                      AXIS_LEFT - 4, ta_px_text(d->pool, p->top + a->edge_px[i]),
                      ta_px_text(d->pool, a->edge_px[i + 1] - a->edge_px[i]),
                      grouped(d, (int64_t)a->edge[i]), grouped(d, (int64_t)a->edge[i + 1] - 1),
                      grouped(d, (int64_t)bytes), bytes == 1 ? "" : "s", MIN_TENSOR_PX);
    }
}

/* Offsets down the left edge, every quarter of the region, each with a
   tick; the baseline is nudged so the top label sits below the edge, the
   bottom one on it and the others centred on their tick. */
static void offset_labels(const Doc *d, const Plot *p)
{
    static const int nudge[5] = {9, 4, 4, 4, 0};
    for (int k = 0; k <= 4; k++) {
        size_t offset = p->r->size * (size_t)k / 4;
        const char *y = ta_px_text(d->pool,
                                   k == 4 ? p->top + p->axis.height_px : offset_y(p, offset));
        ta_buf_printf(d->b,
                      "<line class=\"tick\" x1=\"%d\" y1=\"%s\" x2=\"%d\" y2=\"%s\"/>"
                      "<text x=\"%d\" y=\"%s\" dy=\"%d\" text-anchor=\"end\">%s</text>\n",
                      AXIS_LEFT - 10, y, AXIS_LEFT - 5, y, AXIS_LEFT - 12, y, nudge[k] - 4,
                      grouped(d, (int64_t)offset));
    }
}

/* Operator indices along the bottom, as many as fit; each names its
   operator on hover. The last column is the application's, after the run. */
static void operator_labels(const Doc *d, const Plot *p)
{
    const int64_t column = p->width / p->columns > 0 ? p->width / p->columns : 1;
    const int step = (int)((32 * 100 + column - 1) / column); /* a label every 32 px or more */
    const int64_t y = p->top + p->axis.height_px + 1400;
    for (int i = 0; i < p->columns; i++) {
        bool last = i == p->columns - 1;
        if (!last && (i % step != 0 || (i > 0 && p->columns - 1 - i < step)))
            continue; /* not this one, or too close to the last label */
        const TaOp *op = last ? NULL : TA_OP(d->in->graph, i);
        TaFields f = ta_fields(d->pool, NULL);
        ta_field(&f, "x", ta_px_text(d->pool, (column_x(p, i) + column_x(p, i + 1)) / 2));
        ta_field(&f, "y", ta_px_text(d->pool, y));
        ta_field(&f, "label", last ? "out" : ta_format(d->pool, "<a href=\"#op-%d\">%d</a>", i, i));
        ta_field(&f, "title",
                 last ? "after the run: the application reads the outputs"
                      : esc(d, ta_format(d->pool, "operator %d: %s (%s)", i, op->type,
                                         op->lowered.symbol)));
        ta_template(d->b, &f,
                    "<text x=\"$x\" y=\"$y\" text-anchor=\"middle\">$label"
                    "<title>$title</title></text>\n");
    }
    ta_buf_printf(d->b, "<text x=\"%d\" y=\"%s\">operator (execution order) &rarr;</text>\n",
                  AXIS_LEFT, ta_px_text(d->pool, y + 1800));
}

/* The frame, a line between operator columns, and the lower bound. */
static void plot_background(const Doc *d, const Plot *p, int64_t lower_bound)
{
    const char *top = ta_px_text(d->pool, p->top);
    const char *bottom = ta_px_text(d->pool, p->top + p->axis.height_px);
    ta_buf_printf(d->b, "<rect class=\"frame\" x=\"%d\" y=\"%s\" width=\"%d\" height=\"%s\"/>\n",
                  AXIS_LEFT, top, PLOT_WIDTH, ta_px_text(d->pool, p->axis.height_px));
    for (int i = 1; i < p->columns; i++) {
        const char *x = ta_px_text(d->pool, column_x(p, i));
        ta_buf_printf(d->b, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\"/>\n", x, top, x, bottom);
    }
    if (lower_bound < 0 || (size_t)lower_bound > p->r->size)
        return; /* none, or below the region: the caption says it */
    const char *y = ta_px_text(d->pool, offset_y(p, (size_t)lower_bound));
    ta_buf_printf(d->b,
                  "<line class=\"bound\" x1=\"%d\" y1=\"%s\" x2=\"%d\" y2=\"%s\">"
                  "<title>lower bound: %s bytes</title></line>\n",
                  AXIS_LEFT, y, AXIS_LEFT + PLOT_WIDTH, y, grouped(d, lower_bound));
}

static void region_caption(const Doc *d, const Plot *p, int64_t lower_bound)
{
    const TaRegion *r = p->r;
    TaFields f = ta_fields(d->pool, &d->fields);
    ta_field_int(&f, "id", r->id);
    ta_field(&f, "name", esc(d, r->name));
    ta_field(&f, "role", ta_role_name(r->role));
    ta_field(&f, "memory", ta_memory_name(r->memory));
    ta_field(&f, "size", grouped(d, (int64_t)r->size));
    ta_field(&f, "bound",
             lower_bound >= 0 ? ta_format(d->pool, " (lower bound %s: the most bytes live at once)",
                                          grouped(d, lower_bound))
                              : "");
    ta_field_int(&f, "count", r->tensors.len);
    ta_field(&f, "tensors", r->tensors.len == 1 ? "tensor" : "tensors");
    const char *per_px = ta_plan_axis_scale_text(d->pool, &p->axis, PLOT_HEIGHT);
    ta_field(&f, "per_px", per_px);
    ta_field(&f, "bytes", strcmp(per_px, "1") == 0 ? "byte" : "bytes");
    ta_field_int(&f, "min", MIN_TENSOR_PX);
    ta_template(
        d->b, &f,
        "<figcaption>Region $id <code>$name</code>: $role in $memory, $size bytes$bound, "
        "$count $tensors<br><span class=\"scale\">Scale: down, about $per_px $bytes a pixel, "
        "but no tensor thinner than $min pixels (marked on the axis); across, one column "
        "per operator.</span></figcaption>\n");
}

static void region_figure(const Doc *d, const TaRegion *r, int64_t lower_bound)
{
    const Plot p = plot_of(d, r);
    const int width = AXIS_LEFT + PLOT_WIDTH + MARGIN_RIGHT;
    const int height = MARGIN_TOP + (int)((p.axis.height_px + 99) / 100) + AXIS_BELOW;
    ta_buf_printf(d->b, "<figure id=\"plan-%d\">\n", r->id);
    region_caption(d, &p, lower_bound);
    ta_buf_printf(d->b,
                  "<svg class=\"plan\" xmlns=\"http://www.w3.org/2000/svg\" data-region=\"%d\" "
                  "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n",
                  r->id, width, height, width, height);
    plot_background(d, &p, lower_bound);
    for (int i = 0; i < r->tensors.len; i++)
        tensor_rect(d, &p, r->tensors.items[i]);
    for (int i = 0; i < r->tensors.len; i++)
        tensor_label(d, &p, r->tensors.items[i]);
    stretch_marks(d, &p);
    offset_labels(d, &p);
    operator_labels(d, &p);
    ta_buf_puts(d->b, "</svg>\n</figure>\n");
}

static void plan_legend(const Doc *d)
{
    static const char *const kinds[] = {"input", "output", "scratch", "persistent", "constant"};
    ta_buf_puts(d->b, "<p class=\"legend\">");
    for (size_t i = 0; i < TA_COUNT_OF(kinds); i++)
        ta_buf_printf(d->b, "<span class=\"swatch kind-%s\"></span>%s", kinds[i], kinds[i]);
    ta_buf_printf(d->b,
                  "<span class=\"swatch stretch\"></span>drawn taller than its bytes "
                  "(under %d pixels)<span class=\"swatch bound\"></span>lower bound</p>\n",
                  MIN_TENSOR_PX);
}

static void plan_section(const Doc *d)
{
    ta_buf_puts(d->b, "<h2 id=\"plan\">Memory plan</h2>\n"
                      "<p class=\"note\">One picture per region: offset in the region downwards, "
                      "operators in execution order across, one rectangle per tensor that owns "
                      "bytes, as wide as it is live; persistent and constant tensors last as long "
                      "as the module. A rectangle large enough shows the tensor's id and name "
                      "(cut with &hellip; when long); hover over any rectangle for all of it. "
                      "Pieces of a region too small to see are drawn a few pixels tall, "
                      "pushing the offsets below them down, so rectangles overlap only where "
                      "tensors share bytes.</p>\n");
    plan_legend(d);
    for (size_t i = 0; i < d->views.num_regions; i++)
        region_figure(d, d->in->plan->regions.items[i], d->views.region_lower_bounds[i]);
}

/* ---- the page ---------------------------------------------------------------------- */

bool ta_emit_documentation(const TaEmitInput *in, const char *dir)
{
    const TaResource *css = ta_resource_find("src/emit/documentation.css");
    TA_ASSERT(css != NULL);
    TaBuf b = {0};
    Doc d = {.in = in, .pool = in->pool, .b = &b};
    ta_build_views(in->pool, &d.views, in->graph, in->plan);
    d.analysis = ta_build_analysis(in->pool, in->graph, in->plan);
    d.fields = ta_fields(in->pool, NULL);
    ta_field(&d.fields, "prefix", esc(&d, in->prefix));
    ta_field(&d.fields, "model", esc(&d, ta_basename(in->model->path)));
    ta_field(&d.fields, "css", (const char *)css->data);
    ta_template(&b, &d.fields,
                "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                "style-src 'unsafe-inline'\">\n"
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                "<title>$prefix module: $model</title>\n<style>\n$css</style>\n</head>\n<body>\n"
                "<h1>Module <code>$prefix</code> from $model</h1>\n"
                "<nav><a href=\"#summary\">Summary</a><a href=\"#io\">Inputs and outputs</a>"
                "<a href=\"#operators\">Operators</a><a href=\"#tensors\">Tensors</a>"
                "<a href=\"#regions\">Regions</a>"
                "<a href=\"#memories\">Memories</a><a href=\"#plan\">Memory plan</a></nav>\n");
    summary_section(&d);
    io_section(&d);
    operators_section(&d);
    operator_types_table(&d);
    tensors_section(&d);
    regions_section(&d);
    memories_section(&d);
    plan_section(&d);
    ta_buf_puts(&b, "</body>\n</html>\n");
    bool ok = ta_emit_write(in, dir, ta_format(in->pool, "%s_documentation.html", in->prefix), &b);
    ta_buf_free(&b);
    return ok;
}
