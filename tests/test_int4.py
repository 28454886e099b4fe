"""TFLite INT4 weights (docs/compressed-models.md, "INT4 weights"):
CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED models with INT4 weights,
kept packed (weights.format packed) and expanded to int8 (dense),
byte-equal to TFLite Micro on both boards (the host runs the variants in
tests.optest); the stored form in the views; the refusals, one line each."""

import json
import subprocess
import zlib

import numpy as np
import pytest

from tests.gen import variants
from tests.gen.builder import ModelBuilder, Q
from tests.harness import batch, difftest, module, oracle

BOARDS = [("mps3-an547", "mps3_an547"), ("mps2-an386", "mps2_an386")]
PACKED = ["CONV_2D.int4", "CONV_2D.int4_deep", "CONV_2D.int4_pointwise", "CONV_2D.int4_long",
          "CONV_2D.int4_grouped", "DEPTHWISE_CONV_2D.int4", "FULLY_CONNECTED.int4",
          "FULLY_CONNECTED.int4_wide"]
DENSE = ["CONV_2D.int4_dense", "DEPTHWISE_CONV_2D.int4_dense", "FULLY_CONNECTED.int4_dense"]
PER_VARIANT = 3
# The depthwise variant's channel counts (every tail of the Helium and DSP
# blocks) need more draws.
SEEDS = {"DEPTHWISE_CONV_2D.int4": 16}


def cases(names):
    known = {**variants.ALL, **variants.SIMD}
    return [known[n].case(seed) for n in names for seed in range(SEEDS.get(n, PER_VARIANT))]


def runs_for(case):
    rng = np.random.default_rng([11, zlib.crc32(case.name.encode())])
    return oracle.random_inputs(case.model, rng, 2)


def check(part, results):
    return difftest.differing_cases(part, results.get, runs_for)


@pytest.mark.qemu
@pytest.mark.parametrize("board,target", BOARDS, ids=[b for b, _ in BOARDS])
def test_int4_weights_match_tflm_on_boards(tmp_path, board, target):
    """Packed (the Cortex-M55 and Cortex-M4 DSP dot product) and dense."""
    bad, total = [], 0
    for fmt, names in (("packed", PACKED), ("dense", DENSE)):
        part = cases(names)
        b = batch.build_batch_qemu([(c.name, c.model) for c in part], tmp_path / fmt, board,
                                   target, keys={"weights.format": fmt})
        assert not b.errors, b.errors
        results = batch.run_cases_qemu(b, [(i, runs_for(c)) for i, c in enumerate(part)])
        part_bad, part_total = check(part, results)
        bad += part_bad
        total += part_total
    assert total > 0 and not bad, "\n".join(bad[:8])


def int4_fc(weights, per_channel=False, data=None, activation="int8"):
    """FULLY_CONNECTED [1, depth] -> [1, rows] with INT4 weights."""
    rows, depth = weights.shape
    b = ModelBuilder()
    x = b.tensor([1, depth], activation, Q(0.05, 3 if activation == "int8" else 0), name="x")
    wq = Q([0.1] * rows, [0] * rows, axis=0) if per_channel else Q(0.1, 0)
    w = b.const(weights, "int4", wq, name="dense_w")
    y = b.tensor([1, rows], activation, Q(0.2, -1 if activation == "int8" else 0), name="y")
    b.op("FULLY_CONNECTED", [x, w, -1], [y], "FullyConnectedOptions")
    if data is not None:
        b.buffers[b.g.tensors[w].buffer].data = data
    return b.build([x], [y])


def convert(tmp_path, model, *keys):
    path = tmp_path / "m.tflite"
    path.write_bytes(model)
    return subprocess.run([module.tinyaot_bin(), "convert", "--model.path", str(path),
                           "--module.path", str(tmp_path / "out"), "--module.prefix", "m", *keys],
                          capture_output=True, text=True)


def error_lines(p):
    return [line for line in p.stderr.splitlines() if "error" in line]


def test_int4_buffer_too_short_is_one_line(tmp_path):
    weights = np.arange(15).reshape(3, 5) % 16 - 8
    p = convert(tmp_path, int4_fc(weights, data=b"\x12" * 7))  # 15 values need 8 bytes
    assert p.returncode != 0
    lines = error_lines(p)
    assert len(lines) == 1, p.stderr
    assert "tensor 1, int4, shape [3,5]) hold 7 bytes, but 15 values packed two to a byte need 8" \
        in lines[0] and "FULLY_CONNECTED" in lines[0], lines[0]
    assert not (tmp_path / "out").exists()


def test_int4_outside_weights_is_refused_naming_tensor_and_operator(tmp_path):
    b = ModelBuilder()
    x = b.tensor([1, 4], "int8", Q(0.1, 0), name="x")
    c = b.const(np.array([1, -2, 3, -4]), "int4", Q(0.1, 0), name="c")
    y = b.tensor([1, 4], "int8", Q(0.1, 0), name="y")
    b.op("ADD", [x, c], [y], "AddOptions")
    p = convert(tmp_path, b.build([x], [y]))
    assert p.returncode != 0
    lines = error_lines(p)
    assert len(lines) == 1, p.stderr
    assert "operator 0 (ADD): input 1 (tensor 1) is int4" in lines[0], lines[0]


