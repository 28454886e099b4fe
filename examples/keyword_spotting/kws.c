/*
 * kws.c - keyword spotting from audio with two tinyaot modules: the audio
 * preprocessor (prefix pre, TFLite Micro's micro_speech front end) turns
 * each 30 ms window of a 16 kHz recording, every 20 ms, into 40 int8
 * features; 49 windows (one second) make the micro_speech model's input
 * (prefix ms), which scores silence, unknown, yes and no.
 *
 *   kws FILE.wav...     16-bit mono PCM at 16 kHz, at least one second
 *
 * Prints, per file, the top label and the four scores (dequantized).
 * One preprocessor instance runs per recording: its noise estimate carries
 * from window to window, as in the upstream example.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms_model.h"
#include "pre_model.h"

enum { WINDOW = 480, STEP = 320, FRAMES = 49, FEATURES = 40, LABELS = 4 };
static const char *const labels[LABELS] = {"silence", "unknown", "yes", "no"};

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The samples of a 16-bit mono WAV file (malloc'd), or NULL with a message. */
static int16_t *read_wav(const char *path, size_t *count)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "kws: cannot open %s\n", path);
        return NULL;
    }
    unsigned char header[12], chunk[8], fmt[16] = {0};
    int16_t *samples = NULL;
    if (fread(header, 1, 12, f) != 12 || memcmp(header, "RIFF", 4) || memcmp(header + 8, "WAVE", 4))
        goto bad;
    while (fread(chunk, 1, 8, f) == 8) {
        const uint32_t size = le32(chunk + 4);
        if (!memcmp(chunk, "fmt ", 4)) {
            if (size < 16 || fread(fmt, 1, 16, f) != 16 || fseek(f, (long)(size - 16), SEEK_CUR))
                goto bad;
        } else if (!memcmp(chunk, "data", 4)) {
            /* PCM, one channel, 16 kHz, 16 bits */
            if (fmt[0] != 1 || fmt[2] != 1 || le32(fmt + 4) != 16000 || fmt[14] != 16)
                goto bad;
            *count = size / 2;
            samples = malloc(*count * sizeof *samples + 1);
            if (!samples || fread(samples, 2, *count, f) != *count)
                goto bad;
            fclose(f);
            return samples; /* little-endian host assumed, as the modules' tests */
        } else if (fseek(f, (long)(size + (size & 1)), SEEK_CUR)) {
            goto bad;
        }
    }
bad:
    fprintf(stderr, "kws: %s is not a 16-bit mono 16 kHz PCM WAV file\n", path);
    free(samples);
    fclose(f);
    return NULL;
}

/* The micro_speech input: FRAMES x FEATURES int8 from the preprocessor. */
static int features(const int16_t *samples, int8_t *out)
{
    pre_model_context_t pre;
    int status = pre_model_init(&pre);
    for (int frame = 0; status == TA_OK && frame < FRAMES; frame++) {
        memcpy(pre.inputs[0].data, samples + (size_t)frame * STEP, WINDOW * sizeof(int16_t));
        status = pre_model_run(&pre);
        if (status == TA_OK)
            memcpy(out + frame * FEATURES, pre.outputs[0].data, FEATURES);
    }
    return status;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: kws FILE.wav...\n");
        return 2;
    }
    for (int a = 1; a < argc; a++) {
        size_t count = 0;
        int16_t *samples = read_wav(argv[a], &count);
        if (!samples)
            return 1;
        if (count < (size_t)(FRAMES - 1) * STEP + WINDOW) {
            fprintf(stderr, "kws: %s is shorter than one second\n", argv[a]);
            free(samples);
            return 1;
        }
        ms_model_context_t ms;
        float scores[LABELS];
        int status = ms_model_init(&ms);
        if (status == TA_OK)
            status = features(samples, ms.inputs[0].data);
        if (status == TA_OK)
            status = ms_model_run(&ms);
        if (status == TA_OK)
            status = ms_dequantize_output(&ms, 0, scores, LABELS);
        free(samples);
        if (status != TA_OK) {
            fprintf(stderr, "kws: %s: %s (%d)\n", argv[a], ta_status_name(status), status);
            return 1;
        }
        int best = 0;
        for (int k = 1; k < LABELS; k++)
            if (scores[k] > scores[best])
                best = k;
        printf("%s: %s", argv[a], labels[best]);
        for (int k = 0; k < LABELS; k++)
            printf(" %s=%.3f", labels[k], scores[k]);
        printf("\n");
    }
    return 0;
}
