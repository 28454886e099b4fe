/*
 * emit_io_metadata.c - what an application needs to feed the model and
 * read its results without the views: per input and output i the macros
 * <PREFIX>_INPUT<i>_DTYPE / _NDIMS / _DIMS / _SIZE / _QUANTIZED / _SCALE /
 * _ZERO_POINT (and _OUTPUT<i>_...), whether a run may overwrite an input,
 * and <prefix>_quantize_input() / <prefix>_dequantize_output(), which round
 * as TFLite's QUANTIZE and DEQUANTIZE reference kernels do.
 */
#include "emit.h"

#include "../util/template.h"
#include "escape.h"

#include <string.h>

static const char *dtype_enum(TaDtype d)
{
    switch (d) {
    case TA_FLOAT32: return "TA_IO_DTYPE_FLOAT32";
    case TA_INT32: return "TA_IO_DTYPE_INT32";
    case TA_UINT8: return "TA_IO_DTYPE_UINT8";
    case TA_INT64: return "TA_IO_DTYPE_INT64";
    case TA_BOOL: return "TA_IO_DTYPE_BOOL";
    case TA_INT16: return "TA_IO_DTYPE_INT16";
    case TA_INT8: return "TA_IO_DTYPE_INT8";
    default: return NULL;
    }
}

/* A float literal that reads back as exactly `v` ("0.00390625f"). */
static const char *float_literal(TaPool *pool, float v)
{
    const char *s = ta_format(pool, "%.9g", (double)v);
    bool has_point = strpbrk(s, ".eEni") != NULL; /* "inf"/"nan" never reach here */
    return ta_format(pool, "%s%sf", s, has_point ? "" : ".0");
}

static bool quantized(const TaTensor *t)
{
    return t->quant && t->quant->num_scales > 0 && t->quant->num_zero_points > 0;
}

static bool per_channel(const TaTensor *t)
{
    return quantized(t) && t->quant->num_scales > 1;
}

/* Elements between two neighbours along the quantization axis. */
static size_t channel_stride(const TaTensor *t)
{
    size_t inner = 1;
    for (int d = t->quant->axis + 1; d < t->rank; d++)
        inner *= (size_t)t->dims[d];
    return inner;
}

/* True when an operator writes `t` (a view such as a zero-copy reshape
   has no kernel call: it only names bytes another tensor holds). */
static bool written_by_an_operator(const TaGraph *g, const TaTensor *t)
{
    for (int i = 0; i < g->ops.len; i++) {
        const TaOp *op = TA_OP(g, i);
        if (op->removed || op->lowered.calls.len == 0)
            continue;
        for (int k = 0; k < op->num_outputs; k++)
            if (op->outputs[k] == t)
                return true;
    }
    return false;
}

/* True when the plan lets another tensor (a later activation, an
   operator's scratch, an output written in place over the input) use some
   of the input's bytes, so a run may leave other values there. A view
   sharing the input's bytes writes nothing. */
static bool run_may_overwrite(const TaGraph *g, const TaTensor *input)
{
    const TaPlacement *a = &input->place;
    if (!a->region)
        return false;
    for (int i = 0; i < g->tensors.len; i++) {
        TaTensor *u = TA_TENSOR(g, i);
        const TaPlacement *b = &u->place;
        if (u == input || u->removed || b->region != a->region)
            continue;
        if (ta_tensor_root(u) == input) {
            if (written_by_an_operator(g, u))
                return true;
            continue;
        }
        if (b->offset < a->offset + a->size && a->offset < b->offset + b->size)
            return true;
    }
    return false;
}

/* The quantized element types the two functions convert, with their range. */
static bool int_range(TaDtype d, const char **ctype, const char **lo, const char **hi)
{
    switch (d) {
    case TA_INT8:
        *ctype = "int8_t";
        *lo = "-128";
        *hi = "127";
        return true;
    case TA_UINT8:
        *ctype = "uint8_t";
        *lo = "0";
        *hi = "255";
        return true;
    case TA_INT16:
        *ctype = "int16_t";
        *lo = "-32768";
        *hi = "32767";
        return true;
    case TA_INT32:
        *ctype = "int32_t";
        *lo = "(-2147483647 - 1)";
        *hi = "2147483647";
        return true;
    default: return false;
    }
}

