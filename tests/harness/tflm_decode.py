"""Encodings of TFLite Micro's DECODE operator (TFLM_DECODE), for tests.

LUT comes from the wheel's compression tool (`compress_lut`), which
rewrites a model; Huffman and Prune are stubs in the tool, so their encoded
and ancillary bytes are built here following the kernels
(tensorflow/lite/micro/kernels/decode_state_huffman.cc and
decode_state_prune.cc). Each encoder returns (encoded bytes, ancillary
bytes); `decode_model` puts one DECODE in a model whose output is the
decoded tensor, so TFLite Micro and tinyaot show the decoded values.
"""

import contextlib
import heapq
import importlib
import io
import itertools
import warnings

import flatbuffers
import numpy as np
from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as S

from tests.gen.builder import ModelBuilder, Q, np_dtype

_compress = importlib.import_module("tflite_micro.tensorflow.lite.micro.compression.compress")
_spec = importlib.import_module("tflite_micro.tensorflow.lite.micro.compression.spec")

LUT, HUFFMAN, PRUNE, CUSTOM = 0, 1, 2, 127


def dcm(decode_type, user=b"", version=1):
    """The 16-byte header: type, version, two reserved bytes, 12 of the type's."""
    assert len(user) <= 12
    return bytes([decode_type, version, 0, 0]) + bytes(user) + bytes(12 - len(user))


def compress_lut(model, tensors, bitwidth, subgraph=0):
    """The wheel's tool: LUT-compresses a subgraph's tensors, given as
    (index, axis) pairs: one table (axis None) or one per slice along axis.
    Quietly: the tool warns when a tiny tensor grows and prints when the
    width is more than the values need, both expected here."""
    specs = [_spec.Tensor(subgraph, t, [_spec.LookUpTableCompression(
        bitwidth, _spec.PerTensor() if axis is None else _spec.PerChannel(axis=axis))])
        for t, axis in tensors]
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore", UserWarning)
        return bytes(_compress.compress(model, specs))


def cut_weights(model, step=17):
    """The model with its int8 weight tensors rounded to multiples of
    `step` (at most 16 values for 17), and the (index, axis) pairs of its
    weights and int32 biases for compress_lut (axis: the quantization axis
    when per channel). The operator codes get their builtin_code from
    deprecated_builtin_code, as LiteRT reads them: the wheel's model editor
    reads builtin_code alone and turns an older model's operators into one."""
    m = S.ModelT.InitFromPackedBuf(model, 0)
    for oc in m.operatorCodes:
        oc.builtinCode = max(oc.builtinCode, oc.deprecatedBuiltinCode)
    tensors = []
    for i, t in enumerate(m.subgraphs[0].tensors):
        buf, q = m.buffers[t.buffer], t.quantization
        if buf.data is None or len(buf.data) == 0 or q is None or q.scale is None:
            continue
        axis = int(q.quantizedDimension) if len(q.scale) > 1 else None
        if t.type == S.TensorType.INT8 and len(t.shape) > 1:
            a = np.frombuffer(bytes(buf.data), np.int8).astype(np.int32)
            cut = np.clip(np.round(a / step) * step, -128, 127).astype(np.int8)
            buf.data = np.frombuffer(cut.tobytes(), np.uint8)
            tensors.append((i, axis))
        elif t.type == S.TensorType.INT32:
            tensors.append((i, axis))
    fb = flatbuffers.Builder(1024)
    fb.Finish(m.Pack(fb), file_identifier=b"TFL3")
    return bytes(fb.Output()), tensors


