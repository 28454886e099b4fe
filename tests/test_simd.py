"""The Helium (Cortex-M55) and DSP (Cortex-M4) kernel paths against the
oracle: random generated single-operator models run under QEMU, outputs
byte-equal to TFLite Micro's interpreter on the host.

Two sets of cases: the operator suite's own variants of the operators with
SIMD code (small shapes: odd channel counts, size-1 dimensions, every
padding, stride and dilation the generator draws), and the SIMD variants of
tests/gen (variants.SIMD), which force the sizes where the kernels change
path: channel counts and depths at the lane counts and one either side
(1-65, up to 320 for dot products), vector tails, 1x1/3x3 kernels with
SAME borders, stride and dilation 2, per-channel quantization, for
CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, BATCH_MATMUL, SVDF, LSTM,
ADD/SUB/MUL/MAXIMUM/MINIMUM/SQUARED_DIFFERENCE, pooling, SOFTMAX,
LOGISTIC and TANH. The SIMD cases also run on the host (portable C path),
which the operator suite only draws at small sizes.

Cases share QEMU images, 240 to an image (tests/harness/batch.py).
TINYAOT_SIMD_SCALE multiplies the number of cases (default 1; `make
test-target-long` uses 5). A failing case is named '<variant>-s<seed>':
variants.ALL / variants.SIMD[variant].case(seed) draws it again.
"""

import os
import zlib

import numpy as np
import pytest

from tests.gen import variants
from tests.harness import batch, difftest, oracle

SCALE = int(os.environ.get("TINYAOT_SIMD_SCALE", "1"))
SMALL = {"CONV_2D.int8": 12, "CONV_2D.int8_deep": 8, "CONV_2D.int16": 8, "CONV_2D.int8_grouped": 8,
         "DEPTHWISE_CONV_2D.int8": 12, "DEPTHWISE_CONV_2D.int8_wide": 10, "DEPTHWISE_CONV_2D.int16": 8,
         "FULLY_CONNECTED.int8": 8, "FULLY_CONNECTED.int8_wide": 8,
         "FULLY_CONNECTED.int16": 6, "BATCH_MATMUL.int8": 4, "SVDF.int8": 4, "SVDF.int16": 4,
         "UNIDIRECTIONAL_SEQUENCE_LSTM.int8": 4, "CHAIN.conv_pool": 6, "CHAIN.dw_conv": 6,
         # the elementwise family's row loops and the pools' channel blocks
         "ADD.int8_rows": 4, "SUB.int8_rows": 3, "MUL.int8_rows": 4, "MAXIMUM.int8_rows": 3,
         "MINIMUM.int8_rows": 3, "SQUARED_DIFFERENCE.int8_rows": 3, "LESS.int8_rows": 3,
         "AVERAGE_POOL_2D.int8_channels": 4, "MAX_POOL_2D.int8_channels": 4,
         "LESS_EQUAL.int8": 2, "NOT_EQUAL.int8": 2, "GREATER.int8": 2,
         # a convolution fused with the ADD after it, piece by piece
         "RESIDUAL.conv_add": 6,
         # PAD row by row (ta_pad_rows_s8) and the layers a row chain runs with it
         "PAD.int8": 3, "CHAIN.pad_elementwise": 6, "CHAIN.broadcast_elementwise": 6,
         # the int16 FFT's DSP butterflies (both boards have SIMD32)
         "SIGNAL_RFFT.int16": 8, "SIGNAL_IRFFT.int16": 6}
# The kernels with most paths get more SIMD cases.
HEAVY = {"CONV_2D.int8_simd": 12, "CONV_2D.int8_dsp": 16, "CONV_2D.int16_simd": 8, "CONV_2D.int8_few_channels": 24,
         "DEPTHWISE_CONV_2D.int8_simd": 12, "DEPTHWISE_CONV_2D.int16_simd": 8,
         "DEPTHWISE_CONV_2D.int8_small_depth": 12,
         "FULLY_CONNECTED.int8_simd": 10, "FULLY_CONNECTED.int16_simd": 6,
         "RESIDUAL.conv_add_simd": 12, "CONV_2D.int8_long": 10,
         # border pixels left with one run of taps (input zero point 0)
         "CONV_2D.int8_zero_borders": 12, "CONV_2D.int8_pointwise_off4": 16,
         "CONV_2D.int8_pointwise_triples": 12}
