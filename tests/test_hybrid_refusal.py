"""A hybrid (dynamic-range) quantized model - float32 activations, int8
weights - is refused in one line that names it and says what to export
instead (issue 22, finding 2), not once per int8 operand."""

import numpy as np
import pytest

from tests.gen.builder import ModelBuilder, Q
from tests.harness import refusals

EXPECTED = ("a hybrid (dynamic-range) quantized model: float32 activations with int8 weights "
            "(tensor {weights}); tinyaot runs full-integer int8 or float32 models: export with "
            "full-integer quantization (a representative dataset) or without quantization")


def hybrid_dense():
    """float [1,16] -> FULLY_CONNECTED (int8 weights, per tensor) -> RELU
    -> FULLY_CONNECTED (int8 weights) -> float [1,4], as a dynamic-range
    converter writes a dense model."""
    rng = np.random.default_rng(1)
    b = ModelBuilder()
    x = b.tensor([1, 16], "float32", name="input")
    h = b.tensor([1, 8], "float32", name="hidden")
    b.op("FULLY_CONNECTED", [x, b.const(rng.integers(-127, 128, [8, 16]), "int8", Q(0.01)),
                             b.const(np.zeros(8, np.float32), "float32")],
         [h], "FullyConnectedOptions", fusedActivationFunction="RELU", asymmetricQuantizeInputs=True)
    y = b.tensor([1, 4], "float32", name="output")
    b.op("FULLY_CONNECTED", [h, b.const(rng.integers(-127, 128, [4, 8]), "int8", Q(0.02)),
                             b.const(np.zeros(4, np.float32), "float32")],
         [y], "FullyConnectedOptions", fusedActivationFunction="NONE")
    return b.build([x], [y])


def hybrid_conv():
    """float [1,6,6,2] -> CONV_2D with int8 per-channel weights -> float."""
    rng = np.random.default_rng(2)
    b = ModelBuilder()
    x = b.tensor([1, 6, 6, 2], "float32", name="input")
    y = b.tensor([1, 6, 6, 3], "float32", name="output")
    b.op("CONV_2D", [x, b.const(rng.integers(-127, 128, [3, 3, 3, 2]), "int8",
                                Q([0.01, 0.02, 0.03], [0, 0, 0], axis=0)),
                     b.const(np.zeros(3, np.float32), "float32")],
         [y], "Conv2DOptions", padding="SAME", strideH=1, strideW=1, dilationHFactor=1,
         dilationWFactor=1, fusedActivationFunction="NONE")
    return b.build([x], [y])


@pytest.mark.parametrize("make, where, weights", [
    (hybrid_dense, "operator 0 (FULLY_CONNECTED)", 2),
    (hybrid_conv, "operator 0 (CONV_2D)", 2),
])
def test_hybrid_model_is_named_in_one_line(tmp_path, make, where, weights):
    line = refusals.refusal(make(), tmp_path)
    assert line == (f"tinyaot: error: {tmp_path / 'm.tflite'}: {where}: "
                    + EXPECTED.format(weights=weights)), line
