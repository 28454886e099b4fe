"""`tinyaot validate` on a float32 model ending in SOFTMAX (issue 22,
finding 2): float outputs are compared with a tolerance the user sets and
reported with the largest absolute error, the largest error in ulps and
the cosine similarity.

SOFTMAX calls expf. The host build links glibc, as TFLite Micro's Python
interpreter does, and the Cortex-M55 build newlib's expf for a
double-precision FPU: both are bit-exact. The Cortex-M4F build links
newlib's expf for a single-precision FPU (newlib's older float code,
__OBSOLETE_MATH): a few elements differ by a few ulps, so it passes only
with a tolerance (docs/float32-libm.md).

--layers compares every operator's output tensor with TFLite Micro's and
names the first operator that differs.
"""

import re
import subprocess
import sys

import numpy as np
import pytest

from tests.gen.builder import ModelBuilder, Q
from tests.test_validate import (FLIP_CC, MODELS, ORACLE, assert_cleaned, float_metrics,
                                 output_lines, validate)

RUNS = "20"


def softmax_model():
    """features [1,8] -> FULLY_CONNECTED 16 -> RELU -> FULLY_CONNECTED 12
    (the largest weights) -> SOFTMAX: a keyword spotter's float head. The
    first biases keep the hidden units positive, so every weight of the
    second FULLY_CONNECTED counts."""
    rng = np.random.default_rng(3)
    b = ModelBuilder()
    x = b.tensor([1, 8], "float32", name="features")
    h = b.tensor([1, 16], "float32", name="hidden")
    b.op("FULLY_CONNECTED",
         [x, b.const((rng.standard_normal([16, 8]) * 0.8).astype(np.float32), "float32"),
          b.const(np.abs(rng.standard_normal(16)).astype(np.float32) + 2, "float32")],
         [h], "FullyConnectedOptions", fusedActivationFunction="NONE")
    r = b.tensor([1, 16], "float32", name="hidden_relu")
    b.op("RELU", [h], [r])
    logits = b.tensor([1, 12], "float32", name="logits")
    b.op("FULLY_CONNECTED",
         [r, b.const((rng.standard_normal([12, 16]) * 0.9).astype(np.float32), "float32"),
          b.const(rng.standard_normal(12).astype(np.float32), "float32")],
         [logits], "FullyConnectedOptions", fusedActivationFunction="NONE")
    y = b.tensor([1, 12], "float32", name="probabilities")
    b.op("SOFTMAX", [logits], [y], "SoftmaxOptions", beta=1.0)
    return b.build([x], [y])


@pytest.fixture
def model(tmp_path):
    path = tmp_path / "softmax.tflite"
    path.write_bytes(softmax_model())
    return path


def _exact(metrics):
    return metrics and all(a == 0 and u == 0 and c == 1 and b == 0 for a, u, c, b, _ in metrics)


@pytest.mark.qemu
def test_float_softmax_is_bit_exact_on_the_host_and_cortex_m55(tmp_path, model):
    p = validate(tmp_path, "--model.path", model, "--platform.name", "mps3_an547",
                 "--runs", RUNS)
    assert p.returncode == 0, p.stdout + p.stderr
    for build in ("host", "mps3-an547 (QEMU)"):
        assert _exact(float_metrics(p.stdout, build)), p.stdout
        assert output_lines(p.stdout, build) == [("0", "0", "960", "0")], p.stdout
    assert "float tolerance: none: bit for bit" in p.stdout
    assert_cleaned(tmp_path)


@pytest.mark.qemu
def test_float_softmax_on_cortex_m4_needs_a_tolerance(tmp_path, model):
    """Bit for bit (the default) the Cortex-M4F build fails with its
    metrics; within 4 ulps, or an absolute 1e-6, it passes."""
    p = validate(tmp_path, "--model.path", model, "--platform.name", "mps2_an386",
                 "--runs", RUNS)
    assert p.returncode == 1, p.stdout + p.stderr
    assert _exact(float_metrics(p.stdout, "host")), p.stdout
    (abs_err, ulps, cosine, beyond, elements), = float_metrics(p.stdout, "mps2-an386 (QEMU)")
    assert 0 < abs_err < 1e-6 and 1 <= ulps <= 4 and cosine > 0.9999999, p.stdout
    assert 0 < beyond < elements == 240, p.stdout
    assert "MISMATCH: mps2-an386 (QEMU) output 0 'probabilities' differs from TFLite Micro " \
        in p.stdout and "beyond the tolerance (none: bit for bit)" in p.stdout

    for tolerance, text in ((["--ulps", "4"], "4 ulps"), (["--tolerance", "1e-6"],
                                                           "absolute 1e-06")):
        p = validate(tmp_path, "--model.path", model, "--platform.name", "mps2_an386",
                     "--runs", RUNS, *tolerance)
        assert p.returncode == 0, p.stdout + p.stderr
        (abs_err2, ulps2, _, beyond, _), = float_metrics(p.stdout, "mps2-an386 (QEMU)")
        assert (abs_err2, ulps2, beyond) == (abs_err, ulps, 0), p.stdout
        assert "OK: every output of every build matches TFLite Micro " in p.stdout
        assert f"(integers byte for byte; float tolerance: {text})" in p.stdout
    assert_cleaned(tmp_path)


