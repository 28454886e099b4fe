"""Measures what `tinyaot analyze` uses to estimate flash, and writes
src/report/flash_sizes.inc.

Each runtime source is compiled for every core of CORES (Cortex-M55 and
Cortex-M4 the way bench/models.py builds modules, arm-none-eabi-gcc -O2
-ffunction-sections; the host with its gcc at -O2); its .text + .rodata +
.data bytes are recorded per core, -1 where it does not compile for that
core (analyze then shows it as unmeasured). analyze picks the column of
the target's `core`. The generated code of a module is estimated per
operator and core: shared models are converted, their generated sources
(everything but the constant arrays) compiled the same way, and the bytes
per operator and the fixed part fitted by least squares.

It also records the stack each kernel needs: every runtime source is
compiled for Cortex-M55 and for Cortex-M4 with gcc's call-graph output
(-fcallgraph-info=su), and a kernel's figure is its own frame plus the
deepest chain of functions it calls (across files; library functions such
as memcpy count 0). Kernels keep small buffers (an im2col patch, a row of
widened input) on the stack rather than in the arena, so `tinyaot analyze`
reports this next to the arenas.

    .venv/bin/python scripts/flash_sizes.py build/tinyaot   # from the repository root
"""

import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
# The build of bench/models.py, less the CPU: sizes are of Cortex-M55 objects.
# -ffp-contract=off as the generated build files (no fused multiply-add).
COMMON_FLAGS = ["-std=c99", "-mthumb", "-O2", "-ffp-contract=off", "-ffunction-sections",
                "-fdata-sections"]
STACK_CPUS = {"m55": ["-mcpu=cortex-m55", "-mfloat-abi=hard"],
              "m4": ["-mcpu=cortex-m4", "-mfloat-abi=hard", "-mfpu=fpv4-sp-d16"]}
# Flash sizes per target core (a target YAML's `core`): compiler and flags, size tool.
CORES = {
    "cortex-m55": (["arm-none-eabi-gcc", *COMMON_FLAGS, *STACK_CPUS["m55"]], "arm-none-eabi-size"),
    "cortex-m4": (["arm-none-eabi-gcc", *COMMON_FLAGS, *STACK_CPUS["m4"]], "arm-none-eabi-size"),
    "host": (["gcc", "-std=c99", "-O2", "-ffp-contract=off", "-ffunction-sections",
              "-fdata-sections", "-fno-asynchronous-unwind-tables"], "size"),
}
MODELS = ["mlperf_tiny_ad01_int8.tflite", "mlperf_tiny_kws_ref_model.tflite",
          "mlperf_tiny_ic_resnet8_quant.tflite", "tflm_hello_world_int8.tflite"]


def object_bytes(source, include_dirs, out_dir, core):
    """Bytes of `source` compiled for `core`, or -1 when it does not compile."""
    compiler, size_tool = CORES[core]
    obj = out_dir / (source.stem + ".o")
    built = subprocess.run([*compiler, *[f"-I{d}" for d in include_dirs], "-c", str(source),
                            "-o", str(obj)], capture_output=True, text=True)
    if built.returncode != 0:
        return -1
    out = subprocess.run([size_tool, "-A", str(obj)], check=True,
                         capture_output=True, text=True).stdout
    total = 0
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0].startswith((".text", ".rodata", ".data")):
            total += int(parts[1])
    return total


NODE = re.compile(r'node: \{ title: "([^"]+)" label: "[^"\\]*(?:\\n[^"\\]*)*?\\n(\d+) bytes \((\w+)')
EDGE = re.compile(r'edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)"')


def call_graph(sources, cpu_flags, out_dir):
    """Frames and calls of every function in `sources`: (frames, edges,
    origin) where frames maps a node (`name` for an external function,
    `file:name` for a static one) to its bytes, edges a node to its
    callees, origin a node to the source defining it."""
    frames, edges, origin = {}, {}, {}
    for source in sources:
        stem = out_dir / ("stack_" + source.stem)
        subprocess.run(["arm-none-eabi-gcc", *COMMON_FLAGS, *cpu_flags,
                        f"-I{ROOT}", "-fcallgraph-info=su", "-c", str(source),
                        "-o", str(stem) + ".o"], check=True)
        text = pathlib.Path(str(stem) + ".ci").read_text()
        for title, size, kind in NODE.findall(text):
            if kind != "static":
                raise SystemExit(f"{source}: {title}: stack is {kind}, not bounded")
            frames[title] = int(size)
            origin[title] = source
        for src, dst in EDGE.findall(text):
            edges.setdefault(src, []).append(dst)
    return frames, edges, origin


