"""The DSP convolution's pair loop (pair_pass in
runtime/kernels/ta_conv_2d_dsp.c: every channel pair of two pixels in one
assembly loop, requantized there by SMMLAR) and what it leaves to
one_pixel_blocks, byte-equal to TFLite Micro on the Cortex-M4 board: 1x1
and 3x3 layers (windows inside the image widened two at a time, border
windows gathered) over depths of whole chunks, of a chunk and one to three
words, of words only; output depths of one pass, of two uneven passes and
odd ones (the last channel's block by one_pixel_blocks); clamped
activations; a shift of -23 (the largest rounding constant pair_pass
takes) and the layers pair_pass_init refuses: a shift below -23, a left
shift, a bias sum past 2^29 (every block by one_pixel_blocks)."""

import numpy as np
import pytest

from tests.gen.builder import ModelBuilder, Q
from tests.harness import difftest, module


def conv_model(path, in_shape, kh, kw, out_c, act, seed, padding="SAME", stride=1,
               dilation=1, scale=0.01, bias_max=40):
    """One CONV_2D (kh x kw, per-channel) of weights -3 to 3; `scale`: the
    first channel's effective output scale (the others 0.01 and 0.3 in
    turn: right shifts, which pair_pass and triple_pass need); bias_max:
    biases in [-bias_max, bias_max). tests/test_conv_dsp_triple_pass.py
    uses it too."""
    rng = np.random.default_rng(seed)
    b = ModelBuilder()
    in_c = in_shape[-1]
    x = b.tensor(in_shape, "int8", Q(0.05, 3), name="input")
    out_scale = 0.02
    eff = [scale] + [0.01 if o % 2 else 0.3 for o in range(1, out_c)]
    w_scales = [e * out_scale / 0.05 for e in eff]
    w = b.const(rng.integers(-3, 4, [out_c, kh, kw, in_c]).astype(np.int8), "int8",
                Q(w_scales, [0] * out_c, axis=0), name="filter")
    bias = b.const(rng.integers(-bias_max, bias_max, out_c).astype(np.int32), "int32",
                   Q([0.05 * s for s in w_scales], [0] * out_c, axis=0), name="bias")
    if padding == "SAME":
        oh, ow = -(-in_shape[1] // stride), -(-in_shape[2] // stride)
    else:
        oh = (in_shape[1] - (kh - 1) * dilation - 1) // stride + 1
        ow = (in_shape[2] - (kw - 1) * dilation - 1) // stride + 1
    y = b.tensor([1, oh, ow, out_c], "int8", Q(out_scale, -5), name="output")
    b.op("CONV_2D", [x, w, bias], [y], "Conv2DOptions", padding=padding, strideW=stride,
         strideH=stride, dilationWFactor=dilation, dilationHFactor=dilation,
         fusedActivationFunction=act)
    path.write_bytes(b.build([x], [y]))
    return path


CASES = {
    "1x1_chunk_and_two_words_two_passes_relu6": ([1, 6, 7, 24], 1, 10, "RELU6", {}),
    "1x1_three_words_one_pair": ([1, 5, 6, 12], 1, 2, "NONE", {}),
    "1x1_one_word_odd_channels": ([1, 4, 6, 4], 1, 7, "RELU", {}),
    "1x1_whole_chunks": ([1, 4, 8, 32], 1, 16, "NONE", {}),
    "3x3_chunks_and_words_odd_channels": ([1, 7, 9, 8], 3, 5, "NONE", {}),
    "3x3_whole_chunks_clamped": ([1, 6, 8, 16], 3, 12, "RELU", {}),
    "shift_of_23": ([1, 4, 6, 16], 1, 8, "NONE", {"scale": 1.5 * 2.0 ** -24}),
    "shift_below_23": ([1, 4, 6, 16], 1, 8, "NONE", {"scale": 1.5 * 2.0 ** -25}),
    "left_shift": ([1, 5, 5, 8], 3, 8, "NONE", {"scale": 1.7}),
    "bias_past_2_29": ([1, 4, 6, 16], 1, 8, "NONE", {"bias_max": 1 << 30}),
}


@pytest.mark.qemu
@pytest.mark.parametrize("name", list(CASES))
def test_pairs_bit_exact_on_cortex_m4(tmp_path, name):
    in_shape, k, out_c, act, extra = CASES[name]
    path = conv_model(tmp_path / "m.tflite", in_shape, k, k, out_c, act, seed=len(name),
                      **extra)
    m = module.convert(path, tmp_path / "m", keys={"weights.format": "dense"})
    total, diff = difftest.against_tflm(m, path, seed=7, board="mps2-an386")
    assert total > 0 and diff == 0, f"{diff} of {total} bytes differ"
