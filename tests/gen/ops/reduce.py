"""Reductions: MEAN, SUM, REDUCE_MAX, REDUCE_MIN, REDUCE_ALL (const int32 axes,
possibly negative, keep_dims on/off) and ARG_MAX / ARG_MIN (int8 -> int32)."""

import math

import numpy as np

from ..common import (INT_RANGE, ModelBuilder, Q, UNIFORM_STD, chance,
                      draw_quant, draw_shape, f32, nelems, pick, randint)
from ..core import variant


def _axes(rng, rank):
    k = randint(rng, 1, rank)
    axes = sorted(int(a) for a in rng.choice(rank, size=k, replace=False))
    signed = [a - rank if chance(rng, 0.3) else a for a in axes]
    order = [int(i) for i in rng.permutation(len(signed))]
    return axes, [signed[i] for i in order]


def _reduced_shape(shape, axes, keep):
    if keep:
        return [1 if i in axes else d for i, d in enumerate(shape)]
    return [d for i, d in enumerate(shape) if i not in axes]


def _reduce(rng, op, dt):
    rank = randint(rng, 1, 4)
    shape = draw_shape(rng, rank, 2048, 1, 10)
    if rank == 4 and chance(rng, 0.3):
        axes, arg = [1, 2], pick(rng, [[1, 2], [2, 1], [-3, -2]])  # global pooling
    else:
        axes, arg = _axes(rng, rank)
    keep = chance(rng, 0.5)
    out = _reduced_shape(shape, axes, keep)
    q = draw_quant(rng, dt, 1e-3, 1.0)
    n = nelems([shape[a] for a in axes])
    qmin, qmax = INT_RANGE[dt]
    # real value of a uniformly drawn input element: mean and spread
    mean_real = ((qmin + qmax) / 2.0 - q.zero_point) * q.scale
    std_real = UNIFORM_STD[dt] * q.scale
    if op in ("REDUCE_MAX", "REDUCE_MIN"):
        qo = Q(q.scale, q.zero_point)
    elif op == "MEAN" and chance(rng, 0.4):
        qo = Q(q.scale, q.zero_point)
    else:
        if op == "MEAN":
            center, spread = mean_real, std_real / math.sqrt(n) * 3 + abs(mean_real)
        else:  # SUM
            center = n * mean_real
            spread = 3 * math.sqrt(n) * std_real + (abs(center) if dt == "int8" else 0)
        s_out = f32(max(spread, 1e-3 * q.scale) / (qmax - qmin) * 2
                    * 10 ** rng.uniform(-0.7, 0.7))
        zp = 0 if dt == "int16" else int(np.clip(
            round(-center / s_out) + randint(rng, -40, 40), qmin, qmax))
        qo = Q(s_out, zp)
    b = ModelBuilder()
    x = b.tensor(shape, dt, q, name="input")
    a = b.const(np.array(arg, np.int32), "int32", name="axis")
    y = b.tensor(out, dt, qo, name="output")
    b.op(op, [x, a], [y], "ReducerOptions", keepDims=keep)
    return b.build([x], [y]), {"input_shape": shape, "axis": arg, "keep_dims": keep,
                               "output_shape": out, "input_quant": q.to_json(),
                               "output_quant": qo.to_json()}


@variant("MEAN.int8", "MEAN")
def mean_int8(rng):
    """int8 MEAN over 1..rank axes (incl. the 4-D axes [1,2] case),
    keep_dims on/off, same or different output quantization."""
    return _reduce(rng, "MEAN", "int8")


@variant("MEAN.int16", "MEAN")
def mean_int16(rng):
    """int16 MEAN (zero points 0)."""
    return _reduce(rng, "MEAN", "int16")


@variant("SUM.int8", "SUM")
def sum_int8(rng):
    """int8 SUM with requantization to a random output scale."""
    return _reduce(rng, "SUM", "int8")


@variant("SUM.int16", "SUM")
def sum_int16(rng):
    """int16 SUM (zero points 0)."""
    return _reduce(rng, "SUM", "int16")


@variant("REDUCE_MAX.int8", "REDUCE_MAX")
def reduce_max_int8(rng):
    """int8 REDUCE_MAX (TFLM requires output quantization = input's)."""
    return _reduce(rng, "REDUCE_MAX", "int8")


@variant("REDUCE_MIN.int8", "REDUCE_MIN")
def reduce_min_int8(rng):
    """int8 REDUCE_MIN (TFLM requires output quantization = input's)."""
    return _reduce(rng, "REDUCE_MIN", "int8")


def _arg(rng, op):
    rank = randint(rng, 1, 4)
    shape = draw_shape(rng, rank, 2048, 1, 10)
    axis = randint(rng, 0, rank - 1)
    arg = axis - rank if chance(rng, 0.3) else axis
    out = [d for i, d in enumerate(shape) if i != axis]
    q = draw_quant(rng, "int8", 1e-3, 1.0)
    b = ModelBuilder()
    x = b.tensor(shape, "int8", q, name="input")
    a = b.const(np.array([arg], np.int32), "int32", name="axis")
    y = b.tensor(out, "int32", name="output")
    opts = "ArgMaxOptions" if op == "ARG_MAX" else "ArgMinOptions"
    b.op(op, [x, a], [y], opts, outputType=2)   # TensorType.INT32
    return b.build([x], [y]), {"input_shape": shape, "axis": arg,
                               "output_shape": out, "quant": q.to_json()}


@variant("ARG_MAX.int8", "ARG_MAX")
def arg_max_int8(rng):
    """int8 ARG_MAX -> int32 along a (possibly negative) const axis; random
    inputs make ties (first index wins) frequent on long axes."""
    return _arg(rng, "ARG_MAX")


@variant("ARG_MIN.int8", "ARG_MIN")
def arg_min_int8(rng):
    """int8 ARG_MIN -> int32."""
    return _arg(rng, "ARG_MIN")


@variant("REDUCE_ALL.bool", "REDUCE_ALL")
def reduce_all_bool(rng):
    """bool REDUCE_ALL, small dimensions (random inputs reduced over many
    elements would nearly always give false), axes and keep_dims as the
    other reductions."""
    rank = randint(rng, 1, 4)
    shape = draw_shape(rng, rank, 256, 1, 4)
    axes, arg = _axes(rng, rank)
    keep = chance(rng, 0.5)
    out = _reduced_shape(shape, axes, keep)
    b = ModelBuilder()
    x = b.tensor(shape, "bool", name="input")
    a = b.const(np.array(arg, np.int32), "int32", name="axis")
    y = b.tensor(out, "bool", name="output")
    b.op("REDUCE_ALL", [x, a], [y], "ReducerOptions", keepDims=keep)
    return b.build([x], [y]), {"input_shape": shape, "axis": arg, "keep_dims": keep,
                               "output_shape": out}
