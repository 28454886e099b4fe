/*
 * validate.c - `tinyaot validate [--config FILE] [--KEY VALUE ...] [--runs N]`.
 *
 * Converts into a temporary directory (removed afterwards, also on failure
 * or an interrupt), builds the module for the host and, for a target the
 * QEMU kit models, for that board; runs every build on the same inputs and
 * compares each output with a reference (validate_compare.c: integers byte
 * for byte, floats within --tolerance/--ulps): TensorFlow Lite Micro's
 * interpreter unless asked otherwise (python/tinyaot/oracle.py, built into
 * tinyaot and run with the first Python that has the tflite-micro package,
 * validate_oracle.c; none is exit 3), expected outputs the user gives
 * (--expected FILE), or, on --reference test-case only, the expected outputs
 * of the module's built-in test case (validate_test_case.c). The first line
 * of the output names the reference.
 *
 * Inputs, unless --inputs FILE gives them: a splitmix64 stream seeded with
 * --seed (default 1), drawn element by element through every input of run
 * 0, then of run 1, ...; an integer element takes the low bytes of its draw
 * (the type's whole range), a float32 element (v >> 40) / 2^23 - 1 (in
 * [-1, 1)), a bool v & 1.
 */
#define _POSIX_C_SOURCE 200809L
#include "validate.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../include/tinyaot/tinyaot.h"
#include "../src/config/config.h"
#include "../src/config/resources.h"

/* The prefix of the temporary module: it only names symbols. */
#define VA_PREFIX "validate"

enum { EXIT_MATCH = 0, EXIT_MISMATCH = 1, EXIT_USAGE = 2, EXIT_CANNOT = 3, EXIT_SIGNAL = 130 };

static const char *const validate_usage =
    "usage: tinyaot validate [--config FILE] [--strict] [--runs N] [--seed S] [--inputs FILE]\n"
    "                        [--expected FILE] [--reference tflm|test-case] [--python PATH]\n"
    "                        [--tolerance ABS] [--ulps N] [--layers] [--no-qemu] [--keep]\n"
    "                        [--KEY VALUE]...\n";

static void usage_validate(FILE *out)
{
    fputs(validate_usage, out);
    fprintf(out,
            "\nConverts the model (the same configuration as convert; module.path and\n"
            "module.prefix are replaced by a temporary directory, removed afterwards), builds\n"
            "the module for the host with $CC (default cc; $CFLAGS, default -O2) and, when the\n"
            "target is a board the QEMU kit models (mps3_an547: Cortex-M55, mps2_an386:\n"
            "Cortex-M4F) and arm-none-eabi-gcc and qemu-system-arm are on PATH, for that\n"
            "board; runs each build on the same N inputs, one after the other without\n"
            "re-initialization, and compares every output with the reference: TFLite Micro's\n"
            "interpreter unless --expected or --reference test-case says otherwise. The first\n"
            "line names the reference. Integer outputs are compared byte for byte; float\n"
            "outputs element by element within the tolerance (default none: bit for bit), with\n"
            "the largest absolute error, the largest error in ulps and the cosine similarity.\n"
            "  --runs N         inputs to run (default 3)\n"
            "  --seed S         seed of the generated inputs (default 1): a splitmix64 stream,\n"
            "                   element by element through every input of each run; integers\n"
            "                   take the low bytes of each draw, float32 (v >> 40) / 2^23 - 1,\n"
            "                   bool v & 1\n"
            "  --inputs FILE    the inputs instead: raw bytes, every input of run 0, then of\n"
            "                   run 1, ... (the runs are its size over one run's bytes)\n"
            "  --expected FILE  compare with these outputs (same layout) instead of TFLite\n"
            "                   Micro, e.g. recorded on a device\n"
            "  --reference tflm|test-case  tflm (default): TFLite Micro's interpreter, run by\n"
            "                   the first Python that imports numpy and tflite_micro: --python,\n"
            "                   else $TINYAOT_PYTHON (only that one), else python3 beside this\n"
            "                   executable, <executable's folder>/../.venv/bin/python, python3\n"
            "                   on PATH; none: exit 3. test-case: the expected outputs of the\n"
            "                   module's built-in test case (computed by tinyaot's own kernels\n"
            "                   at conversion; not TFLite Micro)\n"
            "  --python PATH    the Python that runs TFLite Micro's interpreter\n"
            "  --tolerance ABS  a float element matches within this absolute error\n"
            "  --ulps N         a float element matches within N units in the last place\n"
            "                   (with both, either suffices; integers are always exact)\n"
            "  --layers         also compare every operator's output tensors with TFLite\n"
            "                   Micro's (host build, by model tensor index) and name the first\n"
            "                   operator that differs (converts with module.schedule: table\n"
            "                   and memory.row_streaming: off: whole intermediate tensors)\n"
            "  --no-qemu        the host build only\n"
            "  --keep           keep the temporary directory and print where it is\n"
            "  --config FILE    YAML configuration, as for convert\n"
            "  --strict         warnings are errors\n"
            "  -h, --help       this help\n"
            "Tools: $CC, $ARM_NONE_EABI_GCC (arm-none-eabi-gcc), $QEMU_SYSTEM_ARM\n"
            "(qemu-system-arm). Exit status: 0 every output matches; 1 an output (or, with\n"
            "--layers, an intermediate tensor) differs beyond the tolerance (named on stdout);\n"
            "2 usage; 3 it could not validate (no TFLite Micro, conversion, missing compiler,\n"
            "build or run failure; said on stderr); 130 interrupted.\n");
}

