/*
 * validate.h - `tinyaot validate`: convert into a temporary directory, build
 * the module for the host (and a modelled Cortex-M board under QEMU), run it
 * on deterministic inputs and compare with a reference.
 *
 *   validate.c        the command: options, conversion, inputs, reference, report
 *   validate_build.c  building and running the module (host compiler, QEMU)
 *   validate_test_case.c  the reference from the module's built-in test case
 *   validate_oracle.c the Python that runs TFLite Micro, and running it
 *   validate_compare.c  outputs against the reference, float tolerance, metrics
 *   validate_layers.c every operator's outputs against TFLite Micro's (--layers)
 *   validate_proc.c   child processes, programs on PATH, files, the temp directory
 *   cli_options.c     the options and configuration validate and profile read alike
 *   cli_temp_dir.c    the temporary directory they work in, and stale ones removed
 */
#ifndef TA_VALIDATE_H
#define TA_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../include/tinyaot/tinyaot.h"

/* The command, from main(): argv[1] is "validate". Returns the exit status. */
int tinyaot_cli_validate(int argc, char **argv);
/* Every configuration key with type, default and meaning (tinyaot.c). */
void tinyaot_cli_print_keys(FILE *out);

/* ---- validate_proc.c ---------------------------------------------------- */

/* Set by SIGINT/SIGTERM while validate runs: children are stopped and the
   temporary directory removed before exiting. */
extern volatile int va_interrupted;
void va_catch_signals(void);

/* How a child ended. */
typedef enum { VA_EXITED, VA_TIMED_OUT, VA_INTERRUPTED, VA_NOT_STARTED } VaEnd;

/* Runs argv (argv[0] looked up on PATH) in `cwd` (NULL: ours), stdin from
   /dev/null, stdout and stderr into `log_path` (NULL: ours), stopping it
   after `timeout_s` seconds (0: never). *status: exit code, or 128 + signal. */
VaEnd va_run(char *const *argv, const char *cwd, const char *log_path, int timeout_s, int *status);
/* The full path of a program: `name` itself when it holds a '/', else the
   first executable on PATH; NULL when there is none. Caller frees. */
