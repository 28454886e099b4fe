/*
 * tinyaot.c - the command line. It only parses options, calls the library
 * (include/tinyaot/tinyaot.h) and prints what it returns.
 *
 *   tinyaot convert   [--config FILE] [--strict] [--force] [--quiet] [--verbose N]
 *                     [--log-file PATH] [--dump-after PASS] [--KEY VALUE]...
 *   tinyaot analyze   [--config FILE] [--strict] [--format text|json] [--tensors]
 *                     [--KEY VALUE]...
 *   tinyaot platforms [NAME | FILE.yaml]
 *   tinyaot validate  [--config FILE] [--runs N] [--KEY VALUE]...   (validate.c)
 *   tinyaot profile   [--config FILE] [--format text|json] [--runs N] [--KEY VALUE]...
 *                     (profile.c)
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "../include/tinyaot/tinyaot.h"
#include "profile.h"
#include "validate.h"

#include "analyze_tensors.h"
#include "cli_log.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const convert_usage =
    "usage: tinyaot convert [--config FILE] [--strict] [--force] [--quiet] [--verbose N]\n"
    "                       [--log-file PATH] [--dump-after PASS] [--KEY VALUE]...\n";
static const char *const analyze_usage =
    "usage: tinyaot analyze [--config FILE] [--strict] [--format text|json] [--tensors]\n"
    "                       [--KEY VALUE]...\n";
static const char *const platforms_usage = "usage: tinyaot platforms [NAME | FILE.yaml]\n";

/* Every configuration key, from the table the loader checks keys against
   (validate's help prints them too). */
void tinyaot_cli_print_keys(FILE *out)
{
    size_t n;
    const tinyaot_config_key *keys = tinyaot_config_keys(&n);
    fprintf(out, "\nConfiguration keys (in the --config YAML file, or --KEY VALUE; a key on the\n"
                 "command line overrides the file; values are YAML; [] is any list element):\n");
    for (size_t i = 0; i < n; i++)
        fprintf(out, "  %s  (%s; default: %s)\n      %s\n", keys[i].key, keys[i].type,
                keys[i].default_value, keys[i].meaning);
}

static void print_flash_basis(FILE *out)
{
    fprintf(out, "  The flash estimate adds the runtime sources the module uses, at their\n"
                 "  object size for the target's core (cortex-m55 or cortex-m4 with\n"
                 "  arm-none-eabi-gcc -O2, host with gcc -O2) measured once by\n"
                 "  scripts/flash_sizes.py (an upper bound: the linker drops unused\n"
                 "  functions), a fixed size per operator for the generated code fitted on\n"
                 "  shared models for that core, and the constant bytes; a source with no\n"
                 "  size for the core is listed as unmeasured, not counted. It is not a link\n"
                 "  of this module.\n");
}

static void usage_convert(FILE *out)
{
    fputs(convert_usage, out);
    fprintf(out, "\nConverts a LiteRT (.tflite) model into a C99 inference module at module.path,\n"
                 "then prints a short summary (memories, MACs, flash estimate).\n"
                 "The module is written beside module.path and swapped in whole. An existing\n"
                 "module.path is replaced only if it is empty or a module tinyaot wrote (its\n"
                 ".tinyaot-module marker lists every file, unchanged since).\n"
                 "  --config FILE  YAML configuration; relative paths in it are from its folder\n"
                 "  --strict       warnings are errors\n"
                 "  --force        replace module.path even if tinyaot did not write it; never\n"
                 "                 `/`, the working or home directory, or a directory holding the\n"
                 "                 model, the --config or the target file; links are not followed\n"
                 "  --quiet        no summary and no progress lines\n"
                 "  --verbose N    0 errors only (no warnings, no summary), 1 the stages and\n"
                 "                 the summary (default), 2 also what each stage decided and\n"
                 "                 its time, 3 also one line per operator and per region;\n"
                 "                 progress on stdout, errors and warnings on stderr\n"
                 "  --log-file PATH  also append every message, at level 3 whatever --verbose\n"
                 "                 says, and the summary to PATH (a text file; created if\n"
                 "                 missing; never the model or the --config file)\n"
                 "  --dump-after PASS  print the graph after PASS, one line per operator:\n"
                 "                 read, check, a transform (docs/operators.md), lower or\n"
                 "                 drop_dead; an unknown PASS lists them all in order\n"
                 "  -h, --help     this help\n");
}

