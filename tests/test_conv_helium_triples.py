"""Helium's im2col convolution paths on the Cortex-M55 board under QEMU,
byte-equal to TFLite Micro: the three-pixel loop over patches of up to
TA_CONV_2D_TRIPLE_PATCH bytes (ta_conv_2d_triples_s8_mve: triple_sweep,
requantize_triple, the gathers of ta_conv_2d_gather_patches3; for one-row
filters the one-row entry, ta_conv_2d_s8_one_row: windows read in place,
a triple's columns gathered at the borders, patches across rows) and the
long filters' three-pixel loop (ta_conv_2d_long_triple_s8_mve: a whole
patch of up to LONG_TRIPLE_PIECE bytes gathered through
ta_conv_2d_gather_patch, longer ones a piece at a time).

Cases: 1-row inputs and 1xN filters (windows in place, outputs over
their inputs where the planner puts them: 1-row layers with more outputs
than inputs), SAME padding of even filters (one
tap more on the right and below than on the left and above), strides,
windows across every border, dilation, input and output depths off whole
chunks and blocks (a last partial block, a lone last pixel or two), patches
of exactly TA_CONV_2D_TRIPLE_PATCH and LONG_TRIPLE_PIECE bytes (the
sweeps read the first pixel's chunks one ahead), several groups of output
channels and an odd count of filter pairs, and
per-channel scales above 1/2 (a left shift in the layer: the whole-block
loops of requantize_triple and triple_requantize give those blocks to
requantize_triple_rest), with and without a clamp."""

import numpy as np
import pytest

from tests.gen.builder import ModelBuilder, Q
from tests.harness import difftest, module

BOARD = "mps3-an547"


