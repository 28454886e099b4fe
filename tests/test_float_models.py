"""float32 models end to end (issue 12 item 4): a small float CNN built
with the generator's builder (CONV_2D, DEPTHWISE_CONV_2D, the pools,
TRANSPOSE_CONV, FULLY_CONNECTED, BATCH_MATMUL), and a mixed model (float
input, QUANTIZE, an int8 body, DEQUANTIZE), converted, run and compared
bit for bit with TFLite Micro on the host and, for the CNN, on Cortex-M55
under QEMU (hard-float ABI, -ffp-contract=off from the QEMU kit)."""

import numpy as np
import pytest

from tests.gen.builder import ModelBuilder, Q
from tests.harness import difftest, module, oracle


def _weights(rng, shape, fan_in):
    return (rng.standard_normal(shape) / np.sqrt(fan_in)).astype(np.float32)


def float_cnn():
    """input [1,12,12,3] -> CONV_2D 3x3 SAME x8 RELU -> DEPTHWISE_CONV_2D 3x3
    stride 2 RELU6 -> TRANSPOSE_CONV 2x2 stride 2 -> AVERAGE_POOL_2D 2x2 ->
    MAX_POOL_2D 2x2 -> FULLY_CONNECTED 10 (flattening [1,3,3,8]) ->
    BATCH_MATMUL with a constant [10, 4]."""
    rng = np.random.default_rng(12)
    b = ModelBuilder()
    x = b.tensor([1, 12, 12, 3], "float32", name="input")
    c1 = b.tensor([1, 12, 12, 8], "float32", name="conv")
    b.op("CONV_2D", [x, b.const(_weights(rng, [8, 3, 3, 3], 27), "float32"),
                     b.const(rng.standard_normal(8).astype(np.float32) * 0.1, "float32")],
         [c1], "Conv2DOptions", padding="SAME", strideH=1, strideW=1,
         dilationHFactor=1, dilationWFactor=1, fusedActivationFunction="RELU")
    d1 = b.tensor([1, 6, 6, 8], "float32", name="dw")
    b.op("DEPTHWISE_CONV_2D", [c1, b.const(_weights(rng, [1, 3, 3, 8], 9), "float32"),
                               b.const(np.zeros(8, np.float32), "float32")],
         [d1], "DepthwiseConv2DOptions", padding="SAME", strideH=2, strideW=2,
         dilationHFactor=1, dilationWFactor=1, depthMultiplier=1,
         fusedActivationFunction="RELU6")
    t1 = b.tensor([1, 12, 12, 8], "float32", name="up")
    b.op("TRANSPOSE_CONV", [b.const([1, 12, 12, 8], "int32"),
                            b.const(_weights(rng, [8, 2, 2, 8], 32), "float32"), d1],
         [t1], "TransposeConvOptions", padding="SAME", strideH=2, strideW=2)
    p1 = b.tensor([1, 6, 6, 8], "float32", name="avg")
    b.op("AVERAGE_POOL_2D", [t1], [p1], "Pool2DOptions", padding="VALID", strideH=2,
         strideW=2, filterHeight=2, filterWidth=2)
    p2 = b.tensor([1, 3, 3, 8], "float32", name="max")
    b.op("MAX_POOL_2D", [p1], [p2], "Pool2DOptions", padding="VALID", strideH=2,
         strideW=2, filterHeight=2, filterWidth=2)
    f1 = b.tensor([1, 10], "float32", name="dense")
    b.op("FULLY_CONNECTED", [p2, b.const(_weights(rng, [10, 72], 72), "float32"),
                             b.const(rng.standard_normal(10).astype(np.float32), "float32")],
         [f1], "FullyConnectedOptions", fusedActivationFunction="RELU_N1_TO_1")
    y = b.tensor([1, 4], "float32", name="output")
    b.op("BATCH_MATMUL", [f1, b.const(_weights(rng, [10, 4], 10), "float32")], [y],
         "BatchMatMulOptions", adjX=False, adjY=False)
    return b.build([x], [y])


def mixed_model():
    """float input -> QUANTIZE (int8) -> CONV_2D int8 -> AVERAGE_POOL_2D int8
    -> DEQUANTIZE -> float output."""
    rng = np.random.default_rng(4)
    b = ModelBuilder()
    x = b.tensor([1, 8, 8, 3], "float32", name="input")
    q = b.tensor([1, 8, 8, 3], "int8", Q(0.0625, -3), name="quantized")
    b.op("QUANTIZE", [x], [q])
    w_scales = [0.004 + 0.001 * i for i in range(6)]
    w = b.const(rng.integers(-127, 127, size=[6, 3, 3, 3], endpoint=True), "int8",
                Q(w_scales, [0] * 6, axis=0))
    bias = b.const(rng.integers(-2000, 2000, size=6), "int32",
                   Q([0.0625 * s for s in w_scales], [0] * 6))
    c = b.tensor([1, 8, 8, 6], "int8", Q(0.05, 5), name="conv")
    b.op("CONV_2D", [q, w, bias], [c], "Conv2DOptions", padding="SAME", strideH=1,
         strideW=1, dilationHFactor=1, dilationWFactor=1, fusedActivationFunction="RELU")
    p = b.tensor([1, 4, 4, 6], "int8", Q(0.05, 5), name="pool")
    b.op("AVERAGE_POOL_2D", [c], [p], "Pool2DOptions", padding="VALID", strideH=2,
         strideW=2, filterHeight=2, filterWidth=2)
    y = b.tensor([1, 4, 4, 6], "float32", name="output")
    b.op("DEQUANTIZE", [p], [y])
    return b.build([x], [y])


