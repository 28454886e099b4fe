"""Every shared model on Cortex-M55 and Cortex-M4 against the baselines.

    .venv/bin/python -m bench.models [--models a,b] [--boards mps3-an547,mps2-an386] [--no-cycles]
    .venv/bin/python -m bench.models --overlap-cost [--models a,b] [--boards ...]
    .venv/bin/python -m bench.models --row-streaming least_ram|auto [--models a,b] [--boards ...]

For each model tinyaot converts and each board (mps3-an547: Cortex-M55 with
Helium; mps2-an386: Cortex-M4F with DSP) it prints:

  instr     instructions of the first inference after model_init, input
            x[i] = (i*7+3)%256 - 128 in every input tensor (sign-extended
            into wider integer inputs), counted under QEMU -icount shift=5
            with SysTick and an empty measurement subtracted: exactly how
            ../shared/baselines/cortex-m55.md and cortex-m4.md measured the
            peers (see bench/target.py). Ours covers the call of model_run;
            the TFLM figures cover Invoke() (interpreter dispatch included,
            80-1,300 instructions), helia-aot's its model_run.
  peers     the baseline files' figures: TFLM reference kernels, TFLM +
            CMSIS-NN and (M55) helia-aot; '-' where a peer refuses the model.
  /best     instr divided by the fewest instructions of any peer.
  /MAC      instr per multiply-accumulate (the sum over the layers, from
            the module's views, SVDF and LSTM counted by bench/macs.py;
            '-' for a model without MACs).
  cycles    estimated cycles of the same first inference:
            ../shared/tools/cycles (a QEMU plugin pricing every executed
            instruction from Arm's pipeline descriptions) between its
            CYC_MARK_START/STOP markers around the model_run call, in an
            image of bench/shapes_runner.c (bench/shapes.py's runner, no
            warm-up run). The baseline files give the peers' instructions
            only, so there is no cycle ratio: only ours and cycles per MAC
            (cyc/MAC). That run's instruction count is checked against
            instr: 'instr differs' when they are more than SysTick's
            rounding (2) apart. --no-cycles leaves them out.
  code      text + rodata of the module (generated code + the runtime
            kernels it links, no weights or other constants, no C library)
            built for that board at -O2, next to the peers' code from the
            baseline files (text + rodata of their runtime and kernels,
            weights excluded) and its fraction of TFLM + CMSIS-NN's.
  const     bytes of the module's constants (weights, biases, precomputed).
  RAM       data + bss of the module (its arenas and context; no stack).

A row ends in 'MISMATCH' when the outputs of that inference differ from
TFLite Micro's. Per board a summary line counts the models at or below
0.9x the best peer and those whose code is at most 1/3 of TFLM + CMSIS-NN's.
A last table gives per model the total RAM (every scratch and persistent
arena), its scratch lower bound (the most bytes live at one operator), the
persistent state, the lower bound of tensors kept whole and apart in the
model's order (FUSE_RESIDUAL_ADD and ORDER_FOR_PEAK off), TFLite Micro's
arena for the same model (its planned part and the whole) and helia-aot's
scratch and persistent arenas (its residency report; '-' where it refuses).
Nothing is asserted: this prints figures (instruction counts are exact and
do not depend on the machine's load).

--overlap-cost prints instead, per board and model, the price of output
over input (issue 13: at most 5% on Cortex-M55): instructions and total
RAM with the default settings against the same module with
memory.output_over_input off, and their ratio.

--row-streaming MODE prints the same for memory.row_streaming MODE against
off (docs/row-streaming.md).
"""

import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench import baselines, macs, shapes, target  # noqa: E402
from tests.harness import difftest, module, oracle  # noqa: E402

GOAL = 0.9        # issue 9: at or below 0.9x the best peer
CODE_GOAL = 1 / 3  # and at most a third of TFLM + CMSIS-NN's code


def fmt(n):
    return "-" if n is None else f"{n:,}"


