"""SPARSE_CHANNELS (issue 24, item 1; docs/pruned-models.md):
output channels whose weights are all zero become constants folded into
the 1x1 and FULLY_CONNECTED layers that read them, and channels no later
operator reads through a nonzero weight leave weights and tensors.
Pruned models from tests/gen (SPARSE.chain, SPARSE.residual,
SPARSE.constants: depthwise convolutions, residual ADDs, pooling, SAME and
VALID padding) stay byte-equal to TFLite Micro on both Cortex-M boards (on
the host: the operator suite, make test-ops, and the small models here);
the transform really removes the channels
(smaller tensors, fewer MACs in the views), and turning it off keeps
them."""

import json
import subprocess
import zlib

import numpy as np
import pytest

from bench import sparse as bench_sparse
from tests.gen import variants
from tests.gen.builder import ModelBuilder, Q
from tests.harness import batch, difftest, module, oracle
from tests.harness import doc_commands as dc

# Few cases: the operator suite (make test-ops) draws 30 of each variant
# on the host.
CASES = [("SPARSE.chain", seed) for seed in range(3)] + \
        [("SPARSE.residual", seed) for seed in range(3)] + \
        [("SPARSE.constants", seed) for seed in range(3)]
BOARDS = [("mps3-an547", "mps3_an547"), ("mps2-an386", "mps2_an386")]
OFF = {"transforms": "{SPARSE_CHANNELS: false}"}


def cases():
    return [variants.ALL[name].case(seed) for name, seed in CASES]


def runs_for(case):
    rng = np.random.default_rng([24, zlib.crc32(case.name.encode())])
    return oracle.random_inputs(case.model, rng, 2)


def analyze(path, keys=None):
    cmd = [module.tinyaot_bin(), "analyze", "--model.path", str(path), "--format", "json"]
    for k, v in (keys or {}).items():
        cmd += ["--" + k, v]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def check(drawn, results):
    bad, total = [], 0
    for i, case in enumerate(drawn):
        ours = results.get(i)
        if isinstance(ours, str):
            bad.append(f"{case.name}: {ours[:300]}")
            continue
        n, d = difftest._count_diff(ours, oracle.run_tflm(case.model, runs_for(case),
                                                          isolated=True))
        total += n
        if d:
            bad.append(f"{case.name}: {d} of {n} bytes differ; {case.config}")
    assert total > 0 and not bad, "\n".join(bad[:8])


def test_drawn_models_exercise_both_halves(tmp_path):
    """The drawn cases fold constants and remove channels. (On the host the
    operator suite, make test-ops, runs 30 of each variant against TFLite
    Micro; the boards are below.)"""
    removed = folded = 0
    for i, case in enumerate(cases()[::2]):
        path = tmp_path / f"c{i}.tflite"
        path.write_bytes(case.model)
        ops = analyze(path)["operators"]
        removed += sum(o["channels_removed"] for o in ops)
        folded += sum(o["channels_folded"] for o in ops)
    assert removed > 0 and folded > 0


@pytest.mark.qemu
@pytest.mark.parametrize("board,target", BOARDS, ids=[b for b, _ in BOARDS])
def test_pruned_models_match_tflm_on_boards(tmp_path, board, target):
    drawn = cases()
    b = batch.build_batch_qemu([(c.name, c.model) for c in drawn], tmp_path, board, target)
    assert not b.errors, b.errors
    check(drawn, batch.run_cases_qemu(b, [(i, runs_for(c)) for i, c in enumerate(drawn)]))


