"""FULLY_CONNECTED's paired weights: a module converted for a core with the
DSP extension (and no Helium) lays int8 weights out in pairs of rows, a
byte of each in turn (the first row's sign bits flipped), the pairs two at
a time, an odd last row as it is, and calls ta_fully_connected_s8_words
(runtime/kernels/ta_fully_connected_words.h) for every int8 layer: one
SMLAD takes two inputs' weights of both rows, one LDM a group's words.

Its paths against TFLite Micro's interpreter: the DSP loops on the
Cortex-M4 under QEMU (depths of whole words, with a last partial word and
below one word; word counts of every residue modulo 8, which the loop of
four word pairs enters at different points; input rows off a word, which
take the one-word loop; groups, a last pair, an odd last row; per-tensor
and per-channel factors, left shifts, several batches) and the portable C
that a host build of such a module runs. The cases: the operator suite's
FULLY_CONNECTED variants, the SIMD sizes (depths 1-320, rows either side
of a group) and the compressed-weight forms, whose decoded weights are
the interleaved ones. The same cases converted for a core with neither
Helium nor DSP and built for the Cortex-M4 run ta_fully_connected_s8's
DSP rows loop on rows in order.
"""

import pathlib

import numpy as np
import pytest

from tests.gen import variants
from tests.harness import batch, module, oracle
# The Helium layout's cases, inputs and check: the same layers, another layout.
from tests.test_fc_interleaved import cases, check, runs_for

ROOT = pathlib.Path(__file__).resolve().parents[1]
DSP = {"platform.name": "mps2_an386"}


def kernels_called(tmp_path, name, keys, seed=0):
    case = variants.SIMD["FULLY_CONNECTED.int8_simd"].case(seed)
    path = tmp_path / f"{name}.tflite"
    path.write_bytes(case.model)
    m = module.convert(path, tmp_path / name, keys=keys)
    text = "".join(p.read_text() for p in (m.path / "ops").glob("*.c"))
    return [k for k in ("ta_fully_connected_s8_words(", "ta_fully_connected_s8_interleaved(",
                        "ta_fully_connected_s8(") if k in text]


def test_only_dsp_targets_interleave_words(tmp_path):
    """Every int8 layer on a DSP core, one of fewer rows than a group (seed
    1: one row) too: a module links one of the two row-major entries."""
    assert kernels_called(tmp_path, "m4", DSP) == ["ta_fully_connected_s8_words("]
    assert kernels_called(tmp_path, "m4_one_row", DSP, seed=1) == ["ta_fully_connected_s8_words("]
    assert kernels_called(tmp_path, "m55", {"platform.name": "mps3_an547"}) == [
        "ta_fully_connected_s8_interleaved("]
    assert kernels_called(tmp_path, "host", {"platform.name": "host"}) == [
        "ta_fully_connected_s8("]


def fc_shapes(model):
    """(rows, depth, batches) of every FULLY_CONNECTED in the model."""
    m = oracle._model_obj(model)
    shapes = []
    for sg in m.subgraphs:
        for op in sg.operators or []:
            if oracle._opcode_name(m, op.opcodeIndex) == "FULLY_CONNECTED":
                rows, depth = (int(n) for n in sg.tensors[op.inputs[1]].shape[:2])
                inputs = int(np.prod(sg.tensors[op.inputs[0]].shape))
                shapes.append((rows, depth, inputs // depth))
    return shapes


def test_cases_cover_the_layouts_edges():
    """The cases reach what the layout and the loops treat apart: depths of
    whole words, with a last partial word and under one word; word counts
    of every residue modulo 8; input rows off a word (a second batch row
    after a depth off four); groups with a last pair, an odd last row or
    both, and fewer rows than a group."""
    shapes = [s for c in cases() for s in fc_shapes(c.model)]
    depths = {d for _, d, _ in shapes}
    rows = {r for r, _, _ in shapes}
    assert {d % 4 for d in depths if d >= 4} == {0, 1, 2, 3}, sorted(depths)
    assert any(d < 4 for d in depths), sorted(depths)
    assert {d // 4 % 8 for d in depths} == set(range(8)), sorted(depths)
    assert any(b > 1 and d % 4 for _, d, b in shapes), shapes
    assert {r % 4 for r in rows if r >= 4} == {0, 1, 2, 3}, sorted(rows)
    assert any(r < 4 for r in rows), sorted(rows)


def test_words_portable_path_matches_tflm_on_host(tmp_path):
    all_cases = cases()
    b = batch.build_batch([(c.name, c.model) for c in all_cases], tmp_path, keys=DSP)
    assert not b.errors, b.errors
    check(all_cases, batch.run_cases(b, [(i, runs_for(c)) for i, c in enumerate(all_cases)]).get)


@pytest.mark.qemu
def test_words_dsp_path_matches_tflm_on_m4(tmp_path):
    all_cases = cases()
    b = batch.build_batch_qemu([(c.name, c.model) for c in all_cases], tmp_path, "mps2-an386",
                               "mps2_an386")
    assert not b.errors, b.errors
    check(all_cases,
          batch.run_cases_qemu(b, [(i, runs_for(c)) for i, c in enumerate(all_cases)]).get)


@pytest.mark.qemu
def test_rows_in_order_match_tflm_on_m4(tmp_path):
    """A module for a core with neither Helium nor DSP (the M4 board's
    target said to be a Cortex-M3) keeps the rows in order: built for the
    M4, its ta_fully_connected_s8 runs every row through the DSP rows
    loop, three a pass."""
    target = tmp_path / "m3_board.yaml"
    text = (ROOT / "targets" / "mps2_an386.yaml").read_text()
    assert "core: cortex-m4" in text
    target.write_text(text.replace("core: cortex-m4", "core: cortex-m3"))
    assert kernels_called(tmp_path, "m3", {"platform.name": str(target)}) == [
        "ta_fully_connected_s8("]
    all_cases = cases()
    b = batch.build_batch_qemu([(c.name, c.model) for c in all_cases], tmp_path / "cases",
                               "mps2-an386", str(target))
    assert not b.errors, b.errors
    check(all_cases,
          batch.run_cases_qemu(b, [(i, runs_for(c)) for i, c in enumerate(all_cases)]).get)
