"""TFLM_DECODE, TFLite Micro's compressed constants: tinyaot decodes each
DECODE output at conversion time into a constant (src/passes/
decode_constants.c). Compressed models (LUT from the wheel's compression
tool, at several bit widths and with per-channel tables; Huffman and Prune
built here as the kernels read them) must run bit-exact with TFLite Micro
and give what the uncompressed model's module gives; bad headers and
sizes are refused with one line naming the operator."""

import numpy as np
import pytest

from tests.gen.builder import ModelBuilder, Q
from tests.harness import module, oracle
from tests.harness import tflm_decode as td
from tests.harness.refusals import refusal, tflm_fails


def _run_both(model, tmp_path, name, n_runs=3, seed=0):
    """TFLite Micro's and the module's outputs on the same random inputs."""
    runs = oracle.random_inputs(model, np.random.default_rng(seed), n_runs)
    ref = oracle.run_tflm(model, runs, isolated=True)
    (tmp_path / f"{name}.tflite").write_bytes(model)
    m = module.convert(tmp_path / f"{name}.tflite", tmp_path / name)
    ours = module.run(m, module.build(m), runs)
    return runs, ref, ours, m


def _same(a, b):
    return all(len(x) == len(y) and all(np.array_equal(p, q) for p, q in zip(x, y))
               for x, y in zip(a, b)) and len(a) == len(b)


# ---------------------------------------------------------------- consumers

def _levels(rng, shape, levels, dtype=np.int8, axis=None):
    """Weights with at most `levels` distinct values (per slice along axis)."""
    if axis is None:
        pool = rng.integers(-127, 128, size=levels)
        return rng.choice(pool, size=shape).astype(dtype)
    out = np.empty(shape, dtype)
    for c in range(shape[axis]):
        pool = rng.integers(-127, 128, size=levels)
        idx = [slice(None)] * len(shape)
        idx[axis] = c
        out[tuple(idx)] = rng.choice(pool, size=out[tuple(idx)].shape)
    return out


def _fully_connected(rng, levels, act="int8"):
    b = ModelBuilder()
    x = b.tensor([2, 40], act, Q(0.05, 2 if act == "int8" else 0), name="input")
    w = b.tensor([6, 40], "int8", Q(0.01, 0), name="weights", data=_levels(rng, [6, 40], levels))
    bias_type = "int32" if act == "int8" else "int64"
    bias = b.tensor([6], bias_type, Q(0.0005, 0), name="bias",
                    data=rng.choice(rng.integers(-500, 500, min(levels, 4)), 6))
    y = b.tensor([2, 6], act, Q(0.1, -3 if act == "int8" else 0), name="output")
    b.op("FULLY_CONNECTED", [x, w, bias], [y], "FullyConnectedOptions")
    return b.build([x], [y]), [w, bias]


def _fully_connected_float(rng, levels):
    b = ModelBuilder()
    x = b.tensor([3, 20], "float32", name="input")
    pool = rng.standard_normal(levels).astype(np.float32)
    w = b.tensor([5, 20], "float32", name="weights", data=rng.choice(pool, size=[5, 20]))
    y = b.tensor([3, 5], "float32", name="output")
    b.op("FULLY_CONNECTED", [x, w, -1], [y], "FullyConnectedOptions")
    return b.build([x], [y]), [w]


def _conv_per_channel(rng, levels):
    b = ModelBuilder()
    x = b.tensor([1, 6, 6, 3], "int8", Q(0.05, -1), name="input")
    scales = [0.01 + 0.002 * c for c in range(4)]
    w = b.tensor([4, 3, 3, 3], "int8", Q(scales, 0, 0), name="weights",
                 data=_levels(rng, [4, 3, 3, 3], levels, axis=0))
    bias = b.tensor([4], "int32", Q([0.05 * s for s in scales], 0, 0), name="bias",
                    data=rng.integers(-300, 300, 4))
    y = b.tensor([1, 6, 6, 4], "int8", Q(0.08, 5), name="output")
    b.op("CONV_2D", [x, w, bias], [y], "Conv2DOptions", padding="SAME", strideH=1, strideW=1)
    return b.build([x], [y]), [w, bias]


