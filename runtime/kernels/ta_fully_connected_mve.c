/*
 * ta_fully_connected_mve.c - FULLY_CONNECTED int8 on Helium (MVE,
 * Cortex-M55/M85): four rows per pass share each input load, their sums
 * requantized in one vector. Compiles to nothing on other cores.
 */
#include "ta_fully_connected_mve.h"

#include "../include/ta_matmul_simd.h"
#include "../include/ta_simd.h"

#if defined(TA_MM_MVE)
/* The four sums of rows *w, *w + n, *w + 2n, *w + 3n with x, started
   from (*init)[0..3], *init advanced past them and *w to where the fourth
   row's loads ended (the next group's first row when n % 16 == 0). The
   input chunk lives in the result register: the loop needs three others.
   The sums enter the vector one lane per VMOV: the two-lane form means
   opposite lane orders under QEMU 7.2 and in the Arm ARM (see
   ta_mm_dot4_s8_mve), so only the one-lane form is exact on silicon. */
static inline int32x4_t fc_dot4_mve(const int32_t **init, const int8_t **w, const int8_t *x,
                                    int32_t n)
{
    int32_t a0, a1, a2, a3;
    const int8_t *w0 = *w, *w1, *w2;
    const int32_t *b = *init;
    int32x4_t v;
    /* clang-format off */
    __asm__ volatile("   ldrd        %[a0], %[a1], [%[b]], #8\n"
                     "   ldrd        %[a2], %[a3], [%[b]], #8\n"
                     "   add         %[w1], %[w0], %[n]\n"
                     "   add         %[w2], %[w1], %[n]\n"
                     "   add         %[w3], %[w2], %[n]\n"
                     "   wlstp.8     lr, %[n], 2f\n"
                     "1: vldrb.8     %q[v], [%[x]], #16\n"
                     "   vldrb.8     q1, [%[w0]], #16\n"
                     "   vmladava.s8 %[a0], q1, %q[v]\n"
                     "   vldrb.8     q2, [%[w1]], #16\n"
                     "   vmladava.s8 %[a1], q2, %q[v]\n"
                     "   vldrb.8     q3, [%[w2]], #16\n"
                     "   vmladava.s8 %[a2], q3, %q[v]\n"
                     "   vldrb.8     q1, [%[w3]], #16\n"
                     "   vmladava.s8 %[a3], q1, %q[v]\n"
                     "   letp        lr, 1b\n"
                     "2:\n"
                     "   vmov.32     %q[v][0], %[a0]\n"
                     "   vmov.32     %q[v][1], %[a1]\n"
                     "   vmov.32     %q[v][2], %[a2]\n"
                     "   vmov.32     %q[v][3], %[a3]\n"
                     : [a0] "=&Te"(a0), [a1] "=&Te"(a1), [a2] "=&Te"(a2), [a3] "=&Te"(a3),
                       [v] "=&w"(v), [b] "+r"(b), [x] "+r"(x), [w0] "+r"(w0), [w1] "=&r"(w1),
                       [w2] "=&r"(w2), [w3] "=&r"(*w)
                     : [n] "r"(n)
                     : "q1", "q2", "q3", "lr", "memory");
    /* clang-format on */
    *init = b;
    return v;
}

/* The full groups of four rows of one input row, per-tensor
   requantization: one loop per sign of the shift, so that neither needs
   the other's steps. */
static void groups_per_tensor_mve(const int32_t *bias, const int8_t *w, int32_t depth,
                                  const int8_t *in, int8_t *o, const int8_t *o_end, int32_t m,
                                  int32_t shift, int32_t offset, int32x4_t lo, int32x4_t hi)
{
    const int32_t pad = -depth & 15; /* fc_dot4_mve's overshoot past the fourth row */
    if (shift >= 0) {
        for (; o < o_end; o += 4, w -= pad) {
            const int32x4_t v = ta_mm_requant_left_mve(fc_dot4_mve(&bias, &w, in, depth), m, shift);
            vstrbq_s32(o, vminq_s32(vmaxq_s32(vaddq_n_s32(v, offset), lo), hi));
        }
    } else {
        for (; o < o_end; o += 4, w -= pad) {
            const int32x4_t v = ta_mm_requant_right_mve(fc_dot4_mve(&bias, &w, in, depth), m,
                                                        shift);
            vstrbq_s32(o, vminq_s32(vmaxq_s32(vaddq_n_s32(v, offset), lo), hi));
        }
    }
}

