/*
 * profile.c - `tinyaot profile [--config FILE] [--KEY VALUE]... [--format
 * text|json] [--runs N]`: converts into a temporary directory (removed
 * afterwards, also on failure or an interrupt), builds the module with
 * tests/qemu/profile_runner.c for a board the QEMU kit models, runs it
 * under QEMU -icount and prints the instructions of each operator, their
 * MACs, instructions per MAC and share of the run, and the whole run.
 * Building and running are validate's (validate_build.c); the figures come
 * from the runner's "profile: ..." lines (profile_report.c prints them).
 */
#define _POSIX_C_SOURCE 200809L
#include "profile.h"

#include <stdlib.h>
#include <string.h>

#include "../include/tinyaot/tinyaot.h"
#include "../src/config/config.h"
#include "../src/util/util.h"
#include "validate.h"

#define PR_PREFIX "profile"

enum { EXIT_OK = 0, EXIT_USAGE = 2, EXIT_CANNOT = 3, EXIT_SIGNAL = 130 };

static const char *const profile_usage =
    "usage: tinyaot profile [--config FILE] [--strict] [--format text|json] [--runs N]\n"
    "                       [--inputs FILE] [--keep] [--KEY VALUE]...\n";

static void usage_profile(FILE *out)
{
    fputs(profile_usage, out);
    fprintf(out, "\nConverts the model (the same configuration as convert, with module.schedule:\n"
                 "table and memory.allocate_arenas: true; module.path and module.prefix are a\n"
                 "temporary directory, removed afterwards), builds it for the board of\n"
                 "platform.name (mps3_an547: Cortex-M55, mps2_an386: Cortex-M4F) with\n"
                 "arm-none-eabi-gcc and runs it under qemu-system-arm -icount on one input\n"
                 "(--inputs FILE, else generated: seed 1, integers any value, float32 in\n"
                 "[-1, 1), bool 0 or 1). Prints per operator, in schedule order: its layer\n"
                 "index, type, output tensor, the instructions it executed in the second run\n"
                 "after model_init (timed through the operator callback, the callback's own\n"
                 "instructions removed), its MACs, instructions per MAC and share of the\n"
                 "run; then the operators' total, the whole run measured around model_run\n"
                 "(the callbacks' instructions removed) and the difference (the module's\n"
                 "glue: the schedule loop, the run's checks). QEMU counts instructions, not\n"
                 "cycles: docs/profiling.md says how to time the operators on a real board\n"
                 "with the DWT cycle counter.\n"
                 "  --format text|json  json: the same figures as one JSON object on stdout\n"
                 "  --runs N         runs after model_init (default 3, at least 2): the first is\n"
                 "                   timed whole (cold), the second per operator, the rest whole\n"
                 "                   without the callback (a cross-check of the whole run)\n"
                 "  --inputs FILE    the input instead: raw bytes of every input of one run, in\n"
                 "                   order (the layout of validate --inputs, one run)\n"
                 "  --keep           keep the temporary directory and print where it is\n"
                 "  --config FILE    YAML configuration, as for convert\n"
                 "  --strict         warnings are errors\n"
                 "  -h, --help       this help\n"
                 "Tools: $ARM_NONE_EABI_GCC (arm-none-eabi-gcc), $QEMU_SYSTEM_ARM\n"
                 "(qemu-system-arm). Exit status: 0 profiled; 2 usage; 3 it could not profile\n"
                 "(platform, conversion, missing tools, build or run failure; said on stderr);\n"
                 "130 interrupted.\n");
}

/* ---- options ---------------------------------------------------------------- */

typedef struct Options {
    const char *config, *inputs;
    bool strict, keep, help, json;
    long runs;
    tinyaot_option *keys;
    size_t num_keys;
    char **owned;
    int num_owned;
} Options;