def pruned_model():
    """input [1,6,6,4] -> 3x3 conv to 16 (channels 0-9 all zero: constants)
    -> 1x1 conv to 8 (input columns 12-15 zero: dead; rows 6 and 7 zero)
    -> depthwise 3x3 SAME -> 1x1 conv to 4 (input columns 6 and 7 zero) ->
    output. Channels 0-9 of the first fold into the second's bias, 12-15
    are not computed; channels 6 and 7 of the second are constants the
    depthwise convolution cannot take (its border reads padding), but
    nothing reads them after it: gone from both."""
    rng = np.random.default_rng(7)
    b = ModelBuilder()
    x = b.tensor([1, 6, 6, 4], "int8", Q(0.05, 3), name="x")

    def conv(inp, w, out_shape, oq, name, act="NONE"):
        y = b.tensor(out_shape, "int8", oq, name=name)
        bias = b.const(rng.integers(-900, 900, w.shape[0]).astype(np.int32), "int32",
                       Q(0.0005, 0), name=name + "_b")
        b.op("CONV_2D", [inp, b.const(w, "int8", Q(0.01, 0), name=name + "_w"), bias], [y],
             "Conv2DOptions", padding="SAME", strideH=1, strideW=1,
             fusedActivationFunction=act)
        return y

    w1 = rng.integers(-127, 128, (16, 3, 3, 4)).astype(np.int8)
    w1[:10] = 0
    c1 = conv(x, w1, [1, 6, 6, 16], Q(0.1, -5), "c1", "RELU6")
    w2 = rng.integers(-127, 128, (8, 1, 1, 16)).astype(np.int8)
    w2[..., 12:] = 0
    w2[6:] = 0
    c2 = conv(c1, w2, [1, 6, 6, 8], Q(0.2, 4), "c2")
    wd = rng.integers(-127, 128, (1, 3, 3, 8)).astype(np.int8)
    d1 = b.tensor([1, 6, 6, 8], "int8", Q(0.2, 2), name="d1")
    b.op("DEPTHWISE_CONV_2D", [c2, b.const(wd, "int8", Q(0.02, 0), name="wd")], [d1],
         "DepthwiseConv2DOptions", padding="SAME", strideH=1, strideW=1, depthMultiplier=1)
    w3 = rng.integers(-127, 128, (4, 1, 1, 8)).astype(np.int8)
    w3[..., 6:] = 0
    y = conv(d1, w3, [1, 6, 6, 4], Q(0.3, 1), "y")
    return b.build([x], [y])


def test_transform_removes_channels_and_off_keeps_them(tmp_path):
    path = tmp_path / "pruned.tflite"
    path.write_bytes(pruned_model())
    on, off = analyze(path), analyze(path, OFF)
    shapes = [o["output_shape"] for o in on["operators"]]
    assert shapes == [[1, 6, 6, 2], [1, 6, 6, 6], [1, 6, 6, 6], [1, 6, 6, 4]], shapes
    assert [o["output_shape"][3] for o in off["operators"]] == [16, 8, 8, 4]
    assert [o["channels_removed"] for o in on["operators"]] == [14, 2, 2, 0]
    assert [o["channels_folded"] for o in on["operators"]] == [0, 10, 0, 0]
    assert all(o["channels_removed"] == o["channels_folded"] == 0 for o in off["operators"])
    for o, f in zip(on["operators"], off["operators"]):
        assert o["macs"] < f["macs"], (o, f)
    # Less scratch: the 16-channel activation shrinks to 2 channels.
    assert on["memories"][0]["scratch"] < off["memories"][0]["scratch"]
    for name, keys in (("on", None), ("off", OFF)):
        r = difftest.compare_model(path, tmp_path / name, n_runs=20, litert=False, keys=keys)
        assert r.bytes > 0 and r.diff["tflm"] == 0, (name, r)


@dc.doc_command(".venv/bin/python -m bench.sparse")
def test_bench_model_has_the_pruning_profile(tmp_path):
    """bench/sparse.py's model (the instructions it measures on the boards
    are its own business): 85% or more of its int8 weights zero, and the
    transform takes more than half its MACs and leaves at most 35% of the
    weight bytes in its constants."""
    model, weights, zeros = bench_sparse.build(0)
    assert zeros / weights >= 0.85
    path = tmp_path / "pruned.tflite"
    path.write_bytes(model)
    on, off = analyze(path), analyze(path, OFF)
    assert on["total_macs"] < 0.5 * off["total_macs"]
    assert on["flash"]["constants"] <= 0.35 * weights < off["flash"]["constants"]
    removed = [o["channels_removed"] for o in on["operators"]]
    assert max(removed) >= 200 and sum(1 for r in removed if r >= 100) >= 10


