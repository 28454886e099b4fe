/*
 * ta_conv_2d_mve.c - the int8 CONV_2D paths on Helium (MVE, Cortex-M55/M85);
 * ta_conv_2d.c dispatches here. Compiles to nothing on other cores.
 *
 * Requantization of four channels a vector (VQRDMULH, VRSHL), the last
 * block of a channel count off four stored predicated. Filters of at most
 * TA_CONV_2D_QUAD_FILTER taps read in place run four pixels a weight load
 * (VMLADAV on one or two chunks, assembly with a load or store between
 * every two MACs), each block of four channels requantized for the pixels
 * in one unrolled pass (right shifts only: no left shift, no ties mask);
 * im2col patches up to TA_CONV_2D_TRIPLE_PATCH bytes and long filters
 * three pixels a weight load, a pair of filters at a time, the pairs of
 * every block in one assembly loop (triple_sweep, long_sweep; one-row
 * filters' windows read in place, ta_conv_2d_one_row_triples_s8_mve); these sum
 * pairs of filters, not a last block's padding; 1x1 filters of whole
 * chunks past the four-pixel loops three pixels read in place a weight load
 * (triple_sweep_in_place: ta_conv_2d_s8_pointwise_triples). Other pixels four channels a pass
 * (ta_dot4_interleaved_mve), a last block of one or two channels two
 * (dot2_interleaved_mve); ta_conv_2d_run_off4_s8_mve, which only 1x1 layers
 * with a channel count off four link, sums such a block for two pixels at
 * once with right shifts only (dot2x2_interleaved_mve). Taps by column are
 * scattered into their columns a vector at a time.
 */
#include "ta_conv_2d_mve.h"

#include "ta_conv_2d_patch.h"

#include "../include/ta_compiler.h"
#include "../include/ta_quant.h"
#include "../include/ta_simd.h"

#include <stddef.h>
#include <string.h>

#if defined(TA_HAVE_MVE)
/* Output channels summed for several pixels before they are requantized:
   the pixels' inputs stay in vector registers while four blocks of
   filters pass, so each weight load serves every pixel. */
enum { MVE_GROUP = 16, MVE_PIXELS = 4 };
/* Triples' groups: twice as many channels, so that 32 output channels
   take one group (half the sweeps' calls and requantization setups). */
enum { TRIPLE_GROUP = 32 };

/* acc[k][f] = filter f . pixel k (x + k * x_step) for `pairs` pairs of
   filters of one 16-byte chunk at most (n <= 16), four pixels. Per pair
   two weight loads, eight MACs and eight stores of sums: each MAC holds the
   M55's multiply pipe for two cycles, so a load or a store (the other
   pipe) goes between every two, and a store two instructions after the
   MAC whose sum it takes. */
TA_NOINLINE static void sums_one_chunk_4(const int8_t *w, int32_t pairs, const int8_t *x,
                                         size_t x_step, int32_t n,
                                         int32_t acc[MVE_PIXELS][MVE_GROUP])
{
    /* Zeroing loads: nothing read past the taps, and zero lanes past them. */
    const mve_pred16_t tail = vctp8q((uint32_t)n);
    const int8x16_t x0 = vldrbq_z_s8(x, tail), x1 = vldrbq_z_s8(x + x_step, tail);
    const int8x16_t x2 = vldrbq_z_s8(x + 2 * x_step, tail);
    const int8x16_t x3 = vldrbq_z_s8(x + 3 * x_step, tail);
    int32_t *a = &acc[0][0];
    int32_t s0, s1, s2, s3;
    /* One chunk: the filters are 16 bytes apart; acc rows MVE_GROUP sums
       (64 bytes) apart. */
    _Static_assert(MVE_GROUP * sizeof(int32_t) == 64, "the stores' offsets");
    /* clang-format off */
    __asm volatile("   dls         lr, %[pairs]\n"
                   "1: vldrb.8     q6, [%[w]], #16\n"
                   "   vmladav.s8  %[s0], q6, %q[x0]\n"
                   "   vldrb.8     q7, [%[w]], #16\n"
                   "   vmladav.s8  %[s1], q6, %q[x1]\n"
                   "   str         %[s0], [%[a]]\n"
                   "   vmladav.s8  %[s2], q6, %q[x2]\n"
                   "   str         %[s1], [%[a], #64]\n"
                   "   vmladav.s8  %[s3], q6, %q[x3]\n"
                   "   str         %[s2], [%[a], #128]\n"
                   "   vmladav.s8  %[s0], q7, %q[x0]\n"
                   "   str         %[s3], [%[a], #192]\n"
                   "   vmladav.s8  %[s1], q7, %q[x1]\n"
                   "   str         %[s0], [%[a], #4]\n"
                   "   vmladav.s8  %[s2], q7, %q[x2]\n"
                   "   str         %[s1], [%[a], #68]\n"
                   "   vmladav.s8  %[s3], q7, %q[x3]\n"
                   "   str         %[s2], [%[a], #132]\n"
                   "   str         %[s3], [%[a], #196]\n"
                   "   adds        %[a], %[a], #8\n"
                   "   le          lr, 1b\n"
                   : [s0] "=&Te"(s0), [s1] "=&Te"(s1), [s2] "=&Te"(s2), [s3] "=&Te"(s3),
                     [w] "+r"(w), [a] "+r"(a)
                   : [pairs] "r"(pairs), [x0] "w"(x0), [x1] "w"(x1), [x2] "w"(x2), [x3] "w"(x3)
                   : "q6", "q7", "lr", "memory");
    /* clang-format on */
}

/* One filter (chunks at w and w + 64) by two pixels of two chunks each. */
static inline void two_chunks_filter(const int8_t *w, int8x16_t x0a, int8x16_t x0b, int8x16_t x1a,
                                     int8x16_t x1b, int32_t *acc0, int32_t *acc1)
{
    const int8x16_t wa = vldrbq_s8(w), wb = vldrbq_s8(w + 64);
    *acc0 = vmladavaq_s8(vmladavq_s8(wa, x0a), wb, x0b);
    *acc1 = vmladavaq_s8(vmladavq_s8(wa, x1a), wb, x1b);
}

/* The same for two chunks (16 < n <= 32), `pairs` pairs of filters and two
   pixels, into acc[0..1]. */
TA_NOINLINE static void sums_two_chunks_2(const int8_t *w, int32_t pairs, const int8_t *x,
                                          size_t x_step, int32_t n, int32_t (*acc)[MVE_GROUP])
{
    const mve_pred16_t tail = vctp8q((uint32_t)(n - 16));
    const int8x16_t x0a = vldrbq_s8(x), x0b = vldrbq_z_s8(x + 16, tail);
    const int8x16_t x1a = vldrbq_s8(x + x_step), x1b = vldrbq_z_s8(x + x_step + 16, tail);
    int32_t *a = acc[0];
    int32_t s0, t0, s1, t1;
    /* A block of four filters: filter j's chunks at w + 16 j and w + 64 + 16 j,
       its two sums stored in the next filter's steps (the last filter's at
       the end) between its MACs, which hold the multiply pipe for two
       cycles each. */
    /* clang-format off */
#define TWO_CHUNKS_STEP(wa, wb, s, t, store_s, store_t)                                            \
    "   vldrb.8     q6, [%[w], #" wa "]\n"                                                         \
    "   vmladav.s8  %[" s "], q6, %q[x0a]\n"                                                       \
    "   vldrb.8     q7, [%[w], #" wb "]\n"                                                         \
    "   vmladav.s8  %[" t "], q6, %q[x1a]\n" store_s                                               \
    "   vmladava.s8 %[" s "], q7, %q[x0b]\n" store_t                                               \
    "   vmladava.s8 %[" t "], q7, %q[x1b]\n"
    __asm volatile("   wls         lr, %[blocks], 2f\n"
                   "1:\n"
                   TWO_CHUNKS_STEP("0", "64", "s0", "t0", "", "")
                   TWO_CHUNKS_STEP("16", "80", "s1", "t1", "   str %[s0], [%[a]]\n",
                                   "   str %[t0], [%[a], #64]\n")
                   TWO_CHUNKS_STEP("32", "96", "s0", "t0", "   str %[s1], [%[a], #4]\n",
                                   "   str %[t1], [%[a], #68]\n")
                   TWO_CHUNKS_STEP("48", "112", "s1", "t1", "   str %[s0], [%[a], #8]\n",
                                   "   str %[t0], [%[a], #72]\n")
                   "   adds        %[w], %[w], #128\n"
                   "   str         %[s1], [%[a], #12]\n"
                   "   str         %[t1], [%[a], #76]\n"
                   "   adds        %[a], %[a], #16\n"
                   "   le          lr, 1b\n"
                   "2:\n"
                   : [s0] "=&Te"(s0), [t0] "=&Te"(t0), [s1] "=&Te"(s1), [t1] "=&Te"(t1),
                     [w] "+r"(w), [a] "+r"(a)
                   : [blocks] "r"(pairs / 2), [x0a] "w"(x0a), [x0b] "w"(x0b), [x1a] "w"(x1a),
                     [x1b] "w"(x1b)
                   : "q6", "q7", "lr", "memory");
    /* clang-format on */
#undef TWO_CHUNKS_STEP
    int32_t *a0 = a, *a1 = a + MVE_GROUP;
    if (pairs % 2) { /* a last pair: the block's other two filters are padding */
        two_chunks_filter(w, x0a, x0b, x1a, x1b, &a0[0], &a1[0]);
        two_chunks_filter(w + 16, x0a, x0b, x1a, x1b, &a0[1], &a1[1]);
    }
}

