"""Operators that make, broadcast or pick whole tensors without arithmetic
(no requantization; an int8 output keeps the input's quantization):
SELECT_V2, FILL, ZEROS_LIKE, BROADCAST_TO, BROADCAST_ARGS, SHAPE."""

import numpy as np

from ..common import (ModelBuilder, Q, chance, draw_float_values, draw_quant,
                      draw_shape, pick, rand_values, randint)
from ..core import variant


def _q(rng, dt):
    """int8/int16 tensors carry a quantization; the rest none."""
    if dt in ("int8", "int16"):
        return draw_quant(rng, dt, 1e-3, 1.0)
    return None


def _same(q):
    return None if q is None else Q(q.scales, q.zero_points, q.axis)


def _qjson(q):
    return None if q is None else q.to_json()


def _values(rng, dt, shape):
    if dt == "float32":
        return draw_float_values(rng, shape)
    return rand_values(rng, dt, shape)


def _broadcast_from(rng, out):
    """A shape that broadcasts to out: some dims 1, maybe a lower rank."""
    shape = [1 if chance(rng, 0.35) else d for d in out]
    if chance(rng, 0.3) and len(shape) > 1:
        shape = shape[randint(rng, 1, len(shape) - 1):]
    return shape


# ---------------------------------------------------------------- SELECT_V2
@variant("SELECT_V2.int8", "SELECT_V2")
def select_v2(rng):
    """SELECT_V2 of int8 (a quarter each int16 and float32) tensors on a
    bool condition, rank 1-5: same shapes or a three-way broadcast (size-1
    dims, lower-rank operands)."""
    dt = pick(rng, ["int8", "int8", "int16", "float32"])
    rank = randint(rng, 1, 5)
    out = draw_shape(rng, rank, 1024, 1, 6)
    if chance(rng, 0.3):
        shapes = [list(out)] * 3
    else:
        shapes = [_broadcast_from(rng, out) for _ in range(3)]
        shapes[randint(rng, 0, 2)] = list(out)   # one operand has the full rank
        out = list(np.broadcast_shapes(*[tuple(s) for s in shapes]))
    q = _q(rng, dt)
    b = ModelBuilder()
    c = b.tensor(shapes[0], "bool", name="condition")
    x = b.tensor(shapes[1], dt, q, name="x")
    const_y = chance(rng, 0.25)
    if const_y:
        y = b.const(_values(rng, dt, shapes[2]), dt, _same(q), name="y", shape=shapes[2])
    else:
        y = b.tensor(shapes[2], dt, _same(q), name="y")
    z = b.tensor(out, dt, _same(q), name="output")
    b.op("SELECT_V2", [c, x, y], [z], "SelectV2Options")
    inputs = [c, x] if const_y else [c, x, y]
    return b.build(inputs, [z]), {"dtype": dt, "condition_shape": shapes[0],
                                  "x_shape": shapes[1], "y_shape": shapes[2],
                                  "output_shape": out, "y_const": const_y,
                                  "quant": _qjson(q)}


# --------------------------------------------------------------------- FILL
@variant("FILL.int8", "FILL")
def fill(rng):
    """FILL of an int8 (or int32, float32) scalar value, given at run time
    or constant, into a rank 1-5 shape from constant int32/int64 dims
    (sometimes int8/int16, which TFLM also reads)."""
    dt = pick(rng, ["int8", "int8", "int32", "float32"])
    out = draw_shape(rng, randint(rng, 1, 5), 1024, 1, 7)
    ddt = pick(rng, ["int32", "int64", "int32", "int64", "int8", "int16"])
    q = _q(rng, dt)
    b = ModelBuilder()
    npdt = {"int8": np.int8, "int16": np.int16, "int32": np.int32, "int64": np.int64}[ddt]
    d = b.const(np.array(out, npdt), ddt, name="dims", shape=[len(out)])
    const_value = chance(rng, 0.25)
    if const_value:
        v = b.const(_values(rng, dt, []), dt, q, name="value", shape=[])
    else:
        v = b.tensor([], dt, q, name="value")
    y = b.tensor(out, dt, _same(q), name="output")
    b.op("FILL", [d, v], [y], "FillOptions")
    x = b.tensor([1], dt, _same(q), name="unused") if const_value else v
    return b.build([x], [y]), {"dtype": dt, "dims": out, "dims_dtype": ddt,
                               "value_const": const_value, "quant": _qjson(q)}


