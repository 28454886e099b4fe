/*
 * emit_test_case.c - the built-in test case (test.enabled):
 * <prefix>_test_case.h and <prefix>_test_case.c.
 *
 * The stimulus is either generated here (deterministic, see stimulus())
 * or read from test.inputs; the expected outputs are either read from
 * test.outputs or computed now by running the lowered graph on the host
 * with the runtime kernels (src/exec). The module side initializes once,
 * runs every run back to back (state carries over, as on the device) and
 * compares each output element within test.tolerance.
 */
#include "emit.h"

#include "../exec/execute.h"
#include "../util/template.h"
#include "escape.h"

#include <string.h>

#include "../../runtime/include/ta_status.h"

/* Runs of a generated stimulus: stateful models get more, so state that
   carries from run to run is checked too. */
enum { STATELESS_RUNS = 2, STATEFUL_RUNS = 3 };

typedef struct TestData {
    int runs;
    const uint8_t **inputs; /* [run * num_inputs + i] */
    uint8_t **outputs;      /* [run * num_outputs + o] */
    const char *source;     /* how the expected outputs were obtained, for the comment */
} TestData;

/* Pool arrays are never asked for zero elements. */
static size_t at_least_one(size_t n)
{
    return n ? n : 1;
}

static bool is_stateful(const TaEmitInput *in)
{
    for (int i = 0; i < in->plan->regions.len; i++)
        if (((const TaRegion *)in->plan->regions.items[i])->role == TA_REGION_PERSISTENT)
            return true;
    for (int i = 0; i < in->graph->tensors.len; i++)
        if (TA_TENSOR(in->graph, i)->is_variable && !TA_TENSOR(in->graph, i)->removed)
            return true;
    return false;
}

/* splitmix64: a fixed, portable sequence. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The real range a float input is quantized to by the QUANTIZE that reads
   it, widened by an eighth on each side so saturation is exercised;
   [-1, 1] otherwise. */
static void float_range(const TaGraph *g, const TaTensor *t, double *lo, double *hi)
{
    *lo = -1.0;
    *hi = 1.0;
    for (int i = 0; i < g->ops.len; i++) {
        const TaOp *op = TA_OP(g, i);
        if (strcmp(op->type, "QUANTIZE") != 0 || op->num_inputs < 1 || op->inputs[0] != t ||
            op->num_outputs < 1)
            continue;
        const TaTensor *q = op->outputs[0];
        if (!q->quant || q->quant->num_scales < 1 || q->quant->num_zero_points < 1)
            continue;
        double qmin = q->dtype == TA_INT16 ? -32768 : -128;
        double qmax = q->dtype == TA_INT16 ? 32767 : 127;
        double s = q->quant->scale[0], zp = (double)q->quant->zero_point[0];
        double a = (qmin - zp) * s, b = (qmax - zp) * s;
        double widen = (b - a) / 8;
        *lo = a - widen;
        *hi = b + widen;
        return;
    }
}

/* Deterministic bytes for input `index` of run `run`: integers over their
   whole range, but int32/int64 inputs are 0 (such inputs are usually
   indices or sizes, and 0 is valid for every one), bools 0/1, floats
   uniform over float_range(). */