def measure(path, board, tmp, cycles=True):
    """Figures of one model on one board (raises module.ConvertError)."""
    work = tmp / f"{path.stem}-{board}"
    m, outs, log = target.first_run(path, work / "m", board)
    expected = oracle.run_tflm(path.read_bytes(), [target.baseline_inputs(m)], isolated=True)
    r = {"instr": target.run_counts(log)[0],
         "macs": sum(macs.of_module(m, path.read_bytes()).values()),
         "size": target.code_size(m, board, work / "size"),
         "diff": difftest._count_diff(outs, expected)[1], "cycles": None, "cyc_instr": None}
    if cycles:
        r["cyc_instr"], _, r["cycles"] = shapes.first_run_cycles(
            m, board, work / "cycles", target.baseline_inputs(m))
    return r


def print_board(board, names, tmp, cycles=True):
    base = baselines.load(board)
    peers = base.peers
    cols = [f"{'model':30}", f"{'instr':>12}", *[f"{p:>15}" for p in peers], f"{'/best':>6}",
            f"{'/MAC':>6}", f"{'cycles':>12}", f"{'cyc/MAC':>7}", f"{'code':>7}", *[f"{'code ' + p:>20}" for p in base.code],
            f"{'/CMSIS':>6}", f"{'const':>8}", f"{'RAM':>7}"]
    print(f"== {board} ({target.SHORT[board]}): instructions per inference, code and RAM "
          f"in bytes; peers from {base.path.name}")
    print(" ".join(cols))
    at_goal = code_goal = done = 0
    for name in names:
        path = module.MODELS / f"{name}.tflite"
        try:
            r = measure(path, board, tmp, cycles)
        except module.ConvertError as e:
            print(f"{name[:30]:30} not converted: {e.stderr.strip().splitlines()[0][:90]}",
                  flush=True)
            continue
        fig = base.models.get(name, {})
        best_name, best = baselines.best_peer(fig, peers)
        ratio = r["instr"] / best if best else None
        cmsis_code = fig.get(base.code["TFLM + CMSIS-NN"])
        code_ratio = r["size"].code / cmsis_code if cmsis_code else None
        done += 1
        at_goal += ratio is not None and ratio <= GOAL
        code_goal += code_ratio is not None and code_ratio <= CODE_GOAL
        per_mac = f"{r['instr'] / r['macs']:6.2f}" if r["macs"] else f"{'-':>6}"
        cyc_mac = (f"{r['cycles'] / r['macs']:7.2f}" if r["macs"] and r["cycles"] is not None
                   else f"{'-':>7}")
        row = [f"{name[:30]:30}", f"{r['instr']:>12,}", *[f"{fmt(fig.get(p)):>15}" for p in peers],
               f"{ratio:6.2f}" if ratio else f"{'-':>6}", per_mac, f"{fmt(r['cycles']):>12}",
               cyc_mac, f"{r['size'].code:>7,}",
               *[f"{fmt(fig.get(c)):>20}" for c in base.code.values()],
               f"{code_ratio:6.2f}" if code_ratio else f"{'-':>6}",
               f"{r['size'].consts:>8,}", f"{r['size'].ram:>7,}"]
        flag = f"  MISMATCH ({r['diff']} bytes differ from TFLM)" if r["diff"] else ""
        if r["cyc_instr"] is not None and abs(r["cyc_instr"] - r["instr"]) > 2:
            flag += f"  instr differs in the cycles run: {r['cyc_instr']:,}"
        print(" ".join(row) + flag, flush=True)
    print(f"{target.SHORT[board]} summary: {at_goal} of {done} models at or below {GOAL}x the "
          f"best peer; {code_goal} of {done} with code at most 1/3 of TFLM + CMSIS-NN's\n",
          flush=True)


