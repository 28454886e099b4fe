"""PRUNE_IDENTITY_OPS and SCHEDULE_CONSTANT_DEQUANTIZE (docs/operators.md,
"Transforms"): each changes the graph as its name says, shown in the views
and by --dump-after, and outputs stay bit-exact with TFLite Micro."""

import json
import pathlib
import subprocess

import numpy as np

from tests.gen.builder import ModelBuilder, Q
from tests.harness import difftest, module


def identity_model(seed=0):
    """FC -> RESHAPE -> EXPAND_DIMS -> SQUEEZE -> RESHAPE -> FC."""
    rng = np.random.default_rng(seed)
    b = ModelBuilder()
    x = b.tensor([1, 12], "int8", Q(0.1, -3), name="x")
    h = b.tensor([1, 8], "int8", Q(0.2, 5), name="h")
    r = b.tensor([2, 4], "int8", Q(0.2, 5), name="r")
    e = b.tensor([2, 1, 4], "int8", Q(0.2, 5), name="e")
    s = b.tensor([2, 4], "int8", Q(0.2, 5), name="s")
    f = b.tensor([1, 8], "int8", Q(0.2, 5), name="f")
    y = b.tensor([1, 6], "int8", Q(0.3, -1), name="y")
    w1 = b.const(rng.integers(-127, 128, (8, 12)).astype(np.int8), "int8", Q(0.01, 0))
    w2 = b.const(rng.integers(-127, 128, (6, 8)).astype(np.int8), "int8", Q(0.01, 0))
    shape = b.const(np.array([2, 4], np.int32), "int32", name="shape")
    flat = b.const(np.array([1, 8], np.int32), "int32", name="flat")
    axis = b.const(np.array([1], np.int32), "int32", name="axis")
    b.op("FULLY_CONNECTED", [x, w1], [h], "FullyConnectedOptions")
    b.op("RESHAPE", [h, shape], [r])
    b.op("EXPAND_DIMS", [r, axis], [e])
    b.op("SQUEEZE", [e], [s])
    b.op("RESHAPE", [s, flat], [f])
    b.op("FULLY_CONNECTED", [f, w2], [y], "FullyConnectedOptions")
    return b.build(inputs=[x], outputs=[y])


def dequantize_model(seed=0):
    """Both constant DEQUANTIZEs first, then the CONCATENATIONs reading
    them: the second is read only by the last operator."""
    rng = np.random.default_rng(seed)
    b = ModelBuilder()
    x = b.tensor([1, 64], "float32", name="x")
    c0 = b.const(rng.integers(-128, 128, (1, 64)).astype(np.int8), "int8", Q(0.05, 3))
    c1 = b.const(rng.integers(-128, 128, (1, 256)).astype(np.int8), "int8", Q(0.02, -7))
    d0 = b.tensor([1, 64], "float32", name="d0")
    d1 = b.tensor([1, 256], "float32", name="d1")
    t1 = b.tensor([1, 128], "float32", name="t1")
    y = b.tensor([1, 384], "float32", name="y")
    b.op("DEQUANTIZE", [c0], [d0])
    b.op("DEQUANTIZE", [c1], [d1])
    b.op("CONCATENATION", [x, d0], [t1], "ConcatenationOptions", axis=1)
    b.op("CONCATENATION", [t1, d1], [y], "ConcatenationOptions", axis=1)
    return b.build(inputs=[x], outputs=[y])


def convert_and_compare(tmp_path, data, keys=None, name="m"):
    keys = dict(keys or {}, **{"memory.dump_residency_json": "true"})
    report = difftest.compare_model(data, tmp_path / name, n_runs=20, seed=3, keys=keys)
    assert report.diff["tflm"] == 0, report
    mod = tmp_path / name / "module"
    views = json.loads((mod / "m_views.json").read_text())
    views["residency"] = json.loads((mod / "m_residency.json").read_text())
    return views


def types(views):
    return [op["type"] for op in views["operators"]]


