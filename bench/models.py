"""Benchmark of the shared models: memory, code size and instructions.

    .venv/bin/python -m bench.models [--models a,b] [--runs 3]

For every model tinyaot converts it prints: the scratch arena against its
lower bound and TFLite Micro's arena for the same model; the module's
flash (text + rodata) and RAM (data + bss) built for Cortex-M55 with
arm-none-eabi-gcc -O2; and instructions per inference on Cortex-M55
(Helium) and Cortex-M4 (DSP) under QEMU (-icount, repeatable: a count,
not a time). Nothing is asserted; compare figures within one run.
"""

import argparse
import json
import pathlib
import re
import subprocess
import sys
import tempfile

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.harness import difftest, module, oracle  # noqa: E402


def module_size(m, tmp):
    """Flash and RAM of the module alone: its objects summed with size(1)."""
    flash = ram = 0
    for i, src in enumerate(module.sources(m.path)):
        obj = tmp / f"o{i}.o"
        subprocess.run(["arm-none-eabi-gcc", "-std=c99", "-mcpu=cortex-m55", "-mthumb",
                        "-mfloat-abi=hard", "-O2", "-ffunction-sections", "-fdata-sections",
                        "-I", str(m.path), "-c", src, "-o", str(obj)], check=True)
        out = subprocess.run(["arm-none-eabi-size", "-A", str(obj)], capture_output=True,
                             text=True, check=True).stdout
        for line in out.splitlines():
            mm = re.match(r"(\.\S+)\s+(\d+)", line)
            if not mm:
                continue
            name, size = mm.group(1), int(mm.group(2))
            if name.startswith((".text", ".rodata")) or name.endswith("_data"):
                flash += size
            elif name.startswith((".data", ".bss")) or name.endswith("_bss"):
                ram += size
    return flash, ram


def bench(name, runs, tmp):
    path = module.MODELS / f"{name}.tflite"
    data = path.read_bytes()
    m = module.convert(path, tmp / name, keys={"memory.dump_residency_json": "true"})
    res = json.loads((m.path / "m_residency.json").read_text())
    scratch = sum(r["size"] for r in res["regions"] if r["role"] == "scratch")
    bound = sum(r["lower_bound"] for r in res["regions"] if r["role"] == "scratch")
    persistent = sum(r["size"] for r in res["regions"] if r["role"] == "persistent")
    tflm = oracle.tflm_arena(data, isolated=True)
    flash, ram = module_size(m, tmp)
    ins = oracle.random_inputs(data, np.random.default_rng(1), runs)
    expected = oracle.run_tflm(data, ins, isolated=True)
    counts = {}
    for board, target in (("mps3-an547", "mps3_an547"), ("mps2-an386", "mps2_an386")):
        mq = module.convert(path, tmp / f"{name}-{target}", keys={"platform.name": target})
        elf = module.build_qemu(mq, board=board)
        outs, log = module.run_qemu(mq, elf, ins, board=board)
        diff = difftest._count_diff(outs, expected)[1]
        n = int(re.search(r"(\d+) instructions per run", log).group(1))
        counts[board] = (n, diff)
    return [name, scratch, bound, persistent, tflm["head"], tflm["total"], flash, ram,
            counts["mps3-an547"], counts["mps2-an386"]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", default="")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    names = args.models.split(",") if args.models else sorted(
        p.stem for p in module.MODELS.glob("*.tflite"))
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="tinyaot-bench-"))
    print(f"{'model':38} {'scratch':>8} {'bound':>7} {'persist':>7} {'TFLM plan':>9} "
          f"{'TFLM all':>9} {'flash':>8} {'RAM':>7} {'M55 instr':>11} {'M4 instr':>11}")
    for name in names:
        try:
            row = bench(name, args.runs, tmp)
        except module.ConvertError as e:
            print(f"{name:38} not converted: {e.stderr.splitlines()[0][:80]}")
            continue
        n55, d55 = row[8]
        n4, d4 = row[9]
        flag = "" if d55 == 0 and d4 == 0 else f"  (MISMATCH {d55}/{d4} bytes)"
        print(f"{row[0]:38} {row[1]:8} {row[2]:7} {row[3]:7} {row[4]:9} {row[5]:9} "
              f"{row[6]:8} {row[7]:7} {n55:11} {n4:11}{flag}", flush=True)
    oracle.shutdown()


if __name__ == "__main__":
    main()
