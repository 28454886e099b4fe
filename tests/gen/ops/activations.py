"""Unary activations: RELU, RELU6, LEAKY_RELU, PRELU, HARD_SWISH, LOGISTIC,
TANH, SOFTMAX, LOG_SOFTMAX.

Fixed output quantizations that TFLM's kernels require or assume:
  LOGISTIC int8 (1/256, -128), TANH int8 (1/128, 0), int16 both (2^-15, 0);
  SOFTMAX int8->int8 (1/256, -128), int8->int16 (1/65536, -32768),
  int16->int16 (1/32768, 0); LOG_SOFTMAX int8 (16/256, 127).
"""

from ..common import (ModelBuilder, Q, chance, draw_quant, draw_scale,
                      draw_shape, draw_simd_shape, draw_zero_point, f32, log_uniform, pick,
                      rand_values, randint)
from ..core import variant


def _shape(rng, max_rank=4, max_elems=1024):
    return draw_shape(rng, randint(rng, 1, max_rank), max_elems, 1, 10)


def _unary(op, shape, dt_in, q_in, q_out, dt_out=None, options=None, **fields):
    b = ModelBuilder()
    x = b.tensor(shape, dt_in, q_in, name="input")
    y = b.tensor(shape, dt_out or dt_in, q_out, name="output")
    b.op(op, [x], [y], options, **fields)
    return b.build([x], [y])


def _cfg(shape, q_in, q_out, **kw):
    d = {"shape": shape, "input_quant": q_in.to_json(),
         "output_quant": q_out.to_json()}
    d.update(kw)
    return d


def _relu(rng, dt):
    shape = _shape(rng)
    q_in = draw_quant(rng, dt, 1e-3, 1.0)
    if chance(rng, 0.3):
        q_out = Q(q_in.scale, q_in.zero_point)
    else:
        q_out = Q(f32(q_in.scale * 10 ** rng.uniform(-1, 1)), draw_zero_point(rng, dt))
        if dt == "int8" and chance(rng, 0.5):
            q_out.zero_points = [-128]   # typical for a ReLU output
    return _unary("RELU", shape, dt, q_in, q_out), _cfg(shape, q_in, q_out)


@variant("RELU.int8", "RELU")
def relu_int8(rng):
    """int8 RELU; output quantization equal to or different from the input's."""
    return _relu(rng, "int8")


@variant("RELU.int16", "RELU")
def relu_int16(rng):
    """int16 RELU (zero points 0), rescaling to the output scale."""
    return _relu(rng, "int16")


@variant("RELU6.int8", "RELU6")
def relu6_int8(rng):
    """int8 RELU6; TFLM clamps in the input's quantization, so the output
    quantization equals the input's."""
    shape = _shape(rng)
    q = draw_quant(rng, "int8", 1e-3, 0.2)
    return (_unary("RELU6", shape, "int8", q, Q(q.scale, q.zero_point)),
            _cfg(shape, q, q))


@variant("RELU6.int16", "RELU6")
def relu6_int16(rng):
    """int16 RELU6 (zero point 0); the output quantization equals the
    input's. Scales up to 6/32767 and beyond, so some draws saturate q(6)."""
    shape = _shape(rng)
    q = Q(draw_scale(rng, 1e-5, 1e-2), 0)
    return (_unary("RELU6", shape, "int16", q, Q(q.scale, q.zero_point)),
            _cfg(shape, q, q))


def _leaky_relu(rng, dt):
    shape = _shape(rng)
    q_in = draw_quant(rng, dt, 1e-3, 1.0)
    if chance(rng, 0.3):
        q_out = Q(q_in.scale, q_in.zero_point)
    else:
        q_out = Q(f32(q_in.scale * 10 ** rng.uniform(-1, 1)), draw_zero_point(rng, dt))
    alpha = f32(pick(rng, [log_uniform(rng, 0.01, 0.5), rng.uniform(0.5, 2.0),
                           0.2, 0.1, 0.01]))
    return (_unary("LEAKY_RELU", shape, dt, q_in, q_out, None, "LeakyReluOptions",
                   alpha=alpha),
            _cfg(shape, q_in, q_out, alpha=alpha))


@variant("LEAKY_RELU.int8", "LEAKY_RELU")
def leaky_relu_int8(rng):
    """int8 LEAKY_RELU, alpha 0.01-2, random output quantization."""
    return _leaky_relu(rng, "int8")


@variant("LEAKY_RELU.int16", "LEAKY_RELU")
def leaky_relu_int16(rng):
    """int16 LEAKY_RELU (zero points 0)."""
    return _leaky_relu(rng, "int16")


