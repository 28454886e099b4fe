"""FUSE_RESIDUAL_ADD and ORDER_FOR_PEAK (issue 13): a convolution writes the
sum of a residual block into the residual's bytes, and the execution order
with the least peak is searched; both bit-exact with TFLite Micro."""

import json
import re
import subprocess

import numpy as np
from tests.gen import variants
from tests.gen.builder import ModelBuilder, Q
from tests.harness import batch, difftest, module, oracle

FUSED_LINE = re.compile(r"^op \d+ CONV_2D \(model op \d+\) \+ ADD \(model op \d+\) into the residual:",
                        re.M)
CASES = [("RESIDUAL.conv_add", variants.ALL, seed) for seed in range(16)] + \
        [("RESIDUAL.conv_add_simd", variants.SIMD, seed) for seed in range(8)]


def dump(model_path, tmp_path, pass_name, keys=None):
    cmd = [module.tinyaot_bin(), "convert", "--model.path", str(model_path),
           "--module.path", str(tmp_path / "dumped"), "--force", "--verbose", "0",
           "--dump-after", pass_name]
    for k, v in (keys or {}).items():
        cmd += ["--" + k, v]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return p.stdout


def residency(m):
    return json.loads((m.path / f"{m.prefix}_residency.json").read_text())


def test_residual_blocks_fuse_and_match_tflm(tmp_path):
    """Every drawn block the transform can fuse is fused (and no other), in
    one host executable for all of them, byte-equal to TFLite Micro."""
    cases = [pool[name].case(seed) for name, pool, seed in CASES]
    for i, case in enumerate(cases):
        path = tmp_path / f"block{i}.tflite"
        path.write_bytes(case.model)
        fused = len(FUSED_LINE.findall(dump(path, tmp_path, "FUSE_RESIDUAL_ADD")))
        assert fused == (1 if case.config["fusable"] else 0), (case.name, case.config["mode"])
    b = batch.build_batch([(c.name, c.model) for c in cases], tmp_path / "batch")
    assert not b.errors, b.errors
    runs = [oracle.random_inputs(c.model, np.random.default_rng([13, i]), 3)
            for i, c in enumerate(cases)]
    results = batch.run_cases(b, list(enumerate(runs)))
    for i, case in enumerate(cases):
        ours = results.get(i)
        assert not isinstance(ours, str), f"{case.name}: {ours[:200]}"
        n, d = difftest._count_diff(ours, oracle.run_tflm(case.model, runs[i], isolated=True))
        assert n > 0 and d == 0, f"{case.name}: {d} of {n} bytes differ; {case.config}"


