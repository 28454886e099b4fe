"""Data-movement ops (no arithmetic; output quantization = input's):
RESHAPE, SQUEEZE, EXPAND_DIMS, CONCATENATION, SPLIT, SPLIT_V, PACK, UNPACK,
SLICE, STRIDED_SLICE, TRANSPOSE, PAD, PADV2, GATHER, DEPTH_TO_SPACE,
SPACE_TO_DEPTH."""

import numpy as np

from ..common import (ModelBuilder, Q, chance, draw_quant, draw_shape, nelems,
                      np_dtype, pick, rand_values, randint)
from ..core import variant


def _q(rng, dt):
    """The tensors' shared quantization; None for float32 (unquantized)."""
    return None if dt == "float32" else draw_quant(rng, dt, 1e-3, 1.0)


def _same(q):
    return None if q is None else Q(q.scales, q.zero_points, q.axis)


def _qjson(q):
    return None if q is None else q.to_json()


def _signed_axis(rng, axis, rank):
    """axis or its negative spelling."""
    return axis - rank if chance(rng, 0.4) else axis


# ------------------------------------------------------------------ RESHAPE
def _factorizations(rng, n, rank):
    """A random shape of the given rank with n elements."""
    dims = [1] * rank
    m = n
    p = 2
    primes = []
    while p * p <= m:
        while m % p == 0:
            primes.append(p)
            m //= p
        p += 1
    if m > 1:
        primes.append(m)
    for f in primes:
        dims[int(rng.integers(rank))] *= f
    return dims


def _reshape(rng, dt):
    b = ModelBuilder()
    in_shape = draw_shape(rng, randint(rng, 1, 5), 2048, 1, 8)
    n = nelems(in_shape)
    out_shape = _factorizations(rng, n, randint(rng, 1, 5))
    if chance(rng, 0.1):
        out_shape = [n]
    q = _q(rng, dt)
    mode = pick(rng, ["tensor", "tensor", "both", "options"])
    shape_arg = list(out_shape)
    if chance(rng, 0.3):
        shape_arg[int(rng.integers(len(shape_arg)))] = -1
    x = b.tensor(in_shape, dt, q, name="input")
    ins = [x]
    if mode in ("tensor", "both"):
        ins.append(b.const(np.array(shape_arg, np.int32), "int32", name="shape"))
    y = b.tensor(out_shape, dt, _same(q), name="output")
    if mode == "tensor":
        b.op("RESHAPE", ins, [y])
    else:
        b.op("RESHAPE", ins, [y], "ReshapeOptions", newShape=shape_arg)
    return b.build([x], [y]), {"input_shape": in_shape, "output_shape": out_shape,
                               "shape_arg": shape_arg, "mode": mode,
                               "quant": _qjson(q)}


@variant("RESHAPE.int8", "RESHAPE")
def reshape_int8(rng):
    """int8 RESHAPE, rank 1-5 -> 1-5; new shape as a const input (possibly
    with -1), as options, or both."""
    return _reshape(rng, "int8")


@variant("RESHAPE.int16", "RESHAPE")
def reshape_int16(rng):
    """int16 RESHAPE."""
    return _reshape(rng, "int16")


@variant("SQUEEZE.int8", "SQUEEZE")
def squeeze_int8(rng, dt="int8"):
    """int8 SQUEEZE: explicit (possibly negative) squeeze_dims or all
    size-1 dims."""
    rank = randint(rng, 1, 5)
    shape = [1 if chance(rng, 0.5) else randint(rng, 2, 6) for _ in range(rank)]
    if 1 not in shape:
        shape[int(rng.integers(rank))] = 1
    ones = [i for i, d in enumerate(shape) if d == 1]
    if chance(rng, 0.25):
        dims = []
        out = [d for d in shape if d != 1]
    else:
        chosen = [i for i in ones if chance(rng, 0.6)] or [ones[0]]
        dims = [_signed_axis(rng, i, rank) for i in chosen]
        out = [d for i, d in enumerate(shape) if i not in chosen]
    q = _q(rng, dt)
    b = ModelBuilder()
    x = b.tensor(shape, dt, q, name="input")
    y = b.tensor(out, dt, _same(q), name="output")
    b.op("SQUEEZE", [x], [y], "SqueezeOptions", squeezeDims=dims)
    return b.build([x], [y]), {"input_shape": shape, "output_shape": out,
                               "squeeze_dims": dims, "quant": _qjson(q)}


