"""Differential testing: a converted module against TFLite Micro and LiteRT.

    report = difftest.compare_model(model_bytes_or_path, workdir, n_runs=100, seed=1)
    report.diff["tflm"]      # differing output bytes against TFLite Micro
    report.diff["litert"]    # ... against LiteRT (None when LiteRT cannot run it)

Every run's every output byte is compared. The runs follow each other on one
interpreter and one module instance, so stateful models are compared over
sequences.
"""

import dataclasses
import pathlib

import numpy as np

from tests.harness import module, oracle


@dataclasses.dataclass
class Report:
    name: str
    runs: int
    bytes: int
    diff: dict
    notes: str = ""


def _count_diff(a_runs, b_runs):
    total = diff = 0
    for a_outs, b_outs in zip(a_runs, b_runs):
        for a, b in zip(a_outs, b_outs):
            a = np.ascontiguousarray(a)
            b = np.ascontiguousarray(b).astype(a.dtype, copy=False)
            if a.shape != b.shape and a.size == b.size:
                b = b.reshape(a.shape)
            ab = a.view(np.uint8).reshape(-1)
            bb = b.view(np.uint8).reshape(-1)
            total += ab.size
            diff += int(np.count_nonzero(ab != bb)) if ab.size == bb.size else ab.size
    return total, diff


def against_tflm(m, model, runs=2, seed=7, board=None):
    """(bytes compared, bytes that differ) of module m's outputs against
    TFLite Micro's for `runs` random inputs of the .tflite at `model`: built
    for and run on QEMU's `board`, or on the host when board is None."""
    data = pathlib.Path(model).read_bytes()
    ins = oracle.random_inputs(data, np.random.default_rng(seed), runs)
    if board:
        outs, _ = module.run_qemu(m, module.build_qemu(m, board=board), ins, board=board)
    else:
        outs = module.run(m, module.build(m), ins)
    return _count_diff(outs, oracle.run_tflm(data, ins, isolated=True))


def differing_cases(cases, outputs, runs_for):
    """(failure lines, bytes compared) of generated cases (tests/gen) run
    as a batch: outputs(i) is case i's outputs for runs_for(case), or an
    error text; TFLite Micro runs the same inputs."""
    bad, total = [], 0
    for i, case in enumerate(cases):
        ours = outputs(i)
        if isinstance(ours, str) or ours is None:
            bad.append(f"{case.name}: {str(ours)[:300]}")
            continue
        n, d = _count_diff(ours, oracle.run_tflm(case.model, runs_for(case), isolated=True))
        total += n
        if d:
            bad.append(f"{case.name}: {d} of {n} bytes differ; {case.config}")
    return bad, total


def compare_model(model, workdir, n_runs=100, seed=1, name=None, keys=None, prefix="m",
                  litert=True, runs=None):
    """Converts, builds and runs `model` (a path or bytes) and compares it."""
    workdir = pathlib.Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    if isinstance(model, (bytes, bytearray)):
        path = workdir / "model.tflite"
        path.write_bytes(model)
        data = bytes(model)
    else:
        path = pathlib.Path(model)
        data = path.read_bytes()
    name = name or path.stem
    m = module.convert(path, workdir / "module", prefix=prefix, keys=keys)
    exe = module.build(m)
    if runs is None:
        runs = oracle.random_inputs(data, np.random.default_rng(seed), n_runs)
    ours = module.run(m, exe, runs)
    expected = oracle.run_tflm(data, runs, isolated=True)
    total, d_tflm = _count_diff(ours, expected)
    diff = {"tflm": d_tflm, "litert": None}
    notes = ""
    if litert:
        try:
            lite = oracle.run_litert(data, runs, isolated=True)
            diff["litert"] = _count_diff(ours, lite)[1]
        except (oracle.OracleUnsupported, oracle.OracleCrash) as e:
            # A second opinion only: LiteRT aborts on some models TFLM runs
            # (int8-state SVDF, tflm_keyword_scrambled_8bit).
            notes = "LiteRT cannot run it: " + str(e).splitlines()[0][:120]
    return Report(name, len(runs), total, diff, notes)