def test_prune_identity_ops(tmp_path):
    data = identity_model()
    kept = convert_and_compare(tmp_path, data, name="kept")  # off by default
    assert types(kept) == ["FULLY_CONNECTED", "RESHAPE", "EXPAND_DIMS", "SQUEEZE", "RESHAPE",
                           "FULLY_CONNECTED"]
    pruned = convert_and_compare(tmp_path, data, keys={"transforms": "{PRUNE_IDENTITY_OPS: true}"},
                                 name="pruned")
    assert types(pruned) == ["FULLY_CONNECTED", "FULLY_CONNECTED"]
    assert [i for op in pruned["operators"] for i in op["source_indices"]] == [0, 5]
    # The pruned outputs share the bytes of the first FC's output.
    place = pruned["placements"]
    ids = {t["name"]: t["id"] for t in pruned["tensors"]}
    h = place[ids["h"]]
    for name in ("r", "e", "s", "f"):
        assert (place[ids[name]]["region"], place[ids[name]]["offset"]) == \
            (h["region"], h["offset"]), name


def test_schedule_constant_dequantize(tmp_path):
    data = dequantize_model()
    moved = convert_and_compare(tmp_path, data, name="moved")  # on by default
    order = [op["source_indices"][0] for op in moved["operators"]]
    assert order == [0, 2, 1, 3]  # the second DEQUANTIZE just before its reader
    kept = convert_and_compare(tmp_path, data,
                               keys={"transforms": "{SCHEDULE_CONSTANT_DEQUANTIZE: false}"},
                               name="kept")
    assert [op["source_indices"][0] for op in kept["operators"]] == [0, 1, 2, 3]
    # d1 is no longer live while the first CONCATENATION runs.
    def lifetime(views, name):
        t = next(t for t in views["residency"]["tensors"] if t["name"] == name)
        return t["first_op"], t["last_op"]
    assert lifetime(kept, "d1")[0] == 1 and lifetime(moved, "d1")[0] == 2