static void emit_tensor_macros(const TaEmitInput *in, const TaFields *outer, TaBuf *b,
                               const TaTensor *t, const char *kind, int i)
{
    TaPool *pool = in->pool;
    TaFields f = ta_fields(pool, outer);
    ta_field(&f, "KIND", kind);
    ta_field_int(&f, "i", i);
    ta_field(&f, "id", ta_escape_c_comment(pool, t->id));
    ta_field(&f, "name",
             t->name ? ta_format(pool, " \"%s\"", ta_escape_c_comment(pool, t->name)) : "");
    ta_field(&f, "dtype_name", ta_dtype_name(t->dtype));
    ta_field(&f, "shape", ta_shape_text(pool, t));
    const char *e = dtype_enum(t->dtype);
    ta_field(&f, "dtype", e ? e : ta_format(pool, "%d", (int)t->dtype));
    ta_field_int(&f, "ndims", t->rank);
    ta_field_size(&f, "size", ta_tensor_bytes(t));
    ta_template(b, &f,
                "/* ${KIND}${i}: tensor ${id}${name}, ${dtype_name} ${shape}. */\n"
                "#define ${PREFIX}_${KIND}${i}_DTYPE ${dtype}\n"
                "#define ${PREFIX}_${KIND}${i}_NDIMS ${ndims}\n");
    if (t->rank > 0) {
        TaBuf dims = {0};
        for (int d = 0; d < t->rank; d++)
            ta_buf_printf(&dims, "%s%ld", d ? ", " : "", (long)t->dims[d]);
        ta_field(&f, "dims", ta_strdup(pool, dims.data));
        ta_buf_free(&dims);
        ta_template(b, &f, "#define ${PREFIX}_${KIND}${i}_DIMS {${dims}}\n");
    }
    ta_field_int(&f, "quantized", quantized(t));
    ta_template(b, &f,
                "#define ${PREFIX}_${KIND}${i}_SIZE ${size}\n"
                "#define ${PREFIX}_${KIND}${i}_QUANTIZED ${quantized}\n");
    if (!quantized(t))
        return;
    const TaQuant *q = t->quant;
    if (!per_channel(t)) {
        ta_field(&f, "scale", float_literal(pool, q->scale[0]));
        ta_field(&f, "zero_point", ta_format(pool, "(%lld)", (long long)q->zero_point[0]));
    } else {
        TaBuf s = {0}, z = {0};
        for (int k = 0; k < q->num_scales; k++) {
            ta_buf_printf(&s, "%s%s", k ? ", " : "", float_literal(pool, q->scale[k]));
            long long zp = (long long)q->zero_point[k < q->num_zero_points ? k : 0];
            ta_buf_printf(&z, "%s%lld", k ? ", " : "", zp);
        }
        ta_field(&f, "scale", ta_format(pool, "{%s}", s.data));
        ta_field(&f, "zero_point", ta_format(pool, "{%s}", z.data));
        ta_buf_free(&s);
        ta_buf_free(&z);
        ta_field_int(&f, "channels", q->num_scales);
        ta_field_int(&f, "axis", q->axis);
        ta_template(b, &f,
                    "/* Per channel along dimension ${axis}: initializer lists. */\n"
                    "#define ${PREFIX}_${KIND}${i}_QUANT_AXIS ${axis}\n"
                    "#define ${PREFIX}_${KIND}${i}_NUM_CHANNELS ${channels}\n");
    }
    ta_template(b, &f,
                "#define ${PREFIX}_${KIND}${i}_SCALE ${scale}\n"
                "#define ${PREFIX}_${KIND}${i}_ZERO_POINT ${zero_point}\n");
}

/* The per-tensor quantization of I/O tensor `i` (kind "INPUT" or "OUTPUT")
   as two C expressions: the public header's _ZERO_POINT and _SCALE macros,
   so that each literal is written once, or 0 and 0.0f when it has none or
   one per channel, as a helia-aot module reports them. */
