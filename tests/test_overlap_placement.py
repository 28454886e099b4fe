"""Placement, spilling and budgets with overlapping scratch plans (docs/placement.md,
"Memory below the lower bound"): a memory whose budget holds the planner's
arena (outputs over inputs) but not the whole tensors apart takes every
scratch tensor; one byte less fails with one line naming what does not
fit; rules pinning a tensor and staged constants keep working. Each
module is bit-exact with TFLite Micro on the host."""

import json
import subprocess

import numpy as np

from tests.harness import difftest, module, oracle

KWS = module.MODELS / "mlperf_tiny_kws_ref_model.tflite"
# kws's scratch arena with the overlap (row chains off: by default its
# chain takes 4,976 bytes, docs/row-streaming.md), and its whole-tensor
# lower bound.
KWS_SCRATCH = 8768
KWS_BOUND = 16000
KWS_CONSTANTS = 31536  # on the host, constants share the one memory (DRAM)


def convert(tmp_path, name, yaml_text):
    cfg = tmp_path / f"{name}.yaml"
    cfg.write_text(yaml_text)
    m = module.convert(KWS, tmp_path / name, prefix="m", config=cfg,
                       keys={"memory.dump_residency_json": "true", "memory.row_streaming": "off"})
    m.residency = json.loads((m.path / "m_residency.json").read_text())
    return m


def bit_exact(m, runs=2):
    exe = module.build(m)
    data = KWS.read_bytes()
    ins = oracle.random_inputs(data, np.random.default_rng(3), runs)
    total, diff = difftest._count_diff(module.run(m, exe, ins),
                                       oracle.run_tflm(data, ins, isolated=True))
    return total > 0 and diff == 0


def regions(m, memory):
    return [r for r in m.residency["regions"] if r["memory"] == memory]


def analyze(*args):
    return subprocess.run([module.tinyaot_bin(), "analyze", "--model.path", str(KWS),
                           "--memory.row_streaming", "off", *args],
                          capture_output=True, text=True)


def error_lines(p):
    return [line for line in p.stderr.splitlines() if "error" in line]


def constraints(dtcm, *others):
    rest = "".join(f"    - {{name: {o}}}\n" for o in others)
    return ("platform: {name: apollo510_evb}\nmemory:\n  constraints:\n"
            f"    - {{name: DTCM, max_size: {dtcm}}}\n{rest}")


def test_a_budget_that_holds_only_the_overlapping_plan_takes_every_scratch_tensor(tmp_path):
    m = convert(tmp_path, "m", constraints(KWS_SCRATCH, "MRAM"))
    (scratch,) = [r for r in regions(m, "DTCM") if r["role"] == "scratch"]
    assert scratch["size"] == KWS_SCRATCH < scratch["lower_bound"] == KWS_BOUND
    assert any(t.get("overlaps") for t in m.residency["tensors"])
    assert bit_exact(m)


def test_one_byte_less_fails_naming_the_tensor_that_does_not_fit():
    p = analyze("--platform.name", "apollo510_evb", "--memory.constraints",
                f"[{{name: DTCM, max_size: {KWS_SCRATCH - 1}}}, {{name: MRAM}}]")
    assert p.returncode != 0
    lines = error_lines(p)
    assert len(lines) == 1, p.stderr
    assert lines[0] == (
        "tinyaot: error: tensor 27 fits in no usable memory (scratch; 27 needs 8000 bytes "
        f"where DTCM has 127 of {KWS_SCRATCH - 1} bytes free); set "
        f"memory.constraints[0].max_size (DTCM) to at least {KWS_SCRATCH}, the smallest that "
        "fits"), lines[0]


def test_the_host_budget_counts_the_overlapping_plan(tmp_path):
    # One memory holds constants and scratch: the budget fits them exactly.
    budget = KWS_SCRATCH + KWS_CONSTANTS
    cfg = tmp_path / "host.yaml"
    cfg.write_text(f"memory:\n  constraints:\n    - {{name: DRAM, max_size: {budget}}}\n")
    m = module.convert(KWS, tmp_path / "m", prefix="m", config=cfg,
                       keys={"memory.dump_residency_json": "true", "memory.row_streaming": "off"})
    residency = json.loads((m.path / "m_residency.json").read_text())
    dram = [u for u in residency["memories"] if u["name"] == "DRAM"][0]
    assert dram["used"] == budget, dram
    assert bit_exact(m)
    p = analyze("--memory.constraints", f"[{{name: DRAM, max_size: {budget - 1}}}]")
    assert p.returncode != 0 and len(error_lines(p)) == 1, p.stderr
    assert "fits in no usable memory" in p.stderr


def test_nothing_spills_to_a_slower_memory_when_the_plan_fits(tmp_path):
    m = convert(tmp_path, "m", constraints(9000, "SRAM", "MRAM"))
    memories = {t["memory"] for t in m.residency["tensors"] if t["kind"] == "scratch"}
    assert memories == {"DTCM"}, memories
    assert not [r for r in regions(m, "SRAM") if r["size"]]
    assert bit_exact(m)


def test_a_tensor_pinned_elsewhere_leaves_the_rest_overlapping(tmp_path):
    m = convert(tmp_path, "m", constraints(9000, "SRAM", "MRAM") +
                "  tensors:\n    - id: '25'\n      attributes: {memory: SRAM}\n")
    rows = {t["id"]: t for t in m.residency["tensors"]}
    assert rows["25"]["memory"] == "SRAM"
    # Its neighbours in the chain do not overlap it: they are in DTCM.
    assert all(t["overlaps"]["tensor"] != "25" for t in rows.values() if t.get("overlaps"))
    assert rows["25"].get("overlaps") is None
    (scratch,) = [r for r in regions(m, "DTCM") if r["role"] == "scratch"]
    assert scratch["size"] <= 9000 < scratch["lower_bound"]
    assert bit_exact(m)


def test_staged_constants_share_the_budget_with_the_overlapping_plan(tmp_path):
    # Constant 5 (576 bytes) is copied into DTCM at init, beside the arena.
    staged = 576
    m = convert(tmp_path, "m", constraints(KWS_SCRATCH + staged, "MRAM") +
                "  tensors:\n    - id: '5'\n"
                "      attributes: {memory: MRAM, constant_destination_memory: DTCM}\n")
    dtcm = {r["role"] + ("_staged" if r["staged"] else ""): r for r in regions(m, "DTCM")}
    assert dtcm["scratch"]["size"] == KWS_SCRATCH
    assert dtcm["constant_staged"]["size"] == staged
    assert bit_exact(m)
