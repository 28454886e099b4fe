"""float32 variants of the elementwise unary operators and activations:
RELU, RELU6, LEAKY_RELU, PRELU, HARD_SWISH, LOGISTIC, TANH, ELU, EXP, LOG,
SQRT, RSQRT, ABS, NEG, SIN, COS, SQUARE, FLOOR, CEIL, ROUND, and SOFTMAX
(with beta) and LOG_SOFTMAX over the last dimension. The oracle
draws the inputs over [-8, 8], 10 % up to [-16, 16] (tests/harness/oracle.py;
10 % exact halves for ROUND, its ties), so LOG, SQRT and RSQRT also meet negative inputs and return NaN
as TFLite Micro does. The modules must match its float reference kernels
bit for bit."""

from ..common import (ModelBuilder, chance, draw_float_values, draw_shape, log_uniform, pick,
                      randint)
from ..core import variant

UNARY = ["RELU", "RELU6", "HARD_SWISH", "LOGISTIC", "TANH", "ELU", "EXP", "LOG", "SQRT",
         "RSQRT", "ABS", "NEG", "SIN", "COS", "SQUARE", "FLOOR", "CEIL", "ROUND"]


def _shape(rng):
    return draw_shape(rng, randint(rng, 1, 4), 1024, 1, 10)


def _unary_float(rng, op, options=None, **fields):
    shape = _shape(rng)
    b = ModelBuilder()
    x = b.tensor(shape, "float32", name="input")
    y = b.tensor(shape, "float32", name="output")
    b.op(op, [x], [y], options, **fields)
    config = {"shape": shape}
    config.update(fields)
    return b.build([x], [y]), config


for _op in UNARY:
    def _make(op=_op):
        def fn(rng):
            return _unary_float(rng, op)
        fn.__doc__ = "float32 %s: rank 1-4, up to 1024 elements." % op
        return fn
    variant("%s.float32" % _op, _op)(_make())


@variant("LEAKY_RELU.float32", "LEAKY_RELU")
def leaky_relu_float32(rng):
    """float32 LEAKY_RELU: alpha in +-(0.001..10), 0 or 1 at times."""
    if chance(rng, 0.15):
        alpha = pick(rng, [0.0, 1.0])
    else:
        alpha = log_uniform(rng, 1e-3, 10.0) * pick(rng, [1, 1, 1, -1])
    return _unary_float(rng, "LEAKY_RELU", "LeakyReluOptions", alpha=float(alpha))


@variant("PRELU.float32", "PRELU")
def prelu_float32(rng):
    """float32 PRELU: constant alpha per channel, full, scalar or partly
    broadcast."""
    shape = _shape(rng)
    rank = len(shape)
    mode = pick(rng, ["channel", "full", "scalar", "partial"])
    if mode == "channel":
        ashape = [shape[-1]] if chance(rng, 0.5) else [1] * (rank - 1) + [shape[-1]]
    elif mode == "full":
        ashape = list(shape)
    elif mode == "scalar":
        ashape = [1]
    else:
        ashape = [d if chance(rng, 0.5) else 1 for d in shape]
    b = ModelBuilder()
    x = b.tensor(shape, "float32", name="input")
    a = b.const(draw_float_values(rng, ashape, 1.0), "float32", name="alpha")
    y = b.tensor(shape, "float32", name="output")
    b.op("PRELU", [x, a], [y])
    return b.build([x], [y]), {"shape": shape, "alpha_shape": ashape, "alpha_mode": mode}


@variant("SOFTMAX.float32", "SOFTMAX")
def softmax_float32(rng):
    """float32 SOFTMAX over the last axis: rank 1-4, up to 1024 elements,
    beta 1 or in 0.05..20."""
    beta = 1.0 if chance(rng, 0.4) else float(log_uniform(rng, 0.05, 20.0))
    return _unary_float(rng, "SOFTMAX", "SoftmaxOptions", beta=beta)


@variant("LOG_SOFTMAX.float32", "LOG_SOFTMAX")
def log_softmax_float32(rng):
    """float32 LOG_SOFTMAX over the last axis: rank 1-4, up to 1024
    elements."""
    return _unary_float(rng, "LOG_SOFTMAX")
