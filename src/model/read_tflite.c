/*
 * read_tflite.c - LiteRT (.tflite) file -> TaModel.
 *
 * Field numbers below are the order of fields in schema.fbs; a union takes
 * two numbers (its type, then its value). Everything read is checked: every
 * index points at something that exists, every constant buffer has exactly
 * the bytes its shape needs, every shape is small enough that later byte
 * counts cannot overflow. The first problem ends the read with one message.
 */
#include "model.h"

#include "fb.h"

#include <stdio.h>
#include <string.h>

/* Field numbers from schema.fbs. */
enum {
    MODEL_VERSION = 0,
    MODEL_OPERATOR_CODES,
    MODEL_SUBGRAPHS,
    MODEL_DESCRIPTION,
    MODEL_BUFFERS,
    MODEL_METADATA_BUFFER,
    MODEL_METADATA
};
enum { OPCODE_DEPRECATED_BUILTIN = 0, OPCODE_CUSTOM, OPCODE_VERSION, OPCODE_BUILTIN };
enum { SUBGRAPH_TENSORS = 0, SUBGRAPH_INPUTS, SUBGRAPH_OUTPUTS, SUBGRAPH_OPERATORS, SUBGRAPH_NAME };
enum {
    TENSOR_SHAPE = 0,
    TENSOR_TYPE,
    TENSOR_BUFFER,
    TENSOR_NAME,
    TENSOR_QUANTIZATION,
    TENSOR_IS_VARIABLE,
    TENSOR_SPARSITY,
    TENSOR_SHAPE_SIGNATURE
};
enum {
    QUANT_MIN = 0,
    QUANT_MAX,
    QUANT_SCALE,
    QUANT_ZERO_POINT,
    QUANT_DETAILS_TYPE,
    QUANT_DETAILS,
    QUANT_DIMENSION
};
enum {
    OP_OPCODE_INDEX = 0,
    OP_INPUTS,
    OP_OUTPUTS,
    OP_OPTIONS_TYPE,
    OP_OPTIONS,
    OP_CUSTOM_OPTIONS,
    OP_CUSTOM_OPTIONS_FORMAT,
    OP_MUTATING_VARIABLE_INPUTS,
    OP_INTERMEDIATES,
    OP_LARGE_CUSTOM_OFFSET,
    OP_LARGE_CUSTOM_SIZE,
    OP_OPTIONS2_TYPE,
    OP_OPTIONS2
};
enum { BUFFER_DATA = 0, BUFFER_OFFSET, BUFFER_SIZE };
enum { METADATA_NAME = 0, METADATA_BUFFER };

/* Upper bound of one tensor's bytes: far above any microcontroller. */
#define MAX_TENSOR_BYTES ((uint64_t)1 << 31)

#define NAME_ENTRY(value, name) [value] = #name,
static const char *const builtin_names[] = {
#include "schema_tables.inc"
    TA_BUILTIN_OPERATORS(NAME_ENTRY)};
static const char *const options_names[] = {TA_BUILTIN_OPTIONS(NAME_ENTRY)};
#undef NAME_ENTRY

const char *ta_builtin_name(int builtin)
{
    if (builtin < 0 || builtin >= (int)TA_COUNT_OF(builtin_names))
        return NULL;
    return builtin_names[builtin];
}

const char *ta_builtin_options_name(int type)
{
    if (type < 0 || type >= (int)TA_COUNT_OF(options_names))
        return NULL;
    return options_names[type];
}

typedef struct OpCode {
    int builtin; /* -1 for custom */
    const char *custom_code;
    int version;
} OpCode;

typedef struct Buffer {
    const uint8_t *data;
    size_t size;
} Buffer;

typedef struct Reader {
    TaFbReader fb;
    TaPool *pool;
    TaModel *model;
    OpCode *opcodes;
    uint32_t num_opcodes;
    Buffer *buffers;
    uint32_t num_buffers;
} Reader;

