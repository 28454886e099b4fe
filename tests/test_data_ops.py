"""Data-movement operators beyond what tests.optest draws: zero-copy
RESHAPE / SQUEEZE / EXPAND_DIMS (and copies that move every byte in place),
and the oracle's behaviour at the edges (CAST out of range, CONCATENATION
with differing quantization, GATHER with run-time indices)."""

import numpy as np
import pytest

from tests.gen.builder import ModelBuilder, Q
from tests.harness import difftest, module, oracle


def _requant(b, x, shape, q_out, name):
    """A QUANTIZE int8 -> int8: a producer / consumer with a kernel."""
    y = b.tensor(shape, "int8", q_out, name=name)
    b.op("QUANTIZE", [x], [y])
    return y


def _chain(kind):
    """input -> QUANTIZE -> <kind> -> QUANTIZE -> output; returns the model
    and the names of the reshape-like operator's input and output."""
    b = ModelBuilder()
    shape = [2, 1, 3, 4]
    q1, q2, q3 = Q(0.05, 3), Q(0.07, -4), Q(0.11, 9)
    x = b.tensor(shape, "int8", q1, name="input")
    a = _requant(b, x, shape, q2, "before")
    if kind == "RESHAPE":
        out_shape = [6, 4]
        st = b.const(np.array(out_shape, np.int32), "int32", name="shape")
        r = b.tensor(out_shape, "int8", q2, name="moved")
        b.op("RESHAPE", [a, st], [r])
    elif kind == "SQUEEZE":
        out_shape = [2, 3, 4]
        r = b.tensor(out_shape, "int8", q2, name="moved")
        b.op("SQUEEZE", [a], [r], "SqueezeOptions", squeezeDims=[1])
    elif kind == "EXPAND_DIMS":
        out_shape = [2, 1, 3, 1, 4]
        ax = b.const(np.array([-2], np.int32), "int32", name="axis")
        r = b.tensor(out_shape, "int8", q2, name="moved")
        b.op("EXPAND_DIMS", [a, ax], [r])
    elif kind == "TRANSPOSE":  # moves only a size-1 dimension
        out_shape = [1, 2, 3, 4]
        p = b.const(np.array([1, 0, 2, 3], np.int32), "int32", name="perm")
        r = b.tensor(out_shape, "int8", q2, name="moved")
        b.op("TRANSPOSE", [a, p], [r], "TransposeOptions")
    elif kind == "SLICE":  # the whole tensor
        out_shape = shape
        bg = b.const(np.zeros(4, np.int32), "int32", name="begin")
        sz = b.const(np.array([-1, 1, 3, -1], np.int32), "int32", name="size")
        r = b.tensor(out_shape, "int8", q2, name="moved")
        b.op("SLICE", [a, bg, sz], [r])
    else:
        raise ValueError(kind)
    y = _requant(b, r, out_shape, q3, "output")
    return b.build([x], [y])


def _tensor_id(views, name):
    return next(t["id"] for t in views["tensors"] if t["name"] == name)


@pytest.mark.parametrize("kind", ["RESHAPE", "SQUEEZE", "EXPAND_DIMS", "TRANSPOSE", "SLICE"])
def test_reshape_like_output_aliases_its_input(kind, tmp_path):
    model = _chain(kind)
    report = difftest.compare_model(model, tmp_path, n_runs=5, seed=3, litert=False)
    assert report.diff["tflm"] == 0
    m = module.convert(tmp_path / "model.tflite", tmp_path / "again")
    views = m.views
    op = next(o for o in views["operators"] if o["type"] == kind)
    assert op["kernel_calls"] == {}, f"{kind} should need no code: {op['kernel_calls']}"
    src, dst = _tensor_id(views, "before"), _tensor_id(views, "moved")
    assert op["input_ids"][0] == src and op["output_ids"] == [dst]
    p_src, p_dst = views["placements"][src], views["placements"][dst]
    assert (p_dst["region"], p_dst["offset"]) == (p_src["region"], p_src["offset"])


def test_cast_float_out_of_range_matches_tflm(tmp_path):
    """The wheel saturates float -> int and maps NaN to 0."""
    vals = np.array([0.5, -0.5, 127.9, 128.0, -129.5, 40000.0, -40000.0, 3e9, -3e9,
                     np.inf, -np.inf, np.nan, 2147483520.0, -2147483648.0, 65536.5],
                    np.float32)
    for code, dt in [(9, "int8"), (7, "int16"), (2, "int32")]:
        b = ModelBuilder()
        x = b.tensor([vals.size], "float32", name="x")
        y = b.tensor([vals.size], dt, name="y")
        b.op("CAST", [x], [y], "CastOptions", inDataType=0, outDataType=code)
        report = difftest.compare_model(b.build([x], [y]), tmp_path / dt, litert=False,
                                        runs=[[vals]])
        assert report.diff["tflm"] == 0, dt