@variant("EXPAND_DIMS.int8", "EXPAND_DIMS")
def expand_dims_int8(rng, dt="int8"):
    """int8 EXPAND_DIMS with a const int32 axis in [-(rank+1), rank]
    (given as a scalar or a 1-element vector)."""
    rank = randint(rng, 0, 4)
    shape = draw_shape(rng, rank, 1024, 1, 8) if rank else []
    axis = randint(rng, 0, rank)
    out = shape[:axis] + [1] + shape[axis:]
    arg = axis - (rank + 1) if chance(rng, 0.4) else axis
    q = _q(rng, dt)
    b = ModelBuilder()
    x = b.tensor(shape, dt, q, name="input")
    scalar = chance(rng, 0.5)
    a = b.const(np.array(arg if scalar else [arg], np.int32), "int32", name="axis")
    y = b.tensor(out, dt, _same(q), name="output")
    b.op("EXPAND_DIMS", [x, a], [y])
    return b.build([x], [y]), {"input_shape": shape, "output_shape": out,
                               "axis": arg, "axis_scalar": scalar,
                               "quant": _qjson(q)}


# ------------------------------------------------------ concat / split etc.
def _concat(rng, dt):
    rank = randint(rng, 1, 4)
    base = draw_shape(rng, rank, 512, 1, 6)
    axis = randint(rng, 0, rank - 1)
    n = randint(rng, 2, 5) if chance(rng, 0.9) else randint(rng, 6, 10)
    shapes = []
    for _ in range(n):
        s = list(base)
        s[axis] = randint(rng, 1, 5)
        shapes.append(s)
    out = list(base)
    out[axis] = sum(s[axis] for s in shapes)
    q = _q(rng, dt)
    b = ModelBuilder()
    ins, graph_in, consts = [], [], []
    for i, s in enumerate(shapes):
        if i > 0 and chance(rng, 0.15):
            ins.append(b.const(rand_values(rng, dt, s), dt, _same(q), name="const%d" % i))
            consts.append(i)
        else:
            t = b.tensor(s, dt, _same(q), name="input%d" % i)
            ins.append(t)
            graph_in.append(t)
    y = b.tensor(out, dt, _same(q), name="output")
    arg = _signed_axis(rng, axis, rank)
    b.op("CONCATENATION", ins, [y], "ConcatenationOptions", axis=arg,
         fusedActivationFunction="NONE")
    return b.build(graph_in, [y]), {"input_shapes": shapes, "output_shape": out,
                                    "axis": arg, "const_inputs": consts,
                                    "quant": _qjson(q)}


@variant("CONCATENATION.int8", "CONCATENATION")
def concat_int8(rng):
    """int8 CONCATENATION of 2-10 inputs (some constant) along a random,
    possibly negative, axis; all share one quantization (TFLM requires it)."""
    return _concat(rng, "int8")


@variant("CONCATENATION.int16", "CONCATENATION")
def concat_int16(rng):
    """int16 CONCATENATION."""
    return _concat(rng, "int16")