static bool read_opcodes(Reader *rd, TaFbTable model)
{
    TaFbVec v = ta_fb_vec(model, MODEL_OPERATOR_CODES, 4);
    rd->num_opcodes = v.len;
    rd->opcodes = ta_alloc_array(rd->pool, v.len + 1, sizeof(OpCode));
    for (uint32_t i = 0; i < v.len && !rd->fb.failed; i++) {
        ta_fb_where(&rd->fb, "operator code %u", i);
        TaFbTable t = ta_fb_vec_table(v, i);
        int deprecated = ta_fb_i8(t, OPCODE_DEPRECATED_BUILTIN, 0);
        int32_t builtin = ta_fb_i32(t, OPCODE_BUILTIN, 0);
        /* Files written before builtin_code existed only fill the
           deprecated byte; newer files may fill both. The larger wins. */
        int code = builtin > deprecated ? builtin : deprecated;
        OpCode *oc = &rd->opcodes[i];
        oc->custom_code = ta_fb_string(t, OPCODE_CUSTOM, rd->pool);
        oc->version = ta_fb_i32(t, OPCODE_VERSION, 1);
        oc->builtin = code;
        if (code < 0)
            ta_fb_fail(&rd->fb, t.pos, "negative builtin operator code %d", code);
        else if (code == 32 /* CUSTOM */ && !oc->custom_code)
            ta_fb_fail(&rd->fb, t.pos, "custom operator without a custom_code");
    }
    return !rd->fb.failed;
}

static bool read_buffers(Reader *rd, TaFbTable model)
{
    TaFbVec v = ta_fb_vec(model, MODEL_BUFFERS, 4);
    rd->num_buffers = v.len;
    rd->buffers = ta_alloc_array(rd->pool, v.len + 1, sizeof(Buffer));
    for (uint32_t i = 0; i < v.len && !rd->fb.failed; i++) {
        ta_fb_where(&rd->fb, "buffer %u", i);
        TaFbTable t = ta_fb_vec_table(v, i);
        TaFbVec data = ta_fb_vec(t, BUFFER_DATA, 1);
        uint64_t offset = ta_fb_u64(t, BUFFER_OFFSET, 0);
        uint64_t size = ta_fb_u64(t, BUFFER_SIZE, 0);
        if (data.len) {
            rd->buffers[i].data = ta_fb_vec_bytes(data);
            rd->buffers[i].size = data.len;
        } else if (offset > 1) {
            /* Large models keep buffer data after the flatbuffer; offset
               and size are from the start of the file. */
            if (offset > rd->fb.len || size > rd->fb.len - offset) {
                ta_fb_fail(&rd->fb, t.pos, "external data [%llu, +%llu) lies outside the file",
                           (unsigned long long)offset, (unsigned long long)size);
                break;
            }
            rd->buffers[i].data = rd->fb.buf + offset;
            rd->buffers[i].size = (size_t)size;
        }
    }
    return !rd->fb.failed;
}

static TaQuant *read_quant(Reader *rd, TaFbTable t)
{
    TaFbVec scale = ta_fb_vec(t, QUANT_SCALE, 4);
    TaFbVec zp = ta_fb_vec(t, QUANT_ZERO_POINT, 8);
    if (rd->fb.failed || scale.len == 0)
        return NULL;
    if (zp.len != 0 && zp.len != scale.len) {
        ta_fb_fail(&rd->fb, t.pos, "%u zero points for %u scales", zp.len, scale.len);
        return NULL;
    }
    TaQuant *q = ta_alloc(rd->pool, sizeof *q);
    q->num_scales = (int)scale.len;
    q->num_zero_points = (int)zp.len;
    q->scale = ta_alloc_array(rd->pool, scale.len, sizeof(float));
    q->zero_point = ta_alloc_array(rd->pool, zp.len + 1, sizeof(int64_t));
    for (uint32_t i = 0; i < scale.len; i++)
        q->scale[i] = ta_fb_vec_f32(scale, i);
    for (uint32_t i = 0; i < zp.len; i++)
        q->zero_point[i] = ta_fb_vec_i64(zp, i);
    q->axis = ta_fb_i32(t, QUANT_DIMENSION, 0);
    /* Real converters write per-channel biases with the axis of the
       weights they go with (person_detect: axis 3 on a rank-1 bias), so
       the axis is only range-checked by the operators that use it. */
    if (q->axis < 0 || q->axis >= TA_MAX_RANK) {
        ta_fb_fail(&rd->fb, t.pos, "quantized_dimension %d is out of range", q->axis);
        return NULL;
    }
    return q;
}

