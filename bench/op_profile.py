"""Instructions per operator of one model on Cortex-M55 (or M4) under QEMU.

    .venv/bin/python -m bench.op_profile MODEL [--board mps2-an386]

Converts with module.schedule: table, builds tests/qemu/module_runner.c with
TA_PROFILE_OPS (the operator callback brackets each operator with the
instruction counter) and prints one row per operator with its MACs.
"""

import argparse
import pathlib
import re
import sys
import tempfile

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.harness import module, oracle  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("--board", default="mps3-an547")
    args = ap.parse_args()
    path = pathlib.Path(args.model)
    if not path.exists():
        path = module.MODELS / f"{args.model}.tflite"
    target = {"mps3-an547": "mps3_an547", "mps2-an386": "mps2_an386"}[args.board]
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="tinyaot-prof-"))
    m = module.convert(path, tmp / "m", keys={"platform.name": target, "module.schedule": "table"})
    elf = module.build_qemu(m, board=args.board, defines=["TA_PROFILE_OPS"])
    ins = oracle.random_inputs(path.read_bytes(), np.random.default_rng(1), 1)
    _, log = module.run_qemu(m, elf, ins, board=args.board)
    counts = {int(a): int(b) for a, b in re.findall(r"op (\d+): (\d+) instructions", log)}
    total = sum(counts.values())
    print(f"{'layer':>5} {'type':28} {'MACs':>10} {'instructions':>13} {'per MAC':>8} {'share':>6}")
    for op in m.views["operators"]:
        n = counts.get(op["layer_index"], 0)
        macs = op["macs"]
        per = f"{n / macs:8.2f}" if macs else " " * 8
        print(f"{op['layer_index']:5} {op['type']:28} {macs if macs is not None else '-':>10} "
              f"{n:13} {per} {100 * n / max(total, 1):5.1f}%")
    print(f"{'':5} {'total':28} {'':10} {total:13}")
    oracle.shutdown()


if __name__ == "__main__":
    main()
