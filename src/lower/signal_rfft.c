/*
 * signal_rfft.c - the Signal library's SignalRfft custom operator, int16
 * (TFLite Micro's signal/micro/kernels/rfft.cc over KISS FFT in 16-bit
 * fixed point). KISS FFT's setup runs here: the factorisation of the
 * complex length and the Q15 twiddles, computed in double with the same
 * expressions (floor(0.5 + 32767 * cos(phase))), so the kernel only runs
 * the butterflies.
 */
#include "../../runtime/kernels/ta_signal_rfft.h"
#include "common/custom_options.h"

#include <math.h>

enum { TFLITE_INT16 = 7 }; /* TensorType of the option T */

/* KISS FFT's kf_factor: radix 4 while it divides, then 2, then odd
   numbers up to the square root; the rest is one last radix. */
static int factor(int32_t n, int32_t *radix, int32_t *span, int max)
{
    int32_t p = 4;
    const double floor_sqrt = floor(sqrt((double)n));
    int stages = 0;
    do {
        while (n % p) {
            p = p == 4 ? 2 : p == 2 ? 3 : p + 2;
            if (p > floor_sqrt)
                p = n;
        }
        n /= p;
        if (stages == max)
            return -1;
        radix[stages] = p;
        span[stages] = n;
        stages++;
    } while (n > 1);
    return stages;
}

/* Q15 (cos, sin) of phase, as KISS FFT's fixed-point kf_cexp. */
static void q15_cexp(double phase, int16_t *out)
{
    out[0] = (int16_t)floor(.5 + 32767 * cos(phase));
    out[1] = (int16_t)floor(.5 + 32767 * sin(phase));
}

static bool lower(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 1, 1, 1))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    int32_t type, fft_length;
    if (!ta_custom_option_int(L, op, "T", INT32_MIN, INT32_MAX, &type) ||
        !ta_custom_option_int(L, op, "fft_length", 4, 32768, &fft_length))
        return false;
    if (type != TFLITE_INT16) {
        ta_op_error(L, op, "custom option 'T' is tensor type %d; tinyaot supports int16 (7)", type);
        return false;
    }
    if (!ta_expect_dtype(L, op, in, "input", TA_INT16, -1) ||
        !ta_expect_dtype(L, op, out, "output", TA_INT16, -1))
        return false;
    if (fft_length % 2) {
        ta_op_error(L, op, "fft_length %d is odd; the real FFT needs an even length", fft_length);
        return false;
    }
    const int32_t n = fft_length / 2;
    int32_t radix[TA_SIGNAL_RFFT_MAX_STAGES], span[TA_SIGNAL_RFFT_MAX_STAGES];
    const int stages = factor(n, radix, span, TA_SIGNAL_RFFT_MAX_STAGES);
    for (int s = 0; s < stages; s++) {
        if (radix[s] > 5) { /* KISS FFT's generic butterfly allocates, which TFLM's build cannot */
            ta_op_error(L, op,
                        "fft_length %d has the prime factor %d; TFLite Micro's KISS FFT build "
                        "supports factors 2, 3 and 5 only",
                        fft_length, radix[s]);
            return false;
        }
    }
    if (in->rank < 1 || in->rank != out->rank) {
        ta_op_error(L, op, "input %s and output %s differ in rank", ta_shape_text(L->pool, in),
                    ta_shape_text(L->pool, out));
        return false;
    }
    const int32_t input_length = in->dims[in->rank - 1];
    const size_t frames = input_length > 0 ? ta_tensor_elements(in) / (size_t)input_length : 0;
    if (input_length <= 0 || input_length > fft_length ||
        out->dims[out->rank - 1] != fft_length + 2 ||
        ta_tensor_elements(out) != frames * (size_t)(fft_length + 2)) {
        ta_op_error(L, op,
                    "input %s and output %s do not fit fft_length %d (frames of at most %d "
                    "samples in, %d values per frame out)",
                    ta_shape_text(L->pool, in), ta_shape_text(L->pool, out), fft_length, fft_length,
                    fft_length + 2);
        return false;
    }

    int16_t *tw = ta_alloc(L->pool, sizeof(int16_t) * 2 * (size_t)n);
    int16_t *super_tw = ta_alloc(L->pool, sizeof(int16_t) * 2 * (size_t)(n / 2));
    const double pi = 3.141592653589793238462643383279502884197169399375105820974944;
    for (int32_t i = 0; i < n; i++)
        q15_cexp(-2 * pi * i / n, tw + 2 * i);
    for (int32_t i = 0; i < n / 2; i++)
        q15_cexp(-3.14159265358979323846264338327 * ((double)(i + 1) / n + .5), super_tw + 2 * i);

    TaKernelCall *c = ta_call(L, op, "ta_signal_rfft_s16", "runtime/kernels/ta_signal_rfft.h");
    ta_signal_rfft_params_t *p = TA_CALL_PARAMS(L, c, ta_signal_rfft_params_t);
    p->fft_length = fft_length;
    p->input_length = input_length;
    p->frames = (int32_t)frames;
    p->stages = stages;
    for (int s = 0; s < stages; s++) {
        p->radix[s] = radix[s];
        p->span[s] = span[s];
    }
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, ta_local_constant(L, op, "twiddles", TA_INT16, 2 * n, tw));
    ta_call_arg(L, c, ta_local_constant(L, op, "super_twiddles", TA_INT16, 2 * (n / 2), super_tw));
    ta_call_arg(L, c, ta_local_scratch(L, op, "work", 2 * fft_length));
    ta_call_arg(L, c, out);
    return true;
}

const TaOpDef ta_op_signal_rfft = {NULL, lower};