def _concat(dt, q_second):
    b = ModelBuilder()
    a = b.tensor([2, 3], dt, Q(0.25, 0), name="a")
    c = b.tensor([2, 2], dt, q_second, name="c")
    y = b.tensor([2, 5], dt, Q(0.25, 0), name="y")
    b.op("CONCATENATION", [a, c], [y], "ConcatenationOptions", axis=-1,
         fusedActivationFunction="NONE")
    return b.build([a, c], [y])


def test_concat_int16_differing_scales_copies_raw_values(tmp_path):
    report = difftest.compare_model(_concat("int16", Q(0.5, 0)), tmp_path, n_runs=3,
                                    litert=False)
    assert report.diff["tflm"] == 0


def test_concat_int8_differing_quantization_is_refused(tmp_path):
    model = _concat("int8", Q(0.25, 3))
    with pytest.raises(oracle.OracleError):
        oracle.run_tflm(model, [[np.zeros((2, 3), np.int8), np.zeros((2, 2), np.int8)]],
                        isolated=True)
    (tmp_path / "m.tflite").write_bytes(model)
    with pytest.raises(module.ConvertError) as e:
        module.convert(tmp_path / "m.tflite", tmp_path / "mod")
    assert "operator 0 (CONCATENATION)" in str(e.value)


def _gather_dynamic():
    b = ModelBuilder()
    x = b.tensor([2, 5, 3], "int8", Q(0.1, 2), name="params")
    i = b.tensor([2, 4], "int32", name="indices")
    y = b.tensor([2, 2, 4, 3], "int8", Q(0.1, 2), name="output")
    b.op("GATHER", [x, i], [y], "GatherOptions", axis=1, batchDims=0)
    return b.build([x, i], [y])


def test_gather_runtime_indices(tmp_path):
    rng = np.random.default_rng(5)
    runs = [[rng.integers(-128, 128, (2, 5, 3), dtype=np.int8),
             rng.integers(0, 5, (2, 4), dtype=np.int32)] for _ in range(4)]
    report = difftest.compare_model(_gather_dynamic(), tmp_path, litert=False, runs=runs)
    assert report.diff["tflm"] == 0


def test_gather_runtime_index_out_of_range_fails_the_run(tmp_path):
    (tmp_path / "m.tflite").write_bytes(_gather_dynamic())
    m = module.convert(tmp_path / "m.tflite", tmp_path / "mod")
    exe = module.build(m)
    idx = np.zeros((2, 4), np.int32)
    idx[1, 2] = 5
    with pytest.raises(RuntimeError, match="model_run"):
        module.run(m, exe, [[np.zeros((2, 5, 3), np.int8), idx]])


@pytest.mark.parametrize("kind", ["RESHAPE", "SQUEEZE", "EXPAND_DIMS"])
@pytest.mark.parametrize("mode", ["from_input", "to_output", "fanout"])
def test_reshape_like_at_graph_edges(kind, mode, tmp_path):
    """The reshape reads the graph input, writes a graph output, or its
    input also feeds a second output: aliased or not, values are TFLM's."""
    b = ModelBuilder()
    shape = [3, 1, 4]
    q1, q2 = Q(0.05, 3), Q(0.07, -4)
    x = b.tensor(shape, "int8", q1, name="input")
    src = x if mode == "from_input" else _requant(b, x, shape, q2, "before")
    q = q1 if mode == "from_input" else q2
    if kind == "RESHAPE":
        out_shape = [12]
        r = b.tensor(out_shape, "int8", q, name="moved")
        b.op("RESHAPE", [src], [r], "ReshapeOptions", newShape=out_shape)
    elif kind == "SQUEEZE":
        out_shape = [3, 4]
        r = b.tensor(out_shape, "int8", q, name="moved")
        b.op("SQUEEZE", [src], [r], "SqueezeOptions", squeezeDims=[])
    else:
        out_shape = [3, 1, 4, 1]
        ax = b.const(np.array(3, np.int32), "int32", name="axis")
        r = b.tensor(out_shape, "int8", q, name="moved")
        b.op("EXPAND_DIMS", [src, ax], [r])
    outputs = [r]
    if mode != "to_output":
        outputs = [_requant(b, r, out_shape, Q(0.11, 9), "after")]
    if mode == "fanout":
        outputs.append(_requant(b, src, shape, Q(0.03, -1), "other"))
    report = difftest.compare_model(b.build([x], outputs), tmp_path, n_runs=5, seed=4,
                                    litert=False)
    assert report.diff["tflm"] == 0