static void io_quantization(const TaEmitInput *in, const TaTensor *t, const char *kind, int i,
                            const char **zp, const char **scale)
{
    bool one = quantized(t) && !per_channel(t);
    const char *P = ta_upper(in->pool, in->prefix);
    *zp = one ? ta_format(in->pool, "%s_%s%d_ZERO_POINT", P, kind, i) : "0";
    *scale = one ? ta_format(in->pool, "%s_%s%d_SCALE", P, kind, i) : "0.0f";
}

void ta_emit_io_quantization(const TaEmitInput *in, const TaFields *fields, TaBuf *b,
                             const TaTensor *t, bool input, int i)
{
    TaFields f = ta_fields(in->pool, fields);
    const char *zp, *scale;
    io_quantization(in, t, input ? "INPUT" : "OUTPUT", i, &zp, &scale);
    ta_field(&f, "zp", zp);
    ta_field(&f, "scale", scale);
    ta_template(b, &f,
                "    ctx->$field[$index].zero_point = $zp;\n"
                "    ctx->$field[$index].scale = $scale;\n");
}

/* helia-aot's I/O macros and tables: counts, element and byte sizes, and
   per-input id, length, zero point and scale arrays. */
static void emit_helia_io_header(const TaEmitInput *in, const TaFields *outer, TaBuf *b)
{
    const TaGraph *g = in->graph;
    TaFields f = ta_fields(in->pool, outer);
    ta_field_int(&f, "num_inputs", g->inputs.len);
    ta_field_int(&f, "num_outputs", g->outputs.len);
    ta_field_int(&f, "input_slots", g->inputs.len ? g->inputs.len : 1);
    ta_field_int(&f, "output_slots", g->outputs.len ? g->outputs.len : 1);
    ta_template(b, &f,
                "/* The same by helia-aot's names: _size counts elements, _nbytes bytes. */\n"
                "#define ${prefix}_num_inputs $num_inputs\n"
                "#define ${prefix}_num_outputs $num_outputs\n");
    for (int side = 0; side < 2; side++) {
        const TaVec *v = side ? &g->outputs : &g->inputs;
        for (int i = 0; i < v->len; i++) {
            const TaTensor *t = v->items[i];
            TaFields tf = ta_fields(in->pool, &f);
            ta_field(&tf, "kind", side ? "output" : "input");
            ta_field_int(&tf, "i", i);
            ta_field_size(&tf, "elements", ta_tensor_elements(t));
            ta_field_size(&tf, "bytes", ta_tensor_bytes(t));
            ta_template(b, &tf,
                        "#define ${prefix}_${kind}_${i}_size ($elements)\n"
                        "#define ${prefix}_${kind}_${i}_nbytes ($bytes)\n");
        }
    }
    ta_template(b, &f,
                "extern const int32_t ${prefix}_inputs_len[$input_slots];\n"
                "extern const int32_t ${prefix}_inputs_zero_point[$input_slots];\n"
                "extern const float ${prefix}_inputs_scale[$input_slots];\n"
                "extern const int32_t ${prefix}_outputs_len[$output_slots];\n"
                "extern const int32_t ${prefix}_outputs_zero_point[$output_slots];\n"
                "extern const float ${prefix}_outputs_scale[$output_slots];\n\n");
}

