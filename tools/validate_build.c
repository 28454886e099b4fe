/*
 * validate_build.c - builds a converted module with a runner main and runs
 * it: on the host with $CC (tests/harness/host_runner.c), and on a Cortex-M
 * board under QEMU with the bare-metal kit of tests/qemu (module_runner.c,
 * start-up, semihosting, linker scripts), built the way tests/qemu/run.sh
 * builds. The runners and the kit are built into tinyaot (resources.c), so
 * validate needs no source tree; they are written into the temporary
 * directory next to the module.
 */
#define _POSIX_C_SOURCE 200809L
#include "validate.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../src/config/resources.h"

const char *va_who = "tinyaot validate";

/* The kit files a runner needs, by resource path. */
static const char *const host_kit[] = {"tests/harness/host_runner.c",
                                       "tests/harness/host_runner.h"};
static const char *const qemu_kit[] = {"tests/qemu/startup.c",    "tests/qemu/semihost.c",
                                       "tests/qemu/semihost.h",   "tests/qemu/icount.c",
                                       "tests/qemu/icount.h",     "tests/qemu/mps3_an547.ld",
                                       "tests/qemu/mps2_an386.ld"};

static const char *const m55_flags[] = {"-mcpu=cortex-m55", "-mfloat-abi=hard", NULL};
static const char *const m4_flags[] = {"-mcpu=cortex-m4", "-mfloat-abi=hard", "-mfpu=fpv4-sp-d16",
                                       NULL};

/* The boards of tests/qemu/README.md, keyed by the target file describing
   the same memory map (targets/mps3_an547.yaml, targets/mps2_an386.yaml). */
static const VaBoard boards[] = {
    {"mps3_an547", "mps3-an547", "Cortex-M55 (Helium) on QEMU mps3-an547", m55_flags,
     "TA_QEMU_BOARD_MPS3_AN547", "32000000", "96", "mps3_an547.ld"},
    {"mps2_an386", "mps2-an386", "Cortex-M4F (DSP) on QEMU mps2-an386", m4_flags,
     "TA_QEMU_BOARD_MPS2_AN386", "25000000", "32", "mps2_an386.ld"},
};

const VaBoard *va_board_for_target(const char *target)
{
    for (size_t i = 0; target && i < sizeof boards / sizeof boards[0]; i++)
        if (strcmp(boards[i].target, target) == 0)
            return &boards[i];
    return NULL;
}

/* Writes kit files into work/kit; returns that folder (malloc'd) or NULL. */
static char *write_kit(const char *work, const char *const *files, size_t n)
{
    char *kit = va_format("%s/kit", work);
    if (!kit)
        return NULL;
    mkdir(kit, 0755);
    for (size_t i = 0; i < n; i++) {
        const TaResource *r = ta_resource_find(files[i]);
        const char *base = strrchr(files[i], '/') + 1;
        char *path = va_format("%s/%s", kit, base);
        bool ok = r && path && va_write_file(path, r->data, r->size);
        free(path);
        if (!ok) {
            fprintf(stderr, "%s: cannot write the runner file %s into %s\n", va_who, files[i], kit);
            free(kit);
            return NULL;
        }
    }
    return kit;
}

/* A growing argv; a failed allocation is remembered and reported once. */
typedef struct Argv {
    char **items;
    size_t n, cap;
    bool failed;
} Argv;

static void arg_add(Argv *a, const char *s)
{
    if (a->failed)
        return;
    if (a->n + 2 > a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 32;
        char **bigger = realloc(a->items, cap * sizeof *bigger);
        if (!bigger) {
            a->failed = true;
            return;
        }
        a->items = bigger;
        a->cap = cap;
    }
    a->items[a->n] = s ? va_format("%s", s) : NULL;
    if (!a->items[a->n]) {
        a->failed = true;
        return;
    }
    a->items[++a->n] = NULL;
}

/* Adds each blank-separated word of `text` ($CC may be "ccache gcc"). */
static void arg_add_words(Argv *a, const char *text)
{
    for (const char *p = text; p && *p;) {
        while (*p == ' ' || *p == '\t')
            p++;
        size_t len = strcspn(p, " \t");
        if (len) {
            char *word = va_format("%.*s", (int)len, p);
            arg_add(a, word);
            free(word);
        }
        p += len;
    }
}

static void arg_free(Argv *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->items[i]);
    free(a->items);
}