def test_fused_sum_takes_the_residuals_bytes(tmp_path):
    """The piece buffer is an operator scratch tensor of at most 192 bytes
    (one pixel's channels when more), and the sum is placed on the
    residual."""
    checked = 0
    for seed in range(4):
        case = variants.SIMD["RESIDUAL.conv_add_simd"].case(seed)
        if not case.config["fusable"]:
            continue
        path = tmp_path / f"block{seed}.tflite"
        path.write_bytes(case.model)
        m = module.convert(path, tmp_path / f"m{seed}",
                           keys={"memory.dump_residency_json": "true"})
        rows = residency(m)["tensors"]
        pieces = [t for t in rows if t["id"].endswith(".piece")]
        depth = case.config["convs"]["main_b"]["output_shape"][3]
        assert len(pieces) == 1
        assert pieces[0]["size"] <= max(192, -(-depth // 16) * 16), pieces
        sums = [t for t in rows if t["io"] == "output"]
        assert sums[0]["alias_of"] is not None, sums
        checked += 1
    assert checked >= 2


def branched_model(seed=0):
    """input -> four branches, each a 1x1 CONV_2D widening to 32 channels
    then one narrowing to 2, joined by CONCATENATION: in the model's order
    every wide tensor is live at once; run branch by branch only one is."""
    rng = np.random.default_rng(seed)
    b = ModelBuilder()
    x = b.tensor([1, 6, 6, 2], "int8", Q(0.05, 3), name="x")
    wide, narrow = [], []
    for i in range(4):
        w = b.const(rng.integers(-127, 128, (32, 1, 1, 2)).astype(np.int8), "int8",
                    Q(0.02, 0), name=f"wide_w{i}")
        t = b.tensor([1, 6, 6, 32], "int8", Q(0.1, -4), name=f"wide{i}")
        b.op("CONV_2D", [x, w], [t], "Conv2DOptions", padding="SAME", strideH=1, strideW=1)
        wide.append(t)
    for i in range(4):
        w = b.const(rng.integers(-127, 128, (2, 1, 1, 32)).astype(np.int8), "int8",
                    Q(0.01, 0), name=f"narrow_w{i}")
        t = b.tensor([1, 6, 6, 2], "int8", Q(0.2, 1), name=f"narrow{i}")
        b.op("CONV_2D", [wide[i], w], [t], "Conv2DOptions", padding="SAME", strideH=1,
             strideW=1)
        narrow.append(t)
    y = b.tensor([1, 6, 6, 8], "int8", Q(0.2, 1), name="y")
    b.op("CONCATENATION", narrow, [y], "ConcatenationOptions", axis=3)
    return b.build(inputs=[x], outputs=[y])


def test_order_search_runs_branches_one_at_a_time(tmp_path):
    path = tmp_path / "branched.tflite"
    path.write_bytes(branched_model())
    keys = {"memory.dump_residency_json": "true"}
    searched = difftest.compare_model(path, tmp_path / "searched", n_runs=20, litert=False,
                                      keys=keys)
    assert searched.diff["tflm"] == 0
    m = module.Module(tmp_path / "searched" / "module", "m", None, "", "")
    order = residency(m)["execution_order"]
    kept = module.convert(path, tmp_path / "kept",
                          keys={**keys, "transforms": "{ORDER_FOR_PEAK: false}"})
    # Model order: four wide tensors and a narrow one live at once (the
    # input is dead by then); branch by branch, one wide tensor beside the
    # input and three narrow ones, or beside four narrow ones.
    wide, narrow, x = 6 * 6 * 32, 80, 80
    assert order["model_order_peak"] == 4 * wide + narrow
    assert order["peak"] == max(x + wide + 3 * narrow, wide + 4 * narrow)
    assert order["peak"] < order["model_order_peak"]
    assert order["searched"] and order["proven"] and order["changed"]
    # Each narrowing convolution runs right after its widening one.
    ops = order["operators"]
    assert all(ops.index(i + 4) == ops.index(i) + 1 for i in range(4)), ops
    scratch = [r for r in residency(m)["regions"] if r["role"] == "scratch"][0]
    kept_scratch = [r for r in residency(kept)["regions"] if r["role"] == "scratch"][0]
    assert scratch["size"] == scratch["lower_bound"] == order["peak"]
    assert kept_scratch["size"] == order["model_order_peak"]
    assert residency(kept)["execution_order"]["searched"] is False
    # Deterministic: the same module again.
    again = module.convert(path, tmp_path / "again", keys=keys)
    for f in sorted(p for p in m.path.rglob("*") if p.is_file()):
        rel = f.relative_to(m.path)
        assert (again.path / rel).read_bytes() == f.read_bytes(), rel


def test_order_dump_and_chain_model_proven_without_search(tmp_path):
    text = dump(module.MODELS / "mlperf_tiny_kws_ref_model.tflite", tmp_path, "ORDER_FOR_PEAK")
    assert text.startswith("== after ORDER_FOR_PEAK:")
    m = module.convert(module.MODELS / "mlperf_tiny_kws_ref_model.tflite", tmp_path / "kws",
                       keys={"memory.dump_residency_json": "true"})
    order = residency(m)["execution_order"]
    assert order["proven"] and not order["changed"] and order["states"] <= 1
    assert order["operators"] == list(range(len(order["operators"])))


def many_branches_model(n=18):
    """n independent two-operator branches: more sets of operators than the
    search visits, so the model's order stays."""
    rng = np.random.default_rng(3)
    b = ModelBuilder()
    x = b.tensor([1, 16], "int8", Q(0.05, 3), name="x")
    wide, narrow = [], []
    for i in range(n):
        w = b.const(rng.integers(-127, 128, (64, 16)).astype(np.int8), "int8", Q(0.02, 0))
        t = b.tensor([1, 64], "int8", Q(0.1, -4), name=f"wide{i}")
        b.op("FULLY_CONNECTED", [x, w], [t], "FullyConnectedOptions")
        wide.append(t)
    for i in range(n):
        w = b.const(rng.integers(-127, 128, (4, 64)).astype(np.int8), "int8", Q(0.01, 0))
        t = b.tensor([1, 4], "int8", Q(0.2, 1), name=f"narrow{i}")
        b.op("FULLY_CONNECTED", [wide[i], w], [t], "FullyConnectedOptions")
        narrow.append(t)
    halves = []  # TFLite Micro concatenates at most 10 inputs
    for part in (narrow[:n // 2], narrow[n // 2:]):
        halves.append(b.tensor([1, 4 * len(part)], "int8", Q(0.2, 1)))
        b.op("CONCATENATION", part, [halves[-1]], "ConcatenationOptions", axis=1)
    y = b.tensor([1, 4 * n], "int8", Q(0.2, 1), name="y")
    b.op("CONCATENATION", halves, [y], "ConcatenationOptions", axis=1)
    return b.build(inputs=[x], outputs=[y])


def test_order_search_past_its_limit_keeps_the_model_order(tmp_path):
    path = tmp_path / "many.tflite"
    path.write_bytes(many_branches_model())
    report = difftest.compare_model(path, tmp_path / "run", n_runs=5, litert=False,
                                    keys={"memory.dump_residency_json": "true"})
    assert report.diff["tflm"] == 0
    m = module.Module(tmp_path / "run" / "module", "m", None, "", "")
    order = residency(m)["execution_order"]
    assert order["searched"] and not order["proven"] and not order["changed"]
    assert order["states"] == 50000
    assert order["operators"] == list(range(39))
