"""QUANTIZE, DEQUANTIZE and CAST."""

from ..common import (ModelBuilder, Q, chance, draw_quant, draw_scale, draw_shape, f32,
                      randint)
from ..core import variant


def _shape(rng):
    return draw_shape(rng, randint(rng, 1, 4), 1024, 1, 10)


# Output scale / input scale that maps the input type's range onto the
# output type's (int32 inputs are drawn over the whole int32 range).
_SCALE_STEP = {("int16", "int8"): 256.0, ("int8", "int16"): 1 / 256.0,
               ("int32", "int8"): 2.0**24, ("int32", "int16"): 2.0**16}


def _quantize(rng, src, dst):
    shape = _shape(rng)
    b = ModelBuilder()
    config = {"shape": shape, "from": src, "to": dst}
    if src == "float32":
        qi = None
        qo = draw_quant(rng, dst, 1e-4, 1.0)
    else:
        qi = draw_quant(rng, src, 1e-4, 0.5) if src != "int32" else \
            Q(draw_scale(rng, 1e-4, 0.5), 0 if chance(rng, 0.7) else randint(rng, -2**20, 2**20))
        # requantization: output scale within 1.5 decades of the input's
        qo = Q(f32(qi.scale * 10 ** rng.uniform(-0.7, 1.5) * _SCALE_STEP.get((src, dst), 1.0)),
               draw_quant(rng, dst).zero_point)
        if {src, dst} == {"int8", "uint8"} and chance(rng, 0.3):
            # one scale, zero points 128 apart: TFLite's top-bit-flip path
            qo = Q(qi.scale, qi.zero_point + (128 if dst == "uint8" else -128))
        config["input_quant"] = qi.to_json()
    config["output_quant"] = qo.to_json()
    x = b.tensor(shape, src, qi, name="input")
    y = b.tensor(shape, dst, qo, name="output")
    b.op("QUANTIZE", [x], [y])
    return b.build([x], [y]), config


_QUANTIZE_PAIRS = [("float32", "int8"), ("float32", "int16"), ("int8", "int8"),
                   ("int16", "int16"), ("int8", "int16"), ("int16", "int8"),
                   ("int32", "int8"), ("int32", "int16"),
                   ("int8", "uint8"), ("uint8", "int8")]

for _src, _dst in _QUANTIZE_PAIRS:
    def _make(src=_src, dst=_dst):
        def fn(rng):
            return _quantize(rng, src, dst)
        fn.__doc__ = ("QUANTIZE %s -> %s%s" % (
            src, dst, ": random output scale/zero point; inputs are drawn over "
            "the representable range, some outside, some at rounding ties"
            if src == "float32" else ": requantization to a random scale"))
        return fn
    _name = "QUANTIZE.%s_%s" % ({"float32": "f32"}.get(_src, _src), _dst)
    variant(_name, "QUANTIZE")(_make())


def _dequantize(rng, src):
    shape = _shape(rng)
    q = draw_quant(rng, src, 1e-4, 1.0)
    b = ModelBuilder()
    x = b.tensor(shape, src, q, name="input")
    y = b.tensor(shape, "float32", name="output")
    b.op("DEQUANTIZE", [x], [y])
    return b.build([x], [y]), {"shape": shape, "input_quant": q.to_json()}


@variant("DEQUANTIZE.int8", "DEQUANTIZE")
def dequantize_int8(rng):
    """DEQUANTIZE int8 -> float32 with random scale and zero point."""
    return _dequantize(rng, "int8")


@variant("DEQUANTIZE.int16", "DEQUANTIZE")
def dequantize_int16(rng):
    """DEQUANTIZE int16 -> float32 (zero point 0)."""
    return _dequantize(rng, "int16")


def _cast(rng, src, dst):
    shape = _shape(rng)
    b = ModelBuilder()
    x = b.tensor(shape, src, name="input")
    y = b.tensor(shape, dst, name="output")
    b.op("CAST", [x], [y], "CastOptions",
         inDataType=_TT[src], outDataType=_TT[dst])
    return b.build([x], [y]), {"shape": shape, "from": src, "to": dst}


_TT = {"float32": 0, "int32": 2, "bool": 6, "int16": 7, "int8": 9}
_CAST_TYPES = ["int8", "int16", "int32", "float32"]

for _src in _CAST_TYPES + ["bool"]:
    for _dst in _CAST_TYPES:
        if _src == _dst:
            continue
        def _make_cast(src=_src, dst=_dst):
            def fn(rng):
                return _cast(rng, src, dst)
            fn.__doc__ = ("CAST %s -> %s (C conversion semantics: integers wrap, "
                          "floats truncate; float inputs stay inside the target "
                          "range)" % (src, dst))
            return fn
        _n = "CAST.%s_%s" % ({"float32": "f32"}.get(_src, _src),
                             {"float32": "f32"}.get(_dst, _dst))
        variant(_n, "CAST")(_make_cast())