static uint8_t *stimulus(TaPool *pool, const TaGraph *g, const TaTensor *t, int index, int run)
{
    size_t n = ta_tensor_elements(t), bytes = ta_tensor_bytes(t);
    uint8_t *out = ta_alloc(pool, bytes ? bytes : 1);
    uint64_t state = 0x7E57CA5Eull ^ ((uint64_t)(unsigned)index << 32) ^ (uint64_t)(unsigned)run;
    double lo, hi;
    float_range(g, t, &lo, &hi);
    for (size_t k = 0; k < n; k++) {
        uint64_t r = next_random(&state);
        switch (t->dtype) {
        case TA_INT8:
        case TA_UINT8: out[k] = (uint8_t)r; break;
        case TA_INT16: {
            uint16_t v = (uint16_t)r;
            memcpy(out + 2 * k, &v, 2);
            break;
        }
        case TA_INT32: {
            int32_t v = 0;
            memcpy(out + 4 * k, &v, 4);
            break;
        }
        case TA_INT64: {
            int64_t v = 0;
            memcpy(out + 8 * k, &v, 8);
            break;
        }
        case TA_BOOL: out[k] = (uint8_t)(r & 1); break;
        case TA_FLOAT32: {
            float v = (float)(lo + (hi - lo) * (double)(r >> 11) / 9007199254740992.0);
            memcpy(out + 4 * k, &v, 4);
            break;
        }
        default: /* other types never reach a lowered module */ memset(out, 0, bytes); return out;
        }
    }
    return out;
}

static const char *tensor_label(TaPool *pool, const TaTensor *t, const char *role, int i)
{
    return t->name ? ta_format(pool, "%s %d (tensor %s \"%s\")", role, i, t->id, t->name)
                   : ta_format(pool, "%s %d (tensor %s)", role, i, t->id);
}

/* The same, safe inside a C comment whatever the model names tensors. */
static const char *comment_label(TaPool *pool, const TaTensor *t, const char *role, int i)
{
    return ta_escape_c_comment(pool, tensor_label(pool, t, role, i));
}

/* Reads one file per tensor; every file must hold the same number of
   runs, each exactly the tensor's bytes. */
static bool read_files(const TaEmitInput *in, const TaVec *paths, const TaVec *tensors,
                       const char *key, const char *role, int *runs, uint8_t ***data)
{
    if (paths->len != tensors->len) {
        ta_error(in->diag, "%s: %d file%s given, the model has %d %s%s", key, paths->len,
                 paths->len == 1 ? "" : "s", tensors->len, role, tensors->len == 1 ? "" : "s");
        return false;
    }
    uint8_t **bytes = ta_alloc_array(in->pool, (size_t)(tensors->len ? tensors->len : 1),
                                     sizeof *bytes);
    size_t *sizes = ta_alloc_array(in->pool, (size_t)(tensors->len ? tensors->len : 1),
                                   sizeof *sizes);
    for (int i = 0; i < tensors->len; i++) {
        const char *path = paths->items[i];
        const TaTensor *t = tensors->items[i];
        size_t need = ta_tensor_bytes(t);
        bytes[i] = ta_read_file(in->pool, in->diag, path, &sizes[i]);
        if (!bytes[i])
            return false;
        if (need == 0 || sizes[i] == 0 || sizes[i] % need != 0) {
            ta_error(in->diag,
                     "%s: %s[%d] for %s: %zu bytes, expected a multiple of %zu "
                     "(one run is %s %s)",
                     path, key, i, tensor_label(in->pool, t, role, i), sizes[i], need,
                     ta_dtype_name(t->dtype), ta_shape_text(in->pool, t));
            return false;
        }
        int n = (int)(sizes[i] / need);
        if (*runs == 0)
            *runs = n;
        if (n != *runs) {
            ta_error(in->diag, "%s: %s[%d] for %s holds %d run%s, the test case has %d", path, key,
                     i, tensor_label(in->pool, t, role, i), n, n == 1 ? "" : "s", *runs);
            return false;
        }
    }
    /* Split into [run * count + i]. */
    int count = tensors->len;
    uint8_t **split = ta_alloc_array(in->pool, at_least_one((size_t)(*runs * count)),
                                     sizeof *split);
    for (int r = 0; r < *runs; r++)
        for (int i = 0; i < count; i++)
            split[r * count + i] = bytes[i] +
                                   (size_t)r * ta_tensor_bytes((const TaTensor *)tensors->items[i]);
    *data = split;
    return true;
}

/* The executor calls tinyaot's kernels only: a user kernel (custom_operators)
   is C that tinyaot never builds, so its expected outputs must be given. */