def _depthwise_per_channel(rng, levels):
    """Weights quantized along their last axis: TFLite Micro's other layout."""
    b = ModelBuilder()
    x = b.tensor([1, 5, 5, 8], "int8", Q(0.05, 1), name="input")
    scales = [0.01 + 0.001 * c for c in range(8)]
    w = b.tensor([1, 3, 3, 8], "int8", Q(scales, 0, 3), name="weights",
                 data=_levels(rng, [1, 3, 3, 8], levels, axis=3))
    bias = b.tensor([8], "int32", Q([0.05 * s for s in scales], 0, 0), name="bias",
                    data=rng.integers(-300, 300, 8))
    y = b.tensor([1, 5, 5, 8], "int8", Q(0.06, -2), name="output")
    b.op("DEPTHWISE_CONV_2D", [x, w, bias], [y], "DepthwiseConv2DOptions", padding="SAME",
         strideH=1, strideW=1, depthMultiplier=1)
    return b.build([x], [y]), [w, bias]


CONSUMERS = [
    # (name, builder, levels, bit width, per-channel table axis or None)
    ("fc_int8_1bit", lambda r: _fully_connected(r, 2), 1, None),
    ("fc_int8_2bit", lambda r: _fully_connected(r, 4), 2, None),
    ("fc_int8_3bit", lambda r: _fully_connected(r, 8), 3, None),
    ("fc_int8_4bit", lambda r: _fully_connected(r, 16), 4, None),
    ("fc_int8_5bit", lambda r: _fully_connected(r, 30), 5, None),
    ("fc_int8_7bit", lambda r: _fully_connected(r, 100), 7, None),
    ("fc_int16x8", lambda r: _fully_connected(r, 12, act="int16"), 4, None),
    ("fc_float32", lambda r: _fully_connected_float(r, 6), 3, None),
    ("conv_per_channel_3bit", lambda r: _conv_per_channel(r, 8), 3, 0),
    ("conv_per_channel_4bit", lambda r: _conv_per_channel(r, 16), 4, 0),
    ("depthwise_last_axis", lambda r: _depthwise_per_channel(r, 5), 3, 3),
]


@pytest.mark.parametrize("name,make,bitwidth,axis", CONSUMERS, ids=[c[0] for c in CONSUMERS])
def test_lut_compressed_model_matches_tflite_micro_and_the_uncompressed_module(
        tmp_path, name, make, bitwidth, axis):
    model, tensors = make(np.random.default_rng(len(name)))
    # the bias too: per channel (along its only axis) when it is quantized so
    compressed = td.compress_lut(
        model, [(tensors[0], axis)] + [(t, None if axis is None else 0) for t in tensors[1:]],
        bitwidth)
    assert b"TFLM_DECODE" in compressed
    runs, ref, ours, m = _run_both(compressed, tmp_path, "compressed")
    assert _same(ours, ref)
    plain_ref = oracle.run_tflm(model, runs, isolated=True)
    assert _same(plain_ref, ref)
    (tmp_path / "plain.tflite").write_bytes(model)
    plain = module.convert(tmp_path / "plain.tflite", tmp_path / "plain")
    assert _same(module.run(plain, module.build(plain), runs), ours)
    # The views: no DECODE left, the consumer keeps its model index; the
    # encoded and ancillary tensors are gone, a decoded one left is a constant.
    types = [op["type"] for op in m.views["operators"]]
    assert types == [plain.views["operators"][0]["type"]], types
    assert m.views["operators"][0]["source_indices"] == [1]  # after the tool's DECODE
    names = {t["name"]: t["kind"] for t in m.views["tensors"] if t["name"]}
    assert not [n for n in names if n.endswith("_ancillary")], names
    assert all(k == "constant" for n, k in names.items() if n.endswith("_decoded")), names
