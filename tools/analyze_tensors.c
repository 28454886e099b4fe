/*
 * analyze_tensors.c - `tinyaot analyze --tensors`: the tensor list a user
 * writes placement rules from. Everything comes from the result's views
 * (tensors, placements, regions), the same the module's views JSON holds.
 */
#include "analyze_tensors.h"

#include <stdio.h>
#include <string.h>

static const char *memory_of(const tinyaot_result *r, const tinyaot_placement_view *p)
{
    return p && p->region >= 0 && (size_t)p->region < r->num_regions ? r->regions[p->region].memory
                                                                     : NULL;
}

/* "int8[1,49,10,1]" */
static void type_text(const tinyaot_tensor_view *t, char *out, size_t size)
{
    int n = snprintf(out, size, "%s[", t->dtype);
    for (size_t d = 0; d < t->rank && n > 0 && (size_t)n < size; d++)
        n += snprintf(out + n, size - (size_t)n, "%s%lld", d ? "," : "", (long long)t->shape[d]);
    if (n > 0 && (size_t)n < size)
        snprintf(out + n, size - (size_t)n, "]");
}

void cli_print_tensors_text(const tinyaot_result *r)
{
    printf("\n%-26s %-10s %-22s %10s %-6s %10s %6s %-6s %10s  %s\n", "tensor id", "kind",
           "dtype[shape]", "bytes", "memory", "offset", "model", "stored", "dense", "name");
    for (size_t i = 0; i < r->num_tensors; i++) {
        const tinyaot_tensor_view *t = &r->tensors[i];
        const tinyaot_placement_view *p = i < r->num_placements ? &r->placements[i] : NULL;
        const char *memory = memory_of(r, p);
        char type[96], offset[24] = "-", model[16] = "-", dense[24] = "-";
        type_text(t, type, sizeof type);
        if (memory)
            snprintf(offset, sizeof offset, "%lld", (long long)p->offset);
        if (t->model_tensor >= 0)
            snprintf(model, sizeof model, "%d", t->model_tensor);
        if (t->dense_nbytes >= 0)
            snprintf(dense, sizeof dense, "%lld", (long long)t->dense_nbytes);
        printf("%-26s %-10s %-22s %10lld %-6s %10s %6s %-6s %10s  %s\n", t->id, t->kind, type,
               (long long)t->nbytes, memory ? memory : "-", offset, model,
               t->stored_format ? t->stored_format : "-", dense, t->name ? t->name : "-");
    }
    printf("  (model: the model tensor's index, for a constant tinyaot made from one the source's;"
           " memory.tensors rules match the tensor id, or the name with name:)\n");
    printf("  (stored: how a constant's bytes are kept, int4 packed two values a byte or dense;"
           " dense: the bytes it would take unpacked)\n");
}

static void json_text(const char *s)
{
    if (!s) {
        printf("null");
        return;
    }
    putchar('"');
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\')
            printf("\\%c", *c);
        else if (*c < 0x20 || *c == 0x7f)
            printf("\\u%04x", *c);
        else
            putchar(*c);
    }
    putchar('"');
}

void cli_print_tensors_json(const tinyaot_result *r)
{
    printf(",\n \"tensors\": [");
    for (size_t i = 0; i < r->num_tensors; i++) {
        const tinyaot_tensor_view *t = &r->tensors[i];
        const tinyaot_placement_view *p = i < r->num_placements ? &r->placements[i] : NULL;
        const char *memory = memory_of(r, p);
        printf("%s\n  {\"id\": ", i ? "," : "");
        json_text(t->id);
        printf(", \"name\": ");
        json_text(t->name);
        printf(", \"kind\": ");
        json_text(t->kind);
        printf(", \"dtype\": ");
        json_text(t->dtype);
        printf(", \"shape\": [");
        for (size_t d = 0; d < t->rank; d++)
            printf("%s%lld", d ? ", " : "", (long long)t->shape[d]);
        printf("], \"bytes\": %lld, \"memory\": ", (long long)t->nbytes);
        json_text(memory);
        if (memory)
            printf(", \"offset\": %lld, \"region\": %d", (long long)p->offset, p->region);
        else
            printf(", \"offset\": null, \"region\": null");
        if (t->model_tensor >= 0)
            printf(", \"model_tensor\": %d", t->model_tensor);
        else
            printf(", \"model_tensor\": null");
        printf(", \"stored_format\": ");
        json_text(t->stored_format);
        if (t->dense_nbytes >= 0)
            printf(", \"dense_bytes\": %lld}", (long long)t->dense_nbytes);
        else
            printf(", \"dense_bytes\": null}");
    }
    printf("]");
}
