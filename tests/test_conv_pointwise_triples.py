"""The 1x1 CONV_2D entry where three pixels share each weight load
(ta_conv_2d_s8_pointwise_triples): on Helium cores the converter sends it
1x1 layers of whole chunks longer than the four-pixel loops (33 to 256
taps, whole chunks), to whole blocks of at least 8 channels, over three
pixels or more; the triples' pixels are read in place (triple_sweep_in_place),
the last one or two of a run a pixel at a time. On other cores those
layers keep ta_conv_2d_s8_interleaved. A row chain runs such a layer's
bands through ta_conv_2d_s8_pointwise_triples_rows. Outputs byte-equal to
TFLite Micro on the Cortex-M55 board (and on the host, where the entry runs
the interleaved 1x1 path); the generator's CONV_2D.int8_pointwise_triples
variant runs on both boards in tests/test_simd.py."""

import numpy as np
import pytest

from tests.gen.builder import ModelBuilder, Q
from tests.harness import difftest, module

M55 = {"platform.name": "mps3_an547"}
ENTRY = "ta_conv_2d_s8_pointwise_triples("
ROWS = "ta_conv_2d_s8_pointwise_triples_rows("


def code(m):
    return "".join(p.read_text() for p in sorted((m.path / "ops").glob("*.c"))) + \
        (m.path / "m_model.c").read_text()