/* The same with a multiplier and shift per output channel. */
static void groups_per_channel_mve(const int32_t *bias, const int8_t *w, int32_t depth,
                                   const int8_t *in, int8_t *o, const int8_t *o_end,
                                   const int32_t *m, const int32_t *s, int32_t offset, int32x4_t lo,
                                   int32x4_t hi)
{
    const int32_t pad = -depth & 15; /* fc_dot4_mve's overshoot past the fourth row */
    for (; o < o_end; o += 4, w -= pad, m += 4, s += 4) {
        const int32x4_t v = ta_mm_requant_mve(fc_dot4_mve(&bias, &w, in, depth), vldrwq_s32(m),
                                              vldrwq_s32(s));
        vstrbq_s32(o, vminq_s32(vmaxq_s32(vaddq_n_s32(v, offset), lo), hi));
    }
}

void ta_fully_connected_s8_groups_mve(const ta_fully_connected_params_t *p, const int8_t *in,
                                      const int8_t *weights, const int32_t *bias_sum,
                                      const int32_t *multipliers, const int32_t *shifts,
                                      int8_t *out)
{
    const int32_t depth = p->accum_depth, full = p->output_depth & ~3;
    const int32x4_t lo = vdupq_n_s32(p->activation_min), hi = vdupq_n_s32(p->activation_max);
    if (multipliers)
        groups_per_channel_mve(bias_sum, weights, depth, in, out, out + full, multipliers, shifts,
                               p->output_offset, lo, hi);
    else
        groups_per_tensor_mve(bias_sum, weights, depth, in, out, out + full, p->multiplier,
                              p->shift, p->output_offset, lo, hi);
}
#endif

#if defined(TA_MM_MVE)
/* Interleaved weights (ta_fully_connected_s8_interleaved): one pointer
   walks a block's four rows, 64 bytes per 16 of depth. */

/* One 16-byte chunk of the input against the four rows' chunks. Rows 1-3
   at offsets, row 0 last with the step to the next chunk: one address
   update per chunk, not a chain of four; loads and MACs alternate. */
/* clang-format off */
#define FC_CHUNK                              \
    "   vldrb.8     q0, [%[x]], #16\n"       \
    "   vldrb.8     q1, [%[w], #16]\n"       \
    "   vmladava.s8 %[a1], q1, q0\n"         \
    "   vldrb.8     q2, [%[w], #32]\n"       \
    "   vmladava.s8 %[a2], q2, q0\n"         \
    "   vldrb.8     q3, [%[w], #48]\n"       \
    "   vmladava.s8 %[a3], q3, q0\n"         \
    "   vldrb.8     q1, [%[w]], #64\n"       \
    "   vmladava.s8 %[a0], q1, q0\n"
/* The block's sums as one vector, started from its four biases (*b, then
   advanced past them), *w left at the next block; *x comes back to where
   it started, `BACK` bytes behind where the loop left it (a pointer to it:
   the caller's loop keeps it in one register). `count` runs
   the tail-predicated loop: the depth, or the depth over the chunks in
   BODY for a depth that is a multiple of 16 of them (every lane then
   active, so that LETP's step of 16 counts one pass). */