static void usage_analyze(FILE *out)
{
    fputs(analyze_usage, out);
    fprintf(out,
            "\nRuns the conversion up to writing the module, writes nothing, and prints per\n"
            "operator its layer index, type, output shape, MACs, parameters, the scratch\n"
            "bytes live while it runs and its output's bytes and memory; per memory the\n"
            "scratch arena against its lower bound, persistent, constant and staged bytes,\n"
            "the budget and what is free; the total MACs and a flash estimate. A model with\n"
            "operators tinyaot cannot convert names each one and exits with status 1.\n"
            "module.path is not needed.\n"
            "  --config FILE         YAML configuration, as for convert\n"
            "  --strict              warnings are errors\n"
            "  --format text|json    json: the same figures as one JSON object on stdout\n"
            "  --tensors             also list every tensor: id, kind, dtype and shape,\n"
            "                        bytes, memory and offset, model tensor, name (the ids\n"
            "                        and names memory.tensors rules match); json: \"tensors\"\n"
            "  -h, --help            this help\n");
    print_flash_basis(out);
}

static void usage_platforms(FILE *out)
{
    fputs(platforms_usage, out);
    fprintf(out, "\nWithout NAME lists the built-in targets; with a name or a target YAML file\n"
                 "shows its memories (base, capacity, flags, sections) and spill order.\n");
}

static void usage(FILE *out)
{
    fputs(convert_usage, out);
    /* The other lines' text after "usage: ", aligned under it. */
    fprintf(out, "       %s       %s", analyze_usage + 7, platforms_usage + 7);
    fprintf(out, "       tinyaot validate [--config FILE] [--runs N] [--KEY VALUE]...\n");
    fprintf(out, "       tinyaot profile [--config FILE] [--format text|json] [--runs N] "
                 "[--KEY VALUE]...\n");
    fprintf(out,
            "       tinyaot --version\n"
            "       tinyaot COMMAND --help\n\n"
            "convert   writes a C99 inference module for a LiteRT (.tflite) model\n"
            "analyze   the same configuration; prints operators, memories, MACs, flash\n"
            "platforms lists the built-in targets or shows one\n"
            "validate  converts, builds and runs the module (host, QEMU), compares with\n"
            "          TensorFlow Lite Micro\n"
            "profile   instructions per operator on a Cortex-M board under QEMU\n\n"
            "  tinyaot convert --model.path m.tflite --module.path out/kws --module.prefix kws\n"
            "  tinyaot analyze --config kws.yaml --platform.name apollo510_evb\n");
}

/* ---- numbers and JSON ------------------------------------------------------ */

static const tinyaot_tensor_view *find_tensor(const tinyaot_result *r, const char *id)
{
    /* A model tensor's id is its index, and the views list model tensors
       first, in order: found at once, so printing n operators stays linear. */
    char *end;
    unsigned long k = strtoul(id, &end, 10);
    if (*id >= '0' && *id <= '9' && !*end && k < r->num_tensors &&
        strcmp(r->tensors[k].id, id) == 0)
        return &r->tensors[k];
    for (size_t i = 0; i < r->num_tensors; i++)
        if (strcmp(r->tensors[i].id, id) == 0)
            return &r->tensors[i];
    return NULL;
}

/* "1x49x10x1" into buf; "-" without outputs. */
static const char *shape_text(const tinyaot_result *r, const tinyaot_operator_view *op, char *buf,
                              size_t size)
{
    const tinyaot_tensor_view *t = op->num_output_ids ? find_tensor(r, op->output_ids[0]) : NULL;
    if (!t)
        return "-";
    size_t n = 0;
    buf[0] = '\0';
    for (size_t d = 0; d < t->rank && n + 24 < size; d++)
        n += (size_t)snprintf(buf + n, size - n, "%s%lld", d ? "x" : "", (long long)t->shape[d]);
    if (t->rank == 0)
        snprintf(buf, size, "scalar");
    return buf;
}

/* ---- analyze -------------------------------------------------------------- */

