/*
 * profile_report.c - what `tinyaot profile` feeds the runner and reads
 * back: the generated input, the "profile: ..." lines of
 * tests/qemu/profile_runner.c (SysTick ticks, turned into instructions as
 * tests/qemu/icount.h says), and the text and JSON reports.
 */
#define _POSIX_C_SOURCE 200809L
#include "profile.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../src/util/util.h"

/* QEMU -icount shift the kit runs with: one instruction is 2^5 ns. */
#define PR_NS_PER_INSTRUCTION 32u

/* ---- the input ------------------------------------------------------------------ */

static uint64_t next_random(uint64_t *x) /* xorshift64* */
{
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * 2685821657736338717ull;
}

static size_t element_size(const char *dtype)
{
    if (strstr(dtype, "64"))
        return 8;
    if (strstr(dtype, "32"))
        return 4;
    if (strstr(dtype, "16"))
        return 2;
    return 1;
}

/* One element of `dtype` at p. */
static void random_element(unsigned char *p, const char *dtype, uint64_t v)
{
    if (strcmp(dtype, "float32") == 0) {
        float f = (float)((double)(v >> 40) / 8388608.0 - 1.0);
        memcpy(p, &f, sizeof f);
    } else if (strcmp(dtype, "bool") == 0) {
        *p = (unsigned char)(v & 1u);
    } else {
        for (size_t b = 0; b < element_size(dtype); b++) /* little-endian */
            p[b] = (unsigned char)(v >> (8 * b));
    }
}

/* One run of every input, generated; *size its bytes. malloc'd or NULL. */
static unsigned char *generate(const tinyaot_result *r, size_t *size)
{
    size_t bytes = 0;
    for (size_t i = 0; i < r->num_tensors; i++)
        if (r->tensors[i].input_index >= 0)
            bytes += (size_t)r->tensors[i].nbytes;
    unsigned char *data = calloc(bytes + 1, 1), *p = data;
    uint64_t state = 1;
    /* Inputs in input_index order, each element drawn in turn. */
    for (int k = 0; data && k < (int)r->num_tensors; k++)
        for (size_t i = 0; i < r->num_tensors; i++) {
            const tinyaot_tensor_view *t = &r->tensors[i];
            if (t->input_index != k)
                continue;
            size_t item = element_size(t->dtype), elements = 1;
            for (size_t d = 0; d < t->rank; d++)
                elements *= (size_t)t->shape[d];
            for (size_t e = 0; e < elements && (size_t)(p - data) + item <= bytes; e++) {
                random_element(p, t->dtype, next_random(&state));
                p += item;
            }
        }
    *size = (size_t)(p - data);
    return data;
}

int pr_write_inputs(const tinyaot_result *r, const char *work, const char *from)
{
    size_t size = 0, want = 0;
    unsigned char *generated = generate(r, &want);
    unsigned char *data = from ? va_read_file(from, &size) : generated;
    if (!from)
        size = want;
    char *path = va_format("%s/inputs.bin", work);
    int status = 1;
    if (from && !data)
        fprintf(stderr, "tinyaot profile: --inputs: cannot read %s\n", from);
    else if (from && size != want)
        fprintf(stderr,
                "tinyaot profile: --inputs: %s holds %zu bytes; one run of the model's inputs "
                "is %zu bytes\n",
                from, size, want);
    else if (!data || !path || !va_write_file(path, data, size))
        fprintf(stderr, "tinyaot profile: cannot write the input into %s\n", work);
    else
        status = 0;
    if (data != generated)
        free(data);
    free(generated);
    free(path);
    return status;
}

/* ---- the runner's log --------------------------------------------------------- */

/* SysTick ticks to instructions: ticks * 1e9 / (cpu_hz * 2^5), rounded. */
static uint64_t instructions(uint64_t ticks, uint64_t hz)
{
    const uint64_t step = 1000000000u / PR_NS_PER_INSTRUCTION;
    return (ticks / hz) * step + ((ticks % hz) * step + hz / 2) / hz;
}

/* The number after `key` on a "profile: key N" line; false without one. */
static bool figure(const char *text, const char *key, uint64_t *value)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "profile: %s ", key);
    const char *at = strstr(text, pattern);
    if (!at)
        return false;
    char *end;
    *value = strtoull(at + strlen(pattern), &end, 10);
    return end != at + strlen(pattern);
}