/* ---- options ---------------------------------------------------------------- */

typedef struct Options {
    const char *config;
    bool strict, no_qemu, keep, help;
    long runs;
    bool runs_given;
    unsigned long long seed;
    const char *inputs, *expected, *python;
    const char *reference; /* "tflm", "test-case" */
    VaTolerance tolerance;
    bool layers;
    tinyaot_option *keys;
    size_t num_keys;
    char **owned;
    int num_owned;
} Options;

static bool parse_number(const char *text, unsigned long long max, unsigned long long *out)
{
    char *end;
    if (!text[0] || text[0] == '-')
        return false;
    unsigned long long v = strtoull(text, &end, 10);
    if (*end || v > max)
        return false;
    *out = v;
    return true;
}

/* --reference, --tolerance, --ulps; false (said) on a bad value. */
static bool parse_comparison(const char *key, const char *value, Options *o)
{
    if (strcmp(key, "reference") == 0) {
        if (strcmp(value, "tflm") != 0 && strcmp(value, "test-case") != 0) {
            fprintf(stderr,
                    "tinyaot: --reference: '%s' is not one of: tflm (TFLite Micro, the "
                    "default), test-case\n",
                    value);
            return false;
        }
        o->reference = value;
    } else if (strcmp(key, "tolerance") == 0) {
        char *end;
        double t = strtod(value, &end);
        if (!value[0] || *end || !(t >= 0) || isinf(t)) {
            fprintf(stderr,
                    "tinyaot: --tolerance: '%s' is not a finite number >= 0 (the largest "
                    "absolute error a float output element may have)\n",
                    value);
            return false;
        }
        o->tolerance.abs = t;
    } else {
        unsigned long long n;
        if (!parse_number(value, UINT64_MAX, &n)) {
            fprintf(stderr, "tinyaot: --ulps: '%s' is not a whole number\n", value);
            return false;
        }
        o->tolerance.ulps = n;
    }
    return true;
}

