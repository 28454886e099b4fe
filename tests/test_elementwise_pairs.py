"""Binary elementwise operators on dense grids of input pairs, against
TFLite Micro.

tests.optest draws small tensors with random values: a multiplier off in
its last bits rarely changes one of their outputs. Here each operator
broadcasts a [256, 1] input against a [1, 256] one: for int8 that is every
pair of values, for int16 256 x 256 random values including the extremes.
The quantizations (and fused activations) are the generator's draws for
the operator's variant. This is how the oracle was found to compute SUB's
multipliers in double (src/lower/add_sub.c).
"""

import numpy as np

from tests.gen import variants
from tests.gen.builder import ModelBuilder, Q
from tests.harness import batch as batch_mod
from tests.harness import difftest, oracle

VARIANTS = [
    "ADD.int8", "ADD.int16", "SUB.int8", "SUB.int16", "MUL.int8", "MUL.int16",
    "SQUARED_DIFFERENCE.int8", "SQUARED_DIFFERENCE.int16", "MAXIMUM.int8", "MINIMUM.int8",
    "LESS.int8", "LESS_EQUAL.int8", "GREATER.int8", "GREATER_EQUAL.int8", "EQUAL.int8",
    "NOT_EQUAL.int8",
]
SEEDS = range(3)
OPTIONS = {"ADD": "AddOptions", "SUB": "SubOptions", "MUL": "MulOptions"}


def _quant(d):
    first = lambda v: v[0] if isinstance(v, list) else v
    return Q(first(d["scale"]), first(d["zero_point"]))


def _grid_model(variant, seed):
    v = variants.ALL[variant]
    cfg = v.case(seed).config
    dt = variant.split(".")[1]
    q1 = _quant(cfg["input1_quant"])
    q2 = _quant(cfg["input2_quant"])
    qo = _quant(cfg["output_quant"]) if "output_quant" in cfg else None  # comparisons: bool
    b = ModelBuilder()
    x = b.tensor([256, 1], dt, q1, name="input1")
    y = b.tensor([1, 256], dt, q2, name="input2")
    z = b.tensor([256, 256], dt if qo else "bool", qo, name="output")
    opts = OPTIONS.get(v.op)
    kw = {"fusedActivationFunction": cfg.get("activation", "NONE")} if opts else {}
    if v.op in ("ADD", "SUB"):
        kw["potScaleInt16"] = False
    b.op(v.op, [x, y], [z], opts, **kw)
    return b.build([x, y], [z])


def _grid_inputs(dt, rng):
    if dt == "int8":
        a = np.arange(-128, 128, dtype=np.int8)
        c = a.copy()
    else:
        a = rng.integers(-32768, 32768, size=256).astype(np.int16)
        c = rng.integers(-32768, 32768, size=256).astype(np.int16)
        a[:3] = c[:3] = [-32768, 32767, 0]
    return [[a.reshape(256, 1), c.reshape(1, 256)]]


def test_pairs_match_tflm(tmp_path):
    cases = [(f"{v}-{s}", _grid_model(v, s)) for v in VARIANTS for s in SEEDS]
    b = batch_mod.build_batch(cases, tmp_path)
    failures = []
    for i, (name, model) in enumerate(cases):
        if b.modules[i] is None:
            failures.append(f"{name}: conversion failed: {b.errors[i]}")
            continue
        dt = name.split(".")[1].split("-")[0]
        runs = _grid_inputs(dt, np.random.default_rng(i))
        ours = batch_mod.run_case(b, i, runs)
        expected = oracle.run_tflm(model, runs, isolated=True)
        total, d = difftest._count_diff(ours, expected)
        assert total >= 65536, name
        if d:
            failures.append(f"{name}: {d} of {total} bytes differ from TFLM")
    assert not failures, "\n".join(failures)