static void emit_helia_io_source(const TaEmitInput *in, const TaFields *outer, TaBuf *b)
{
    const TaGraph *g = in->graph;
    for (int side = 0; side < 2; side++) {
        const TaVec *v = side ? &g->outputs : &g->inputs;
        TaBuf len = {0}, zps = {0}, scales = {0};
        for (int i = 0; i < v->len; i++) {
            const TaTensor *t = v->items[i];
            const char *zp, *scale;
            io_quantization(in, t, side ? "OUTPUT" : "INPUT", i, &zp, &scale);
            ta_buf_printf(&len, "%s%s_%s_%d_size", i ? ", " : "", in->prefix,
                          side ? "output" : "input", i);
            ta_buf_printf(&zps, "%s%s", i ? ", " : "", zp);
            ta_buf_printf(&scales, "%s%s", i ? ", " : "", scale);
        }
        TaFields f = ta_fields(in->pool, outer);
        ta_field(&f, "side", side ? "outputs" : "inputs");
        ta_field_int(&f, "slots", v->len ? v->len : 1);
        ta_field(&f, "len", v->len ? ta_strdup(in->pool, len.data) : "0");
        ta_field(&f, "zps", v->len ? ta_strdup(in->pool, zps.data) : "0");
        ta_field(&f, "scales", v->len ? ta_strdup(in->pool, scales.data) : "0.0f");
        ta_template(b, &f,
                    "const int32_t ${prefix}_${side}_len[$slots] = {$len};\n"
                    "const int32_t ${prefix}_${side}_zero_point[$slots] = {$zps};\n"
                    "const float ${prefix}_${side}_scale[$slots] = {$scales};\n");
        ta_buf_free(&len);
        ta_buf_free(&zps);
        ta_buf_free(&scales);
    }
    ta_buf_puts(b, "\n");
}

void ta_emit_io_header(const TaEmitInput *in, const TaFields *outer, TaBuf *b)
{
    emit_helia_io_header(in, outer, b);
    const TaGraph *g = in->graph;
    ta_template(b, outer,
                "/* ---- Inputs and outputs. real = (q - ZERO_POINT) * SCALE for quantized\n"
                "   ones; DIMS and per-channel SCALE/ZERO_POINT are initializer lists;\n"
                "   SIZE is in bytes (= ctx->inputs[i].size / ctx->outputs[i].size). */\n");
    for (int i = 0; i < g->inputs.len; i++)
        emit_tensor_macros(in, outer, b, g->inputs.items[i], "INPUT", i);
    for (int o = 0; o < g->outputs.len; o++)
        emit_tensor_macros(in, outer, b, g->outputs.items[o], "OUTPUT", o);
    bool any = false;
    for (int i = 0; i < g->inputs.len; i++) {
        TaFields f = ta_fields(in->pool, outer);
        ta_field_int(&f, "i", i);
        bool overwritten = run_may_overwrite(g, g->inputs.items[i]);
        ta_field_int(&f, "overwritten", overwritten);
        if (overwritten && !any)
            ta_template(
                b, &f,
                "/* A run may overwrite the inputs whose _OVERWRITTEN_BY_RUN is set: their\n"
                "   bytes are reused for later tensors once read, so fill them before\n"
                "   every run. */\n");
        any = any || overwritten;
        ta_template(b, &f, "#define ${PREFIX}_INPUT${i}_OVERWRITTEN_BY_RUN ${overwritten}\n");
    }
    ta_template(b, outer,
                "\n/* Writes n floats (n <= the input's element count) into input i as\n"
                "   TFLite's QUANTIZE does: q = clamp(round(x / SCALE) + ZERO_POINT), the\n"
                "   division in float, halves rounded away from zero. A float32 input is\n"
                "   copied. Returns TA_OK, or TA_ERR_BAD_ARGUMENT when ctx is NULL or not\n"
                "   the context of the last successful model_init (none since the last\n"
                "   bind: the input may have moved), i is out of range, n too large, src\n"
                "   NULL, or the input of another type. */\n"
                "int ${prefix}_quantize_input(${prefix}_model_context_t *ctx, int i,"
                " const float *src, size_t n);\n"
                "/* Reads n elements of output i as floats as TFLite's DEQUANTIZE does:\n"
                "   (float)((double)SCALE * (q - ZERO_POINT)); a float32 output is copied.\n"
                "   Returns TA_OK or TA_ERR_BAD_ARGUMENT, as above. */\n"
                "int ${prefix}_dequantize_output(${prefix}_model_context_t *ctx, int i,"
                " float *dst, size_t n);\n");
}