static int parse_options(int argc, char **argv, Options *o)
{
    o->runs = 3;
    o->seed = 1;
    o->reference = "tflm";
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            o->help = true;
            return 0;
        }
        if (strncmp(a, "--", 2) != 0) {
            fprintf(stderr, "tinyaot: unexpected argument '%s' (options start with --)\n", a);
            return EXIT_USAGE;
        }
        a += 2;
        if (strcmp(a, "strict") == 0 || strcmp(a, "no-qemu") == 0 || strcmp(a, "keep") == 0) {
            *(a[0] == 's' ? &o->strict : a[0] == 'n' ? &o->no_qemu : &o->keep) = true;
            continue;
        }
        if (strcmp(a, "layers") == 0) {
            o->layers = true;
            continue;
        }
        const char *key, *value;
        int status = va_option_value(argc, argv, &i, a, "validate", o->owned, &o->num_owned, &key,
                                     &value);
        if (status != 0)
            return status;
        unsigned long long n;
        if (strcmp(key, "config") == 0) {
            o->config = value;
        } else if (strcmp(key, "runs") == 0) {
            if (!parse_number(value, 1000000, &n) || n == 0) {
                fprintf(stderr, "tinyaot: --runs: '%s' is not a whole number from 1 to 1000000\n",
                        value);
                return EXIT_USAGE;
            }
            o->runs = (long)n;
            o->runs_given = true;
        } else if (strcmp(key, "seed") == 0) {
            if (!parse_number(value, UINT64_MAX, &n)) {
                fprintf(stderr, "tinyaot: --seed: '%s' is not a whole number\n", value);
                return EXIT_USAGE;
            }
            o->seed = n;
        } else if (strcmp(key, "inputs") == 0) {
            o->inputs = value;
        } else if (strcmp(key, "expected") == 0) {
            o->expected = value;
        } else if (strcmp(key, "python") == 0) {
            o->python = value;
        } else if (strcmp(key, "reference") == 0 || strcmp(key, "tolerance") == 0 ||
                   strcmp(key, "ulps") == 0) {
            if (!parse_comparison(key, value, o))
                return EXIT_USAGE;
        } else if (strcmp(key, "module.path") == 0 || strcmp(key, "module.prefix") == 0) {
            fprintf(stderr,
                    "tinyaot validate: note: --%s is not used: validate writes its "
                    "module into a temporary directory\n",
                    key);
        } else {
            o->keys[o->num_keys++] = (tinyaot_option){key, value};
        }
    }
    if (o->layers && (o->expected || strcmp(o->reference, "tflm") != 0)) {
        fprintf(stderr, "tinyaot: --layers compares with TFLite Micro's tensors: not with "
                        "--expected or --reference test-case\n");
        return EXIT_USAGE;
    }
    return 0;
}

/* ---- the converted module's I/O ------------------------------------------- */

typedef VaTensor Tensor;

static size_t itemsize_of(const char *dtype)
{
    static const struct {
        const char *dtype;
        size_t size;
    } sizes[] = {{"int8", 1},   {"uint8", 1},  {"bool", 1},   {"int16", 2},
                 {"uint16", 2}, {"int32", 4},  {"uint32", 4}, {"float32", 4},
                 {"int64", 8},  {"uint64", 8}, {"float64", 8}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (strcmp(sizes[i].dtype, dtype) == 0)
            return sizes[i].size;
    return 0;
}

/* The module's inputs (want_input) or outputs in order; NULL on a type
   validate cannot handle (said on stderr). */
static Tensor *io_tensors(const tinyaot_result *r, bool want_input, size_t *count)
{
    size_t n = 0;
    for (size_t i = 0; i < r->num_tensors; i++)
        if ((want_input ? r->tensors[i].input_index : r->tensors[i].output_index) >= 0)
            n++;
    Tensor *list = calloc(n + 1, sizeof *list);
    if (!list)
        return NULL;
    for (size_t i = 0; i < r->num_tensors; i++) {
        const tinyaot_tensor_view *t = &r->tensors[i];
        int index = want_input ? t->input_index : t->output_index;
        if (index < 0 || (size_t)index >= n)
            continue;
        Tensor *d = &list[index];
        d->name = t->name ? t->name : t->id;
        d->dtype = t->dtype;
        d->itemsize = itemsize_of(t->dtype);
        if (!d->itemsize) {
            fprintf(stderr,
                    "tinyaot validate: %s %d '%s' has type %s, which validate cannot "
                    "generate or compare\n",
                    want_input ? "input" : "output", index, d->name, t->dtype);
            free(list);
            return NULL;
        }
        size_t elements = 1, len = 0;
        d->shape[0] = '\0';
        for (size_t k = 0; k < t->rank; k++) {
            elements *= (size_t)t->shape[k];
            if (len + 24 < sizeof d->shape)
                len += (size_t)snprintf(d->shape + len, sizeof d->shape - len, "%s%lld",
                                        k ? "x" : "", (long long)t->shape[k]);
        }
        if (t->rank == 0)
            snprintf(d->shape, sizeof d->shape, "scalar");
        d->bytes = elements * d->itemsize;
    }
    *count = n;
    return list;
}

static size_t record_bytes(const Tensor *t, size_t n)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += t[i].bytes;
    return total;
}