static bool executable_on_host(const TaEmitInput *in)
{
    for (int i = 0; i < in->graph->ops.len; i++) {
        const TaOp *op = TA_OP(in->graph, i);
        for (int k = 0; k < op->lowered.calls.len; k++) {
            const TaKernelCall *call = op->lowered.calls.items[k];
            if (!call->user)
                continue;
            ta_error(in->diag,
                     "test.enabled: %s calls the user kernel %s (custom_operators), which "
                     "tinyaot cannot run on the host to compute expected outputs; give them "
                     "with test.inputs and test.outputs",
                     ta_op_describe(in->pool, op), call->function);
            return false;
        }
    }
    return true;
}

static bool collect(const TaEmitInput *in, TestData *td)
{
    const TaConfig *cfg = in->config;
    const TaGraph *g = in->graph;
    int ni = g->inputs.len, no = g->outputs.len;
    if (cfg->test_outputs.len && !cfg->test_inputs.len) {
        ta_error(in->diag, "test.outputs needs test.inputs: expected outputs belong to a "
                           "given stimulus");
        return false;
    }
    td->runs = 0;
    if (cfg->test_inputs.len) {
        uint8_t **ins;
        if (!read_files(in, &cfg->test_inputs, &g->inputs, "test.inputs", "input", &td->runs, &ins))
            return false;
        td->inputs = (const uint8_t **)ins;
    } else {
        td->runs = is_stateful(in) ? STATEFUL_RUNS : STATELESS_RUNS;
        td->inputs = ta_alloc_array(in->pool, at_least_one((size_t)(td->runs * ni)),
                                    sizeof *td->inputs);
        for (int r = 0; r < td->runs; r++)
            for (int i = 0; i < ni; i++)
                td->inputs[r * ni + i] = stimulus(in->pool, g, g->inputs.items[i], i, r);
    }
    if (cfg->test_outputs.len) {
        int runs = td->runs;
        if (!read_files(in, &cfg->test_outputs, &g->outputs, "test.outputs", "output", &runs,
                        &td->outputs))
            return false;
        td->source = "read from test.outputs";
        return true;
    }
    if (!executable_on_host(in))
        return false;
    td->outputs = ta_alloc_array(in->pool, at_least_one((size_t)(td->runs * no)),
                                 sizeof *td->outputs);
    td->source = "computed at conversion by running the module's kernels on the host";
    return ta_execute(in->pool, in->diag, g, in->plan, td->runs,
                      in->config->test_max_loop_iterations, td->inputs, td->outputs);
}

/* ---- the generated files ------------------------------------------------- */

/* Element type of the arrays: floats are kept as their bit patterns, so
   every value (NaN included) is exact. */
static const char *array_ctype(TaDtype d)
{
    switch (d) {
    case TA_INT8: return "int8_t";
    case TA_UINT8: return "uint8_t";
    case TA_INT16: return "int16_t";
    case TA_INT32: return "int32_t";
    case TA_INT64: return "int64_t";
    case TA_BOOL: return "uint8_t";
    case TA_FLOAT32: return "uint32_t";
    default: return "uint8_t";
    }
}

/* The generated compare's element kinds. */
static int element_kind(TaDtype d)
{
    switch (d) {
    case TA_INT8: return 0;
    case TA_UINT8: return 1;
    case TA_INT16: return 2;
    case TA_INT32: return 3;
    case TA_INT64: return 4;
    case TA_BOOL: return 1;
    case TA_FLOAT32: return 5;
    default: return 1;
    }
}

