/*
 * tinyaot.c - the command line. It only parses options and calls the
 * library (include/tinyaot/tinyaot.h); everything else lives there.
 *
 *   tinyaot convert [--config FILE] [--strict] [--force] [--quiet] [--dump-after PASS]
 *                   [--KEY VALUE]...
 */
#include "../include/tinyaot/tinyaot.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: tinyaot convert [--config FILE] [--strict] [--force] [--quiet]\n"
            "                       [--dump-after PASS] [--KEY VALUE]...\n"
            "       tinyaot --version\n\n"
            "Converts a LiteRT (.tflite) model into a C99 inference module.\n"
            "KEY is a dotted configuration key, e.g.\n"
            "  tinyaot convert --model.path m.tflite --module.path out/kws --module.prefix kws\n"
            "  --memory.dump_residency_json true --platform.name apollo510_evb\n"
            "A key given here overrides the same key in the --config file.\n\n"
            "The module is written beside module.path and swapped in whole: module.path\n"
            "holds the complete old or the complete new module at every moment.\n"
            "An existing module.path is replaced only if it is empty or a module tinyaot\n"
            "wrote (its .tinyaot-module marker lists every file, unchanged since).\n"
            "  --strict  warnings are errors\n"
            "  --force   replace module.path even if tinyaot did not write it; never\n"
            "            `/`, the working or home directory, or a directory holding the\n"
            "            model, the --config or the target file; links are not followed\n"
            "  --quiet   no summary\n"
            "  --dump-after PASS  print the graph after PASS, one line per operator:\n"
            "            read, check, FOLD_STATIC_SHAPE_EXPRESSIONS, DEPTHWISE_TO_CONV,\n"
            "            FUSE_ACTIVATIONS, lower, drop_dead\n"
            "See README.md for every key.\n");
}

static void print_summary(const tinyaot_result *r)
{
    int64_t constant = 0, persistent = 0;
    for (size_t i = 0; i < r->num_regions; i++) {
        const tinyaot_region_view *v = &r->regions[i];
        if (strcmp(v->role, "constant") == 0)
            constant += v->size;
        else if (strcmp(v->role, "persistent") == 0)
            persistent += v->size;
    }
    printf("tinyaot: wrote %s: %zu operators, %zu tensors, %zu arena regions\n", r->module_path,
           r->num_operators, r->num_tensors, r->num_regions);
    for (size_t i = 0; i < r->num_regions; i++) {
        const tinyaot_region_view *v = &r->regions[i];
        if (strcmp(v->role, "scratch") == 0)
            printf("tinyaot:   scratch %s: %lld bytes (lower bound %lld, gap %lld)\n", v->memory,
                   (long long)v->size, (long long)r->region_lower_bounds[i],
                   (long long)(v->size - r->region_lower_bounds[i]));
    }
    printf("tinyaot:   persistent %lld bytes, constants %lld bytes\n", (long long)persistent,
           (long long)constant);
}

/* Parses the arguments after "convert" into `args`; `options` and `owned`
   have room for argc entries. 0 when they are good, else the exit status. */
static int parse_convert(int argc, char **argv, tinyaot_args *args, tinyaot_option *options,
                         char **owned, int *num_owned, bool *quiet)
{
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2) != 0) {
            fprintf(stderr, "tinyaot: unexpected argument '%s' (options start with --)\n", a);
            return 2;
        }
        a += 2;
        if (strcmp(a, "strict") == 0) {
            args->strict = 1;
            continue;
        }
        if (strcmp(a, "force") == 0) {
            args->force = 1;
            continue;
        }
        if (strcmp(a, "quiet") == 0) {
            *quiet = true;
            continue;
        }
        const char *eq = strchr(a, '=');
        const char *key = a, *value;
        if (eq) {
            char *copy = malloc(strlen(a) + 1);
            if (!copy)
                return 1;
            strcpy(copy, a);
            copy[eq - a] = '\0';
            key = copy;
            value = copy + (eq - a) + 1;
            owned[(*num_owned)++] = copy;
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            fprintf(stderr, "tinyaot: --%s needs a value\n", a);
            return 2;
        }
        if (strcmp(key, "config") == 0)
            args->config_path = value;
        else if (strcmp(key, "dump-after") == 0)
            args->dump_after = value;
        else
            options[args->num_options++] = (tinyaot_option){key, value};
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0)) {
        printf("tinyaot %s\n", tinyaot_version());
        return 0;
    }
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0 ||
                      strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc < 2 || strcmp(argv[1], "convert") != 0) {
        if (argc >= 2)
            fprintf(stderr, "tinyaot: unknown command '%s'\n", argv[1]);
        usage(stderr);
        return 2;
    }
    tinyaot_args args = {.result_views = 1};
    tinyaot_option *options = calloc((size_t)argc, sizeof *options);
    char **owned = calloc((size_t)argc, sizeof *owned); /* KEY=VALUE copies */
    int num_owned = 0;
    bool quiet = false;
    int exit_status = 1;
    if (options && owned)
        exit_status = parse_convert(argc, argv, &args, options, owned, &num_owned, &quiet);
    if (options && owned && exit_status == 0) {
        args.options = options;
        tinyaot_result *result = NULL;
        tinyaot_status status = tinyaot_convert(&args, &result);
        if (status == TINYAOT_OK && !quiet)
            print_summary(result);
        tinyaot_result_free(result);
        exit_status = status == TINYAOT_OK ? 0 : 1;
    }
    for (int i = 0; i < num_owned; i++)
        free(owned[i]);
    free(owned);
    free(options);
    return exit_status;
}
