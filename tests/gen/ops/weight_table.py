"""Weights stored as tables (docs/compressed-models.md, "Weights as
tables"): CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED int8 models of
conv.py and fc.py with their weights clustered to a few values, and the
same LUT-compressed by TFLite Micro's tool (TFLM_DECODE), one table per
tensor or per channel.

Clustered (`.clustered`, weights.format table, so every shape is coded
whatever it saves): each weight becomes the nearest of 1-128 centroids
drawn from the tensor's own values, one set for the tensor or one per
output channel (then the per-channel tables, runs along axis 0 or
channels along the last axis, can be the smaller coding). DECODE
(`.decode_lut`, weights.format auto, the default, which keeps a
TFLM_DECODE tensor compressed): the clustered weights compressed at the
bit width their values need, per channel when quantized per channel (as
TFLite Micro requires). Prune (`.decode_prune`, auto): the weights pruned
to 3-40% of their values and compressed as TFLM_DECODE's Prune (a DECODE
put before the layer here: the tool's Prune is a stub), kept as a bitmap.

Huffman (`.decode_huffman`, weights.format huffman, so the run-time
Huffman decoder runs whatever the tables would take): the weights
clustered to 2-40 values, counted skewed (value k about twice as often as
value k + 1) or flat, compressed as TFLM_DECODE's Huffman (16- or 32-bit
entries, a first lookup of 2-8 bits; a DECODE put before the layer: the
tool's Huffman is a stub).

`make test` runs them on the host (tests.optest); tests/test_weight_table.py
on both boards."""

import flatbuffers
import numpy as np
from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as S

from tests.harness.tflm_decode import compress_lut, huffman, prune
from ..common import chance, pick
from ..core import variant
from .conv import _conv_common
from .fc import _fully_connected

TABLE = {"weights.format": "table"}
HUFFMAN = {"weights.format": "huffman"}
LAYERS = ("CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED")


def _nearest(values, centroids):
    c = np.sort(np.asarray(centroids, np.int32))
    if len(c) == 1:
        return np.full_like(values, c[0])
    i = np.clip(np.searchsorted(c, values), 1, len(c) - 1)
    lo, hi = c[i - 1], c[i]
    return np.where(values - lo <= hi - values, lo, hi)


def _weights_of(m):
    """(tensor index, quantization axis or None) of the layer's weights."""
    g = m.subgraphs[0]
    for op in g.operators:
        code = m.operatorCodes[op.opcodeIndex]
        name = S.BuiltinOperator.__dict__
        if max(code.builtinCode, code.deprecatedBuiltinCode) in (name[n] for n in LAYERS):
            t = g.tensors[op.inputs[1]]
            q = t.quantization
            per_channel = q is not None and q.scale is not None and len(q.scale) > 1
            return int(op.inputs[1]), int(q.quantizedDimension) if per_channel else None
    raise ValueError("no CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED in the model")


def _cluster(rng, model, levels, per_channel_pools):
    """The model with its layer's weights clustered; (model, index, axis)."""
    m = S.ModelT.InitFromPackedBuf(model, 0)
    index, axis = _weights_of(m)
    t = m.subgraphs[0].tensors[index]
    buf = m.buffers[t.buffer]
    w = np.frombuffer(bytes(buf.data), np.int8).astype(np.int32).reshape(list(t.shape))
    if per_channel_pools and axis is not None:
        moved = np.moveaxis(w, axis, 0)
        out = np.stack([_nearest(ch, rng.choice(np.unique(ch), min(levels, len(np.unique(ch))),
                                                replace=False)) for ch in moved])
        w = np.moveaxis(out, 0, axis)
    else:
        pool = np.unique(w)
        w = _nearest(w, rng.choice(pool, min(levels, len(pool)), replace=False))
    buf.data = np.frombuffer(w.astype(np.int8).tobytes(), np.uint8)
    if axis is None and t.quantization is not None:
        # per tensor: axis 0, as TFLite Micro's DECODE wants (it refuses others)
        t.quantization.quantizedDimension = 0
    fb = flatbuffers.Builder(1024)
    fb.Finish(m.Pack(fb), file_identifier=b"TFL3")
    return bytes(fb.Output()), index, axis