static void print_memories_text(const tinyaot_analysis *a)
{
    /* staged: constants copied here at init; sources: the blobs they are
       copied from, stored here */
    printf("\n%-6s %10s %10s %8s %10s %10s %10s %10s %10s %10s %10s\n", "memory", "scratch",
           "lower bnd", "gap", "persistent", "constants", "staged", "sources", "used", "budget",
           "free");
    for (size_t i = 0; i < a->num_memories; i++) {
        const tinyaot_memory_summary *m = &a->memories[i];
        printf("%-6s %10lld %10lld %8lld %10lld %10lld %10lld %10lld %10lld %10lld %10lld%s\n",
               m->memory, (long long)m->scratch, (long long)m->scratch_lower_bound,
               (long long)(m->scratch - m->scratch_lower_bound), (long long)m->persistent,
               (long long)m->constants, (long long)m->staged, (long long)m->staged_sources,
               (long long)m->used, (long long)m->budget, (long long)m->free,
               m->usable ? "" : "  (not usable: memory.constraints)");
    }
}

/* The stack the kernels need on top of the arenas: the line a firmware
   engineer sizes the main stack from. */
static void print_kernel_stack_text(const tinyaot_result *r, const tinyaot_analysis *a)
{
    if (a->kernel_stack_layer < 0) {
        printf("kernel stack: no kernel with a measured stack\n");
        return;
    }
    const char *type = "?";
    for (size_t i = 0; i < r->num_operators; i++)
        if (r->operators[i].layer_index == a->kernel_stack_layer)
            type = r->operators[i].type;
    printf("kernel stack: %lld bytes on Cortex-M55, %lld on Cortex-M4 (deepest: layer %d, %s), "
           "outside the arenas\n",
           (long long)a->kernel_stack_m55, (long long)a->kernel_stack_m4, a->kernel_stack_layer,
           type);
    printf("  (%s)\n", a->kernel_stack_basis);
}

/* SPARSE_CHANNELS (docs/pruned-models.md): the layers it
   changed, if any. */
static void print_sparse_channels_text(const tinyaot_result *r, const tinyaot_analysis *a)
{
    bool header = false;
    for (size_t i = 0; i < r->num_operators; i++) {
        if (!a->channels_removed[i] && !a->channels_folded[i])
            continue;
        if (!header)
            printf("\nsparse channels (SPARSE_CHANNELS):\n");
        header = true;
        printf("%5d  %-22s %d output channels removed, %d constant input channels folded\n",
               r->operators[i].layer_index, r->operators[i].type, a->channels_removed[i],
               a->channels_folded[i]);
    }
}

/* Row streaming (docs/row-streaming.md): each chain, its row buffers, the
   RAM it saves and the instructions it adds (estimate). */
static void print_row_chains_text(const tinyaot_analysis *a)
{
    if (a->row_arena_with || a->row_arena_without)
        printf("\nrow streaming: scratch arena %lld bytes with the chains, %lld without: %s\n",
               (long long)a->row_arena_with, (long long)a->row_arena_without,
               a->num_row_chains ? "chains kept" : "chains dropped");
    for (size_t i = 0; i < a->num_row_chains; i++) {
        const tinyaot_row_chain *c = &a->row_chains[i];
        if (!i)
            printf("\nrow chains (memory.row_streaming):\n");
        printf("layers %d-%d: intermediates %lld bytes smaller, adds about %lld instructions (%d "
               "band calls, "
               "%d moves of %lld bytes); row buffers:",
               c->first_layer, c->last_layer, (long long)c->ram_saved,
               (long long)c->added_instructions, c->calls, c->moves, (long long)c->moved_bytes);
        for (size_t j = 0; j < c->num_buffers; j++) {
            printf(" %s %d/%d rows %lld bytes", c->buffer_ids[j], c->buffer_rows[j],
                   c->buffer_heights[j], (long long)c->buffer_bytes[j]);
            if (c->buffer_residual_of[j] >= 0) /* residual blocks: who holds it */
                printf(" (residual of layer %d, %d reader%s)", c->buffer_residual_of[j],
                       c->buffer_readers[j], c->buffer_readers[j] == 1 ? "" : "s");
            if (c->buffer_shares[j])
                printf(" (in %s's bytes)", c->buffer_shares[j]);
            printf("%s", j + 1 < c->num_buffers ? "," : "\n");
        }
    }
}