/* Sums are computed for pairs of filters: a last pair that ends a block
   early leaves its block's last two sums unset; zeroed for the pixels'
   rows of acc, so that the block's requantization reads set values (its
   lanes are not stored). The pixels' sums `row` apart from acc. */
static inline void zero_unpaired(int32_t row, int32_t acc[][row], int32_t pixels, int32_t pairs)
{
    if (pairs % 2 == 0)
        return;
    for (int32_t k = 0; k < pixels; k++)
        acc[k][2 * pairs] = acc[k][2 * pairs + 1] = 0;
}

/* bias_sum and requantization of four channels of one pixel. */
static inline int32x4_t requantize4_split(int32x4_t acc, int32x4_t bias, int32x4_t m,
                                          int32x4_t left, int32x4_t neg_right, int32_t offset,
                                          int32x4_t lov, int32x4_t hiv)
{
    const int32x4_t v = ta_mul_by_quantized_multiplier_split_mve(vaddq_s32(acc, bias), m, left,
                                                                 neg_right);
    return vminq_s32(vmaxq_s32(vaddq_n_s32(v, offset), lov), hiv);
}

/* bias, requantization and store of acc[k * row + f0..valid) for
   `pixels` pixels, out_c outputs apart: whole blocks of four filters computed (the
   arrays padded to them), the last stored predicated. Inline for the
   constant pixel count of its caller (the loops unrolled). */
static inline void requantize_group(int32_t row, const int32_t acc[][row], int32_t pixels,
                                    int32_t f0, int32_t valid, const int32_t *bias_sum,
                                    const int32_t *multipliers, const int32_t *shifts,
                                    const ta_conv_2d_params_t *p, int8_t *out)
{
    const int32_t offset = p->output_offset;
    const size_t out_c = (size_t)p->output_depth;
    const int32x4_t lov = vdupq_n_s32(p->activation_min), hiv = vdupq_n_s32(p->activation_max);
    out += f0;
    for (int32_t f = f0; f < valid; f += 4, out += 4) {
        const int32x4_t s = vldrwq_s32(shifts + f), zero = vdupq_n_s32(0);
        const int32x4_t bias = vldrwq_s32(bias_sum + f);
        const int32x4_t m = vldrwq_s32(multipliers + f);
        const int32x4_t left = vmaxq_s32(s, zero), neg_right = vminq_s32(s, zero);
        if (TA_LIKELY(valid - f >= 4)) {
            for (int32_t k = 0; k < pixels; k++)
                vstrbq_s32(out + (size_t)k * out_c,
                           requantize4_split(vldrwq_s32(&acc[k][f]), bias, m, left, neg_right,
                                             offset, lov, hiv));
            continue;
        }
        const mve_pred16_t lanes = vctp32q((uint32_t)(valid - f));
        for (int32_t k = 0; k < pixels; k++)
            vstrbq_p_s32(out + (size_t)k * out_c,
                         requantize4_split(vldrwq_s32(&acc[k][f]), bias, m, left, neg_right, offset,
                                           lov, hiv),
                         lanes);
    }
}

/* Steps of requantize4_right_quad on the sums of one pixel in %q[v] (a or
   b): VMLA adds the bias (x + bias * 1) and the offset (x + ones *
   offset), VPT and a predicated VQSUB of one take the ties step on the
   lanes below zero. */
/* clang-format off */
#define RQ_LOAD(v, off) "vldrw.u32    %q[" v "], [%[acc], #" off "]\n\t"
#define RQ_BIAS(v)      "vmla.s32     %q[" v "], %q[bias], %[one]\n\t"
#define RQ_MUL(v)       "vqrdmulh.s32 %q[" v "], %q[" v "], %q[m]\n\t"
#define RQ_TIES(v)      "vpt.s32      lt, %q[" v "], zr\n\t"                        \
                        "vqsubt.s32   %q[" v "], %q[" v "], %[one]\n\t"
#define RQ_SHIFT(v)     "vrshl.s32    %q[" v "], %q[" v "], %q[s]\n\t"
#define RQ_OFFSET(v)    "vmla.s32     %q[" v "], %q[ones], %[off]\n\t"
#define RQ_MAX(v)       "vmax.s32     %q[" v "], %q[" v "], %q[lo]\n\t"
#define RQ_MIN(v)       "vmin.s32     %q[" v "], %q[" v "], %q[hi]\n\t"
#define RQ_STORE(v, o)  "vstrb.32     %q[" v "], [%[" o "]]\n\t"
/* The offset added on the integer pipe (no vector of ones). */
#define RQ_ADD_OFFSET(v) "vadd.i32     %q[" v "], %q[" v "], %[off]\n\t"
/* Sums that hold their bias already. */
#define RQ_NO_BIAS(v) ""
/* The first two pixels' steps interleaved, to the third's bias step; OFFSET
   one of the two above, BIAS RQ_BIAS or RQ_NO_BIAS, the pixels' sums at
   byte offsets L0, L1 and L2 from %[acc]. */
#define RQ_FIRST_PAIR(OFFSET, BIAS, L0, L1, L2)                                                    \
    RQ_LOAD("a", L0) BIAS("a") RQ_MUL("a") "add %[o1], %[o0], %[oc]\n\t"                           \
    RQ_LOAD("b", L1) RQ_TIES("a") BIAS("b") RQ_SHIFT("a") RQ_MUL("b") RQ_TIES("b")                 \
    OFFSET("a") RQ_SHIFT("b") RQ_MAX("a") OFFSET("b") RQ_MIN("a") RQ_STORE("a", "o0")             \
    RQ_MAX("b") RQ_LOAD("a", L2) RQ_MIN("b") BIAS("a") RQ_STORE("b", "o1")
/* Three pixels' steps interleaved (sums that hold their bias, at byte
   offsets L0, L1 and L2 from %[acc]; OFFSET as above), into a, b and c:
   each step's pipe mostly differs from the last one's, and no pixel's
   chain runs alone at the end. LOAD_M and LOAD_S load the multipliers
   and, once the multiplies are issued, the shifts (into register S), or
   are empty (in m and s already). */
#define RQ_SHIFT_BY(v, S) "vrshl.s32    %q[" v "], %q[" v "], %q[" S "]\n\t"
#define RQ_OFFSET1(v)    "vmla.s32     %q[" v "], %q[m], %[off]\n\t"
#define RQ_THREE(OFFSET, L0, L1, L2, LOAD_M, LOAD_S, S)                                            \
    LOAD_M RQ_LOAD("a", L0) RQ_MUL("a") RQ_LOAD("b", L1) RQ_MUL("b") RQ_LOAD("c", L2)              \
    RQ_TIES("a") RQ_MUL("c") LOAD_S RQ_SHIFT_BY("a", S) RQ_TIES("b") OFFSET("a")                   \
    RQ_SHIFT_BY("b", S) RQ_TIES("c") OFFSET("b") RQ_MAX("a") "add %[o1], %[o0], %[oc]\n\t"         \
    RQ_SHIFT_BY("c", S) RQ_MIN("a") OFFSET("c") RQ_MAX("b") RQ_STORE("a", "o0") RQ_MIN("b")        \
    "add %[o0], %[o1], %[oc]\n\t" RQ_MAX("c") RQ_STORE("b", "o1") RQ_MIN("c") RQ_STORE("c", "o0")
/* clang-format on */

/* Bias, requantization (right shifts only) and store of four channels of
   four pixels, their sums MVE_GROUP apart from acc, their outputs out_c
   apart from out: requantize4_right with half the steps on the M55's
   multiply pipe (the VMLAs and VPTs above) and half on its integer pipe,
   and the steps of two pixels interleaved (the third and fourth pixels
   reuse the first two's registers once stored), so that consecutive steps
   mostly use different pipes. In assembly: with intrinsics gcc keeps each
   pixel's steps apart (a byte store may alias the next pixel's sums). */
static inline void requantize4_right_quad(const int32_t *acc, int32x4_t bias, int32x4_t m,
                                          int32x4_t s, int32x4_t lov, int32x4_t hiv, int32x4_t ones,
                                          int32_t offset, int8_t *out, size_t out_c)
{
    _Static_assert(MVE_GROUP * sizeof(int32_t) == 64, "the loads' offsets");
    int32x4_t a, b;
    int8_t *o0 = out, *o1;
    /* clang-format off */
    __asm__ volatile(
        RQ_FIRST_PAIR(RQ_OFFSET, RQ_BIAS, "0", "64", "128")
        "add %[o0], %[o1], %[oc]\n\t" RQ_MUL("a") RQ_LOAD("b", "192") RQ_TIES("a")
        RQ_BIAS("b") RQ_SHIFT("a") RQ_MUL("b") RQ_TIES("b") RQ_OFFSET("a") RQ_SHIFT("b")
        RQ_MAX("a") RQ_OFFSET("b") RQ_MIN("a") RQ_STORE("a", "o0")
        "add %[o1], %[o0], %[oc]\n\t" RQ_MAX("b") RQ_MIN("b") RQ_STORE("b", "o1")
        : [a] "=&w"(a), [b] "=&w"(b), [o0] "+l"(o0), [o1] "=&l"(o1)
        : [acc] "r"(acc), [bias] "w"(bias), [m] "w"(m), [s] "w"(s), [lo] "w"(lov), [hi] "w"(hiv),
          [ones] "w"(ones), [one] "r"(1), [off] "r"(offset), [oc] "r"(out_c),
          "m"(*(const int32_t(*)[4 * MVE_GROUP])acc)
        : "p0", "memory");
    /* clang-format on */
}