/* The scale and zero point of element k of `t`, as C expressions. */
static void quant_exprs(const TaEmitInput *in, TaBuf *tables, const TaTensor *t, bool input, int i,
                        const char **scale, const char **zp)
{
    TaPool *pool = in->pool;
    if (!per_channel(t)) {
        io_quantization(in, t, input ? "INPUT" : "OUTPUT", i, zp, scale);
        return;
    }
    const char *table_name = ta_format(pool, "%s_%s%d", in->prefix, input ? "input" : "output", i);
    const TaQuant *q = t->quant;
    ta_buf_printf(tables, "static const float %s_scale[%d] = {", table_name, q->num_scales);
    for (int k = 0; k < q->num_scales; k++)
        ta_buf_printf(tables, "%s%s", k ? ", " : "", float_literal(pool, q->scale[k]));
    ta_buf_printf(tables, "};\nstatic const int32_t %s_zero_point[%d] = {", table_name,
                  q->num_scales);
    for (int k = 0; k < q->num_scales; k++)
        ta_buf_printf(tables, "%s%lld", k ? ", " : "",
                      (long long)q->zero_point[k < q->num_zero_points ? k : 0]);
    ta_buf_puts(tables, "};\n");
    const char *channel = ta_format(pool, "(k / %zu) %% %d", channel_stride(t), q->num_scales);
    *scale = ta_format(pool, "%s_scale[%s]", table_name, channel);
    *zp = ta_format(pool, "%s_zero_point[%s]", table_name, channel);
}

/* One case of the switch in either function. */
static void emit_case(const TaEmitInput *in, const TaFields *outer, TaBuf *cases, TaBuf *tables,
                      const TaTensor *t, int i, bool input, bool *uses_round)
{
    TaFields f = ta_fields(in->pool, outer);
    ta_field_int(&f, "i", i);
    ta_field(&f, "count",
             ta_format(in->pool, "%s_%s_%d_size", in->prefix, input ? "input" : "output", i));
    if (input && t->row_buffer_bytes) /* row-push input: its row buffer only */
        ta_field(&f, "count",
                 ta_format(in->pool, "%zuu", t->row_buffer_bytes / ta_dtype_size(t->dtype)));
    ta_field(&f, "side", input ? "inputs" : "outputs");
    const char *ctype, *lo, *hi;
    if (t->dtype == TA_FLOAT32) {
        ta_template(cases, &f,
                    "    case ${i}:\n"
                    "        if (n > ${count} || ctx->${side}[${i}].data == NULL)\n"
                    "            return TA_ERR_BAD_ARGUMENT;\n");
        ta_template(cases, &f,
                    input ? "        memcpy(ctx->inputs[${i}].data, src, n * sizeof(float));\n"
                          : "        memcpy(dst, ctx->outputs[${i}].data, n * sizeof(float));\n");
        ta_template(cases, &f, "        return TA_OK;\n");
        return;
    }
    if (!quantized(t) || !int_range(t->dtype, &ctype, &lo, &hi))
        return; /* left to the default case: bad_argument */
    const char *scale, *zp;
    quant_exprs(in, tables, t, input, i, &scale, &zp);
    ta_field(&f, "ctype", ctype);
    ta_field(&f, "lo", lo);
    ta_field(&f, "hi", hi);
    ta_field(&f, "scale", scale);
    ta_field(&f, "zp", zp);
    ta_template(cases, &f,
                "    case ${i}: {\n"
                "        if (n > ${count} || ctx->${side}[${i}].data == NULL)\n"
                "            return TA_ERR_BAD_ARGUMENT;\n");
    /* The scale and zero point as locals keep lines short (per-channel
       ones index tables). */
    if (input) {
        *uses_round = true;
        ta_template(cases, &f,
                    "        ${ctype} *q = (${ctype} *)ctx->inputs[${i}].data;\n"
                    "        for (size_t k = 0; k < n; k++) {\n"
                    "            const float scale = ${scale};\n"
                    "            const int32_t zero_point = ${zp};\n"
                    "            q[k] = (${ctype})${prefix}_quantize_one(src[k], scale, zero_point,"
                    "\n                ${lo}, ${hi});\n"
                    "        }\n");
    } else {
        ta_template(
            cases, &f,
            "        const ${ctype} *q = (const ${ctype} *)ctx->outputs[${i}].data;\n"
            "        for (size_t k = 0; k < n; k++) {\n"
            "            const float scale = ${scale};\n"
            "            const int32_t zero_point = ${zp};\n"
            "            dst[k] = (float)((double)scale * (double)((int64_t)q[k] - zero_point));\n"
            "        }\n");
    }
    ta_template(cases, &f, "        return TA_OK;\n    }\n");
}