static bool read_dims(Reader *rd, TaFbVec v, int32_t *dims, int *rank, bool allow_dynamic)
{
    if (v.len > TA_MAX_RANK) {
        ta_fb_fail(&rd->fb, v.pos, "rank %u exceeds the maximum of %d", v.len, TA_MAX_RANK);
        return false;
    }
    *rank = (int)v.len;
    for (uint32_t i = 0; i < v.len; i++) {
        dims[i] = ta_fb_vec_i32(v, i);
        if (dims[i] < 0 && !(allow_dynamic && dims[i] == -1)) {
            ta_fb_fail(&rd->fb, v.pos, "dimension %u is %d", i, (int)dims[i]);
            return false;
        }
    }
    return !rd->fb.failed;
}

static TaTensor *read_tensor(Reader *rd, TaGraph *g, TaFbTable t, uint32_t index)
{
    int32_t dims[TA_MAX_RANK];
    int rank = 0;
    if (!read_dims(rd, ta_fb_vec(t, TENSOR_SHAPE, 4), dims, &rank, false))
        return NULL;
    int type = ta_fb_i8(t, TENSOR_TYPE, 0);
    char id[16];
    snprintf(id, sizeof id, "%u", index);
    TaTensor *tensor = ta_graph_new_tensor(rd->pool, g, id, (TaDtype)type, rank, dims);
    tensor->model_index = (int)index;
    tensor->name = ta_fb_string(t, TENSOR_NAME, rd->pool);
    tensor->is_variable = ta_fb_bool(t, TENSOR_IS_VARIABLE, false);

    uint64_t elements = 1;
    for (int i = 0; i < rank; i++) {
        elements *= (uint64_t)dims[i];
        if (elements > MAX_TENSOR_BYTES) {
            ta_fb_fail(&rd->fb, t.pos, "shape has more than 2^31 elements");
            return NULL;
        }
    }

    TaFbVec sig = ta_fb_vec(t, TENSOR_SHAPE_SIGNATURE, 4);
    if (sig.ok && sig.len) {
        int sig_rank = 0;
        if (!read_dims(rd, sig, tensor->signature, &sig_rank, true))
            return NULL;
        if (sig_rank != rank) {
            ta_fb_fail(&rd->fb, sig.pos, "shape_signature has rank %d, shape has %d", sig_rank,
                       rank);
            return NULL;
        }
        tensor->has_signature = true;
    }

    TaFbTable quant = ta_fb_table(t, TENSOR_QUANTIZATION);
    if (quant.ok)
        tensor->quant = read_quant(rd, quant);

    if (ta_fb_has(t, TENSOR_SPARSITY)) {
        ta_fb_fail(&rd->fb, t.pos, "sparse tensors are not supported");
        return NULL;
    }

    uint32_t buffer = ta_fb_u32(t, TENSOR_BUFFER, 0);
    if (buffer >= rd->num_buffers && buffer != 0) {
        ta_fb_fail(&rd->fb, t.pos, "buffer index %u, but the model has %u buffers", buffer,
                   rd->num_buffers);
        return NULL;
    }
    if (buffer < rd->num_buffers && rd->buffers[buffer].size) {
        size_t elem = ta_dtype_size(type);
        tensor->data = rd->buffers[buffer].data;
        tensor->data_size = rd->buffers[buffer].size;
        if (elem && tensor->data_size != elements * elem) {
            ta_fb_fail(&rd->fb, t.pos, "buffer %u holds %zu bytes, shape %s of %s needs %llu",
                       buffer, tensor->data_size, ta_shape_text(rd->pool, tensor),
                       ta_dtype_name(type), (unsigned long long)(elements * elem));
            return NULL;
        }
        tensor->role = TA_REGION_CONSTANT;
    }
    if (tensor->is_variable)
        tensor->role = TA_REGION_PERSISTENT;
    return rd->fb.failed ? NULL : tensor;
}

/* Resolves a vector of tensor indices; -1 (an omitted optional input)
   becomes NULL when `allow_missing`. */
static TaTensor **read_tensor_refs(Reader *rd, TaGraph *g, TaFbVec v, bool allow_missing,
                                   const char *what)
{
    TaTensor **refs = ta_alloc_array(rd->pool, v.len + 1, sizeof(TaTensor *));
    for (uint32_t i = 0; i < v.len && !rd->fb.failed; i++) {
        int32_t idx = ta_fb_vec_i32(v, i);
        if (idx == -1 && allow_missing)
            continue;
        if (idx < 0 || idx >= g->tensors.len) {
            ta_fb_fail(&rd->fb, v.pos, "%s %u refers to tensor %d, but the subgraph has %d", what,
                       i, (int)idx, g->tensors.len);
            return NULL;
        }
        refs[i] = TA_TENSOR(g, idx);
    }
    return refs;
}

