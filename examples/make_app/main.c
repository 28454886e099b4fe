/*
 * main.c - classify every window of a raw float32 file (16 values per
 * window, e.g. examples/demo/inputs.bin) with the demo module, running the
 * module once per window, and print the top class of each with its
 * dequantized score (demo_quantize_input / demo_dequantize_output).
 *
 *   classify_file FILE
 */
#include <stdio.h>

#include "demo_model.h"
#include "demo_windows.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: classify_file FILE\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    demo_model_context_t ctx;
    int status = demo_model_init(&ctx);
    if (status != 0) {
        fprintf(stderr, "demo_model_init: %s (%d)\n", ta_status_name(status), status);
        fclose(f);
        return 1;
    }
    float window[DEMO_WINDOW_LEN];
    int n = 0;
    while (fread(window, sizeof window, 1, f) == 1) {
        float scores[4];
        status = demo_quantize_input(&ctx, 0, window, DEMO_WINDOW_LEN);
        if (status == 0)
            status = demo_model_run(&ctx);
        if (status == 0)
            status = demo_dequantize_output(&ctx, 0, scores, 4);
        if (status != 0) {
            fprintf(stderr, "classify_file: %s (%d)\n", ta_status_name(status), status);
            fclose(f);
            return 1;
        }
        int best = 0;
        for (int k = 1; k < 4; k++)
            if (scores[k] > scores[best])
                best = k;
        printf("window %d: %s (%.4f)\n", ++n, demo_class_names[best], scores[best]);
    }
    fclose(f);
    return n > 0 ? 0 : 1;
}
