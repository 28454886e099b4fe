/*
 * selftest.c - checks the QEMU kit itself on mps3-an547 and mps2-an386.
 *
 * Usage (see run.sh):  run.sh --board BOARD selftest.c -- [OUTFILE] [--fault]
 *
 *  1. Arena sections: a variable in every *_bss section of the board lies in
 *     its memory and reads zero. The program then dirties them, jumps back
 *     to Reset_Handler and checks that startup zeroed them again (QEMU's RAM
 *     starts zeroed, so only the second look proves the zeroing). Constants
 *     in every *_data section read back; on mps3-an547 a write to the MRAM
 *     (QSPI ROM) is ignored.
 *  2. FPU, and Helium on the Cortex-M55, execute (CPACR was set).
 *  3. Semihosting: console output, the command line, writing a host file
 *     (OUTFILE, default ta_qemu_selftest.bin in QEMU's working directory),
 *     its size, reading it back, a too-small buffer, a missing file.
 *  4. Instruction counts: an empty measurement is 0, a two-instruction
 *     subs/bne loop of N iterations counts 2N (+0..4), for N up to 2.5e7
 *     (two or three 2^24-tick SysTick wraps, whose handler is not counted),
 *     and repeated runs agree exactly. On the Cortex-M55 a tail-predicated
 *     Helium loop counts four instructions per iteration.
 * With --fault it executes an undefined instruction instead, and the fault
 * handler must end the run with status 70.
 *
 * Exits 0 when every check passed, 1 otherwise.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "icount.h"
#include "semihost.h"

#if defined(__ARM_FEATURE_MVE)
#include <arm_mve.h>
#endif

extern void Reset_Handler(void) __attribute__((noreturn));

/* ------------------------------------------------------------------ */
/* Board memory map, written out independently of the linker scripts. */

typedef struct {
    const char *name;
    uintptr_t base;
    uintptr_t size;
} region_t;

#if defined(TA_QEMU_BOARD_MPS3_AN547)
static const region_t itcm = {"ITCM", 0x00000000u, 512u * 1024u};
static const region_t dtcm = {"DTCM", 0x20000000u, 512u * 1024u};
static const region_t sram = {"SRAM", 0x01000000u, 2u * 1024u * 1024u};
static const region_t psram = {"PSRAM", 0x21000000u, 4u * 1024u * 1024u};
static const region_t mram = {"MRAM", 0x28000000u, 8u * 1024u * 1024u};
#define HAS_TCM 1
#define MRAM_IS_ROM 1
#elif defined(TA_QEMU_BOARD_MPS2_AN386)
static const region_t sram = {"SRAM", 0x20000000u, 4u * 1024u * 1024u};
static const region_t psram = {"PSRAM", 0x21000000u, 16u * 1024u * 1024u};
static const region_t mram = {"MRAM", 0x00200000u, 2u * 1024u * 1024u};
#define HAS_TCM 0
#define MRAM_IS_ROM 0
#else
#error "build with run.sh: it defines the TA_QEMU_BOARD_* macro"
#endif

/* ------------------------------------------------------------------ */
/* Objects placed in the arena sections. */

#define WORDS 8

#if HAS_TCM
static uint32_t itcm_bss[WORDS] __attribute__((section(".itcm_bss")));
static uint32_t dtcm_bss[WORDS] __attribute__((section(".dtcm_bss")));
static const uint32_t itcm_data[WORDS] __attribute__((section(".itcm_data"))) = {
    0x1001u, 0x1002u, 0x1003u, 0x1004u, 0x1005u, 0x1006u, 0x1007u, 0x1008u};
static const uint32_t dtcm_data[WORDS] __attribute__((section(".dtcm_data"))) = {
    0x2001u, 0x2002u, 0x2003u, 0x2004u, 0x2005u, 0x2006u, 0x2007u, 0x2008u};
#endif
static uint32_t sram_bss[WORDS] __attribute__((section(".sram_bss")));
static uint32_t psram_bss[WORDS] __attribute__((section(".psram_bss")));
static const uint32_t sram_data[WORDS] __attribute__((section(".sram_data"))) = {
    0x3001u, 0x3002u, 0x3003u, 0x3004u, 0x3005u, 0x3006u, 0x3007u, 0x3008u};
static const uint32_t psram_data[WORDS] __attribute__((section(".psram_data"))) = {
    0x4001u, 0x4002u, 0x4003u, 0x4004u, 0x4005u, 0x4006u, 0x4007u, 0x4008u};
