"""The DSP 1x1 path's last three pixels of an odd run (triple_blocks in
runtime/kernels/ta_conv_2d_dsp.c: a filter at a time by three pixels, for
input depths of whole words up to TRIPLE_WORDS words; a row chain's bands
of five pixels end with them). Byte-equal to TFLite Micro on the Cortex-M4
board: right shifts and shifts of scales above 1/2 in one layer, clamped
activations, output depths off four, depths of whole chunks and of a
partial one, the longest depth it takes and one past it (the lone-pixel
path then)."""

import numpy as np
import pytest

from tests.gen.builder import ModelBuilder, Q
from tests.harness import difftest, module, oracle


def conv_model(path, in_shape, out_c, act, seed):
    """One 1x1 CONV_2D of stride 1 (the whole image one run of pixels),
    per-channel: every other channel's effective scale 0.6 (a shift of 0)
    over sparse weights of -1, 0 and 1 (sums that mostly stay inside int8),
    the others 0.05 over weights of -3 to 3."""
    rng = np.random.default_rng(seed)
    b = ModelBuilder()
    in_c = in_shape[-1]
    x = b.tensor(in_shape, "int8", Q(0.05, 3), name="input")
    out_scale = 0.01
    scales = [out_scale * (0.6 if o % 2 else 0.05) / 0.05 for o in range(out_c)]
    weights = rng.integers(-3, 4, [out_c, 1, 1, in_c])
    sparse = rng.integers(-1, 2, [out_c, 1, 1, in_c]) * (rng.random([out_c, 1, 1, in_c]) < 0.06)
    weights[1::2] = sparse[1::2]
    w = b.const(weights.astype(np.int8), "int8", Q(scales, [0] * out_c, axis=0), name="filter")
    bias = b.const(rng.integers(-40, 40, out_c).astype(np.int32), "int32",
                   Q([0.05 * s for s in scales], [0] * out_c, axis=0), name="bias")
    y = b.tensor([*in_shape[:3], out_c], "int8", Q(out_scale, -5), name="output")
    b.op("CONV_2D", [x, w, bias], [y], "Conv2DOptions", padding="SAME", strideW=1, strideH=1,
         fusedActivationFunction=act)
    path.write_bytes(b.build([x], [y]))
    return path


@pytest.mark.parametrize("in_shape,out_c,act", [
    ([1, 5, 5, 64], 64, "NONE"),    # the keyword spotter's 1x1 layers: 25 pixels
    ([1, 3, 3, 16], 9, "RELU6"),    # a chunk, clamped, a last block of one
    ([1, 1, 7, 40], 6, "RELU"),     # two chunks and two words
    ([1, 3, 1, 168], 4, "NONE"),    # 42 words: the longest it takes
    ([1, 3, 1, 172], 4, "NONE"),    # one word more: a pair and a lone pixel
])
def test_three_pixels_bit_exact_on_cortex_m4(tmp_path, in_shape, out_c, act):
    path = conv_model(tmp_path / "m.tflite", in_shape, out_c, act, seed=in_shape[-1])
    m = module.convert(path, tmp_path / "m")
    data = path.read_bytes()
    ins = oracle.random_inputs(data, np.random.default_rng(5), 2)
    board = "mps2-an386"
    outs, _ = module.run_qemu(m, module.build_qemu(m, board=board), ins, board=board)
    total, diff = difftest._count_diff(outs, oracle.run_tflm(data, ins, isolated=True))
    assert total > 0 and diff == 0, f"{diff} of {total} bytes differ"
