"""FULLY_CONNECTED's interleaved weights: a module converted for a core with
Helium lays int8 weights out four rows at a time in 16-byte chunks and
calls ta_fully_connected_s8_interleaved (runtime/kernels/
ta_fully_connected.h); cores with the DSP extension interleave theirs a
word at a time (test_fc_words.py), others keep the rows as the model has
them.

Its paths against TFLite Micro's interpreter: the Helium loops on the
Cortex-M55 under QEMU (four chunks a pass when the depth is a multiple of
64 and the requantization per tensor, one otherwise, a last block of 1-3 rows, per-tensor left and right
shifts and per-channel factors) and the portable C that a host build of
such a module runs. The cases: the operator suite's FULLY_CONNECTED
variants, the SIMD sizes (depths 1-320, rows either side of a block) and
the compressed-weight forms, whose decoded weights are the interleaved
ones. The same cases converted for a core with neither Helium nor the DSP
extension and built for the Cortex-M55 run ta_fully_connected_s8's Helium
loop on rows in order.
"""

import pathlib
import zlib

import numpy as np
import pytest

from tests.gen import variants
from tests.harness import batch, difftest, module, oracle

ROOT = pathlib.Path(__file__).resolve().parents[1]
HELIUM = {"platform.name": "mps3_an547"}
IN_PSRAM_AND_MRAM = {"memory.constraints": [{"name": "PSRAM"}, {"name": "MRAM"}]}
COUNTS = {"FULLY_CONNECTED.int8": 12, "FULLY_CONNECTED.int8_wide": 10,
          "FULLY_CONNECTED.int8_simd": 24, "FULLY_CONNECTED.int8_big_sums": 4,
          "FULLY_CONNECTED.decode_huffman": 3, "FULLY_CONNECTED.decode_lut": 3,
          "FULLY_CONNECTED.decode_prune": 3, "FULLY_CONNECTED.clustered": 3}


def cases():
    every = {**variants.ALL, **variants.SIMD}
    return [every[name].case(seed) for name, n in COUNTS.items() for seed in range(n)]


def runs_for(case):
    rng = np.random.default_rng([23, zlib.crc32(case.name.encode())])
    return oracle.random_inputs(case.model, rng, 2)


def check(all_cases, outputs):
    bad, total = difftest.differing_cases(all_cases, outputs, runs_for)
    assert total > 0 and not bad, f"{len(bad)} of {len(all_cases)} fail:\n" + "\n".join(bad[:8])


def kernels_called(tmp_path, name, keys):
    case = variants.SIMD["FULLY_CONNECTED.int8_simd"].case(1)
    path = tmp_path / f"{name}.tflite"
    path.write_bytes(case.model)
    m = module.convert(path, tmp_path / name, keys=keys)
    text = "".join(p.read_text() for p in (m.path / "ops").glob("*.c"))
    return [k for k in ("ta_fully_connected_s8_interleaved(", "ta_fully_connected_s8(")
            if k in text]


def test_only_helium_targets_interleave(tmp_path):
    assert kernels_called(tmp_path, "m55", HELIUM) == ["ta_fully_connected_s8_interleaved("]
    assert kernels_called(tmp_path, "host", {"platform.name": "host"}) == [
        "ta_fully_connected_s8("]


def test_interleaved_portable_path_matches_tflm_on_host(tmp_path):
    all_cases = cases()
    b = batch.build_batch([(c.name, c.model) for c in all_cases], tmp_path, keys=HELIUM)
    assert not b.errors, b.errors
    check(all_cases, batch.run_cases(b, [(i, runs_for(c)) for i, c in enumerate(all_cases)]).get)


def m55_matches_tflm(tmp_path, target):
    all_cases = cases()
    b = batch.build_batch_qemu([(c.name, c.model) for c in all_cases], tmp_path, "mps3-an547",
                               target, keys=IN_PSRAM_AND_MRAM)
    assert not b.errors, b.errors
    check(all_cases,
          batch.run_cases_qemu(b, [(i, runs_for(c)) for i, c in enumerate(all_cases)]).get)


@pytest.mark.qemu
def test_interleaved_helium_path_matches_tflm_on_m55(tmp_path):
    m55_matches_tflm(tmp_path, "mps3_an547")


@pytest.mark.qemu
def test_rows_in_order_match_tflm_on_m55(tmp_path):
    """A module for a core with neither Helium nor the DSP extension (the
    M55 board's target said to be a Cortex-M3) keeps the rows in order:
    built for the M55, it runs ta_fully_connected_s8's own Helium loop."""
    target = tmp_path / "m3_board.yaml"
    text = (ROOT / "targets" / "mps3_an547.yaml").read_text()
    assert "core: cortex-m55" in text
    target.write_text(text.replace("core: cortex-m55", "core: cortex-m3"))
    m55_matches_tflm(tmp_path / "cases", str(target))