static const uint32_t mram_data[WORDS]
    __attribute__((section(".mram_data"))) = {0xA5A50001u, 0xA5A50002u, 0xA5A50003u, 0xA5A50004u,
                                              0xA5A50005u, 0xA5A50006u, 0xA5A50007u, 0xA5A50008u};

static uint32_t plain_bss[WORDS]; /* ordinary .bss, zeroed by crt0 */

/* Survives the jump back to Reset_Handler (neither loaded nor zeroed). */
#define RESTART_MAGIC 0x5EB007EDu
static uint32_t restart_flag __attribute__((section(".noinit")));

typedef struct {
    const char *name;
    const region_t *region;
    uint32_t *words;
} bss_object_t;

static const bss_object_t bss_objects[] = {
#if HAS_TCM
    {".itcm_bss", &itcm, itcm_bss}, {".dtcm_bss", &dtcm, dtcm_bss},
#endif
    {".sram_bss", &sram, sram_bss}, {".psram_bss", &psram, psram_bss}, {".bss", NULL, plain_bss},
};
#define NUM_BSS (sizeof bss_objects / sizeof bss_objects[0])

typedef struct {
    const char *name;
    const region_t *region;
    const uint32_t *words;
    uint32_t first;
} data_object_t;

static const data_object_t data_objects[] = {
#if HAS_TCM
    {".itcm_data", &itcm, itcm_data, 0x1001u},     {".dtcm_data", &dtcm, dtcm_data, 0x2001u},
#endif
    {".sram_data", &sram, sram_data, 0x3001u},     {".psram_data", &psram, psram_data, 0x4001u},
    {".mram_data", &mram, mram_data, 0xA5A50001u},
};
#define NUM_DATA (sizeof data_objects / sizeof data_objects[0])

/* ------------------------------------------------------------------ */
/* Check bookkeeping: semihosting only, so it works before the restart. */

static unsigned checks_run;
static unsigned checks_failed;

static void check(int ok, const char *what)
{
    checks_run++;
    if (!ok) {
        checks_failed++;
        ta_semihost_write_str("FAIL: ");
        ta_semihost_write_str(what);
        ta_semihost_write_str("\n");
    }
}

static int in_region(const void *p, size_t bytes, const region_t *r)
{
    uintptr_t a = (uintptr_t)p;

    return a >= r->base && a - r->base <= r->size && bytes <= r->size - (a - r->base);
}

/* Reads a word the compiler cannot fold from the initializer. */
static uint32_t peek(const uint32_t *p)
{
    return *(const volatile uint32_t *)p;
}

static int all_zero(const uint32_t *words)
{
    int i;

    for (i = 0; i < WORDS; i++)
        if (peek(&words[i]) != 0)
            return 0;
    return 1;
}

/* ------------------------------------------------------------------ */

static void check_bss_first_pass(void)
{
    size_t i;
    int k;

    for (i = 0; i < NUM_BSS; i++) {
        const bss_object_t *o = &bss_objects[i];

        if (o->region != NULL)
            check(in_region(o->words, sizeof(uint32_t) * WORDS, o->region), o->name);
        check(all_zero(o->words), o->name);
        for (k = 0; k < WORDS; k++)
            ((volatile uint32_t *)o->words)[k] = 0xDEAD0000u + (uint32_t)k;
        check(!all_zero(o->words), "dirtying a bss object");
    }
}

static void check_bss_after_restart(void)
{
    size_t i;

    for (i = 0; i < NUM_BSS; i++)
        check(all_zero(bss_objects[i].words), bss_objects[i].name);
}

static void check_data_sections(void)
{
    size_t i;
    int k;

    for (i = 0; i < NUM_DATA; i++) {
        const data_object_t *o = &data_objects[i];
        int ok = in_region(o->words, sizeof(uint32_t) * WORDS, o->region);

        for (k = 0; k < WORDS; k++)
            ok = ok && peek(&o->words[k]) == o->first + (uint32_t)k;
        check(ok, o->name);
    }
#if MRAM_IS_ROM
    /* The QSPI ROM ignores writes: the MRAM really is read-only here. */
    *(volatile uint32_t *)(uintptr_t)&mram_data[0] = 0x12345678u;
    check(peek(&mram_data[0]) == 0xA5A50001u, "MRAM write ignored");
#endif
}

