"""float32 UNIDIRECTIONAL_SEQUENCE_LSTM beyond what the generator draws
(tests/gen/ops/stateful.py, UNIDIRECTIONAL_SEQUENCE_LSTM.float32): what
TFLite Micro refuses or cannot run, and what tinyaot does not take, is
refused with one line naming the operator, its index and the reason."""

import numpy as np
import pytest

from tests.gen.builder import ModelBuilder
from tests.harness import module, oracle
from tests.harness.refusals import refusal

GATES = ("input", "forget", "cell", "output")
N_IN, N_CELL = 3, 2


def _lstm(weight_dtype="float32", activation="TANH", projection=False,
          weights_at_run_time=False):
    b = ModelBuilder()
    x = b.tensor([1, 2, N_IN], "float32", name="input")
    extra_inputs = [x]

    def weights(shape, name):
        if weights_at_run_time:
            t = b.tensor(shape, "float32", name=name)
            extra_inputs.append(t)
            return t
        data = np.full(shape, 0.25, np.float32 if weight_dtype == "float32" else np.int8)
        return b.const(data, weight_dtype, name=name)

    w_in = [weights([N_CELL, N_IN], "input_to_%s_weights" % g) for g in GATES]
    w_rec = [weights([N_CELL, N_CELL], "recurrent_to_%s_weights" % g) for g in GATES]
    biases = [b.const(np.zeros(N_CELL, np.float32), "float32", name="%s_gate_bias" % g)
              for g in GATES]
    proj = ([b.const(np.ones((N_CELL, N_CELL), np.float32), "float32",
                     name="projection_weights")] if projection else [-1])
    h = b.tensor([1, N_CELL], "float32", name="output_state", variable=True)
    c = b.tensor([1, N_CELL], "float32", name="cell_state", variable=True)
    y = b.tensor([1, 2, N_CELL], "float32", name="output")
    ins = ([x] + w_in + w_rec + [-1, -1, -1] + biases + proj + [-1, h, c]
           + [-1, -1, -1, -1])
    b.op("UNIDIRECTIONAL_SEQUENCE_LSTM", ins, [y], "UnidirectionalSequenceLSTMOptions",
         fusedActivationFunction=activation, cellClip=0.0, projClip=0.0, timeMajor=False,
         asymmetricQuantizeInputs=False)
    return b.build(extra_inputs, [y])


def _refusal(model, tmp_path):
    line = refusal(model, tmp_path)
    assert "operator 0 (UNIDIRECTIONAL_SEQUENCE_LSTM)" in line, line
    return line


def test_the_plain_model_converts_and_matches_tflite_micro(tmp_path):
    """The refusal tests' base model is valid: only their one change is refused."""
    model = _lstm()
    (tmp_path / "m.tflite").write_bytes(model)
    m = module.convert(tmp_path / "m.tflite", tmp_path / "mod")
    runs = [[np.linspace(-1, 1, 2 * N_IN, dtype=np.float32).reshape(1, 2, N_IN)]] * 2
    ours = module.run(m, module.build(m), runs)
    ref = oracle.run_tflm(model, runs, isolated=True)
    for a, b in zip(ours, ref):
        assert np.array_equal(a[0], b[0]) and a[0].tobytes() == b[0].tobytes()


def test_projection_is_refused_as_tflite_micro_refuses_it(tmp_path):
    model = _lstm(projection=True)
    with pytest.raises(oracle.OracleError):
        oracle.run_tflm(model, [[np.zeros((1, 2, N_IN), np.float32)]], isolated=True)
    line = _refusal(model, tmp_path)
    assert "input 16 is present" in line and "projection" in line, line


def test_a_cell_activation_other_than_tanh_is_refused(tmp_path):
    """TFLite Micro's float gate asserts on anything but sigmoid or tanh."""
    line = _refusal(_lstm(activation="RELU"), tmp_path)
    assert "cell activation RELU" in line, line


def test_int8_weights_under_a_float32_input_are_refused(tmp_path):
    """TFLite Micro's float path would read int8 weights as floats. The
    model is a hybrid (dynamic-range) one, named as such once."""
    line = _refusal(_lstm(weight_dtype="int8"), tmp_path)
    assert "operator 0 (UNIDIRECTIONAL_SEQUENCE_LSTM): a hybrid (dynamic-range) quantized " \
        "model: float32 activations with int8 weights (tensor 1)" in line, line


def test_weights_computed_at_run_time_are_refused(tmp_path):
    """The kernel takes the four gates' weights gathered at conversion."""
    line = _refusal(_lstm(weights_at_run_time=True), tmp_path)
    assert "input to input weights" in line and "constant" in line, line
