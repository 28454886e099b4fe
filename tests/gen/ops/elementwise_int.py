"""Elementwise operators on integer and bool tensors: ABS (int8, int16
quantized with zero points 0, plain int16), RSQRT (int8, int16), ELU (int8),
LOGICAL_AND and LOGICAL_OR with broadcasting, LOGICAL_NOT."""

from ..common import (ModelBuilder, Q, broadcast_shapes, chance, draw_quant, draw_shape,
                      f32, rand_values, randint)
from ..core import variant


def _shape(rng):
    return draw_shape(rng, randint(rng, 1, 4), 1024, 1, 10)


def _abs(rng, dt, quantized=True):
    shape = _shape(rng)
    b = ModelBuilder()
    config = {"shape": shape}
    q_in = q_out = None
    if quantized:
        q_in = draw_quant(rng, dt, 1e-3, 1.0)
        if dt == "int16":
            q_in = Q(q_in.scale, 0)
        if chance(rng, 0.3):
            q_out = Q(q_in.scale, q_in.zero_point if dt == "int8" else 0)
        else:
            q_out = draw_quant(rng, dt, 1e-3, 1.0)
            # The output scale within a factor 10 of the input's.
            q_out = Q(f32(q_in.scale * 10 ** rng.uniform(-1, 1)),
                      q_out.zero_point if dt == "int8" else 0)
        config.update({"input_quant": q_in.to_json(), "output_quant": q_out.to_json()})
    x = b.tensor(shape, dt, q_in, name="input")
    y = b.tensor(shape, dt, q_out, name="output")
    b.op("ABS", [x], [y])
    return b.build([x], [y]), config


@variant("ABS.int8", "ABS")
def abs_int8(rng):
    """int8 ABS, random zero points, the output's scale equal (no rescale)
    or within 10x of the input's."""
    return _abs(rng, "int8")


@variant("ABS.int16", "ABS")
def abs_int16(rng):
    """int16 ABS, zero points 0, equal or different scales."""
    return _abs(rng, "int16")


@variant("ABS.int16_plain", "ABS")
def abs_int16_plain(rng):
    """int16 ABS without quantization (|-32768| stays -32768)."""
    return _abs(rng, "int16", quantized=False)


def _logical_binary(rng, op):
    b = ModelBuilder()
    s1, s2, out = broadcast_shapes(rng, randint(rng, 1, 4))
    x = b.tensor(s1, "bool", name="input1")
    const_second = chance(rng, 0.25)
    if const_second:
        y = b.const(rand_values(rng, "bool", s2), "bool", name="input2")
    else:
        y = b.tensor(s2, "bool", name="input2")
    z = b.tensor(out, "bool", name="output")
    b.op(op, [x, y], [z])
    inputs = [x] if const_second else [x, y]
    return b.build(inputs, [z]), {"input1_shape": s1, "input2_shape": s2,
                                  "output_shape": out, "input2_const": const_second}


@variant("LOGICAL_AND.bool", "LOGICAL_AND")
def logical_and_bool(rng):
    """bool LOGICAL_AND with broadcasting, optional constant second input."""
    return _logical_binary(rng, "LOGICAL_AND")


@variant("LOGICAL_OR.bool", "LOGICAL_OR")
def logical_or_bool(rng):
    """bool LOGICAL_OR with broadcasting, optional constant second input."""
    return _logical_binary(rng, "LOGICAL_OR")


@variant("LOGICAL_NOT.bool", "LOGICAL_NOT")
def logical_not_bool(rng):
    """bool LOGICAL_NOT, rank 1-4."""
    shape = _shape(rng)
    b = ModelBuilder()
    x = b.tensor(shape, "bool", name="input")
    y = b.tensor(shape, "bool", name="output")
    b.op("LOGICAL_NOT", [x], [y])
    return b.build([x], [y]), {"shape": shape}


@variant("RSQRT.int8", "RSQRT")
def rsqrt_int8(rng):
    """int8 RSQRT. TFLite Micro fails on inputs below the zero point, so the
    input's zero point is -128: every input is valid (-128 itself gives
    127)."""
    shape = _shape(rng)
    q_in = Q(draw_quant(rng, "int8", 1e-3, 1.0).scale, -128)
    q_out = draw_quant(rng, "int8", 1e-3, 1.0)
    # Outputs 1/sqrt(x) of at most 1/sqrt(scale): an output scale near it.
    top = 1.0 / float(q_in.scale) ** 0.5
    q_out = Q(f32(top / 255.0 * 10 ** rng.uniform(-1, 1)), q_out.zero_point)
    b = ModelBuilder()
    x = b.tensor(shape, "int8", q_in, name="input")
    y = b.tensor(shape, "int8", q_out, name="output")
    b.op("RSQRT", [x], [y])
    return b.build([x], [y]), {"shape": shape, "input_quant": q_in.to_json(),
                               "output_quant": q_out.to_json()}


@variant("ELU.int8", "ELU")
def elu_int8(rng):
    """int8 ELU (TFLite Micro's lookup table), random quantizations."""
    shape = _shape(rng)
    q_in = draw_quant(rng, "int8", 1e-3, 0.5)
    q_out = Q(f32(q_in.scale * 10 ** rng.uniform(-0.5, 0.5)),
              draw_quant(rng, "int8").zero_point)
    b = ModelBuilder()
    x = b.tensor(shape, "int8", q_in, name="input")
    y = b.tensor(shape, "int8", q_out, name="output")
    b.op("ELU", [x], [y])
    return b.build([x], [y]), {"shape": shape, "input_quant": q_in.to_json(),
                               "output_quant": q_out.to_json()}


@variant("RSQRT.int16", "RSQRT")
def rsqrt_int16(rng):
    """int16 RSQRT, zero points 0, after an int16 ABS of the same scale:
    TFLite Micro fails on negative inputs, ABS makes every input valid
    (0 itself gives 32767)."""
    shape = _shape(rng)
    q_in = Q(draw_quant(rng, "int16", 1e-4, 1e-2).scale, 0)
    top = 1.0 / float(q_in.scale) ** 0.5
    q_out = Q(f32(top / 32767.0 * 10 ** rng.uniform(-1, 1)), 0)
    b = ModelBuilder()
    x = b.tensor(shape, "int16", q_in, name="input")
    m = b.tensor(shape, "int16", Q(q_in.scale, 0), name="magnitude")
    y = b.tensor(shape, "int16", q_out, name="output")
    b.op("ABS", [x], [m])
    b.op("RSQRT", [m], [y])
    return b.build([x], [y]), {"shape": shape, "input_quant": q_in.to_json(),
                               "output_quant": q_out.to_json()}