# --------------------------------------------------------------- ZEROS_LIKE
@variant("ZEROS_LIKE.int8", "ZEROS_LIKE")
def zeros_like(rng):
    """ZEROS_LIKE of an int8, int32, int64 or float32 tensor, rank 1-5."""
    dt = pick(rng, ["int8", "int32", "int64", "float32"])
    shape = draw_shape(rng, randint(rng, 1, 5), 1024, 1, 7)
    q = _q(rng, dt)
    b = ModelBuilder()
    x = b.tensor(shape, dt, q, name="input")
    y = b.tensor(shape, dt, _same(q), name="output")
    b.op("ZEROS_LIKE", [x], [y], "ZerosLikeOptions")
    return b.build([x], [y]), {"dtype": dt, "shape": shape, "quant": _qjson(q)}


# ------------------------------------------------------------- BROADCAST_TO
@variant("BROADCAST_TO.int8", "BROADCAST_TO")
def broadcast_to(rng):
    """BROADCAST_TO of an int8 (or int16, int32, float32, bool) tensor to a
    constant int32/int64 shape of rank 1-5 (size-1 dims stretched, leading
    dims added)."""
    dt = pick(rng, ["int8", "int8", "int16", "int32", "float32", "bool"])
    out = draw_shape(rng, randint(rng, 1, 5), 1024, 1, 6)
    shape = _broadcast_from(rng, out)
    sdt = pick(rng, ["int32", "int64"])
    q = _q(rng, dt)
    b = ModelBuilder()
    x = b.tensor(shape, dt, q, name="input")
    s = b.const(np.array(out, np.int32 if sdt == "int32" else np.int64), sdt, name="shape",
                shape=[len(out)])
    y = b.tensor(out, dt, _same(q), name="output")
    b.op("BROADCAST_TO", [x, s], [y], "BroadcastToOptions")
    return b.build([x], [y]), {"dtype": dt, "input_shape": shape, "shape": out,
                               "shape_dtype": sdt, "quant": _qjson(q)}


# ----------------------------------------------------------- BROADCAST_ARGS
@variant("BROADCAST_ARGS.int32", "BROADCAST_ARGS")
def broadcast_args(rng):
    """BROADCAST_ARGS of two int32 (or int64) shapes of length 1-6 that
    broadcast; one of them constant (TFLM aborts on shapes that do not
    broadcast, so random run-time values cannot be drawn for both)."""
    dt = pick(rng, ["int32", "int32", "int64"])
    out = [randint(rng, 1, 9) for _ in range(randint(rng, 1, 6))]
    s1, s2 = _broadcast_from(rng, out), _broadcast_from(rng, out)
    if chance(rng, 0.5):
        s1 = list(out)
    out = list(np.broadcast_shapes(tuple(s1), tuple(s2)))
    npdt = np.int32 if dt == "int32" else np.int64
    b = ModelBuilder()
    a = b.const(np.array(s1, npdt), dt, name="shape1", shape=[len(s1)])
    c = b.const(np.array(s2, npdt), dt, name="shape2", shape=[len(s2)])
    y = b.tensor([len(out)], dt, name="output")
    b.op("BROADCAST_ARGS", [a, c], [y])
    # The model needs an input: a second output copies it through SHAPE.
    x = b.tensor([randint(rng, 1, 4)], "int8", _q(rng, "int8"), name="input")
    xs = b.tensor([1], "int32", name="input_shape")
    b.op("SHAPE", [x], [xs], "ShapeOptions", outType=2)
    return b.build([x], [y, xs]), {"dtype": dt, "shape1": s1, "shape2": s2, "output": out}


# -------------------------------------------------------------------- SHAPE
@variant("SHAPE.int8", "SHAPE")
def shape(rng):
    """SHAPE (int32 output) of an int8 (or int16, int32, float32, bool)
    tensor of rank 1-5."""
    dt = pick(rng, ["int8", "int8", "int16", "int32", "float32", "bool"])
    in_shape = draw_shape(rng, randint(rng, 1, 5), 1024, 1, 7)
    b = ModelBuilder()
    x = b.tensor(in_shape, dt, _q(rng, dt), name="input")
    y = b.tensor([len(in_shape)], "int32", name="output")
    b.op("SHAPE", [x], [y], "ShapeOptions", outType=2)
    return b.build([x], [y]), {"dtype": dt, "shape": in_shape}
