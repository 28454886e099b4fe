"""The operator cases issue 12 lists that TFLite Micro does not run: tinyaot
refuses each with one line naming the operator, its index and the reason,
and TFLite Micro (the wheel) is checked to fail on the same model, so a
future wheel that runs one of them makes this test fail and the case gets
implemented. (The cases TFLM runs are in the operator generator:
QUANTIZE.int32_*, QUANTIZE.*uint8*, TRANSPOSE_CONV.*_shape_input,
MAXIMUM/MINIMUM.int16 and .int8_mixed_quant, STRIDED_SLICE.int8_masks,
RELU6.int16, PRELU.int16.)
"""

import numpy as np
import pytest

from tests.gen.builder import ModelBuilder, Q
from tests.harness import module, oracle
from tests.harness.refusals import refusal

COMPARISONS = ["LESS", "LESS_EQUAL", "GREATER", "GREATER_EQUAL", "EQUAL", "NOT_EQUAL"]


def _comparison_int16(op):
    b = ModelBuilder()
    x = b.tensor([2, 5], "int16", Q(0.01, 0), name="input1")
    y = b.tensor([2, 5], "int16", Q(0.02, 0), name="input2")
    z = b.tensor([2, 5], "bool", name="output")
    b.op(op, [x, y], [z])
    return b.build([x, y], [z])


@pytest.mark.parametrize("op", COMPARISONS)
def test_int16_comparison_is_refused_with_the_reason(op, tmp_path):
    model = _comparison_int16(op)
    line = refusal(model, tmp_path)
    assert f"operator 0 ({op})" in line and "int16" in line, line
    runs = [[np.arange(10, dtype=np.int16).reshape(2, 5),
             np.arange(10, 0, -1, dtype=np.int16).reshape(2, 5)]]
    if op != "GREATER":
        with pytest.raises(oracle.OracleError):
            oracle.run_tflm(model, runs, isolated=True)
        assert "no int16 kernel" in line
    else:
        # TFLM runs it with the rescaling parameters its Prepare leaves
        # unset: 0 > 9 comes out as false as much as 9 > 0 does.
        (out,), = oracle.run_tflm(model, runs, isolated=True)
        assert not out.any()
        assert "never sets" in line


def test_quantize_float32_to_int32_is_refused_with_the_reason(tmp_path):
    b = ModelBuilder()
    x = b.tensor([6], "float32", name="input")
    y = b.tensor([6], "int32", Q(0.01, 0), name="output")
    b.op("QUANTIZE", [x], [y])
    model = b.build([x], [y])
    with pytest.raises(oracle.OracleError):
        oracle.run_tflm(model, [[np.linspace(-1, 1, 6, dtype=np.float32)]], isolated=True)
    line = refusal(model, tmp_path)
    assert "operator 0 (QUANTIZE): float32 to int32 is not supported" in line, line
    assert "int32 to int16" in line     # the supported pairs are listed


def test_strided_slice_needing_a_new_axis_is_refused(tmp_path):
    """new_axis_mask is ignored as TFLM ignores it: an output shape that
    needs the new axis matches neither TFLM (which fails in Prepare) nor
    tinyaot."""
    b = ModelBuilder()
    x = b.tensor([4, 6], "int8", Q(0.1, 0), name="input")
    begin = b.const(np.array([1, 2], np.int32), "int32", name="begin")
    end = b.const(np.array([3, 5], np.int32), "int32", name="end")
    strides = b.const(np.array([1, 1], np.int32), "int32", name="strides")
    y = b.tensor([1, 2, 3], "int8", Q(0.1, 0), name="output")
    b.op("STRIDED_SLICE", [x, begin, end, strides], [y], "StridedSliceOptions",
         newAxisMask=1)
    model = b.build([x], [y])
    with pytest.raises(oracle.OracleError):
        oracle.run_tflm(model, [[np.zeros((4, 6), np.int8)]], isolated=True)
    line = refusal(model, tmp_path)
    assert "operator 0 (STRIDED_SLICE)" in line and "new_axis_mask" in line, line


def test_int8_l2_pool_is_refused_with_the_reason(tmp_path):
    """TFLite Micro's L2_POOL_2D is float32 only; tinyaot says so."""
    b = ModelBuilder()
    x = b.tensor([1, 4, 4, 2], "int8", Q(0.05, 0), name="input")
    y = b.tensor([1, 2, 2, 2], "int8", Q(0.05, 0), name="output")
    b.op("L2_POOL_2D", [x], [y], "Pool2DOptions", padding="VALID", strideH=2, strideW=2,
         filterHeight=2, filterWidth=2)
    model = b.build([x], [y])
    with pytest.raises(oracle.OracleError):
        oracle.run_tflm(model, [[np.arange(32, dtype=np.int8).reshape(1, 4, 4, 2)]],
                        isolated=True)
    line = refusal(model, tmp_path)
    assert "operator 0 (L2_POOL_2D)" in line and "float32 only" in line, line


def test_float32_arg_max_to_int64_is_refused_with_the_reason(tmp_path):
    """TFLite Micro's float32 ARG_MAX writes int32 indices only."""
    b = ModelBuilder()
    x = b.tensor([3, 5], "float32", name="input")
    a = b.const(np.array([1], np.int32), "int32", name="axis")
    y = b.tensor([3], "int64", name="output")
    b.op("ARG_MAX", [x, a], [y], "ArgMaxOptions", outputType=4)   # TensorType.INT64
    model = b.build([x], [y])
    with pytest.raises(oracle.OracleError):
        oracle.run_tflm(model, [[np.linspace(-1, 1, 15, dtype=np.float32).reshape(3, 5)]],
                        isolated=True)
    line = refusal(model, tmp_path)
    assert "operator 0 (ARG_MAX)" in line and "int32 output" in line, line