HELIA = pathlib.Path(__file__).resolve().parent.parent / ".venv-helia" / "bin" / "helia-aot"
# The techniques of issue 13 off: every tensor whole and apart, in the
# model's order (the bound every such planner stops at).
APART = {"transforms": "{FUSE_RESIDUAL_ADD: false, ORDER_FOR_PEAK: false}",
         "memory.row_streaming": "off"}  # whole tensors: no row chains


def residency(path, out, keys=None):
    m = module.convert(path, out, keys={"memory.dump_residency_json": "true", **(keys or {})})
    return json.loads((m.path / "m_residency.json").read_text())


def ram_of(res):
    """(total RAM: every scratch and persistent arena; the scratch arenas'
    lower bound; the persistent bytes)."""
    sizes = {"scratch": 0, "persistent": 0, "bound": 0}
    for r in res["regions"]:
        if r["role"] in ("scratch", "persistent"):
            sizes[r["role"]] += r["size"]
            sizes["bound"] += r.get("lower_bound") or 0
    return sizes["scratch"] + sizes["persistent"], sizes["bound"], sizes["persistent"]


def helia_ram(path, out):
    """helia-aot's scratch and persistent arenas for the model (its
    residency report), or None where it refuses the model."""
    if not HELIA.exists():
        return None
    p = subprocess.run([str(HELIA), "convert", "--model.path", str(path), "--module.path",
                        str(out), "--memory.dump-residency-json", "--verbose", "0"],
                       capture_output=True, text=True, timeout=600)
    found = sorted(out.glob("**/aot_residency.json"))
    if p.returncode != 0 or not found:
        return None
    arenas = json.loads(found[0].read_text())["arenas"]
    return sum(a["storage"]["runtime"]["size_bytes"]
               for kind in ("scratch", "persistent") for a in arenas.get(kind, []))


def print_arenas(names, tmp):
    """Total RAM against the whole-tensor bound, TFLite Micro's arena and
    helia-aot's (the same on every board)."""
    print("== RAM (bytes; the same on every board): total = every scratch and persistent arena, "
          "default settings; its own scratch lower bound; 'apart' = the scratch lower bound with "
          "FUSE_RESIDUAL_ADD and ORDER_FOR_PEAK off (every tensor whole and apart, model order) "
          "plus the persistent bytes; "
          "TFLite Micro's planned arena and its whole arena; helia-aot's arenas")
    print(f"{'model':30} {'total':>8} {'bound':>8} {'persist':>8} {'apart':>8} {'/apart':>7} "
          f"{'TFLM plan':>10} {'TFLM all':>9} {'helia-aot':>10} {'/helia':>7}")
    for name in names:
        path = module.MODELS / f"{name}.tflite"
        try:
            total, bound, persistent = ram_of(residency(path, tmp / f"{name}-arena"))
            _, apart_bound, apart_persistent = ram_of(residency(path, tmp / f"{name}-apart", APART))
            apart = apart_bound + apart_persistent
        except module.ConvertError:
            continue
        tflm = oracle.tflm_arena(path.read_bytes(), isolated=True)
        helia = helia_ram(path, tmp / f"{name}-helia")
        print(f"{name[:30]:30} {total:8,} {bound:8,} {persistent:8,} {apart:8,} "
              f"{total / apart if apart else 0:7.3f} {tflm['head']:10,} {tflm['total']:9,} "
              f"{fmt(helia):>10} {f'{total / helia:7.3f}' if helia else f'{chr(45):>7}'}",
              flush=True)
    print()