def test_int4_per_channel_fully_connected_is_refused_as_tflm_does(tmp_path):
    p = convert(tmp_path, int4_fc(np.zeros((3, 5), np.int8), per_channel=True))
    assert p.returncode != 0
    lines = error_lines(p)
    assert len(lines) == 1 and "per-channel INT4" in lines[0], p.stderr


def test_int4_with_int16_activations_is_refused(tmp_path):
    p = convert(tmp_path, int4_fc(np.zeros((3, 5), np.int8), activation="int16"))
    assert p.returncode != 0
    lines = error_lines(p)
    assert len(lines) == 1 and "need int8 activations" in lines[0], p.stderr


def stored(tmp_path):
    views = json.loads((tmp_path / "out" / "m_views.json").read_text())
    return {t["id"]: (t["stored_format"], t["nbytes"], t["dense_nbytes"])
            for t in views["tensors"] if t["kind"] == "constant"}


def kernels(tmp_path):
    return sorted(p.name for p in (tmp_path / "out" / "runtime" / "kernels").glob("*.c"))


@pytest.mark.parametrize("keys,packed", [((), True), (("--weights.format", "dense"), False),
                                         (("--weights.dense", "dense_*"), False),
                                         (("--weights.dense", "[other, 1]"), False),
                                         (("--weights.dense", "other"), True)])
def test_weights_format_chooses_the_stored_form(tmp_path, keys, packed):
    rng = np.random.default_rng(3)
    p = convert(tmp_path, int4_fc(rng.integers(-8, 8, (6, 37))), *keys)
    assert p.returncode == 0, p.stderr
    s = stored(tmp_path)
    if packed:
        # 6 rows of 37 values: 5 groups of eight, 20 bytes a row (int8: 222 bytes)
        assert s["op0.weights_int4"] == ("int4", 128, 222), s
        assert kernels(tmp_path) == ["ta_fully_connected_s4.c"]
    else:
        assert s["1"][0] == "dense" and s["1"][2] == 222, s
        assert "op0.weights_int4" not in s
        assert kernels(tmp_path) == ["ta_fully_connected.c", "ta_fully_connected_dsp.c",
                                        "ta_fully_connected_mve.c"]


@pytest.mark.parametrize("fmt,stored_as", [("auto", "dense"), ("packed", "int4"),
                                           ("dense", "dense")])
def test_auto_keeps_depthwise_weights_dense(tmp_path, fmt, stored_as):
    """DEPTHWISE_CONV_2D's packed kernel costs about 1.4x the int8 one's
    instructions (docs/compressed-models.md): auto stores its (small)
    weights dense, packed keeps them packed."""
    b = ModelBuilder()
    x = b.tensor([1, 5, 5, 8], "int8", Q(0.05, 1), name="x")
    w = b.const(np.random.default_rng(1).integers(-8, 8, (1, 3, 3, 8)), "int4",
                Q([0.1] * 8, [0] * 8, axis=3), name="dw_w")
    y = b.tensor([1, 5, 5, 8], "int8", Q(0.2, 0), name="y")
    b.op("DEPTHWISE_CONV_2D", [x, w], [y], "DepthwiseConv2DOptions", padding="SAME",
         strideH=1, strideW=1, depthMultiplier=1)
    p = convert(tmp_path, b.build([x], [y]), "--weights.format", fmt)
    assert p.returncode == 0, p.stderr
    formats = {f for f, _, _ in stored(tmp_path).values()}
    assert stored_as in formats and (stored_as == "dense" or "op0.weights_int4" in
                                     stored(tmp_path)), stored(tmp_path)
    assert ("ta_depthwise_conv_2d_s4.c" in kernels(tmp_path)) == (stored_as == "int4")


@pytest.mark.parametrize("depth,fmt,stored_as", [(63, "auto", "dense"), (64, "auto", "int4"),
                                                 (16, "packed", "int4"), (64, "dense", "dense")])
def test_auto_keeps_short_conv_filters_dense(tmp_path, depth, fmt, stored_as):
    """auto packs CONV_2D filters of at least 64 values; shorter ones, where
    the packed kernel measured 1.9-3.5x the int8 one, stay dense."""
    b = ModelBuilder()
    x = b.tensor([1, 4, 4, depth], "int8", Q(0.05, 1), name="x")
    w = b.const(np.random.default_rng(2).integers(-8, 8, (6, 1, 1, depth)), "int4",
                Q([0.1] * 6, [0] * 6, axis=0), name="pw_w")
    y = b.tensor([1, 4, 4, 6], "int8", Q(0.2, 0), name="y")
    b.op("CONV_2D", [x, w], [y], "Conv2DOptions", padding="SAME", strideH=1, strideW=1)
    p = convert(tmp_path, b.build([x], [y]), "--weights.format", fmt)
    assert p.returncode == 0, p.stderr
    s = stored(tmp_path)
    if stored_as == "int4":
        # two blocks of four filters (six, padded), steps of 32 values, 64 bytes each
        assert s["op0.weights_int4"] == ("int4", 2 * ((depth + 31) // 32) * 64, 6 * depth), s
    else:
        assert all(f == "dense" for f, _, _ in s.values()), s
    assert ("ta_conv_2d_s4.c" in kernels(tmp_path)) == (stored_as == "int4")


def test_weights_format_refuses_an_unknown_form(tmp_path):
    p = convert(tmp_path, int4_fc(np.zeros((3, 5), np.int8)), "--weights.format", "int4")
    assert p.returncode != 0 and "weights.format" in p.stderr, p.stderr
