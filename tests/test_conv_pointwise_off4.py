"""The 1x1 CONV_2D entry for output depths off four
(ta_conv_2d_s8_pointwise_off4): the converter sends it exactly the layers
whose last block of channels holds one or two, too long for the four-pixel
loops (over TA_CONV_2D_QUAD_FILTER taps), over more than one pixel; every
other interleaved 1x1 layer keeps ta_conv_2d_s8_interleaved, so that only
models with such a layer link its path. Outputs byte-equal to TFLite Micro
(host here; both boards in tests/test_simd.py, variant
CONV_2D.int8_pointwise_off4). A fused residual ADD over such a layer runs
the interleaved fused entry."""

import numpy as np
import pytest

from tests.gen import variants
from tests.gen.builder import ModelBuilder, Q
from tests.harness import difftest, module, oracle

QUAD_FILTER = 32  # TA_CONV_2D_QUAD_FILTER (runtime/kernels/ta_conv_2d.h)
ENTRIES = ("ta_conv_2d_s8_pointwise_off4(", "ta_conv_2d_s8_interleaved(",
           "ta_conv_2d_add_s8_interleaved(")


def calls(m):
    text = "".join(p.read_text() for p in sorted((m.path / "ops").glob("*.c")))
    return {e: text.count(e) for e in ENTRIES}


def host_diff(m, data, runs=2):
    exe = module.build(m)
    ins = oracle.random_inputs(data, np.random.default_rng(3), runs)
    return difftest._count_diff(module.run(m, exe, ins), oracle.run_tflm(data, ins, isolated=True))


def conv_model(path, in_shape, out_c, stride=1):
    """One 1x1 CONV_2D, per-channel weights, output scale small enough for
    right shifts only."""
    rng = np.random.default_rng(7)
    b = ModelBuilder()
    in_c = in_shape[-1]
    x = b.tensor(in_shape, "int8", Q(0.05, 3), name="input")
    scales = [float(s) for s in rng.uniform(0.002, 0.01, out_c)]
    w = b.const(rng.integers(-127, 128, [out_c, 1, 1, in_c]).astype(np.int8), "int8",
                Q(scales, [0] * out_c, axis=0), name="filter")
    bias = b.const(rng.integers(-2000, 2000, out_c).astype(np.int32), "int32",
                   Q([0.05 * s for s in scales], [0] * out_c, axis=0), name="bias")
    out_hw = [(n - 1) // stride + 1 for n in in_shape[1:3]]
    y = b.tensor([in_shape[0], *out_hw, out_c], "int8", Q(0.5, -5), name="output")
    b.op("CONV_2D", [x, w, bias], [y], "Conv2DOptions", padding="SAME", strideW=stride,
         strideH=stride, fusedActivationFunction="NONE")
    path.write_bytes(b.build([x], [y]))
    return path


@pytest.mark.parametrize("in_shape,out_c,stride,entry", [
    ([1, 8, 8, 64], 10, 1, "ta_conv_2d_s8_pointwise_off4("),   # a last block of two
    ([1, 5, 7, 96], 9, 1, "ta_conv_2d_s8_pointwise_off4("),    # of one, an odd pixel count
    ([1, 6, 5, 40], 30, 2, "ta_conv_2d_s8_pointwise_off4("),   # a row a run
    ([1, 8, 8, 64], 11, 1, "ta_conv_2d_s8_interleaved("),      # three: no pairs to gain
    ([1, 8, 8, 64], 12, 1, "ta_conv_2d_s8_interleaved("),      # whole blocks
    ([1, 8, 8, 32], 10, 1, "ta_conv_2d_s8_interleaved("),      # four pixels a pass there
    ([1, 1, 1, 256], 2, 1, "ta_conv_2d_s8_interleaved("),      # one pixel
])
def test_entry_chosen_at_conversion_and_bit_exact(tmp_path, in_shape, out_c, stride, entry):
    path = conv_model(tmp_path / "m.tflite", in_shape, out_c, stride)
    m = module.convert(path, tmp_path / "m")
    assert calls(m) == {e: int(e == entry) for e in ENTRIES}
    total, diff = host_diff(m, path.read_bytes())
    assert total > 0 and diff == 0, f"{diff} of {total} bytes differ"


def test_generator_variant_reaches_the_entry(tmp_path):
    """CONV_2D.int8_pointwise_off4 (run on both boards by test_simd.py)
    draws layers of both entries; each bit-exact on the host."""
    seen = set()
    for seed in range(10):
        case = variants.SIMD["CONV_2D.int8_pointwise_off4"].case(seed)
        path = tmp_path / f"s{seed}.tflite"
        path.write_bytes(case.model)
        m = module.convert(path, tmp_path / f"s{seed}")
        seen |= {e for e, n in calls(m).items() if n}
        total, diff = host_diff(m, case.model)
        assert total > 0 and diff == 0, f"{case.name}: {diff} of {total} bytes differ"
    assert {"ta_conv_2d_s8_pointwise_off4(", "ta_conv_2d_s8_interleaved("} <= seen


def test_fused_residual_add_takes_the_interleaved_fused_entry(tmp_path):
    """A residual block of 1x1 convolutions the entry takes (38 channels):
    the fused one runs the interleaved fused entry (no fused entry of its
    own), bit-exact."""
    rng = np.random.default_rng(11)
    b = ModelBuilder()
    shape, c = [1, 6, 6, 38], 38
    x = b.tensor(shape, "int8", Q(0.05, 2), name="input")

    def conv(inp, name):
        scales = [float(s) for s in rng.uniform(0.002, 0.01, c)]
        w = b.const(rng.integers(-127, 128, [c, 1, 1, c]).astype(np.int8), "int8",
                    Q(scales, [0] * c, axis=0), name=name + "_w")
        y = b.tensor(shape, "int8", Q(0.4, -3), name=name)
        b.op("CONV_2D", [inp, w], [y], "Conv2DOptions", padding="SAME", strideW=1, strideH=1,
             fusedActivationFunction="NONE")
        return y

    stem = conv(x, "stem")
    main = conv(conv(stem, "main_a"), "main_b")
    out = b.tensor(shape, "int8", Q(0.6, 1), name="sum")
    b.op("ADD", [main, stem], [out], "AddOptions", fusedActivationFunction="NONE")
    path = tmp_path / "r.tflite"
    path.write_bytes(b.build([x], [out]))
    m = module.convert(path, tmp_path / "r")
    assert calls(m) == {"ta_conv_2d_s8_pointwise_off4(": 2, "ta_conv_2d_s8_interleaved(": 0,
                        "ta_conv_2d_add_s8_interleaved(": 1}
    total, diff = host_diff(m, path.read_bytes())
    assert total > 0 and diff == 0, f"{diff} of {total} bytes differ"
