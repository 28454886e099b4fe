"""The DSP convolution's three-pixel loop (triple_pass in
runtime/kernels/ta_conv_2d_dsp.c: every channel pair of three pixels
widened interleaved, in one assembly function, requantized there by
SMMLAR) and what it leaves to the pair loop, byte-equal to TFLite Micro on
the Cortex-M4 board. 1x1 runs (run_pairs) of 3k, 3k + 1 (the last four as
two pairs) and 3k + 2 pixels, of 7 (one triple and two pairs) and 4 (no
triple); im2col patches (ta_conv_2d_patch_pairs_s8_dsp) inside the image
(widened straight from the input) and at its borders (gathered: triples
of gathered and direct windows), dilated (all gathered), strided, 1x7
valid; patches with a partial last chunk; the longest input triple_pass
takes (160 bytes) and the next whole chunk (pairs); output depths of one
pass and of two uneven ones (6, 10); odd output depths (pairs only; a
depth of 3); the layout's last four as two pairs (10 and 7 pixels);
clamped activations; a shift of -23. Long filters
(ta_conv_2d_long_triples_s8_dsp, long_triple_pass): two and three pieces,
one to three groups of channels, passes of uneven pairs, 1x7 valid, odd
output depths (the last channel paired with its block's padding: in pass 1,
and in pass 0 of a third group, clamped); and the layers whose sums it
leaves to C to requantize (a left shift: one and two groups, odd)."""

import pytest

from tests.harness import difftest, module
from tests.test_conv_dsp_pairs import conv_model


# name: (input shape, kh, kw, output depth, activation, extra conv_model keys)
CASES = {
    "1x1_9_pixels": ([1, 3, 3, 16], 1, 1, 8, "NONE", {}),
    "1x1_10_pixels_relu": ([1, 2, 5, 32], 1, 1, 6, "RELU", {}),
    "1x1_10_pixels_odd_depth": ([1, 2, 5, 32], 1, 1, 7, "RELU", {}),
    "1x1_11_pixels_relu6": ([1, 1, 11, 48], 1, 1, 10, "RELU6", {}),
    "1x1_7_pixels": ([1, 1, 7, 16], 1, 1, 4, "NONE", {}),
    "1x1_7_pixels_depth_3": ([1, 1, 7, 16], 1, 1, 3, "NONE", {}),
    "1x1_4_pixels": ([1, 2, 2, 16], 1, 1, 6, "NONE", {}),
    "1x1_160_bytes": ([1, 2, 3, 160], 1, 1, 6, "NONE", {}),
    "1x1_176_bytes": ([1, 2, 3, 176], 1, 1, 6, "NONE", {}),
    "1x1_shift_of_23": ([1, 3, 3, 16], 1, 1, 8, "NONE", {"scale": 1.5 * 2.0 ** -24}),
    "3x3_borders_partial_chunk": ([1, 5, 7, 12], 3, 3, 10, "RELU", {}),
    "3x3_borders_odd_depth": ([1, 5, 7, 12], 3, 3, 9, "RELU", {}),
    "3x3_whole_chunks_relu6": ([1, 6, 6, 16], 3, 3, 16, "RELU6", {}),
    "3x3_dilated": ([1, 7, 7, 16], 3, 3, 6, "NONE", {"dilation": 2}),
    "3x3_stride_2": ([1, 9, 9, 16], 3, 3, 8, "NONE", {"stride": 2}),
    "1x7_valid": ([1, 1, 20, 20], 1, 7, 12, "RELU", {"padding": "VALID"}),
    # long filters (over 256 bytes): pieces of 160 bytes, sums kept across them
    "long_3x3x32_two_pieces": ([1, 6, 6, 32], 3, 3, 8, "RELU", {}),
    "long_5x5x16_three_pieces_two_groups": ([1, 5, 5, 16], 5, 5, 64, "NONE", {}),
    "long_three_groups_relu6": ([1, 4, 4, 32], 3, 3, 70, "RELU6", {}),
    "long_1x7_valid": ([1, 3, 12, 48], 1, 7, 10, "NONE", {"padding": "VALID"}),
    "long_odd_depth": ([1, 4, 5, 32], 3, 3, 7, "NONE", {}),
    "long_odd_depth_third_group_relu": ([1, 4, 5, 32], 3, 3, 65, "RELU", {}),
    "long_depth_1": ([1, 3, 4, 20], 5, 5, 1, "RELU6", {}),
    "long_left_shift": ([1, 4, 5, 32], 3, 3, 8, "NONE", {"scale": 1.7}),
    "long_left_shift_two_groups_odd_relu": ([1, 4, 5, 32], 3, 3, 35, "RELU", {"scale": 1.7}),
}


@pytest.mark.qemu
@pytest.mark.parametrize("name", list(CASES))
def test_triple_pass_bit_exact_on_cortex_m4(tmp_path, name):
    in_shape, kh, kw, out_c, act, extra = CASES[name]
    path = conv_model(tmp_path / "m.tflite", in_shape, kh, kw, out_c, act, seed=len(name),
                      **extra)
    m = module.convert(path, tmp_path / "m", keys={"weights.format": "dense"})
    total, diff = difftest.against_tflm(m, path, seed=3, board="mps2-an386")
    assert total > 0 and diff == 0, f"{diff} of {total} bytes differ"