void ta_emit_io_source(const TaEmitInput *in, const TaFields *outer, TaBuf *b)
{
    emit_helia_io_source(in, outer, b);
    const TaGraph *g = in->graph;
    TaBuf tables = {0}, in_cases = {0}, out_cases = {0};
    bool uses_round = false;
    for (int i = 0; i < g->inputs.len; i++)
        emit_case(in, outer, &in_cases, &tables, g->inputs.items[i], i, true, &uses_round);
    for (int o = 0; o < g->outputs.len; o++)
        emit_case(in, outer, &out_cases, &tables, g->outputs.items[o], o, false, &uses_round);
    ta_template(b, outer, "/* ---- Quantizing inputs, dequantizing outputs. */\n");
    if (tables.len)
        ta_buf_puts(b, tables.data);
    if (uses_round)
        ta_template(
            b, outer,
            "/* round(x / scale) + zero_point saturated to [lo, hi], the division in\n"
            "   float and halves away from zero (TFLite's AffineQuantize), without\n"
            "   libm: a float of magnitude >= 2^23 is an integer already. */\n"
            "static int32_t ${prefix}_quantize_one(float x, float scale, int32_t zero_point,\n"
            "    int32_t lo, int32_t hi)\n{\n"
            "    const float t = x / scale;\n"
            "    if (!(t > -2147483648.0f)) /* NaN included, as TFLite on its hosts */\n"
            "        return lo;\n"
            "    if (t >= 2147483648.0f)\n        return hi;\n"
            "    int64_t r = (int64_t)t; /* toward zero */\n"
            "    const float frac = t - (float)r; /* exact */\n"
            "    if (frac >= 0.5f)\n        r++;\n"
            "    else if (frac <= -0.5f)\n        r--;\n"
            "    r += zero_point;\n"
            "    return r < lo ? lo : (r > hi ? hi : (int32_t)r);\n}\n\n");
    ta_template(b, outer,
                "int ${prefix}_quantize_input(${prefix}_model_context_t *ctx, int i,"
                " const float *src, size_t n)\n{\n"
                "    if (ctx == NULL || src == NULL || ${prefix}_initialized != ctx)\n"
                "        return TA_ERR_BAD_ARGUMENT;\n");
    if (in_cases.len) {
        ta_buf_puts(b, "    switch (i) {\n");
        ta_buf_puts(b, in_cases.data);
        ta_buf_puts(b, "    default:\n        return TA_ERR_BAD_ARGUMENT;\n    }\n}\n\n");
    } else {
        ta_buf_puts(b, "    (void)i;\n    (void)n;\n    return TA_ERR_BAD_ARGUMENT;\n}\n\n");
    }
    ta_template(b, outer,
                "int ${prefix}_dequantize_output(${prefix}_model_context_t *ctx, int i,"
                " float *dst, size_t n)\n{\n"
                "    if (ctx == NULL || dst == NULL || ${prefix}_initialized != ctx)\n"
                "        return TA_ERR_BAD_ARGUMENT;\n");
    if (out_cases.len) {
        ta_buf_puts(b, "    switch (i) {\n");
        ta_buf_puts(b, out_cases.data);
        ta_buf_puts(b, "    default:\n        return TA_ERR_BAD_ARGUMENT;\n    }\n}\n");
    } else {
        ta_buf_puts(b, "    (void)i;\n    (void)n;\n    return TA_ERR_BAD_ARGUMENT;\n}\n");
    }
    ta_buf_free(&tables);
    ta_buf_free(&in_cases);
    ta_buf_free(&out_cases);
}