def test_dump_after_the_new_transforms(tmp_path):
    path = tmp_path / "d.tflite"
    path.write_bytes(dequantize_model())
    binary = str(pathlib.Path(module.tinyaot_bin()).resolve())
    p = subprocess.run([binary, "convert", "--model.path", path, "--module.path",
                        tmp_path / "m", "--dump-after", "SCHEDULE_CONSTANT_DEQUANTIZE"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert "SCHEDULE_CONSTANT_DEQUANTIZE" in p.stdout
    lines = [l for l in p.stdout.splitlines() if "DEQUANTIZE" in l or "CONCATENATION" in l]
    kinds = [("DEQUANTIZE" if "DEQUANTIZE" in l and "CONCAT" not in l else "CONCATENATION")
             for l in lines if "SCHEDULE" not in l]
    assert kinds == ["DEQUANTIZE", "CONCATENATION", "DEQUANTIZE", "CONCATENATION"], p.stdout


def variable_model(clip=None, seed=0):
    """CALL_ONCE assigns a constant to variable "bias"; each run reads it and
    adds it to the input. With `clip` (lo, hi) the run also writes back
    MINIMUM(MAXIMUM(read, lo), hi), as a Keras weight constraint does."""
    rng = np.random.default_rng(seed)
    q = Q(0.05, -4)
    b = ModelBuilder()
    init = b.subgraph("init")
    b.select(init)
    hi_ = b.tensor([], "resource", name="init_handle")
    b.op("VAR_HANDLE", [], [hi_], "VarHandleOptions", container=b"", sharedName=b"bias")
    start = rng.integers(-60, 60, (2, 8)).astype(np.int8)
    iv = b.const(start, "int8", q, name="start")
    b.op("ASSIGN_VARIABLE", [hi_, iv], [])
    b.set_io(init, [], [])
    b.select(0)
    b.op("CALL_ONCE", [], [], "CallOnceOptions", initSubgraphIndex=init)
    h = b.tensor([], "resource", name="handle")
    b.op("VAR_HANDLE", [], [h], "VarHandleOptions", container=b"", sharedName=b"bias")
    r = b.tensor([2, 8], "int8", q, name="read")
    b.op("READ_VARIABLE", [h], [r])
    if clip is not None:
        lo = b.const(np.array([clip[0]], np.int8), "int8", q, name="lo", shape=[])
        top = b.const(np.array([clip[1]], np.int8), "int8", q, name="hi", shape=[])
        m1 = b.tensor([2, 8], "int8", q, name="m1")
        m2 = b.tensor([2, 8], "int8", q, name="m2")
        b.op("MAXIMUM", [r, lo], [m1])
        b.op("MINIMUM", [m1, top], [m2])
        b.op("ASSIGN_VARIABLE", [h, m2], [])
    x = b.tensor([2, 8], "int8", Q(0.1, 2), name="x")
    y = b.tensor([2, 8], "int8", Q(0.15, -1), name="y")
    b.op("ADD", [x, r], [y], "AddOptions", fusedActivationFunction="NONE", potScaleInt16=False)
    return b.build(inputs=[x], outputs=[y])


def persistent_bytes(views):
    return sum(r["size"] for r in views["residency"]["regions"] if r["role"] == "persistent")


def test_fold_invariant_variables_never_assigned(tmp_path):
    data = variable_model()
    folded = convert_and_compare(tmp_path, data, name="folded")  # on by default
    assert types(folded) == ["ADD"]
    assert persistent_bytes(folded) == 0
    read = next(t for t in folded["residency"]["tensors"] if t["name"] == "read")
    assert read["kind"] == "constant"
    kept = convert_and_compare(tmp_path, data, name="kept",
                               keys={"transforms": "{FOLD_INVARIANT_VARIABLES: false}"})
    assert types(kept) == ["CALL_ONCE", "VAR_HANDLE", "READ_VARIABLE", "ADD"]
    assert persistent_bytes(kept) >= 16


def test_fold_invariant_variables_with_a_clip_write_back(tmp_path):
    folded = convert_and_compare(tmp_path, variable_model(clip=(-100, 100)), name="folded")
    assert types(folded) == ["ADD"] and persistent_bytes(folded) == 0
    # A bound that changes the starting value: the variable is real state.
    changing = convert_and_compare(tmp_path, variable_model(clip=(-10, 10)), name="changing")
    assert types(changing) == ["CALL_ONCE", "VAR_HANDLE", "READ_VARIABLE", "MAXIMUM", "MINIMUM",
                               "ASSIGN_VARIABLE", "ADD"]
    assert persistent_bytes(changing) >= 16


def transpose_conv_model(kernel, stride=1, per_channel=True, bias=True, act="NONE", seed=0):
    rng = np.random.default_rng(seed)
    kh, kw = kernel
    in_h, in_w, in_c, out_c = 6, 5, 7, 4
    out_h, out_w = in_h * stride, in_w * stride
    b = ModelBuilder()
    scales = [float(s) for s in rng.uniform(0.002, 0.02, out_c)] if per_channel else 0.01
    wq = Q(scales, [0] * out_c if per_channel else 0, axis=0)
    w = b.const(rng.integers(-127, 128, (out_c, kh, kw, in_c)).astype(np.int8), "int8", wq,
                name="filter")
    oshape = b.const(np.array([1, out_h, out_w, out_c], np.int32), "int32", name="output_shape")
    x = b.tensor([1, in_h, in_w, in_c], "int8", Q(0.05, -3), name="x")
    y = b.tensor([1, out_h, out_w, out_c], "int8", Q(0.4, 5), name="y")
    ins = [oshape, w, x]
    if bias:
        bq = Q([0.05 * s for s in (scales if per_channel else [scales] * out_c)], [0] * out_c,
               axis=0)
        ins.append(b.const(rng.integers(-3000, 3000, out_c).astype(np.int32), "int32", bq,
                           name="bias"))
    b.op("TRANSPOSE_CONV", ins, [y], "TransposeConvOptions", padding="SAME", strideH=stride,
         strideW=stride, fusedActivationFunction=act)
    return b.build(inputs=[x], outputs=[y])


def test_transpose_reverse_conv(tmp_path):
    cases = [((3, 3), True, True, "NONE"), ((5, 1), False, True, "RELU"),
             ((1, 3), True, False, "RELU6"), ((3, 5), True, True, "NONE")]
    for i, (kernel, per_channel, bias, act) in enumerate(cases):
        data = transpose_conv_model(kernel, per_channel=per_channel, bias=bias, act=act, seed=i)
        conv = convert_and_compare(tmp_path, data, name=f"conv{i}")  # on by default
        assert types(conv) == ["CONV_2D"], kernel
        assert conv["operators"][0]["source_indices"] == [0]
        kept = convert_and_compare(tmp_path, data, name=f"kept{i}",
                                   keys={"transforms": "{TRANSPOSE_REVERSE_CONV: false}"})
        assert types(kept) == ["TRANSPOSE_CONV"]
    # Left alone: stride 2 (zeros would be multiplied) and an even kernel.
    for name, data in (("stride2", transpose_conv_model((3, 3), stride=2)),
                       ("even", transpose_conv_model((2, 3)))):
        assert types(convert_and_compare(tmp_path, data, name=name)) == ["TRANSPOSE_CONV"], name