static void check_fpu(void)
{
    volatile float a = 1.5f, b = -2.25f;
    volatile double c = 3.0;
    float r = a * b;

    check(r == -3.375f, "FPU single precision");
    check(c / 4.0 == 0.75, "double precision");
#if defined(__ARM_FEATURE_MVE)
    {
        static const int8_t x[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
        static const int8_t y[16] = {1, -1, 1, -1, 1, -1, 1, -1, 2, 2, 2, 2, -2, -2, -2, -2};
        int8x16_t vx = vld1q_s8(x), vy = vld1q_s8(y);
        int32_t dot = vmladavq_s8(vx, vy);

        /* (1-2+3-4+5-6+7-8) + 2*(9+10+11+12) - 2*(13+14+15+16) = -4 - 32 */
        check(dot == -36, "Helium vmladavq_s8");
    }
#endif
}

/* ------------------------------------------------------------------ */

static void check_files(const char *path)
{
    static uint8_t out[1000], in[1000], small[10];
    uint32_t state = 12345u;
    size_t size = 0, i;
    int status;

    for (i = 0; i < sizeof out; i++) {
        state = state * 1103515245u + 12345u;
        out[i] = (uint8_t)(state >> 16);
    }
    status = ta_semihost_write_file(path, out, sizeof out);
    check(status == TA_SEMIHOST_OK, "write_file");
    check(ta_semihost_file_size(path) == (long)sizeof out, "file_size");
    status = ta_semihost_read_file(path, in, sizeof in, &size);
    check(status == TA_SEMIHOST_OK && size == sizeof out, "read_file");
    check(memcmp(in, out, sizeof out) == 0, "read_file contents");
    status = ta_semihost_read_file(path, small, sizeof small, &size);
    check(status == TA_SEMIHOST_ERR_TOO_BIG && size == sizeof out, "read_file into a small buffer");
    status = ta_semihost_read_file("ta_qemu_no_such_file.bin", in, sizeof in, &size);
    check(status == TA_SEMIHOST_ERR_OPEN, "read_file of a missing file");
    check(ta_semihost_write_file(path, out, 0) == TA_SEMIHOST_OK &&
              ta_semihost_file_size(path) == 0,
          "empty file");
}

/* ------------------------------------------------------------------ */

static uint64_t count_loop(uint32_t iterations)
{
    uint32_t n = iterations;

    ta_icount_start();
    /* clang-format off */
    __asm__ volatile("1:\n\t"
                     "subs %0, %0, #1\n\t"
                     "bne 1b"
                     : "+r"(n)
                     :
                     : "cc");
    /* clang-format on */
    return ta_icount_stop();
}

static void check_icount(void)
{
    static const uint32_t sizes[] = {1000u, 1000000u, 25000000u};
    uint64_t empty, count, again;
    size_t i;

    ta_icount_start();
    empty = ta_icount_stop();
    printf("icount: empty measurement %llu instructions (pair overhead %llu "
           "ticks)\n",
           (unsigned long long)empty, (unsigned long long)ta_icount_overhead_ticks());
    check(empty == 0, "icount of an empty measurement");

    for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        uint64_t expected = 2u * (uint64_t)sizes[i];
        uint64_t ticks, wraps, slack;

        count = count_loop(sizes[i]);
        ticks = ta_icount_last_ticks();
        again = count_loop(sizes[i]);
        /* Up to 4 for rounding and the loop's set-up; the SysTick handler
           (once per 2^24-tick wrap) is not counted. */
        wraps = ticks >> 24;
        slack = 4u;
        printf("icount: subs/bne x %lu: %llu instructions (%llu ticks, "
               "%llu wraps), expected %llu..%llu\n",
               (unsigned long)sizes[i], (unsigned long long)count, (unsigned long long)ticks,
               (unsigned long long)wraps, (unsigned long long)expected,
               (unsigned long long)(expected + slack));
        check(count >= expected && count <= expected + slack, "icount loop");
        check(again == count && ta_icount_last_ticks() == ticks, "icount repeatable");
    }
}

#if defined(__ARM_FEATURE_MVE)
/*
 * A tail-predicated Helium dot product: four instructions per 16 bytes
 * (two vldrb.8, vmladava.s8, letp), as in the notes' measurement. Checks
 * both the sum, against plain C, and the count: QEMU counts the letp once
 * per iteration.
 */