static void print_row_chains_json(const tinyaot_analysis *a)
{
    printf(",\n \"row_arena_with\": %lld, \"row_arena_without\": %lld",
           (long long)a->row_arena_with, (long long)a->row_arena_without);
    printf(",\n \"row_chains\": [");
    for (size_t i = 0; i < a->num_row_chains; i++) {
        const tinyaot_row_chain *c = &a->row_chains[i];
        printf("%s\n  {\"first_layer\": %d, \"last_layer\": %d, \"ram_saved\": %lld, "
               "\"added_instructions\": %lld, \"calls\": %d, \"moves\": %d, "
               "\"moved_bytes\": %lld, \"row_buffers\": [",
               i ? "," : "", c->first_layer, c->last_layer, (long long)c->ram_saved,
               (long long)c->added_instructions, c->calls, c->moves, (long long)c->moved_bytes);
        for (size_t j = 0; j < c->num_buffers; j++) {
            printf("%s{\"id\": ", j ? ", " : "");
            va_json_string(stdout, c->buffer_ids[j]);
            printf(", \"rows\": %d, \"height\": %d, \"bytes\": %lld, \"readers\": %d, "
                   "\"residual_of\": %d",
                   c->buffer_rows[j], c->buffer_heights[j], (long long)c->buffer_bytes[j],
                   c->buffer_readers[j], c->buffer_residual_of[j]);
            printf(", \"shares\": ");
            va_json_string(stdout, c->buffer_shares[j]);
            printf("}");
        }
        printf("]}");
    }
    printf("]");
}

static void print_analysis_text(const tinyaot_result *r, const char *model, bool tensors)
{
    const tinyaot_analysis *a = r->analysis;
    if (!a)
        return;
    if (a->num_unsupported) {
        /* Each one is named in the errors on stderr, as convert names them. */
        printf("tinyaot analyze: %s on %s: not every operator is supported: %zu operator "
               "problem%s, each named in the errors above\n",
               model ? model : "the model", a->platform, a->num_unsupported,
               a->num_unsupported == 1 ? "" : "s");
        return;
    }
    printf("tinyaot analyze: %s on %s: %zu operators, all supported\n\n",
           model ? model : "the model", a->platform, r->num_operators);
    printf("%5s  %-22s %-16s %12s %10s %12s %12s  %s\n", "layer", "type", "output shape", "MACs",
           "params", "scratch live", "output bytes", "memory");
    for (size_t i = 0; i < r->num_operators; i++) {
        const tinyaot_operator_view *op = &r->operators[i];
        const tinyaot_operator_analysis *o = &a->operators[i];
        char shape[128], macs[24], params[24];
        snprintf(macs, sizeof macs, "%lld", (long long)o->macs);
        snprintf(params, sizeof params, "%lld", (long long)op->parameters);
        printf("%5d  %-22s %-16s %12s %10s %12lld %12lld  %s\n", op->layer_index, op->type,
               shape_text(r, op, shape, sizeof shape), o->has_macs ? macs : "-",
               op->has_parameters ? params : "-", (long long)o->scratch_live,
               (long long)o->output_bytes, o->output_memory ? o->output_memory : "-");
    }
    print_sparse_channels_text(r, a);
    print_row_chains_text(a);
    print_memories_text(a);
    printf("\ntotal MACs: %lld\n", (long long)a->total_macs);
    printf("flash (estimate): %lld bytes = generated code %lld + kernels %lld%s + constants %lld\n",
           (long long)a->flash_total, (long long)a->flash_code, (long long)a->flash_kernels,
           a->num_flash_unmeasured ? " (and unmeasured ones)" : "", (long long)a->flash_constants);
    for (size_t i = 0; i < a->num_flash_unmeasured; i++)
        printf("  unmeasured for this core (not counted): %s\n", a->flash_unmeasured[i]);
    printf(
        "  (an estimate, not a link of this module: tinyaot analyze --help says how it is made)\n");
    print_kernel_stack_text(r, a);
    if (tensors)
        cli_print_tensors_text(r);
}