/* The same for three pixels whose sums hold their bias (triple_sweep),
   TRIPLE_GROUP apart: the first two as above, the third's steps alone (the
   others' done); the offset added by VADD, which leaves a vector register
   free (none is spilled then). The sums', multipliers', shifts' and
   outputs' pointers step to the next block in the loads and the first
   store (post-indexed: no adds a block in the caller's loop). */
static inline void requantize4_right_triple(const int32_t **acc, const int32_t **m,
                                            const int32_t **s, int32x4_t lov, int32x4_t hiv,
                                            int32_t offset, int8_t **out, size_t out_c)
{
    _Static_assert(TRIPLE_GROUP * sizeof(int32_t) == 128, "the loads' offsets");
    int32x4_t a, b, c, ms;
    int8_t *o1;
    /* clang-format off */
    __asm__ volatile(
        "vldrw.u32    %q[m], [%[mp]], #16\n\t"
        "vldrw.u32    %q[a], [%[acc]], #16\n\t" RQ_MUL("a") RQ_LOAD("b", "112") RQ_MUL("b")
        RQ_LOAD("c", "240")
        RQ_TIES("a") RQ_MUL("c") "vldrw.u32    %q[m], [%[sp_]], #16\n\t" RQ_SHIFT_BY("a", "m")
        RQ_TIES("b") RQ_SHIFT_BY("b", "m") RQ_TIES("c") RQ_SHIFT_BY("c", "m")
        "vmov.i32     %q[m], #1\n\t" "add %[o1], %[o0], %[oc]\n\t"
        RQ_OFFSET1("a") RQ_OFFSET1("b") RQ_MAX("a") RQ_OFFSET1("c") RQ_MIN("a") RQ_MAX("b")
        "vstrb.32     %q[a], [%[o0]], #4\n\t" RQ_MIN("b") RQ_MAX("c")
        RQ_STORE("b", "o1") "add %[o1], %[o1], %[oc]\n\t" RQ_MIN("c") RQ_STORE("c", "o1")
        : [a] "=&w"(a), [b] "=&w"(b), [c] "=&w"(c), [m] "=&w"(ms), [o0] "+l"(*out), [o1] "=&l"(o1),
          [acc] "+r"(*acc), [mp] "+r"(*m), [sp_] "+r"(*s)
        : [lo] "w"(lov), [hi] "w"(hiv), [one] "r"(1), [off] "r"(offset), [oc] "r"(out_c)
        : "p0", "memory");
    /* clang-format on */
}

/* The same for three pixels of a long filter, whose sums hold their bias,
   LONG_GROUP apart around `mid` (the second pixel's: load offsets reach
   the other two). */
static inline void requantize4_right_triple_long(const int32_t *mid, int32x4_t m, int32x4_t s,
                                                 int32x4_t lov, int32x4_t hiv, int32_t offset,
                                                 int8_t *out, size_t out_c)
{
    _Static_assert(LONG_GROUP * sizeof(int32_t) == 256, "the loads' offsets");
    int32x4_t a, b, c;
    int8_t *o0 = out, *o1;
    /* clang-format off */
    __asm__ volatile(
        RQ_THREE(RQ_ADD_OFFSET, "-256", "0", "256", "", "", "s")
        : [a] "=&w"(a), [b] "=&w"(b), [c] "=&w"(c), [o0] "+l"(o0), [o1] "=&l"(o1)
        : [acc] "r"(mid), [m] "w"(m), [s] "w"(s), [lo] "w"(lov), [hi] "w"(hiv), [one] "r"(1),
          [off] "r"(offset), [oc] "r"(out_c),
          "m"(*(const int32_t(*)[3 * LONG_GROUP])(mid - LONG_GROUP))
        : "p0", "memory");
    /* clang-format on */
}

#undef RQ_LOAD
#undef RQ_BIAS
#undef RQ_MUL
#undef RQ_TIES
#undef RQ_SHIFT
#undef RQ_OFFSET
#undef RQ_MAX
#undef RQ_MIN
#undef RQ_STORE
#undef RQ_ADD_OFFSET
#undef RQ_NO_BIAS
#undef RQ_FIRST_PAIR
#undef RQ_THREE
#undef RQ_SHIFT_BY
#undef RQ_OFFSET1

/* bias, requantization and store of acc[k][0..valid) for `pixels` pixels
   (inline for its one constant count, quads; the count and row stay
   parameters: without them gcc lays the quads' code out worse, 18 to 28
   bytes more and up to 1.5% more estimated cycles), out_c outputs apart:
   each whole block of four channels unrolled over the pixels; when every
   shift of the block is a right shift (as nearly always) without the left
   shift and the mask of the ties step (x & neg_right then has the sign
   bit of x). A last partial block through requantize_group. */
static inline __attribute__((always_inline)) void
requantize_pixels(int32_t row, const int32_t acc[][row], int32_t pixels, int32_t valid,
                  const int32_t *bias_sum, const int32_t *multipliers, const int32_t *shifts,
                  const ta_conv_2d_params_t *p, int8_t *out)
{
    const int32_t offset = p->output_offset;
    const size_t out_c = (size_t)p->output_depth;
    const int32x4_t lov = vdupq_n_s32(p->activation_min), hiv = vdupq_n_s32(p->activation_max);
    const int32x4_t ones = vdupq_n_s32(1);
    int32_t f = 0;
    for (; f + 4 <= valid; f += 4) {
        const int32x4_t m = vldrwq_s32(multipliers + f), s = vldrwq_s32(shifts + f);
        const int32x4_t bias = vldrwq_s32(bias_sum + f);
        int8_t *o = out + f;
        /* Quads: the right shifts' steps laid out first (fewer taken
           branches). */
        if (pixels == MVE_PIXELS) {
            if (TA_LIKELY(vmaxvq_s32(INT32_MIN, s) < 0)) {
                requantize4_right_quad(&acc[0][f], bias, m, s, lov, hiv, ones, offset, o, out_c);
                continue;
            }
        } else if (vmaxvq_s32(INT32_MIN, s) < 0) {
#pragma GCC unroll 4
            for (int32_t k = 0; k < pixels; k++, o += out_c) {
                int32x4_t v = vqrdmulhq_s32(vaddq_s32(vldrwq_s32(&acc[k][f]), bias), m);
                v = vrshlq_s32(ta_ties_away_mve(v), s);
                vstrbq_s32(o, vminq_s32(vmaxq_s32(vaddq_n_s32(v, offset), lov), hiv));
            }
            continue;
        }
        break; /* a left shift on: this block and the rest through requantize_group */
    }
    if (f < valid)
        requantize_group(row, acc, pixels, f, valid, bias_sum, multipliers, shifts, p, out);
}

/* The rest of requantize_triple (from a block with a left shift on, and a
   last partial block: rare), a pixel's block at a time, each stored
   predicated: out of line and with few vector registers, so that neither
   it nor the loop of whole blocks saves many (the kernel's stack). */
TA_NOINLINE static void requantize_triple_rest(const int32_t acc[3][TRIPLE_GROUP], int32_t f,
                                               int32_t valid, const int32_t *multipliers,
                                               const int32_t *shifts, const ta_conv_2d_params_t *p,
                                               int8_t *out)
{
    const size_t out_c = (size_t)p->output_depth;
    for (; f < valid; f += 4) {
        const mve_pred16_t lanes = vctp32q((uint32_t)(valid - f));
        for (int32_t k = 0; k < 3; k++) {
            const int32x4_t v = ta_mul_by_quantized_multiplier_mve(
                vldrwq_s32(&acc[k][f]), vldrwq_s32(multipliers + f), vldrwq_s32(shifts + f));
            vstrbq_p_s32(out + (size_t)k * out_c + (size_t)f,
                         vminq_s32(vmaxq_s32(vaddq_n_s32(v, p->output_offset),
                                             vdupq_n_s32(p->activation_min)),
                                   vdupq_n_s32(p->activation_max)),
                         lanes);
        }
    }
}

/* The same for three pixels whose sums hold their bias (triple_sweep's),
   TRIPLE_GROUP apart: whole blocks in one assembly pass each
   (requantize4_right_triple) when every shift of the layer is a right
   shift (right: the caller's test once a layer), a loop without a test a
   block (a low-overhead loop); else, and a last partial block, through
   requantize_triple_rest. */