char *va_find_program(const char *name);
/* Whole file into malloc'd memory (a NUL after it); NULL on error. */
unsigned char *va_read_file(const char *path, size_t *size);
bool va_write_file(const char *path, const void *data, size_t size);
/* Prints at most the last `max_lines` lines of a log file to `out`, indented. */
void va_print_log_tail(FILE *out, const char *path, int max_lines);
/* Every regular *.c file under `dir`, sorted, as malloc'd paths. */
char **va_list_c_files(const char *dir, size_t *count);
void va_free_list(char **list, size_t count);
/* malloc'd printf. */
char *va_format(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* ---- cli_options.c: what validate and profile read alike ------------------ */

/* The key and value of the option `option` (argv[*i] past its "--"):
   `KEY=VALUE` (a copy kept in owned[(*num_owned)++], the caller frees it)
   or `KEY` with the next argument as its value. 0, 2 (usage: no value, said
   on stderr, naming `command`) or 3 (no memory). */
int va_option_value(int argc, char **argv, int *i, const char *option, const char *command,
                    char **owned, int *num_owned, const char **key, const char **value);
/* model.path, platform.name and module.path of the configuration --config
   and the keys make, as convert reads them: malloc'd (free with
   va_free_config_paths), NULL where not given or when the configuration
   does not load (the conversion then says why). */
typedef struct VaConfigPaths {
    char *model, *platform, *module;
} VaConfigPaths;
VaConfigPaths va_read_config(const char *config, const tinyaot_option *keys, size_t n);
void va_free_config_paths(VaConfigPaths *p);
/* `s` as a JSON string ("null" for NULL); bytes as they are, but quotes,
   backslashes and control characters escaped. */
void va_json_string(FILE *out, const char *s);

/* ---- cli_temp_dir.c ----------------------------------------------------- */

/* Runs body(user, work) in a new directory TMPDIR/tinyaot-<command>.XXXXXX
   marked as this process's, with SIGINT, SIGTERM and SIGHUP caught
   (va_interrupted), and removes it afterwards unless `keep`. First removes
   the directories of earlier validate and profile runs killed with SIGKILL
   (cli_temp_dir.c says how they are told apart). Returns body's status,
   130 when interrupted, 3 when the directory cannot be made. */
int va_run_in_temp_dir(const char *command, bool keep, int (*body)(void *user, const char *work),
                       void *user);

/* ---- validate_compare.c ------------------------------------------------- */

/* A model input or output (or, for --layers, an intermediate tensor). */
typedef struct VaTensor {
    const char *name;
    const char *dtype;
    char shape[96];
    size_t itemsize;
    size_t bytes;
} VaTensor;

/* How far a float element may be from the reference: within `abs`
   (absolute) or within `ulps` units in the last place; both 0: bit for bit.
   Integer elements are always compared exactly. */
typedef struct VaTolerance {
    double abs;
    unsigned long long ulps;
} VaTolerance;

double va_element_value(const unsigned char *p, const VaTensor *t);
/* "absolute 1e-06 or 2 ulps", "none: bit for bit". */
void va_tolerance_text(const VaTolerance *tol, char *buf, size_t size);
/* Prints one line per output (float outputs with their error metrics);
   true when every output is within the tolerance, else `first_bad` names
   the first that is not. */
bool va_compare(const char *build, const unsigned char *got, const unsigned char *want,
                const VaTensor *outs, size_t num_out, size_t runs, const VaTolerance *tol,
                char *first_bad, size_t first_bad_size);

/* The elements of `t` (its bytes: every run) beyond the tolerance;
   *largest: the largest absolute difference. */
size_t va_beyond(const unsigned char *got, const unsigned char *want, const VaTensor *t,
                 const VaTolerance *tol, double *largest);

/* ---- validate_oracle.c --------------------------------------------------- */

/* Writes the built-in oracle script into work; its path (malloc'd) or NULL. */
char *va_write_oracle(const char *work);
/* Finds a Python that imports numpy and tflite_micro: `named` (from
   `named_how`, e.g. "--python") alone when given, else the candidates in
   order (validate_oracle.c). 0: *python (malloc'd) and `version` ("TFLite
   Micro 0.dev...") are set; else `tried` lists each candidate and why. */
int va_find_oracle(const char *named, const char *named_how, const char *script, const char *work,
                   char **python, char *version, size_t version_size, char *tried,
                   size_t tried_size);
/* Runs TFLite Micro on work/inputs.bin into work/expected.bin (and, with
   `layers_dir`, every computed tensor into it). 0 when done. */
int va_run_oracle(const char *python, const char *script, const char *work, const char *model,
                  size_t runs, const char *layers_dir);

/* ---- validate_build.c --------------------------------------------------- */

/* One module to build and run: a converted module directory and its I/O. */
typedef struct VaModule {
    const char *work; /* the temporary directory */
    const char *dir;  /* the module, inside work */
    const char *prefix;
    bool binds_arenas; /* memory.allocate_arenas: false: the runner binds them */
    size_t runs;
} VaModule;

/* A QEMU board the kit in tests/qemu models, for a target name; NULL if
   the target is not one of them. */
typedef struct VaBoard {
    const char *target;  /* "mps3_an547" */
    const char *machine; /* QEMU -M */
    const char *description;
    const char *const *cpu_flags;
    const char *board_macro;
    const char *cpu_hz;
    const char *num_irq;
    const char *linker_script; /* kit file name */
} VaBoard;
const VaBoard *va_board_for_target(const char *target);

/* Builds the module with the host runner ($CC or cc, $CFLAGS) and runs it
   on work/inputs.bin into work/<out_name>. 0 when it ran; else a message
   was printed. */
int va_build_and_run_host(const VaModule *m, const char *cc, const char *out_name);
/* Builds `main_source` with the module for the host and runs it (no
   arguments, in work); `what` names the step in messages. */
int va_build_and_run_host_main(const VaModule *m, const char *cc, const char *main_source,
                               const char *exe_name, const char *what);
/* The same for a board under QEMU (arm-none-eabi-gcc, qemu-system-arm). */
int va_build_and_run_qemu(const VaModule *m, const VaBoard *board, const char *gcc,
                          const char *qemu, const char *out_name);
/* Another program on the board: its sources (resource paths; the .c
   files among them are compiled after the kit's start-up, semihosting and
   icount), extra -D flags, its words after the ELF and its log's name in
   work. */
typedef struct VaQemuProgram {
    const char *const *resources;
    size_t num_resources;
    const char *const *defines; /* NULL-terminated, or NULL */
    const char *words;
    const char *run_log;
    bool print_instructions; /* module_runner's "instructions per run" line */
} VaQemuProgram;
int va_build_and_run_qemu_program(const VaModule *m, const VaBoard *b, const char *gcc,
                                  const char *qemu, const VaQemuProgram *p);
/* The command named in the messages of validate_build.c ("tinyaot validate"). */
extern const char *va_who;

/* ---- validate_test_case.c ------------------------------------------------ */

/* For a module converted with test.enabled: writes work/inputs.bin (the
   test case's stimulus) and work/expected.bin (its expected outputs) in
   the runners' layout. 0 when done; else a message was printed. */
int va_test_case_reference(const VaModule *m, const char *cc, size_t num_in, size_t num_out);

/* ---- validate_layers.c -------------------------------------------------- */

/* --layers: every operator's model tensors on the host build against
   TFLite Micro's (work/tflm_layers); prints what it compared and the first
   operator whose output differs. 0 all match; 1 one differs; 3 it could not. */
int va_compare_layers(const VaModule *m, const char *cc, const tinyaot_result *r,
                      const VaTolerance *tol, size_t runs);

#endif /* TA_VALIDATE_H */
