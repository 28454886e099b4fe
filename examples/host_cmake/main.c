/*
 * main.c - classify one example window with the demo module and print the
 * top class with the dequantized scores. demo_quantize_input and
 * demo_dequantize_output (demo_model.h) convert between floats and the
 * model's I/O types: the same code serves an int8-in/int8-out model (the
 * demo model quantizes and dequantizes inside, so here they copy).
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
    status = demo_quantize_input(&ctx, 0, demo_windows[window - 1], DEMO_WINDOW_LEN);
    if (status == 0)
        status = demo_model_run(&ctx);
    float scores[4];
    if (status == 0)
        status = demo_dequantize_output(&ctx, 0, scores, 4);
    if (status != 0) {
        fprintf(stderr, "classify: %s (%d)\n", ta_status_name(status), status);
        return 1;
    }
    int best = 0;
    for (int k = 1; k < 4; k++)
        if (scores[k] > scores[best])
            best = k;
    printf("window %d: %s\n", window, demo_class_names[best]);
    for (int k = 0; k < 4; k++)
        printf("  %-11s %.4f%s\n", demo_class_names[k], scores[k], k == best ? "  <- top" : "");
    return 0;
}
