/*
 * test_signal_sqrt.c - the Signal kernels' rounded square roots
 * (ta_signal_sqrt32, ta_signal_sqrt64 in runtime/kernels/ta_signal_math.h)
 * against a reference by bisection: floor(sqrt(n)), plus one when the
 * remainder n - r^2 is above r (rounding to nearest), except at the cap
 * (0xFFFF below 2^32, 0xFFFFFFFF above, where the library stops). Edge
 * values, perfect squares and their neighbours, the midpoints between
 * squares, and random values of every bit length. Built for the host (the
 * digit-by-digit loops) and by tests/qemu for both boards (the FPU's
 * estimate corrected by integer steps).
 */
#include "../../runtime/kernels/ta_signal_math.h"

#include <stdio.h>

#include "xorshift.h"

static uint32_t rng_state = 2463534242u;
static int failures;
static long checked;

static uint64_t next_u64(void)
{
    const uint64_t high = xorshift32(&rng_state);
    return high << 32 | xorshift32(&rng_state);
}

/* floor(sqrt(n)) by bisection over [0, 2^32). */
static uint32_t floor_sqrt(uint64_t n)
{
    uint32_t lo = 0, hi = 0xFFFFFFFFu;
    while (lo < hi) {
        const uint32_t mid = lo + (uint32_t)(((uint64_t)hi - lo + 1) / 2);
        if ((uint64_t)mid * mid <= n)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static uint32_t rounded(uint64_t n, uint32_t cap)
{
    const uint32_t r = floor_sqrt(n);
    return n - (uint64_t)r * r > r && r != cap ? r + 1 : r;
}

static void check(uint64_t n)
{
    const uint32_t want = n >> 32 ? rounded(n, 0xFFFFFFFFu) : rounded(n, 0xFFFFu);
    const uint32_t got = ta_signal_sqrt64(n);
    checked++;
    if (got != want && failures++ < 10)
        printf("ta_signal_sqrt64(%llu) = %lu, expected %lu\n", (unsigned long long)n,
               (unsigned long)got, (unsigned long)want);
    if (n >> 32 == 0) {
        const uint32_t got32 = ta_signal_sqrt32((uint32_t)n);
        if (got32 != want && failures++ < 10)
            printf("ta_signal_sqrt32(%lu) = %lu, expected %lu\n", (unsigned long)n,
                   (unsigned long)got32, (unsigned long)want);
    }
}

/* r^2 and its neighbours, and the values either side of the rounding
   point r^2 + r. */
static void check_around_square(uint32_t r)
{
    const uint64_t sq = (uint64_t)r * r;
    for (int d = -2; d <= 2; d++) {
        check(sq + (uint64_t)(int64_t)d);
        check(sq + r + (uint64_t)(int64_t)d);
    }
}

int main(void)
{
    static const uint64_t edges[] = {0,
                                     1,
                                     2,
                                     3,
                                     4,
                                     0xFFFE0001u, /* 0xFFFF^2 */
                                     0xFFFF0000u, /* 0xFFFF^2 + 0xFFFF: rounds up past the cap */
                                     0xFFFF0001u,
                                     0xFFFFFFFFu,
                                     (uint64_t)1 << 32,
                                     ((uint64_t)1 << 32) + 1,
                                     0xFFFFFFFE00000001u, /* 0xFFFFFFFF^2 */
                                     0xFFFFFFFF00000000u,
                                     0xFFFFFFFF00000001u,
                                     0xFFFFFFFFFFFFFFFEu,
                                     0xFFFFFFFFFFFFFFFFu};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        check(edges[i]);
        if (edges[i] > 0)
            check(edges[i] - 1);
    }
    for (uint32_t r = 0; r < 300; r++)
        check_around_square(r);
    check_around_square(0xFFFFu);
    check_around_square(0x10000u);
    check_around_square(0xFFFFFFFFu - 1);
    check_around_square(0xFFFFFFFFu);
    for (int i = 0; i < 4000; i++) {
        check_around_square(xorshift32(&rng_state));
        check_around_square(xorshift32(&rng_state) >> (i % 32));
    }
    for (int i = 0; i < 8000; i++) {
        check(next_u64() >> (i % 64));
        check(xorshift32(&rng_state) >> (i % 32));
    }
    printf("signal square roots: %ld values, %d failing\n", checked, failures);
    return failures ? 1 : 0;
}