static void print_analysis_json(const tinyaot_result *r, const char *model, int status,
                                bool tensors)
{
    const tinyaot_analysis *a = r->analysis;
    printf("{\"model\": ");
    va_json_string(stdout, model);
    printf(", \"platform\": ");
    va_json_string(stdout, a ? a->platform : NULL);
    printf(", \"status\": %d, \"supported\": %s, \"unsupported\": [", status,
           a && a->num_unsupported == 0 && status == 0 ? "true" : "false");
    for (size_t i = 0; a && i < a->num_unsupported; i++) {
        printf(i ? ", " : "");
        va_json_string(stdout, a->unsupported[i]);
    }
    printf("], \"diagnostics\": [");
    for (size_t i = 0; i < r->num_diagnostics; i++) {
        printf(i ? ", " : "");
        va_json_string(stdout, r->diagnostics[i]);
    }
    printf("]");
    if (status == 0 && a) {
        printf(",\n \"operators\": [");
        for (size_t i = 0; i < r->num_operators; i++) {
            const tinyaot_operator_view *op = &r->operators[i];
            const tinyaot_operator_analysis *o = &a->operators[i];
            const tinyaot_tensor_view *t = op->num_output_ids ? find_tensor(r, op->output_ids[0])
                                                              : NULL;
            printf("%s\n  {\"layer_index\": %d, \"type\": ", i ? "," : "", op->layer_index);
            va_json_string(stdout, op->type);
            printf(", \"symbol\": ");
            va_json_string(stdout, op->symbol);
            printf(", \"output_shape\": ");
            if (t) {
                printf("[");
                for (size_t d = 0; d < t->rank; d++)
                    printf("%s%lld", d ? ", " : "", (long long)t->shape[d]);
                printf("]");
            } else {
                printf("null");
            }
            if (o->has_macs)
                printf(", \"macs\": %lld", (long long)o->macs);
            else
                printf(", \"macs\": null");
            if (op->has_parameters)
                printf(", \"parameters\": %lld", (long long)op->parameters);
            else
                printf(", \"parameters\": null");
            printf(", \"scratch_live\": %lld, \"output_bytes\": %lld, \"output_memory\": ",
                   (long long)o->scratch_live, (long long)o->output_bytes);
            va_json_string(stdout, o->output_memory);
            printf(", \"kernel_stack\": {\"cortex-m55\": %lld, \"cortex-m4\": %lld}",
                   (long long)o->kernel_stack_m55, (long long)o->kernel_stack_m4);
            printf(", \"channels_removed\": %d, \"channels_folded\": %d}", a->channels_removed[i],
                   a->channels_folded[i]);
        }
        printf("],\n \"memories\": [");
        for (size_t i = 0; i < a->num_memories; i++) {
            const tinyaot_memory_summary *m = &a->memories[i];
            printf("%s\n  {\"memory\": \"%s\", \"usable\": %s, \"scratch\": %lld, "
                   "\"scratch_lower_bound\": %lld, \"gap\": %lld, \"persistent\": %lld, "
                   "\"constants\": %lld, \"staged\": %lld, \"staged_sources\": %lld, "
                   "\"used\": %lld, \"budget\": %lld, \"free\": %lld, \"scratch_planner\": ",
                   i ? "," : "", m->memory, m->usable ? "true" : "false", (long long)m->scratch,
                   (long long)m->scratch_lower_bound,
                   (long long)(m->scratch - m->scratch_lower_bound), (long long)m->persistent,
                   (long long)m->constants, (long long)m->staged, (long long)m->staged_sources,
                   (long long)m->used, (long long)m->budget, (long long)m->free);
            if (a->scratch_planners[i])
                va_json_string(stdout, a->scratch_planners[i]);
            else
                printf("null");
            printf(", \"scratch_proven\": %s}", a->scratch_proven[i] ? "true" : "false");
        }
        printf("],\n \"total_macs\": %lld,\n \"flash\": {\"code\": %lld, \"kernels\": %lld, "
               "\"constants\": %lld, \"total\": %lld, \"basis\": ",
               (long long)a->total_macs, (long long)a->flash_code, (long long)a->flash_kernels,
               (long long)a->flash_constants, (long long)a->flash_total);
        va_json_string(stdout, a->flash_basis);
        printf(", \"unmeasured\": [");
        for (size_t i = 0; i < a->num_flash_unmeasured; i++) {
            printf(i ? ", " : "");
            va_json_string(stdout, a->flash_unmeasured[i]);
        }
        printf("]},\n \"kernel_stack\": {\"cortex-m55\": %lld, \"cortex-m4\": %lld, "
               "\"layer_index\": %d, \"basis\": ",
               (long long)a->kernel_stack_m55, (long long)a->kernel_stack_m4,
               a->kernel_stack_layer);
        va_json_string(stdout, a->kernel_stack_basis);
        printf("}");
        print_row_chains_json(a);
        if (tensors)
            cli_print_tensors_json(r);
    }
    printf("}\n");
}