#define FC_BLOCK(BODY, BACK, ...)                                                             \
    int32_t a0, a1, a2, a3;                                                                   \
    int32x4_t v;                                                                              \
    __asm__ volatile("   ldrd        %[a0], %[a1], [%[b]], #8\n"                              \
                     "   ldrd        %[a2], %[a3], [%[b]], #8\n"                              \
                     "   wlstp.8     lr, %[count], 2f\n"                                      \
                     "1:\n" BODY                                                              \
                     "   letp        lr, 1b\n"                                                \
                     "2: sub         %[x], %[x], " BACK "\n"                                  \
                     "   vmov.32     %q[v][0], %[a0]\n"                                       \
                     "   vmov.32     %q[v][1], %[a1]\n"                                       \
                     "   vmov.32     %q[v][2], %[a2]\n"                                       \
                     "   vmov.32     %q[v][3], %[a3]\n"                                       \
                     : [a0] "=&Te"(a0), [a1] "=&Te"(a1), [a2] "=&Te"(a2), [a3] "=&Te"(a3),    \
                       [v] "=&w"(v), [b] "+r"(*b), [x] "+r"(*x), [w] "+r"(*w)                  \
                     : [count] "r"(count), ##__VA_ARGS__                                      \
                     : "q0", "q1", "q2", "q3", "lr", "memory");                               \
    return v
/* clang-format on */

/* Any depth: one chunk a pass, the last one predicated; x steps back by
   `back`, the depth rounded up to 16. */
static inline int32x4_t fc_block1(const int32_t **b, const int8_t **w, const int8_t **x,
                                  int32_t count, int32_t back)
{
    FC_BLOCK(FC_CHUNK, "%[back]", [back] "r"(back));
}

/* A depth that is a multiple of 64: four chunks a pass, count depth / 4. */
static inline int32x4_t fc_block4(const int32_t **b, const int8_t **w, const int8_t **x,
                                  int32_t count)
{
    FC_BLOCK(FC_CHUNK FC_CHUNK FC_CHUNK FC_CHUNK, "%[count], lsl #2");
}
#undef FC_BLOCK
#undef FC_CHUNK

/* The requantizations of a block's four sums. */
enum { FC_PER_CHANNEL, FC_LEFT, FC_RIGHT };

/* The whole blocks of one input row x. UNROLL and MODE are constants:
   each caller's copy keeps only its own loop and requantization. The
   output offset and range live in vectors: the loop needs every core
   register. */
static inline __attribute__((always_inline)) void
fc_blocks(const ta_fully_connected_params_t *p, const int8_t *w, const int8_t *x, const int32_t *b,
          const int32_t *m, const int32_t *s, int8_t *out, int unroll, int mode)
{
    const int32_t depth = p->accum_depth, multiplier = p->multiplier, shift = p->shift;
    const int32_t count = unroll == 4 ? depth >> 2 : depth, back = (depth + 15) & ~15;
    const int32x4_t offset = vdupq_n_s32(p->output_offset);
    const int32x4_t lo = vdupq_n_s32(p->activation_min), hi = vdupq_n_s32(p->activation_max);
    for (const int8_t *end = out + (p->output_depth & ~3); out < end; out += 4, m += 4, s += 4) {
        int32x4_t v = unroll == 4 ? fc_block4(&b, &w, &x, count)
                                  : fc_block1(&b, &w, &x, count, back);
        v = mode == FC_LEFT    ? ta_mm_requant_left_mve(v, multiplier, shift)
            : mode == FC_RIGHT ? ta_mm_requant_right_mve(v, multiplier, shift)
                               : ta_mm_requant_mve(v, vldrwq_s32(m), vldrwq_s32(s));
        vstrbq_s32(out, vminq_s32(vmaxq_s32(vaddq_s32(v, offset), lo), hi));
    }
}

/* Each specialization out of line, so that its loop has the registers. */
#define FC_BLOCKS(NAME, UNROLL, MODE)                                                   \
    static TA_NOINLINE void NAME(const ta_fully_connected_params_t *p, const int8_t *w, \
                                 const int8_t *x, const int32_t *b, const int32_t *m,   \
                                 const int32_t *s, int8_t *out)                         \
    {                                                                                   \
        fc_blocks(p, w, x, b, m, s, out, UNROLL, MODE);                                 \
    }
