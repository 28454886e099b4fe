"""What GATHER_ND, EMBEDDING_LOOKUP, DYNAMIC_UPDATE_SLICE, CUMSUM,
REDUCE_ALL and L2_NORMALIZATION refuse (tests/gen/ops/indexing.py,
reduce.py and normalization.py draw what they run): one line naming the
operator, its index and the reason; where TFLite Micro (the wheel) has no
kernel either, it is checked to fail on the same model. Indices read at
run time: EMBEDDING_LOOKUP rows outside the table and GATHER_ND slices
outside the params fail the run in both; DYNAMIC_UPDATE_SLICE's start
indices clamp as in TFLite Micro."""

import numpy as np
import pytest

from tests.gen.builder import ModelBuilder, Q
from tests.harness import module, oracle
from tests.harness.refusals import refusal, tflm_fails


def _gather_nd(dtype, indices, const=True):
    b = ModelBuilder()
    q = Q(0.1, 0) if dtype == "int8" else None
    x = b.tensor([3, 4], dtype, q, name="params")
    idx = np.array(indices, np.int32)
    i = (b.const(idx, "int32", name="indices") if const
         else b.tensor(list(idx.shape), "int32", name="indices"))
    y = b.tensor(list(idx.shape[:-1]) + [4][idx.shape[-1] - 1:], dtype, q, name="output")
    b.op("GATHER_ND", [x, i], [y])
    return b.build([x] if const else [x, i], [y])


def test_gather_nd_int32_params_are_refused_as_tflite_micro(tmp_path):
    model = _gather_nd("int32", [[1], [2]])
    line = refusal(model, tmp_path)
    assert "operator 0 (GATHER_ND)" in line and "params" in line, line
    tflm_fails(model, [[np.zeros([3, 4], np.int32)]])


def test_gather_nd_run_time_indices_as_tflite_micro(tmp_path):
    """Indices read at run time (the generator draws constant ones): valid
    rows give TFLite Micro's bytes, [0, 5] of a [3, 4] params is element 5
    (TFLite Micro checks the flat position only), and a slice past the end
    fails the run in both."""
    model = _gather_nd("int8", [[1, 0], [2, 3]], const=False)
    x = np.arange(12, dtype=np.int8).reshape(3, 4)
    good = [[x, np.array([[1, 0], [2, 3]], np.int32)], [x, np.array([[0, 5], [0, 0]], np.int32)]]
    bad = [[x, np.array([[1, 0], [2, 4]], np.int32)]]
    (tmp_path / "m.tflite").write_bytes(model)
    m = module.convert(tmp_path / "m.tflite", tmp_path / "mod")
    exe = module.build(m)
    ours = module.run(m, exe, good)
    ref = oracle.run_tflm(model, good, isolated=True)
    for (o,), (r,) in zip(ours, ref):
        assert np.array_equal(o, r)
    assert ours[1][0].tolist() == [5, 0]
    tflm_fails(model, bad)
    with pytest.raises(RuntimeError, match="module run failed"):
        module.run(m, exe, bad)


def test_gather_nd_index_past_params_is_refused_as_tflite_micro_fails_it(tmp_path):
    """TFLite Micro checks the flat position only: [0, 5] of a [3, 4]
    params is element 5 (row 1) and runs; [2, 5] is past the end."""
    inside = _gather_nd("int8", [[0, 5]])
    (tmp_path / "ok").mkdir()
    (tmp_path / "ok" / "m.tflite").write_bytes(inside)
    m = module.convert(tmp_path / "ok" / "m.tflite", tmp_path / "ok" / "mod")
    x = np.arange(12, dtype=np.int8).reshape(3, 4)
    (ours,), = module.run(m, module.build(m), [[x]])
    (ref,), = oracle.run_tflm(inside, [[x]], isolated=True)
    assert np.array_equal(ours, ref) and ours.tolist() == [5]
    past = _gather_nd("int8", [[2, 5]])
    line = refusal(past, tmp_path)
    assert "operator 0 (GATHER_ND): index row 0 reaches element 13" in line, line
    tflm_fails(past, [[x]])


def _embedding(lookup_const, value_q, out_dt="int8"):
    b = ModelBuilder()
    ids = (b.const(np.array([2, 0], np.int32), "int32", name="lookup") if lookup_const
           else b.tensor([2], "int32", name="lookup"))
    table = b.tensor([3, 4], "int8", value_q, name="value")
    y = b.tensor([2, 4], out_dt, None if out_dt == "float32" else value_q, name="output")
    b.op("EMBEDDING_LOOKUP", [ids, table], [y])
    return b.build([table] if lookup_const else [ids, table], [y])