static void check_icount_mve(void)
{
    enum { BYTES = 65536 - 5 };
    static int8_t a[BYTES], b[BYTES];
    uint32_t seed = 7u, iterations = (BYTES + 15) / 16;
    int32_t expected_sum = 0;
    uint64_t count, expected;
    size_t i;

    for (i = 0; i < BYTES; i++) {
        seed = seed * 1664525u + 1013904223u;
        a[i] = (int8_t)(seed >> 24);
        b[i] = (int8_t)(seed >> 16);
        expected_sum += (int32_t)a[i] * (int32_t)b[i];
    }
    {
        const int8_t *pa = a, *pb = b;
        uint32_t n = BYTES;
        int32_t sum = 0;

        ta_icount_start();
        /* vmladava needs an even accumulator: GCC's "Te" constraint. */
        /* clang-format off */
        __asm__ volatile("dlstp.8 lr, %[n]\n"
                         "1:\n\t"
                         "vldrb.8 q0, [%[pa]], #16\n\t"
                         "vldrb.8 q1, [%[pb]], #16\n\t"
                         "vmladava.s8 %[sum], q0, q1\n\t"
                         "letp lr, 1b"
                         : [pa] "+r"(pa), [pb] "+r"(pb), [sum] "+Te"(sum)
                         : [n] "r"(n)
                         : "lr", "d0", "d1", "d2", "d3", "memory");
        /* clang-format on */
        count = ta_icount_stop();
        check(sum == expected_sum, "Helium dot product sum");
    }
    /* Slack: dlstp, rounding, and at -O0 up to 7 loads and stores of the
       operands around the asm. */
    expected = 4u * (uint64_t)iterations;
    printf("icount: Helium dot product, %lu iterations: %llu instructions "
           "(%llu ticks), expected %llu..%llu\n",
           (unsigned long)iterations, (unsigned long long)count,
           (unsigned long long)ta_icount_last_ticks(), (unsigned long long)expected,
           (unsigned long long)(expected + 10u));
    check(count >= expected && count <= expected + 10u, "icount Helium loop");
}
#endif

/* ------------------------------------------------------------------ */

/* Splits the semihosting command line; word 0 is the ELF file name. */
static int split_words(char *line, char **words, int max_words)
{
    int n = 0;
    char *p = line;

    while (*p != '\0' && n < max_words) {
        while (*p == ' ')
            *p++ = '\0';
        if (*p == '\0')
            break;
        words[n++] = p;
        while (*p != '\0' && *p != ' ')
            p++;
    }
    return n;
}

int main(void)
{
    static char cmdline[512];
    char *words[8];
    const char *outfile = "ta_qemu_selftest.bin";
    int nwords, i, fault = 0;

    if (restart_flag != RESTART_MAGIC) {
        /* First pass: semihosting only, newlib's state must stay clean. */
        ta_semihost_write_str("selftest: first pass, restarting\n");
        check_bss_first_pass();
        if (checks_failed != 0)
            return 1;
        restart_flag = RESTART_MAGIC;
        Reset_Handler();
    }
    restart_flag = 0;
    check_bss_after_restart();
    printf("selftest: board %s, after restart\n", TA_QEMU_BOARD);

    check_data_sections();
    check_fpu();

    nwords = ta_semihost_cmdline(cmdline, sizeof cmdline);
    check(nwords > 0, "cmdline");
    nwords = nwords > 0 ? split_words(cmdline, words, 8) : 0;
    for (i = 1; i < nwords; i++) {
        if (strcmp(words[i], "--fault") == 0)
            fault = 1;
        else
            outfile = words[i];
    }
    if (fault) {
        printf("selftest: executing an undefined instruction\n");
        fflush(stdout);
        __builtin_trap();
    }

    ta_semihost_write_str("semihost: int ");
    ta_semihost_write_int(-1234567890123LL);
    ta_semihost_write_str(" uint ");
    ta_semihost_write_uint(18446744073709551615ull);
    ta_semihost_write_str(" hex ");
    ta_semihost_write_hex(0x89abcdefu);
    ta_semihost_write_str("\n");

    check_files(outfile);
    check_icount();
#if defined(__ARM_FEATURE_MVE)
    check_icount_mve();
#endif

    printf("selftest: %u checks, %u failed\n", checks_run, checks_failed);
    return checks_failed == 0 ? 0 : 1;
}