/* ---- inputs ------------------------------------------------------------------ */

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static unsigned char *generate_inputs(const Tensor *ins, size_t num_in, size_t runs, uint64_t seed,
                                      size_t *size)
{
    size_t record = record_bytes(ins, num_in);
    unsigned char *data = malloc(record * runs + 1);
    if (!data)
        return NULL;
    uint64_t state = seed;
    unsigned char *p = data;
    for (size_t r = 0; r < runs; r++)
        for (size_t k = 0; k < num_in; k++)
            for (size_t e = 0; e < ins[k].bytes / ins[k].itemsize; e++) {
                uint64_t v = splitmix64(&state);
                if (strcmp(ins[k].dtype, "float32") == 0) {
                    float f = (float)((double)(v >> 40) / 8388608.0 - 1.0);
                    memcpy(p, &f, 4);
                } else if (strcmp(ins[k].dtype, "bool") == 0) {
                    *p = (unsigned char)(v & 1u);
                } else {
                    for (size_t b = 0; b < ins[k].itemsize; b++) /* little-endian */
                        p[b] = (unsigned char)(v >> (8 * b));
                }
                p += ins[k].itemsize;
            }
    *size = record * runs;
    return data;
}

/* Reads a build's output file; it must hold exactly `want` bytes. */
static unsigned char *read_outputs(const char *path, size_t want, const char *build)
{
    size_t size = 0;
    unsigned char *data = va_read_file(path, &size);
    if (!data)
        fprintf(stderr, "tinyaot validate: the %s run wrote no outputs (%s)\n", build, path);
    else if (size != want) {
        fprintf(stderr, "tinyaot validate: the %s run wrote %zu bytes of outputs, %zu expected\n",
                build, size, want);
        free(data);
        data = NULL;
    }
    return data;
}

/* ---- the reference ------------------------------------------------------------ */

typedef enum { REF_FILE, REF_TFLM, REF_TEST_CASE } Reference;

/* ---- the configuration, read as convert reads it ------------------------------ */

/* model.path, resolved as the converter resolves it (from the --config
   file's folder when the file gives it). NULL when the configuration does
   not load; the conversion then reports why. malloc'd. */
static char *resolved_model_path(const Options *o)
{
    VaConfigPaths paths = va_read_config(o->config, o->keys, o->num_keys);
    char *path = paths.model;
    paths.model = NULL;
    va_free_config_paths(&paths);
    return path;
}

/* ---- the command ---------------------------------------------------------------- */

typedef struct Run {
    Options *o;
    const char *work; /* va_run_in_temp_dir's */
    char *module_dir;
    char *model;
    tinyaot_result *result;
    Tensor *ins, *outs;
    size_t num_in, num_out;
    unsigned char *expected;
    Reference reference;
    char *python;           /* REF_TFLM: the Python that runs the oracle */
    char *oracle_script;    /* REF_TFLM: work/oracle.py */
    char name[512];         /* in the final line: "TFLite Micro 0.dev..." */
    char description[1024]; /* in the first line: the name and where from */
} Run;

/* Names the reference on the first line of the output. */
static void say_reference(const Run *v)
{
    printf("tinyaot validate: reference: %s\n", v->description);
    fflush(stdout);
}