@pytest.mark.parametrize("out_dt", ["int8", "float32"])
def test_embedding_lookup_run_time_rows_outside_the_table_fail_the_run(tmp_path, out_dt):
    model = _embedding(False, Q(0.5, 0), out_dt)
    table = np.arange(12, dtype=np.int8).reshape(3, 4)
    bad = [[np.array([1, 3], np.int32), table]]
    good = [[np.array([2, 0], np.int32), table]]
    tflm_fails(model, bad)
    (tmp_path / "m.tflite").write_bytes(model)
    m = module.convert(tmp_path / "m.tflite", tmp_path / "mod")
    exe = module.build(m)
    with pytest.raises(RuntimeError, match="module run failed"):
        module.run(m, exe, bad)
    (ours,), = module.run(m, exe, good)
    (ref,), = oracle.run_tflm(model, good, isolated=True)
    assert np.array_equal(ours, ref)


def test_embedding_lookup_hybrid_needs_zero_point_0_as_tflite_micro(tmp_path):
    model = _embedding(True, Q(0.5, 3), "float32")
    line = refusal(model, tmp_path)
    assert "operator 0 (EMBEDDING_LOOKUP)" in line and "zero point 0, not 3" in line, line
    tflm_fails(model, [[np.zeros([3, 4], np.int8)]])


@pytest.mark.parametrize("idx_dt", ["int32", "int64"])
def test_dynamic_update_slice_run_time_starts_clamp_as_tflite_micro(tmp_path, idx_dt):
    """Start indices read at run time (the generator's variant sees mostly
    clamped ones): inside, negative and past the end, in int32 and int64."""
    b = ModelBuilder()
    x = b.tensor([4, 5], "int8", Q(0.1, 0), name="operand")
    u = b.tensor([2, 3], "int8", Q(0.1, 0), name="update")
    s = b.tensor([2], idx_dt, name="start_indices")
    y = b.tensor([4, 5], "int8", Q(0.1, 0), name="output")
    b.op("DYNAMIC_UPDATE_SLICE", [x, u, s], [y])
    model = b.build([x, u, s], [y])
    operand = np.arange(20, dtype=np.int8).reshape(4, 5)
    update = -np.arange(1, 7, dtype=np.int8).reshape(2, 3)
    runs = [[operand, update, np.array(st, idx_dt)]
            for st in ([1, 1], [0, 2], [-5, 9], [3, -1], [2**31 - 1 if idx_dt == "int32" else 2**40, 0])]
    (tmp_path / "m.tflite").write_bytes(model)
    m = module.convert(tmp_path / "m.tflite", tmp_path / "mod")
    ours = module.run(m, module.build(m), runs)
    ref = oracle.run_tflm(model, runs, isolated=True)
    for (o,), (r,) in zip(ours, ref):
        assert np.array_equal(o, r)
    assert ours[2][0][0, 2:].tolist() == [-1, -2, -3]  # [-5, 9] clamps to [0, 2]


def test_cumsum_int32_is_refused_as_tflite_micro(tmp_path):
    b = ModelBuilder()
    x = b.tensor([2, 3], "int32", name="input")
    a = b.const(np.array([1], np.int32), "int32", name="axis")
    y = b.tensor([2, 3], "int32", name="output")
    b.op("CUMSUM", [x, a], [y], "CumsumOptions", exclusive=False, reverse=False)
    model = b.build([x], [y])
    line = refusal(model, tmp_path)
    assert "operator 0 (CUMSUM)" in line and "input" in line, line
    tflm_fails(model, [[np.zeros([2, 3], np.int32)]])


def test_reduce_all_on_int8_is_refused_as_tflite_micro(tmp_path):
    b = ModelBuilder()
    x = b.tensor([2, 3], "int8", Q(0.1, 0), name="input")
    a = b.const(np.array([1], np.int32), "int32", name="axis")
    y = b.tensor([2], "int8", Q(0.1, 0), name="output")
    b.op("REDUCE_ALL", [x, a], [y], "ReducerOptions", keepDims=False)
    model = b.build([x], [y])
    line = refusal(model, tmp_path)
    assert "operator 0 (REDUCE_ALL)" in line and "input" in line, line
    tflm_fails(model, [[np.zeros([2, 3], np.int8)]])


def test_l2_normalization_with_a_fused_relu_is_refused_as_tflite_micro(tmp_path):
    b = ModelBuilder()
    x = b.tensor([2, 3], "float32", name="input")
    y = b.tensor([2, 3], "float32", name="output")
    b.op("L2_NORMALIZATION", [x], [y], "L2NormOptions", fusedActivationFunction="RELU")
    model = b.build([x], [y])
    line = refusal(model, tmp_path)
    assert "operator 0 (L2_NORMALIZATION): fused activation 1 is not supported" in line, line
    tflm_fails(model, [[np.ones([2, 3], np.float32)]])
