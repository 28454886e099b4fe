/*
 * main.c - the Cortex-M55 example firmware: prepares the module's memories
 * from the tables of demo_sections.ld, runs the module's built-in test case
 * (converted with test.enabled: true), then classifies the four example
 * windows and prints the probabilities and the instructions each inference
 * took (QEMU -icount: exact, see tests/qemu/README.md).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "demo_model.h"
#include "demo_test_case.h"
#include "demo_windows.h"
#include "icount.h"

/* From demo_sections.ld. */
extern const uint32_t __demo_copy_table_start[], __demo_copy_table_end[];
extern const uint32_t __demo_zero_table_start[], __demo_zero_table_end[];

/* What a real start-up file does before main(): initial bytes of volatile
   sections come from flash, *_bss sections start at zero. */
static void init_module_sections(void)
{
    for (const uint32_t *e = __demo_copy_table_start; e < __demo_copy_table_end; e += 3)
        memcpy((void *)(uintptr_t)e[1], (const void *)(uintptr_t)e[0], e[2]);
    for (const uint32_t *e = __demo_zero_table_start; e < __demo_zero_table_end; e += 2)
        memset((void *)(uintptr_t)e[0], 0, e[1]);
}

static void report_mismatch(void *user_data, const demo_test_case_mismatch_t *m)
{
    (void)user_data;
    printf("test case: run %d, output %d, element %lu: expected %g, got %g\n", m->run, m->output,
           (unsigned long)m->element, m->expected, m->actual);
}

int main(void)
{
    init_module_sections();
    demo_model_context_t ctx;
    demo_test_case_set_report(report_mismatch, NULL);
    int status = demo_test_case_run(&ctx);
    printf("test case: %s (%d runs, status %d %s)\n", status == 0 ? "passed" : "FAILED",
           DEMO_TEST_CASE_RUNS, status, ta_status_name(status));
    if (status != 0)
        return 3;
    status = demo_model_init(&ctx);
    if (status != 0) {
        printf("demo_model_init failed: %d (%s)\n", status, ta_status_name(status));
        return 1;
    }
    int wrong = 0;
    for (int w = 0; w < DEMO_NUM_WINDOWS; w++) {
        float p[4];
        uint64_t instructions = 0;
        status = demo_quantize_input(&ctx, 0, demo_windows[w], DEMO_WINDOW_LEN);
        if (status == 0) {
            /* Only the run is counted, not the conversions around it. */
            ta_icount_start();
            status = demo_model_run(&ctx);
            instructions = ta_icount_stop();
        }
        if (status == 0)
            status = demo_dequantize_output(&ctx, 0, p, 4);
        if (status != 0) {
            printf("inference failed: %d (%s)\n", status, ta_status_name(status));
            return 1;
        }
        int best = 0;
        for (int k = 1; k < 4; k++)
            if (p[k] > p[best])
                best = k;
        printf("window %d (%-11s): p = [", w + 1, demo_class_names[w]);
        for (int k = 0; k < 4; k++)
            printf("%s%.4f", k ? " " : "", (double)p[k]);
        printf("] -> %s, %lu instructions\n", demo_class_names[best], (unsigned long)instructions);
        wrong += best != w;
    }
    printf("%s\n", wrong ? "misclassified windows" : "all 4 windows classified correctly");
    return wrong ? 2 : 0;
}