static inline void requantize_triple(const int32_t acc[3][TRIPLE_GROUP], int32_t valid, int right,
                                     const int32_t *multipliers, const int32_t *shifts,
                                     const ta_conv_2d_params_t *p, int8_t *out)
{
    const int32_t offset = p->output_offset;
    const size_t out_c = (size_t)p->output_depth;
    const int32x4_t lov = vdupq_n_s32(p->activation_min), hiv = vdupq_n_s32(p->activation_max);
    const int32_t blocks = right ? valid >> 2 : 0, whole = blocks * 4;
    const int32_t *a = &acc[0][0], *m = multipliers, *s = shifts;
    int8_t *o = out;
    for (int32_t b = blocks; b > 0; b--) /* a count, not bounds: the loop's setup */
        requantize4_right_triple(&a, &m, &s, lov, hiv, offset, &o, out_c);
    if (whole < valid)
        requantize_triple_rest(acc, whole, valid, multipliers, shifts, p, out);
}

/* requantize_pixels for quads, out of line (its callers keep their
   registers). */
TA_NOINLINE static void requantize_quad_group(const int32_t acc[MVE_PIXELS][MVE_GROUP],
                                              int32_t valid, const int32_t *bias_sum,
                                              const int32_t *multipliers, const int32_t *shifts,
                                              const ta_conv_2d_params_t *p, int8_t *out)
{
    requantize_pixels(MVE_GROUP, acc, MVE_PIXELS, valid, bias_sum, multipliers, shifts, p, out);
}

/* Pieces of three pixels' patches at a time (whole chunks): long enough
   that the loop's setup per pair of filters is small beside it. */
enum { LONG_TRIPLE_PIECE = TA_CONV_2D_LONG_TRIPLE_PIECE };

/* The chunk loop of both sweeps (long_sweep, triple_sweep), whose
   three pixels' input loads into q0-q2 are LOAD0-LOAD2: per chunk three
   input and two weight loads for six multiply-accumulates, which hold the
   M55's multiply pipe for two cycles each, so loads and MACs alternate.
   The first pixel's chunk is loaded a chunk ahead (FIRST0 before the loop,
   LOAD0 the next one's, after the MAC that last reads q0): no MAC carried
   past the loop's end and no zeroed register for it (the last LOAD0 reads
   the chunk past the first pixel's, unused: inside the second's buffer,
   or, for pixels read in place 8 bytes apart or more, before the third's
   last chunk ends).
   Sums a0-a2 (the pair's first filter, pixels 0-2) and b0-b2 (its
   second), chunks in c, weights at w stepping 64 bytes a chunk. */
/* clang-format off */
#define TA_SWEEP_CHUNKS(FIRST0, LOAD0, LOAD1, LOAD2)                                               \
    "   " FIRST0 "\n"                                                                              \
    "   dls         lr, %[c]\n"                                                                    \
    "1: vldrb.8     q3, [%[w], #16]\n"                                                             \
    "   vmladava.s8 %[b0], q3, q0\n"                                                               \
    "   " LOAD1 "\n"                                                                               \
    "   vmladava.s8 %[b1], q3, q1\n"                                                               \
    "   " LOAD2 "\n"                                                                               \
    "   vmladava.s8 %[b2], q3, q2\n"                                                               \
    "   vldrb.8     q3, [%[w]], #64\n"                                                             \
    "   vmladava.s8 %[a0], q3, q0\n"                                                               \
    "   " LOAD0 "\n"                                                                               \
    "   vmladava.s8 %[a1], q3, q1\n"                                                               \
    "   vmladava.s8 %[a2], q3, q2\n"                                                               \
    "   le          lr, 1b\n"
/* A pair's six sums started from its two biases (bias, advanced a
   block), the pair loop's label 2. */
#define TA_SWEEP_FROM_BIASES                                                                       \
    "2: ldrd        %[a0], %[b0], [%[bias]]\n"                                                     \
    "   ldrd        %[a1], %[b1], [%[bias]]\n"                                                     \
    "   ldrd        %[a2], %[b2], [%[bias]], #16\n"
/* The sweeps' six sums, even registers for VMLADAVA's accumulator. */
#define TA_SWEEP_SUMS                                                                              \
    [a0] "=&Te"(a0), [a1] "=&Te"(a1), [a2] "=&Te"(a2), [b0] "=&Te"(b0), [b1] "=&Te"(b1),           \
        [b2] "=&Te"(b2)
/* The same with a pointer each to the three pixels' inputs, x0 to x2
   (byte loads: any alignment). */
#define TA_SWEEP_CHUNKS_APART                                                                      \
    TA_SWEEP_CHUNKS("vldrb.8     q0, [%[x0]]", "vldrb.8     q0, [%[x0], #16]!",                    \
                    "vldrb.8     q1, [%[x1]], #16", "vldrb.8     q2, [%[x2]], #16")
/* clang-format on */

/* A sweep of `pairs` pairs of filters, one a block, over three pixels'
   pieces of `chunks` whole chunks, LONG_TRIPLE_PIECE bytes apart from x (a
   pointer each: too far apart for load offsets): the six sums of pair j
   added to acc + 4 j, + LONG_GROUP and + 2 LONG_GROUP (the bias there, or
   earlier pieces' sums); the loop over pairs too in assembly, so that a
   pair's setup is three loads and three stores of its sums and the
   rewinds of x. From one pair's weights to the next `skip` bytes past the
   piece's (0 when the piece is the whole filter; a stack operand: no
   register is left). The chunks: TA_SWEEP_CHUNKS. */
TA_NOINLINE static void long_sweep(const int8_t *w, const int8_t *x, int32_t chunks, int32_t pairs,
                                   int32_t skip, int32_t *acc)
{
    _Static_assert(LONG_GROUP * sizeof(int32_t) == 256, "the sums' offsets");
    const int8_t *x1 = x + LONG_TRIPLE_PIECE, *x2 = x + 2 * LONG_TRIPLE_PIECE;
    int32_t a0, a1, a2, b0, b1, b2;
    /* clang-format off */
    __asm volatile("2: ldrd        %[a0], %[b0], [%[acc]]\n"
                   "   ldrd        %[a1], %[b1], [%[acc], #256]\n"
                   "   ldrd        %[a2], %[b2], [%[acc], #512]\n"
                   TA_SWEEP_CHUNKS_APART
                   "   strd        %[a1], %[b1], [%[acc], #256]\n"
                   "   sub         %[x0], %[x0], %[c], lsl #4\n"
                   "   sub         %[x1], %[x1], %[c], lsl #4\n"
                   "   sub         %[x2], %[x2], %[c], lsl #4\n"
                   "   strd        %[a2], %[b2], [%[acc], #512]\n"
                   "   ldr         lr, %[skip]\n"
                   "   strd        %[a0], %[b0], [%[acc]], #16\n"
                   "   add         %[w], %[w], lr\n"
                   "   subs        %[n], %[n], #1\n"
                   "   bne         2b\n"
                   : TA_SWEEP_SUMS, [x0] "+r"(x), [x1] "+r"(x1), [x2] "+r"(x2),
                     [w] "+r"(w), [acc] "+r"(acc), [n] "+r"(pairs)
                   : [c] "r"(chunks), [skip] "m"(skip)
                   : "q0", "q1", "q2", "q3", "lr", "memory", "cc");
    /* clang-format on */
}

/* The sums of `pairs` pairs of filters (blocks of four from w,
   block_bytes apart) over three pixels' pieces of `chunks` whole chunks
   (LONG_TRIPLE_PIECE apart from x), added to acc[k * LONG_GROUP + f]: the
   first pairs of every block in one sweep, the second in another. */
static void triple_block_sums(const int8_t *w, size_t block_bytes, int32_t pairs, const int8_t *x,
                              int32_t chunks, int32_t *acc)
{
    const int32_t skip = (int32_t)block_bytes - chunks * 64;
    long_sweep(w, x, chunks, (pairs + 1) / 2, skip, acc);
    if (pairs >= 2) /* else the block's other two filters are padding */
        long_sweep(w + 32, x, chunks, pairs / 2, skip, acc + 2);
}

/* Channels o0 .. o0 + n of three pixels (out_c outputs apart from out),
   from sums that hold their bias: a whole block of right shifts in one
   assembly pass for the three (requantize4_right_triple_long); from a
   block with a left shift on, and a last partial block, through
   requantize_triple_rest. */
static void triple_requantize(const ta_conv_2d_params_t *p, const int32_t *acc, int32_t o0,
                              int32_t n, const int32_t *multipliers, const int32_t *shifts,
                              int8_t *out)
{
    const int32_t out_c = p->output_depth, offset = p->output_offset;
    const int32x4_t lov = vdupq_n_s32(p->activation_min), hiv = vdupq_n_s32(p->activation_max);
    for (int32_t f = 0; f < n; f += 4) {
        const int32x4_t m = vldrwq_s32(multipliers + o0 + f), sh = vldrwq_s32(shifts + o0 + f);
        if (n - f >= 4 && vmaxvq_s32(INT32_MIN, sh) < 0) { /* a whole block, right shifts */
            requantize4_right_triple_long(acc + LONG_GROUP + f, m, sh, lov, hiv, offset,
                                          out + o0 + f, (size_t)out_c);
            continue;
        }
        const mve_pred16_t lanes = vctp32q((uint32_t)(n - f));
        for (int32_t k = 0; k < 3; k++) {
            const int32x4_t v = ta_mul_by_quantized_multiplier_mve(
                vldrwq_s32(acc + k * LONG_GROUP + f), m, sh);
            vstrbq_p_s32(out + (size_t)k * (size_t)out_c + (size_t)(o0 + f),
                         vminq_s32(vmaxq_s32(vaddq_n_s32(v, offset), lov), hiv), lanes);
        }
    }
}

