"""Binary elementwise ops with broadcasting (up to 4-D, as TFLM's
broadcast kernels are 4-D): ADD, SUB, MUL, MAXIMUM, MINIMUM,
SQUARED_DIFFERENCE and the comparisons."""

import math

import numpy as np

from ..common import (ModelBuilder, Q, UNIFORM_STD, broadcast_shapes, chance,
                      draw_activation, draw_scale, draw_zero_point, f32, pick,
                      rand_values, randint, simd_broadcast_shapes)
from ..core import variant


def _long_row_shapes(rng):
    """Shapes whose innermost rows are long enough for the SIMD loops (16
    lanes, four int32 lanes) with every kind of tail, broadcast along one
    axis (the innermost included), to a scalar, or not at all."""
    rank = randint(rng, 1, 4)
    out = [randint(rng, 1, 3) for _ in range(rank - 1)]
    out.append(pick(rng, [1, 3, 4, 5, 15, 16, 17, 31, 33, 64, 100, 255]))
    a, b = list(out), list(out)
    mode = pick(rng, ["same", "axis", "axis", "scalar"])
    if mode == "axis":
        axis = randint(rng, 0, rank - 1)
        (a if chance(rng, 0.5) else b)[axis] = 1
    elif mode == "scalar":
        (a if chance(rng, 0.5) else b)[:] = [1] * rank
    outshape = list(np.broadcast_shapes(tuple(a), tuple(b)))
    return a, b, outshape


def _operands(rng, b, dt, q1, q2, config, simd=False, rows=False):
    rank = randint(rng, 1, 4)
    if simd:
        s1, s2, out = simd_broadcast_shapes(rng, rank)
    elif rows:
        s1, s2, out = _long_row_shapes(rng)
    else:
        s1, s2, out = broadcast_shapes(rng, rank)
    const_second = chance(rng, 0.25)
    x = b.tensor(s1, dt, q1, name="input1")
    if const_second:
        y = b.const(rand_values(rng, dt, s2), dt, q2, name="input2")
    else:
        y = b.tensor(s2, dt, q2, name="input2")
    config.update({"input1_shape": s1, "input2_shape": s2, "output_shape": out,
                   "input2_const": const_second, "input1_quant": q1.to_json(),
                   "input2_quant": q2.to_json()})
    return x, y, out, ([x] if const_second else [x, y])


def _out_scale(rng, real_std, ref_scale, dt):
    """Output scale near what real_std needs, kept within 10**1.5 of
    ref_scale so that the kernels' multipliers stay in their valid range."""
    qrange = 255.0 if dt != "int16" else 65535.0
    s = 6.0 * real_std / qrange * 10 ** rng.uniform(-1.0, 1.0)
    s = min(max(s, ref_scale * 10 ** -1.5), ref_scale * 10 ** 1.5)
    return f32(s)


def _arith(rng, op, dt, simd=False, rows=False):
    b = ModelBuilder()
    config = {}
    q1 = Q(draw_scale(rng, 1e-3, 1.0), draw_zero_point(rng, dt))
    if chance(rng, 0.2):
        q2 = Q(q1.scale, q1.zero_point)       # same quantization
    else:
        q2 = Q(draw_scale(rng, 1e-3, 1.0), draw_zero_point(rng, dt))
    x, y, out, inputs = _operands(rng, b, dt, q1, q2, config, simd, rows)
    act = draw_activation(rng, p_none=0.5)
    std = UNIFORM_STD[dt]
    if op == "MUL":
        real = (std * q1.scale) * (std * q2.scale)
        qo = Q(f32(6.0 * real / (255.0 if dt == "int8" else 65535.0)
                   * 10 ** rng.uniform(-1.0, 1.0)), draw_zero_point(rng, dt))
    else:
        real = math.hypot(std * q1.scale, std * q2.scale)
        qo = Q(_out_scale(rng, real, max(q1.scale, q2.scale), dt),
               draw_zero_point(rng, dt))
    z = b.tensor(out, dt, qo, name="output")
    opts = {"ADD": "AddOptions", "SUB": "SubOptions", "MUL": "MulOptions"}[op]
    extra = {}
    if op in ("ADD", "SUB"):
        # TFLM always uses the general int16 path; so does LiteRT with
        # pot_scale_int16 = false (what the converter writes for int16x8).
        extra["potScaleInt16"] = False
    b.op(op, [x, y], [z], opts, fusedActivationFunction=act, **extra)
    config.update({"activation": act, "output_quant": qo.to_json()})
    return b.build(inputs, [z]), config