def _layer(rng, op):
    if op == "FULLY_CONNECTED":
        return _fully_connected(rng, "int8", wide=chance(rng, 0.3))
    return _conv_common(rng, "int8", "conv" if op == "CONV_2D" else "dw",
                        deep=op == "CONV_2D" and chance(rng, 0.3))


def _clustered(rng, op):
    model, config = _layer(rng, op)
    levels = pick(rng, [1, 2, 3, 5, 8, 16, 16, 16, 16, 40, 128])
    pools = chance(rng, 0.4)
    model, _, axis = _cluster(rng, model, levels, pools)
    config.update({"cluster_levels": levels, "cluster_per_channel": pools and axis is not None})
    return model, config


def _decode_lut(rng, op):
    model, config = _layer(rng, op)
    levels = pick(rng, [2, 4, 7, 16, 16, 16, 33, 100])
    model, index, axis = _cluster(rng, model, levels, chance(rng, 0.4))
    bits = max(1, int(np.ceil(np.log2(levels))))
    config.update({"lut_levels": levels, "lut_bitwidth": bits, "lut_per_channel": axis is not None})
    return compress_lut(model, [(index, axis)], bits), config


def _with_decode(model, index, encoded, ancillary):
    """The model with a TFLM_DECODE of (encoded, ancillary) writing tensor
    `index` (its buffer emptied) before every operator."""
    m = S.ModelT.InitFromPackedBuf(model, 0)
    g = m.subgraphs[0]
    code = S.OperatorCodeT()
    code.builtinCode = code.deprecatedBuiltinCode = S.BuiltinOperator.CUSTOM
    code.customCode = "TFLM_DECODE"
    m.operatorCodes.append(code)
    inputs = []
    for name, data in (("encoded", encoded), ("ancillary", ancillary)):
        buf = S.BufferT()
        buf.data = np.frombuffer(data, np.uint8)
        m.buffers.append(buf)
        t = S.TensorT()
        t.shape, t.type, t.name = [len(data)], S.TensorType.UINT8, name
        t.buffer = len(m.buffers) - 1
        g.tensors.append(t)
        inputs.append(len(g.tensors) - 1)
    empty = S.BufferT()
    m.buffers.append(empty)
    g.tensors[index].buffer = len(m.buffers) - 1
    op = S.OperatorT()
    op.opcodeIndex, op.inputs, op.outputs = len(m.operatorCodes) - 1, inputs, [index]
    g.operators.insert(0, op)
    fb = flatbuffers.Builder(1024)
    fb.Finish(m.Pack(fb), file_identifier=b"TFL3")
    return bytes(fb.Output())


def _decode_prune(rng, op):
    """The layer's weights pruned (60-97% zeros, the rest any value) and
    compressed as TFLM_DECODE's Prune."""
    model, config = _layer(rng, op)
    m = S.ModelT.InitFromPackedBuf(model, 0)
    index, axis = _weights_of(m)
    t = m.subgraphs[0].tensors[index]
    w = np.frombuffer(bytes(m.buffers[t.buffer].data), np.int8).reshape(list(t.shape))
    density = pick(rng, [0.03, 0.1, 0.2, 0.4])
    w = np.where(rng.random(w.shape) < density, w, 0).astype(np.int8)
    if axis is None and t.quantization is not None:
        t.quantization.quantizedDimension = 0  # TFLite Micro's DECODE refuses others
    fb = flatbuffers.Builder(1024)
    fb.Finish(m.Pack(fb), file_identifier=b"TFL3")
    config.update({"prune_density": density})
    return _with_decode(bytes(fb.Output()), index, *prune(w, channel_axis=axis or 0)), config