OTHER_SIMD = 4
BOARDS = [("mps3-an547", "mps3_an547"), ("mps2-an386", "mps2_an386")]
IMAGE = 240  # cases per QEMU image (their constants share 2 MiB of MRAM on mps2-an386)

pytestmark = pytest.mark.qemu


def simd_cases():
    cases = []
    for name, v in variants.SIMD.items():
        cases += [v.case(seed) for seed in range(HEAVY.get(name, OTHER_SIMD) * SCALE)]
    return cases


def small_cases():
    return [variants.ALL[name].case(seed) for name, n in SMALL.items()
            for seed in range(n * SCALE)]


def runs_for(case):
    """A case's inputs, drawn from its name: the same on both boards and the
    host, so TFLite Micro runs each case once (expected)."""
    n = 4 if case.stateful else 2
    rng = np.random.default_rng([5, zlib.crc32(case.name.encode())])
    return oracle.random_inputs(case.model, rng, n)


_EXPECTED = {}


def expected(case):
    if case.name not in _EXPECTED:
        _EXPECTED[case.name] = oracle.run_tflm(case.model, runs_for(case), isolated=True)
    return _EXPECTED[case.name]


def check(cases, outputs):
    """outputs: i -> outputs per run (on runs_for(case)), or an error text.
    Returns (failures, bytes compared)."""
    bad, total = [], 0
    for i, case in enumerate(cases):
        ours = outputs(i)
        if isinstance(ours, str):
            bad.append(f"{case.name}: {ours[:300]}")
            continue
        n, d = difftest._count_diff(ours, expected(case))
        total += n
        if d:
            bad.append(f"{case.name}: {d} of {n} bytes differ; {case.config}")
    return bad, total


@pytest.mark.parametrize("board,target", BOARDS, ids=[b for b, _ in BOARDS])
def test_simd_paths_match_tflm(tmp_path, board, target):
    cases = small_cases() + simd_cases()
    # Every arena in the big RAM and constants in the read-only memory; the
    # cases share an image, IMAGE at a time.
    memories = [{"name": "PSRAM"}, {"name": "MRAM"}]
    bad, total = [], 0
    for start in range(0, len(cases), IMAGE):
        part = cases[start:start + IMAGE]
        b = batch.build_batch_qemu([(c.name, c.model) for c in part], tmp_path / f"i{start}",
                                   board, target, keys={"memory.constraints": memories})
        refused = [f"{part[i].name}: {e}" for i, e in b.errors.items()]
        assert not refused, "\n".join(refused[:5])

        results = batch.run_cases_qemu(b, [(i, runs_for(c)) for i, c in enumerate(part)])
        part_bad, part_total = check(part, results.get)
        bad += part_bad
        total += part_total
    assert total > 0 and not bad, f"{len(bad)} of {len(cases)} cases fail:\n" + "\n".join(bad[:8])


def test_simd_sizes_match_tflm_on_host(tmp_path):
    """The same SIMD-size cases through the portable C kernels."""
    cases = simd_cases()
    b = batch.build_batch([(c.name, c.model) for c in cases], tmp_path)
    refused = [f"{cases[i].name}: {e}" for i, e in b.errors.items()]
    assert not refused, "\n".join(refused[:5])
    results = batch.run_cases(b, [(i, runs_for(c)) for i, c in enumerate(cases)])
    bad, total = check(cases, results.get)
    assert total > 0 and not bad, f"{len(bad)} of {len(cases)} cases fail:\n" + "\n".join(bad[:8])