static void emit_values(TaBuf *b, TaDtype d, const uint8_t *p, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        ta_buf_puts(b, k % 16 == 0 ? "\n    " : " ");
        switch (d) {
        case TA_INT8: ta_buf_printf(b, "%d,", (int)(int8_t)p[k]); break;
        case TA_INT16: {
            int16_t v;
            memcpy(&v, p + 2 * k, 2);
            ta_buf_printf(b, "%d,", (int)v);
            break;
        }
        case TA_INT32: {
            int32_t v;
            memcpy(&v, p + 4 * k, 4);
            /* INT32_MIN has no literal of type int */
            ta_buf_printf(b, v == INT32_MIN ? "(-2147483647 - 1)," : "%ld,", (long)v);
            break;
        }
        case TA_INT64: {
            int64_t v;
            memcpy(&v, p + 8 * k, 8);
            if (v == INT64_MIN)
                ta_buf_puts(b, "(-INT64_C(9223372036854775807) - 1),");
            else
                ta_buf_printf(b, "INT64_C(%lld),", (long long)v);
            break;
        }
        case TA_FLOAT32: {
            uint32_t v;
            memcpy(&v, p + 4 * k, 4);
            ta_buf_printf(b, "0x%08lxu,", (unsigned long)v);
            break;
        }
        default: ta_buf_printf(b, "%u,", (unsigned)p[k]); break;
        }
    }
}

static void emit_array(const TaEmitInput *in, const TaFields *outer, TaBuf *b, const TaTensor *t,
                       const TestData *td, bool output, int index, int count)
{
    size_t n = ta_tensor_elements(t), bytes = ta_tensor_bytes(t);
    TaFields f = ta_fields(in->pool, outer);
    ta_field(&f, "label", comment_label(in->pool, t, output ? "output" : "input", index));
    ta_field(&f, "dtype", ta_dtype_name(t->dtype));
    ta_field(&f, "shape", ta_shape_text(in->pool, t));
    ta_field_int(&f, "runs", td->runs);
    ta_field(&f, "s", td->runs == 1 ? "" : "s");
    ta_field(&f, "ctype", array_ctype(t->dtype));
    ta_field(&f, "side", output ? "output" : "input");
    ta_field_int(&f, "i", index);
    ta_field_size(&f, "length", at_least_one(n * (size_t)td->runs));
    ta_template(b, &f,
                "/* $label, $dtype $shape, $runs run$s */\n"
                "const $ctype ${prefix}_test_case_${side}${i}[$length] = {");
    if (!n)
        ta_buf_puts(b, "0");
    size_t elem = ta_dtype_size(t->dtype) ? ta_dtype_size(t->dtype) : 1;
    for (int r = 0; r < td->runs; r++) {
        const uint8_t *p = output ? td->outputs[r * count + index] : td->inputs[r * count + index];
        ta_buf_printf(b, "\n    /* run %d */", r);
        emit_values(b, t->dtype, p, bytes / elem);
    }
    ta_buf_puts(b, "\n};\n\n");
}

static void emit_declarations(const TaEmitInput *in, const TaFields *outer, TaBuf *b,
                              const TestData *td, const TaVec *tensors, const char *side)
{
    for (int i = 0; i < tensors->len; i++) {
        const TaTensor *t = tensors->items[i];
        TaFields f = ta_fields(in->pool, outer);
        ta_field(&f, "ctype", array_ctype(t->dtype));
        ta_field(&f, "side", side);
        ta_field_int(&f, "i", i);
        ta_field_size(&f, "length", at_least_one(ta_tensor_elements(t) * (size_t)td->runs));
        ta_template(b, &f, "extern const $ctype ${prefix}_test_case_${side}${i}[$length];\n");
    }
}