/* The sums of a group's `pairs` pairs of filters (blocks of four from w,
   block_bytes = chunks * 64 apart, so that the weights run on from one
   block into the next) over three im2col patches TA_CONV_2D_TRIPLE_PATCH
   bytes apart, x the middle one's (word-aligned: one pointer serves the
   three through VLDRW offsets), in two sweeps of one pair a block: the
   first pairs of every block, then the second ones (in the same assembly:
   one call a group; the second sweep's start read from `second`, its
   count zeroed there once read). A sweep's pair j: the six sums from the
   pair's two biases at bias + 4 j (so requantize4_right_triple adds none),
   set at acc + 4 j, acc + 4 j + TRIPLE_GROUP and acc + 4 j + 2
   TRIPLE_GROUP. The loops are long_sweep's (TA_SWEEP_CHUNKS). */
TA_NOINLINE static void triple_sweep(const int8_t *w, const int8_t *x, int32_t chunks,
                                     int32_t pairs, const int32_t *bias, int32_t *acc)
{
    _Static_assert(TA_CONV_2D_TRIPLE_PATCH == 256 && TRIPLE_GROUP * sizeof(int32_t) == 128,
                   "the loads' and stores' offsets");
    /* a last odd pair: its block's second pair is padding */
    struct {
        const int8_t *w;
        const int32_t *bias;
        int32_t *acc;
        int32_t pairs;
    } second = {w + 32, bias + 2, acc + 2, pairs / 2};
    int32_t n = (pairs + 1) / 2;
    int32_t a0, a1, a2, b0, b1, b2;
    /* clang-format off */
    __asm volatile(TA_SWEEP_FROM_BIASES
                   TA_SWEEP_CHUNKS("vldrw.u32   q0, [%[x], #-256]",
                                   "vldrw.u32   q0, [%[x], #-256]",
                                   "vldrw.u32   q1, [%[x]], #16",
                                   "vldrw.u32   q2, [%[x], #240]")
                   "   strd        %[a1], %[b1], [%[acc], #128]\n"
                   "   sub         %[x], %[x], %[c], lsl #4\n"
                   "   strd        %[a2], %[b2], [%[acc], #256]\n"
                   "   strd        %[a0], %[b0], [%[acc]], #16\n"
                   "   subs        %[n], %[n], #1\n"
                   "   bne         2b\n"
                   "   ldr         %[n], %[n2]\n"
                   "   cmp         %[n], #0\n"
                   "   beq         3f\n"
                   "   ldr         %[w], %[w2]\n"
                   "   ldr         %[bias], %[bias2]\n"
                   "   ldr         %[acc], %[acc2]\n"
                   "   movs        %[a0], #0\n"
                   "   str         %[a0], %[n2]\n"
                   "   b           2b\n"
                   "3:\n"
                   : TA_SWEEP_SUMS, [x] "+r"(x), [w] "+r"(w), [acc] "+r"(acc),
                     [n] "+r"(n), [bias] "+r"(bias), [n2] "+m"(second.pairs)
                   : [c] "r"(chunks), [w2] "m"(second.w), [bias2] "m"(second.bias),
                     [acc2] "m"(second.acc)
                   : "q0", "q1", "q2", "q3", "lr", "memory", "cc");
    /* clang-format on */
}

/* triple_sweep for three pixels' taps read in place, `step` bytes apart
   from x (a 1x1 filter's input pixels): the same sums from a pointer a
   pixel, each rewound a pair; the first sweep's end and the second's
   start read from memory (no register left). Byte loads: the pixels need
   not be word-aligned. */
TA_NOINLINE static void triple_sweep_in_place(const int8_t *w, const int8_t *x, size_t step,
                                              int32_t chunks, int32_t pairs, const int32_t *bias,
                                              int32_t *acc)
{
    /* a last odd pair: its block's second pair is padding (w NULL) */
    struct {
        const int8_t *w;
        const int32_t *bias;
        int32_t *acc, *end;
    } second = {pairs >= 2 ? w + 32 : NULL, bias + 2, acc + 2, acc + 2 + 4 * (pairs / 2)};
    int32_t *end = acc + 4 * ((pairs + 1) / 2);
    const int8_t *x1 = x + step, *x2 = x + 2 * step;
    int32_t a0, a1, a2, b0, b1, b2;
    /* clang-format off */
    __asm volatile(TA_SWEEP_FROM_BIASES
                   TA_SWEEP_CHUNKS_APART
                   "   strd        %[a1], %[b1], [%[acc], #128]\n"
                   "   sub         %[x0], %[x0], %[c], lsl #4\n"
                   "   strd        %[a2], %[b2], [%[acc], #256]\n"
                   "   sub         %[x1], %[x1], %[c], lsl #4\n"
                   "   strd        %[a0], %[b0], [%[acc]], #16\n"
                   "   sub         %[x2], %[x2], %[c], lsl #4\n"
                   "   ldr         lr, %[end]\n"
                   "   cmp         %[acc], lr\n"
                   "   bne         2b\n"
                   "   ldr         lr, %[w2]\n"
                   "   cmp         lr, #0\n"
                   "   beq         3f\n"
                   "   mov         %[w], lr\n"
                   "   ldr         %[bias], %[bias2]\n"
                   "   ldr         %[acc], %[acc2]\n"
                   "   ldr         lr, %[end2]\n"
                   "   str         lr, %[end]\n"
                   "   movs        lr, #0\n"
                   "   str         lr, %[w2]\n"
                   "   b           2b\n"
                   "3:\n"
                   : TA_SWEEP_SUMS, [x0] "+r"(x), [x1] "+r"(x1), [x2] "+r"(x2),
                     [w] "+r"(w), [acc] "+r"(acc), [bias] "+r"(bias), [end] "+m"(end),
                     [w2] "+m"(second.w)
                   : [c] "r"(chunks), [bias2] "m"(second.bias), [acc2] "m"(second.acc),
                     [end2] "m"(second.end)
                   : "q0", "q1", "q2", "q3", "lr", "memory", "cc");
    /* clang-format on */
}
#undef TA_SWEEP_CHUNKS_APART
#undef TA_SWEEP_FROM_BIASES
#undef TA_SWEEP_SUMS
#undef TA_SWEEP_CHUNKS

static int right_shifts_only(const int32_t *shifts, int32_t out_c);

/* The out_c output channels of one triple whose taps lie `step` bytes apart
   from x, TRIPLE_GROUP channels a sweep: read in place
   (triple_sweep_in_place), or from im2col patches TA_CONV_2D_TRIPLE_PATCH
   bytes apart (triple_sweep, whose loads have that step built in).
   in_place is a constant at each call. */
TA_ALWAYS_INLINE void triple_channels(int in_place, const int8_t *x, size_t step, int32_t chunks,
                                      const ta_conv_2d_params_t *p, int32_t out_c, int right,
                                      const int8_t *weights, size_t block_bytes,
                                      const int32_t *bias_sum, const int32_t *multipliers,
                                      const int32_t *shifts, int8_t *out)
{
    int32_t acc[3][TRIPLE_GROUP];
    for (int32_t o = 0; o < out_c; o += TRIPLE_GROUP) {
        const int32_t filters = out_c - o < TRIPLE_GROUP ? out_c - o : TRIPLE_GROUP;
        const int8_t *w = weights + (size_t)(o / 4) * block_bytes;
        /* pairs of filters: a last odd one pairs with a padded zero filter */
        const int32_t pairs = (filters + 1) / 2;
        if (in_place)
            triple_sweep_in_place(w, x, step, chunks, pairs, bias_sum + o, &acc[0][0]);
        else
            triple_sweep(w, x + TA_CONV_2D_TRIPLE_PATCH, chunks, pairs, bias_sum + o, &acc[0][0]);
        zero_unpaired(TRIPLE_GROUP, acc, 3, pairs);
        requantize_triple(acc, filters, right, multipliers + o, shifts + o, p, out + o);
    }
}

/* Every output channel of `triples` runs of three consecutive output
   pixels in raster order from the image's first (in_b, a batch's image),
   their outputs out_c apart from out: each triple's im2col patches
   gathered (ta_conv_2d_gather_patches3: n bytes each,
   TA_CONV_2D_TRIPLE_PATCH apart from `patches`, word-aligned, zeros past n
   to the end of the last chunk) and each weight load serving the three
   (triple_channels). The pixel loop here, not in ta_conv_2d.c: no call and
   no saving of registers per triple. */