/* The "op I T" and "warm R T" lines, in order. */
static bool read_lists(const char *text, uint64_t hz, PrFigures *f)
{
    for (const char *line = text; (line = strstr(line, "profile: ")) != NULL; line++) {
        unsigned long index;
        unsigned long long ticks;
        if (sscanf(line, "profile: op %lu %llu", &index, &ticks) == 2) {
            if (index != f->num_ops)
                return false;
            f->ops[f->num_ops++] = instructions(ticks, hz);
        } else if (sscanf(line, "profile: warm %lu %llu", &index, &ticks) == 2) {
            f->warm[f->num_warm++] = instructions(ticks, hz);
        }
    }
    return true;
}

bool pr_read_log(const char *path, const VaBoard *board, PrFigures *f)
{
    memset(f, 0, sizeof *f);
    size_t size = 0;
    char *text = (char *)va_read_file(path, &size);
    const uint64_t hz = strtoull(board->cpu_hz, NULL, 10);
    uint64_t overhead, pair, cold, profiled;
    size_t lines = 0;
    for (size_t i = 0; text && i < size; i++)
        lines += text[i] == '\n';
    f->ops = calloc(lines + 1, sizeof *f->ops);
    f->warm = calloc(lines + 1, sizeof *f->warm);
    const char *calls = text ? strstr(text, "profile: profiled ") : NULL;
    unsigned long long ticks = 0;
    bool ok = text && f->ops && f->warm && figure(text, "overhead", &overhead) &&
              figure(text, "pair", &pair) && figure(text, "cold", &cold) && calls &&
              sscanf(calls, "profile: profiled %llu calls %ld errors %ld", &ticks, &f->calls,
                     &f->errors) == 3 &&
              read_lists(text, hz, f);
    if (ok) {
        profiled = ticks;
        f->overhead = instructions(overhead, hz);
        f->pair = instructions(pair, hz);
        f->cold = instructions(cold, hz);
        f->profiled = instructions(profiled, hz);
        uint64_t callbacks = (uint64_t)f->calls * pair;
        f->whole = instructions(profiled > callbacks ? profiled - callbacks : 0, hz);
    }
    if (!ok)
        fprintf(stderr, "tinyaot profile: the run on %s printed no complete profile:\n",
                board->machine);
    else if (f->errors || (size_t)f->calls != f->num_ops)
        fprintf(stderr,
                "tinyaot profile: the operator callback timed %ld of %zu operators (%ld out of "
                "order) on %s:\n",
                f->calls, f->num_ops, f->errors, board->machine);
    if (!ok || f->errors || (size_t)f->calls != f->num_ops) {
        va_print_log_tail(stderr, path, 20);
        ok = false;
    }
    free(text);
    return ok;
}

void pr_free_figures(PrFigures *f)
{
    free(f->ops);
    free(f->warm);
}

/* ---- reports ------------------------------------------------------------------- */

static const tinyaot_tensor_view *tensor(const tinyaot_result *r, const char *id)
{
    for (size_t i = 0; i < r->num_tensors; i++)
        if (strcmp(r->tensors[i].id, id) == 0)
            return &r->tensors[i];
    return NULL;
}

/* The operator's first output, by name (its id when unnamed); "-" without. */
static const char *output_name(const tinyaot_result *r, const tinyaot_operator_view *op)
{
    const tinyaot_tensor_view *t = op->num_output_ids ? tensor(r, op->output_ids[0]) : NULL;
    return !t ? "-" : t->name ? t->name : t->id;
}

static uint64_t total(const PrFigures *f)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < f->num_ops; i++)
        sum += f->ops[i];
    return sum;
}