static void print_command(FILE *out, const Argv *a)
{
    fprintf(out, "    $");
    for (size_t i = 0; i < a->n; i++)
        fprintf(out, " %s", a->items[i]);
    fprintf(out, "\n");
}

/* Runs a build or run step; prints what went wrong and the log's tail. */
static int step(const char *what, Argv *a, const char *cwd, const char *log, int timeout_s)
{
    if (a->failed) {
        fprintf(stderr, "%s: out of memory\n", va_who);
        return 1;
    }
    int status;
    VaEnd end = va_run(a->items, cwd, log, timeout_s, &status);
    if (end == VA_EXITED && status == 0)
        return 0;
    if (end == VA_INTERRUPTED)
        return 1;
    if (end == VA_TIMED_OUT)
        fprintf(stderr, "%s: %s took longer than %d s and was stopped\n", va_who, what, timeout_s);
    else if (end == VA_NOT_STARTED)
        fprintf(stderr, "%s: %s could not be started\n", va_who, what);
    else
        fprintf(stderr, "%s: %s failed (exit status %d):\n", va_who, what, status);
    print_command(stderr, a);
    va_print_log_tail(stderr, log, 30);
    return 1;
}

/* Compiles `main_source` with every C file of the module for the host
   into work/<exe_name>; `include` (NULL: none) is an extra -I. */
static int host_build(const VaModule *m, const char *cc, const char *main_source,
                      const char *include, const char *exe_name)
{
    size_t num_sources = 0;
    char **sources = va_list_c_files(m->dir, &num_sources);
    char *exe = va_format("%s/%s", m->work, exe_name);
    char *log = va_format("%s/%s_build.log", m->work, exe_name);
    char *define = va_format("-DTA_PREFIX=%s", m->prefix);
    char *what = va_format("the host build of %s (%s)", exe_name, cc);
    int result = 1;
    if (!sources || !exe || !log || !define || !what) {
        fprintf(stderr, "%s: cannot prepare the host build in %s\n", va_who, m->work);
    } else {
        Argv build = {0};
        arg_add_words(&build, cc);
        /* $CFLAGS replaces the default optimisation; warnings are shown only
           when the build fails (a module for a SIMD target warns on purpose
           when built without that target's flags). */
        const char *cflags = getenv("CFLAGS");
        arg_add_words(&build, cflags && *cflags ? cflags : "-O2");
        arg_add(&build, "-std=c99");
        /* As the module's build files: no fused multiply-add in float kernels. */
        arg_add(&build, "-ffp-contract=off");
        arg_add(&build, define);
        arg_add(&build, "-I");
        arg_add(&build, m->dir);
        if (include) {
            arg_add(&build, "-I");
            arg_add(&build, include);
        }
        arg_add(&build, main_source);
        for (size_t i = 0; i < num_sources; i++)
            arg_add(&build, sources[i]);
        arg_add(&build, "-lm");
        arg_add(&build, "-o");
        arg_add(&build, exe);
        result = step(what, &build, NULL, log, 600);
        arg_free(&build);
    }
    va_free_list(sources, num_sources);
    free(exe);
    free(log);
    free(define);
    free(what);
    return result;
}

int va_build_and_run_host(const VaModule *m, const char *cc, const char *out_name)
{
    char *kit = write_kit(m->work, host_kit, sizeof host_kit / sizeof host_kit[0]);
    char *runner = kit ? va_format("%s/host_runner.c", kit) : NULL;
    char *exe = va_format("%s/host_runner", m->work);
    char *log = va_format("%s/host_run.log", m->work);
    char *runs = va_format("%zu", m->runs);
    int result = 1;
    if (!runner || !exe || !log || !runs) {
        fprintf(stderr, "%s: cannot prepare the host build in %s\n", va_who, m->work);
    } else if (host_build(m, cc, runner, kit, "host_runner") == 0) {
        Argv run = {0};
        arg_add(&run, exe);
        arg_add(&run, "--module-dir");
        arg_add(&run, m->dir);
        arg_add(&run, "inputs.bin");
        arg_add(&run, out_name);
        arg_add(&run, runs);
        result = step("the module run on the host", &run, m->work, log, 600);
        arg_free(&run);
    }
    free(kit);
    free(runner);
    free(exe);
    free(log);
    free(runs);
    return result;
}

