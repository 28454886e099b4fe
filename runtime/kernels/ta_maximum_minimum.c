/* ta_maximum_minimum.c - MAXIMUM and MINIMUM kernels; see the header.
 *
 * Rows as in ta_add_sub.c: an input either steps by one element or stays
 * on a broadcast one. Helium takes 16 lanes per instruction, DSP four
 * bytes per SSUB8/SEL pair; the results are the same bytes. Each output
 * element is written after its inputs are read, so the output may share a
 * non-broadcast input's bytes.
 */
#include "ta_maximum_minimum.h"

#include <stdbool.h>
#include <string.h>

#include "../include/ta_elementwise_simd.h"
#include "../include/ta_status.h"

#include "ta_broadcast_rows.h"

#if !defined(TA_EW_MVE)
static inline int8_t pick(int8_t x, int8_t y, bool maximum)
{
    return maximum ? (x > y ? x : y) : (x < y ? x : y);
}

/* step1/step2: 1 where the input steps along the row, 0 where broadcast. */
TA_EW_NOINLINE void row_portable(const int8_t *a, size_t step1, const int8_t *b, size_t step2,
                                 int8_t *o, int32_t n, bool maximum)
{
    for (int32_t i = 0; i < n; i++)
        o[i] = pick(a[(size_t)i * step1], b[(size_t)i * step2], maximum);
}
#endif

#if defined(TA_EW_MVE)
TA_ALWAYS_INLINE void row_simd(const int8_t *a, size_t step1, const int8_t *b, size_t step2,
                               int8_t *o, int32_t n, bool maximum)
{
    const int8x16_t fixed1 = vdupq_n_s8(a[0]), fixed2 = vdupq_n_s8(b[0]);
    for (; n > 0; n -= 16) {
        const mve_pred16_t pred = vctp8q((uint32_t)n);
        const int8x16_t x = step1 ? vldrbq_z_s8(a, pred) : fixed1;
        const int8x16_t y = step2 ? vldrbq_z_s8(b, pred) : fixed2;
        vstrbq_p_s8(o, maximum ? vmaxq_s8(x, y) : vminq_s8(x, y), pred);
        a += 16 * step1;
        b += 16 * step2;
        o += 16;
    }
}
#elif defined(TA_EW_DSP)
/* SSUB8 sets a GE flag per byte where x >= y; SEL takes those bytes of
   its first operand. */
static inline uint32_t pick_bytes(uint32_t x, uint32_t y, bool maximum)
{
    (void)__ssub8(x, y);
    return maximum ? __sel(x, y) : __sel(y, x);
}

TA_ALWAYS_INLINE void row_simd(const int8_t *a, size_t step1, const int8_t *b, size_t step2,
                               int8_t *o, int32_t n, bool maximum)
{
    const uint32_t fixed1 = 0x01010101u * (uint8_t)a[0], fixed2 = 0x01010101u * (uint8_t)b[0];
    int32_t i = 0;
    for (; i + 4 <= n; i += 4) {
        uint32_t x = fixed1, y = fixed2, r;
        if (step1)
            memcpy(&x, a + i, 4);
        if (step2)
            memcpy(&y, b + i, 4);
        r = pick_bytes(x, y, maximum);
        memcpy(o + i, &r, 4);
    }
    row_portable(a + (size_t)i * step1, step1, b + (size_t)i * step2, step2, o + i, n - i, maximum);
}
#endif

/* kind: which input stays on its broadcast element (ta_broadcast_rows.h). */
TA_ALWAYS_INLINE void row(const void *ctx, const void *a, const void *b, void *o, int32_t n,
                          int kind)
{
    const bool maximum = *(const bool *)ctx;
    const size_t step1 = kind != TA_ROW_FIRST_FIXED, step2 = kind != TA_ROW_SECOND_FIXED;
#if defined(TA_EW_MVE) || defined(TA_EW_DSP)
    row_simd(a, step1, b, step2, o, n, maximum);
#else
    row_portable(a, step1, b, step2, o, n, maximum);
#endif
}

TA_ALWAYS_INLINE int run(const ta_maximum_minimum_params_t *p, const int8_t *input1,
                         const int8_t *input2, int8_t *output, bool maximum)
{
    ta_broadcast_rows(p->rank, p->dims, p->stride1, p->stride2, input1, input2, sizeof(int8_t),
                      output, sizeof(int8_t), row, &maximum);
    return TA_OK;
}

/* int16 rows: portable on every target (no SIMD path yet). */
static inline int16_t pick_s16(int16_t x, int16_t y, bool maximum)
{
    return maximum ? (x > y ? x : y) : (x < y ? x : y);
}

static void row_s16(const void *ctx, const void *a, const void *b, void *o, int32_t n, int kind)
{
    const bool maximum = *(const bool *)ctx;
    const size_t step1 = kind != TA_ROW_FIRST_FIXED, step2 = kind != TA_ROW_SECOND_FIXED;
    const int16_t *x = a, *y = b;
    int16_t *out = o;
    for (int32_t i = 0; i < n; i++)
        out[i] = pick_s16(x[(size_t)i * step1], y[(size_t)i * step2], maximum);
}

static int run_s16(const ta_maximum_minimum_params_t *p, const int16_t *input1,
                   const int16_t *input2, int16_t *output, bool maximum)
{
    ta_broadcast_rows(p->rank, p->dims, p->stride1, p->stride2, input1, input2, sizeof(int16_t),
                      output, sizeof(int16_t), row_s16, &maximum);
    return TA_OK;
}

int ta_maximum_s8(const ta_maximum_minimum_params_t *p, const int8_t *input1, const int8_t *input2,
                  int8_t *output)
{
    return run(p, input1, input2, output, true);
}

int ta_minimum_s8(const ta_maximum_minimum_params_t *p, const int8_t *input1, const int8_t *input2,
                  int8_t *output)
{
    return run(p, input1, input2, output, false);
}

int ta_maximum_s16(const ta_maximum_minimum_params_t *p, const int16_t *input1,
                   const int16_t *input2, int16_t *output)
{
    return run_s16(p, input1, input2, output, true);
}

int ta_minimum_s16(const ta_maximum_minimum_params_t *p, const int16_t *input1,
                   const int16_t *input2, int16_t *output)
{
    return run_s16(p, input1, input2, output, false);
}