/* The short form convert prints: one line per memory used, then MACs and flash. */
static void print_summary(FILE *out, const tinyaot_result *r)
{
    fprintf(out, "tinyaot: wrote %s: %zu operators, %zu tensors, %zu arena regions\n",
            r->module_path, r->num_operators, r->num_tensors, r->num_regions);
    const tinyaot_analysis *a = r->analysis;
    if (!a)
        return;
    for (size_t i = 0; i < a->num_memories; i++) {
        const tinyaot_memory_summary *m = &a->memories[i];
        if (m->used == 0)
            continue;
        /* Only what the memory holds: "DTCM: scratch 768 bytes (lower bound
           768, gap 0); 768 of 507904 bytes used, 507136 free". */
        fprintf(out, "tinyaot:   %s:", m->memory);
        const char *sep = " ";
        if (m->scratch) {
            fprintf(out, "%sscratch %lld bytes (lower bound %lld, gap %lld; %s, %s)", sep,
                    (long long)m->scratch, (long long)m->scratch_lower_bound,
                    (long long)(m->scratch - m->scratch_lower_bound), a->scratch_planners[i],
                    a->scratch_proven[i] ? "proven minimal" : "not proven minimal");
            sep = ", ";
        }
        const char *names[4] = {"persistent", "constants", "staged", "staging sources"};
        long long values[4] = {(long long)m->persistent, (long long)m->constants,
                               (long long)m->staged, (long long)m->staged_sources};
        for (int k = 0; k < 4; k++)
            if (values[k]) {
                fprintf(out, "%s%s %lld", sep, names[k], values[k]);
                sep = ", ";
            }
        fprintf(out, "; %lld of %lld bytes used, %lld free\n", (long long)m->used,
                (long long)m->budget, (long long)m->free);
    }
    fprintf(out,
            "tinyaot:   %lld MACs; flash estimate %lld bytes (code %lld, kernels %lld, constants "
            "%lld); tinyaot analyze shows each operator\n",
            (long long)a->total_macs, (long long)a->flash_total, (long long)a->flash_code,
            (long long)a->flash_kernels, (long long)a->flash_constants);
}

/* ---- platforms ------------------------------------------------------------ */

static int platforms(int argc, char **argv)
{
    if (argc > 3) {
        usage_platforms(stderr);
        return 2;
    }
    if (argc == 2) {
        size_t n = tinyaot_platform_names(NULL, 0);
        char(*names)[TINYAOT_PLATFORM_NAME_MAX] = calloc(n + 1, sizeof *names);
        if (!names)
            return 1;
        tinyaot_platform_names(names, n);
        printf("built-in targets (tinyaot platforms NAME shows one; platform.name may also be a "
               "target YAML file):\n");
        for (size_t i = 0; i < n; i++) {
            tinyaot_platform *p;
            tinyaot_platform_load(names[i], &p);
            printf("  %-16s %-12s %s\n", names[i], p->core ? p->core : "?",
                   p->description ? p->description : "");
            tinyaot_platform_free(p);
        }
        free(names);
        return 0;
    }
    tinyaot_platform *p;
    tinyaot_status status = tinyaot_platform_load(argv[2], &p);
    for (size_t i = 0; i < p->num_diagnostics; i++)
        fprintf(stderr, "tinyaot: %s\n", p->diagnostics[i]);
    if (status == TINYAOT_OK) {
        printf("%s: %s\n  core %s, min_alignment %lld, from %s\n", p->name, p->description, p->core,
               (long long)p->min_alignment, p->origin);
        printf("  %-6s %-10s %12s  %-5s %-13s %-16s %s\n", "memory", "base", "capacity", "flags",
               "bss_section", "data_section", "code_section");
        for (size_t i = 0; i < p->num_memories; i++) {
            const tinyaot_platform_memory *m = &p->memories[i];
            char flags[4] = {m->writable ? 'w' : '-', m->executable ? 'x' : '-',
                             m->is_volatile ? 'v' : '-', '\0'};
            printf("  %-6s 0x%08llx %12llu  %-5s %-13s %-16s %s\n", m->name,
                   (unsigned long long)m->base, (unsigned long long)m->capacity, flags,
                   m->bss_section ? m->bss_section : "-", m->data_section ? m->data_section : "-",
                   m->code_section ? m->code_section : "-");
        }
        printf("  flags: w writable, x executable, v volatile (loses its contents on power-down)\n "
               " spill order:");
        for (size_t i = 0; i < p->num_spill; i++)
            printf(" %s", p->spill_order[i]);
        printf("\n");
    }
    tinyaot_platform_free(p);
    return status == TINYAOT_OK ? 0 : 1;
}