FC_BLOCKS(fc_blocks1_channel, 1, FC_PER_CHANNEL)
FC_BLOCKS(fc_blocks1_left, 1, FC_LEFT)
FC_BLOCKS(fc_blocks1_right, 1, FC_RIGHT)
FC_BLOCKS(fc_blocks4_left, 4, FC_LEFT)
FC_BLOCKS(fc_blocks4_right, 4, FC_RIGHT)
#undef FC_BLOCKS

/* acc + the dot product of x with one row of a block (w at its first
   chunk): four instructions per chunk where the block's loop takes ten
   for all four rows. */
static inline int32_t fc_row(int32_t acc, const int8_t *w, const int8_t *x, int32_t n)
{
    TA_MM_DOT1_MVE(acc, w, x, n, 64);
    return acc;
}

/* The last block's output_depth % 4 (1-3) rows: one or two row by row,
   three as a whole block; requantized and stored in part. */
static TA_NOINLINE void fc_last_block(const ta_fully_connected_params_t *p, const int8_t *w,
                                      const int8_t *x, const int32_t *bias_sum,
                                      const int32_t *multipliers, const int32_t *shifts,
                                      int8_t *out)
{
    const int32_t depth = p->accum_depth, first = p->output_depth & ~3;
    const int32_t rest = p->output_depth - first;
    const int32_t *b = bias_sum + first;
    w += (size_t)first * (size_t)((depth + 15) / 16) * 16;
    int32x4_t v;
    if (rest == 3) {
        v = fc_block1(&b, &w, &x, depth, (depth + 15) & ~15);
    } else {
        v = vsetq_lane_s32(fc_row(b[0], w, x, depth), vdupq_n_s32(0), 0);
        if (rest == 2)
            v = vsetq_lane_s32(fc_row(b[1], w + 16, x, depth), v, 1);
    }
    v = multipliers
            ? ta_mm_requant_mve(v, vldrwq_s32(multipliers + first), vldrwq_s32(shifts + first))
        : p->shift >= 0 ? ta_mm_requant_left_mve(v, p->multiplier, p->shift)
                        : ta_mm_requant_right_mve(v, p->multiplier, p->shift);
    v = vminq_s32(vmaxq_s32(vaddq_n_s32(v, p->output_offset), vdupq_n_s32(p->activation_min)),
                  vdupq_n_s32(p->activation_max));
    vstrbq_p_s32(out + first, v, vctp32q((uint32_t)rest));
}

void ta_fully_connected_s8_interleaved_mve(const ta_fully_connected_params_t *p,
                                           const int8_t *input, const int8_t *weights,
                                           const int32_t *bias_sum, const int32_t *multipliers,
                                           const int32_t *shifts, int8_t *output)
{
    typedef void blocks_fn(const ta_fully_connected_params_t *, const int8_t *, const int8_t *,
                           const int32_t *, const int32_t *, const int32_t *, int8_t *);
    /* Per-channel factors (rare in FULLY_CONNECTED) take the one-chunk
       loop at any depth: one copy less of the four-chunk one. */
    static blocks_fn *const fns[2][3] = {
        {fc_blocks1_channel, fc_blocks1_left, fc_blocks1_right},
        {fc_blocks1_channel, fc_blocks4_left, fc_blocks4_right},
    };
    const int32_t depth = p->accum_depth, rows = p->output_depth;
    const int mode = multipliers ? FC_PER_CHANNEL : p->shift >= 0 ? FC_LEFT : FC_RIGHT;
    blocks_fn *const fn = fns[depth % 64 == 0][mode];
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *x = input + (size_t)b * (size_t)depth;
        int8_t *out = output + (size_t)b * (size_t)rows;
        fn(p, weights, x, bias_sum, multipliers, shifts, out);
        if (rows % 4)
            fc_last_block(p, weights, x, bias_sum, multipliers, shifts, out);
    }
}
#endif
