"""tinyaot against CMSIS-NN's own kernels, shape by shape (issue 23).

    .venv/bin/python -m bench.shapes [--only REGEX] [--boards mps3-an547,mps2-an386]
                                     [--jobs N] [--no-cycles] [--tsv FILE]

For every operator row of ../shared/baselines/cmsis-nn-shapes.tsv (181
shapes; the one-time FULLY_CONNECTED_INIT rows are not operators) it writes
the single-operator model with that shape, data and quantization
(bench/shape_models.py, following cmsis-nn-shapes.md), converts it for each
board (mps3-an547: Cortex-M55 with Helium; mps2-an386: Cortex-M4F with DSP;
arenas in PSRAM, constants in MRAM), builds the modules into as few images
per board as the memories allow (bench/shapes_runner.c; each module's
generated files compiled one by one as a user's build does, the runtime
kernels from the object cache), and runs each image once under QEMU
-icount shift=5. Each module is run twice after model_init; the second run
is counted, as the baseline counted the second call of CMSIS-NN's public
function. Its outputs are compared, every byte, with TFLite Micro's
interpreter on the same input (tests/harness/oracle.py).

Columns, per board:

  instr     instructions of the counted model_run: SysTick ticks under
            -icount shift=5 turned into instructions (x 125/128 on the M55,
            x 5/4 on the M4) less an empty measurement, as the baseline and
            bench/models.py count (tests/qemu/icount.c); the two cycle
            markers inside the counted region are subtracted too.
  CMSIS     CMSIS-NN's instructions for the same shape (the .tsv).
  ratio     instr / CMSIS (below 1: tinyaot executes fewer).
  /unit     instr per MAC (conv, depthwise, fully connected: the .md's MACs)
            or per element (ADD, MUL, SOFTMAX; pools: per input element).
  cycles    estimated cycles of the same run: ../shared/tools/cycles (a QEMU
            plugin pricing each executed instruction from Arm's pipeline
            descriptions) between CYC_MARK_START/STOP around the counted
            call; a second QEMU run of the same image with the plugin.
  CMSIS cyc CMSIS-NN's estimated cycles (cmsis-nn-shapes-cycles.tsv).
  cratio    cycles / CMSIS cyc; then cycles per MAC or element.

A row ends in MISMATCH when the module's outputs differ from TFLite
Micro's (the count of differing bytes), in FAILED when it did not convert,
build or run. After the rows, per board and operator family (the .md's:
conv 1x1, conv 3x3 with the dilated ones, other conv kernels, depthwise
multiplier 1, depthwise multiplier above 1 or one input channel, fully
connected, ADD, MUL, max pool, average pool, SOFTMAX) the median and worst
ratio and how many shapes are at or below 0.9x and 0.6x, in instructions
and in estimated cycles.

Nothing is asserted: this prints figures. Instruction counts and the cycle
estimate are exact and repeatable, independent of the machine's load.
Models, TFLite Micro's outputs and compiled objects are cached by content
in $TINYAOT_SHAPES_CACHE (default ~/.cache/tinyaot-shapes): a model by the
generator's source and the row, TFLite Micro's outputs by the model and the
tflite-micro version, an object (generated file or runtime kernel) by its
compiler, flags and every byte it includes; conversions and runs are never
cached. Progress and the time of each step go to stderr.
"""

import argparse
import concurrent.futures
import hashlib
import os
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench import shape_models, target  # noqa: E402
from tests.harness import difftest, module, objects, oracle  # noqa: E402

CYCLES = ROOT.parent / "shared" / "tools" / "cycles"
CORE = {"mps3-an547": "m55", "mps2-an386": "m4"}
# Where the modules' bytes go (memory.constraints) and how much of each
# memory one image may fill: arenas in PSRAM, constants in MRAM.
MEMORIES = [{"name": "PSRAM"}, {"name": "MRAM"}]
CAPACITY = {"mps3-an547": {"PSRAM": 4 << 20, "MRAM": 8 << 20},
            "mps2-an386": {"PSRAM": 16 << 20, "MRAM": 2 << 20}}