static bool read_operator(Reader *rd, TaGraph *g, TaFbTable t, uint32_t index)
{
    uint32_t opcode = ta_fb_u32(t, OP_OPCODE_INDEX, 0);
    if (opcode >= rd->num_opcodes) {
        ta_fb_fail(&rd->fb, t.pos, "opcode_index %u, but the model has %u operator codes", opcode,
                   rd->num_opcodes);
        return false;
    }
    TaOp *op = ta_alloc(rd->pool, sizeof *op);
    op->index = (int)index;
    op->model_index = (int)index;
    op->model_subgraph = g->model_index;
    op->plan_hints.inplace_input = -1;
    op->plan_hints.overlap_input = -1;
    op->code_memory = -1;
    op->rewrites.folded_activation = 0;
    const OpCode *oc = &rd->opcodes[opcode];
    op->version = oc->version;
    if (oc->builtin == 32) {
        op->builtin = -1;
        op->type = oc->custom_code;
    } else {
        op->builtin = oc->builtin;
        const char *name = ta_builtin_name(oc->builtin);
        op->type = name ? name : ta_format(rd->pool, "BUILTIN_%d", oc->builtin);
    }

    TaFbVec in = ta_fb_vec(t, OP_INPUTS, 4);
    TaFbVec out = ta_fb_vec(t, OP_OUTPUTS, 4);
    TaFbVec inter = ta_fb_vec(t, OP_INTERMEDIATES, 4);
    op->inputs = read_tensor_refs(rd, g, in, true, "input");
    op->outputs = read_tensor_refs(rd, g, out, false, "output");
    op->intermediates = read_tensor_refs(rd, g, inter, true, "intermediate");
    op->num_inputs = (int)in.len;
    op->num_outputs = (int)out.len;
    op->num_intermediates = (int)inter.len;

    op->options_type = ta_fb_u8(t, OP_OPTIONS_TYPE, 0);
    TaFbTable opts = ta_fb_table(t, OP_OPTIONS);
    if (opts.ok) {
        op->options_buf = rd->fb.buf;
        op->options_buf_len = rd->fb.len;
        op->options_pos = opts.pos;
    }
    TaFbVec custom = ta_fb_vec(t, OP_CUSTOM_OPTIONS, 1);
    op->custom_options = ta_fb_vec_bytes(custom);
    op->custom_options_size = custom.len;
    uint64_t large_off = ta_fb_u64(t, OP_LARGE_CUSTOM_OFFSET, 0);
    uint64_t large_size = ta_fb_u64(t, OP_LARGE_CUSTOM_SIZE, 0);
    if (large_off > 1) {
        if (large_off > rd->fb.len || large_size > rd->fb.len - large_off) {
            ta_fb_fail(&rd->fb, t.pos, "large custom options lie outside the file");
            return false;
        }
        op->custom_options = rd->fb.buf + large_off;
        op->custom_options_size = (size_t)large_size;
    }
    if (!rd->fb.failed)
        ta_vec_push(rd->pool, &g->ops, op);
    return !rd->fb.failed;
}

