"""SELECT_V2, FILL, ZEROS_LIKE, BROADCAST_TO, BROADCAST_ARGS, SHAPE,
FLOOR_DIV, FLOOR_MOD and ADD_N beyond what the generator draws
(tests/gen/ops/fill_select.py, floor_add_n.py): a configuration TFLite
Micro has no kernel for is refused with one line naming the operator, its
index and the reason (and the wheel is checked to fail on the same model);
inputs that make TFLite Micro fail the run (a zero divisor, shapes that do
not broadcast) fail the module's run too."""

import numpy as np
import pytest

from tests.gen.builder import ModelBuilder, Q
from tests.harness import module, oracle
from tests.harness.refusals import refusal, tflm_fails


def _fails_like_tflite_micro(model, tmp_path, bad, good):
    """The module's run fails on `bad` as TFLite Micro's does, and gives
    TFLite Micro's bytes on `good`."""
    tflm_fails(model, bad)
    (tmp_path / "m.tflite").write_bytes(model)
    m = module.convert(tmp_path / "m.tflite", tmp_path / "mod")
    exe = module.build(m)
    with pytest.raises(RuntimeError, match="module run failed"):
        module.run(m, exe, bad)
    ours = module.run(m, exe, good)
    ref = oracle.run_tflm(model, good, isolated=True)
    for a, b in zip(ours[0], ref[0]):
        assert np.array_equal(a, b)


def _binary(op, dtype, s1, s2, out, quant=None, options=None):
    b = ModelBuilder()
    x = b.tensor(s1, dtype, quant, name="input1")
    y = b.tensor(s2, dtype, quant, name="input2")
    z = b.tensor(out, dtype, quant, name="output")
    b.op(op, [x, y], [z], options)
    return b.build([x, y], [z])


def test_floor_div_by_zero_fails_the_run_as_tflite_micro(tmp_path):
    model = _binary("FLOOR_DIV", "float32", [2, 3], [3], [2, 3], options="FloorDivOptions")
    x = np.array([[7.5, -7.5, 1.0], [0.0, -2.0, 9.0]], np.float32)
    bad = [[x, np.array([2.0, -0.0, 3.0], np.float32)]]
    good = [[x, np.array([2.0, -4.0, 0.25], np.float32)]]
    _fails_like_tflite_micro(model, tmp_path, bad, good)


def test_broadcast_args_of_clashing_shapes_fails_the_run_as_tflite_micro(tmp_path):
    """Shapes given at run time: TFLite Micro aborts on [2, 3] with [4]."""
    b = ModelBuilder()
    s1 = b.tensor([2], "int32", name="shape1")
    s2 = b.tensor([1], "int32", name="shape2")
    out = b.tensor([2], "int32", name="output")
    b.op("BROADCAST_ARGS", [s1, s2], [out])
    model = b.build([s1, s2], [out])
    bad = [[np.array([2, 3], np.int32), np.array([4], np.int32)]]
    good = [[np.array([2, 1], np.int32), np.array([5], np.int32)]]
    _fails_like_tflite_micro(model, tmp_path, bad, good)


def test_int8_floor_div_is_refused_as_tflite_micro_has_float32_only(tmp_path):
    q = Q(0.1, 0)
    model = _binary("FLOOR_DIV", "int8", [4], [4], [4], q, "FloorDivOptions")
    line = refusal(model, tmp_path)
    assert "operator 0 (FLOOR_DIV)" in line and "input 1" in line and "int8" in line, line
    tflm_fails(model, [[np.ones(4, np.int8), np.ones(4, np.int8)]])


def test_floor_mod_broadcast_over_five_dimensions_is_refused(tmp_path):
    model = _binary("FLOOR_MOD", "float32", [2, 1, 2, 1, 2], [2], [2, 1, 2, 1, 2],
                    options="FloorModOptions")
    line = refusal(model, tmp_path)
    assert "operator 0 (FLOOR_MOD)" in line and "at most 4 dimensions" in line, line


def test_int32_select_v2_is_refused_as_tflite_micro_has_no_kernel(tmp_path):
    b = ModelBuilder()
    c = b.tensor([3], "bool", name="condition")
    x = b.tensor([3], "int32", name="x")
    y = b.tensor([3], "int32", name="y")
    z = b.tensor([3], "int32", name="output")
    b.op("SELECT_V2", [c, x, y], [z], "SelectV2Options")
    model = b.build([c, x, y], [z])
    line = refusal(model, tmp_path)
    assert "operator 0 (SELECT_V2)" in line and "int32" in line, line
    tflm_fails(model, [[np.ones(3, np.bool_), np.ones(3, np.int32), np.zeros(3, np.int32)]])


