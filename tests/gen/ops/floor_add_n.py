"""Arithmetic TFLite Micro runs in float32 (FLOOR_DIV, FLOOR_MOD) or in
float32 and int8 (ADD_N)."""

import numpy as np

from ..common import (ModelBuilder, Q, broadcast_shapes, chance, draw_float_values,
                      draw_quant, draw_shape, randint)
from ..core import variant


def _nonzero(rng, shape):
    """float32 values with no zero: TFLM's FLOOR_DIV fails the run on one."""
    x = draw_float_values(rng, shape, p_zero=0.0)
    x[x == 0] = np.float32(1.0)
    return x


def _floor_binary(rng, op):
    b = ModelBuilder()
    s1, s2, out = broadcast_shapes(rng, randint(rng, 1, 4))
    x = b.tensor(s1, "float32", name="input1")
    inputs = [x]
    const_second = chance(rng, 0.3)
    if const_second:
        y = b.const(_nonzero(rng, s2), "float32", name="input2", shape=s2)
    else:
        y = b.tensor(s2, "float32", name="input2")
        inputs.append(y)
    z = b.tensor(out, "float32", name="output")
    b.op(op, [x, y], [z], "FloorDivOptions" if op == "FLOOR_DIV" else "FloorModOptions")
    return b.build(inputs, [z]), {"input1_shape": s1, "input2_shape": s2,
                                  "output_shape": out, "input2_const": const_second}


@variant("FLOOR_DIV.float32", "FLOOR_DIV")
def floor_div(rng):
    """float32 FLOOR_DIV: rank 1-4, broadcasting, optional constant
    (nonzero) divisor."""
    return _floor_binary(rng, "FLOOR_DIV")


@variant("FLOOR_MOD.float32", "FLOOR_MOD")
def floor_mod(rng):
    """float32 FLOOR_MOD: rank 1-4, broadcasting, optional constant
    divisor."""
    return _floor_binary(rng, "FLOOR_MOD")


def _add_n(rng, dt):
    n = randint(rng, 2, 6)
    shape = draw_shape(rng, randint(rng, 1, 4), 1024, 1, 8)
    b = ModelBuilder()
    q = draw_quant(rng, "int8", 1e-3, 1.0) if dt == "int8" else None
    if q is not None:
        # The output covers about the sum's range: sometimes saturating.
        out_q = draw_quant(rng, "int8", q.scales[0] * 0.3, q.scales[0] * 3 * n)
    ins, graph_inputs, consts = [], [], []
    for i in range(n):
        qi = None if q is None else Q(q.scales, q.zero_points)
        if chance(rng, 0.2):
            data = (draw_float_values(rng, shape) if dt == "float32" else
                    rng.integers(-128, 128, size=shape).astype(np.int8))
            t = b.const(data, dt, qi, name="input%d" % i, shape=shape)
            consts.append(i)
        else:
            t = b.tensor(shape, dt, qi, name="input%d" % i)
            graph_inputs.append(t)
        ins.append(t)
    if not graph_inputs:
        t = b.tensor(shape, dt, None if q is None else Q(q.scales, q.zero_points),
                     name="input%d" % n)
        ins.append(t)
        graph_inputs.append(t)
    y = b.tensor(shape, dt, out_q if q is not None else None, name="output")
    b.op("ADD_N", ins, [y], "AddNOptions")
    return b.build(graph_inputs, [y]), {
        "dtype": dt, "inputs": len(ins), "shape": shape, "constant_inputs": consts,
        "quant": None if q is None else q.to_json(),
        "output_quant": None if q is None else out_q.to_json()}


@variant("ADD_N.int8", "ADD_N")
def add_n_int8(rng):
    """int8 ADD_N of 2-7 same-shape inputs sharing one quantization (TFLM
    requires it), some constant; output scale around the sum's range."""
    return _add_n(rng, "int8")


@variant("ADD_N.float32", "ADD_N")
def add_n_float32(rng):
    """float32 ADD_N of 2-7 same-shape inputs, some constant."""
    return _add_n(rng, "float32")