def pack_indices(indices, bitwidth):
    """Indices packed most significant bit first, as the kernel reads them."""
    bits = "".join(format(int(i), "0%db" % bitwidth) for i in np.ravel(indices))
    bits += "0" * (-len(bits) % 8)
    return int(bits, 2).to_bytes(len(bits) // 8, "big") if bits else b""


def lut(tables, indices, bitwidth, stride=None, lut_version=1):
    """LUT encoding of `indices` into `tables` (a list of 1-D arrays, one
    per channel, padded to `stride` values)."""
    stride = max(len(t) for t in tables) if stride is None else stride
    values = b"".join(np.pad(t, (0, stride - len(t))).tobytes() for t in tables)
    user = bytes([lut_version, 0xF0 | bitwidth, stride])
    return pack_indices(indices, bitwidth), dcm(LUT, user) + values


def _code_lengths(freq):
    """Huffman code lengths of the symbols in `freq` (symbol -> count)."""
    if len(freq) == 1:
        return {next(iter(freq)): 1}
    order = itertools.count()
    heap = [(n, next(order), [s]) for s, n in sorted(freq.items())]
    heapq.heapify(heap)
    lengths = dict.fromkeys(freq, 0)
    while len(heap) > 1:
        n1, _, a = heapq.heappop(heap)
        n2, _, b = heapq.heappop(heap)
        for s in a + b:
            lengths[s] += 1
        heapq.heappush(heap, (n1 + n2, next(order), a + b))
    return lengths


def huffman(values, wide, root_bits):
    """Huffman encoding of the int8 or int16 `values` with a root table of
    `root_bits` bits and second-level tables for longer codes, in the
    kernel's format: entries of 16 bits (wide False, int8 only) or 32 bits;
    a set top bit marks a symbol, whose count field is the bits of the last
    lookup its code uses; otherwise count + 1 is the next lookup's width and
    the value the offset from this entry to the next table."""
    flat = [int(v) for v in np.ravel(values)]
    lengths = _code_lengths({s: flat.count(s) for s in set(flat)})
    shift = 27 if wide else 11
    found = 1 << (31 if wide else 15)
    mask = 0xFFFF if wide else 0xFF
    codes, code, prev = {}, 0, 0
    for s in sorted(lengths, key=lambda s: (lengths[s], s)):
        code <<= lengths[s] - prev
        codes[s], prev = code, lengths[s]
        code += 1
    table = [0] * (1 << root_bits)
    groups = {}
    for s, c in codes.items():
        n = lengths[s]
        if n <= root_bits:
            for j in range(1 << (root_bits - n)):
                table[(c << (root_bits - n)) | j] = found | n << shift | (s & mask)
        else:
            groups.setdefault(c >> (n - root_bits), []).append((c, n - root_bits, s))
    for prefix, members in sorted(groups.items()):
        width = max(r for _, r, _ in members)
        start = len(table)
        table[prefix] = (width - 1) << shift | (start - prefix)
        sub = [0] * (1 << width)
        for c, r, s in members:
            tail = c & ((1 << r) - 1)
            for j in range(1 << (width - r)):
                sub[(tail << (width - r)) | j] = found | r << shift | (s & mask)
        table += sub
    bits = "".join(format(codes[v], "0%db" % lengths[v]) for v in flat)
    bits += "0" * (-len(bits) % 32) + "0" * 32  # whole words, one spare
    encoded = int(bits, 2).to_bytes(len(bits) // 8, "big")
    entries = np.array(table, np.uint32 if wide else np.uint16).astype("<u4" if wide else "<u2")
    user = bytes([1, (root_bits - 1) << 4 | int(wide)])
    return encoded, dcm(HUFFMAN, user) + entries.tobytes()


def prune(values, zero_points=(0,), channel_axis=0):
    """Prune encoding: a bitmap (most significant bit first) of the values
    that differ from their channel's zero point, and those values in order."""
    values = np.asarray(values)
    zp = np.asarray(zero_points)
    if zp.size > 1:
        shape = [1] * values.ndim
        shape[channel_axis] = zp.size
        zp = zp.reshape(shape)
    kept = np.ravel(values != zp.astype(values.dtype))
    bits = "".join("1" if k else "0" for k in kept)
    bits += "0" * (-len(bits) % 8)
    encoded = int(bits, 2).to_bytes(len(bits) // 8, "big") if bits else b""
    payload = np.ravel(values)[kept].astype(values.dtype.newbyteorder("<")).tobytes()
    return encoded, dcm(PRUNE, bytes([1])) + payload


def decode_model(shape, dtype, encoded, ancillary, quant=None, extra_inputs=None):
    """A model that decodes one tensor and outputs it, next to an ABS of
    an int8 input (TFLite Micro needs an input to run)."""
    b = ModelBuilder()
    x = b.tensor([4], "int8", Q(0.1, 0), name="x")
    y = b.tensor([4], "int8", Q(0.1, 0), name="y")
    b.op("ABS", [x], [y])
    enc = b.tensor([len(encoded)], "uint8", data=np.frombuffer(encoded, np.uint8), name="enc")
    anc = b.tensor([len(ancillary)], "uint8", data=np.frombuffer(ancillary, np.uint8),
                   name="anc")
    d = b.tensor(shape, dtype, quant, name="decoded")
    inputs = [enc, anc] if extra_inputs is None else extra_inputs(b, enc, anc)
    b.custom_op("TFLM_DECODE", inputs, [d])
    return b.build([x], [y, d])


def random_values(rng, shape, dtype, levels):
    """Values of `dtype` drawn from `levels` distinct ones."""
    if dtype == "bool":
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if dtype == "float32":
        return rng.choice(rng.standard_normal(levels).astype(np.float32), size=shape)
    info = np.iinfo(np_dtype(dtype))
    pool = rng.integers(max(info.min, -(1 << 40)), min(info.max, 1 << 40), size=levels,
                        dtype=np.int64)
    return rng.choice(pool, size=shape).astype(np_dtype(dtype))