int va_build_and_run_host_main(const VaModule *m, const char *cc, const char *main_source,
                               const char *exe_name, const char *what)
{
    char *exe = va_format("%s/%s", m->work, exe_name);
    char *log = va_format("%s/%s_run.log", m->work, exe_name);
    int result = 1;
    if (!exe || !log) {
        fprintf(stderr, "%s: out of memory\n", va_who);
    } else if (host_build(m, cc, main_source, NULL, exe_name) == 0) {
        Argv run = {0};
        arg_add(&run, exe);
        result = step(what, &run, m->work, log, 600);
        arg_free(&run);
    }
    free(exe);
    free(log);
    return result;
}

/* `gcc -print-file-name=NAME` for the board's flags; malloc'd or NULL. */
static char *start_file(const VaBoard *b, const char *gcc, const char *work, const char *name)
{
    char *log = va_format("%s/print-file-name.txt", work);
    char *flag = va_format("-print-file-name=%s", name);
    char *path = NULL;
    Argv a = {0};
    arg_add(&a, gcc);
    for (size_t i = 0; b->cpu_flags[i]; i++)
        arg_add(&a, b->cpu_flags[i]);
    arg_add(&a, flag);
    if (log && flag) {
        remove(log);
        if (step("asking arm-none-eabi-gcc for its start files", &a, NULL, log, 60) == 0) {
            size_t size;
            unsigned char *text = va_read_file(log, &size);
            if (text) {
                text[strcspn((char *)text, "\r\n")] = '\0';
                path = va_format("%s", (char *)text);
                free(text);
            }
        }
    }
    arg_free(&a);
    free(log);
    free(flag);
    return path;
}

/* "module_runner: 3 runs, 12345 instructions per run" from the QEMU log. */
static void print_instructions(const char *log, const VaBoard *b)
{
    size_t size;
    unsigned char *text = va_read_file(log, &size);
    if (!text)
        return;
    const char *line = strstr((char *)text, "instructions per run");
    if (line) {
        while (line > (char *)text && line[-1] != '\n')
            line--;
        const char *end = strchr(line, '\n');
        printf("  %s: %.*s\n", b->machine, end ? (int)(end - line) : (int)strlen(line), line);
    }
    free(text);
}