/* One option with a value; EXIT_OK or the exit status. */
static int parse_value(Options *o, const char *key, const char *value)
{
    if (strcmp(key, "config") == 0) {
        o->config = value;
    } else if (strcmp(key, "format") == 0) {
        if (strcmp(value, "json") != 0 && strcmp(value, "text") != 0) {
            fprintf(stderr, "tinyaot: --format: '%s' is not one of: text, json\n", value);
            return EXIT_USAGE;
        }
        o->json = strcmp(value, "json") == 0;
    } else if (strcmp(key, "inputs") == 0) {
        o->inputs = value;
    } else if (strcmp(key, "runs") == 0) {
        char *end;
        long n = strtol(value, &end, 10);
        if (!value[0] || *end || n < 2 || n > 1000) {
            fprintf(stderr, "tinyaot: --runs: '%s' is not a whole number from 2 to 1000\n", value);
            return EXIT_USAGE;
        }
        o->runs = n;
    } else if (strcmp(key, "module.path") == 0 || strcmp(key, "module.prefix") == 0) {
        fprintf(stderr,
                "tinyaot profile: note: --%s is not used: profile writes its module into a "
                "temporary directory\n",
                key);
    } else {
        o->keys[o->num_keys++] = (tinyaot_option){key, value};
    }
    return EXIT_OK;
}

static int parse_options(int argc, char **argv, Options *o)
{
    o->runs = 3;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            o->help = true;
            return EXIT_OK;
        }
        if (strncmp(a, "--", 2) != 0) {
            fprintf(stderr, "tinyaot: unexpected argument '%s' (options start with --)\n", a);
            return EXIT_USAGE;
        }
        a += 2;
        if (strcmp(a, "strict") == 0 || strcmp(a, "keep") == 0) {
            *(a[0] == 's' ? &o->strict : &o->keep) = true;
            continue;
        }
        const char *key, *value;
        int status = va_option_value(argc, argv, &i, a, "profile", o->owned, &o->num_owned, &key,
                                     &value);
        if (status != EXIT_OK)
            return status;
        status = parse_value(o, key, value);
        if (status != EXIT_OK)
            return status;
    }
    return EXIT_OK;
}

/* ---- the configuration ---------------------------------------------------------- */

/* The one line for a platform QEMU cannot run; false then. */
static bool board_or_refuse(const char *platform, const VaBoard **board)
{
    *board = va_board_for_target(platform);
    if (*board)
        return true;
    fprintf(stderr,
            "tinyaot profile: platform '%s' cannot be profiled: profile runs the module under "
            "QEMU on mps3_an547 (Cortex-M55) or mps2_an386 (Cortex-M4F); set --platform.name "
            "to one of them\n",
            platform ? platform : "?");
    return false;
}

/* ---- the run ------------------------------------------------------------------- */

typedef struct Profile {
    Options *o;
    const char *work; /* va_run_in_temp_dir's */
    char *module_dir, *model, *platform;
    tinyaot_result *result;
} Profile;

static int convert(Profile *p)
{
    Options *o = p->o;
    tinyaot_option *keys = calloc(o->num_keys + 4, sizeof *keys);
    if (!keys)
        return EXIT_CANNOT;
    memcpy(keys, o->keys, o->num_keys * sizeof *keys);
    size_t n = o->num_keys;
    keys[n++] = (tinyaot_option){"module.path", p->module_dir};
    keys[n++] = (tinyaot_option){"module.prefix", PR_PREFIX};
    keys[n++] = (tinyaot_option){"module.schedule", "table"}; /* the operator callback */
    keys[n++] = (tinyaot_option){"memory.allocate_arenas", "true"};
    tinyaot_args args = {.config_path = o->config,
                         .options = keys,
                         .num_options = n,
                         .strict = o->strict,
                         .result_views = 1};
    tinyaot_status status = tinyaot_convert(&args, &p->result);
    free(keys);
    if (status != TINYAOT_OK) {
        fprintf(stderr, "tinyaot profile: the conversion failed (the errors above say why)\n");
        return EXIT_CANNOT;
    }
    return EXIT_OK;
}

/* The program's tool: $ENV or its default name on PATH; malloc'd or NULL
   (said on stderr). */
static char *find_tool(const char *env_name, const char *name)
{
    const char *env = getenv(env_name);
    const char *want = env && *env ? env : name;
    char *path = va_find_program(want);
    if (!path)
        fprintf(stderr,
                "tinyaot profile: %s is not on PATH (set $%s, or apt-get install "
                "gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm)\n",
                want, env_name);
    return path;
}

