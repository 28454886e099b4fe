"""REVERSE_V2, SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND and MIRROR_PAD beyond
what tests.optest draws: SPACE_TO_BATCH_ND's padding (TFLite Micro pads with
a value it never initialises, so LiteRT is the reference there) and the
cases tinyaot refuses, each with one line naming the operator and why."""

import numpy as np
import pytest

from tests.gen.builder import ModelBuilder, Q
from tests.harness import module, oracle
from tests.harness.refusals import refusal


def _space_to_batch(in_shape, block, pads, out_shape, zp):
    b = ModelBuilder()
    q = Q(0.05, zp)
    x = b.tensor(in_shape, "int8", q, name="input")
    bs = b.const(np.array(block, np.int32), "int32", name="block_shape")
    p = b.const(np.array(pads, np.int32), "int32", name="paddings")
    y = b.tensor(out_shape, "int8", Q(0.05, zp), name="output")
    b.op("SPACE_TO_BATCH_ND", [x, bs, p], [y], "SpaceToBatchNDOptions")
    return b.build([x], [y])


@pytest.mark.parametrize("zp", [0, -7, 91])
def test_space_to_batch_pads_with_the_zero_point_as_litert(zp, tmp_path):
    model = _space_to_batch([2, 3, 5, 2], [2, 3], [[1, 2], [3, 1]], [12, 3, 3, 2], zp)
    (tmp_path / "m.tflite").write_bytes(model)
    m = module.convert(tmp_path / "m.tflite", tmp_path / "mod")
    exe = module.build(m)
    runs = oracle.random_inputs(model, np.random.default_rng(zp + 100), 3)
    ours = module.run(m, exe, runs)
    lite = oracle.run_litert(model, runs, isolated=True)
    for got, want in zip(ours, lite):
        np.testing.assert_array_equal(np.asarray(got[0]).ravel(), np.asarray(want[0]).ravel())
    # Padding is most of this output: the zero point shows in it.
    assert int(np.sum(np.asarray(ours[0][0]) == zp)) >= 12 * 9 * 2 - 2 * 3 * 5 * 2


def test_space_to_batch_with_a_wrong_output_shape_is_refused(tmp_path):
    model = _space_to_batch([1, 4, 4, 1], [2, 2], [[0, 0], [0, 0]], [4, 2, 3, 1], 0)
    line = refusal(model, tmp_path)
    assert "operator 0 (SPACE_TO_BATCH_ND)" in line and "block_shape and paddings" in line, line


def test_reverse_of_non_adjacent_axes_is_refused_as_tflm_refuses_it(tmp_path):
    b = ModelBuilder()
    x = b.tensor([2, 3, 4], "int8", Q(0.1, 0), name="input")
    a = b.const(np.array([0, 2], np.int32), "int32", name="axis")
    y = b.tensor([2, 3, 4], "int8", Q(0.1, 0), name="output")
    b.op("REVERSE_V2", [x, a], [y], "ReverseV2Options")
    model = b.build([x], [y])
    with pytest.raises(oracle.OracleError):
        oracle.run_tflm(model, [[np.zeros((2, 3, 4), np.int8)]], isolated=True)
    line = refusal(model, tmp_path)
    assert "operator 0 (REVERSE_V2)" in line and "not adjacent" in line, line


def test_mirror_pad_reflecting_past_the_border_is_refused(tmp_path):
    """REFLECT may pad at most size - 1: TFLM would read outside the input."""
    b = ModelBuilder()
    x = b.tensor([3, 4], "int8", Q(0.1, 0), name="input")
    p = b.const(np.array([[0, 0], [4, 0]], np.int32), "int32", name="paddings")
    y = b.tensor([3, 8], "int8", Q(0.1, 0), name="output")
    b.op("MIRROR_PAD", [x, p], [y], "MirrorPadOptions", mode=0)
    line = refusal(b.build([x], [y]), tmp_path)
    assert "operator 0 (MIRROR_PAD)" in line and "REFLECT" in line, line


def test_reduce_min_with_another_output_quantization_is_refused(tmp_path):
    b = ModelBuilder()
    x = b.tensor([2, 5], "int8", Q(0.1, 3), name="input")
    a = b.const(np.array([1], np.int32), "int32", name="axis")
    y = b.tensor([2], "int8", Q(0.2, 3), name="output")
    b.op("REDUCE_MIN", [x, a], [y], "ReducerOptions", keepDims=False)
    model = b.build([x], [y])
    with pytest.raises(oracle.OracleError):
        oracle.run_tflm(model, [[np.zeros((2, 5), np.int8)]], isolated=True)
    line = refusal(model, tmp_path)
    assert "operator 0 (REDUCE_MIN)" in line and "quantization" in line, line
