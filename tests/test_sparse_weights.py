"""SPARSE_WEIGHTS (docs/pruned-models.md, "Unstructured sparsity"): int8
FULLY_CONNECTED and 1x1 CONV_2D layers with their zero weights left out,
ta_fully_connected_s8_sparse, byte-equal to TFLite Micro on both boards
(the host runs SPARSE.unstructured in tests.optest, where the cost model
picks the kernel); which layers each weights.format stores sparse; the
stored form in the views."""

import json
import subprocess
import zlib

import numpy as np
import pytest

from tests.gen import variants
from tests.gen.builder import ModelBuilder, Q
from bench import sparse_weights as bench_sparse_weights
from tests.harness import batch, difftest, module, oracle
from tests.harness import doc_commands as dc

BOARDS = [("mps3-an547", "mps3_an547"), ("mps2-an386", "mps2_an386")]
CASES = 8


def runs_for(case):
    rng = np.random.default_rng([13, zlib.crc32(case.name.encode())])
    return oracle.random_inputs(case.model, rng, 2)


@pytest.mark.qemu
@pytest.mark.parametrize("board,target", BOARDS, ids=[b for b, _ in BOARDS])
def test_sparse_kernel_matches_tflm_on_boards(tmp_path, board, target):
    """weights.format sparse: every layer the sparse form makes smaller runs
    the sparse kernel (Helium's gather loop on the M55, the scalar one on
    the M4)."""
    cases = [variants.ALL["SPARSE.unstructured"].case(s) for s in range(CASES)]
    b = batch.build_batch_qemu([(c.name, c.model) for c in cases], tmp_path, board, target,
                               keys={"weights.format": "sparse"})
    assert not b.errors, b.errors
    assert "ta_fully_connected_s8_sparse(" in "".join(
        p.read_text() for p in tmp_path.rglob("*.c")), "no case ran the sparse kernel"
    results = batch.run_cases_qemu(b, [(i, runs_for(c)) for i, c in enumerate(cases)])
    bad, total = [], 0
    for i, case in enumerate(cases):
        ours = results.get(i)
        assert not isinstance(ours, str), f"{case.name}: {ours}"
        n, d = difftest._count_diff(ours, oracle.run_tflm(case.model, runs_for(case),
                                                          isolated=True))
        total += n
        if d:
            bad.append(f"{case.name}: {d} of {n} bytes differ; {case.config}")
    assert total > 0 and not bad, "\n".join(bad)


def fc_model(depth, outputs, density, seed=5):
    rng = np.random.default_rng(seed)
    b = ModelBuilder()
    x = b.tensor([1, depth], "int8", Q(0.02, 3), name="x")
    w = rng.integers(-127, 128, (outputs, depth)).astype(np.int8)
    w[rng.random(w.shape) >= density] = 0
    y = b.tensor([1, outputs], "int8", Q(0.05, -2), name="y")
    b.op("FULLY_CONNECTED", [x, b.const(w, "int8", Q(0.01, 0), name="fc_w"),
                             b.const(rng.integers(-900, 900, outputs).astype(np.int32), "int32",
                                     Q(float(np.float32(0.02 * 0.01)), 0), name="fc_b")],
         [y], "FullyConnectedOptions")
    return b.build([x], [y]), int(np.count_nonzero(w))


def convert(tmp_path, model, *keys):
    path = tmp_path / "m.tflite"
    path.write_bytes(model)
    return subprocess.run([module.tinyaot_bin(), "convert", "--model.path", str(path),
                           "--module.path", str(tmp_path / "out"), "--module.prefix", "m",
                           "--quiet", *keys], capture_output=True, text=True)


def stored(tmp_path):
    views = json.loads((tmp_path / "out" / "m_views.json").read_text())
    return {t["id"]: (t["stored_format"], t["nbytes"], t["dense_nbytes"])
            for t in views["tensors"] if t["kind"] == "constant"}


def sparse_call(tmp_path):
    return "ta_fully_connected_s8_sparse(" in "".join(
        p.read_text() for p in (tmp_path / "out" / "ops").glob("*.c"))


# (density, keys, sparse): auto where the sparse loop is faster on both cores
# (640 inputs, 2% kept), not at 30%; sparse wherever it is smaller (30%,
# not 40%); dense, weights.dense and the transform off never.
@pytest.mark.parametrize("density,keys,sparse", [
    (0.02, (), True), (0.3, (), False),
    (0.3, ("--weights.format", "sparse"), True), (0.45, ("--weights.format", "sparse"), False),
    (0.02, ("--weights.format", "dense"), False), (0.02, ("--weights.dense", "fc_*"), False),
    (0.02, ("--transforms", "{SPARSE_WEIGHTS: false}"), False)])
def test_weights_format_chooses_sparse_layers(tmp_path, density, keys, sparse):
    model, nz = fc_model(640, 48, density)
    p = convert(tmp_path, model, *keys)
    assert p.returncode == 0, p.stderr
    assert sparse_call(tmp_path) == sparse
    s = stored(tmp_path)
    if sparse:
        # bytes as placed: rounded up to the constants' alignment
        fmt, nbytes, dense = s["op0.sparse_weights"]
        assert (fmt, dense) == ("sparse", 48 * 640) and nz <= nbytes < nz + 16, s
        fmt, nbytes, _ = s["op0.sparse_indices"]
        assert fmt == "sparse" and 2 * nz <= nbytes < 2 * nz + 16, s
    # the model's weight tensor: in the module when dense, else left out
    weights = [v for k, v in s.items() if not k.startswith("op") and v[2] == 48 * 640]
    assert weights == ([] if sparse else [("dense", 48 * 640, 48 * 640)]), s
    report = difftest.compare_model(model, tmp_path / "cmp", n_runs=4, seed=1, name="fc",
                                    litert=False, keys={k[2:]: v for k, v in zip(keys[::2], keys[1::2])})
    assert report.diff["tflm"] == 0


@dc.doc_command(".venv/bin/python -m bench.sparse_weights")
def test_bench_models_and_fit(tmp_path):
    """bench/sparse_weights.py's layers have the density they are named by,
    convert (auto picks the sparse kernel for the long low-density row), and
    its fit recovers known constants (the counts on the boards are its own
    business)."""
    model, nz = bench_sparse_weights.build(1, 640, 128, 0.05)
    assert abs(nz / (640 * 128) - 0.05) < 0.01
    p = convert(tmp_path, model)
    assert p.returncode == 0, p.stderr
    assert sparse_call(tmp_path)
    samples = [([n, o], 0.7 * n + 40.0 * o) for n, o in ((100, 10), (500, 10), (300, 50))]
    coef, _ = bench_sparse_weights.fit(samples)
    assert np.allclose(coef, [0.7, 40.0])