MARGIN = 64 << 10          # alignment and the runner's own bytes
GOALS = (0.9, 0.6)          # issue 23: every shape <= 0.9x, family medians <= 0.6x


def cache_dir():
    path = pathlib.Path(os.environ.get("TINYAOT_SHAPES_CACHE",
                                       pathlib.Path.home() / ".cache" / "tinyaot-shapes"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def digest(*parts):
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else str(p).encode())
        h.update(b"\0")
    return h.hexdigest()[:24]


def write_atomic(path, data):
    partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    partial.write_bytes(data)
    os.replace(partial, path)


# ------------------------------------------------------ models and oracle

GENERATOR = digest(*(p.read_bytes() for p in (ROOT / "bench" / "shape_models.py",
                                             ROOT / "tests" / "gen" / "builder.py")))


def model_of(shape):
    """(model bytes, inputs) of a row, from the cache when the generator and
    the row are unchanged."""
    folder = cache_dir() / "models"
    folder.mkdir(exist_ok=True)
    key = digest(GENERATOR, tflm_version(), shape.id, sorted(shape.params.items()))
    path, data = folder / f"{shape.id}-{key}.tflite", folder / f"{shape.id}-{key}.npz"
    if path.exists() and data.exists():
        with np.load(data) as z:
            return path.read_bytes(), [z[f"x{i}"] for i in range(len(z.files))]
    model, inputs = shape_models.build(shape)
    with tempfile.NamedTemporaryFile(dir=folder, suffix=".npz", delete=False) as f:
        np.savez(f, **{f"x{i}": x for i, x in enumerate(inputs)})
    os.replace(f.name, data)
    write_atomic(path, model)
    return model, inputs


def tflm_version():
    try:
        from importlib import metadata
        return metadata.version("tflite-micro")
    except Exception:  # noqa: BLE001 - any failure: no reuse across versions
        return str(time.time())


def expected_of(model, inputs):
    """TFLite Micro's outputs of the second of two runs on the inputs."""
    folder = cache_dir() / "expected"
    folder.mkdir(exist_ok=True)
    path = folder / f"{digest(model, *(x.tobytes() for x in inputs), tflm_version())}.npz"
    if path.exists():
        with np.load(path) as z:
            return [z[f"y{i}"] for i in range(len(z.files))]
    outs = oracle.run_tflm(model, [inputs, inputs], isolated=True)[1]
    with tempfile.NamedTemporaryFile(dir=folder, suffix=".npz", delete=False) as f:
        np.savez(f, **{f"y{i}": y for i, y in enumerate(outs)})
    os.replace(f.name, path)
    return outs


# ------------------------------------------------------------ the images


def convert(shape, model, board, work, index):
    """The module of one shape for one board (prefix s<index>)."""
    path = work / "models" / f"{shape.id}.tflite"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(model)
    return module.convert(path, work / board / f"s{index}", prefix=f"s{index}",
                          keys={"platform.name": target.BOARDS[board],
                                "memory.constraints": MEMORIES})


def footprint(m):
    """{memory: bytes} the module places there."""
    used = {}
    for r in m.views["regions"]:
        used[r["memory"]] = used.get(r["memory"], 0) + r["size"] + r["alignment"]
    return used


def pack(entries, board):
    """Groups of (index, module), each fitting the board's memories."""
    groups, used = [], []
    for index, m in entries:
        need = footprint(m)
        for group, total in zip(groups, used):
            if all(total.get(k, 0) + v + MARGIN <= CAPACITY[board].get(k, 0)
                   for k, v in need.items()):
                group.append((index, m))
                for k, v in need.items():
                    total[k] = total.get(k, 0) + v
                break
        else:
            groups.append([(index, m)])
            used.append(dict(need))
    return groups


def generated_object(cc, flags, m, source):
    """The object of one of a module's generated files, compiled now unless
    an identical one was (same compiler, flags, file and module headers)."""
    folder = cache_dir() / "objects"
    folder.mkdir(exist_ok=True)
    headers = sorted(p for p in m.path.rglob("*.h"))
    key = digest(cc, *flags, *(str(p.relative_to(m.path)).encode() + p.read_bytes()
                               for p in headers),
                 pathlib.Path(source).read_bytes())
    obj = folder / f"{pathlib.Path(source).stem}-{key}.o"
    if not obj.exists():
        partial = obj.with_name(f"{obj.name}.{os.getpid()}.tmp")
        p = subprocess.run([cc, *flags, "-I", str(m.path), "-c", source, "-o", str(partial)],
                           capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            raise RuntimeError(f"compiling {source} failed:\n{p.stderr[-3000:]}")
        os.replace(partial, obj)
    return str(obj)


def table_source(group):
    """The image's module table: host_runner.h's entries and, per module, the
    counted call of its model_run between the counter and the markers."""
    lines = ["#include <stdint.h>", '#include "host_runner.h"', '#include "icount.h"',
             '#include "cycmark.h"']
    lines += [f'#include "{m.prefix}_model.h"' for _, m in group]
    for _, m in group:
        p = m.prefix
        lines += [f"TA_RUNNER_MODULE({p});",
                  f"static int {p}_counted(uint64_t *instructions)", "{",
                  "    ta_icount_start();", "    CYC_MARK_START();",
                  f"    int status = {p}_model_run(&{p}_runner_ctx);",
                  "    CYC_MARK_STOP();", "    *instructions = ta_icount_stop();",
                  "    return status;", "}"]
    lines.append("const ta_runner_module_t *const ta_runner_modules[] = {"
                 + ", ".join(f"&{m.prefix}_runner" for _, m in group) + "};")
    lines.append("typedef int (*shapes_counted_fn)(uint64_t *instructions);")
    lines.append("const shapes_counted_fn shapes_counted[] = {"
                 + ", ".join(f"{m.prefix}_counted" for _, m in group) + "};")
    lines.append(f"const int ta_runner_num_modules = {len(group)};")
    return "\n".join(lines) + "\n"


def build_image(group, board, folder, pool):
    """Links the group's modules and the runner into folder/image.elf."""
    folder.mkdir(parents=True, exist_ok=True)
    cc, flags = objects.qemu_compile(board)
    objs, kernels, futures = [], {}, []
    for _, m in group:
        for src in module.sources(m.path):
            rel = pathlib.Path(src).relative_to(m.path)
            if rel.parts[0] == "runtime":   # one copy of each kernel for the image
                kernels.setdefault(rel, src)
            else:
                futures.append(pool.submit(generated_object, cc, flags, m, src))
    for rel, src in sorted(kernels.items()):
        tree = module.ROOT / rel
        same = tree.is_file() and tree.read_bytes() == pathlib.Path(src).read_bytes()
        if tree.is_file() and not same:
            print(f"warning: the converter's copy of {rel} is not the tree's: the runtime "
                  f"measured is the one {module.tinyaot_bin()} embeds (rebuild it)",
                  file=sys.stderr)
        objs.append(str(objects.kernel_object(cc, flags, tree)) if same else src)
    objs += [f.result() for f in futures]
    table = folder / "shapes_table.c"
    table.write_text(table_source(group))
    incs = [f"-I{d}" for _, m in group for d in (m.path,)]
    elf = folder / "image.elf"
    cmd = ["bash", str(module.QEMU_RUN), "--board", board, "-I", str(module.HARNESS),
           "-I", str(module.ROOT), "-I", str(CYCLES), *incs, "-o", str(elf), "--build-only",
           str(ROOT / "bench" / "shapes_runner.c"), str(table), *objs]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    if p.returncode != 0:
        raise RuntimeError(f"building {elf} failed:\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
    return elf


COUNTED = re.compile(r"^shape (\d+): (\d+) instructions, status (-?\d+)$", re.M)


def run_image(group, board, folder, inputs, cycles, warmups=1):
    """Runs one image, each module `warmups` times and then once counted:
    {index: (instructions, outputs, cycles or None)} and {index: error text}
    for the modules that did not run. With `cycles` a second emulation of
    the same image and inputs under the cycle estimator runs beside it."""
    elf = folder / "image.elf"
    jobs = {"plain": [], "cycle": []}   # names of one length: the same instructions
    for k, (index, m) in enumerate(group):
        module.write_inputs(m, [inputs[index]], folder / f"in{k}.bin")
        for kind in jobs:
            (folder / f"{kind}_out{k}.bin").unlink(missing_ok=True)
            jobs[kind].append(f"{k} in{k}.bin {kind}_out{k}.bin {warmups}")
    for kind, lines in jobs.items():
        (folder / f"{kind}_jobs.txt").write_text("\n".join(lines) + "\n")
    estimator = start_cycles(folder, board, elf) if cycles else None
    p = subprocess.run(["bash", str(module.QEMU_RUN), "--board", board, "--elf", str(elf),
                        "--timeout", "1800", "--", "--jobs", "plain_jobs.txt"],
                       capture_output=True, text=True, timeout=2400, cwd=folder)
    counts = {int(k): (int(n), int(status)) for k, n, status in COUNTED.findall(p.stdout)}
    region_cycles = finish_cycles(estimator, folder, counts) if estimator else {}
    done, failed = {}, {}
    for k, (index, m) in enumerate(group):
        if k not in counts or counts[k][1] != 0 or not (folder / f"plain_out{k}.bin").exists():
            failed[index] = (f"did not run (status {p.returncode}): "
                             + " ".join(p.stdout.strip().splitlines()[-2:])[:200])
            continue
        outs = module.read_outputs(m, [None], (folder / f"plain_out{k}.bin").read_bytes())[0]
        done[index] = (counts[k][0], outs, region_cycles.get(k))
    return done, failed


def start_cycles(folder, board, elf):
    """Starts the image under the cycle estimator (tools/cycles/run.sh)."""
    copy = folder / "cycles.elf"   # its own name: run.sh -o wrote image.elf.map
    shutil.copyfile(elf, copy)
    (folder / "cycles.elf.map").unlink(missing_ok=True)
    (folder / "regions.tsv").unlink(missing_ok=True)
    return subprocess.Popen(["bash", str(CYCLES / "run.sh"), "-c", CORE[board], "-o",
                             str(folder / "cycles.txt"), "-r", str(folder / "regions.tsv"),
                             str(copy), "-append", "--jobs cycle_jobs.txt"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=folder)


def finish_cycles(proc, folder, counts):
    """{module: estimated cycles} of the estimator's run: its marked regions
    in order, one per counted run it printed. A module whose count in that
    run is not the plain run's (beyond SysTick's rounding) gets none: never a
    figure of another run."""
    out, err = proc.communicate(timeout=3600)
    regions = folder / "regions.tsv"
    if proc.returncode != 0 or not regions.exists():
        print(f"cycles: {folder} failed ({proc.returncode}): {err.strip()[-300:]}",
              file=sys.stderr)
    rows = [ln.split("\t") for ln in regions.read_text().splitlines()] if regions.exists() else []
    cycles = [int(r[3]) for r in rows if r and r[0] == "R"]
    found = {}
    for (k, n, _), cyc in zip(COUNTED.findall(out), cycles):
        plain = counts.get(int(k), (None,))[0]
        if plain is not None and abs(plain - int(n)) <= 2:
            found[int(k)] = cyc
        else:
            print(f"cycles: {folder}: module {k} counted {n} instructions under the "
                  f"estimator, {counts.get(int(k))} without", file=sys.stderr)
    return found


def first_run_cycles(m, board, folder, inputs):
    """(instructions, outputs, estimated cycles) of the first model_run after
    model_init of one module (bench/models.py), through the same runner."""
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        elf = build_image([(0, m)], board, folder, pool)
    done, failed = run_image([(0, m)], board, elf.parent, {0: inputs}, True, warmups=0)
    if failed:
        raise RuntimeError(failed[0])
    return done[0]


# -------------------------------------------------------------- printing


def ratio(a, b):
    return a / b if a is not None and b else None


def fmt(x, spec):
    return f"{x:{spec}}" if x is not None else "-".rjust(int(re.match(r"\D*(\d+)", spec)[1]))


HEADER = (f"{'shape':42} {'instr':>11} {'CMSIS':>11} {'ratio':>6} {'/unit':>7} "
          f"{'cycles':>11} {'CMSIS cyc':>11} {'cratio':>6} {'cyc/unit':>8}")


def row_line(shape, board, r):
    theirs = getattr(shape, target.SHORT[board].lower())
    if r.get("error"):
        return f"{shape.id[:42]:42} FAILED: {r['error']}"
    their_cyc = shape.cycles.get(board)
    line = (f"{shape.id[:42]:42} {r['instr']:11,} {theirs:11,} {ratio(r['instr'], theirs):6.2f} "
            f"{r['instr'] / shape.work:7.3f} {fmt(r['cycles'], '11,')} {fmt(their_cyc, '11,')} "
            f"{fmt(ratio(r['cycles'], their_cyc), '6.2f')} "
            f"{fmt(ratio(r['cycles'], shape.work), '8.3f')}")
    if r["diff"]:
        line += f"  MISMATCH ({r['diff']} of {r['bytes']} bytes differ from TFLite Micro)"
    return line


def summary(shapes, board, results):
    print(f"\n{target.SHORT[board]} per family: ratio against CMSIS-NN (median, worst) and "
          f"shapes at or below {GOALS[0]}x / {GOALS[1]}x, in instructions | estimated cycles")
    print(f"{'family':12} {'shapes':>6} {'median':>7} {'worst':>6} {'<=0.9':>6} {'<=0.6':>6} | "
          f"{'median':>7} {'worst':>6} {'<=0.9':>6} {'<=0.6':>6}")
    for family in shape_models.FAMILIES + ["all"]:
        members = [s for s in shapes if family in ("all", s.family)]
        if not members:
            continue
        cells = []
        for key, theirs in (("instr", lambda s: getattr(s, target.SHORT[board].lower())),
                            ("cycles", lambda s: s.cycles.get(board))):
            rs = [ratio(results[s.id].get(key), theirs(s)) for s in members]
            rs = [x for x in rs if x is not None]
            if not rs:
                cells.append(f"{'-':>7} {'-':>6} {'-':>6} {'-':>6}")
                continue
            cells.append(f"{statistics.median(rs):7.2f} {max(rs):6.2f} "
                         f"{sum(x <= GOALS[0] for x in rs):6} {sum(x <= GOALS[1] for x in rs):6}")
        print(f"{family:12} {len(members):6} {cells[0]} | {cells[1]}")


def write_tsv(path, shapes, boards, results):
    cols = ["id", "op", "family", "work"]
    for b in boards:
        s = target.SHORT[b]
        cols += [f"{s}_instr", f"{s}_cmsis_instr", f"{s}_ratio", f"{s}_per_unit", f"{s}_cycles",
                 f"{s}_cmsis_cycles", f"{s}_cycle_ratio", f"{s}_cycles_per_unit",
                 f"{s}_mismatch_bytes"]
    lines = ["\t".join(cols)]
    for shape in shapes:
        cells = [shape.id, shape.op, shape.family, str(shape.work)]
        for b in boards:
            r = results[b][shape.id]
            theirs = getattr(shape, target.SHORT[b].lower())
            their_cyc = shape.cycles.get(b)
            vals = [r.get("instr"), theirs, ratio(r.get("instr"), theirs),
                    ratio(r.get("instr"), shape.work), r.get("cycles"), their_cyc,
                    ratio(r.get("cycles"), their_cyc), ratio(r.get("cycles"), shape.work),
                    r.get("diff") if not r.get("error") else None]
            cells += ["NA" if v is None else f"{v:.4f}" if isinstance(v, float) else str(v)
                      for v in vals]
        lines.append("\t".join(cells))
    pathlib.Path(path).write_text("\n".join(lines) + "\n")


# ------------------------------------------------------------------ main


def measure_board(shapes, board, models, expected, work, jobs, cycles):
    """{shape id: {"instr", "cycles", "diff", "bytes"} or {"error"}}."""
    results, t_start = {}, time.time()
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        converted = {}
        by_index = {s.index: s for s in shapes}
        futures = {pool.submit(convert, s, models[s.id][0], board, work, s.index): (s.index, s)
                   for s in shapes}
        for f, (i, s) in futures.items():
            try:
                converted[i] = f.result()
            except module.ConvertError as e:
                results[s.id] = {"error": "not converted: " + e.stderr.strip().splitlines()[0]}
        t_convert = time.time()
        groups = pack(sorted(converted.items()), board)
        elfs = [build_image(g, board, work / board / f"image{k}", pool)
                for k, g in enumerate(groups)]
        t_build = time.time()
        inputs = {s.index: models[s.id][1] for s in shapes}
        runs = [pool.submit(run_image, g, board, elf.parent, inputs, cycles)
                for g, elf in zip(groups, elfs)]
        for run in runs:
            done, failed = run.result()
            for i, err in failed.items():
                results[by_index[i].id] = {"error": err}
            for i, (instr, outs, cyc) in done.items():
                total, diff = difftest._count_diff([outs], [expected[by_index[i].id]])
                results[by_index[i].id] = {"instr": instr, "cycles": cyc, "diff": diff,
                                         "bytes": total}
    print(f"{board}: converted in {t_convert - t_start:.0f} s, built in {t_build - t_convert:.0f} s, "
          f"ran in {time.time() - t_build:.0f} s", file=sys.stderr, flush=True)
    return results, len(groups)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="regular expression: the shape ids to measure (re.search)")
    ap.add_argument("--boards", default="mps3-an547,mps2-an386")
    ap.add_argument("--jobs", type=int, default=2, help="parallel conversions, compiles, runs")
    ap.add_argument("--no-cycles", action="store_true", help="instructions only (no plugin run)")
    ap.add_argument("--tsv", help="also write every row to this TSV file")
    ap.add_argument("--keep", action="store_true", help="keep the work folder (printed)")
    args = ap.parse_args()
    boards = args.boards.split(",")
    for b in boards:
        if b not in target.BOARDS:
            ap.error(f"unknown board {b!r} (mps3-an547 or mps2-an386)")
    shapes = [s for s in shape_models.load_rows() if not args.only or re.search(args.only, s.id)]
    if not shapes:
        ap.error(f"no shape id matches {args.only!r}")
    start = time.time()
    # the runtime kernels' objects (tests/harness/objects.py) kept too
    os.environ.setdefault("TINYAOT_OBJECT_CACHE", str(cache_dir() / "kernels"))
    work = pathlib.Path(tempfile.mkdtemp(prefix="tinyaot-shapes-"))
    try:
        models = {s.id: model_of(s) for s in shapes}
        expected = {s.id: expected_of(*models[s.id]) for s in shapes}
        results = {}
        for board in boards:
            t0 = time.time()
            results[board], images = measure_board(shapes, board, models, expected, work,
                                                   args.jobs, not args.no_cycles)
            print(f"== {board} ({target.SHORT[board]}): {len(shapes)} shapes in {images} "
                  f"image(s), {time.time() - t0:.0f} s; one warm model_run each against "
                  f"CMSIS-NN's warm call (cmsis-nn-shapes.tsv)")
            print(HEADER)
            for s in shapes:
                print(row_line(s, board, results[board][s.id]))
            summary(shapes, board, results[board])
            print(flush=True)
        if args.tsv:
            write_tsv(args.tsv, shapes, boards, results)
        print(f"total time {time.time() - start:.0f} s")
    finally:
        oracle.shutdown()
        if args.keep:
            print(f"work folder: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