def test_select_v2_output_not_the_broadcast_shape_is_refused(tmp_path):
    b = ModelBuilder()
    c = b.tensor([2, 1], "bool", name="condition")
    x = b.tensor([1, 3], "int8", Q(0.1, 0), name="x")
    y = b.tensor([1, 3], "int8", Q(0.1, 0), name="y")
    z = b.tensor([2, 4], "int8", Q(0.1, 0), name="output")
    b.op("SELECT_V2", [c, x, y], [z], "SelectV2Options")
    line = refusal(b.build([c, x, y], [z]), tmp_path)
    assert "operator 0 (SELECT_V2)" in line and "broadcast" in line, line


def test_select_v1_is_refused_as_tflite_micro_does_not_register_it(tmp_path):
    b = ModelBuilder()
    c = b.tensor([3], "bool", name="condition")
    x = b.tensor([3], "int8", Q(0.1, 0), name="x")
    y = b.tensor([3], "int8", Q(0.1, 0), name="y")
    z = b.tensor([3], "int8", Q(0.1, 0), name="output")
    b.op("SELECT", [c, x, y], [z])
    model = b.build([c, x, y], [z])
    line = refusal(model, tmp_path)
    assert "operator 0" in line and "SELECT" in line, line
    tflm_fails(model, [[np.ones(3, np.bool_), np.ones(3, np.int8), np.zeros(3, np.int8)]])


def test_fill_with_dims_given_at_run_time_is_refused(tmp_path):
    b = ModelBuilder()
    d = b.tensor([2], "int32", name="dims")
    v = b.tensor([], "float32", name="value")
    y = b.tensor([2, 3], "float32", name="output")
    b.op("FILL", [d, v], [y], "FillOptions")
    model = b.build([d, v], [y])
    line = refusal(model, tmp_path)
    assert "operator 0 (FILL)" in line and "dims" in line and "constant" in line, line
    tflm_fails(model, [[np.array([2, 3], np.int32), np.array(1.5, np.float32)]])


def test_int16_zeros_like_is_refused_as_tflite_micro_has_no_kernel(tmp_path):
    b = ModelBuilder()
    x = b.tensor([4], "int16", Q(0.1, 0), name="input")
    y = b.tensor([4], "int16", Q(0.1, 0), name="output")
    b.op("ZEROS_LIKE", [x], [y], "ZerosLikeOptions")
    model = b.build([x], [y])
    line = refusal(model, tmp_path)
    assert "operator 0 (ZEROS_LIKE)" in line and "int16" in line, line
    tflm_fails(model, [[np.ones(4, np.int16)]])


def test_broadcast_to_six_dimensions_is_refused(tmp_path):
    b = ModelBuilder()
    x = b.tensor([1, 2], "int8", Q(0.1, 0), name="input")
    s = b.const(np.array([1, 1, 1, 1, 3, 2], np.int32), "int32", name="shape")
    y = b.tensor([1, 1, 1, 1, 3, 2], "int8", Q(0.1, 0), name="output")
    b.op("BROADCAST_TO", [x, s], [y], "BroadcastToOptions")
    line = refusal(b.build([x], [y]), tmp_path)
    assert "operator 0 (BROADCAST_TO)" in line and "at most 5" in line, line


def test_shape_with_int64_output_is_refused_as_tflite_micro_writes_int32_only(tmp_path):
    b = ModelBuilder()
    x = b.tensor([2, 3], "int8", Q(0.1, 0), name="input")
    y = b.tensor([2], "int64", name="output")
    b.op("SHAPE", [x], [y], "ShapeOptions", outType=4)
    model = b.build([x], [y])
    line = refusal(model, tmp_path)
    assert "operator 0 (SHAPE)" in line and "int64" in line, line
    tflm_fails(model, [[np.ones((2, 3), np.int8)]])


def test_int8_add_n_of_differently_quantized_inputs_is_refused(tmp_path):
    b = ModelBuilder()
    x = b.tensor([4], "int8", Q(0.1, 0), name="input1")
    y = b.tensor([4], "int8", Q(0.2, 0), name="input2")
    z = b.tensor([4], "int8", Q(0.3, 0), name="output")
    b.op("ADD_N", [x, y], [z], "AddNOptions")
    model = b.build([x, y], [z])
    line = refusal(model, tmp_path)
    assert "operator 0 (ADD_N)" in line and "quantization" in line, line
    tflm_fails(model, [[np.ones(4, np.int8), np.ones(4, np.int8)]])
