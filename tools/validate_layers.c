/*
 * validate_layers.c - `tinyaot validate --layers`: every operator's outputs
 * on the host build against TFLite Micro's tensors (kPreserveAllTensors).
 *
 * A program written here is built with the module (converted with
 * module.schedule: table, so the operator callback fires) and, after each
 * operator of each run, copies the operator's model tensors out of the
 * arenas into layers.bin. Tensors are matched by model tensor index; those
 * the conversion fused away or re-laid out exist in one of the two only and
 * are not compared (their count is said).
 */
#define _POSIX_C_SOURCE 200809L
#include "validate.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

/* One model tensor an operator writes, where the module keeps it. */
typedef struct Probe {
    const tinyaot_operator_view *op;
    const tinyaot_tensor_view *tensor;
    const tinyaot_placement_view *place;
    VaTensor shape; /* bytes: one run */
} Probe;

static const char
    *const program_head = "/* layers_dump.c - written by tinyaot validate --layers. */\n"
                          "#include <stdio.h>\n#include <string.h>\n\n#include \"%s_model.h\"\n\n"
                          "typedef struct { int op, region; size_t offset, size; } Probe;\n"
                          "static const Probe probes[] = {\n";

static const char *const program_tail =
    "    {-1, 0, 0, 0}};\n"
    "static %s_model_context_t ctx;\nstatic FILE *out;\n\n"
    "static void after(int32_t op, %s_operator_state_t state, int32_t status, void *user)\n{\n"
    "    (void)user;\n"
    "    if (state != %s_op_state_run_finished || status != 0)\n        return;\n"
    "    for (const Probe *p = probes; p->op >= 0; p++)\n"
    "        if (p->op == op)\n"
    "            fwrite((const char *)ctx.arena_buffers[p->region] + p->offset, 1, p->size,"
    " out);\n}\n\n"
    "int main(void)\n{\n"
    "    FILE *in = fopen(\"inputs.bin\", \"rb\");\n"
    "    out = fopen(\"layers.bin\", \"wb\");\n"
    "    if (!in || !out)\n        return 1;\n"
    "    ctx.callback = after;\n"
    "    if (%s_model_init(&ctx) != 0)\n        return 2;\n"
    "    for (long r = 0; r < %zu; r++) {\n"
    "        for (size_t k = 0; k < sizeof ctx.inputs / sizeof ctx.inputs[0]; k++)\n"
    "            if (fread(ctx.inputs[k].data, 1, ctx.inputs[k].size, in) != "
    "ctx.inputs[k].size)\n                return 3;\n"
    "        if (%s_model_run(&ctx) != 0)\n            return 4;\n    }\n"
    "    return fclose(out) != 0;\n}\n";

static const tinyaot_tensor_view *tensor_by_id(const tinyaot_result *r, const char *id,
                                               size_t *index)
{
    for (size_t i = 0; i < r->num_tensors; i++)
        if (strcmp(r->tensors[i].id, id) == 0) {
            *index = i;
            return &r->tensors[i];
        }
    return NULL;
}

static size_t ctype_size(const char *ctype)
{
    if (strstr(ctype, "64") || strcmp(ctype, "double") == 0)
        return 8;
    if (strstr(ctype, "32") || strcmp(ctype, "float") == 0)
        return 4;
    return strstr(ctype, "16") ? 2 : 1;
}

static bool is_model_index(const char *id)
{
    return id[0] && strspn(id, "0123456789") == strlen(id);
}

/* Every model tensor an operator writes that has bytes in an arena. */
static Probe *probes_of(const tinyaot_result *r, size_t *count)
{
    size_t n = 0, cap = 16;
    Probe *list = malloc(cap * sizeof *list);
    for (size_t o = 0; list && o < r->num_operators; o++) {
        const tinyaot_operator_view *op = &r->operators[o];
        for (size_t k = 0; k < op->num_output_ids; k++) {
            size_t t = 0;
            const tinyaot_tensor_view *tv = tensor_by_id(r, op->output_ids[k], &t);
            if (!tv || !is_model_index(tv->id) || t >= r->num_placements ||
                r->placements[t].region < 0)
                continue;
            Probe p = {op, tv, &r->placements[t], {0}};
            p.shape.name = tv->name ? tv->name : tv->id;
            p.shape.dtype = tv->dtype;
            size_t elements = 1;
            for (size_t d = 0; d < tv->rank; d++)
                elements *= (size_t)tv->shape[d];
            p.shape.itemsize = ctype_size(tv->ctype);
            p.shape.bytes = elements * p.shape.itemsize;
            if (n == cap) {
                Probe *more = realloc(list, (cap *= 2) * sizeof *list);
                if (!more)
                    break;
                list = more;
            }
            list[n++] = p;
        }
    }
    *count = n;
    return list;
}