static double share(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

void pr_print_text(FILE *out, const tinyaot_result *r, long runs, const PrFigures *f)
{
    fprintf(out, "%5s  %-24s %13s %12s %9s %7s  %s\n", "layer", "type", "instructions", "MACs",
            "instr/MAC", "share", "output");
    for (size_t i = 0; i < r->num_operators && i < f->num_ops; i++) {
        const tinyaot_operator_view *op = &r->operators[i];
        char macs[24] = "-", per_mac[24] = "-";
        if (op->has_macs)
            snprintf(macs, sizeof macs, "%" PRId64, op->macs);
        if (op->has_macs && op->macs > 0)
            snprintf(per_mac, sizeof per_mac, "%.3f", (double)f->ops[i] / (double)op->macs);
        /* A long name is cut (the JSON form has it whole). */
        const char *name = output_name(r, op);
        const int cut = strlen(name) > 48 ? 45 : 48;
        fprintf(out, "%5d  %-24s %13" PRIu64 " %12s %9s %6.1f%%  %.*s%s\n", op->layer_index,
                op->type, f->ops[i], macs, per_mac, share(f->ops[i], f->whole), cut, name,
                cut == 45 ? "..." : "");
    }
    const uint64_t sum = total(f);
    fprintf(out, "\noperators: %" PRIu64 " instructions (%.1f%% of the run)\n", sum,
            share(sum, f->whole));
    fprintf(out,
            "whole run: %" PRIu64 " instructions (run 2 around model_run, %" PRIu64 " with the "
            "callback, less %ld callback%s of %" PRIu64 ")\n",
            f->whole, f->profiled, f->calls, f->calls == 1 ? "" : "s", f->pair);
    fprintf(out,
            "glue:      %" PRId64 " instructions (whole run less operators: the schedule loop, "
            "the run's checks)\n",
            (int64_t)(f->whole - sum));
    fprintf(out, "cold run:  %" PRIu64 " instructions (run 1, the first after model_init)\n",
            f->cold);
    for (size_t i = 0; i < f->num_warm; i++)
        fprintf(out, "run %zu:     %" PRIu64 " instructions (without the callback)\n", i + 3,
                f->warm[i]);
    fprintf(out,
            "(QEMU -icount counts instructions, not cycles; each operator's figure has the "
            "callback's own %" PRIu64 " removed; %ld runs)\n",
            f->overhead, runs);
}

static void json_operator(FILE *out, const tinyaot_result *r, size_t i, const PrFigures *f)
{
    const tinyaot_operator_view *op = &r->operators[i];
    fprintf(out, "%s\n  {\"layer_index\": %d, \"type\": ", i ? "," : "", op->layer_index);
    va_json_string(out, op->type);
    fprintf(out, ", \"symbol\": ");
    va_json_string(out, op->symbol);
    fprintf(out, ", \"output\": ");
    va_json_string(out, output_name(r, op));
    fprintf(out, ", \"instructions\": %" PRIu64, f->ops[i]);
    if (op->has_macs)
        fprintf(out, ", \"macs\": %" PRId64, op->macs);
    else
        fprintf(out, ", \"macs\": null");
    if (op->has_macs && op->macs > 0)
        fprintf(out, ", \"instructions_per_mac\": %.6g", (double)f->ops[i] / (double)op->macs);
    else
        fprintf(out, ", \"instructions_per_mac\": null");
    fprintf(out, ", \"share\": %.6g}", f->whole ? (double)f->ops[i] / (double)f->whole : 0.0);
}

void pr_print_json(FILE *out, const tinyaot_result *r, const char *model, const char *platform,
                   const VaBoard *board, long runs, const PrFigures *f)
{
    fprintf(out, "{\"model\": ");
    va_json_string(out, model);
    fprintf(out, ", \"platform\": ");
    va_json_string(out, platform);
    fprintf(out, ", \"board\": ");
    va_json_string(out, board->machine);
    fprintf(out, ", \"core\": ");
    va_json_string(out, board->description);
    fprintf(out, ", \"unit\": \"instructions\", \"runs\": %ld,\n \"operators\": [", runs);
    for (size_t i = 0; i < r->num_operators && i < f->num_ops; i++)
        json_operator(out, r, i, f);
    const uint64_t sum = total(f);
    fprintf(out,
            "],\n \"operators_total\": %" PRIu64 ", \"whole_run\": %" PRIu64 ", \"glue\": %" PRId64
            ",\n \"whole_run_with_callback\": %" PRIu64 ", \"callback_instructions\": %" PRIu64
            ", \"callback_overhead\": %" PRIu64 ", \"callbacks\": %ld,\n \"cold_run\": %" PRIu64
            ", \"warm_runs\": [",
            sum, f->whole, (int64_t)(f->whole - sum), f->profiled, f->pair, f->overhead, f->calls,
            f->cold);
    for (size_t i = 0; i < f->num_warm; i++)
        fprintf(out, "%s%" PRIu64, i ? ", " : "", f->warm[i]);
    fprintf(out, "]}\n");
}