def depthwise_constant_model(padding, stride=1):
    """input [1,5,5,3] -> 1x1 conv to 6 (RELU; rows 0 and 1 zero: row 0's
    negative bias clamps to the zero point, row 1's positive one does not)
    -> depthwise 3x3 (padding) -> 1x1 conv to 4 reading every channel.
    Through SAME padding only channel 0 stays a constant (its input is the
    zero point, so the taps the border skips would add nothing), channel 1
    differs at the border; through VALID padding both are constants. Stride
    1 or 2."""
    rng = np.random.default_rng(11)
    b = ModelBuilder()
    x = b.tensor([1, 5, 5, 3], "int8", Q(0.05, 3), name="x")
    w1 = rng.integers(-127, 128, (6, 1, 1, 3)).astype(np.int8)
    w1[:2] = 0
    bias1 = rng.integers(-900, 900, 6).astype(np.int32)
    bias1[0], bias1[1] = -700, 800
    h = b.tensor([1, 5, 5, 6], "int8", Q(0.1, -10), name="h")
    b.op("CONV_2D", [x, b.const(w1, "int8", Q(0.01, 0), name="w1"),
                     b.const(bias1, "int32", Q(0.0005, 0), name="b1")],
         [h], "Conv2DOptions", padding="SAME", strideH=1, strideW=1,
         fusedActivationFunction="RELU")
    side = (5 + stride - 1) // stride if padding == "SAME" else (5 - 3) // stride + 1
    d = b.tensor([1, side, side, 6], "int8", Q(0.2, 2), name="d")
    wd = rng.integers(-127, 128, (1, 3, 3, 6)).astype(np.int8)
    b.op("DEPTHWISE_CONV_2D", [h, b.const(wd, "int8", Q(0.02, 0), name="wd"),
                               b.const(rng.integers(-900, 900, 6).astype(np.int32), "int32",
                                       Q(0.002, 0), name="bd")],
         [d], "DepthwiseConv2DOptions", padding=padding, strideH=stride, strideW=stride,
         depthMultiplier=1)
    w2 = rng.integers(-127, 128, (4, 1, 1, 6)).astype(np.int8)
    w2[w2 == 0] = 1
    y = b.tensor([1, side, side, 4], "int8", Q(0.3, 1), name="y")
    b.op("CONV_2D", [d, b.const(w2, "int8", Q(0.01, 0), name="w2")], [y], "Conv2DOptions",
         padding="SAME", strideH=1, strideW=1)
    return b.build([x], [y])


@pytest.mark.parametrize("padding,stride,constants",
                         [("SAME", 1, 1), ("SAME", 2, 1), ("VALID", 1, 2), ("VALID", 2, 2)])
def test_constants_through_depthwise(tmp_path, padding, stride, constants):
    """A constant channel through a depthwise layer folds into the 1x1
    reader where the layer gives it one value at every position (computed
    at conversion with the kernel's border arithmetic), and leaves the
    producer, the depthwise layer and the reader's weights."""
    path = tmp_path / "dw.tflite"
    path.write_bytes(depthwise_constant_model(padding, stride))
    ops = analyze(path)["operators"]
    assert [o["channels_folded"] for o in ops] == [0, 0, constants], ops
    assert [o["output_shape"][3] for o in ops] == [6 - constants, 6 - constants, 4], ops
    r = difftest.compare_model(path, tmp_path / "m", n_runs=30, litert=False)
    assert r.bytes > 0 and r.diff["tflm"] == 0, r