for _op in ("ADD", "SUB", "MUL"):
    for _dt in ("int8", "int16"):
        def _make(op=_op, dt=_dt):
            def fn(rng):
                return _arith(rng, op, dt)
            fn.__doc__ = ("%s %s: rank 1-4, broadcasting (size-1 dims, lower-rank "
                          "operand), optional constant operand, random scales%s, "
                          "all fused activations." % (
                              dt, op, " and zero points" if dt == "int8"
                              else " (zero points 0)"))
            return fn
        variant("%s.%s" % (_op, _dt), _op)(_make())

        def _make_simd(op=_op, dt=_dt):
            def fn(rng):
                return _arith(rng, op, dt, simd=True)
            fn.__doc__ = ("%s %s at SIMD sizes: last dimension 1-257 (vector "
                          "tails), equal shapes, scalar, per-channel and general "
                          "broadcasting." % (dt, op))
            return fn
        variant("%s.%s_simd" % (_op, _dt), _op, simd=True)(_make_simd())


def _minmax_like(rng, op, dt, simd=False, rows=False, mixed=False):
    """mixed: each of the three tensors has its own scale and zero point
    (TFLM compares and copies the raw values regardless)."""
    b = ModelBuilder()
    config = {}
    q = Q(draw_scale(rng, 1e-3, 1.0), draw_zero_point(rng, dt))
    if mixed:
        q2 = Q(draw_scale(rng, 1e-3, 1.0), draw_zero_point(rng, dt))
        qo = Q(draw_scale(rng, 1e-3, 1.0), draw_zero_point(rng, dt))
    else:
        q2, qo = Q(q.scale, q.zero_point), Q(q.scale, q.zero_point)
    x, y, out, inputs = _operands(rng, b, dt, q, q2, config, simd, rows)
    z = b.tensor(out, dt, qo, name="output")
    b.op(op, [x, y], [z])
    config["output_quant"] = qo.to_json()
    return b.build(inputs, [z]), config


@variant("MAXIMUM.int8", "MAXIMUM")
def maximum_int8(rng):
    """int8 MAXIMUM with broadcasting; inputs and output share quantization."""
    return _minmax_like(rng, "MAXIMUM", "int8")


@variant("MINIMUM.int8", "MINIMUM")
def minimum_int8(rng):
    """int8 MINIMUM with broadcasting; inputs and output share quantization."""
    return _minmax_like(rng, "MINIMUM", "int8")


for _op in ("MAXIMUM", "MINIMUM"):
    def _make_minmax16(op=_op):
        def fn(rng):
            return _minmax_like(rng, op, "int16", mixed=chance(rng, 0.5))
        fn.__doc__ = ("int16 %s with broadcasting; half the draws give inputs and "
                      "output one quantization, half each its own." % op)
        return fn
    variant("%s.int16" % _op, _op)(_make_minmax16())

    def _make_minmax_mixed(op=_op):
        def fn(rng):
            return _minmax_like(rng, op, "int8", mixed=True)
        fn.__doc__ = ("int8 %s with broadcasting, inputs and output each with its "
                      "own scale and zero point (TFLM compares raw values)." % op)
        return fn
    variant("%s.int8_mixed_quant" % _op, _op)(_make_minmax_mixed())


def _squared_difference(rng, dt, simd=False, rows=False):
    b = ModelBuilder()
    config = {}
    q1 = Q(draw_scale(rng, 1e-3, 1.0), draw_zero_point(rng, dt))
    q2 = Q(draw_scale(rng, 1e-3, 1.0), draw_zero_point(rng, dt)) \
        if chance(rng, 0.7) else Q(q1.scale, q1.zero_point)
    x, y, out, inputs = _operands(rng, b, dt, q1, q2, config, simd, rows)
    std = UNIFORM_STD[dt]
    real = (std * q1.scale) ** 2 + (std * q2.scale) ** 2
    qrange = 255.0 if dt == "int8" else 65535.0
    qo = Q(f32(4.0 * real / qrange * 10 ** rng.uniform(-1.0, 1.0)),
           draw_zero_point(rng, dt))
    z = b.tensor(out, dt, qo, name="output")
    b.op("SQUARED_DIFFERENCE", [x, y], [z])
    config["output_quant"] = qo.to_json()
    return b.build(inputs, [z]), config