static void emit_header(const TaEmitInput *in, const TaFields *fields, TaBuf *b, const TestData *td)
{
    TaFields f = ta_fields(in->pool, fields);
    ta_field_int(&f, "runs", td->runs);
    ta_field(&f, "times", td->runs == 1 ? "once" : ta_format(in->pool, "%d times", td->runs));
    ta_field(&f, "source", td->source);
    ta_field_int(&f, "mismatch", TA_ERR_TEST_MISMATCH);
    ta_field_int(&f, "unbound", TA_ERR_UNBOUND_REGION);
    ta_field(&f, "tolerance", ta_format(in->pool, "%.17g", in->config->test_tolerance));
    ta_template(b, &f,
                "/*\n * ${prefix}_test_case.h - generated by tinyaot: the built-in test case.\n *\n"
                " * ${prefix}_test_case_run(&ctx) initializes the model (${prefix}_model_init),\n"
                " * runs it $times back to back on a fixed stimulus and compares every\n"
                " * output element with the expected outputs within\n"
                " * ${PREFIX}_TEST_CASE_TOLERANCE (quantized steps for integer outputs,\n"
                " * an absolute difference for float ones). The expected outputs were\n"
                " * $source.\n"
                " * It returns 0 on a match,\n"
                " * TA_ERR_TEST_MISMATCH ($mismatch) at the first element that differs, or the\n"
                " * status of a failing ${prefix}_model_init / ${prefix}_model_run.\n");
    if (!in->config->allocate_arenas)
        ta_template(b, &f,
                    " *\n * memory.allocate_arenas is false: the application must bind every\n"
                    " * arena first (${prefix}_bind_arena / ${prefix}_bind_arenas; cold constant\n"
                    " * regions with the bytes of their sidecar .bin), else the test case returns\n"
                    " * TA_ERR_UNBOUND_REGION ($unbound) before running anything.\n");
    ta_template(b, &f,
                " *\n * The first mismatch is reported to the function given to\n"
                " * ${prefix}_test_case_set_report() (none by default: only the status tells).\n"
                " */\n"
                "#ifndef ${PREFIX}_TEST_CASE_H\n#define ${PREFIX}_TEST_CASE_H\n\n"
                "#include <stddef.h>\n#include <stdint.h>\n\n#include \"$model_h\"\n\n"
                "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
                "#define ${PREFIX}_TEST_CASE_RUNS $runs\n"
                "#define ${PREFIX}_TEST_CASE_TOLERANCE $tolerance\n\n"
                "/* Where the first mismatch is: run, output index, element index,\n"
                "   and both values (floats as floats, integers converted exactly). */\n"
                "typedef struct {\n    int run;\n    int output;\n    size_t element;\n"
                "    double expected;\n    double actual;\n} ${prefix}_test_case_mismatch_t;\n\n"
                "typedef void (*${prefix}_test_case_report_t)(void *user_data,\n"
                "    const ${prefix}_test_case_mismatch_t *mismatch);\n"
                "/* Sets the report hook (NULL: none) and the pointer passed to it. */\n"
                "void ${prefix}_test_case_set_report(${prefix}_test_case_report_t report,"
                " void *user_data);\n\n"
                "/* 0: every output matched; otherwise a status (see above). */\n"
                "int ${prefix}_test_case_run(${prefix}_model_context_t *ctx);\n\n"
                "/* The stimulus and the expected outputs, every run back to back\n"
                "   (float32 tensors as their IEEE-754 bit patterns). */\n");
    emit_declarations(in, &f, b, td, &in->graph->inputs, "input");
    emit_declarations(in, &f, b, td, &in->graph->outputs, "output");
    ta_template(b, &f, "\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* ${PREFIX}_TEST_CASE_H */\n");
}

/* The chain taking row-push input's rows (module.input_rows: push), or NULL. */
static const TaRowChain *push_chain(const TaGraph *g)
{
    for (int i = 0; i < g->row_chains.len; i++)
        if (((const TaRowChain *)g->row_chains.items[i])->push_input)
            return g->row_chains.items[i];
    return NULL;
}

/* Row-push input: the run's input rows pushed in the uneven pieces of
   ta_push_pieces.h, which run the model with the last row. */