def _decode_huffman(rng, op):
    """The layer's weights drawn from a few of their own values, skewed or
    flat, compressed as TFLM_DECODE's Huffman."""
    model, config = _layer(rng, op)
    m = S.ModelT.InitFromPackedBuf(model, 0)
    index, axis = _weights_of(m)
    t = m.subgraphs[0].tensors[index]
    w = np.frombuffer(bytes(m.buffers[t.buffer].data), np.int8).reshape(list(t.shape))
    pool = np.unique(w)
    levels = min(len(pool), pick(rng, [2, 5, 16, 16, 40]))
    values = rng.choice(pool, levels, replace=False)
    skewed = chance(rng, 0.6)
    p = 0.5 ** np.arange(levels) if skewed else np.ones(levels)
    w = values[rng.choice(levels, w.shape, p=p / p.sum())].astype(np.int8)
    if axis is None and t.quantization is not None:
        t.quantization.quantizedDimension = 0  # TFLite Micro's DECODE refuses others
    fb = flatbuffers.Builder(1024)
    fb.Finish(m.Pack(fb), file_identifier=b"TFL3")
    wide, root = chance(rng, 0.5), pick(rng, [2, 3, 4, 6, 8])
    config.update({"huffman_levels": levels, "huffman_skewed": skewed, "huffman_wide": wide,
                   "huffman_root_bits": root})
    return _with_decode(bytes(fb.Output()), index, *huffman(w, wide, root)), config


@variant("CONV_2D.clustered", "CONV_2D", keys=TABLE)
def conv_clustered(rng):
    """CONV_2D with clustered weights stored as tables (weights.format table)."""
    return _clustered(rng, "CONV_2D")


@variant("DEPTHWISE_CONV_2D.clustered", "DEPTHWISE_CONV_2D", keys=TABLE)
def dw_clustered(rng):
    """DEPTHWISE_CONV_2D with clustered weights stored as tables."""
    return _clustered(rng, "DEPTHWISE_CONV_2D")


@variant("FULLY_CONNECTED.clustered", "FULLY_CONNECTED", keys=TABLE)
def fc_clustered(rng):
    """FULLY_CONNECTED with clustered weights stored as tables."""
    return _clustered(rng, "FULLY_CONNECTED")


@variant("CONV_2D.decode_lut", "CONV_2D")
def conv_decode_lut(rng):
    """CONV_2D whose weights TFLite Micro's tool LUT-compressed, kept
    compressed (weights.format auto)."""
    return _decode_lut(rng, "CONV_2D")


@variant("DEPTHWISE_CONV_2D.decode_lut", "DEPTHWISE_CONV_2D")
def dw_decode_lut(rng):
    """DEPTHWISE_CONV_2D whose weights TFLite Micro's tool LUT-compressed."""
    return _decode_lut(rng, "DEPTHWISE_CONV_2D")


@variant("FULLY_CONNECTED.decode_lut", "FULLY_CONNECTED")
def fc_decode_lut(rng):
    """FULLY_CONNECTED whose weights TFLite Micro's tool LUT-compressed."""
    return _decode_lut(rng, "FULLY_CONNECTED")


@variant("CONV_2D.decode_prune", "CONV_2D")
def conv_decode_prune(rng):
    """CONV_2D whose pruned weights TFLM_DECODE's Prune compresses, kept as
    a bitmap (or tables) under weights.format auto."""
    return _decode_prune(rng, "CONV_2D")


@variant("FULLY_CONNECTED.decode_prune", "FULLY_CONNECTED")
def fc_decode_prune(rng):
    """FULLY_CONNECTED whose pruned weights TFLM_DECODE's Prune compresses."""
    return _decode_prune(rng, "FULLY_CONNECTED")


@variant("CONV_2D.decode_huffman", "CONV_2D", keys=HUFFMAN)
def conv_decode_huffman(rng):
    """CONV_2D whose weights TFLM_DECODE's Huffman compresses, stored as
    Huffman codes and decoded at run time (weights.format huffman)."""
    return _decode_huffman(rng, "CONV_2D")


@variant("DEPTHWISE_CONV_2D.decode_huffman", "DEPTHWISE_CONV_2D", keys=HUFFMAN)
def dw_decode_huffman(rng):
    """DEPTHWISE_CONV_2D whose weights TFLM_DECODE's Huffman compresses."""
    return _decode_huffman(rng, "DEPTHWISE_CONV_2D")


@variant("FULLY_CONNECTED.decode_huffman", "FULLY_CONNECTED", keys=HUFFMAN)
def fc_decode_huffman(rng):
    """FULLY_CONNECTED whose weights TFLM_DECODE's Huffman compresses."""
    return _decode_huffman(rng, "FULLY_CONNECTED")
