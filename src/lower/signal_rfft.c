/*
 * signal_rfft.c - the Signal library's SignalRfft and SignalIrfft custom
 * operators, int16, int32 and float32 (TFLite Micro's
 * signal/micro/kernels/rfft.cc and irfft.cc over KISS FFT, in 16-bit or
 * 32-bit fixed point or in float). KISS FFT's setup runs here: the
 * factorisation of the complex length and the twiddles, computed in
 * double with KISS FFT's expressions (fixed point: floor(0.5 + max *
 * cos(phase)); float: (float)cos(phase); the inverse's phases negated), so
 * the kernels only run the butterflies.
 */
#include "../../runtime/kernels/ta_signal_fft_f32.h"
#include "../../runtime/kernels/ta_signal_fft_i32.h"
#include "../../runtime/kernels/ta_signal_rfft.h"
#include "common/custom_options.h"

#include <math.h>

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

/* One element type's kernels and twiddle format. */
typedef struct {
    TaDtype dtype;
    const char *forward, *inverse, *header;
    double fixed_max; /* KISS FFT's SAMP_MAX; 0 for float */
} FftType;

static const FftType FFT_TYPES[] = {
    {TA_INT16, "ta_signal_rfft_i16", "ta_signal_irfft_i16", "runtime/kernels/ta_signal_rfft.h",
     32767.0},
    {TA_INT32, "ta_signal_rfft_i32", "ta_signal_irfft_i32", "runtime/kernels/ta_signal_fft_i32.h",
     2147483647.0},
    {TA_FLOAT32, "ta_signal_rfft_f32", "ta_signal_irfft_f32", "runtime/kernels/ta_signal_fft_f32.h",
     0.0},
};

/* The (cos, sin) pair of each phase in the type's format (KISS FFT's
   kf_cexp), negated phases for the inverse, as a local constant. */
static TaTensor *twiddle_table(TaLower *L, TaOp *op, const FftType *type, const char *role,
                               const double *phases, int32_t count, bool inverse)
{
    const size_t values = 2 * (size_t)count;
    /* one spare element: a table of no pairs still gets a buffer */
    void *data = ta_alloc(L->pool, (values + 1) * (type->dtype == TA_INT16 ? 2 : 4));
    for (int32_t i = 0; i < count; i++) {
        const double phase = inverse ? -phases[i] : phases[i];
        const double c = cos(phase), s = sin(phase);
        if (type->dtype == TA_INT16) {
            ((int16_t *)data)[2 * i] = (int16_t)floor(.5 + type->fixed_max * c);
            ((int16_t *)data)[2 * i + 1] = (int16_t)floor(.5 + type->fixed_max * s);
        } else if (type->dtype == TA_INT32) {
            ((int32_t *)data)[2 * i] = (int32_t)floor(.5 + type->fixed_max * c);
            ((int32_t *)data)[2 * i + 1] = (int32_t)floor(.5 + type->fixed_max * s);
        } else {
            ((float *)data)[2 * i] = (float)c;
            ((float *)data)[2 * i + 1] = (float)s;
        }
    }
    return ta_local_constant(L, op, role, type->dtype, (int32_t)values, data);
}

static bool lower_fft(TaLower *L, TaOp *op, bool inverse)
{
    if (!ta_expect_counts(L, op, 1, 1, 1))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    int32_t type_code, fft_length;
    if (!ta_custom_option_int(L, op, "T", INT32_MIN, INT32_MAX, &type_code) ||
        !ta_custom_option_int(L, op, "fft_length", 4, 32768, &fft_length))
        return false;
    const FftType *type = NULL;
    for (size_t t = 0; t < sizeof FFT_TYPES / sizeof FFT_TYPES[0]; t++)
        if ((int32_t)FFT_TYPES[t].dtype == type_code)
            type = &FFT_TYPES[t];
    if (!type) {
        ta_op_error(L, op,
                    "custom option 'T' is tensor type %d; tinyaot supports int16 (7), int32 (2) "
                    "and float32 (0)",
                    type_code);
        return false;
    }
    if (!ta_expect_dtype(L, op, in, "input", type->dtype, -1) ||
        !ta_expect_dtype(L, op, out, "output", type->dtype, -1))
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
    /* Forward: frames of at most fft_length samples, fft_length + 2 values
       out. Inverse: at least the fft_length / 2 + 1 bins in (TFLite Micro
       reads those), exactly fft_length samples out (it writes that many). */
    const int32_t out_length = inverse ? fft_length : fft_length + 2;
    const bool input_fits = inverse ? input_length >= fft_length + 2 && input_length % 2 == 0
                                    : input_length > 0 && input_length <= fft_length;
    if (!input_fits || out->dims[out->rank - 1] != out_length ||
        ta_tensor_elements(out) != frames * (size_t)out_length) {
        if (inverse)
            ta_op_error(L, op,
                        "input %s and output %s do not fit fft_length %d (frames of at least %d "
                        "values, an even count, in; %d samples per frame out)",
                        ta_shape_text(L->pool, in), ta_shape_text(L->pool, out), fft_length,
                        fft_length + 2, fft_length);
        else
            ta_op_error(L, op,
                        "input %s and output %s do not fit fft_length %d (frames of at most %d "
                        "samples in, %d values per frame out)",
                        ta_shape_text(L->pool, in), ta_shape_text(L->pool, out), fft_length,
                        fft_length, fft_length + 2);
        return false;
    }

    /* kiss_fft_alloc's and kiss_fftr_alloc's phases, each with its own pi */
    double *phases = ta_alloc(L->pool, sizeof(double) * (size_t)n);
    const double pi = 3.141592653589793238462643383279502884197169399375105820974944;
    for (int32_t i = 0; i < n; i++)
        phases[i] = -2 * pi * i / n;
    TaTensor *tw = twiddle_table(L, op, type, "twiddles", phases, n, inverse);
    for (int32_t i = 0; i < n / 2; i++)
        phases[i] = -3.14159265358979323846264338327 * ((double)(i + 1) / n + .5);
    TaTensor *super_tw = twiddle_table(L, op, type, "super_twiddles", phases, n / 2, inverse);

    TaKernelCall *c = ta_call(L, op, inverse ? type->inverse : type->forward, type->header);
    ta_signal_rfft_params_t *p = TA_CALL_PARAMS(L, c, ta_signal_rfft_params_t);
    p->fft_length = fft_length;
    p->input_length = input_length;
    p->frames = (int32_t)frames;
    p->stages = stages;
    for (int s = 0; s < stages; s++) {
        p->radix[s] = radix[s];
        p->span[s] = span[s];
    }
    const int32_t element = type->dtype == TA_INT16 ? 2 : 4;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, tw);
    ta_call_arg(L, c, super_tw);
    ta_call_arg(L, c, ta_local_scratch(L, op, "work", element * fft_length));
    ta_call_arg(L, c, out);
    return true;
}

static bool lower_rfft(TaLower *L, TaOp *op)
{
    return lower_fft(L, op, false);
}

static bool lower_irfft(TaLower *L, TaOp *op)
{
    return lower_fft(L, op, true);
}

const TaOpDef ta_op_signal_rfft = {NULL, lower_rfft};
const TaOpDef ta_op_signal_irfft = {NULL, lower_irfft};