def test_float_cnn_matches_tflm_bit_for_bit(tmp_path):
    r = difftest.compare_model(float_cnn(), tmp_path, n_runs=8, seed=3, litert=False)
    assert r.bytes == 8 * 4 * 4
    assert r.diff["tflm"] == 0, r


def test_mixed_float_int8_model_matches_tflm(tmp_path):
    data = mixed_model()
    r = difftest.compare_model(data, tmp_path, n_runs=8, seed=5, litert=False)
    assert r.bytes == 8 * 96 * 4
    assert r.diff["tflm"] == 0, r
    ins, outs = oracle.io_details(data)
    assert ins[0].dtype == np.float32 and outs[0].dtype == np.float32


def test_unsupported_float_activation_is_one_line(tmp_path):
    b = ModelBuilder()
    x = b.tensor([1, 4, 4, 2], "float32", name="input")
    y = b.tensor([1, 4, 4, 3], "float32", name="output")
    b.op("CONV_2D", [x, b.const(np.ones([3, 1, 1, 2], np.float32), "float32")], [y],
         "Conv2DOptions", padding="SAME", strideH=1, strideW=1, dilationHFactor=1,
         dilationWFactor=1, fusedActivationFunction="TANH")
    path = tmp_path / "tanh.tflite"
    path.write_bytes(b.build([x], [y]))
    with pytest.raises(module.ConvertError) as e:
        module.convert(path, tmp_path / "m")
    lines = [ln for ln in e.value.stderr.splitlines() if "error" in ln]
    assert len(lines) == 1, e.value.stderr
    assert "CONV_2D" in lines[0] and "TANH" in lines[0] and "float32" in lines[0]


@pytest.mark.qemu
@pytest.mark.parametrize("board,target", [("mps3-an547", "mps3_an547"),
                                          ("mps2-an386", "mps2_an386")])
def test_float_cnn_on_cortex_m_matches_tflm(tmp_path, board, target):
    """Cortex-M55 and Cortex-M4F, both with the FPU's fused multiply-add,
    which -ffp-contract=off keeps out of the float kernels."""
    data = float_cnn()
    path = tmp_path / "cnn.tflite"
    path.write_bytes(data)
    m = module.convert(path, tmp_path / "m", keys={"platform.name": target})
    elf = module.build_qemu(m, board=board)
    runs = oracle.random_inputs(data, np.random.default_rng(9), 4)
    ours, _ = module.run_qemu(m, elf, runs, board=board)
    total, diff = difftest._count_diff(ours, oracle.run_tflm(data, runs, isolated=True))
    assert total == 4 * 4 * 4 and diff == 0


@pytest.mark.qemu
def test_contraction_would_change_float_results_on_cortex_m55(tmp_path):
    """The control for the test above: the same module built with
    -ffp-contract=fast uses the M55's VFMA and no longer matches TFLM, so
    -ffp-contract=off in the build files is what keeps it bit-exact."""
    data = float_cnn()
    path = tmp_path / "cnn.tflite"
    path.write_bytes(data)
    m = module.convert(path, tmp_path / "m", keys={"platform.name": "mps3_an547"})
    elf = module.build_qemu(m, cflags="-ffp-contract=fast", name="fast")
    runs = oracle.random_inputs(data, np.random.default_rng(9), 4)
    ours, _ = module.run_qemu(m, elf, runs)
    total, diff = difftest._count_diff(ours, oracle.run_tflm(data, runs, isolated=True))
    assert total == 4 * 4 * 4 and diff > 0


@pytest.mark.qemu
def test_tinyaot_validate_builds_float_modules_bit_exact(tmp_path):
    """`tinyaot validate` builds the module on the host and for Cortex-M55
    with -ffp-contract=off too: both builds match TFLM on the float CNN."""
    from tests.test_validate import output_lines, validate
    path = tmp_path / "cnn.tflite"
    path.write_bytes(float_cnn())
    p = validate(tmp_path, "--model.path", path, "--platform.name", "mps3_an547", "--runs", "2")
    assert p.returncode == 0, p.stdout + p.stderr
    for build in ("host", "mps3-an547 (QEMU)"):
        lines = output_lines(p.stdout, build)
        assert lines, p.stdout
        assert all(differ == "0" for _, differ, _, _ in lines), p.stdout
