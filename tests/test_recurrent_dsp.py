"""SVDF's and UNIDIRECTIONAL_SEQUENCE_LSTM's paths on cores with the DSP
extension (runtime/kernels/ta_svdf.c, ta_lstm.c) against TFLite Micro's
interpreter, on the Cortex-M4 under QEMU and in the portable C a host
build runs:

- SVDF: the rank-1 outputs loop, whose rows of whole words (memory a
  multiple of 4 int8 or 2 int16 values) walk the time weights and the
  state with two pointers, others through the general dot products; one
  SMMULR for sums under 2^30 in magnitude, the 64-bit rounding past them;
  the feature requantization's SMMULR after a left shift or before a
  right one; rank 2 through the general loop.
- LSTM: each gate's groups of four rows requantized by SMMULR when every
  sum of the group is under 2^30 in magnitude, the 64-bit rounding
  otherwise; the cell and hidden updates by SMMULR.

Each case runs four times in a row (the state carries over)."""

import zlib

import numpy as np
import pytest

from tests.gen import variants
from tests.harness import batch, difftest, oracle

M4 = "mps2_an386"
COUNTS = {"SVDF.int8": 14, "SVDF.int16": 14, "SVDF.int8_simd": 6, "SVDF.int16_simd": 6,
          "SVDF.int8_big_sums": 8, "SVDF.int16_big_sums": 8,
          "UNIDIRECTIONAL_SEQUENCE_LSTM.int8": 8, "UNIDIRECTIONAL_SEQUENCE_LSTM.int8_simd": 6,
          "UNIDIRECTIONAL_SEQUENCE_LSTM.int8_big_sums": 6}


def cases():
    every = {**variants.ALL, **variants.SIMD}
    return [every[name].case(seed) for name, n in COUNTS.items() for seed in range(n)]


def runs_for(case):
    rng = np.random.default_rng([41, zlib.crc32(case.name.encode())])
    return oracle.random_inputs(case.model, rng, 4)


def check(all_cases, outputs):
    bad, total = difftest.differing_cases(all_cases, outputs, runs_for)
    assert total > 0 and not bad, f"{len(bad)} of {len(all_cases)} fail:\n" + "\n".join(bad[:8])


def whole_words(config):
    word = 4 if config["state_dtype"] == "int8" else 2
    return config["memory_size"] % word == 0


def test_cases_cover_the_paths():
    """The SVDF cases reach rank 1 with rows of whole words and without, for
    both state types, and rank 2."""
    svdf = [c.config for c in cases() if c.op == "SVDF"]
    for dtype in ("int8", "int16"):
        rank1 = [c for c in svdf if c["rank"] == 1 and c["state_dtype"] == dtype]
        assert {whole_words(c) for c in rank1} == {True, False}, dtype
    assert any(c["rank"] == 2 for c in svdf)


def test_recurrent_portable_paths_match_tflm_on_host(tmp_path):
    all_cases = cases()
    b = batch.build_batch([(c.name, c.model) for c in all_cases], tmp_path,
                          keys={"platform.name": M4})
    assert not b.errors, b.errors
    check(all_cases, batch.run_cases(b, [(i, runs_for(c)) for i, c in enumerate(all_cases)]).get)


@pytest.mark.qemu
def test_recurrent_dsp_paths_match_tflm_on_m4(tmp_path):
    all_cases = cases()
    b = batch.build_batch_qemu([(c.name, c.model) for c in all_cases], tmp_path, "mps2-an386", M4)
    assert not b.errors, b.errors
    check(all_cases,
          batch.run_cases_qemu(b, [(i, runs_for(c)) for i, c in enumerate(all_cases)]).get)
