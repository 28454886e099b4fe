/*
 * views_dump.c - converts a model through the public C API and prints the
 * views it returns as JSON, with its own serializer: the test compares this
 * with <prefix>_views.json (written by the emitter) and with the Python
 * package, field by field.
 *
 *   views_dump KEY VALUE [KEY VALUE ...]      (configuration keys)
 */
#include "tinyaot/tinyaot.h"

#include <stdio.h>

static void str(const char *s)
{
    if (!s) {
        printf("null");
        return;
    }
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            printf("\\u%04x", *s);
        else
            putchar(*s);
    }
    putchar('"');
}

static void strs(const char *const *v, size_t n)
{
    printf("[");
    for (size_t i = 0; i < n; i++) {
        printf(i ? "," : "");
        str(v[i]);
    }
    printf("]");
}

static void opt_int(int has, long long v)
{
    if (has)
        printf("%lld", v);
    else
        printf("null");
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc % 2 == 0) {
        fprintf(stderr, "usage: views_dump KEY VALUE [KEY VALUE ...]\n");
        return 2;
    }
    tinyaot_option opts[64];
    size_t n = 0;
    for (int i = 1; i + 1 < argc && n < 64; i += 2)
        opts[n++] = (tinyaot_option){argv[i], argv[i + 1]};
    tinyaot_args args = {.options = opts, .num_options = n, .result_views = 1};
    tinyaot_result *r = NULL;
    if (tinyaot_convert(&args, &r) != TINYAOT_OK) {
        tinyaot_result_free(r);
        return 1;
    }
    printf("{\"operators\":[");
    for (size_t i = 0; i < r->num_operators; i++) {
        const tinyaot_operator_view *o = &r->operators[i];
        printf("%s{\"layer_index\":%d,\"symbol\":", i ? "," : "", o->layer_index);
        str(o->symbol);
        printf(",\"type\":");
        str(o->type);
        printf(",\"source_indices\":[");
        for (size_t k = 0; k < o->num_source_indices; k++)
            printf("%s%d", k ? "," : "", o->source_indices[k]);
        printf("],\"input_ids\":");
        strs(o->input_ids, o->num_input_ids);
        printf(",\"output_ids\":");
        strs(o->output_ids, o->num_output_ids);
        printf(",\"local_tensor_ids\":");
        strs(o->local_tensor_ids, o->num_local_tensor_ids);
        printf(",\"kernel_calls\":");
        if (!o->has_kernel_calls) {
            printf("null");
        } else {
            printf("{");
            for (size_t k = 0; k < o->num_kernel_calls; k++) {
                printf(k ? "," : "");
                str(o->kernel_calls[k].role);
                printf(":");
                str(o->kernel_calls[k].function);
            }
            printf("}");
        }
        printf(",\"macs\":");
        opt_int(o->has_macs, (long long)o->macs);
        printf(",\"parameters\":");
        opt_int(o->has_parameters, (long long)o->parameters);
        printf("}");
    }
    printf("],\"tensors\":[");
    for (size_t i = 0; i < r->num_tensors; i++) {
        const tinyaot_tensor_view *t = &r->tensors[i];
        printf("%s{\"id\":", i ? "," : "");
        str(t->id);
        printf(",\"name\":");
        str(t->name);
        printf(",\"shape\":[");
        for (size_t k = 0; k < t->rank; k++)
            printf("%s%lld", k ? "," : "", (long long)t->shape[k]);
        printf("],\"dtype\":");
        str(t->dtype);
        printf(",\"ctype\":");
        str(t->ctype);
        printf(",\"quantization\":");
        if (!t->quantization) {
            printf("null");
        } else {
            const tinyaot_quantization_view *q = t->quantization;
            printf("{\"scale\":[");
            for (size_t k = 0; k < q->num_scales; k++)
                printf("%s%.17g", k ? "," : "", q->scale[k]);
            printf("],\"zero_point\":[");
            for (size_t k = 0; k < q->num_zero_points; k++)
                printf("%s%lld", k ? "," : "", (long long)q->zero_point[k]);
            printf("],\"axis\":%d}", q->axis);
        }
        printf(",\"kind\":");
        str(t->kind);
        printf(",\"input_index\":");
        opt_int(t->input_index >= 0, t->input_index);
        printf(",\"output_index\":");
        opt_int(t->output_index >= 0, t->output_index);
        printf(",\"nbytes\":%lld,\"model_tensor\":", (long long)t->nbytes);
        opt_int(t->model_tensor >= 0, t->model_tensor);
        printf(",\"stored_format\":");
        str(t->stored_format);
        printf(",\"dense_nbytes\":");
        opt_int(t->dense_nbytes >= 0, t->dense_nbytes);
        printf("}");
    }
    printf("],\"regions\":[");
    for (size_t i = 0; i < r->num_regions; i++) {
        const tinyaot_region_view *g = &r->regions[i];
        printf("%s{\"id\":%d,\"memory\":", i ? "," : "", g->id);
        str(g->memory);
        printf(",\"source_memory\":");
        str(g->source_memory);
        printf(",\"role\":");
        str(g->role);
        printf(",\"offset\":%lld,\"size\":%lld,\"alignment\":%lld,\"symbol\":",
               (long long)g->offset, (long long)g->size, (long long)g->alignment);
        str(g->symbol);
        printf(",\"source_symbol\":");
        str(g->source_symbol);
        printf(",\"source_offset\":%lld,\"sidecar_file\":", (long long)g->source_offset);
        str(g->sidecar_file);
        printf("}");
    }
    printf("],\"placements\":{");
    for (size_t i = 0; i < r->num_placements; i++) {
        const tinyaot_placement_view *p = &r->placements[i];
        printf(i ? "," : "");
        str(p->tensor_id);
        printf(":{\"region\":");
        opt_int(p->region >= 0, p->region);
        printf(",\"offset\":%lld,\"size\":%lld,\"source_memory\":", (long long)p->offset,
               (long long)p->size);
        str(p->source_memory);
        printf(",\"staged\":%s}", p->staged ? "true" : "false");
    }
    printf("}}\n");
    tinyaot_result_free(r);
    return 0;
}