def conv_model(path, in_shape, out_c, k, stride, padding, dilation=(1, 1), act="NONE",
               left_shifts=False, seed=0):
    """One CONV_2D over in_shape, per-channel scales; with left_shifts every
    third channel's effective scale is 0.7 (a shift of 0), the others' 1/80
    or so. Weights of -3 to 3, zero points off zero (padded taps then
    matter)."""
    rng = np.random.default_rng(seed)
    b = ModelBuilder()
    in_c = in_shape[-1]
    x = b.tensor(in_shape, "int8", Q(0.05, 3), name="input")
    out_scale = 0.02
    wscale = [(0.7 if left_shifts and o % 3 == 0 else 0.0125) * out_scale / 0.05
              for o in range(out_c)]
    w = b.const(rng.integers(-3, 4, [out_c, *k, in_c]).astype(np.int8), "int8",
                Q(wscale, [0] * out_c, axis=0), name="filter")
    bias = b.const(rng.integers(-500, 500, out_c).astype(np.int32), "int32",
                   Q([0.05 * s for s in wscale], [0] * out_c, axis=0), name="bias")

    def size(n, kk, s, d):
        span = (kk - 1) * d + 1
        return -(-n // s) if padding == "SAME" else (n - span) // s + 1

    oh = size(in_shape[1], k[0], stride[0], dilation[0])
    ow = size(in_shape[2], k[1], stride[1], dilation[1])
    y = b.tensor([1, oh, ow, out_c], "int8", Q(out_scale, -7), name="output")
    b.op("CONV_2D", [x, w, bias], [y], "Conv2DOptions", padding=padding, strideH=stride[0],
         strideW=stride[1], dilationHFactor=dilation[0], dilationWFactor=dilation[1],
         fusedActivationFunction=act)
    path.write_bytes(b.build([x], [y]))
    return path, oh * ow


# in shape, out channels, filter, stride, padding, dilation, activation, left shifts
CASES = {
    # 1-row input, 1x3 SAME: windows across both ends, a lone last pixel (49)
    "k1x3_row": ([1, 1, 49, 32], 32, (1, 3), (1, 1), "SAME", (1, 1), "NONE", False),
    # 1x4 SAME: one padded tap on the left, two on the right
    "k1x4_row_asym": ([1, 1, 23, 24], 24, (1, 4), (1, 1), "SAME", (1, 1), "RELU6", False),
    # 1x7 of stride 2 over a row, 64 channels: two groups of 32
    "k1x7_s2_row": ([1, 1, 49, 32], 64, (1, 7), (1, 2), "SAME", (1, 1), "NONE", False),
    # 20 input channels (taps off whole chunks), 28 outputs, left shifts
    "k1x7_c20_left": ([1, 1, 64, 20], 28, (1, 7), (1, 1), "SAME", (1, 1), "NONE", True),
    # 1x7 VALID over 20 channels: the last triple's windows inside the image but its
    # last chunk past the image's end (its columns gathered); triples across rows
    "k1x7_c20_valid_end": ([1, 3, 23, 20], 16, (1, 7), (1, 1), "VALID", (1, 1), "NONE", False),
    # a stride of 8 over 48 channels: a triple's columns too many for the buffer
    # (the interleaved entry: the patches gathered)
    "k1x3_s8_wide": ([1, 3, 40, 48], 16, (1, 3), (1, 8), "SAME", (1, 1), "NONE", False),
    # 7x1 over a 9x6 image: windows across the top and bottom, triples across rows
    "k7x1_rows": ([1, 9, 6, 32], 32, (7, 1), (1, 1), "SAME", (1, 1), "NONE", False),
    # 4x4 SAME (asymmetric both ways), odd output depth, a clamp, left shifts
    "k4x4_asym_odd": ([1, 7, 8, 12], 7, (4, 4), (1, 1), "SAME", (1, 1), "RELU", True),
    # 3x1 of stride 2x1, an output depth of 30 (a last partial block)
    "k3x1_s2_c30": ([1, 11, 5, 24], 30, (3, 1), (2, 1), "SAME", (1, 1), "NONE", False),
    # dilated 3x3 inside the triple patch
    "k3x3_d2": ([1, 9, 9, 16], 16, (3, 3), (1, 1), "SAME", (2, 2), "NONE", False),
    # long filters (more than 256 taps), one piece: windows inside, VALID
    "long_k8x8_valid": ([1, 14, 14, 8], 16, (8, 8), (1, 1), "VALID", (1, 1), "NONE", False),
    # long, SAME: windows across every border, 30 outputs, left shifts, clamp
    "long_k5x5_c30_left": ([1, 9, 7, 20], 30, (5, 5), (1, 1), "SAME", (1, 1), "RELU6", True),
    # long and dilated: one piece, through the dilated branches
    "long_k3x3_d2": ([1, 9, 10, 40], 16, (3, 3), (1, 1), "SAME", (2, 2), "NONE", False),
    # long filters of more than one piece (LONG_TRIPLE_PIECE 768): 1000 taps
    "long_k5x5_pieces": ([1, 8, 9, 40], 12, (5, 5), (1, 2), "SAME", (1, 1), "NONE", False),
    # a patch of exactly TA_CONV_2D_TRIPLE_PATCH (256) taps: the sweeps' read-ahead of the
    # first pixel's chunk ends at the second patch; 40 outputs, a group of 32 and one of 8
    "k1x8_full_patch": ([1, 5, 11, 32], 40, (1, 8), (1, 1), "SAME", (1, 1), "NONE", False),
    # 96 outputs: three groups, the requantization's stepped pointers across 8 blocks each
    "k3x3_c96": ([1, 6, 7, 16], 96, (3, 3), (1, 1), "SAME", (1, 1), "RELU6", False),
    # ten outputs: five pairs, the last one's block half padding
    "k3x3_c10": ([1, 8, 5, 12], 10, (3, 3), (1, 1), "SAME", (1, 1), "NONE", False),
    # a long filter of exactly one piece (768 taps)
    "long_k4x4_piece": ([1, 7, 7, 48], 20, (4, 4), (1, 1), "SAME", (1, 1), "NONE", False),
}


@pytest.mark.parametrize("name", list(CASES))
def test_helium_patch_paths_bit_exact_on_cortex_m55(tmp_path, name):
    in_shape, out_c, k, stride, padding, dilation, act, left = CASES[name]
    path, pixels = conv_model(tmp_path / "m.tflite", in_shape, out_c, k, stride, padding,
                              dilation, act, left, seed=len(name))
    m = module.convert(path, tmp_path / "m", keys={"platform.name": "mps3_an547"})
    code = "".join(p.read_text() for p in (tmp_path / "m" / "ops").glob("*.c"))
    taps = k[0] * k[1] * in_shape[-1]
    step = stride[1] * in_shape[-1]  # one-row windows' distance
    one_row = (k[0] == 1 and dilation[1] == 1 and taps <= 256 and step >= 8
               and 2 * step + taps + 16 <= 768)
    entry = ("ta_conv_2d_s8_long(" if taps > 256 else
             "ta_conv_2d_s8_one_row(" if one_row else "ta_conv_2d_s8_interleaved(")
    assert entry in code, f"the layer does not take {entry}"  # not the column entry
    total, diff = difftest.against_tflm(m, path, runs=2, seed=5, board=BOARD)
    assert total == 2 * pixels * out_c and diff == 0, f"{diff} of {total} bytes differ"


ONE_ROW = [n for n, c in CASES.items() if c[2][0] == 1 and c[2][1] > 1 and c[5] == (1, 1)]


@pytest.mark.parametrize("name", ONE_ROW)
def test_one_row_entry_on_the_host(tmp_path, name):
    """A module converted for the M55 built for the host: ta_conv_2d_s8_one_row
    without Helium runs the interleaved entry's portable patches."""
    in_shape, out_c, k, stride, padding, dilation, act, left = CASES[name]
    path, pixels = conv_model(tmp_path / "m.tflite", in_shape, out_c, k, stride, padding,
                              dilation, act, left, seed=len(name))
    m = module.convert(path, tmp_path / "m", keys={"platform.name": "mps3_an547"})
    total, diff = difftest.against_tflm(m, path, runs=2, seed=5)
    assert total == 2 * pixels * out_c and diff == 0, f"{diff} of {total} bytes differ"


def test_one_row_entry_in_a_row_chain_on_cortex_m55(tmp_path):
    """A 1x5 layer of 32 channels between a 3x3 and a 1x1 one, row-streamed
    (memory.row_streaming: least_ram): the one-row entry runs on bands of
    one output row, its windows read in place in the chain's row buffer.
    Weights over all of int8 (narrow ones would be stored compressed, and a
    decoded layer does not chain)."""
    rng = np.random.default_rng(11)
    b = ModelBuilder()
    x = b.tensor([1, 10, 16, 2], "int8", Q(0.05, 3), name="input")
    t, c, scale = x, 2, 0.05
    for i, (k, out_c) in enumerate([((3, 3), 32), ((1, 5), 32), ((1, 1), 2)]):
        ws = [0.0004 * 0.02 / scale * (1 + 0.1 * (j % 5)) for j in range(out_c)]
        w = b.const(rng.integers(-127, 128, [out_c, *k, c]).astype(np.int8), "int8",
                    Q(ws, [0] * out_c, axis=0), name=f"w{i}")
        bias = b.const(rng.integers(-300, 300, out_c).astype(np.int32), "int32",
                       Q([scale * s for s in ws], [0] * out_c, axis=0), name=f"b{i}")
        y = b.tensor([1, 10, 16, out_c], "int8", Q(0.02, -5 + i), name=f"y{i}")
        b.op("CONV_2D", [t, w, bias], [y], "Conv2DOptions", padding="SAME", strideH=1,
             strideW=1, fusedActivationFunction="NONE")
        t, c, scale = y, out_c, 0.02
    path = tmp_path / "m.tflite"
    path.write_bytes(b.build([x], [t]))
    m = module.convert(path, tmp_path / "m", keys={"platform.name": "mps3_an547",
                                                   "memory.row_streaming": "least_ram"})
    code = "".join(p.read_text() for p in (tmp_path / "m" / "ops").glob("*.c"))
    assert "ta_conv_2d_s8_one_row(" in code and "_row_steps[" in code, "no chained one-row layer"
    total, diff = difftest.against_tflm(m, path, runs=2, seed=5, board=BOARD)
    assert total == 2 * 10 * 16 * 2 and diff == 0, f"{diff} of {total} bytes differ"