/* TFLite Micro's interpreter, with the first Python that can run it.
   EXIT_MATCH when found, else EXIT_CANNOT with how to get it. */
static int find_tflm(Run *v)
{
    Options *o = v->o;
    const char *env = getenv("TINYAOT_PYTHON");
    const char *named = o->python ? o->python : env && *env ? env : NULL;
    const char *how = o->python ? "--python" : "$TINYAOT_PYTHON";
    v->oracle_script = va_write_oracle(v->work);
    if (!v->oracle_script)
        return EXIT_CANNOT;
    char version[400], tried[2048];
    if (va_find_oracle(named, how, v->oracle_script, v->work, &v->python, version, sizeof version,
                       tried, sizeof tried) != 0) {
        if (va_interrupted)
            return EXIT_SIGNAL;
        fprintf(stderr,
                "tinyaot validate: no TFLite Micro to compare with (the reference unless "
                "--reference test-case or --expected FILE): tried %s. Install it into one of "
                "them (pip install tflite-micro numpy; in a clone of tinyaot, make deps builds "
                "the project's .venv), name a Python that has it (--python PATH or "
                "TINYAOT_PYTHON), give the expected outputs (--expected FILE), or compare with "
                "the module's built-in test case (--reference test-case: the outputs tinyaot's "
                "own kernels computed at conversion, not TFLite Micro's)\n",
                tried);
        return EXIT_CANNOT;
    }
    v->reference = REF_TFLM;
    version[strcspn(version, "(")] = '\0';
    size_t n = strlen(version);
    while (n > 0 && version[n - 1] == ' ')
        version[--n] = '\0';
    snprintf(v->name, sizeof v->name, "%s", version);
    snprintf(v->description, sizeof v->description, "%s (python %s)", version, v->python);
    return EXIT_MATCH;
}

/* Picks the reference before converting (the test case must be asked for
   at conversion) and names it. EXIT_MATCH when there is one, else the
   exit status. */
static int choose_reference(Run *v)
{
    Options *o = v->o;
    int status = EXIT_MATCH;
    if (o->expected) {
        v->reference = REF_FILE;
        snprintf(v->name, sizeof v->name, "the outputs in %s", o->expected);
        snprintf(v->description, sizeof v->description, "the outputs in %s (--expected)",
                 o->expected);
    } else if (strcmp(o->reference, "test-case") == 0) {
        v->reference = REF_TEST_CASE;
        snprintf(v->name, sizeof v->name, "the module's built-in test case");
        snprintf(v->description, sizeof v->description,
                 "the module's built-in test case (tinyaot's own kernels; not TFLite Micro)");
    } else {
        status = find_tflm(v);
    }
    if (status == EXIT_MATCH)
        say_reference(v);
    return status;
}

/* Converts into work/module; EXIT_MATCH or the exit status. */
static int convert(Run *v)
{
    Options *o = v->o;
    tinyaot_option *keys = calloc(o->num_keys + 5, sizeof *keys);
    if (!keys)
        return EXIT_CANNOT;
    memcpy(keys, o->keys, o->num_keys * sizeof *keys);
    size_t n = o->num_keys;
    keys[n++] = (tinyaot_option){"module.path", v->module_dir};
    keys[n++] = (tinyaot_option){"module.prefix", VA_PREFIX};
    if (v->reference == REF_TEST_CASE)
        keys[n++] = (tinyaot_option){"test.enabled", "true"};
    if (o->layers) { /* the operator callback, on whole tensors (no row buffers) */
        keys[n++] = (tinyaot_option){"module.schedule", "table"};
        keys[n++] = (tinyaot_option){"memory.row_streaming", "off"};
    }
    tinyaot_args args = {.config_path = o->config,
                         .options = keys,
                         .num_options = n,
                         .strict = o->strict,
                         .result_views = 1};
    tinyaot_status status = tinyaot_convert(&args, &v->result);
    free(keys);
    if (status != TINYAOT_OK || !v->model) {
        fprintf(stderr, "tinyaot validate: the conversion failed (the errors above say why)\n");
        return EXIT_CANNOT;
    }
    v->ins = io_tensors(v->result, true, &v->num_in);
    v->outs = io_tensors(v->result, false, &v->num_out);
    return v->ins && v->outs ? EXIT_MATCH : EXIT_CANNOT;
}

