"""The DSP 1x1 path in a row chain's bands of an odd width
(ta_conv_2d_s8_pointwise_rows: one run of the band's pixels, three at
a time by triple_pass in runtime/kernels/ta_conv_2d_dsp.c where it takes
the layer, the one, two or four left in pairs, else pairs and a lone
pixel), so each model here is a 3x3 convolution from 2 channels feeding
the 1x1 layer, which narrows the depth again, then a global average pool
(the keyword spotter's chain), converted with memory.row_streaming
least_ram: bands of one row of 3, 5 or 7 pixels. Byte-equal to TFLite
Micro on the Cortex-M4 board: right shifts and shifts of scales above 1/2
in one layer (which pair_pass_init and so triple_pass refuse: pairs and a
lone pixel), clamped activations, output depths off four (a last block of
three: of one or two, these depths go to ta_conv_2d_s8_pointwise_off4, no
band), depths of whole chunks and of a partial one, 168 and 172 bytes.
tests/test_conv_dsp_triple_pass.py drives triple_pass itself."""

import numpy as np
import pytest

from tests.gen.builder import ModelBuilder, Q
from tests.harness import difftest, module


def conv_model(path, in_shape, out_c, act, seed):
    """A 3x3 CONV_2D (SAME, 2 input channels, weights of -2 to 2) to
    in_shape, the 1x1 CONV_2D of stride 1 under test, then AVERAGE_POOL_2D
    over the whole image. The 1x1 layer is per-channel: every other
    channel's effective scale 0.6 (a shift of 0) over sparse weights of
    -1, 0 and 1 (sums that mostly stay inside int8), the others 0.05 over
    weights of -3 to 3."""
    rng = np.random.default_rng(seed)
    b = ModelBuilder()
    in_c = in_shape[-1]
    x = b.tensor([*in_shape[:3], 2], "int8", Q(0.05, 3), name="input")
    first_w = b.const(rng.integers(-2, 3, [in_c, 3, 3, 2]).astype(np.int8), "int8",
                      Q([0.05] * in_c, [0] * in_c, axis=0), name="first_filter")
    first_b = b.const(rng.integers(-20, 20, in_c).astype(np.int32), "int32",
                      Q([0.0025] * in_c, [0] * in_c, axis=0), name="first_bias")
    d = b.tensor(in_shape, "int8", Q(0.05, 3), name="first")
    b.op("CONV_2D", [x, first_w, first_b], [d], "Conv2DOptions", padding="SAME", strideW=1,
         strideH=1, fusedActivationFunction="NONE")
    out_scale = 0.01
    scales = [out_scale * (0.6 if o % 2 else 0.05) / 0.05 for o in range(out_c)]
    weights = rng.integers(-3, 4, [out_c, 1, 1, in_c])
    sparse = rng.integers(-1, 2, [out_c, 1, 1, in_c]) * (rng.random([out_c, 1, 1, in_c]) < 0.06)
    weights[1::2] = sparse[1::2]
    w = b.const(weights.astype(np.int8), "int8", Q(scales, [0] * out_c, axis=0), name="filter")
    bias = b.const(rng.integers(-40, 40, out_c).astype(np.int32), "int32",
                   Q([0.05 * s for s in scales], [0] * out_c, axis=0), name="bias")
    y = b.tensor([*in_shape[:3], out_c], "int8", Q(out_scale, -5), name="output")
    b.op("CONV_2D", [d, w, bias], [y], "Conv2DOptions", padding="SAME", strideW=1, strideH=1,
         fusedActivationFunction=act)
    pooled = b.tensor([1, 1, 1, out_c], "int8", Q(out_scale, -5), name="pooled")
    b.op("AVERAGE_POOL_2D", [y], [pooled], "Pool2DOptions", padding="VALID", strideW=1,
         strideH=1, filterHeight=in_shape[1], filterWidth=in_shape[2],
         fusedActivationFunction="NONE")
    path.write_bytes(b.build([x], [pooled]))
    return path


@pytest.mark.parametrize("in_shape,out_c,act", [
    ([1, 9, 5, 64], 16, "NONE"),    # the keyword spotter's 1x1 depth: rows of 5 pixels
    ([1, 9, 3, 48], 11, "RELU6"),   # three chunks, clamped, a last block of three
    ([1, 9, 7, 40], 7, "RELU"),     # two chunks and two words, a last block of three
    ([1, 9, 3, 168], 4, "NONE"),    # 42 words
    ([1, 9, 3, 172], 4, "NONE"),    # 43 words
])
def test_three_pixels_bit_exact_on_cortex_m4(tmp_path, in_shape, out_c, act):
    path = conv_model(tmp_path / "m.tflite", in_shape, out_c, act, seed=in_shape[-1])
    # weights.format dense: tables or Huffman codes of these few weight
    # values would add a decode call, and a layer of two calls is no band;
    # SPARSE_CHANNELS off: it would drop the input channels that no
    # nonzero weight reads, and a depth off whole words takes no triple
    m = module.convert(path, tmp_path / "m",
                       keys={"memory.row_streaming": "least_ram", "weights.format": "dense",
                             "transforms": "{SPARSE_CHANNELS: false}"})
    code = "".join(p.read_text() for p in (tmp_path / "m" / "ops").glob("*.c"))
    assert "ta_conv_2d_s8_pointwise_rows(" in code, "the 1x1 layer is not a band"
    total, diff = difftest.against_tflm(m, path, seed=5, board="mps2-an386")
    assert total > 0 and diff == 0, f"{diff} of {total} bytes differ"
