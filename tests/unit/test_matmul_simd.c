/*
 * test_matmul_simd.c - the helpers of runtime/include/ta_matmul_simd.h
 * against the reference forms: ta_mm_mul_q against ta_quant.h's
 * ta_mul_by_quantized_multiplier (edge values and random ones, every
 * shift the converter produces), the dot products against plain loops
 * (lengths 0..70, wrap-around sums). Built for the host, so it checks the
 * portable path; the SIMD paths are checked against TFLite Micro under
 * QEMU (tests/test_simd.py).
 */
#include "../../runtime/include/ta_matmul_simd.h"

#include <stdio.h>
#include <stdlib.h>

#include "xorshift.h"

static uint32_t rng_state = 12345u;

static uint32_t next_u32(void)
{
    return xorshift32(&rng_state);
}

static int failures;

static void check_mul_q(int32_t x, int32_t m, int32_t shift)
{
    const int32_t want = ta_mul_by_quantized_multiplier(x, m, (int)shift);
    const int32_t got = ta_mm_mul_q(x, m, shift);
    if (want != got && failures++ < 10)
        fprintf(stderr, "mul_q(%ld, %ld, %ld) = %ld, expected %ld\n", (long)x, (long)m, (long)shift,
                (long)got, (long)want);
}

static void test_mul_q(void)
{
    static const int32_t xs[] = {0,
                                 1,
                                 -1,
                                 2,
                                 -2,
                                 INT32_MAX,
                                 INT32_MIN,
                                 INT32_MAX - 1,
                                 INT32_MIN + 1,
                                 1 << 30,
                                 -(1 << 30),
                                 12345,
                                 -12345,
                                 65535,
                                 -65536,
                                 (1 << 15),
                                 -(1 << 15) - 1};
    static const int32_t ms[] = {
        0, 1, 1 << 30, INT32_MAX, INT32_MIN, (1 << 30) + 1, 1518500250, 2147418112};
    for (int32_t shift = -31; shift <= 30; shift++) {
        for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++)
            for (size_t j = 0; j < sizeof ms / sizeof ms[0]; j++)
                check_mul_q(xs[i], ms[j], shift);
        for (int k = 0; k < 20000; k++) {
            const int32_t m = (int32_t)((next_u32() >> 1) | (1u << 30));
            int32_t x = (int32_t)next_u32();
            if (k & 1)
                x >>= next_u32() % 31; /* small magnitudes too */
            check_mul_q(x, m, shift);
            /* Ties of the final rounding shift, both signs. */
            if (shift < 0)
                check_mul_q((int32_t)((next_u32() & 0xFFFFu) << 8) - (1 << 23), m, shift);
        }
    }
}

static int32_t dot_ref(const int8_t *w, const int8_t *x, int32_t n, int32_t acc)
{
    uint32_t sum = (uint32_t)acc;
    for (int32_t k = 0; k < n; k++)
        sum += (uint32_t)((int32_t)w[k] * (int32_t)x[k]);
    return (int32_t)sum;
}

static void test_dots(void)
{
    int8_t w[4 * 80], x[80];
    int16_t w16[80], x16[80];
    for (int32_t n = 0; n <= 70; n++) {
        for (int trial = 0; trial < 20; trial++) {
            const int32_t stride = n + (int32_t)(next_u32() % 5);
            for (size_t i = 0; i < sizeof w; i++)
                w[i] = (int8_t)next_u32();
            for (int32_t i = 0; i < 80; i++) {
                x[i] = (int8_t)next_u32();
                w16[i] = (int16_t)next_u32();
                x16[i] = (int16_t)next_u32();
            }
            int32_t acc[4], want[4];
            for (int r = 0; r < 4; r++) {
                acc[r] = (int32_t)next_u32();
                want[r] = dot_ref(w + r * stride, x, n, acc[r]);
            }
            ta_mm_dot4_s8(acc, w, stride, x, n);
            const int32_t start = (int32_t)next_u32();
            const int32_t one = ta_mm_dot1_s8(start, w, x, n);
            uint32_t s16 = (uint32_t)start;
            for (int32_t k = 0; k < n; k++)
                s16 += (uint32_t)((int32_t)w16[k] * (int32_t)x16[k]);
            const int32_t got16 = ta_mm_dot1_s16(start, w16, x16, n);
            for (int r = 0; r < 4; r++)
                if (acc[r] != want[r] && failures++ < 10)
                    fprintf(stderr, "dot4 n=%ld row %d: %ld, expected %ld\n", (long)n, r,
                            (long)acc[r], (long)want[r]);
            if (one != dot_ref(w, x, n, start) && failures++ < 10)
                fprintf(stderr, "dot1 n=%ld differs\n", (long)n);
            if (got16 != (int32_t)s16 && failures++ < 10)
                fprintf(stderr, "dot1_s16 n=%ld differs\n", (long)n);
        }
    }
}

int main(void)
{
    test_mul_q();
    test_dots();
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    puts("ok");
    return 0;
}
