"""A rescale factor no integer kernel computes exactly is refused by every
operator through one shared check (src/lower/common/quant.c, ta_requant).

An input scale 2^40 times the output scale needs a left shift of 41 bits:
the kernels shift in 32 bits (ta_quant.h), so before the check RELU,
QUANTIZE, ABS, LEAKY_RELU, MEAN and PRELU accepted such models and the
module shifted by more than the type's width (undefined behaviour: the
sanitized converter stopped on it, and the host and the Cortex-M55
disagreed). Each case is one error line naming the operator."""

import re

import numpy as np
import pytest

from tests.gen.builder import ModelBuilder, Q
from tests.harness.refusals import refusal

HUGE = Q(2.0 ** 20, 0)     # input scale
TINY = Q(2.0 ** -20, 0)    # output scale: a factor of 2^40


def _unary(op, options=None, **fields):
    b = ModelBuilder()
    x = b.tensor([1, 4], "int8", HUGE, name="input")
    y = b.tensor([1, 4], "int8", TINY, name="output")
    b.op(op, [x], [y], options, **fields)
    return b.build([x], [y])


def _mean():
    b = ModelBuilder()
    x = b.tensor([1, 2, 2, 4], "int8", HUGE, name="input")
    a = b.const(np.array([1, 2], np.int32), "int32", name="axis")
    y = b.tensor([1, 1, 1, 4], "int8", TINY, name="output")
    b.op("MEAN", [x, a], [y], "ReducerOptions", keepDims=True)
    return b.build([x], [y])


def _prelu():
    b = ModelBuilder()
    x = b.tensor([1, 4], "int8", HUGE, name="input")
    a = b.const(np.ones([4], np.int8), "int8", Q(0.01, 0), name="alpha")
    y = b.tensor([1, 4], "int8", TINY, name="output")
    b.op("PRELU", [x, a], [y])
    return b.build([x], [y])


CASES = {
    "RELU": lambda: _unary("RELU"),
    "QUANTIZE": lambda: _unary("QUANTIZE"),
    "ABS": lambda: _unary("ABS"),
    "LEAKY_RELU": lambda: _unary("LEAKY_RELU", "LeakyReluOptions", alpha=0.5),
    "MEAN": _mean,
    "PRELU": _prelu,
}


@pytest.mark.parametrize("op", sorted(CASES))
def test_a_rescale_beyond_the_kernels_shift_is_refused_in_one_line(op, tmp_path):
    line = refusal(CASES[op](), tmp_path)
    assert f"operator 0 ({op}):" in line, line
    assert re.search(r"rescale factor \S+ needs a left shift of (3[1-9]|4\d) bits", line), line
    assert "compute at most 30 exactly" in line, line


def test_a_rescale_just_inside_the_bound_converts(tmp_path):
    """2^29 needs a shift of 30: accepted (the check is not a blanket refusal)."""
    from tests.harness import module
    b = ModelBuilder()
    x = b.tensor([1, 4], "int8", Q(2.0 ** 14, 0), name="input")
    y = b.tensor([1, 4], "int8", Q(2.0 ** -15, 0), name="output")
    b.op("RELU", [x], [y])
    (tmp_path / "m.tflite").write_bytes(b.build([x], [y]))
    module.convert(tmp_path / "m.tflite", tmp_path / "mod")
    assert (tmp_path / "mod").is_dir()