int va_build_and_run_qemu_program(const VaModule *m, const VaBoard *b, const char *gcc,
                                  const char *qemu, const VaQemuProgram *p)
{
    static const char *const begin_names[] = {"crti.o", "crtbegin.o", "crt0.o"};
    static const char *const end_names[] = {"crtend.o", "crtn.o"};
    char *kit = write_kit(m->work, qemu_kit, sizeof qemu_kit / sizeof qemu_kit[0]);
    char *same_kit = kit && p->num_resources ? write_kit(m->work, p->resources, p->num_resources)
                                             : NULL;
    if (kit && p->num_resources && !same_kit) {
        free(kit);
        kit = NULL;
    }
    free(same_kit);
    size_t num_sources = 0;
    char **sources = kit ? va_list_c_files(m->dir, &num_sources) : NULL;
    char *crt_begin[3] = {0}, *crt_end[2] = {0};
    for (int i = 0; kit && i < 3; i++)
        crt_begin[i] = start_file(b, gcc, m->work, begin_names[i]);
    for (int i = 0; kit && i < 2; i++)
        crt_end[i] = start_file(b, gcc, m->work, end_names[i]);
    char *elf = va_format("%s/module.%s.elf", m->work, b->machine);
    char *build_log = va_format("%s/qemu_build.log", m->work);
    char *run_log = va_format("%s/%s", m->work, p->run_log);
    char *words = va_format("%s", p->words);
    int result = 1;
    bool have_crt = crt_begin[0] && crt_begin[1] && crt_begin[2] && crt_end[0] && crt_end[1];
    if (!sources || !have_crt || !elf || !build_log || !run_log || !words) {
        if (!va_interrupted) /* an interrupt stops the start-file queries too */
            fprintf(stderr, "%s: cannot prepare the %s build in %s\n", va_who, b->machine, m->work);
        goto done;
    }
    Argv build = {0};
    char *text;
    arg_add(&build, gcc);
    for (size_t i = 0; b->cpu_flags[i]; i++)
        arg_add(&build, b->cpu_flags[i]);
    arg_add_words(&build, "-std=c99 -O2 -g -ffp-contract=off -ffunction-sections -fdata-sections "
                          "-DTA_QEMU=1 -DTA_ICOUNT_SHIFT=5");
    text = va_format("-DTA_QEMU_BOARD=\"%s\"", b->machine);
    arg_add(&build, text);
    free(text);
    text = va_format("-D%s=1", b->board_macro);
    arg_add(&build, text);
    free(text);
    text = va_format("-DTA_QEMU_CPU_HZ=%s", b->cpu_hz);
    arg_add(&build, text);
    free(text);
    text = va_format("-DTA_QEMU_NUM_IRQ=%s", b->num_irq);
    arg_add(&build, text);
    free(text);
    text = va_format("-DTA_PREFIX=%s", m->prefix);
    arg_add(&build, text);
    free(text);
    text = va_format("-I%s", kit);
    arg_add(&build, text);
    free(text);
    text = va_format("-I%s", m->dir);
    arg_add(&build, text);
    free(text);
    arg_add_words(&build, "-nostartfiles --specs=rdimon.specs -T");
    text = va_format("%s/%s", kit, b->linker_script);
    arg_add(&build, text);
    free(text);
    for (int i = 0; i < 3; i++)
        arg_add(&build, crt_begin[i]);
    for (size_t i = 0; p->defines && p->defines[i]; i++)
        arg_add(&build, p->defines[i]);
    static const char *const kit_sources[] = {"startup.c", "semihost.c", "icount.c"};
    for (int i = 0; i < 3; i++) {
        text = va_format("%s/%s", kit, kit_sources[i]);
        arg_add(&build, text);
        free(text);
    }
    for (size_t i = 0; i < p->num_resources; i++) {
        const char *base = strrchr(p->resources[i], '/') + 1;
        if (strcmp(base + strlen(base) - 2, ".c") != 0)
            continue;
        text = va_format("%s/%s", kit, base);
        arg_add(&build, text);
        free(text);
    }
    for (size_t i = 0; i < num_sources; i++)
        arg_add(&build, sources[i]);
    for (int i = 0; i < 2; i++)
        arg_add(&build, crt_end[i]);
    /* Float kernels call the C library's math (sqrtf, expf, ...), newlib's
       libm on the target. A section the linker script does not place fails
       the build rather than landing anywhere. */
    arg_add_words(&build, "-lm -Wl,--gc-sections -Wl,--orphan-handling=error -o");
    arg_add(&build, elf);
    text = va_format("the %s build (%s)", b->machine, gcc);
    int failed = step(text, &build, NULL, build_log, 600);
    free(text);
    arg_free(&build);
    if (failed)
        goto done;
    Argv run = {0};
    arg_add(&run, qemu);
    arg_add(&run, "-M");
    arg_add(&run, b->machine);
    arg_add_words(&run, "-nographic -semihosting-config enable=on,target=native,chardev=serial0 "
                        "-icount shift=5 -kernel");
    arg_add(&run, elf);
    arg_add(&run, "-append");
    arg_add(&run, words);
    text = va_format("the module run on %s under QEMU", b->machine);
    result = step(text, &run, m->work, run_log, 900);
    free(text);
    arg_free(&run);
    if (result == 0 && p->print_instructions)
        print_instructions(run_log, b);
done:
    for (int i = 0; i < 3; i++)
        free(crt_begin[i]);
    for (int i = 0; i < 2; i++)
        free(crt_end[i]);
    va_free_list(sources, num_sources);
    free(kit);
    free(elf);
    free(build_log);
    free(run_log);
    free(words);
    return result;
}

int va_build_and_run_qemu(const VaModule *m, const VaBoard *b, const char *gcc, const char *qemu,
                          const char *out_name)
{
    static const char *const runner[] = {"tests/qemu/module_runner.c"};
    /* A module that binds its arenas gets its folder, for the sidecars. */
    const char *module_name = strrchr(m->dir, '/') ? strrchr(m->dir, '/') + 1 : m->dir;
    char *words = va_format("inputs.bin %s %zu%s%s", out_name, m->runs, m->binds_arenas ? " " : "",
                            m->binds_arenas ? module_name : "");
    if (!words) {
        fprintf(stderr, "%s: out of memory\n", va_who);
        return 1;
    }
    VaQemuProgram program = {runner, 1, NULL, words, "qemu_run.log", true};
    int result = va_build_and_run_qemu_program(m, b, gcc, qemu, &program);
    free(words);
    return result;
}
