"""TFLM_DECODE: TFLite Micro's compressed constants. A FULLY_CONNECTED of
fc.py with its weights drawn from a few values, LUT-compressed by the
wheel's compression tool (which inserts the DECODE operator)."""

import flatbuffers
import numpy as np
from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as S

from tests.harness.tflm_decode import compress_lut
from ..common import chance, randint
from ..core import variant
from .fc import _fully_connected

WEIGHTS, BIAS = 1, 2  # tensor indices in _fully_connected's model


def _few_values(rng, shape, levels, per_channel):
    """int8 values drawn from `levels` distinct ones (per row when per channel)."""
    rows = shape[0] if per_channel else 1
    pools = [rng.integers(-127, 128, size=levels) for _ in range(rows)]
    w = np.stack([rng.choice(pools[r % rows], size=shape[1:]) for r in range(shape[0])])
    return w.astype(np.int8)


def _with_weights(model, weights):
    m = S.ModelT.InitFromPackedBuf(model, 0)
    buf = m.buffers[m.subgraphs[0].tensors[WEIGHTS].buffer]
    buf.data = np.frombuffer(weights.tobytes(), np.uint8)
    fb = flatbuffers.Builder(1024)
    fb.Finish(m.Pack(fb), file_identifier=b"TFL3")
    return bytes(fb.Output())


@variant("DECODE.lut", "TFLM_DECODE")
def decode_lut(rng):
    """A FULLY_CONNECTED.int8 model whose weights (and often bias) TFLite
    Micro's compression tool LUT-compresses: index bit widths 1-7, one value
    table or one per output channel (the weights' per-channel quantization),
    so tinyaot decodes the DECODE output at conversion time."""
    model, config = _fully_connected(rng, "int8")
    bitwidth = randint(rng, 1, 7)
    per_channel = config["per_channel"]
    m = S.ModelT.InitFromPackedBuf(model, 0)
    shape = [int(d) for d in m.subgraphs[0].tensors[WEIGHTS].shape]
    levels = randint(rng, 1, 1 << bitwidth)
    model = _with_weights(model, _few_values(rng, shape, levels, per_channel))
    axis = 0 if per_channel else None
    tensors = [(WEIGHTS, axis)]
    # a bias of few values too (one per channel is one value per table)
    bias = config["bias"] and (per_channel or (bitwidth >= 5 and chance(rng, 0.5)))
    if bias:
        tensors.append((BIAS, axis))
    compressed = compress_lut(model, tensors, bitwidth)
    config.update({"lut_bitwidth": bitwidth, "lut_levels": levels,
                   "lut_per_channel": per_channel, "lut_bias": bool(bias)})
    return compressed, config
