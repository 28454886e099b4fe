"""Many small models in one host executable, for the operator tests.

Converting each model is quick; compiling and linking one program per model
is not. `build_batch` converts every case with its own prefix (c0, c1, ...),
compiles all modules, one copy of the runtime kernels (their objects shared
by every batch of the run, tests/harness/objects.py) and the host runner
into a single executable, and `run_case` runs one of them by index.

The generated files of all the modules are compiled as one translation unit
that includes them (`_batch_unit`), at -O0 (`_glue_flags`): starting the
compiler costs more than compiling a small module, so this takes a batch's
build from about 16 seconds of CPU to about 3. The files are the
module's own, byte for byte; the tests that build modules as a user does
(tests/harness/module.py `build`, the CMake and Zephyr tests) compile them
one by one.
"""

import os
import pathlib
import subprocess

from tests.harness import module, objects

ROOT = module.ROOT


class Batch:
    def __init__(self, exe, modules, errors):
        self.exe = exe
        self.modules = modules  # index -> Module (None when conversion failed)
        self.errors = errors    # index -> conversion error text


def _run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=1200)
    if p.returncode != 0:
        raise RuntimeError(f"building the batch failed:\n{' '.join(cmd)}\n{p.stderr[:4000]}")


def _glue_flags():
    """The flags for the modules' generated files and the runner: the
    kernels' flags at -O0, and of the sanitizers only AddressSanitizer (it
    puts redzones around the arenas these files define, so a kernel that
    writes past an arena is caught). The files are parameters, tables and
    calls: they run in no time at any level, and compile in a third of the
    time so. The kernels keep -O1 and both sanitizers; the link gets both."""
    return module.cflags(opt="-O0", sanitizers="address")


def _batch_unit(workdir, built, modules):
    """(unit, kernels): one C file that includes every module's generated
    sources (each module's file-scope names carry its prefix, so they do not
    clash), and the set of runtime kernel sources they call (one shared
    copy, identical bytes in every module)."""
    lines, kernels = ["/* Every module's generated sources as one translation unit. */"], set()
    for i in built:
        for s in module.sources(modules[i].path):
            rel = pathlib.Path(s).relative_to(modules[i].path)
            if rel.parts[0] == "runtime":
                kernels.add(str(ROOT / rel))
            else:
                lines.append(f'#include "c{i}/{rel.as_posix()}"')
    unit = workdir / "modules_unit.c"
    unit.write_text("\n".join(lines) + "\n")
    return str(unit), kernels


def build_batch(cases, workdir, keys=None):
    """cases: list of (name, model bytes). Returns a Batch."""
    workdir = pathlib.Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    modules, errors = {}, {}
    for i, (name, data) in enumerate(cases):
        path = workdir / f"c{i}.tflite"
        path.write_bytes(data)
        try:
            modules[i] = module.convert(path, workdir / f"c{i}", prefix=f"c{i}", keys=keys)
        except module.ConvertError as e:
            modules[i] = None
            errors[i] = str(e)
    built = [i for i in modules if modules[i] is not None]
    if not built:
        return Batch(None, modules, errors)
    table = workdir / "runner_table.c"
    lines = ['#include "host_runner.h"']
    for i in built:
        lines.append(f'#include "c{i}/c{i}_model.h"')
    for i in built:
        lines.append(f"TA_RUNNER_MODULE(c{i});")
    lines.append("const ta_runner_module_t *const ta_runner_modules[] = {"
                 + ", ".join(f"&c{i}_runner" for i in built) + "};")
    lines.append(f"const int ta_runner_num_modules = {len(built)};")
    table.write_text("\n".join(lines) + "\n")
    unit, kernels = _batch_unit(workdir, built, modules)
    srcs = [str(table), str(module.HARNESS / "host_runner.c"), unit]
    exe = workdir / "batch.runner"
    cc = os.environ.get("CC", "cc")
    kernel_objects = [str(objects.kernel_object(cc, module.cflags(), k)) for k in sorted(kernels)]
    incs = ["-I", str(workdir), "-I", str(module.HARNESS), "-I", str(ROOT)]
    objs = []
    for src in srcs:
        obj = workdir / (pathlib.Path(src).stem + ".o")
        _run([cc, *_glue_flags(), *incs, "-c", src, "-o", str(obj)])
        objs.append(str(obj))
    _run([cc, *module.cflags(), *objs, *kernel_objects, "-lm", "-o", str(exe)])
    index = {i: k for k, i in enumerate(built)}
    b = Batch(exe, modules, errors)
    b.index = index
    return b


def run_cases(batch, jobs):
    """Runs many cases in one process: jobs is a list of (i, runs). Returns
    {i: outputs per run, or an error text}. A case that fails alone (a
    status, or a sanitizer report that ends the process) is found by
    running the remaining cases one by one."""
    work = pathlib.Path(batch.exe).parent
    lines, files = [], {}
    for i, runs in jobs:
        m = batch.modules[i]
        in_file, out_file = work / f"c{i}.in.bin", work / f"c{i}.out.bin"
        module.write_inputs(m, runs, in_file)
        if out_file.exists():
            out_file.unlink()
        files[i] = (in_file, out_file, runs)
        lines.append(f"{batch.index[i]} {m.path} {in_file} {out_file} {len(runs)}")
    listing = work / "jobs.txt"
    listing.write_text("\n".join(lines) + "\n")
    p = subprocess.run([str(batch.exe), "--batch", str(listing)], capture_output=True,
                       text=True, timeout=3600)
    results = {}
    for i, runs in jobs:
        in_file, out_file, _ = files[i]
        if p.returncode == 0:
            results[i] = module.read_outputs(batch.modules[i], runs, out_file.read_bytes())
        else:
            try:
                results[i] = run_case(batch, i, runs)
            except RuntimeError as e:
                results[i] = str(e)
    return results