def pool_constant_model(kind, size, stride):
    """input [1,6,6,3] -> 3x3 conv to 6 (RELU6; rows 0 and 1 zero:
    constants, one the zero point, one above it) -> AVERAGE_POOL_2D or
    MAX_POOL_2D (SAME, size x size, stride) -> 1x1 conv to 4 reading every
    channel: a pool of a constant is the constant (the mean or maximum of
    the taps inside the input), so both fold into the 1x1 layer."""
    rng = np.random.default_rng(13)
    b = ModelBuilder()
    x = b.tensor([1, 6, 6, 3], "int8", Q(0.05, 3), name="x")
    w1 = rng.integers(-127, 128, (6, 3, 3, 3)).astype(np.int8)
    w1[:2] = 0
    bias1 = rng.integers(-900, 900, 6).astype(np.int32)
    bias1[0], bias1[1] = -700, 800
    hq = Q(0.1, -10)
    h = b.tensor([1, 6, 6, 6], "int8", hq, name="h")
    b.op("CONV_2D", [x, b.const(w1, "int8", Q(0.01, 0), name="w1"),
                     b.const(bias1, "int32", Q(0.0005, 0), name="b1")],
         [h], "Conv2DOptions", padding="SAME", strideH=1, strideW=1,
         fusedActivationFunction="RELU6")
    side = (6 + stride - 1) // stride
    pooled = b.tensor([1, side, side, 6], "int8", hq, name="pooled")
    b.op(kind, [h], [pooled], "Pool2DOptions", padding="SAME", strideH=stride, strideW=stride,
         filterHeight=size, filterWidth=size, fusedActivationFunction="NONE")
    w2 = rng.integers(-127, 128, (4, 1, 1, 6)).astype(np.int8)
    w2[w2 == 0] = 1
    y = b.tensor([1, side, side, 4], "int8", Q(0.3, 1), name="y")
    b.op("CONV_2D", [pooled, b.const(w2, "int8", Q(0.01, 0), name="w2")], [y],
         "Conv2DOptions", padding="SAME", strideH=1, strideW=1)
    return b.build([x], [y])


@pytest.mark.parametrize("kind,size,stride", [("AVERAGE_POOL_2D", 3, 1), ("MAX_POOL_2D", 2, 2),
                                              ("AVERAGE_POOL_2D", 6, 6)])
def test_constants_through_pooling(tmp_path, kind, size, stride):
    path = tmp_path / "pool.tflite"
    path.write_bytes(pool_constant_model(kind, size, stride))
    ops = analyze(path)["operators"]
    assert [o["channels_folded"] for o in ops] == [0, 0, 2], ops
    assert [o["output_shape"][3] for o in ops] == [4, 4, 4], ops
    r = difftest.compare_model(path, tmp_path / "m", n_runs=30, litert=False)
    assert r.bytes > 0 and r.diff["tflm"] == 0, r


@pytest.mark.parametrize("op,options", [
    ("AVERAGE_POOL_2D", {"strideH": 0}), ("AVERAGE_POOL_2D", {"filterHeight": 1 << 30}),
    ("AVERAGE_POOL_2D", {"filterWidth": -5}),
    ("AVERAGE_POOL_2D", {"padding": "VALID", "filterHeight": 9}),
    ("DEPTHWISE_CONV_2D", {"strideW": 0}), ("DEPTHWISE_CONV_2D", {"dilationHFactor": -1}),
    ("DEPTHWISE_CONV_2D", {"padding": "VALID"})])
def test_bad_windows_over_constants_are_one_line_errors(tmp_path, monkeypatch, op, options):
    """A pool or depthwise layer over constant channels with options no
    kernel takes (or that disagree with its output's shape): the transform
    leaves it, and the conversion fails with lowering's one-line error."""
    original = ModelBuilder.op

    def op_with(self, name, inputs, outputs, opt=None, **kw):
        return original(self, name, inputs, outputs, opt, **({**kw, **options} if name == op
                                                               else kw))
    monkeypatch.setattr(ModelBuilder, "op", op_with)
    model = (pool_constant_model("AVERAGE_POOL_2D", 3, 1) if op == "AVERAGE_POOL_2D"
             else depthwise_constant_model("SAME"))
    path = tmp_path / "bad.tflite"
    path.write_bytes(model)
    p = subprocess.run([module.tinyaot_bin(), "analyze", "--model.path", str(path)],
                       capture_output=True, text=True, timeout=60)
    lines = p.stderr.strip().splitlines()
    assert p.returncode == 1 and len(lines) == 1 and f"({op})" in lines[0], p.stderr