/* Writes work/inputs.bin (and, for the test case, work/expected.bin);
   sets *runs. EXIT_MATCH or the exit status. */
static int write_inputs(Run *v, const VaModule *m, const char *cc, size_t *runs, char *text,
                        size_t text_size)
{
    Options *o = v->o;
    size_t in_record = record_bytes(v->ins, v->num_in), in_size = 0;
    unsigned char *inputs;
    if (v->reference == REF_TEST_CASE) {
        if (va_test_case_reference(m, cc, v->num_in, v->num_out) != 0)
            return va_interrupted ? EXIT_SIGNAL : EXIT_CANNOT;
        char *path = va_format("%s/inputs.bin", v->work);
        inputs = path ? va_read_file(path, &in_size) : NULL;
        free(path);
        if (!inputs || in_record == 0 || in_size % in_record != 0) {
            fprintf(stderr, "tinyaot validate: the test case's stimulus does not fit the "
                            "model's inputs\n");
            free(inputs);
            return EXIT_CANNOT;
        }
        free(inputs);
        *runs = in_size / in_record;
        snprintf(text, text_size, "the test case's stimulus");
        if (o->runs_given && *runs != (size_t)o->runs)
            fprintf(stderr,
                    "tinyaot validate: note: --runs %ld is not used: the test case "
                    "holds %zu runs\n",
                    o->runs, *runs);
        return EXIT_MATCH;
    }
    *runs = (size_t)o->runs;
    if (o->inputs) {
        inputs = va_read_file(o->inputs, &in_size);
        if (!inputs) {
            fprintf(stderr, "tinyaot validate: --inputs: cannot read %s\n", o->inputs);
            return EXIT_CANNOT;
        }
        if (in_record == 0 || in_size == 0 || in_size % in_record != 0 ||
            (o->runs_given && in_size / in_record != *runs)) {
            fprintf(stderr,
                    "tinyaot validate: --inputs: %s holds %zu bytes; one run of the "
                    "model's inputs is %zu bytes%s\n",
                    o->inputs, in_size, in_record,
                    o->runs_given ? " and --runs asks for a different number of runs" : "");
            free(inputs);
            return EXIT_CANNOT;
        }
        *runs = in_size / in_record;
        snprintf(text, text_size, "from %s", o->inputs);
    } else {
        inputs = generate_inputs(v->ins, v->num_in, *runs, o->seed, &in_size);
        snprintf(text, text_size, "generated, seed %llu", o->seed);
    }
    char *path = va_format("%s/inputs.bin", v->work);
    bool wrote = inputs && path && va_write_file(path, inputs, in_size);
    free(inputs);
    free(path);
    if (!wrote) {
        fprintf(stderr, "tinyaot validate: cannot write the inputs into %s\n", v->work);
        return EXIT_CANNOT;
    }
    return EXIT_MATCH;
}

/* Reads (or, for TFLite Micro, computes) the expected outputs. */
static int read_reference(Run *v, size_t runs)
{
    size_t want = record_bytes(v->outs, v->num_out) * runs, size = 0;
    if (v->reference == REF_FILE) {
        v->expected = va_read_file(v->o->expected, &size);
        if (!v->expected || size != want) {
            fprintf(stderr,
                    "tinyaot validate: --expected: %s %s; %zu runs of the model's "
                    "outputs are %zu bytes\n",
                    v->o->expected, v->expected ? "has a different size" : "cannot be read", runs,
                    want);
            return EXIT_CANNOT;
        }
        return EXIT_MATCH;
    }
    if (v->reference == REF_TFLM) {
        char *layers = v->o->layers ? va_format("%s/tflm_layers", v->work) : NULL;
        int r = v->o->layers && (!layers || mkdir(layers, 0700) != 0)
                    ? EXIT_CANNOT
                    : va_run_oracle(v->python, v->oracle_script, v->work, v->model, runs, layers);
        free(layers);
        if (r != 0)
            return va_interrupted ? EXIT_SIGNAL : EXIT_CANNOT;
    }
    char *path = va_format("%s/expected.bin", v->work);
    v->expected = path ? read_outputs(path, want,
                                      v->reference == REF_TFLM ? "TFLite Micro" : "test case")
                       : NULL;
    free(path);
    return v->expected ? EXIT_MATCH : EXIT_CANNOT;
}