def deepest(node, frames, edges, seen=()):
    """Bytes of stack `node` needs: its frame and its deepest callee. A
    function met again on its own chain (two functions that call each
    other on exclusive conditions, as a pixel loop of ta_conv_2d.c and its
    single-pixel fallback once did) is followed into its other callees
    only; a third time would be real recursion and stops the script."""
    if seen.count(node) >= 2:
        raise SystemExit(f"recursion through {node}")
    callees = [c for c in edges.get(node, []) if node not in seen or c not in seen]
    below = [deepest(c, frames, edges, seen + (node,)) for c in callees]
    return frames.get(node, 0) + max(below, default=0)


def kernel_stacks(sources, out_dir):
    """Per kernel entry point (a kernel the runtime/kernels headers declare,
    as scripts/gen_kernel_table.py reads them: not the per-ISA functions a
    kernel's dispatch calls), the bytes of stack it needs on each CPU of
    STACK_CPUS."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import gen_kernel_table
    kernels = {name for name, _, _ in gen_kernel_table.kernels(ROOT)}
    per_cpu = {}
    for cpu, flags in STACK_CPUS.items():
        frames, edges, origin = call_graph(sources, flags, out_dir)
        per_cpu[cpu] = {node: deepest(node, frames, edges) for node in frames
                        if node in kernels and origin[node].parent.name == "kernels"}
    names = sorted(per_cpu["m55"])
    return [(name, per_cpu["m55"][name], per_cpu["m4"].get(name, 0)) for name in names]


def generated_bytes(tinyaot, model, work):
    """(operators, {core: bytes of the generated code})."""
    module = work / model.stem
    subprocess.run([tinyaot, "convert", "--model.path", str(model), "--module.path",
                    str(module), "--quiet"], check=True)
    totals = {core: 0 for core in CORES}
    sources = [p for p in module.rglob("*.c") if "runtime" not in p.parts]
    ops = 0
    for src in sources:
        if "arena" in src.name or "const" in src.name:
            continue  # constant blobs are counted as constants
        for core in CORES:
            totals[core] += object_bytes(src, [module], work, core)
        ops += src.parent.name == "ops"
    return ops, totals


def fit(points):
    """Least squares: (bytes per operator, fixed bytes) over (ops, bytes)."""
    n = len(points)
    mx = sum(p[0] for p in points) / n
    my = sum(p[1] for p in points) / n
    slope = sum((x - mx) * (y - my) for x, y in points) / sum((x - mx) ** 2 for x, _ in points)
    return round(slope), max(round(my - slope * mx), 0)


def main():
    tinyaot = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "build" / "tinyaot")
    kernels = []
    with tempfile.TemporaryDirectory() as tmp:
        work = pathlib.Path(tmp)
        sources = [src for src in sorted((ROOT / "runtime").rglob("*.c"))
                   if "/arena/" not in src.relative_to(ROOT).as_posix()]
        for src in sources:
            kernels.append((src.relative_to(ROOT).as_posix(),
                            [object_bytes(src, [ROOT], work, core) for core in CORES]))
        stacks = kernel_stacks(sources, work)
        points = [generated_bytes(tinyaot, ROOT.parent / "shared" / "models" / m, work)
                  for m in MODELS]
    lines = ["/* Generated by scripts/flash_sizes.py; do not edit. Bytes of .text, .rodata",
             "   and .data per core: " + ", ".join(CORES) + " (arm-none-eabi-gcc -O2",
             "   -ffunction-sections; the host's gcc -O2); -1: does not compile there. */",
             "#define TA_FLASH_MEASURED_ON \"" +
             ", ".join(f"{m.split('.')[0]} ({x} operators)" for m, (x, _) in zip(MODELS, points))
             + "\""]
    for core in CORES:
        per_op, fixed = fit([(x, sizes[core]) for x, sizes in points])
        lines.append(f"TA_FLASH_CORE(\"{core}\", {per_op}, {fixed})")
    lines += [f"TA_KERNEL_SIZE(\"{rel}\", {', '.join(map(str, sizes))})"
              for rel, sizes in kernels]
    lines += ["/* Stack bytes per kernel on Cortex-M55 and Cortex-M4 (-O2, its deepest call",
              "   chain, gcc -fcallgraph-info=su). */"]
    lines += [f"TA_KERNEL_STACK(\"{name}\", {m55}, {m4})" for name, m55, m4 in stacks]
    (ROOT / "src" / "report" / "flash_sizes.inc").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