def shared_weights_model():
    """A 3x3 conv to 8 channels (0-3 all zero: constants) read by two 1x1
    convolutions sharing one weight tensor whose columns 4-7 are zero, both
    model outputs. A shared tensor is not rewritten: nothing is folded or
    removed."""
    rng = np.random.default_rng(3)
    b = ModelBuilder()
    x = b.tensor([1, 4, 4, 3], "int8", Q(0.05, 3), name="x")
    w = rng.integers(-127, 128, (8, 3, 3, 3)).astype(np.int8)
    w[:4] = 0
    a = b.tensor([1, 4, 4, 8], "int8", Q(0.1, -5), name="a")
    b.op("CONV_2D", [x, b.const(w, "int8", Q(0.01, 0), name="w"),
                     b.const(rng.integers(-900, 900, 8).astype(np.int32), "int32",
                             Q(0.0005, 0), name="bias")],
         [a], "Conv2DOptions", padding="SAME", strideH=1, strideW=1)
    shared = rng.integers(-127, 128, (4, 1, 1, 8)).astype(np.int8)
    shared[..., 4:] = 0
    ws = b.const(shared, "int8", Q(0.02, 0), name="shared")
    outs = []
    for name in ("y0", "y1"):
        y = b.tensor([1, 4, 4, 4], "int8", Q(0.2, 1), name=name)
        b.op("CONV_2D", [a, ws], [y], "Conv2DOptions", padding="SAME", strideH=1, strideW=1)
        outs.append(y)
    return b.build([x], outs)


def test_shared_weights_are_left_alone(tmp_path):
    path = tmp_path / "shared.tflite"
    path.write_bytes(shared_weights_model())
    ops = analyze(path)["operators"]
    assert [o["output_shape"][3] for o in ops] == [8, 4, 4]
    assert all(o["channels_removed"] == o["channels_folded"] == 0 for o in ops), ops
    r = difftest.compare_model(path, tmp_path / "m", n_runs=10, litert=False)
    assert r.bytes > 0 and r.diff["tflm"] == 0, r


def fc_chain_model():
    """FULLY_CONNECTED 16 -> 12 (rows 0-5 zero: constants, RELU) ->
    FULLY_CONNECTED 12 -> 5 (columns 8-11 zero), two rows of input: the
    constants fold into the second's bias, and the first keeps rows 6-7."""
    rng = np.random.default_rng(5)
    b = ModelBuilder()
    x = b.tensor([2, 16], "int8", Q(0.05, -7), name="x")
    w1 = rng.integers(-127, 128, (12, 16)).astype(np.int8)
    w1[:6] = 0
    h = b.tensor([2, 12], "int8", Q(0.08, -20), name="h")
    b.op("FULLY_CONNECTED", [x, b.const(w1, "int8", Q(0.004, 0), name="w1"),
                             b.const(rng.integers(-3000, 3000, 12).astype(np.int32), "int32",
                                     Q(0.0002, 0), name="b1")],
         [h], "FullyConnectedOptions", fusedActivationFunction="RELU")
    w2 = rng.integers(-127, 128, (5, 12)).astype(np.int8)
    w2[:, 8:] = 0
    y = b.tensor([2, 5], "int8", Q(0.1, 3), name="y")
    b.op("FULLY_CONNECTED", [h, b.const(w2, "int8", Q(0.01, 0), name="w2")], [y],
         "FullyConnectedOptions", fusedActivationFunction="NONE")
    return b.build([x], [y])


def test_fully_connected_chain(tmp_path):
    path = tmp_path / "fc.tflite"
    path.write_bytes(fc_chain_model())
    ops = analyze(path)["operators"]
    assert [o["output_shape"] for o in ops] == [[2, 2], [2, 5]]
    assert [(o["channels_removed"], o["channels_folded"]) for o in ops] == [(10, 0), (0, 6)]
    r = difftest.compare_model(path, tmp_path / "m", n_runs=50, litert=False)
    assert r.bytes > 0 and r.diff["tflm"] == 0, r
