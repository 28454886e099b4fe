"""Models whose geometry would make a module misbehave are refused in one
line at conversion (issue 26, defects 3, 6 and 7): a constant listed as a
model input (the application's memcpy into it wrote read-only memory), a
window whose index arithmetic overflows int32 (dilation 2^30), and tensors
with no elements (a CONV_2D on a 0-row input did arithmetic on NULL)."""

import numpy as np

from tests.gen.builder import ModelBuilder, Q
from tests.harness import module
from tests.harness.refusals import refusal


def _conv(in_shape, out_shape, dilation=1, padding="SAME"):
    b = ModelBuilder()
    x = b.tensor(in_shape, "int8", Q(0.05, 0), name="input")
    w = b.const(np.ones([2, 3, 3, in_shape[3]], np.int8), "int8", Q([0.01, 0.01], [0, 0]),
                name="weights")
    y = b.tensor(out_shape, "int8", Q(0.1, 0), name="output")
    b.op("CONV_2D", [x, w], [y], "Conv2DOptions", padding=padding, strideH=1, strideW=1,
         dilationHFactor=dilation, dilationWFactor=dilation)
    return b.build([x], [y])


def test_a_constant_model_input_is_refused(tmp_path):
    b = ModelBuilder()
    c = b.const(np.arange(4, dtype=np.int8), "int8", Q(0.1, 0), name="baked")
    y = b.tensor([4], "int8", Q(0.1, 0), name="output")
    b.op("RELU", [c], [y])
    line = refusal(b.build([c], [y]), tmp_path)
    assert "model input 0 (tensor 0) is a constant" in line, line
    assert "an input must be a tensor the application writes" in line, line


def test_a_dilation_of_two_to_the_thirty_is_refused(tmp_path):
    line = refusal(_conv([1, 4, 4, 1], [1, 4, 4, 2], dilation=1 << 30), tmp_path)
    assert "operator 0 (CONV_2D):" in line, line
    assert "tinyaot bounds it at 2^30 so index arithmetic fits in int32" in line, line


def test_a_large_but_bounded_dilation_still_converts(tmp_path):
    (tmp_path / "m.tflite").write_bytes(_conv([1, 4, 4, 1], [1, 4, 4, 2], dilation=1 << 20))
    module.convert(tmp_path / "m.tflite", tmp_path / "mod")


def test_a_conv_on_a_zero_row_input_is_refused(tmp_path):
    line = refusal(_conv([1, 0, 4, 1], [1, 0, 4, 2]), tmp_path)
    assert "has shape [1,0,4,1], with no elements; tinyaot does not run empty tensors" in line, line
