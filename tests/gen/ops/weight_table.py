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
TFLite Micro requires).

`make test` runs them on the host (tests.optest); tests/test_weight_table.py
on both boards."""

import flatbuffers
import numpy as np
from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as S

from tests.harness.tflm_decode import compress_lut
from ..common import chance, pick
from ..core import variant
from .conv import _conv_common
from .fc import _fully_connected

TABLE = {"weights.format": "table"}
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
