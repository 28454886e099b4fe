"""Refusals of the integer elementwise operators (tests/gen/ops/elementwise_int.py
draws what they run): a dtype TFLite Micro has no kernel for is refused
with one line naming the operator, its index and the reason, and TFLite
Micro (the wheel) is checked to fail on the same model; RSQRT's inputs
below the zero point fail the run in both. (float32 ABS, RSQRT and ELU
run: tests/gen/ops/float_unary.py draws them.)"""

import numpy as np
import pytest

from tests.gen.builder import ModelBuilder, Q
from tests.harness import module, oracle
from tests.harness.refusals import refusal


def _unary(op, dtype, quant):
    b = ModelBuilder()
    x = b.tensor([2, 3], dtype, quant, name="input")
    y = b.tensor([2, 3], dtype, quant, name="output")
    b.op(op, [x], [y])
    return b.build([x], [y])


def test_int16_elu_is_refused_as_tflite_micro_has_int8_only(tmp_path):
    model = _unary("ELU", "int16", Q(0.01, 0))
    line = refusal(model, tmp_path)
    assert "operator 0 (ELU): int16 input is not supported: TFLite Micro has int8 only" in line
    with pytest.raises(oracle.OracleError):
        oracle.run_tflm(model, [[np.arange(6, dtype=np.int16).reshape(2, 3)]], isolated=True)


def test_int16_rsqrt_fails_on_negative_inputs_at_run_time_as_tflite_micro(tmp_path):
    """The wheel runs int16 RSQRT (its Eval has the path; the source's
    Prepare refuses it): a negative input fails the run in both, valid
    inputs give the same bytes."""
    model = _unary("RSQRT", "int16", Q(0.01, 0))
    bad = [[np.array([[4, 9, 16], [1, 0, -3]], dtype=np.int16)]]
    good = [[np.array([[4, 9, 16], [1, 0, 32767]], dtype=np.int16)]]
    with pytest.raises(oracle.OracleError):
        oracle.run_tflm(model, bad, isolated=True)
    (tmp_path / "m.tflite").write_bytes(model)
    m = module.convert(tmp_path / "m.tflite", tmp_path / "mod")
    exe = module.build(m)
    with pytest.raises(RuntimeError, match="module run failed"):
        module.run(m, exe, bad)
    (ours,), = module.run(m, exe, good)
    (ref,), = oracle.run_tflm(model, good, isolated=True)
    assert np.array_equal(ours, ref)


def test_int16_rsqrt_needs_zero_points_0(tmp_path):
    line = refusal(_unary("RSQRT", "int16", Q(0.01, 3)), tmp_path)
    assert "operator 0 (RSQRT): int16 needs zero points 0" in line, line


def test_logical_and_on_int8_is_refused(tmp_path):
    b = ModelBuilder()
    x = b.tensor([4], "int8", Q(0.1, 0), name="input1")
    y = b.tensor([4], "int8", Q(0.1, 0), name="input2")
    z = b.tensor([4], "bool", name="output")
    b.op("LOGICAL_AND", [x, y], [z])
    line = refusal(b.build([x, y], [z]), tmp_path)
    assert "operator 0 (LOGICAL_AND)" in line and "input 1" in line, line


def test_rsqrt_below_the_zero_point_fails_at_run_time_as_tflite_micro(tmp_path):
    """An input below the zero point has no defined output: TFLite Micro
    fails the run, and so does the module (its kernel's status); inputs at
    or above it run in both, with the same bytes."""
    model = _unary("RSQRT", "int8", Q(0.05, 0))
    bad = [[np.array([[4, 9, 16], [1, 0, -3]], dtype=np.int8)]]
    good = [[np.array([[4, 9, 16], [1, 0, 25]], dtype=np.int8)]]
    with pytest.raises(oracle.OracleError):
        oracle.run_tflm(model, bad, isolated=True)
    (tmp_path / "m.tflite").write_bytes(model)
    m = module.convert(tmp_path / "m.tflite", tmp_path / "mod")
    exe = module.build(m)
    with pytest.raises(RuntimeError, match="module run failed"):
        module.run(m, exe, bad)
    (ours,), = module.run(m, exe, good)
    (ref,), = oracle.run_tflm(model, good, isolated=True)
    assert np.array_equal(ours, ref)