def _prelu(rng, dt):
    rank = randint(rng, 1, 4)
    shape = draw_shape(rng, rank, 1024, 1, 8)
    mode = pick(rng, ["channel", "full", "scalar", "partial"])
    if mode == "channel":
        ashape = [shape[-1]] if chance(rng, 0.5) else [1] * (rank - 1) + [shape[-1]]
    elif mode == "full":
        ashape = list(shape)
    elif mode == "scalar":
        ashape = [1]
    else:
        ashape = [d if chance(rng, 0.5) else 1 for d in shape]
    q_in = draw_quant(rng, dt, 1e-3, 1.0)
    q_alpha = draw_quant(rng, "int8", 1e-3, 0.02)
    q_out = Q(f32(q_in.scale * 10 ** rng.uniform(-1, 0.5)), draw_zero_point(rng, dt))
    b = ModelBuilder()
    x = b.tensor(shape, dt, q_in, name="input")
    a = b.const(rand_values(rng, "int8", ashape), "int8", q_alpha, name="alpha")
    y = b.tensor(shape, dt, q_out, name="output")
    b.op("PRELU", [x, a], [y])
    return b.build([x], [y]), _cfg(shape, q_in, q_out, alpha_shape=ashape,
                                    alpha_mode=mode, alpha_quant=q_alpha.to_json())


@variant("PRELU.int8", "PRELU")
def prelu_int8(rng):
    """int8 PRELU with a constant int8 alpha broadcast over the input (per
    channel, per element or scalar-like), alpha with its own quantization."""
    return _prelu(rng, "int8")


@variant("PRELU.int16", "PRELU")
def prelu_int16(rng):
    """int16 PRELU (zero points 0) with a constant int8 alpha (its own
    scale and zero point) broadcast as in PRELU.int8."""
    return _prelu(rng, "int16")


@variant("HARD_SWISH.int8", "HARD_SWISH")
def hard_swish_int8(rng):
    """int8 HARD_SWISH; output scale > input scale / 128 (TFLM needs the
    output multiplier exponent <= 0)."""
    shape = _shape(rng)
    q_in = draw_quant(rng, "int8", 1e-3, 0.5)
    lo = q_in.scale / 100.0
    q_out = Q(f32(max(lo, q_in.scale * 10 ** rng.uniform(-1, 0.7))),
              draw_zero_point(rng, "int8"))
    return _unary("HARD_SWISH", shape, "int8", q_in, q_out), _cfg(shape, q_in, q_out)


def _int16_sigmoid_input_scale(rng, pot_shifts):
    """int16 LOGISTIC/TANH input scale: sometimes the power of two that
    selects the kernels' exact path, otherwise arbitrary."""
    if chance(rng, 0.25):
        return f32(2.0 ** -pick(rng, pot_shifts)), True
    return draw_scale(rng, 2e-5, 3e-3), False


def _logistic(rng, dt, shape):
    if dt == "int8":
        q_in = draw_quant(rng, "int8", 1e-3, 0.5)
        q_out = Q(1.0 / 256, -128)
        return _unary("LOGISTIC", shape, "int8", q_in, q_out), _cfg(shape, q_in, q_out)
    s, pot = _int16_sigmoid_input_scale(rng, [12, 12, 11, 13])
    q_in, q_out = Q(s, 0), Q(2.0 ** -15, 0)
    return (_unary("LOGISTIC", shape, "int16", q_in, q_out),
            _cfg(shape, q_in, q_out, pot_input_scale=pot))


def _tanh(rng, dt, shape):
    if dt == "int8":
        q_in = draw_quant(rng, "int8", 1e-3, 0.5)
        q_out = Q(1.0 / 128, 0)
        return _unary("TANH", shape, "int8", q_in, q_out), _cfg(shape, q_in, q_out)
    s, pot = _int16_sigmoid_input_scale(rng, [12, 11, 13])
    q_in, q_out = Q(s, 0), Q(2.0 ** -15, 0)
    return (_unary("TANH", shape, "int16", q_in, q_out),
            _cfg(shape, q_in, q_out, pot_input_scale=pot))


def _simd_shape(rng):
    """Rank 1-3, last dimension a SIMD size up to 257 (vector tails)."""
    return draw_simd_shape(rng, randint(rng, 1, 3))


@variant("LOGISTIC.int8", "LOGISTIC")
def logistic_int8(rng):
    """int8 LOGISTIC -> (1/256, -128); random input quantization."""
    return _logistic(rng, "int8", _shape(rng))


@variant("LOGISTIC.int16", "LOGISTIC")
def logistic_int16(rng):
    """int16 LOGISTIC -> (2^-15, 0); input zero point 0, scale arbitrary or
    the power of two 2^-12 (TFLM's shift-only path)."""
    return _logistic(rng, "int16", _shape(rng))