void ta_conv_2d_triples_s8_mve(const ta_conv_2d_params_t *p, const int8_t *in_b, int32_t triples,
                               int8_t *patches, int32_t n, const int8_t *weights,
                               size_t block_bytes, const int32_t *bias_sum,
                               const int32_t *multipliers, const int32_t *shifts, int8_t *out)
{
    const int32_t out_c = p->output_depth, width = p->output_width;
    const int32_t chunks = (n + 15) / 16;
    int32_t top = INT32_MIN; /* right_shifts_only in fewer bytes: once a layer */
    for (int32_t o = 0; o < out_c; o++)
        top = shifts[o] > top ? shifts[o] : top;
    const int right = top < 0;
    for (int32_t t = 0, oy = 0, ox = 0; t < triples; t++, out += 3 * out_c) {
        ta_conv_2d_gather_patches3(p, in_b, oy, ox, patches);
        for (ox += 3; ox >= width; ox -= width)
            oy++;
        triple_channels(0, patches, TA_CONV_2D_TRIPLE_PATCH, chunks, p, out_c, right, weights,
                        block_bytes, bias_sum, multipliers, shifts, out);
    }
}

void ta_conv_2d_one_row_triples_s8_mve(const ta_conv_2d_params_t *p, const int8_t *in_b,
                                       int32_t triples, int8_t *patches, int32_t n,
                                       const int8_t *weights, size_t block_bytes,
                                       const int32_t *bias_sum, const int32_t *multipliers,
                                       const int32_t *shifts, int8_t *out)
{
    const int32_t out_c = p->output_depth, width = p->output_width, chunks = (n + 15) / 16;
    const int32_t sw = p->stride_width, in_w = p->input_width, fd = p->filter_depth;
    const int64_t step = (int64_t)sw * fd;
    /* The sweep reads one chunk past the first window: inside the third's
       when step >= 8; a triple's columns gathered, to the end of the third
       window's last chunk, must fit in the patches. */
    const int in_row = p->filter_height == 1 && p->dilation_width == 1 && fd == p->input_depth &&
                       step >= 8 &&
                       2 * step + (int64_t)p->filter_width * fd + 16 <= 3 * TA_CONV_2D_TRIPLE_PATCH;
    const int32_t cols = in_row ? 2 * sw + p->filter_width : 0; /* a triple's columns */
    const size_t image = (size_t)p->input_height * (size_t)in_w * (size_t)fd;
    const int right = right_shifts_only(shifts, out_c);
    for (int32_t t = 0, oy = 0, ox = 0; t < triples; t++, out += 3 * out_c) {
        const int32_t iy = oy * p->stride_height - p->pad_top, ix0 = ox * sw - p->pad_left;
        /* the first window's offset in the image (used only when inside it) */
        const size_t first = ((size_t)iy * (size_t)in_w + (size_t)ix0) * (size_t)fd;
        const int8_t *x = patches;
        size_t apart = (size_t)step;
        if (!in_row || ox + 3 > width) { /* patches: windows TA_CONV_2D_TRIPLE_PATCH apart */
            ta_conv_2d_gather_patches3(p, in_b, oy, ox, patches);
            apart = TA_CONV_2D_TRIPLE_PATCH;
        } else if (iy >= 0 && iy < p->input_height && ix0 >= 0 && ix0 + cols <= in_w &&
                   first + 2 * apart + (size_t)chunks * 16 <= image) {
            x = in_b + first;
        } else {
            ta_conv_2d_gather_columns(p, in_b, iy, ix0, cols, patches);
        }
        for (ox += 3; ox >= width; ox -= width)
            oy++;
        triple_channels(1, x, apart, chunks, p, out_c, right, weights, block_bytes, bias_sum,
                        multipliers, shifts, out);
    }
}

/* ta_dot4_interleaved_mve for the first two filters of a block only
   (lanes 2 and 3 hold init's values): per chunk three loads and two
   MACs instead of five and four. */
static inline int32x4_t dot2_interleaved_mve(const int32_t *init, const int8_t *w, const int8_t *x,
                                             int32_t n)
{
    int32_t a0 = init[0], a1 = init[1];
    /* clang-format off */
    __asm volatile("   wlstp.8     lr, %[n], 2f\n"
                   "1: vldrb.8     q0, [%[x]], #16\n"
                   "   vldrb.8     q1, [%[w], #16]\n"
                   "   vmladava.s8 %[a1], q1, q0\n"
                   "   vldrb.8     q1, [%[w]], #64\n"
                   "   vmladava.s8 %[a0], q1, q0\n"
                   "   letp        lr, 1b\n"
                   "2:\n"
                   : [a0] "+Te"(a0), [a1] "+Te"(a1), [x] "+r"(x), [w] "+r"(w)
                   : [n] "r"(n)
                   : "q0", "q1", "lr", "memory");
    /* clang-format on */
    int32x4_t sums = vldrwq_s32(init);
    sums = vsetq_lane_s32(a0, sums, 0);
    return vsetq_lane_s32(a1, sums, 1);
}

/* The pixels of ta_conv_2d_run_s8_mve one at a time for a channel count
   off four: the last block stored predicated, only its first two filters
   summed when no more are valid. Out of line: the run's other loops keep
   their registers. */
TA_NOINLINE static void run_pixels_off4(const ta_conv_2d_params_t *p, const int8_t *x,
                                        size_t x_step, int32_t pixels, int32_t n,
                                        const int8_t *weights, size_t block_bytes,
                                        const int32_t *bias_sum, const int32_t *multipliers,
                                        const int32_t *shifts, int8_t *out)
{
    const int32_t out_c = p->output_depth, offset = p->output_offset;
    const int32x4_t lov = vdupq_n_s32(p->activation_min), hiv = vdupq_n_s32(p->activation_max);
    const int32_t whole = out_c / 4 * 4, rest = out_c - whole;
    for (int32_t i = 0; i < pixels; i++, x += x_step, out += out_c) {
        const int8_t *w = weights;
        for (int32_t o = 0; o < whole; o += 4, w += block_bytes) {
            int32x4_t v = ta_dot4_interleaved_mve(bias_sum + o, w, x, n);
            v = ta_mul_by_quantized_multiplier_mve(v, vldrwq_s32(multipliers + o),
                                                   vldrwq_s32(shifts + o));
            vstrbq_s32(out + o, vminq_s32(vmaxq_s32(vaddq_n_s32(v, offset), lov), hiv));
        }
        int32x4_t v = rest <= 2 ? dot2_interleaved_mve(bias_sum + whole, w, x, n)
                                : ta_dot4_interleaved_mve(bias_sum + whole, w, x, n);
        v = ta_mul_by_quantized_multiplier_mve(v, vldrwq_s32(multipliers + whole),
                                               vldrwq_s32(shifts + whole));
        vstrbq_p_s32(out + whole, vminq_s32(vmaxq_s32(vaddq_n_s32(v, offset), lov), hiv),
                     vctp32q((uint32_t)rest));
    }
}

/* 1 when every shift of the out_c channels is a right shift (as nearly
   always). */
static int right_shifts_only(const int32_t *shifts, int32_t out_c)
{
    int32_t top = INT32_MIN;
    for (int32_t o = 0; o < out_c; o += 4)
        top = vmaxvq_p_s32(top, vldrwq_z_s32(shifts + o, vctp32q((uint32_t)(out_c - o))),
                           vctp32q((uint32_t)(out_c - o)));
    return top < 0;
}

/* A filter's sums of four pixels, v (a lane a pixel), from its bias b,
   requantized with its scalars (a right shift; the full int8 range) and
   stored by one scatter: the pixels' outputs are `lanes` bytes apart. */
static inline void quad_filter_store(int32x4_t v, int32_t b, int32_t multiplier, int32_t shift,
                                     int32_t offset, uint32x4_t lanes, int8_t *out)
{
    v = vqrdmulhq_n_s32(vaddq_n_s32(v, b), multiplier);
    v = vrshlq_n_s32(ta_ties_away_mve(v), shift);
    /* A saturating shift to the top byte and back clamps to int8 without
       two constant vectors. */
    vstrbq_scatter_offset_s32(out, lanes,
                              vshrq_n_s32(vqshlq_n_s32(vaddq_n_s32(v, offset), 24), 24));
}

/* Four VMLADAV results as the lanes of one vector. */
static inline int32x4_t quad_lanes(int32_t s0, int32_t s1, int32_t s2, int32_t s3)
{
    int32x4_t v = vdupq_n_s32(s0);
    v = vsetq_lane_s32(s1, v, 1);
    v = vsetq_lane_s32(s2, v, 2);
    return vsetq_lane_s32(s3, v, 3);
}

/* `quads` runs of four pixels (x + k * x_step) of filters of n <= 16 taps
   (TA_CONV_2D_LANES_FILTER) read in place (one chunk), every output channel, right shifts only, the
   full int8 range: per filter one weight load and a VMLADAV per pixel, the
   four sums moved into the lanes of one vector (a lane a pixel) and
   requantized with the filter's scalars (quad_filter_store). Against sums
   in an array requantized four channels a vector (sums_one_chunk_4,
   requantize_quad_group), the array's stores and loads and the passes per
   block and group go: 21 instructions a filter and quad. (Two chunks gain
   nothing so: their second chunks reloaded per filter, as eight vector
   registers hold no more, cost what the array saves.) */