static int build_and_run(Profile *p, const VaBoard *board)
{
    static const char *const sources[] = {"tests/qemu/profile_runner.c",
                                          "examples/op_timer/ta_op_timer.c",
                                          "examples/op_timer/ta_op_timer.h"};
    static const char *const defines[] = {"-DTA_NUM_OPERATORS=PROFILE_NUM_OPERATORS", NULL};
    char *gcc = find_tool("ARM_NONE_EABI_GCC", "arm-none-eabi-gcc");
    char *qemu = gcc ? find_tool("QEMU_SYSTEM_ARM", "qemu-system-arm") : NULL;
    char *words = va_format("inputs.bin %ld", p->o->runs);
    int status = EXIT_CANNOT;
    if (gcc && qemu && words) {
        VaModule m = {p->work, p->module_dir, PR_PREFIX, false, (size_t)p->o->runs};
        VaQemuProgram program = {sources, 3, defines, words, "profile_run.log", false};
        status = va_build_and_run_qemu_program(&m, board, gcc, qemu, &program) == 0 ? EXIT_OK
                                                                                    : EXIT_CANNOT;
    }
    free(gcc);
    free(qemu);
    free(words);
    return status;
}

static int profile(Profile *p)
{
    VaConfigPaths paths = va_read_config(p->o->config, p->o->keys, p->o->num_keys);
    p->model = paths.model;
    p->platform = paths.platform;
    paths.model = paths.platform = NULL;
    va_free_config_paths(&paths);
    const VaBoard *board;
    /* A target file is known by its name only after the conversion. */
    bool is_file = p->platform && (strchr(p->platform, '/') || strstr(p->platform, ".yaml"));
    if (p->platform && !is_file && !board_or_refuse(p->platform, &board))
        return EXIT_CANNOT;
    int status = convert(p);
    if (status != EXIT_OK)
        return status;
    const char *platform = p->result->analysis ? p->result->analysis->platform : p->platform;
    if (!board_or_refuse(platform, &board))
        return EXIT_CANNOT;
    if (pr_write_inputs(p->result, p->work, p->o->inputs) != 0)
        return EXIT_CANNOT;
    if (!p->o->json) {
        printf("tinyaot profile: %s on %s (%s), QEMU -icount\n", p->model ? p->model : "the model",
               platform, board->description);
        fflush(stdout);
    }
    if ((status = build_and_run(p, board)) != EXIT_OK)
        return va_interrupted ? EXIT_SIGNAL : status;
    char *log = va_format("%s/profile_run.log", p->work);
    PrFigures figures;
    bool read = log && pr_read_log(log, board, &figures);
    free(log);
    if (!read)
        return EXIT_CANNOT;
    if (p->o->json)
        pr_print_json(stdout, p->result, p->model, platform, board, p->o->runs, &figures);
    else
        pr_print_text(stdout, p->result, p->o->runs, &figures);
    pr_free_figures(&figures);
    return EXIT_OK;
}

/* The run, inside the temporary directory `work`. */
static int profile_in(void *user, const char *work)
{
    Profile *p = user;
    p->work = work;
    p->module_dir = va_format("%s/module", work);
    return p->module_dir ? profile(p) : EXIT_CANNOT;
}

static int run_in_temp_dir(Options *o)
{
    Profile p = {.o = o};
    int status = va_run_in_temp_dir("profile", o->keep, profile_in, &p);
    tinyaot_result_free(p.result);
    free(p.model);
    free(p.platform);
    free(p.module_dir);
    return status;
}

int tinyaot_cli_profile(int argc, char **argv)
{
    Options o = {0};
    o.keys = calloc((size_t)argc, sizeof *o.keys);
    o.owned = calloc((size_t)argc, sizeof *o.owned);
    int status = o.keys && o.owned ? parse_options(argc, argv, &o) : EXIT_CANNOT;
    va_who = "tinyaot profile";
    if (status == EXIT_OK && o.help) {
        usage_profile(stdout);
        tinyaot_cli_print_keys(stdout);
    } else if (status == EXIT_USAGE) {
        fputs(profile_usage, stderr);
    } else if (status == EXIT_OK) {
        status = run_in_temp_dir(&o);
    }
    for (int i = 0; i < o.num_owned; i++)
        free(o.owned[i]);
    free(o.owned);
    free(o.keys);
    return status;
}