def test_a_float_difference_beyond_the_tolerance_is_a_mismatch(tmp_path, model):
    """Expected outputs with one float nudged by 3 ulps: within --ulps 3 it
    matches; within --ulps 2, --tolerance 1e-12 or bit for bit it does not."""
    rng = np.random.default_rng(1)
    inputs = tmp_path / "in.bin"
    inputs.write_bytes(rng.uniform(-1, 1, 8 * 2).astype(np.float32).tobytes())
    expected = tmp_path / "expected.bin"
    subprocess.run([sys.executable, str(ORACLE), str(model), str(inputs), str(expected), "2"],
                   check=True, timeout=300)
    nudged = np.frombuffer(expected.read_bytes(), np.int32).copy()
    nudged[np.argmax(nudged.view(np.float32))] += 3  # the largest probability: ~2e-7
    expected.write_bytes(nudged.tobytes())
    common = ["--model.path", model, "--inputs", inputs, "--expected", expected]
    p = validate(tmp_path, *common, "--ulps", "3")
    assert p.returncode == 0, p.stdout + p.stderr
    (_, ulps, cosine, beyond, elements), = float_metrics(p.stdout, "host")
    assert (ulps, beyond, elements) == (3, 0, 24) and cosine > 0.999999
    for tolerance in (["--ulps", "2"], ["--tolerance", "1e-12"], []):
        p = validate(tmp_path, *common, *tolerance)
        assert p.returncode == 1, p.stdout + p.stderr
        assert float_metrics(p.stdout, "host")[0][3] == 1, p.stdout
    assert_cleaned(tmp_path)


def int8_relu_model():
    """int8 [1,8] -> FULLY_CONNECTED 16 -> RELU (same quantization: fused
    into the FULLY_CONNECTED by FUSE_ACTIVATIONS) -> FULLY_CONNECTED 4."""
    rng = np.random.default_rng(8)
    b = ModelBuilder()
    x = b.tensor([1, 8], "int8", Q(0.05, 0), name="x")
    h = b.tensor([1, 16], "int8", Q(0.1, -10), name="hidden")
    b.op("FULLY_CONNECTED", [x, b.const(rng.integers(-127, 128, [16, 8]), "int8", Q(0.02, 0)),
                             b.const(rng.integers(-500, 500, 16), "int32", Q(0.001, 0))],
         [h], "FullyConnectedOptions", fusedActivationFunction="NONE")
    r = b.tensor([1, 16], "int8", Q(0.1, -10), name="hidden_relu")
    b.op("RELU", [h], [r])
    y = b.tensor([1, 4], "int8", Q(0.2, 3), name="y")
    b.op("FULLY_CONNECTED", [r, b.const(rng.integers(-127, 128, [4, 16]), "int8", Q(0.01, 0)),
                             b.const(rng.integers(-500, 500, 4), "int32", Q(0.001, 0))],
         [y], "FullyConnectedOptions", fusedActivationFunction="NONE")
    return b.build([x], [y])


def _layers_counts(stdout):
    m = re.search(r"layers \(host\): compared (\d+) of the (\d+) tensors TFLite Micro's "
                  r"operators write \((\d+) the module keeps; .*\)(: every one matches|, up to "
                  r"the first difference)$", stdout, re.M)
    assert m, stdout
    return tuple(map(int, m.groups()[:3])) + (m.group(4).startswith(":"),)


def test_layers_compare_every_operator_with_tflite_micro(tmp_path, model):
    p = validate(tmp_path, "--model.path", model, "--runs", "3", "--layers")
    assert p.returncode == 0, p.stdout + p.stderr
    assert _layers_counts(p.stdout) == (4, 4, 4, True), p.stdout
    # RELU fused into the first FULLY_CONNECTED: its input is not in the module.
    fused = tmp_path / "int8_relu.tflite"
    fused.write_bytes(int8_relu_model())
    p = validate(tmp_path, "--model.path", fused, "--runs", "3", "--layers")
    assert p.returncode == 0, p.stdout + p.stderr
    assert _layers_counts(p.stdout) == (2, 3, 2, True), p.stdout
    assert_cleaned(tmp_path)


def test_layers_name_the_first_operator_that_differs(tmp_path, model):
    """One weight byte of the second FULLY_CONNECTED (the largest constant)
    flipped: it, not the first operator nor SOFTMAX after it, is named."""
    p = validate(tmp_path, "--model.path", model, "--runs", "2", "--layers",
                 env={"CC": f"{sys.executable} {FLIP_CC}"})
    assert p.returncode == 1, p.stdout + p.stderr
    lines = [line for line in p.stdout.splitlines()
             if "first operator whose output differs" in line]
    assert len(lines) == 1, p.stdout
    assert "layer 2 (FULLY_CONNECTED, model operator 2), output tensor 5 'logits' float32" \
        in lines[0], lines[0]
    assert _layers_counts(p.stdout) == (3, 4, 4, False), p.stdout
    assert_cleaned(tmp_path)


@pytest.mark.parametrize("name, counts", [
    ("mlperf_tiny_kws_ref_model", (13, 13, 13)),
    # FUSE_RESIDUAL_ADD folds three ADDs into the convolutions before them.
    ("mlperf_tiny_ic_resnet8_quant", (13, 16, 13)),
    ("tflm_mnist_lstm_int8", (4, 4, 4)),  # stateful: compared over every run
])
def test_layers_on_integer_models(tmp_path, name, counts):
    p = validate(tmp_path, "--model.path", MODELS / f"{name}.tflite", "--runs", "2", "--layers")
    assert p.returncode == 0, p.stdout + p.stderr
    assert _layers_counts(p.stdout) == (*counts, True), p.stdout
    assert_cleaned(tmp_path)