static TaGraph *read_subgraph(Reader *rd, TaFbTable t, uint32_t index)
{
    TaGraph *g = ta_alloc(rd->pool, sizeof *g);
    g->model_index = (int)index;
    ta_fb_where(&rd->fb, "subgraph %u", index);
    g->name = ta_fb_string(t, SUBGRAPH_NAME, rd->pool);

    TaFbVec tensors = ta_fb_vec(t, SUBGRAPH_TENSORS, 4);
    for (uint32_t i = 0; i < tensors.len && !rd->fb.failed; i++) {
        ta_fb_where(&rd->fb, "subgraph %u, tensor %u", index, i);
        read_tensor(rd, g, ta_fb_vec_table(tensors, i), i);
    }

    ta_fb_where(&rd->fb, "subgraph %u", index);
    TaFbVec in = ta_fb_vec(t, SUBGRAPH_INPUTS, 4);
    TaFbVec out = ta_fb_vec(t, SUBGRAPH_OUTPUTS, 4);
    TaTensor **ins = read_tensor_refs(rd, g, in, false, "subgraph input");
    TaTensor **outs = read_tensor_refs(rd, g, out, false, "subgraph output");
    for (uint32_t i = 0; i < in.len && ins && !rd->fb.failed; i++)
        ta_vec_push(rd->pool, &g->inputs, ins[i]);
    for (uint32_t i = 0; i < out.len && outs && !rd->fb.failed; i++)
        ta_vec_push(rd->pool, &g->outputs, outs[i]);

    TaFbVec ops = ta_fb_vec(t, SUBGRAPH_OPERATORS, 4);
    for (uint32_t i = 0; i < ops.len && !rd->fb.failed; i++) {
        ta_fb_where(&rd->fb, "subgraph %u, operator %u", index, i);
        read_operator(rd, g, ta_fb_vec_table(ops, i), i);
    }
    return rd->fb.failed ? NULL : g;
}

static void read_metadata(Reader *rd, TaFbTable model)
{
    TaFbVec v = ta_fb_vec(model, MODEL_METADATA, 4);
    for (uint32_t i = 0; i < v.len && !rd->fb.failed; i++) {
        ta_fb_where(&rd->fb, "metadata %u", i);
        TaFbTable t = ta_fb_vec_table(v, i);
        TaMetadata *m = ta_alloc(rd->pool, sizeof *m);
        m->name = ta_fb_string(t, METADATA_NAME, rd->pool);
        uint32_t buffer = ta_fb_u32(t, METADATA_BUFFER, 0);
        if (buffer >= rd->num_buffers) {
            ta_fb_fail(&rd->fb, t.pos, "buffer index %u, but the model has %u buffers", buffer,
                       rd->num_buffers);
            return;
        }
        m->data = rd->buffers[buffer].data;
        m->size = rd->buffers[buffer].size;
        ta_vec_push(rd->pool, &rd->model->metadata, m);
    }
}

TaModel *ta_read_tflite_bytes(TaPool *pool, TaDiag *diag, const char *path, const uint8_t *bytes,
                              size_t size)
{
    Reader rd = {.pool = pool};
    rd.fb = (TaFbReader){.buf = bytes, .len = size, .path = path, .diag = diag};
    if (size < 8 || memcmp(bytes + 4, "TFL3", 4) != 0) {
        ta_error(diag, "%s: not a LiteRT model: %s", path,
                 size < 8 ? "file is shorter than a flatbuffer header"
                          : "file identifier is not \"TFL3\"");
        return NULL;
    }
    TaModel *m = ta_alloc(pool, sizeof *m);
    rd.model = m;
    m->path = path;
    m->bytes = bytes;
    m->size = size;

    ta_fb_where(&rd.fb, "model");
    TaFbTable root = ta_fb_root(&rd.fb);
    m->version = ta_fb_u32(root, MODEL_VERSION, 0);
    if (!rd.fb.failed && m->version != 3) {
        ta_error(diag, "%s: schema version %u is not supported (expected 3)", path, m->version);
        return NULL;
    }
    m->description = ta_fb_string(root, MODEL_DESCRIPTION, pool);
    if (!read_opcodes(&rd, root) || !read_buffers(&rd, root))
        return NULL;
    TaFbVec subgraphs = ta_fb_vec(root, MODEL_SUBGRAPHS, 4);
    if (!rd.fb.failed && subgraphs.len == 0) {
        ta_error(diag, "%s: model has no subgraphs", path);
        return NULL;
    }
    for (uint32_t i = 0; i < subgraphs.len && !rd.fb.failed; i++) {
        TaGraph *g = read_subgraph(&rd, ta_fb_vec_table(subgraphs, i), i);
        if (g)
            ta_vec_push(pool, &m->subgraphs, g);
    }
    read_metadata(&rd, root);
    return rd.fb.failed ? NULL : m;
}

TaModel *ta_read_tflite(TaPool *pool, TaDiag *diag, const char *path)
{
    size_t size = 0;
    uint8_t *bytes = ta_read_file(pool, diag, path, &size);
    if (!bytes)
        return NULL;
    return ta_read_tflite_bytes(pool, diag, path, bytes, size);
}
