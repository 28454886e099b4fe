"""The audio front end's Signal kernels (runtime/kernels/ta_signal_*.c) on
inputs that reach their edges, against TFLite Micro's interpreter: the
shared tflm_audio_preprocessor_int8 (window, FFT auto-scale, real FFT,
energy, filter bank, its square root, spectral subtraction, PCAN, log) on
the Cortex-M55 and the Cortex-M4 under QEMU and on the host, fourteen runs
in a row on one instance (the noise estimate carries over):

- full-scale noise, where the filter bank's sums pass 2^32 and its square
  root takes the FPU's estimate on both boards;
- samples of -32768, which FFT auto-scale's MaxAbs16 keeps as -32768 (the
  sample-by-sample path) where the window passes them whole, alone, at
  the ends and in runs;
- silence, a single spike, a square wave, small values (scale shifts of
  up to 15), small values of one sign, and a frame of -32768 only."""

import pathlib
import zlib

import numpy as np
import pytest

from tests.harness import batch, difftest, oracle

ROOT = pathlib.Path(__file__).resolve().parents[1]
MODEL = ROOT.parent / "shared" / "models" / "tflm_audio_preprocessor_int8.tflite"


class _Case:
    """The shared model as a batch case (tests/harness/difftest.py)."""

    name = "audio_preprocessor_edges"
    stateful = True
    config = {}

    def __init__(self):
        self.model = MODEL.read_bytes()


def runs_for(case):
    rng = np.random.default_rng([61, zlib.crc32(case.name.encode())])
    shape = oracle.random_inputs(case.model, rng, 1)[0][0].shape
    size = int(np.prod(shape))
    frames = []
    noise = rng.integers(-32768, 32768, size=size)
    frames.append(noise)
    lows = noise.copy()
    lows[[0, size // 2, size - 1]] = -32768
    frames.append(lows)
    runs_of = noise.copy()
    runs_of[100:140] = -32768
    frames.append(runs_of)
    frames.append(np.zeros(size, dtype=np.int64))
    spike = np.zeros(size, dtype=np.int64)
    spike[size // 3] = 32767
    frames.append(spike)
    frames.append(np.where(np.arange(size) % 16 < 8, 30000, -30000))
    frames.append(rng.integers(-3, 4, size=size))
    # the largest magnitude on one side only
    frames.append(rng.integers(0, 60, size=size))
    frames.append(-rng.integers(0, 60, size=size))
    frames.append(np.full(size, -32768))
    # -32768 where the window's weight is 1 (the middle) reaches the
    # auto-scale as -32768: MaxAbs16 then follows the small values after it
    lone = rng.integers(-3, 4, size=size)
    lone[size // 2 - 1:size // 2 + 1] = -32768
    frames.append(lone)
    frames += [rng.integers(-32768, 32768, size=size) for _ in range(3)]
    dtype = oracle.random_inputs(case.model, rng, 1)[0][0].dtype
    return [[f.astype(dtype).reshape(shape)] for f in frames]


def check(cases, outputs):
    bad, total = difftest.differing_cases(cases, outputs, runs_for)
    assert total > 0 and not bad, "\n".join(bad)


def test_signal_frontend_matches_tflm_on_host(tmp_path):
    cases = [_Case()]
    b = batch.build_batch([(c.name, c.model) for c in cases], tmp_path,
                          keys={"platform.name": "mps2_an386"})
    assert not b.errors, b.errors
    check(cases, batch.run_cases(b, [(0, runs_for(cases[0]))]).get)


@pytest.mark.qemu
@pytest.mark.parametrize("board,target", [("mps3-an547", "mps3_an547"),
                                          ("mps2-an386", "mps2_an386")])
def test_signal_frontend_matches_tflm_on_target(tmp_path, board, target):
    cases = [_Case()]
    b = batch.build_batch_qemu([(c.name, c.model) for c in cases], tmp_path, board, target)
    assert not b.errors, b.errors
    check(cases, batch.run_cases_qemu(b, [(0, runs_for(cases[0]))]).get)