def print_overlap_cost(board, names, tmp):
    """Instructions and RAM with output over input against without."""
    print(f"== {board} ({target.SHORT[board]}): output over input against the same module "
          "without it (memory.output_over_input: false)")
    print(f"{'model':30} {'instr':>12} {'instr apart':>12} {'ratio':>7} {'RAM':>8} "
          f"{'RAM apart':>9}")
    for name in names:
        path = module.MODELS / f"{name}.tflite"
        figures = []
        try:
            for label, keys in (("on", None), ("off", {"memory.output_over_input": "false"})):
                work = tmp / f"{name}-{board}-overlap-{label}"
                m, outs, log = target.first_run(path, work / "m", board,
                                                keys={"memory.dump_residency_json": "true",
                                                      **(keys or {})})
                expected = oracle.run_tflm(path.read_bytes(), [target.baseline_inputs(m)],
                                           isolated=True)
                res = json.loads((m.path / "m_residency.json").read_text())
                figures.append((target.run_counts(log)[0], ram_of(res)[0],
                                difftest._count_diff(outs, expected)[1]))
        except module.ConvertError as e:
            print(f"{name[:30]:30} not converted: {e.stderr.strip().splitlines()[0][:90]}",
                  flush=True)
            continue
        (on, ram_on, diff_on), (off, ram_off, diff_off) = figures
        flag = "  MISMATCH" if diff_on or diff_off else ""
        print(f"{name[:30]:30} {on:>12,} {off:>12,} {on / off:7.4f} {ram_on:>8,} "
              f"{ram_off:>9,}{flag}", flush=True)
    print()


def print_row_streaming_cost(board, names, tmp, mode):
    """Instructions and total RAM with memory.row_streaming `mode` against
    off (docs/row-streaming.md)."""
    print(f"== {board} ({target.SHORT[board]}): memory.row_streaming {mode} against off")
    print(f"{'model':30} {'instr':>12} {'instr off':>12} {'ratio':>7} {'RAM':>8} "
          f"{'RAM off':>9}")
    for name in names:
        path = module.MODELS / f"{name}.tflite"
        figures = []
        try:
            for label in (mode, "off"):
                work = tmp / f"{name}-{board}-rows-{label}"
                m, outs, log = target.first_run(path, work / "m", board,
                                                keys={"memory.dump_residency_json": "true",
                                                      "memory.row_streaming": label})
                expected = oracle.run_tflm(path.read_bytes(), [target.baseline_inputs(m)],
                                           isolated=True)
                res = json.loads((m.path / "m_residency.json").read_text())
                figures.append((target.run_counts(log)[0], ram_of(res)[0],
                                difftest._count_diff(outs, expected)[1]))
        except module.ConvertError as e:
            print(f"{name[:30]:30} not converted: {e.stderr.strip().splitlines()[0][:90]}",
                  flush=True)
            continue
        (on, ram_on, diff_on), (off, ram_off, diff_off) = figures
        flag = "  MISMATCH" if diff_on or diff_off else ""
        print(f"{name[:30]:30} {on:>12,} {off:>12,} {on / off:7.4f} {ram_on:>8,} "
              f"{ram_off:>9,}{flag}", flush=True)
    print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="", help="comma list of model names (default: all)")
    ap.add_argument("--boards", default="mps3-an547,mps2-an386")
    ap.add_argument("--no-cycles", action="store_true",
                    help="leave out the estimated cycles (no cycle-estimator run)")
    ap.add_argument("--overlap-cost", action="store_true",
                    help="print the price of output over input instead (see above)")
    ap.add_argument("--row-streaming", choices=["auto", "least_ram"],
                    help="print instructions and RAM with memory.row_streaming at this setting "
                         "against off instead")
    args = ap.parse_args()
    names = args.models.split(",") if args.models else sorted(
        p.stem for p in module.MODELS.glob("*.tflite"))
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="tinyaot-bench-"))
    try:
        if args.row_streaming:
            for board in args.boards.split(","):
                print_row_streaming_cost(board, names, tmp, args.row_streaming)
            return
        if args.overlap_cost:
            for board in args.boards.split(","):
                print_overlap_cost(board, names, tmp)
            return
        for board in args.boards.split(","):
            print_board(board, names, tmp, not args.no_cycles)
        print_arenas(names, tmp)
    finally:
        oracle.shutdown()


if __name__ == "__main__":
    main()