@variant("SPLIT.int8", "SPLIT")
def split_int8(rng, dt="int8"):
    """int8 SPLIT into 1-5 equal parts along a const (possibly negative) axis."""
    rank = randint(rng, 1, 4)
    shape = draw_shape(rng, rank, 1024, 1, 6)
    axis = randint(rng, 0, rank - 1)
    k = randint(rng, 1, 5)
    shape[axis] = k * randint(rng, 1, 4)
    q = _q(rng, dt)
    arg = _signed_axis(rng, axis, rank)
    b = ModelBuilder()
    a = b.const(np.array([arg] if chance(rng, 0.3) else arg, np.int32), "int32", name="axis")
    x = b.tensor(shape, dt, q, name="input")
    out_shape = list(shape)
    out_shape[axis] //= k
    ys = [b.tensor(out_shape, dt, _same(q), name="output%d" % i) for i in range(k)]
    b.op("SPLIT", [a, x], ys, "SplitOptions", numSplits=k)
    return b.build([x], ys), {"input_shape": shape, "axis": arg, "num_splits": k,
                              "output_shape": out_shape, "quant": _qjson(q)}


@variant("SPLIT_V.int8", "SPLIT_V")
def split_v_int8(rng, dt="int8"):
    """int8 SPLIT_V with const size_splits (one may be -1) and const axis."""
    rank = randint(rng, 1, 4)
    shape = draw_shape(rng, rank, 1024, 1, 6)
    axis = randint(rng, 0, rank - 1)
    k = randint(rng, 1, 5)
    sizes = [randint(rng, 1, 4) for _ in range(k)]
    shape[axis] = sum(sizes)
    arg_sizes = list(sizes)
    if chance(rng, 0.3):
        arg_sizes[int(rng.integers(k))] = -1
    q = _q(rng, dt)
    arg = _signed_axis(rng, axis, rank)
    b = ModelBuilder()
    x = b.tensor(shape, dt, q, name="input")
    s = b.const(np.array(arg_sizes, np.int32), "int32", name="size_splits")
    a = b.const(np.array(arg, np.int32), "int32", name="axis")
    ys = []
    for i, n in enumerate(sizes):
        o = list(shape)
        o[axis] = n
        ys.append(b.tensor(o, dt, _same(q), name="output%d" % i))
    b.op("SPLIT_V", [x, s, a], ys, "SplitVOptions", numSplits=k)
    return b.build([x], ys), {"input_shape": shape, "axis": arg,
                              "size_splits": arg_sizes, "sizes": sizes,
                              "quant": _qjson(q)}


@variant("PACK.int8", "PACK")
def pack_int8(rng, dt="int8"):
    """int8 PACK of 1-5 same-shape inputs along an axis in [-(r+1), r]."""
    rank = randint(rng, 0, 3)
    shape = draw_shape(rng, rank, 256, 1, 6) if rank else []
    n = randint(rng, 1, 5)
    axis = randint(rng, 0, rank)
    out = shape[:axis] + [n] + shape[axis:]
    arg = axis - (rank + 1) if chance(rng, 0.4) else axis
    q = _q(rng, dt)
    b = ModelBuilder()
    xs = [b.tensor(shape, dt, _same(q), name="input%d" % i) for i in range(n)]
    y = b.tensor(out, dt, _same(q), name="output")
    b.op("PACK", xs, [y], "PackOptions", valuesCount=n, axis=arg)
    return b.build(xs, [y]), {"input_shape": shape, "values_count": n,
                              "axis": arg, "output_shape": out, "quant": _qjson(q)}


@variant("UNPACK.int8", "UNPACK")
def unpack_int8(rng, dt="int8"):
    """int8 UNPACK along a (possibly negative) axis into dim-many outputs."""
    rank = randint(rng, 1, 4)
    shape = draw_shape(rng, rank, 512, 1, 5)
    axis = randint(rng, 0, rank - 1)
    num = shape[axis]
    out = shape[:axis] + shape[axis + 1:]
    arg = _signed_axis(rng, axis, rank)
    q = _q(rng, dt)
    b = ModelBuilder()
    x = b.tensor(shape, dt, q, name="input")
    ys = [b.tensor(out, dt, _same(q), name="output%d" % i) for i in range(num)]
    b.op("UNPACK", [x], ys, "UnpackOptions", num=num, axis=arg)
    return b.build([x], ys), {"input_shape": shape, "axis": arg, "num": num,
                              "output_shape": out, "quant": _qjson(q)}