static void emit_push_input(const TaEmitInput *in, TaBuf *b, const TaFields *outer,
                            const TaTensor *t)
{
    TaFields f = ta_fields(in->pool, outer);
    ta_field_size(&f, "elements", ta_tensor_elements(t));
    ta_field_int(&f, "height", t->dims[1]);
    ta_field_size(&f, "row", (size_t)t->dims[2] * (size_t)t->dims[3]);
    ta_template(
        b, &f,
        "        /* Row-push input: the rows in pieces of 1, 3, 2, 1, ... rows. */\n"
        "        const int8_t *rows =\n"
        "            (const int8_t *)&${prefix}_test_case_input0[(size_t)run * $elements];\n"
        "        for (int32_t done = 0, piece = 0; done < $height; piece++) {\n"
        "            int32_t n = ta_push_piece_rows(piece, $height - done);\n"
        "            status = ${prefix}_model_push_rows(ctx, rows + (size_t)done * $row, n);\n"
        "            if (status != TA_OK)\n                return status;\n"
        "            done += n;\n"
        "        }\n");
}

static void emit_source(const TaEmitInput *in, const TaFields *fields, TaBuf *b, const TestData *td)
{
    const TaGraph *g = in->graph;
    int ni = g->inputs.len, no = g->outputs.len;
    TaFields f = ta_fields(in->pool, fields);
    ta_template(b, &f,
                "/* ${prefix}_test_case.c - generated by tinyaot: the built-in test case. */\n"
                "#include \"${prefix}_test_case.h\"\n\n#include <string.h>\n\n");
    for (int i = 0; i < ni; i++)
        emit_array(in, &f, b, g->inputs.items[i], td, false, i, ni);
    for (int o = 0; o < no; o++)
        emit_array(in, &f, b, g->outputs.items[o], td, true, o, no);
    /* One element as a double: exact for every integer type but the
       extremes of int64, which the byte comparison handles first. */
    ta_template(
        b, &f,
        "static ${prefix}_test_case_report_t ${prefix}_test_case_report;\n"
        "static void *${prefix}_test_case_user_data;\n\n"
        "void ${prefix}_test_case_set_report(${prefix}_test_case_report_t report,"
        " void *user_data)\n{\n"
        "    ${prefix}_test_case_report = report;\n"
        "    ${prefix}_test_case_user_data = user_data;\n}\n\n"
        "/* Element kinds: 0 int8, 1 uint8/bool, 2 int16, 3 int32, 4 int64, 5 float32. */\n"
        "static double ${prefix}_test_case_value(int kind, const void *data, size_t i)\n{\n"
        "    switch (kind) {\n"
        "    case 0: return ((const int8_t *)data)[i];\n"
        "    case 2: return ((const int16_t *)data)[i];\n"
        "    case 3: return ((const int32_t *)data)[i];\n"
        "    case 4: return (double)((const int64_t *)data)[i];\n"
        "    case 5: {\n        float f;\n"
        "        memcpy(&f, (const uint8_t *)data + 4 * i, sizeof f);\n"
        "        return f;\n    }\n"
        "    default: return ((const uint8_t *)data)[i];\n    }\n}\n\n"
        "/* 0, or TA_ERR_TEST_MISMATCH after reporting the first element out\n"
        "   of tolerance. Equal bytes always match; any NaN matches any NaN (its\n"
        "   sign and payload vary with the compiler and its options), never a\n"
        "   number. */\n"
        "static int ${prefix}_test_case_compare(int run, int output, int kind, size_t size,\n"
        "                                const void *expected, const void *actual,\n"
        "                                size_t count)\n{\n"
        "    for (size_t i = 0; i < count; i++) {\n"
        "        if (memcmp((const uint8_t *)expected + i * size,\n"
        "                   (const uint8_t *)actual + i * size, size) == 0)\n"
        "            continue;\n"
        "        double e = ${prefix}_test_case_value(kind, expected, i);\n"
        "        double a = ${prefix}_test_case_value(kind, actual, i);\n"
        "        if (e != e || a != a) {\n"
        "            if (e != e && a != a)\n                continue;\n"
        "        } else {\n"
        "            double diff = e > a ? e - a : a - e;\n"
        "            if (diff <= ${PREFIX}_TEST_CASE_TOLERANCE)\n                continue;\n"
        "        }\n"
        "        if (${prefix}_test_case_report != NULL) {\n"
        "            ${prefix}_test_case_mismatch_t m;\n"
        "            m.run = run;\n            m.output = output;\n"
        "            m.element = i;\n            m.expected = e;\n"
        "            m.actual = a;\n"
        "            ${prefix}_test_case_report(${prefix}_test_case_user_data, &m);\n"
        "        }\n"
        "        return TA_ERR_TEST_MISMATCH;\n    }\n    return TA_OK;\n}\n\n"
        "int ${prefix}_test_case_run(${prefix}_model_context_t *ctx)\n{\n"
        "    if (ctx == NULL)\n        return TA_ERR_NULL_CONTEXT;\n");
    if (!in->config->allocate_arenas)
        ta_template(b, &f,
                    "    /* The application binds every arena before this call; an unbound\n"
                    "       one makes model_init return TA_ERR_UNBOUND_REGION. */\n");
    ta_template(b, &f,
                "    int status = ${prefix}_model_init(ctx);\n"
                "    if (status != TA_OK)\n        return status;\n"
                "    for (int run = 0; run < ${PREFIX}_TEST_CASE_RUNS; run++) {\n");
    if (push_chain(g)) {
        emit_push_input(in, b, &f, g->inputs.items[0]);
    } else {
        for (int i = 0; i < ni; i++) {
            const TaTensor *t = g->inputs.items[i];
            if (!ta_tensor_bytes(t))
                continue;
            TaFields io = ta_fields(in->pool, &f);
            ta_field_int(&io, "i", i);
            ta_field_size(&io, "elements", ta_tensor_elements(t));
            ta_field_size(&io, "bytes", ta_tensor_bytes(t));
            ta_template(b, &io,
                        "        memcpy(ctx->inputs[$i].data,\n"
                        "               &${prefix}_test_case_input${i}[(size_t)run * $elements], "
                        "$bytes);\n");
        }
        ta_template(b, &f,
                    "        if ((status = ${prefix}_model_run(ctx)) != TA_OK)\n"
                    "            return status;\n");
    }
    for (int o = 0; o < no; o++) {
        const TaTensor *t = g->outputs.items[o];
        if (!ta_tensor_elements(t))
            continue;
        TaFields io = ta_fields(in->pool, &f);
        ta_field_int(&io, "o", o);
        ta_field_int(&io, "kind", element_kind(t->dtype));
        ta_field_size(&io, "size", ta_dtype_size(t->dtype));
        ta_field_size(&io, "elements", ta_tensor_elements(t));
        ta_template(b, &io,
                    "        status = ${prefix}_test_case_compare(run, $o, $kind, $size,\n"
                    "            &${prefix}_test_case_output${o}[(size_t)run * $elements],\n"
                    "            ctx->outputs[$o].data, $elements);\n"
                    "        if (status != TA_OK)\n            return status;\n");
    }
    ta_template(b, &f, "    }\n    return TA_OK;\n}\n");
}

bool ta_emit_test_case(const TaEmitInput *in, const char *dir, TaVec *sources)
{
    TestData td = {0};
    if (!collect(in, &td))
        return false;
    TaFields fields = ta_fields(in->pool, NULL);
    ta_field(&fields, "prefix", in->prefix);
    ta_field(&fields, "PREFIX", ta_upper(in->pool, in->prefix));
    ta_field(&fields, "model_h", ta_model_file(in->pool, in->prefix, "h"));
    TaBuf h = {0}, c = {0};
    emit_header(in, &fields, &h, &td);
    emit_source(in, &fields, &c, &td);
    const char *c_name = ta_format(in->pool, "%s_test_case.c", in->prefix);
    bool ok = ta_emit_write(in, dir, ta_format(in->pool, "%s_test_case.h", in->prefix), &h) &&
              ta_emit_write(in, dir, c_name, &c);
    ta_buf_free(&h);
    ta_buf_free(&c);
    if (ok)
        ta_vec_push(in->pool, sources, (void *)c_name);
    return ok;
}