static int write_program(const VaModule *m, const Probe *p, size_t n, size_t runs, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return 1;
    fprintf(f, program_head, m->prefix);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "    {%d, %d, %lld, %zu},\n", p[i].op->layer_index, p[i].place->region,
                (long long)p[i].place->offset, p[i].shape.bytes);
    fprintf(f, program_tail, m->prefix, m->prefix, m->prefix, m->prefix, runs, m->prefix);
    return fclose(f) != 0;
}

/* The module's bytes of probe i over every run into one buffer. */
static unsigned char *gather(const unsigned char *dump, const Probe *p, size_t n, size_t i,
                             size_t runs)
{
    size_t record = 0, before = 0;
    for (size_t k = 0; k < n; k++) {
        before += k < i ? p[k].shape.bytes : 0;
        record += p[k].shape.bytes;
    }
    unsigned char *all = malloc(p[i].shape.bytes * runs + 1);
    for (size_t r = 0; all && r < runs; r++)
        memcpy(all + r * p[i].shape.bytes, dump + r * record + before, p[i].shape.bytes);
    return all;
}

/* Compares probe i; 1 when it differs (said), 0 when it matches, -1 when
   TFLite Micro has no such tensor of that size. */
static int compare_probe(const char *work, const unsigned char *dump, const Probe *p, size_t n,
                         size_t i, size_t runs, const VaTolerance *tol)
{
    char *path = va_format("%s/tflm_layers/%s.bin", work, p[i].tensor->id);
    size_t size = 0;
    unsigned char *want = path ? va_read_file(path, &size) : NULL;
    free(path);
    if (!want || size != p[i].shape.bytes * runs) {
        free(want);
        return -1;
    }
    unsigned char *got = gather(dump, p, n, i, runs);
    VaTensor all = p[i].shape;
    all.bytes *= runs;
    double largest = 0;
    size_t beyond = got ? va_beyond(got, want, &all, tol, &largest) : 1;
    if (beyond) {
        const tinyaot_operator_view *op = p[i].op;
        printf("  layers (host): the first operator whose output differs from TFLite Micro: "
               "layer %d (%s, %s%d), output tensor %s '%s' %s: %zu of %zu elements differ "
               "beyond the tolerance, largest difference %g\n",
               op->layer_index, op->type, op->num_source_indices ? "model operator " : "created",
               op->num_source_indices ? op->source_indices[0] : -1, p[i].tensor->id,
               p[i].shape.name, p[i].tensor->dtype, beyond, all.bytes / all.itemsize, largest);
    }
    free(got);
    free(want);
    return beyond ? 1 : 0;
}

/* The tensors TFLite Micro wrote: the files in work/tflm_layers. */
static size_t count_files(const char *work)
{
    char *path = va_format("%s/tflm_layers", work);
    DIR *d = path ? opendir(path) : NULL;
    size_t n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    free(path);
    return n;
}

int va_compare_layers(const VaModule *m, const char *cc, const tinyaot_result *r,
                      const VaTolerance *tol, size_t runs)
{
    if (m->binds_arenas) {
        fprintf(stderr, "tinyaot validate: --layers reads the module's arenas: it needs "
                        "memory.allocate_arenas: true\n");
        return 3;
    }
    size_t n = 0, compared = 0, size = 0;
    Probe *p = probes_of(r, &n);
    char *src = va_format("%s/layers_dump.c", m->work);
    char *dump_path = va_format("%s/layers.bin", m->work);
    int result = 3;
    unsigned char *dump = NULL;
    if (p && src && dump_path && write_program(m, p, n, runs, src) == 0 &&
        va_build_and_run_host_main(m, cc, src, "layers_dump", "dumping every operator's outputs") ==
            0)
        dump = va_read_file(dump_path, &size);
    if (dump) {
        int differs = 0;
        for (size_t i = 0; i < n && differs <= 0; i++) {
            differs = compare_probe(m->work, dump, p, n, i, runs, tol);
            compared += differs >= 0;
        }
        printf("  layers (host): compared %zu of the %zu tensors TFLite Micro's operators write "
               "(%zu the module keeps; the others are inside fused or removed operators)%s\n",
               compared, count_files(m->work), n,
               differs > 0 ? ", up to the first difference" : ": every one matches");
        result = differs > 0 ? 1 : 0;
    }
    free(dump);
    free(dump_path);
    free(src);
    free(p);
    return result;
}