# ------------------------------------------------------------------- slices
@variant("SLICE.int8", "SLICE")
def slice_int8(rng, dt="int8"):
    """int8 SLICE, rank 1-5, const int32 begin/size (size -1 = to the end)."""
    rank = randint(rng, 1, 5)
    shape = draw_shape(rng, rank, 2048, 1, 8)
    begin, size, out = [], [], []
    for d in shape:
        bg = randint(rng, 0, d - 1) if chance(rng, 0.6) else 0
        sz = (d - bg) if chance(rng, 0.4) else randint(rng, max(1, (d - bg) // 2), d - bg)
        begin.append(bg)
        out.append(sz)
        size.append(-1 if (sz == d - bg and chance(rng, 0.3)) else sz)
    q = _q(rng, dt)
    b = ModelBuilder()
    x = b.tensor(shape, dt, q, name="input")
    bt = b.const(np.array(begin, np.int32), "int32", name="begin")
    st = b.const(np.array(size, np.int32), "int32", name="size")
    y = b.tensor(out, dt, _same(q), name="output")
    b.op("SLICE", [x, bt, st], [y])
    return b.build([x], [y]), {"input_shape": shape, "begin": begin,
                               "size": size, "output_shape": out,
                               "quant": _qjson(q)}


def _strided_slice(rng, ignored_masks, dt="int8"):
    """ignored_masks: also set random ellipsis_mask, new_axis_mask and
    offset, which TFLM ignores (begin/end/strides index the input's own
    dimensions whatever they say)."""
    rank = randint(rng, 1, 4)
    shape = draw_shape(rng, rank, 2048, 1, 8)
    begin, end, strides = [], [], []
    bmask = emask = smask = 0
    index = []
    for i, d in enumerate(shape):
        if chance(rng, 0.15):                    # shrink this axis
            bg = randint(rng, -d, d - 1)
            begin.append(bg)
            end.append(bg + 1 if bg != -1 else 0)
            strides.append(1)
            smask |= 1 << i
            index.append(bg)
            continue
        st = pick(rng, [1, 1, 1, 2, 3, -1, -2])
        if chance(rng, 0.2):                     # anywhere, often tiny or empty
            bg = randint(rng, -d - 2, d + 2)
            en = randint(rng, -d - 2, d + 2)
        elif st > 0:                             # most of the axis
            bg = randint(rng, -d - 2, d // 3)
            en = randint(rng, d - d // 3, d + 2)
        else:
            bg = pick(rng, [-1, d - 1, d + 1, randint(rng, d // 2, d + 2)])
            en = randint(rng, -d - 3, -d - 1) if chance(rng, 0.6) else randint(rng, -d, d // 3)
        bm, em = chance(rng, 0.2), chance(rng, 0.2)
        if bm:
            bmask |= 1 << i
        if em:
            emask |= 1 << i
        begin.append(bg)
        end.append(en)
        strides.append(st)
        index.append(slice(None if bm else bg, None if em else en, st))
    probe = np.arange(nelems(shape)).reshape(shape)[tuple(index)]
    out = list(probe.shape)
    if nelems(out) == 0:      # keep at least one element in every output dim
        return _strided_slice(rng, ignored_masks, dt)
    ignored = {}
    if ignored_masks:
        ignored = {"ellipsisMask": randint(rng, 0, (1 << rank) - 1),
                   "newAxisMask": randint(rng, 0, (1 << rank) - 1),
                   "offset": chance(rng, 0.3)}
        if not (ignored["ellipsisMask"] or ignored["newAxisMask"] or ignored["offset"]):
            ignored["newAxisMask"] = 1
    q = _q(rng, dt)
    b = ModelBuilder()
    x = b.tensor(shape, dt, q, name="input")
    bt = b.const(np.array(begin, np.int32), "int32", name="begin")
    et = b.const(np.array(end, np.int32), "int32", name="end")
    stt = b.const(np.array(strides, np.int32), "int32", name="strides")
    y = b.tensor(out, dt, _same(q), name="output")
    b.op("STRIDED_SLICE", [x, bt, et, stt], [y], "StridedSliceOptions",
         beginMask=bmask, endMask=emask, shrinkAxisMask=smask, **ignored)
    config = {"input_shape": shape, "begin": begin, "end": end,
              "strides": strides, "begin_mask": bmask,
              "end_mask": emask, "shrink_axis_mask": smask,
              "output_shape": out, "quant": _qjson(q)}
    config.update(ignored)
    return b.build([x], [y]), config


@variant("STRIDED_SLICE.int8", "STRIDED_SLICE")
def strided_slice_int8(rng):
    """int8 STRIDED_SLICE, rank 1-4: const begin/end/strides with negative
    indices and strides, begin_mask, end_mask, shrink_axis_mask."""
    return _strided_slice(rng, False)


@variant("STRIDED_SLICE.int8_masks", "STRIDED_SLICE")
def strided_slice_int8_masks(rng):
    """int8 STRIDED_SLICE as STRIDED_SLICE.int8 plus random nonzero
    ellipsis_mask / new_axis_mask / offset, which TFLM ignores (so the output
    shape is the one the other masks give)."""
    return _strided_slice(rng, True)


@variant("TRANSPOSE.int8", "TRANSPOSE")
def transpose_int8(rng, dt="int8"):
    """int8 TRANSPOSE, rank 1-5, random const permutation."""
    rank = randint(rng, 1, 5)
    shape = draw_shape(rng, rank, 2048, 1, 7)
    perm = [int(p) for p in rng.permutation(rank)]
    out = [shape[p] for p in perm]
    q = _q(rng, dt)
    b = ModelBuilder()
    x = b.tensor(shape, dt, q, name="input")
    p = b.const(np.array(perm, np.int32), "int32", name="perm")
    y = b.tensor(out, dt, _same(q), name="output")
    b.op("TRANSPOSE", [x, p], [y], "TransposeOptions")
    return b.build([x], [y]), {"input_shape": shape, "perm": perm,
                               "output_shape": out, "quant": _qjson(q)}


# ---------------------------------------------------------------------- pad
def _pad(rng, v2, dt="int8"):
    rank = randint(rng, 1, 4) if chance(rng, 0.9) else 5
    shape = draw_shape(rng, rank, 1024, 1, 6)
    pads = [[randint(rng, 0, 3) if chance(rng, 0.6) else 0,
             randint(rng, 0, 3) if chance(rng, 0.6) else 0] for _ in range(rank)]
    out = [d + p[0] + p[1] for d, p in zip(shape, pads)]
    q = _q(rng, dt)
    b = ModelBuilder()
    x = b.tensor(shape, dt, q, name="input")
    pt = b.const(np.array(pads, np.int32), "int32", name="paddings")
    ins = [x, pt]
    config = {"input_shape": shape, "paddings": pads, "output_shape": out,
              "quant": _qjson(q)}
    if v2:
        value = randint(rng, -128, 127)
        ins.append(b.const(np.array([value], np_dtype(dt)), dt, _same(q),
                           name="constant_values"))
        config["constant_value"] = value
    y = b.tensor(out, dt, _same(q), name="output")
    if v2:
        b.op("PADV2", ins, [y], "PadV2Options")
    else:
        b.op("PAD", ins, [y], "PadOptions")
    return b.build([x], [y]), config


@variant("PAD.int8", "PAD")
def pad_int8(rng):
    """int8 PAD, rank 1-5, const paddings 0-3 per side (pad value = zero
    point)."""
    return _pad(rng, False)


@variant("PADV2.int8", "PADV2")
def padv2_int8(rng):
    """int8 PADV2 with a const int8 pad value in the output quantization."""
    return _pad(rng, True)


# ------------------------------------------------------------------- gather
@variant("GATHER.int8", "GATHER")
def gather_int8(rng, dt="int8"):
    """int8 GATHER: params rank 1-4, const int32 indices of rank 0-2 (all in
    range), axis possibly negative, batch_dims 0 or more."""
    rank = randint(rng, 1, 4)
    shape = draw_shape(rng, rank, 1024, 1, 7)
    axis = randint(rng, 0, rank - 1)
    batch_dims = randint(rng, 0, axis) if chance(rng, 0.25) else 0
    idx_rank = randint(rng, batch_dims, batch_dims + 2)
    idx_shape = list(shape[:batch_dims]) + [randint(rng, 1, 4) for _ in range(idx_rank - batch_dims)]
    idx = rng.integers(0, shape[axis], size=idx_shape).astype(np.int32)
    out = shape[:axis] + idx_shape[batch_dims:] + shape[axis + 1:]
    arg = _signed_axis(rng, axis, rank)
    q = _q(rng, dt)
    b = ModelBuilder()
    x = b.tensor(shape, dt, q, name="params")
    it = b.const(idx, "int32", name="indices", shape=idx_shape)
    y = b.tensor(out, dt, _same(q), name="output")
    b.op("GATHER", [x, it], [y], "GatherOptions", axis=arg, batchDims=batch_dims)
    return b.build([x], [y]), {"input_shape": shape, "indices_shape": idx_shape,
                               "indices": idx.tolist(), "axis": arg,
                               "batch_dims": batch_dims, "output_shape": out,
                               "quant": _qjson(q)}


# ------------------------------------------------------ depth <-> space
@variant("DEPTH_TO_SPACE.int8", "DEPTH_TO_SPACE")
def depth_to_space_int8(rng, dt="int8"):
    """int8 DEPTH_TO_SPACE, block size 2-4."""
    bs = pick(rng, [2, 2, 3, 4])
    n, h, w, c = (2 if chance(rng, 0.15) else 1), randint(rng, 1, 6), randint(rng, 1, 6), randint(rng, 1, 4)
    shape, out = [n, h, w, c * bs * bs], [n, h * bs, w * bs, c]
    q = _q(rng, dt)
    b = ModelBuilder()
    x = b.tensor(shape, dt, q, name="input")
    y = b.tensor(out, dt, _same(q), name="output")
    b.op("DEPTH_TO_SPACE", [x], [y], "DepthToSpaceOptions", blockSize=bs)
    return b.build([x], [y]), {"input_shape": shape, "block_size": bs,
                               "output_shape": out, "quant": _qjson(q)}


@variant("SPACE_TO_DEPTH.int8", "SPACE_TO_DEPTH")
def space_to_depth_int8(rng, dt="int8"):
    """int8 SPACE_TO_DEPTH, block size 2-4."""
    bs = pick(rng, [2, 2, 3, 4])
    n, h, w, c = (2 if chance(rng, 0.15) else 1), randint(rng, 1, 5), randint(rng, 1, 5), randint(rng, 1, 6)
    shape, out = [n, h * bs, w * bs, c], [n, h, w, c * bs * bs]
    q = _q(rng, dt)
    b = ModelBuilder()
    x = b.tensor(shape, dt, q, name="input")
    y = b.tensor(out, dt, _same(q), name="output")
    b.op("SPACE_TO_DEPTH", [x], [y], "SpaceToDepthOptions", blockSize=bs)
    return b.build([x], [y]), {"input_shape": shape, "block_size": bs,
                               "output_shape": out, "quant": _qjson(q)}
