"""Instructions per function of one inference under QEMU: where a layer's
instructions go inside the kernels (bench/op_profile.py stops at layers).

    .venv/bin/python -m bench.func_profile MODEL [--board mps3-an547] [--top 25]
                                           [--KEY VALUE]...

MODEL is a path or the name of a shared model; --KEY VALUE pairs are
conversion keys (e.g. --transforms '{SPARSE_CHANNELS: false}'). The module
is converted and built as bench/models.py does (tests/qemu/module_runner.c,
-O2, the baselines' input) and run once with tests/qemu/run.sh --trace,
which logs the address of every instruction QEMU runs; the addresses from
the runner's ta_icount_start to its ta_icount_stop (the first inference)
are counted per function of the ELF's symbol table (arm-none-eabi-nm). The
total is the runner's instruction count give or take the counter's own
calls. A traced run takes a minute or so and a few hundred MB of temporary
log. Nothing is asserted; this prints figures.
"""

import argparse
import bisect
import collections
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench import target  # noqa: E402
from tests.harness import module  # noqa: E402

PC = re.compile(r"/([0-9a-f]{8})/")
EMPTY = 100  # instructions of a start/stop pair with nothing between


def functions(elf):
    """(sorted start addresses, [(start, end, name)]) of the ELF's code."""
    out = subprocess.run(["arm-none-eabi-nm", "-S", str(elf)], capture_output=True, text=True,
                         check=True).stdout
    syms = []
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in "tTwW":
            start = int(f[0], 16) & ~1
            syms.append((start, start + int(f[1], 16), f[3]))
    syms.sort()
    return [s[0] for s in syms], syms


def count(trace, elf):
    """{function: instructions} between ta_icount_start and ta_icount_stop."""
    starts, syms = functions(elf)

    def name(pc):
        i = bisect.bisect_right(starts, pc) - 1
        return syms[i][2] if i >= 0 and pc < syms[i][1] else "(no symbol)"

    counts = collections.Counter()
    on = False
    with open(trace) as f:
        for line in f:
            m = PC.search(line)
            if not m:
                continue
            n = name(int(m.group(1), 16))
            if n == "ta_icount_start":
                on, counts = True, collections.Counter()
            elif n == "ta_icount_stop" and on:
                # The counter's first start measures an empty pair: skip it.
                if sum(counts.values()) > EMPTY:
                    return counts
                on = False
            elif on:
                counts[n] += 1
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model", help="a .tflite path or a shared model's name")
    ap.add_argument("--board", default="mps3-an547", choices=sorted(target.BOARDS))
    ap.add_argument("--top", type=int, default=25, help="how many functions to list")
    args, rest = ap.parse_known_args()
    if len(rest) % 2 or any(not k.startswith("--") for k in rest[::2]):
        ap.error("conversion keys come as --KEY VALUE pairs")
    keys = {k[2:]: v for k, v in zip(rest[::2], rest[1::2])}
    path = pathlib.Path(args.model)
    path = path if path.exists() else module.MODELS / f"{args.model}.tflite"
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="tinyaot-func-"))
    m = module.convert(path, tmp / "m", keys={"platform.name": target.BOARDS[args.board], **keys})
    elf = module.build_qemu(m, board=args.board)
    module.write_inputs(m, [target.baseline_inputs(m)], tmp / "in.bin")
    trace = tmp / "trace.log"
    p = subprocess.run(["bash", str(module.QEMU_RUN), "--board", args.board, "--elf", str(elf),
                        "--timeout", "900", "--trace", str(trace), "--", "in.bin", "out.bin", "1"],
                       capture_output=True, text=True, cwd=tmp)
    if p.returncode != 0:
        sys.exit(f"func_profile: QEMU run failed ({p.returncode}): {p.stderr.strip()}")
    counts = count(trace, elf)
    trace.unlink()
    total = sum(counts.values())
    print(f"== {path.stem} on {args.board} ({target.SHORT[args.board]}): {total:,} instructions "
          f"in the first inference (runner: {target.run_counts(p.stdout)[0]:,})")
    print(f"{'instr':>12} {'share':>6}  function")
    for n, c in counts.most_common(args.top):
        print(f"{c:12,} {100 * c / max(total, 1):5.1f}%  {n}")


if __name__ == "__main__":
    main()
