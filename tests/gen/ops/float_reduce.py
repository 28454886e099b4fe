"""float32 variants of the reductions (MEAN, SUM, REDUCE_MAX, REDUCE_MIN)
and of ARG_MAX / ARG_MIN: the axes, keep_dims and shapes reduce.py draws
for int8 (the 4-D axes [1, 2] case included, which TFLite Micro's float
MEAN runs through its own loop when keep_dims is set), float32 tensors
without quantization. The modules must match TFLite Micro's float
reference kernels bit for bit: the sums in its order of visit."""

import numpy as np

from ..common import ModelBuilder, chance, draw_shape, pick, randint
from ..core import variant
from .reduce import _axes, _reduced_shape


def _reduce_float(rng, op):
    rank = randint(rng, 1, 4)
    shape = draw_shape(rng, rank, 2048, 1, 10)
    if rank == 4 and chance(rng, 0.3):
        axes, arg = [1, 2], pick(rng, [[1, 2], [2, 1], [-3, -2]])  # global pooling
    else:
        axes, arg = _axes(rng, rank)
    keep = chance(rng, 0.5)
    out = _reduced_shape(shape, axes, keep)
    b = ModelBuilder()
    x = b.tensor(shape, "float32", name="input")
    a = b.const(np.array(arg, np.int32), "int32", name="axis")
    y = b.tensor(out, "float32", name="output")
    b.op(op, [x, a], [y], "ReducerOptions", keepDims=keep)
    return b.build([x], [y]), {"input_shape": shape, "axis": arg, "keep_dims": keep,
                               "output_shape": out}


for _op in ("MEAN", "SUM", "REDUCE_MAX", "REDUCE_MIN"):
    def _make(op=_op):
        def fn(rng):
            return _reduce_float(rng, op)
        fn.__doc__ = ("float32 %s over 1..rank axes (incl. the 4-D axes [1,2] case), "
                      "keep_dims on/off." % op)
        return fn
    variant("%s.float32" % _op, _op)(_make())


def _arg_float(rng, op):
    rank = randint(rng, 1, 4)
    shape = draw_shape(rng, rank, 2048, 1, 10)
    axis = randint(rng, 0, rank - 1)
    arg = axis - rank if chance(rng, 0.3) else axis
    out = [d for i, d in enumerate(shape) if i != axis]
    b = ModelBuilder()
    x = b.tensor(shape, "float32", name="input")
    inputs = [x]
    if chance(rng, 0.3):
        # Ties (the first index wins): an input through a RELU is 0 about
        # half the time, so ARG_MIN meets many equal minima.
        r = b.tensor(shape, "float32", name="relu")
        b.op("RELU", [x], [r])
        x = r
    a = b.const(np.array([arg], np.int32), "int32", name="axis")
    y = b.tensor(out, "int32", name="output")
    opts = "ArgMaxOptions" if op == "ARG_MAX" else "ArgMinOptions"
    b.op(op, [x, a], [y], opts, outputType=2)   # TensorType.INT32
    return b.build(inputs, [y]), {"input_shape": shape, "axis": arg, "output_shape": out,
                                  "relu_first": x is not inputs[0]}


@variant("ARG_MAX.float32", "ARG_MAX")
def arg_max_float32(rng):
    """float32 ARG_MAX -> int32 along a (possibly negative) const axis, at
    times after a RELU (ties)."""
    return _arg_float(rng, "ARG_MAX")


@variant("ARG_MIN.float32", "ARG_MIN")
def arg_min_float32(rng):
    """float32 ARG_MIN -> int32, as ARG_MAX.float32."""
    return _arg_float(rng, "ARG_MIN")
