"""Instructions per operator type of a model on Cortex-M55 and Cortex-M4,
next to TFLM + CMSIS-NN's per-operator figures from ../shared/baselines/.

    .venv/bin/python -m bench.op_profile MODEL [--board mps2-an386] [--layers]
    .venv/bin/python -m bench.op_profile --all [--boards mps3-an547,mps2-an386]

MODEL is a path or the name of a shared model. The module is converted with
module.schedule: table and built with tests/qemu/module_runner.c and
TA_PROFILE_OPS: the operator callback starts the instruction counter before
each operator and stops it after, so an operator's figure is its kernel call
(the counter's own empty measurement subtracted, as everywhere). Input and
board setup as in bench/models.py: the baselines' input x[i] = (i*7+3)%256
- 128, the first inference after model_init, QEMU -icount shift=5.

'/out' is instructions per output element, for the operators without
MACs (elementwise, pooling, activations). Rows are per operator type of the .tflite model, like the baselines' tables
(a layer of ours counts for the type of the first model operator it came
from; the count in brackets is the model's operators of that type, 'layers'
how many layers of ours carry it: operators the converter removed, such as a
RESHAPE that became an alias, cost nothing). '(model_run less operators)'
is the instructions of the whole model_run (a second build, without the
callback) less the sum over operators; the baselines list TFLM's
interpreter outside the operators there. Each operator's bracket also holds
about a dozen instructions of the table dispatch and the callback's return
(an operator with an empty body shows them), which the whole run does not
spend, so that row can be negative. CMSIS-NN's figures come from a separate profiled
Invoke in the baseline files, which hold per-operator tables for all models
on the M55 and for five models on the M4 ('-' elsewhere). Nothing is
asserted; this prints figures.
"""

import argparse
import math
import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench import baselines, macs, target  # noqa: E402
from tests.harness import module, oracle  # noqa: E402

CMSIS = "CMSIS-NN instr."


def model_op_types(data):
    m = oracle._model_obj(data)
    return [oracle._opcode_name(m, op.opcodeIndex) for op in m.subgraphs[0].operators or []]


def profile(path, board, tmp):
    """(module, {layer: instructions}, instructions of the whole run)."""
    work = tmp / f"{path.stem}-{board}"
    m, _, log = target.first_run(path, work / "prof", board, keys={"module.schedule": "table"},
                                 defines=["TA_PROFILE_OPS"])
    _, _, plain = target.first_run(path, work / "plain", board)
    return m, target.op_counts(log), target.run_counts(plain)[0]


def print_model(path, board, tmp, layers=False):
    base = baselines.load(board)
    m, counts, whole = profile(path, board, tmp)
    types = model_op_types(path.read_bytes())
    peer = base.ops.get(path.stem, {})
    layer_macs = macs.of_module(m, path.read_bytes())
    elements = {t["id"]: math.prod(t["shape"]) for t in m.views["tensors"]}
    rows = {}

    def row(t):
        return rows.setdefault(t, {"count": 0, "layers": 0, "macs": 0, "instr": 0, "out": 0})

    for t in types:
        row(t)["count"] += 1
    for op in m.views["operators"]:
        src = op.get("source_indices") or []
        r = row(types[src[0]] if src else op["type"])
        r["layers"] += 1
        r["macs"] += layer_macs[op["layer_index"]]
        r["out"] += sum(elements.get(i, 0) for i in op["output_ids"])
        r["instr"] += counts.get(op["layer_index"], 0)
    ops_total = sum(counts.values())
    print(f"== {path.stem} on {board} ({target.SHORT[board]}): {whole:,} instructions per "
          f"inference")
    print(f"{'op type (count)':36} {'layers':>6} {'MACs':>11} {'instr':>12} {'/MAC':>6} "
          f"{'/out':>6} {'share':>6} {'CMSIS-NN':>11} {'/CMSIS':>7}")
    for t, r in sorted(rows.items(), key=lambda kv: -kv[1]["instr"]):
        theirs = peer.get(t, {}).get(CMSIS)
        per_mac = f"{r['instr'] / r['macs']:6.2f}" if r["macs"] else f"{'-':>6}"
        per_out = (f"{r['instr'] / r['out']:6.1f}" if r["out"] and not r["macs"]
                   else f"{'-':>6}")
        ratio = f"{r['instr'] / theirs:7.2f}" if theirs else f"{'-':>7}"
        print(f"{t + ' (' + str(r['count']) + ')':36} {r['layers']:6} {r['macs']:11,} "
              f"{r['instr']:12,} {per_mac} {per_out} {100 * r['instr'] / max(whole, 1):5.1f}% "
              f"{fmt(theirs):>11} {ratio}")
    outside = peer.get(baselines.OUTSIDE, {}).get(CMSIS)
    print(f"{'(model_run less operators)':36} {'':6} {'':11} {whole - ops_total:12,} {'':13} "
          f"{100 * (whole - ops_total) / max(whole, 1):5.1f}% {fmt(outside):>11}")
    cmsis_total = base.models.get(path.stem, {}).get("TFLM + CMSIS-NN")
    ratio = f"{whole / cmsis_total:7.2f}" if cmsis_total else f"{'-':>7}"
    print(f"{'total (model_run / Invoke)':36} {'':6} {sum(r['macs'] for r in rows.values()):11,} "
          f"{whole:12,} {'':6} {'':6} {'':6} {fmt(cmsis_total):>11} {ratio}")
    if layers:
        print(f"\n{'layer':>5} {'type':28} {'MACs':>11} {'instr':>12} {'/MAC':>6}")
        for op in m.views["operators"]:
            n = counts.get(op["layer_index"], 0)
            k = layer_macs[op["layer_index"]]
            per = f"{n / k:6.2f}" if k else f"{'':6}"
            print(f"{op['layer_index']:5} {op['type']:28} {k:11,} {n:12,} {per}")
    print(flush=True)


def fmt(n):
    return "-" if n is None else f"{n:,}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model", nargs="?", help="a .tflite path or a shared model's name")
    ap.add_argument("--all", action="store_true", help="every shared model tinyaot converts")
    ap.add_argument("--board", help="one board (mps3-an547 or mps2-an386)")
    ap.add_argument("--boards", default="mps3-an547,mps2-an386")
    ap.add_argument("--layers", action="store_true", help="also one row per layer")
    args = ap.parse_args()
    if args.all == bool(args.model):
        ap.error("give a MODEL or --all")
    boards = [args.board] if args.board else args.boards.split(",")
    if args.all:
        paths = sorted(module.MODELS.glob("*.tflite"))
    else:
        path = pathlib.Path(args.model)
        paths = [path if path.exists() else module.MODELS / f"{args.model}.tflite"]
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="tinyaot-prof-"))
    try:
        for board in boards:
            for path in paths:
                try:
                    print_model(path, board, tmp, args.layers)
                except module.ConvertError as e:
                    print(f"== {path.stem}: not converted: "
                          f"{e.stderr.strip().splitlines()[0][:100]}\n", flush=True)
    finally:
        oracle.shutdown()


if __name__ == "__main__":
    main()