@variant("TANH.int8", "TANH")
def tanh_int8(rng):
    """int8 TANH -> (1/128, 0); random input quantization."""
    return _tanh(rng, "int8", _shape(rng))


@variant("TANH.int16", "TANH")
def tanh_int16(rng):
    """int16 TANH -> (2^-15, 0); input scale arbitrary or 2^-12 / 2^-11."""
    return _tanh(rng, "int16", _shape(rng))


for _dt in ("int8", "int16"):
    def _make_simd(fn_, op, dt=_dt):
        def fn(rng):
            return fn_(rng, dt, _simd_shape(rng))
        fn.__doc__ = "%s %s at SIMD sizes (last dimension 1-257)." % (dt, op)
        return fn
    variant("LOGISTIC.%s_simd" % _dt, "LOGISTIC", simd=True)(_make_simd(_logistic, "LOGISTIC"))
    variant("TANH.%s_simd" % _dt, "TANH", simd=True)(_make_simd(_tanh, "TANH"))


def _softmax_shape(rng, simd=False):
    """Shape whose last (softmax) axis is mostly longer than 1."""
    shape = _simd_shape(rng) if simd else _shape(rng)
    if shape[-1] == 1 and chance(rng, 0.9):
        shape[-1] = randint(rng, 2, 10)
    return shape


def _softmax_input_scale(rng, dt="int8"):
    """Mostly scales for which the softmax output is graded rather than
    saturated (input spread of a few units), sometimes large ones."""
    if dt == "int16":
        return draw_scale(rng, 3e-5, 3e-4) if chance(rng, 0.8) else draw_scale(rng, 3e-4, 2e-3)
    return draw_scale(rng, 1e-3, 0.05) if chance(rng, 0.8) else draw_scale(rng, 0.05, 0.5)


def _beta(rng):
    return f32(pick(rng, [1.0, 1.0, 1.0, log_uniform(rng, 0.1, 4.0)]))


@variant("SOFTMAX.int8", "SOFTMAX")
def softmax_int8(rng, simd=False):
    """int8 SOFTMAX over the last axis -> (1/256, -128); beta 1 or random."""
    shape = _softmax_shape(rng, simd)
    q_in = Q(_softmax_input_scale(rng), draw_zero_point(rng, "int8"))
    q_out = Q(1.0 / 256, -128)
    beta = _beta(rng)
    return (_unary("SOFTMAX", shape, "int8", q_in, q_out, None, "SoftmaxOptions",
                   beta=beta), _cfg(shape, q_in, q_out, beta=beta))


@variant("SOFTMAX.int8_int16", "SOFTMAX")
def softmax_int8_int16(rng, simd=False):
    """int8 -> int16 SOFTMAX, output (1/65536, -32768)."""
    shape = _softmax_shape(rng, simd)
    q_in = Q(_softmax_input_scale(rng), draw_zero_point(rng, "int8"))
    q_out = Q(1.0 / 65536, -32768)
    beta = _beta(rng)
    return (_unary("SOFTMAX", shape, "int8", q_in, q_out, "int16", "SoftmaxOptions",
                   beta=beta), _cfg(shape, q_in, q_out, beta=beta))


@variant("SOFTMAX.int16", "SOFTMAX")
def softmax_int16(rng, simd=False):
    """int16 SOFTMAX -> (1/32768, 0); input zero point 0."""
    shape = _softmax_shape(rng, simd)
    q_in = Q(_softmax_input_scale(rng, "int16"), 0)
    q_out = Q(1.0 / 32768, 0)
    beta = _beta(rng)
    return (_unary("SOFTMAX", shape, "int16", q_in, q_out, None, "SoftmaxOptions",
                   beta=beta), _cfg(shape, q_in, q_out, beta=beta))


for _name, _fn in (("int8", softmax_int8), ("int8_int16", softmax_int8_int16),
                   ("int16", softmax_int16)):
    def _make_softmax_simd(fn_=_fn, name=_name):
        def fn(rng):
            return fn_(rng, simd=True)
        fn.__doc__ = "SOFTMAX %s at SIMD sizes (rows of 1-257)." % name
        return fn
    variant("SOFTMAX.%s_simd" % _name, "SOFTMAX", simd=True)(_make_softmax_simd())


@variant("LOG_SOFTMAX.int8", "LOG_SOFTMAX")
def log_softmax_int8(rng):
    """int8 LOG_SOFTMAX over the last axis -> (16/256, 127)."""
    shape = _softmax_shape(rng)
    q_in = Q(_softmax_input_scale(rng), draw_zero_point(rng, "int8"))
    q_out = Q(16.0 / 256, 127)
    return (_unary("LOG_SOFTMAX", shape, "int8", q_in, q_out, None,
                   "LogSoftmaxOptions"), _cfg(shape, q_in, q_out))