@variant("MAXIMUM.int8_simd", "MAXIMUM", simd=True)
def maximum_int8_simd(rng):
    """int8 MAXIMUM at SIMD sizes (vector tails, broadcasting)."""
    return _minmax_like(rng, "MAXIMUM", "int8", simd=True)


@variant("MINIMUM.int8_simd", "MINIMUM", simd=True)
def minimum_int8_simd(rng):
    """int8 MINIMUM at SIMD sizes (vector tails, broadcasting)."""
    return _minmax_like(rng, "MINIMUM", "int8", simd=True)


@variant("SQUARED_DIFFERENCE.int8_simd", "SQUARED_DIFFERENCE", simd=True)
def sqdiff_int8_simd(rng):
    """int8 SQUARED_DIFFERENCE at SIMD sizes."""
    return _squared_difference(rng, "int8", simd=True)


@variant("SQUARED_DIFFERENCE.int8", "SQUARED_DIFFERENCE")
def sqdiff_int8(rng):
    """int8 SQUARED_DIFFERENCE with broadcasting and random quantization."""
    return _squared_difference(rng, "int8")


@variant("SQUARED_DIFFERENCE.int16", "SQUARED_DIFFERENCE")
def sqdiff_int16(rng):
    """int16 SQUARED_DIFFERENCE (zero points 0)."""
    return _squared_difference(rng, "int16")


def _comparison(rng, op, rows=False):
    b = ModelBuilder()
    config = {}
    # TFLM rescales each int8 input with a multiplier that must be < 1.
    q1 = Q(draw_scale(rng, 1e-3, 0.9), draw_zero_point(rng, "int8"))
    mode = pick(rng, ["same", "different", "close"])
    if mode == "same":
        q2 = Q(q1.scale, q1.zero_point)
    elif mode == "close":
        q2 = Q(f32(q1.scale * rng.uniform(0.9, 1.1)), q1.zero_point + randint(rng, -3, 3))
        q2.zero_points = [max(-128, min(127, q2.zero_point))]
    else:
        q2 = Q(draw_scale(rng, 1e-3, 0.9), draw_zero_point(rng, "int8"))
    x, y, out, inputs = _operands(rng, b, "int8", q1, q2, config, rows=rows)
    z = b.tensor(out, "bool", name="output")
    b.op(op, [x, y], [z])
    config["quant_mode"] = mode
    return b.build(inputs, [z]), config


for _op in ("LESS", "LESS_EQUAL", "GREATER", "GREATER_EQUAL", "EQUAL", "NOT_EQUAL"):
    def _make_cmp(op=_op):
        def fn(rng):
            return _comparison(rng, op)
        fn.__doc__ = ("int8 %s -> bool with broadcasting; the two inputs have "
                      "the same, close, or unrelated quantization." % op)
        return fn
    variant("%s.int8" % _op, _op)(_make_cmp())


# Long rows for the SIMD paths (tests/test_simd.py runs these on both cores).
_ROWS = {
    "ADD": lambda rng: _arith(rng, "ADD", "int8", rows=True),
    "SUB": lambda rng: _arith(rng, "SUB", "int8", rows=True),
    "MUL": lambda rng: _arith(rng, "MUL", "int8", rows=True),
    "MAXIMUM": lambda rng: _minmax_like(rng, "MAXIMUM", "int8", rows=True),
    "MINIMUM": lambda rng: _minmax_like(rng, "MINIMUM", "int8", rows=True),
    "SQUARED_DIFFERENCE": lambda rng: _squared_difference(rng, "int8", rows=True),
    "LESS": lambda rng: _comparison(rng, "LESS", rows=True),
}
for _op, _draw in _ROWS.items():
    def _make_rows(op=_op, draw=_draw):
        def fn(rng):
            return draw(rng)
        fn.__doc__ = ("int8 %s on rows of 1-255 elements (SIMD tails), broadcast along "
                      "one axis, to a scalar, or not at all." % op)
        return fn
    variant("%s.int8_rows" % _op, _op)(_make_rows())