/* ---- convert and analyze ---------------------------------------------------- */

typedef struct Options {
    bool quiet;
    bool json;
    bool tensors; /* analyze --tensors */
    bool help;
    int verbose;          /* --verbose: 0..3, default 1 */
    const char *log_file; /* --log-file, or NULL */
} Options;

/* Parses the arguments after the command into `args`; `options` and
   `owned` have room for argc entries. 0 when they are good, else the exit
   status. */
static int parse_options(int argc, char **argv, bool analyze, tinyaot_args *args,
                         tinyaot_option *options, char **owned, int *num_owned, Options *o)
{
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            o->help = true;
            return 0;
        }
        if (strncmp(a, "--", 2) != 0) {
            fprintf(stderr, "tinyaot: unexpected argument '%s' (options start with --)\n", a);
            return 2;
        }
        a += 2;
        if (strcmp(a, "strict") == 0) {
            args->strict = 1;
            continue;
        }
        if (!analyze && strcmp(a, "force") == 0) {
            args->force = 1;
            continue;
        }
        if (analyze && strcmp(a, "tensors") == 0) {
            o->tensors = true;
            continue;
        }
        if (!analyze && strcmp(a, "quiet") == 0) {
            o->quiet = true;
            continue;
        }
        const char *eq = strchr(a, '=');
        const char *key = a, *value;
        if (eq) {
            const size_t size = strlen(a) + 1;
            char *copy = malloc(size);
            if (!copy)
                return 1;
            memcpy(copy, a, size);
            copy[eq - a] = '\0';
            key = copy;
            value = copy + (eq - a) + 1;
            owned[(*num_owned)++] = copy;
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            fprintf(stderr, "tinyaot: --%s needs a value (tinyaot %s --help lists the keys)\n", a,
                    analyze ? "analyze" : "convert");
            return 2;
        }
        if (strcmp(key, "config") == 0) {
            args->config_path = value;
        } else if (!analyze && strcmp(key, "dump-after") == 0) {
            args->dump_after = value;
        } else if (!analyze && strcmp(key, "verbose") == 0) {
            if (strlen(value) != 1 || value[0] < '0' || value[0] > '3') {
                fprintf(stderr, "tinyaot: --verbose: '%s' is not one of: 0, 1, 2, 3\n", value);
                return 2;
            }
            o->verbose = value[0] - '0';
        } else if (!analyze && strcmp(key, "log-file") == 0) {
            o->log_file = value;
        } else if (analyze && strcmp(key, "format") == 0) {
            if (strcmp(value, "json") != 0 && strcmp(value, "text") != 0) {
                fprintf(stderr, "tinyaot: --format: '%s' is not one of: text, json\n", value);
                return 2;
            }
            o->json = strcmp(value, "json") == 0;
        } else {
            options[args->num_options++] = (tinyaot_option){key, value};
        }
    }
    return 0;
}

/* The model.path of the command line, else NULL (a --config file's is not
   known here; the report then says "the model"). */
static const char *model_of(const tinyaot_args *args)
{
    for (size_t i = 0; i < args->num_options; i++)
        if (strcmp(args->options[i].key, "model.path") == 0)
            return args->options[i].value;
    return NULL;
}

/* A --log-file inside module.path would be replaced with the module (or,
   without --force, make the run refuse the directory it sits in): refused
   first, as the library refuses a module.path holding the model. */