TA_NOINLINE static void quads_in_lanes(const ta_conv_2d_params_t *p, const int8_t *x, size_t x_step,
                                       int32_t quads, int32_t n, const int8_t *weights,
                                       const int32_t *bias_sum, const int32_t *multipliers,
                                       const int32_t *shifts, int8_t *out)
{
    const int32_t out_c = p->output_depth, offset = p->output_offset;
    const uint32x4_t lanes = vmulq_n_u32(vidupq_n_u32(0, 1), (uint32_t)out_c);
    /* Zeroing loads: nothing read past the taps, and zero lanes past them. */
    const mve_pred16_t tail = vctp8q((uint32_t)n);
    for (int32_t q = 0; q < quads; q++, x += 4 * x_step, out += 4 * (size_t)out_c) {
        const int8x16_t x0 = vldrbq_z_s8(x, tail), x1 = vldrbq_z_s8(x + x_step, tail);
        const int8x16_t x2 = vldrbq_z_s8(x + 2 * x_step, tail);
        const int8x16_t x3 = vldrbq_z_s8(x + 3 * x_step, tail);
        const int8_t *w = weights; /* one chunk: filters are 16 bytes apart */
        for (int32_t f = 0; f < out_c; f++, w += 16) {
            const int8x16_t wf = vldrbq_s8(w);
            quad_filter_store(quad_lanes(vmladavq_s8(wf, x0), vmladavq_s8(wf, x1),
                                         vmladavq_s8(wf, x2), vmladavq_s8(wf, x3)),
                              bias_sum[f], multipliers[f], shifts[f], offset, lanes, out + f);
        }
    }
}

/* The requantized case of ta_conv_2d.c's run_pixels_interleaved: setup
   once per row, then per pixel only the channel loop; whole blocks of four
   channels (the arrays padded to them), the last stored predicated. Out of
   line: ta_conv_2d.c calls it for single patches too. */
TA_NOINLINE void ta_conv_2d_run_s8_mve(const ta_conv_2d_params_t *p, const int8_t *x, size_t x_step,
                                       int32_t pixels, int32_t n, const int8_t *weights,
                                       size_t block_bytes, const int32_t *bias_sum,
                                       const int32_t *multipliers, const int32_t *shifts,
                                       int8_t *out)
{
    const int32_t out_c = p->output_depth;
    int32_t i = 0;
    if (n > 0 && n <= TA_CONV_2D_QUAD_FILTER) {
        /* Short filters: several pixels share each weight load, four
               pixels one requantization pass. */
        int32_t acc[MVE_PIXELS][MVE_GROUP];
        for (; i + 4 <= pixels; i += 4, x += 4 * x_step, out += 4 * (size_t)out_c) {
            for (int32_t o = 0; o < out_c; o += MVE_GROUP) {
                const int32_t filters = out_c - o < MVE_GROUP ? out_c - o : MVE_GROUP;
                const int32_t pairs = (filters + 1) / 2;
                const int8_t *w = weights + (size_t)(o / 4) * block_bytes;
                if (n <= 16) {
                    sums_one_chunk_4(w, pairs, x, x_step, n, acc);
                } else {
                    sums_two_chunks_2(w, pairs, x, x_step, n, acc);
                    sums_two_chunks_2(w, pairs, x + 2 * x_step, x_step, n, acc + 2);
                }
                zero_unpaired(MVE_GROUP, acc, MVE_PIXELS, pairs);
                requantize_quad_group(acc, filters, bias_sum + o, multipliers + o, shifts + o, p,
                                      out + o);
            }
        }
    }
    if (out_c % 4 != 0) {
        run_pixels_off4(p, x, x_step, pixels - i, n, weights, block_bytes, bias_sum, multipliers,
                        shifts, out);
        return;
    }
    const int32_t offset = p->output_offset;
    const int32x4_t lov = vdupq_n_s32(p->activation_min), hiv = vdupq_n_s32(p->activation_max);
    for (; i < pixels; i++, x += x_step, out += out_c) {
        const int8_t *w = weights;
        for (int32_t o = 0; o < out_c; o += 4, w += block_bytes) {
            int32x4_t v = ta_dot4_interleaved_mve(bias_sum + o, w, x, n);
            v = ta_mul_by_quantized_multiplier_mve(v, vldrwq_s32(multipliers + o),
                                                   vldrwq_s32(shifts + o));
            vstrbq_s32(out + o, vminq_s32(vmaxq_s32(vaddq_n_s32(v, offset), lov), hiv));
        }
    }
}

/* `triples` runs of three pixels (x + k * x_step) whose taps, n of them
   in whole chunks, are read in place (triple_channels). */
static void pixel_triples(const ta_conv_2d_params_t *p, const int8_t *x, size_t x_step,
                          int32_t triples, int32_t n, const int8_t *weights, size_t block_bytes,
                          const int32_t *bias_sum, const int32_t *multipliers,
                          const int32_t *shifts, int8_t *out)
{
    const int32_t out_c = p->output_depth;
    const int right = right_shifts_only(shifts, out_c);
    for (int32_t t = 0; t < triples; t++, x += 3 * x_step, out += 3 * out_c)
        triple_channels(1, x, x_step, n / 16, p, out_c, right, weights, block_bytes, bias_sum,
                        multipliers, shifts, out);
}

void ta_conv_2d_run_triples_s8_mve(const ta_conv_2d_params_t *p, const int8_t *x, size_t x_step,
                                   int32_t pixels, int32_t n, const int8_t *weights,
                                   size_t block_bytes, const int32_t *bias_sum,
                                   const int32_t *multipliers, const int32_t *shifts, int8_t *out)
{
    /* The sweep reads whole chunks from each pixel and one past the
       first's (inside the third's taps when the pixels lie 8 bytes apart
       or more): nothing past the last pixel's taps. */
    if (n > 0 && n % 16 == 0 && n <= TA_CONV_2D_TRIPLE_PATCH && x_step >= 8) {
        const int32_t triples = pixels / 3;
        pixel_triples(p, x, x_step, triples, n, weights, block_bytes, bias_sum, multipliers, shifts,
                      out);
        x += (size_t)(3 * triples) * x_step;
        out += (size_t)(3 * triples) * (size_t)p->output_depth;
        pixels -= 3 * triples;
    }
    ta_conv_2d_run_s8_mve(p, x, x_step, pixels, n, weights, block_bytes, bias_sum, multipliers,
                          shifts, out);
}

void ta_conv_2d_run_short_s8_mve(const ta_conv_2d_params_t *p, const int8_t *x, size_t x_step,
                                 int32_t pixels, int32_t n, const int8_t *weights,
                                 size_t block_bytes, const int32_t *bias_sum,
                                 const int32_t *multipliers, const int32_t *shifts, int8_t *out)
{
    if (n > 0 && pixels >= 4 && p->activation_min == INT8_MIN && p->activation_max == INT8_MAX &&
        right_shifts_only(shifts, p->output_depth)) {
        const int32_t quads = pixels / 4;
        quads_in_lanes(p, x, x_step, quads, n, weights, bias_sum, multipliers, shifts, out);
        if (pixels == 4 * quads)
            return;
        x += (size_t)(4 * quads) * x_step;
        out += (size_t)(4 * quads) * (size_t)p->output_depth;
        pixels -= 4 * quads;
    }
    ta_conv_2d_run_s8_mve(p, x, x_step, pixels, n, weights, block_bytes, bias_sum, multipliers,
                          shifts, out);
}

/* The first two filters of a block (w, w + 16) by two pixels (x0, x1):
   the four sums from init (a pixel's two, twice) in the lanes of one
   vector, pixel by pixel. Per chunk four loads and four MACs, where two
   pixels through dot2_interleaved_mve take six and four. */
static inline int32x4_t dot2x2_interleaved_mve(const int32_t *init, const int8_t *w,
                                               const int8_t *x0, const int8_t *x1, int32_t n)
{
    int32_t a0 = init[0], a1 = init[1], b0 = init[0], b1 = init[1];
    /* clang-format off */
    __asm volatile("   wlstp.8     lr, %[n], 2f\n"
                   "1: vldrb.8     q0, [%[x0]], #16\n"
                   "   vldrb.8     q1, [%[w], #16]\n"
                   "   vmladava.s8 %[a1], q1, q0\n"
                   "   vldrb.8     q2, [%[x1]], #16\n"
                   "   vmladava.s8 %[b1], q1, q2\n"
                   "   vldrb.8     q1, [%[w]], #64\n"
                   "   vmladava.s8 %[a0], q1, q0\n"
                   "   vmladava.s8 %[b0], q1, q2\n"
                   "   letp        lr, 1b\n"
                   "2:\n"
                   : [a0] "+Te"(a0), [a1] "+Te"(a1), [b0] "+Te"(b0), [b1] "+Te"(b1),
                     [x0] "+r"(x0), [x1] "+r"(x1), [w] "+r"(w)
                   : [n] "r"(n)
                   : "q0", "q1", "q2", "lr", "memory");
    /* clang-format on */
    return quad_lanes(a0, a1, b0, b1);
}

/* Requantization of four sums with their channels' multipliers m and
   shifts s, every shift a right shift: without the left shift and the mask
   of the ties step (x + (x >> 31) then rounds ties away from zero under
   VRSHL's round half up). */
static inline int32x4_t requantize4_right(int32x4_t v, int32x4_t m, int32x4_t s)
{
    v = vqrdmulhq_s32(v, m);
    return vrshlq_s32(ta_ties_away_mve(v), s);
}