def run_case(batch, i, runs):
    """Runs case i of the batch on `runs`; returns outputs per run."""
    m = batch.modules[i]
    exe_cmd = ["--module", str(batch.index[i])]
    return module.run(m, batch.exe, runs, runner_args=exe_cmd)


def build_batch_qemu(cases, workdir, board="mps3-an547", target="mps3_an547", keys=None):
    """The same for Cortex-M under QEMU: every case converted for `target`,
    built into one ELF with tests/qemu/module_runner.c. Returns a Batch whose
    exe is the ELF."""
    workdir = pathlib.Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    modules, errors = {}, {}
    for i, (name, data) in enumerate(cases):
        path = workdir / f"c{i}.tflite"
        path.write_bytes(data)
        try:
            modules[i] = module.convert(path, workdir / f"c{i}", prefix=f"c{i}",
                                        keys={"platform.name": target, **(keys or {})})
        except module.ConvertError as e:
            modules[i] = None
            errors[i] = str(e)
    built = [i for i in modules if modules[i] is not None]
    table = workdir / "runner_table.c"
    lines = ['#include "host_runner.h"']
    lines += [f'#include "c{i}/c{i}_model.h"' for i in built]
    lines += [f"TA_RUNNER_MODULE(c{i});" for i in built]
    lines.append("const ta_runner_module_t *const ta_runner_modules[] = {"
                 + ", ".join(f"&c{i}_runner" for i in built) + "};")
    lines.append(f"const int ta_runner_num_modules = {len(built)};")
    table.write_text("\n".join(lines) + "\n")
    unit, kernels = _batch_unit(workdir, built, modules)
    srcs = [str(table), unit]
    elf = workdir / "batch.elf"
    cc, flags = objects.qemu_compile(board)
    kernel_objects = [str(objects.kernel_object(cc, flags, k)) for k in sorted(kernels)]
    cmd = ["bash", str(module.QEMU_RUN), "--board", board, "-I", str(workdir),
           "-I", str(module.HARNESS), "-I", str(ROOT), "-o", str(elf), "--build-only",
           str(ROOT / "tests" / "qemu" / "module_runner.c"), *srcs, *kernel_objects]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    if p.returncode != 0:
        raise RuntimeError(f"building the QEMU batch failed:\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
    b = Batch(elf, modules, errors)
    b.index = {i: k for k, i in enumerate(built)}
    b.board = board
    return b


def run_case_qemu(batch, i, runs):
    """Runs case i of a QEMU batch; returns outputs per run."""
    m = batch.modules[i]
    work = pathlib.Path(batch.exe).parent
    in_file, out_file = work / f"c{i}.qin.bin", work / f"c{i}.qout.bin"
    module.write_inputs(m, runs, in_file)
    cmd = ["bash", str(module.QEMU_RUN), "--board", batch.board, "--elf", str(batch.exe),
           "--timeout", "300", "--", in_file.name, out_file.name, str(len(runs)),
           str(batch.index[i])]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=work)
    if p.returncode != 0:
        raise RuntimeError(f"QEMU run failed ({p.returncode}):\n{p.stdout}\n{p.stderr}")
    return module.read_outputs(m, runs, out_file.read_bytes())


def run_cases_qemu(batch, jobs):
    """Runs many cases of a QEMU batch in one emulation (module_runner
    --jobs): jobs is a list of (i, runs). Returns {i: outputs per run, or an
    error text}. When the emulation stops early (a failing case), the cases
    without outputs run one by one, so each failure is its own."""
    work = pathlib.Path(batch.exe).parent
    lines = []
    for i, runs in jobs:
        m = batch.modules[i]
        in_file, out_file = work / f"c{i}.qin.bin", work / f"c{i}.qout.bin"
        module.write_inputs(m, runs, in_file)
        if out_file.exists():
            out_file.unlink()
        lines.append(f"{batch.index[i]} {in_file.name} {out_file.name} {len(runs)}")
    listing = work / "qemu_jobs.txt"
    listing.write_text("\n".join(lines) + "\n")
    cmd = ["bash", str(module.QEMU_RUN), "--board", batch.board, "--elf", str(batch.exe),
           "--timeout", "1800", "--", "--jobs", listing.name]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=2400, cwd=work)
    results = {}
    for i, runs in jobs:
        out_file = work / f"c{i}.qout.bin"
        if p.returncode == 0 or out_file.exists():
            try:
                results[i] = module.read_outputs(batch.modules[i], runs, out_file.read_bytes())
                continue
            except (OSError, RuntimeError) as e:
                if p.returncode == 0:
                    results[i] = str(e)
                    continue
        try:
            results[i] = run_case_qemu(batch, i, runs)
        except RuntimeError as e:
            results[i] = str(e)
    return results
