"""Conversion cost against model size: for chains of RELUs and of ADDs at
1,000 to 100,000 operators, the user CPU seconds and peak memory of
`tinyaot analyze`, and of `tinyaot convert` and a second convert onto the
module it wrote, with the microseconds and KiB per operator (constant when
growth is linear). Prints figures, asserts nothing (tests/test_scaling.py
checks the ratios in make test, at smaller sizes).

    TINYAOT_BIN=build/tinyaot .venv/bin/python -m bench.scaling [--max N] [--convert-max N]
"""

import argparse
import os
import shutil
import tempfile
from pathlib import Path

from tests.harness import module
from tests.test_scaling import alone, chain

SIZES = (1000, 3000, 10000, 30000, 100000)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max", type=int, default=100000, help="largest chain")
    ap.add_argument("--convert-max", type=int, default=100000,
                    help="largest chain also converted (a file per operator)")
    args = ap.parse_args()
    tool = module.tinyaot_bin()
    print(f"{'chain':<6} {'operators':>9} {'step':<14} {'user s':>8} {'peak MiB':>9}"
          f" {'us/op':>7} {'KiB/op':>7}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for kind in ("relu", "add"):
            for n in (s for s in SIZES if s <= args.max):
                model = tmp / f"{kind}{n}.tflite"
                model.write_bytes(chain(kind, n))
                steps = [("analyze", [tool, "analyze", "--model.path", str(model)])]
                if n <= args.convert_max:
                    out = tmp / f"out{n}"
                    conv = [tool, "convert", "--model.path", str(model), "--module.path",
                            str(out), "--quiet"]
                    steps += [("convert", conv), ("convert again", conv)]
                for step, cmd in steps:
                    seconds, kib = alone(cmd)
                    print(f"{kind:<6} {n:>9} {step:<14} {seconds:>8.2f} {kib / 1024:>9.1f}"
                          f" {seconds * 1e6 / n:>7.1f} {kib / n:>7.2f}", flush=True)
                shutil.rmtree(tmp / f"out{n}", ignore_errors=True)
                os.remove(model)


if __name__ == "__main__":
    main()
