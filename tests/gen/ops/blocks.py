"""Data movement that reorders or regroups elements (no arithmetic; output
quantization = input's): REVERSE_V2, SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND,
MIRROR_PAD."""

import numpy as np

from ..common import (ModelBuilder, Q, chance, draw_quant, draw_shape, pick,
                      randint)
from ..core import variant


def _q(rng, dt):
    """int8/int16 tensors carry a quantization; the rest none."""
    if dt in ("int8", "int16"):
        return draw_quant(rng, dt, 1e-3, 1.0)
    return None


def _same(q):
    return None if q is None else Q(q.scales, q.zero_points, q.axis)


# --------------------------------------------------------------- REVERSE_V2
def _reverse(rng, dt):
    rank = randint(rng, 1, 5)
    shape = draw_shape(rng, rank, 1024, 1, 7)
    n = randint(rng, 1, rank)
    first = randint(rng, 0, rank - n)
    axes = list(range(first, first + n))
    rng.shuffle(axes)
    axes = [a - rank if chance(rng, 0.3) else a for a in axes]
    q = _q(rng, dt)
    b = ModelBuilder()
    x = b.tensor(shape, dt, q, name="input")
    a = b.const(np.array(axes, np.int32), "int32", name="axis", shape=[len(axes)])
    y = b.tensor(shape, dt, _same(q), name="output")
    b.op("REVERSE_V2", [x, a], [y], "ReverseV2Options")
    return b.build([x], [y]), {"shape": shape, "axes": [int(v) for v in axes],
                               "quant": None if q is None else q.to_json()}


@variant("REVERSE_V2.int8", "REVERSE_V2")
def reverse_int8(rng):
    """int8 REVERSE_V2, rank 1-5, 1-rank adjacent axes (in any order, some
    negative) as TFLM requires."""
    return _reverse(rng, "int8")


@variant("REVERSE_V2.int16", "REVERSE_V2")
def reverse_int16(rng):
    """int16 REVERSE_V2."""
    return _reverse(rng, "int16")


@variant("REVERSE_V2.int32", "REVERSE_V2")
def reverse_int32(rng):
    """int32 REVERSE_V2 (and the other element types TFLM runs: uint8,
    int64, bool, float32; the same byte moves)."""
    return _reverse(rng, pick(rng, ["int32", "int32", "uint8", "int64", "bool", "float32"]))


# ------------------------------------------ SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND
def _blocks(rng, rank, padded):
    """Block sizes and (before, after) paddings per spatial dimension."""
    spatial = rank - 2
    block = [pick(rng, [1, 2, 2, 3]) for _ in range(spatial)]
    pads = [[randint(rng, 0, 3) if padded and chance(rng, 0.6) else 0,
             randint(rng, 0, 3) if padded and chance(rng, 0.6) else 0]
            for _ in range(spatial)]
    return block, pads


def _space_shape(rng, rank, block, pads):
    """[N, H(, W), C] whose padded spatial sizes are multiples of the blocks."""
    n, c = randint(rng, 1, 2), randint(rng, 1, 5)
    spatial = []
    for bs, (lo, hi) in zip(block, pads):
        outer = randint(rng, 1, 4)
        size = outer * bs - lo - hi
        while size < 1:
            outer += 1
            size = outer * bs - lo - hi
        spatial.append(size)
    return [n] + spatial + [c]


def _space_batch(rng, opname):
    rank = pick(rng, [4, 4, 4, 3])
    # TFLM pads SPACE_TO_BATCH_ND with an uninitialised value (its
    # output_offset is never set): padding is checked against LiteRT in
    # tests/test_data_ops.py instead.
    block, pads = _blocks(rng, rank, opname == "BATCH_TO_SPACE_ND")
    space = _space_shape(rng, rank, block, pads)
    blocks = int(np.prod(block))
    batch = ([space[0] * blocks] +
             [(s + lo + hi) // bs for s, bs, (lo, hi) in zip(space[1:-1], block, pads)] +
             [space[-1]])
    dt = pick(rng, ["int8", "int8", "int8", "float32"])
    q = _q(rng, dt)
    if opname == "SPACE_TO_BATCH_ND":
        in_shape, out_shape, third, opts = space, batch, "paddings", "SpaceToBatchNDOptions"
    else:
        in_shape, out_shape, third, opts = batch, space, "crops", "BatchToSpaceNDOptions"
    b = ModelBuilder()
    x = b.tensor(in_shape, dt, q, name="input")
    bs_t = b.const(np.array(block, np.int32), "int32", name="block_shape")
    p_t = b.const(np.array(pads, np.int32), "int32", name=third)
    y = b.tensor(out_shape, dt, _same(q), name="output")
    b.op(opname, [x, bs_t, p_t], [y], opts)
    return b.build([x], [y]), {"input_shape": in_shape, "output_shape": out_shape,
                               "dtype": dt, "block_shape": block, third: pads,
                               "quant": None if q is None else q.to_json()}


@variant("SPACE_TO_BATCH_ND.int8", "SPACE_TO_BATCH_ND")
def space_to_batch_int8(rng):
    """int8 (a quarter float32) SPACE_TO_BATCH_ND, rank 4 (or 3), blocks
    1-3, no padding (TFLM pads with an uninitialised value)."""
    return _space_batch(rng, "SPACE_TO_BATCH_ND")


@variant("BATCH_TO_SPACE_ND.int8", "BATCH_TO_SPACE_ND")
def batch_to_space_int8(rng):
    """int8 (a quarter float32) BATCH_TO_SPACE_ND, rank 4 (or 3), blocks
    1-3, crops 0-3 on either side."""
    return _space_batch(rng, "BATCH_TO_SPACE_ND")


# --------------------------------------------------------------- MIRROR_PAD
@variant("MIRROR_PAD.int8", "MIRROR_PAD")
def mirror_pad_int8(rng):
    """int8 (a quarter float32) MIRROR_PAD, REFLECT or SYMMETRIC, rank 1-4,
    paddings 0 up to the dimension (less one for REFLECT) on either side,
    int32 or int64."""
    rank = randint(rng, 1, 4)
    shape = draw_shape(rng, rank, 512, 1, 6)
    mode = pick(rng, ["REFLECT", "SYMMETRIC"])
    offset = 1 if mode == "REFLECT" else 0
    pads = [[randint(rng, 0, d - offset) if chance(rng, 0.7) else 0,
             randint(rng, 0, d - offset) if chance(rng, 0.7) else 0] for d in shape]
    out = [d + lo + hi for d, (lo, hi) in zip(shape, pads)]
    pdt = pick(rng, ["int32", "int64"])
    dt = pick(rng, ["int8", "int8", "int8", "float32"])
    q = _q(rng, dt)
    b = ModelBuilder()
    x = b.tensor(shape, dt, q, name="input")
    p = b.const(np.array(pads, np.int32 if pdt == "int32" else np.int64), pdt,
                name="paddings")
    y = b.tensor(out, dt, _same(q), name="output")
    b.op("MIRROR_PAD", [x, p], [y], "MirrorPadOptions", mode=0 if offset else 1)
    return b.build([x], [y]), {"input_shape": shape, "output_shape": out, "mode": mode,
                               "dtype": dt, "paddings": pads, "paddings_dtype": pdt,
                               "quant": None if q is None else q.to_json()}