def conv(b, rng, x, shape, out_c, stride=1, padding="SAME", act="NONE", left_shifts=False,
         name="conv"):
    """A 1x1 CONV_2D over x (shape NHWC), per-channel weights: right shifts
    only, or with left_shifts every third channel's scale above 1/2 (a shift
    of 0)."""
    n, h, wd, in_c = shape
    scales = [(0.7 if left_shifts and o % 3 == 0 else 0.002) for o in range(out_c)]
    w = b.const(rng.integers(-127, 128, [out_c, 1, 1, in_c]).astype(np.int8), "int8",
                Q(scales, [0] * out_c, axis=0), name=name + "_w")
    bias = b.const(rng.integers(-3000, 3000, out_c).astype(np.int32), "int32",
                   Q([0.05 * s for s in scales], [0] * out_c, axis=0), name=name + "_b")
    oh = -(-h // stride) if padding == "SAME" else (h - 1) // stride + 1
    ow = -(-wd // stride) if padding == "SAME" else (wd - 1) // stride + 1
    y = b.tensor([n, oh, ow, out_c], "int8", Q(0.05, -6), name=name)
    b.op("CONV_2D", [x, w, bias], [y], "Conv2DOptions", padding=padding, strideW=stride,
         strideH=stride, fusedActivationFunction=act)
    return y


def one_conv(path, in_shape, out_c, stride=1, padding="SAME", act="NONE", left_shifts=False):
    rng = np.random.default_rng(sum(in_shape) + out_c)
    b = ModelBuilder()
    x = b.tensor(in_shape, "int8", Q(0.05, 3), name="input")
    y = conv(b, rng, x, in_shape, out_c, stride, padding, act, left_shifts)
    path.write_bytes(b.build([x], [y]))
    return path


# in shape, out channels, stride, padding, activation, left shifts
CASES = {
    # 64 taps, 64 outputs (two sweeps of eight pairs), 50 pixels: 16 triples and two left
    "c64_o64": ([1, 10, 5, 64], 64, 1, "SAME", "NONE", False),
    # eight outputs (four pairs, the second sweep two), 43 pixels: one left
    "c48_o8": ([1, 1, 43, 48], 8, 1, "SAME", "RELU6", False),
    # 40 outputs: a group of 32 and one of 8; stride 2 (pixels 2 * 96 bytes apart, a row a run)
    "c96_o40_s2": ([1, 7, 9, 96], 40, 2, "SAME", "NONE", False),
    # 256 taps (the longest), 12 outputs, two images
    "c256_o12_batch2": ([2, 3, 4, 256], 12, 1, "VALID", "RELU", False),
    # left shifts on: requantize_triple's blocks through requantize_triple_rest
    "c80_o20_left": ([1, 4, 6, 80], 20, 1, "SAME", "NONE", True),
    # three pixels exactly, 128 outputs: four groups
    "c64_o128_three": ([1, 1, 3, 64], 128, 1, "SAME", "NONE", False),
}


@pytest.mark.parametrize("name", list(CASES))
def test_entry_on_helium_only(tmp_path, name):
    """The M55's conversion calls the entry; the M4's keeps the interleaved
    one (its DSP pairs gain nothing from it)."""
    in_shape, out_c, stride, padding, act, left = CASES[name]
    path = one_conv(tmp_path / "m.tflite", in_shape, out_c, stride, padding, act, left)
    m55 = code(module.convert(path, tmp_path / "m55", keys=M55))
    m4 = code(module.convert(path, tmp_path / "m4", keys={"platform.name": "mps2_an386"}))
    assert m55.count(ENTRY) == 1 and "ta_conv_2d_s8_interleaved(" not in m55
    assert ENTRY not in m4 and m4.count("ta_conv_2d_s8_interleaved(") == 1


@pytest.mark.parametrize("in_shape,out_c", [
    ([1, 8, 8, 32], 64),     # 32 taps: the four-pixel loops
    ([1, 8, 8, 72], 64),     # 72: not whole chunks
    ([1, 8, 8, 272], 16),    # past TA_CONV_2D_TRIPLE_PATCH
    ([1, 8, 8, 64], 4),      # one block: too little to share
    ([1, 8, 8, 64], 30),     # a last partial block
    ([1, 1, 2, 64], 64),     # two pixels
])
def test_other_layers_keep_their_entries(tmp_path, in_shape, out_c):
    path = one_conv(tmp_path / "m.tflite", in_shape, out_c)
    assert ENTRY not in code(module.convert(path, tmp_path / "m", keys=M55))


@pytest.mark.qemu
@pytest.mark.parametrize("name", list(CASES))
def test_bit_exact_on_cortex_m55_and_host(tmp_path, name):
    in_shape, out_c, stride, padding, act, left = CASES[name]
    path = one_conv(tmp_path / "m.tflite", in_shape, out_c, stride, padding, act, left)
    m = module.convert(path, tmp_path / "m", keys=M55)
    assert code(m).count(ENTRY) == 1
    total, diff = difftest.against_tflm(m, path, runs=2, seed=5, board="mps3-an547")
    assert total > 0 and diff == 0, f"M55: {diff} of {total} bytes differ"
    total, diff = difftest.against_tflm(m, path, runs=2, seed=5)
    assert total > 0 and diff == 0, f"host: {diff} of {total} bytes differ"


@pytest.mark.qemu
def test_row_chain_runs_its_bands_through_the_rows_function(tmp_path):
    """A 3x3 convolution from a narrow input to 64 channels, depthwise 3x3
    then 1x1 over them, twice, then a global average pool, in a row chain
    (memory.row_streaming: least_ram): the 1x1 layers' bands, a row of 7
    pixels each (two triples and one pixel), through the triples' rows
    function, byte-equal on the M55."""
    rng = np.random.default_rng(4)
    b = ModelBuilder()
    shape = [1, 9, 7, 64]
    x = b.tensor([1, 9, 7, 2], "int8", Q(0.05, 1), name="input")
    w = b.const(rng.integers(-2, 3, [64, 3, 3, 2]).astype(np.int8), "int8",
                Q([0.05] * 64, [0] * 64, axis=0), name="first_w")
    t = b.tensor(shape, "int8", Q(0.05, 3), name="first")
    b.op("CONV_2D", [x, w], [t], "Conv2DOptions", padding="SAME", strideW=1, strideH=1,
         fusedActivationFunction="NONE")
    for k in range(2):
        w = b.const(rng.integers(-127, 128, [1, 3, 3, 64]).astype(np.int8), "int8",
                    Q([0.01] * 64, [0] * 64, axis=3), name=f"dw{k}_w")
        d = b.tensor(shape, "int8", Q(0.08, -2), name=f"dw{k}")
        b.op("DEPTHWISE_CONV_2D", [t, w], [d], "DepthwiseConv2DOptions", padding="SAME",
             strideW=1, strideH=1, depthMultiplier=1, fusedActivationFunction="RELU")
        t = conv(b, rng, d, shape, 64, act="RELU", name=f"pw{k}")
    pooled = b.tensor([1, 1, 1, 64], "int8", Q(0.05, -6), name="pooled")
    b.op("AVERAGE_POOL_2D", [t], [pooled], "Pool2DOptions", padding="VALID", strideW=1,
         strideH=1, filterHeight=9, filterWidth=7, fusedActivationFunction="NONE")
    path = tmp_path / "chain.tflite"
    path.write_bytes(b.build([x], [pooled]))
    # weights.format dense: a decode call would make a layer of two calls, no band
    m = module.convert(path, tmp_path / "m", keys={**M55, "memory.row_streaming": "least_ram",
                                                   "weights.format": "dense"})
    assert code(m).count(ROWS) == 2, "the 1x1 layers' bands do not take the triples' rows"
    total, diff = difftest.against_tflm(m, path, runs=2, seed=6, board="mps3-an547")
    assert total > 0 and diff == 0, f"{diff} of {total} bytes differ"


@pytest.mark.qemu
def test_output_over_input_at_the_lead_on_cortex_m55(tmp_path, monkeypatch):
    """Output over input (tests/test_overlap.py's conv1x1_c64_c64 layer,
    converted for the M55 so that it takes the entry): a triple's pixels
    are read again for every group of channels after the group before is
    written, so its lead covers three pixels read in place. At the planned
    lead the module is byte-equal; with the output on the input's first
    byte it is not."""
    from tests import test_overlap as ov
    monkeypatch.setenv("TINYAOT_TESTING", "1")
    model = ov.chain_model(tmp_path, "conv1x1_c64_c64", seed=1)
    m = ov.convert(tmp_path, model, "m", M55)
    assert code(m).count(ENTRY) == 1
    out, inp = ov.overlapping(m)
    assert inp["offset"] - out["offset"] >= out["overlaps"]["lead"]
    assert out["offset"] + out["size"] > inp["offset"]
    total, diff = ov.qemu_diff(m, model, "mps3-an547", runs=3)
    assert total > 0 and diff == 0, f"{diff} of {total} bytes differ at the lead"
    bad = ov.convert(tmp_path, model, "bad",
                     {**M55, "memory.overlap_test_shortfall": str(out["overlaps"]["below_by"])})
    _, diff = ov.qemu_diff(bad, model, "mps3-an547", runs=1)
    assert diff > 0, "the output on the input's first byte went unnoticed"