static int validate(Run *v)
{
    Options *o = v->o;
    v->model = resolved_model_path(o);

    /* The host compiler first: a missing one is said before anything runs. */
    const char *cc_env = getenv("CC");
    const char *cc = cc_env && *cc_env ? cc_env : "cc";
    char cc_first[256];
    snprintf(cc_first, sizeof cc_first, "%.*s", (int)strcspn(cc, " \t"), cc);
    char *cc_path = va_find_program(cc_first);
    if (!cc_path) {
        fprintf(stderr,
                "tinyaot validate: no host C compiler: '%s' (%s) is not an executable "
                "on PATH; set CC to one\n",
                cc_first, cc_env && *cc_env ? "$CC" : "the default, as CC is not set");
        return EXIT_CANNOT;
    }
    free(cc_path);

    int status = choose_reference(v);
    if (status != EXIT_MATCH)
        return status;
    if (v->reference == REF_TEST_CASE && o->inputs) {
        fprintf(stderr, "tinyaot validate: --inputs needs a reference for those inputs: TFLite "
                        "Micro's interpreter or --expected FILE (the built-in test case has "
                        "its own stimulus)\n");
        return EXIT_CANNOT;
    }
    if ((status = convert(v)) != EXIT_MATCH)
        return status;
    const char *platform = v->result->analysis ? v->result->analysis->platform : "?";
    bool binds = false;
    for (size_t i = 0; i < v->result->num_regions; i++)
        binds = binds || v->result->regions[i].symbol == NULL;
    VaModule m = {v->work, v->module_dir, VA_PREFIX, binds, 0};
    char input_text[256];
    if ((status = write_inputs(v, &m, cc, &m.runs, input_text, sizeof input_text)) != EXIT_MATCH)
        return status;
    if ((status = read_reference(v, m.runs)) != EXIT_MATCH)
        return status;
    size_t runs = m.runs, want = record_bytes(v->outs, v->num_out) * runs;
    char tolerance[80];
    va_tolerance_text(&o->tolerance, tolerance, sizeof tolerance);
    printf("tinyaot validate: %s on %s, %zu run%s (inputs %s); float tolerance: %s\n", v->model,
           platform, runs, runs == 1 ? "" : "s", input_text, tolerance);
    fflush(stdout);

    bool all = true;
    char first_bad[512] = "";

    /* The host. */
    if (va_build_and_run_host(&m, cc, "host_outputs.bin") != 0)
        return va_interrupted ? EXIT_SIGNAL : EXIT_CANNOT;
    char *path = va_format("%s/host_outputs.bin", v->work);
    unsigned char *got = path ? read_outputs(path, want, "host") : NULL;
    free(path);
    if (!got)
        return EXIT_CANNOT;
    char build[300];
    snprintf(build, sizeof build, "host (%s)", cc);
    all = va_compare(build, got, v->expected, v->outs, v->num_out, runs, &o->tolerance, first_bad,
                     sizeof first_bad);
    free(got);

    /* The board, when there is one and its tools. */
    const VaBoard *board = va_board_for_target(platform);
    const char *gcc_env = getenv("ARM_NONE_EABI_GCC");
    const char *qemu_env = getenv("QEMU_SYSTEM_ARM");
    const char *gcc_name = gcc_env && *gcc_env ? gcc_env : "arm-none-eabi-gcc";
    const char *qemu_name = qemu_env && *qemu_env ? qemu_env : "qemu-system-arm";
    char *gcc = board && !o->no_qemu ? va_find_program(gcc_name) : NULL;
    char *qemu = board && !o->no_qemu ? va_find_program(qemu_name) : NULL;
    int result = 0;
    if (o->no_qemu) {
        printf("  QEMU: not run (--no-qemu)\n");
    } else if (!board) {
        printf("  QEMU: not run: target %s is not a board the QEMU kit models (mps3_an547, "
               "mps2_an386)\n",
               platform);
    } else if (!gcc || !qemu) {
        printf("  QEMU: not run for %s: %s is not on PATH (apt-get install gcc-arm-none-eabi "
               "libnewlib-arm-none-eabi qemu-system-arm)\n",
               board->target, !gcc ? gcc_name : qemu_name);
    } else if (va_build_and_run_qemu(&m, board, gcc, qemu, "qemu_outputs.bin") != 0) {
        result = va_interrupted ? EXIT_SIGNAL : EXIT_CANNOT;
    } else {
        path = va_format("%s/qemu_outputs.bin", v->work);
        got = path ? read_outputs(path, want, board->machine) : NULL;
        free(path);
        if (!got) {
            result = EXIT_CANNOT;
        } else {
            snprintf(build, sizeof build, "%s (QEMU)", board->machine);
            char bad[512] = "";
            if (!va_compare(build, got, v->expected, v->outs, v->num_out, runs, &o->tolerance, bad,
                            sizeof bad)) {
                if (all)
                    snprintf(first_bad, sizeof first_bad, "%s", bad);
                all = false;
            }
            free(got);
        }
    }
    free(gcc);
    free(qemu);
    if (result == 0 && o->layers) {
        result = va_compare_layers(&m, cc, v->result, &o->tolerance, runs);
        if (result == EXIT_MISMATCH && all)
            snprintf(first_bad, sizeof first_bad, "an intermediate tensor of the host build");
        all = all && result != EXIT_MISMATCH;
        result = result == EXIT_MISMATCH ? 0 : result;
    }
    if (!all) {
        printf("tinyaot validate: MISMATCH: %s differs from %s beyond the tolerance (%s)\n",
               first_bad, v->name, tolerance);
        return EXIT_MISMATCH;
    }
    if (result != 0)
        return result;
    printf("tinyaot validate: OK: every output of every build matches %s (integers byte for "
           "byte; float tolerance: %s)\n",
           v->name, tolerance);
    return EXIT_MATCH;
}

