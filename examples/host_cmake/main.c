/*
 * main.c - classify one example window with the demo module and print the
 * top class with the dequantized scores (the demo model ends in a
 * DEQUANTIZE, so its output is float32 probabilities).
 *
 *   classify [WINDOW]     WINDOW 1..4 (flat, rising, falling, oscillating)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo_model.h"
#include "demo_windows.h"

int main(int argc, char **argv)
{
    int window = argc > 1 ? atoi(argv[1]) : 1;
    if (window < 1 || window > DEMO_NUM_WINDOWS) {
        fprintf(stderr, "usage: classify [WINDOW 1..%d]\n", DEMO_NUM_WINDOWS);
        return 2;
    }
    demo_model_context_t ctx;
    int status = demo_model_init(&ctx);
    if (status != 0) {
        fprintf(stderr, "demo_model_init: %s (%d)\n", ta_status_name(status), status);
        return 1;
    }
    if (ctx.inputs[0].size != sizeof demo_windows[0]) {
        fprintf(stderr, "the module's input is %zu bytes, a window %zu\n", ctx.inputs[0].size,
                sizeof demo_windows[0]);
        return 1;
    }
    memcpy(ctx.inputs[0].data, demo_windows[window - 1], sizeof demo_windows[0]);
    status = demo_model_run(&ctx);
    if (status != 0) {
        fprintf(stderr, "demo_model_run: %s (%d)\n", ta_status_name(status), status);
        return 1;
    }
    const float *scores = ctx.outputs[0].data;
    int best = 0;
    for (int k = 1; k < 4; k++)
        if (scores[k] > scores[best])
            best = k;
    printf("window %d: %s\n", window, demo_class_names[best]);
    for (int k = 0; k < 4; k++)
        printf("  %-11s %.4f%s\n", demo_class_names[k], scores[k], k == best ? "  <- top" : "");
    return 0;
}