/* A pixel's first `whole` channels (whole blocks of four, right shifts
   only), one block a pass through the pixel's n taps at x. */
static inline void whole_blocks_right(const int8_t *x, int32_t n, int32_t whole, const int8_t *w,
                                      size_t block_bytes, const int32_t *bias_sum,
                                      const int32_t *multipliers, const int32_t *shifts,
                                      int32_t offset, int32x4_t lov, int32x4_t hiv, int8_t *out)
{
    for (int32_t o = 0; o < whole; o += 4, w += block_bytes) {
        const int32x4_t v = requantize4_right(ta_dot4_interleaved_mve(bias_sum + o, w, x, n),
                                              vldrwq_s32(multipliers + o), vldrwq_s32(shifts + o));
        vstrbq_s32(out + o, vminq_s32(vmaxq_s32(vaddq_n_s32(v, offset), lov), hiv));
    }
}

/* ta_conv_2d_run_s8_mve for a channel count off four (the caller checks)
   and filters of more than TA_CONV_2D_QUAD_FILTER taps (shorter ones go
   four pixels a pass there): whole blocks a pixel at a time; a last block of one
   or two channels for two pixels at once with right shifts only
   (dot2x2_interleaved_mve: their four sums requantized as one vector,
   stored by a scatter); the rest (three channels, a left shift, a last
   odd pixel) as ta_conv_2d_run_s8_mve does (run_pixels_off4). */
void ta_conv_2d_run_off4_s8_mve(const ta_conv_2d_params_t *p, const int8_t *x, size_t x_step,
                                int32_t pixels, int32_t n, const int8_t *weights,
                                size_t block_bytes, const int32_t *bias_sum,
                                const int32_t *multipliers, const int32_t *shifts, int8_t *out)
{
    const int32_t out_c = p->output_depth, whole = out_c / 4 * 4, rest = out_c - whole;
    if (rest > 2 || pixels < 2 || !right_shifts_only(shifts, out_c)) {
        run_pixels_off4(p, x, x_step, pixels, n, weights, block_bytes, bias_sum, multipliers,
                        shifts, out);
        return;
    }
    const int32_t offset = p->output_offset;
    const int32x4_t lov = vdupq_n_s32(p->activation_min), hiv = vdupq_n_s32(p->activation_max);
    const int8_t *tail_w = weights + (size_t)(whole / 4) * block_bytes;
    /* Lanes: pixel 0's two channels, then pixel 1's. */
    const uint32x4_t lane = vidupq_n_u32(0, 1);
    const uint32x4_t channel = vandq_u32(lane, vdupq_n_u32(1));
    const uint32x4_t places = vmlaq_n_u32(channel, vshrq_n_u32(lane, 1), (uint32_t)out_c);
    const int32x4_t m2 = vldrwq_gather_shifted_offset_s32(multipliers + whole, channel);
    const int32x4_t s2 = vldrwq_gather_shifted_offset_s32(shifts + whole, channel);
    /* one channel: lanes 0 and 2 */
    const mve_pred16_t stored = rest == 2 ? 0xFFFF : 0x0F0F;
    for (int32_t pairs = pixels / 2; pairs > 0;
         pairs--, x += 2 * x_step, out += 2 * (size_t)out_c) {
        /* The pair's taps all read before pixel 1's first store, which may
           overwrite pixel 0's (each pixel's output lies below its own
           taps: stream_lead.h, a batch of one). */
        int32x4_t v = dot2x2_interleaved_mve(bias_sum + whole, tail_w, x, x + x_step, n);
        whole_blocks_right(x, n, whole, weights, block_bytes, bias_sum, multipliers, shifts, offset,
                           lov, hiv, out);
        whole_blocks_right(x + x_step, n, whole, weights, block_bytes, bias_sum, multipliers,
                           shifts, offset, lov, hiv, out + out_c);
        v = requantize4_right(v, m2, s2);
        vstrbq_scatter_offset_p_s32(out + whole, places,
                                    vminq_s32(vmaxq_s32(vaddq_n_s32(v, offset), lov), hiv), stored);
    }
    if (pixels % 2)
        run_pixels_off4(p, x, x_step, 1, n, weights, block_bytes, bias_sum, multipliers, shifts,
                        out);
}

/* Three pixels (windows at (iy[k], ix[k]), outputs out_c apart from out)
   with a long filter: each weight load serves the three. patches3 holds
   3 * LONG_TRIPLE_PIECE bytes. */
void ta_conv_2d_long_triple_s8_mve(const ta_conv_2d_params_t *p, const int8_t *in_b,
                                   const int32_t iy[3], const int32_t ix[3], int8_t *patches3,
                                   const int8_t *weights, size_t block_bytes,
                                   const int32_t *bias_sum, const int32_t *multipliers,
                                   const int32_t *shifts, int8_t *out)
{
    const int32_t out_c = p->output_depth;
    const int32_t filter_size = p->filter_height * p->filter_width * p->filter_depth;
    const size_t stride = LONG_TRIPLE_PIECE;
    for (int32_t o0 = 0; o0 < out_c; o0 += LONG_GROUP) {
        const int32_t n = out_c - o0 < LONG_GROUP ? out_c - o0 : LONG_GROUP;
        const int32_t whole = (n + 3) / 4 * 4;
        int32_t acc[3 * LONG_GROUP];
        for (int32_t k = 0; k < 3; k++) /* a vector copy, not a call */
            ta_copy_s8((int8_t *)(acc + k * LONG_GROUP), (const int8_t *)(bias_sum + o0),
                       whole * (int32_t)sizeof(int32_t));
        for (int32_t t0 = 0; t0 < filter_size; t0 += LONG_TRIPLE_PIECE) {
            const int32_t len = filter_size - t0 < LONG_TRIPLE_PIECE ? filter_size - t0
                                                                     : LONG_TRIPLE_PIECE;
            const int32_t chunks = (len + 15) / 16; /* zeros past the filter */
            /* The whole patch in one piece (the usual case): through
               ta_conv_2d_gather_patch, a copy a filter row when the window
               is inside the image, not the bounds tests and clamps a row
               of ta_conv_2d_gather_taps. */
            if (len == filter_size)
                for (int32_t k = 0; k < 3; k++)
                    ta_conv_2d_gather_patch(p, in_b, iy[k], ix[k], patches3 + (size_t)k * stride);
            else
                for (int32_t k = 0; k < 3; k++)
                    ta_conv_2d_gather_taps(p, in_b, iy[k], ix[k], t0, len,
                                           patches3 + (size_t)k * stride);
            if (len % 16)
                for (int32_t k = 0; k < 3; k++)
                    ta_fill_s8(patches3 + (size_t)k * stride + len, 0, chunks * 16 - len);
            triple_block_sums(weights + (size_t)(o0 / 4) * block_bytes + (size_t)t0 * 4,
                              block_bytes, (n + 1) / 2, patches3, chunks, acc);
        }
        triple_requantize(p, acc, o0, n, multipliers, shifts, out);
    }
}

/* Lane i: i / fd * column + i % fd = i + i / fd * (column - fd), as
   vectors (a row chain works the offsets out once a row): i / fd is
   (i * ceil(256 / fd)) >> 8, exact for i < 16 and fd <= 16. */
void ta_conv_2d_scatter_offsets_mve(int32_t fd, int32_t column, int32_t valid, uint8_t offsets[16])
{
    const uint16_t reciprocal = (uint16_t)((256 + fd - 1) / fd);
    const uint16_t step = (uint16_t)(column - fd);
    const uint16x8_t zero = vdupq_n_u16(0);
    for (int32_t half = 0; half < 2; half++) {
        const uint16x8_t i = vidupq_n_u16((uint32_t)(8 * half), 1);
        const uint16x8_t q = vshrq_n_u16(vmulq_n_u16(i, reciprocal), 8);
        const uint16x8_t off = vmlaq_n_u16(i, q, step);
        const uint32_t left = valid > 8 * half ? (uint32_t)(valid - 8 * half) : 0;
        vstrbq_u16(offsets + 8 * half, vpselq_u16(off, zero, vctp16q(left)));
    }
}

/* ta_conv_2d.c's put_columns: whole columns a vector, scattered;
   predicated at the end. */
void ta_conv_2d_put_columns_mve(const ta_conv_2d_params_t *p, const column_scatter_t *scatter,
                                int8_t *dst, const int8_t *src, int32_t columns)
{
    const int32_t fd = p->filter_depth, column = p->filter_height * fd;
    const uint8x16_t lane_offsets = vldrbq_u8(scatter->offsets);
    const int8x16_t pad = vdupq_n_s8((int8_t)p->pad_value);
    const int32_t step = scatter->per_vector * fd;
    for (int32_t bytes = columns * fd; bytes > 0; bytes -= step) {
        const mve_pred16_t lanes = vctp8q((uint32_t)(bytes < step ? bytes : step));
        vstrbq_scatter_offset_p_s8(dst, lane_offsets, src ? vldrbq_z_s8(src, lanes) : pad, lanes);
        src = src ? src + step : NULL;
        dst += (size_t)scatter->per_vector * (size_t)column;
    }
}
#endif /* TA_HAVE_MVE */