/* The run, inside the temporary directory `work`. */
static int validate_in(void *user, const char *work)
{
    Run *v = user;
    v->work = work;
    v->module_dir = va_format("%s/module", work);
    return v->module_dir ? validate(v) : EXIT_CANNOT;
}

int tinyaot_cli_validate(int argc, char **argv)
{
    Options o = {0};
    o.keys = calloc((size_t)argc, sizeof *o.keys);
    o.owned = calloc((size_t)argc, sizeof *o.owned);
    if (!o.keys || !o.owned) {
        free(o.keys);
        free(o.owned);
        return EXIT_CANNOT;
    }
    int status = parse_options(argc, argv, &o);
    if (status == 0 && o.help) {
        usage_validate(stdout);
        tinyaot_cli_print_keys(stdout);
    } else if (status == EXIT_USAGE) {
        fputs(validate_usage, stderr);
    } else if (status == 0) {
        Run v = {.o = &o};
        status = va_run_in_temp_dir("validate", o.keep, validate_in, &v);
        tinyaot_result_free(v.result);
        free(v.ins);
        free(v.outs);
        free(v.expected);
        free(v.model);
        free(v.python);
        free(v.oracle_script);
        free(v.module_dir);
    }
    for (int i = 0; i < o.num_owned; i++)
        free(o.owned[i]);
    free(o.owned);
    free(o.keys);
    return status;
}