static bool log_outside_module(const tinyaot_args *args, const char *log_file)
{
    VaConfigPaths paths = va_read_config(args->config_path, args->options, args->num_options);
    char *module = paths.module ? realpath(paths.module, NULL) : NULL;
    char *log_dir = va_format("%s", log_file);
    char *slash = log_dir ? strrchr(log_dir, '/') : NULL;
    if (slash)
        *slash = '\0';
    char *dir = log_dir ? realpath(slash ? (*log_dir ? log_dir : "/") : ".", NULL) : NULL;
    size_t n = module ? strlen(module) : 0;
    bool inside = module && dir && strncmp(dir, module, n) == 0 &&
                  (dir[n] == '\0' || dir[n] == '/' || n == 1);
    if (inside)
        fprintf(stderr,
                "tinyaot: error: --log-file %s is inside module.path %s, which the conversion "
                "replaces: write the log outside it\n",
                log_file, paths.module);
    free(module);
    free(log_dir);
    free(dir);
    va_free_config_paths(&paths);
    return !inside;
}

/* Runs the conversion or analysis and prints its result; the exit status. */
static int run_command(tinyaot_args *args, bool analyze, const Options *o, CliLog *log)
{
    if (log->file)
        args->verbose = 3; /* the log has every detail; the terminal its level */
    tinyaot_result *result = NULL;
    tinyaot_status status = analyze ? tinyaot_analyze(args, &result)
                                    : tinyaot_convert(args, &result);
    if (analyze && o->json)
        print_analysis_json(result, model_of(args), (int)status, o->tensors);
    else if (analyze)
        print_analysis_text(result, model_of(args), o->tensors);
    if (!analyze && status == TINYAOT_OK && !o->quiet && o->verbose > 0)
        print_summary(stdout, result);
    if (!analyze && status == TINYAOT_OK && log->file)
        print_summary(log->file, result);
    tinyaot_result_free(result);
    return status == TINYAOT_OK ? 0 : 1;
}

static int convert_or_analyze(int argc, char **argv, bool analyze)
{
    tinyaot_args args = {.result_views = 1};
    tinyaot_option *options = calloc((size_t)argc, sizeof *options);
    char **owned = calloc((size_t)argc, sizeof *owned); /* KEY=VALUE copies */
    int num_owned = 0;
    Options o = {.verbose = 1};
    int exit_status = 1;
    if (options && owned)
        exit_status = parse_options(argc, argv, analyze, &args, options, owned, &num_owned, &o);
    if (options && owned && exit_status == 0 && o.help) {
        if (analyze)
            usage_analyze(stdout);
        else
            usage_convert(stdout);
        tinyaot_cli_print_keys(stdout);
    } else if (options && owned && exit_status == 0) {
        args.options = options;
        CliLog log = {.verbose = o.quiet ? 0 : o.verbose, .show_warnings = o.verbose > 0};
        if (!analyze) {
            args.diagnostic = tinyaot_cli_log_message;
            args.user = &log;
            args.verbose = log.verbose;
        }
        if (!analyze && o.log_file &&
            (!log_outside_module(&args, o.log_file) ||
             !tinyaot_cli_log_open(&log, o.log_file, args.config_path, model_of(&args), argc,
                                   argv)))
            exit_status = 1;
        else
            exit_status = run_command(&args, analyze, &o, &log);
        tinyaot_cli_log_close(&log);
    } else if (exit_status == 2) {
        fputs(analyze ? analyze_usage : convert_usage, stderr);
    }
    for (int i = 0; i < num_owned; i++)
        free(owned[i]);
    free(owned);
    free(options);
    return exit_status;
}

int main(int argc, char **argv)
{
    const char *cmd = argc >= 2 ? argv[1] : "";
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        printf("tinyaot %s\n", tinyaot_version());
        return 0;
    }
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0 || strcmp(cmd, "-h") == 0) {
        usage(stdout);
        tinyaot_cli_print_keys(stdout);
        return 0;
    }
    if (strcmp(cmd, "convert") == 0)
        return convert_or_analyze(argc, argv, false);
    if (strcmp(cmd, "analyze") == 0)
        return convert_or_analyze(argc, argv, true);
    if (strcmp(cmd, "validate") == 0)
        return tinyaot_cli_validate(argc, argv);
    if (strcmp(cmd, "profile") == 0)
        return tinyaot_cli_profile(argc, argv);
    if (strcmp(cmd, "platforms") == 0) {
        if (argc == 3 && (strcmp(argv[2], "-h") == 0 || strcmp(argv[2], "--help") == 0)) {
            usage_platforms(stdout);
            return 0;
        }
        return platforms(argc, argv);
    }
    if (argc >= 2)
        fprintf(stderr, "tinyaot: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
