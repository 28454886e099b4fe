/*
 * test_channel_params.c - the per-channel parameters of coded layers
 * rebuilt at run time (runtime/kernels/ta_channel_params.c): shifts
 * widened from their bytes, and DEPTHWISE_CONV_2D's unfolded bias equal to
 * the bias the folding started from, modulo 2^32 (extreme biases, zero
 * points and weights, so the folding wraps); every input in a buffer of
 * exactly its size (AddressSanitizer in the sanitized build).
 */
#include "../../runtime/include/ta_status.h"
#include "../../runtime/kernels/ta_channel_params.h"

#include <stdlib.h>

#include "check.h"
#include "xorshift.h"

static uint32_t rng_state = 7u;

static uint32_t next_u32(void)
{
    return xorshift32(&rng_state);
}

static void check_rebuild(int32_t channels, int32_t taps, int32_t zero_point)
{
    int8_t *shifts8 = malloc((size_t)channels), *w = malloc((size_t)channels * (size_t)taps);
    int32_t *bias = malloc(sizeof(int32_t) * (size_t)channels);
    int32_t *sum = malloc(sizeof(int32_t) * (size_t)channels);
    int32_t *shifts = malloc(sizeof(int32_t) * (size_t)channels);
    int32_t *rebuilt = malloc(sizeof(int32_t) * (size_t)channels);
    for (int32_t c = 0; c < channels; c++) {
        shifts8[c] = (int8_t)((int32_t)(next_u32() % 63u) - 31);
        bias[c] = (int32_t)next_u32(); /* any int32, the extremes too */
    }
    for (int32_t i = 0; i < channels * taps; i++)
        w[i] = (int8_t)next_u32();
    for (int32_t c = 0; c < channels; c++) { /* the lowering's folding */
        int64_t s = 0;
        for (int32_t t = 0; t < taps; t++)
            s += w[t * channels + c];
        sum[c] = (int32_t)(uint32_t)(uint64_t)((int64_t)bias[c] - (int64_t)zero_point * s);
    }
    const ta_channel_params_params_t p = {
        .channels = channels, .taps = taps, .zero_point = zero_point};
    CHECK(ta_channel_params(&p, shifts8, sum, w, shifts, rebuilt) == TA_OK, "status");
    for (int32_t c = 0; c < channels; c++) {
        CHECK(shifts[c] == shifts8[c], "channel %d: shift %d of %d", (int)c, (int)shifts[c],
              (int)shifts8[c]);
        CHECK(rebuilt[c] == bias[c],
              "channels %d taps %d zero point %d: channel %d bias %ld, "
              "not %ld",
              (int)channels, (int)taps, (int)zero_point, (int)c, (long)rebuilt[c], (long)bias[c]);
    }
    const ta_channel_params_params_t shifts_only = {.channels = channels};
    CHECK(ta_channel_params(&shifts_only, shifts8, NULL, NULL, shifts, NULL) == TA_OK, "status");
    free(rebuilt);
    free(shifts);
    free(sum);
    free(bias);
    free(w);
    free(shifts8);
}

int main(void)
{
    static const int32_t zero_points[] = {-128, -1, 1, 5, 127};
    for (int32_t channels = 1; channels <= 70; channels += 23)
        for (int32_t taps = 1; taps <= 49; taps += 8)
            for (size_t z = 0; z < sizeof zero_points / sizeof zero_points[0]; z++)
                check_rebuild(channels, taps, zero_points[z]);
    return check_summary("channel_params");
}
