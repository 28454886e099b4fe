"""Convert a model with tinyaot, build the module on the host and run it.

    from tests.harness import module
    m = module.convert(model_path, workdir, prefix="m", keys={"platform.name": "host"})
    exe = module.build(m)                 # the module + tests/harness/host_runner.c
    outs = module.run(m, exe, runs)       # runs: list of lists of numpy arrays

The tinyaot command is build/tinyaot unless TINYAOT_BIN says otherwise.
TINYAOT_SANITIZE=1 builds modules with AddressSanitizer and
UndefinedBehaviorSanitizer, so every kernel runs checked.
"""

import dataclasses
import json
import os
import pathlib
import subprocess

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
HARNESS = ROOT / "tests" / "harness"  # host_runner.c, host_runner.h
SHARED = ROOT.parent / "shared"
MODELS = SHARED / "models"

DTYPES = {"int8": np.int8, "uint8": np.uint8, "int16": np.int16, "int32": np.int32,
          "int64": np.int64, "float32": np.float32, "bool": np.bool_, "float64": np.float64,
          "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64}


def tinyaot_bin():
    return os.environ.get("TINYAOT_BIN", str(ROOT / "build" / "tinyaot"))


def sanitizing():
    return os.environ.get("TINYAOT_SANITIZE", "") not in ("", "0")


class ConvertError(Exception):
    """tinyaot refused the model; .stderr holds its messages."""

    def __init__(self, stderr, returncode):
        super().__init__(stderr.strip())
        self.stderr = stderr
        self.returncode = returncode


@dataclasses.dataclass
class Module:
    path: pathlib.Path
    prefix: str
    views: dict
    stdout: str
    stderr: str

    def io(self, kind):
        """The module's inputs or outputs: [(shape, numpy dtype)] in order."""
        key = "input_index" if kind == "input" else "output_index"
        found = [t for t in self.views["tensors"] if t[key] is not None]
        found.sort(key=lambda t: t[key])
        return [(tuple(t["shape"]), DTYPES[t["dtype"]]) for t in found]


def convert(model_path, out_dir, prefix="m", keys=None, config=None, strict=False):
    """Runs `tinyaot convert`; returns a Module or raises ConvertError."""
    out_dir = pathlib.Path(out_dir)
    cmd = [tinyaot_bin(), "convert", "--model.path", str(model_path),
           "--module.path", str(out_dir), "--module.prefix", prefix]
    if config:
        cmd += ["--config", str(config)]
    if strict:
        cmd.append("--strict")
    for k, v in (keys or {}).items():
        cmd += ["--" + k, v if isinstance(v, str) else json.dumps(v)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        raise ConvertError(p.stderr, p.returncode)
    views = json.loads((out_dir / f"{prefix}_views.json").read_text())
    return Module(out_dir, prefix, views, p.stdout, p.stderr)


def sources(module_dir):
    return sorted(str(p) for p in pathlib.Path(module_dir).rglob("*.c"))


def cached_sources(module_dir, cc=None, flags=None):
    """What a host compile command lists for the module: its C files, each
    runtime kernel that is the tree's own replaced by its object from the
    run's cache, compiled by `cc` with `flags` (default cflags(): the flags
    the rest of the command must use too)."""
    from tests.harness import objects  # it imports this module

    cc = cc or os.environ.get("CC", "cc")
    return objects.with_cached_kernels(cc, list(cflags() if flags is None else flags),
                                       module_dir, sources(module_dir))


def cached_runtime(paths, cc=None, flags=None):
    """Tree runtime files (runtime/...) as cached objects, as cached_sources."""
    from tests.harness import objects

    cc = cc or os.environ.get("CC", "cc")
    flags = list(cflags() if flags is None else flags)
    return [str(objects.kernel_object(cc, flags, p)) if str(p).endswith(".c") else str(p)
            for p in paths]


def cflags(opt="-O1", sanitizers="address,undefined"):
    """The host flags modules are built with; with TINYAOT_SANITIZE=1 the
    `sanitizers` are on (tests/harness/batch.py builds generated files at
    -O0 with AddressSanitizer alone)."""
    # -ffp-contract=off as the generated build files: no fused multiply-add,
    # so float kernels round like TFLite Micro's reference kernels.
    flags = ["-std=c99", opt, "-g", "-Wall", "-Wextra", "-Werror", "-ffp-contract=off"]
    if sanitizing():
        flags += [f"-fsanitize={sanitizers}", "-fno-sanitize-recover=all",
                  "-fno-omit-frame-pointer"]
    return flags


def build(m, cc=None, extra_flags=()):
    """Compiles the module with the host runner; returns the executable.
    The module's runtime kernels, when they are the tree's bytes, come from
    the run's object cache (tests/harness/objects.py): the same source,
    headers, compiler and flags give the same object."""
    from tests.harness import objects  # it imports this module

    cc = cc or os.environ.get("CC", "cc")
    flags = [*cflags(), *extra_flags]
    exe = m.path.parent / (m.path.name + ".runner")
    srcs = objects.with_cached_kernels(cc, flags, m.path, sources(m.path))
    cmd = [cc, *flags, f"-DTA_PREFIX={m.prefix}", "-I", str(m.path),
           "-I", str(HARNESS), str(HARNESS / "host_runner.c"), *srcs,
           "-lm", "-o", str(exe)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise RuntimeError(f"building {m.path} failed:\n{' '.join(cmd)}\n{p.stderr}")
    return exe


def baseline_inputs(m):
    """One run of the input the baselines in ../shared/baselines/ were
    measured with: every input tensor x[i] = (i*7+3)%256 - 128, an int8
    value sign-extended into wider integer inputs."""
    run = []
    for shape, dtype in m.io("input"):
        n = int(np.prod(shape, dtype=np.int64))
        x = (np.arange(n, dtype=np.int64) * 7 + 3) % 256 - 128
        run.append(x.astype(dtype).reshape(shape))
    return run


def write_inputs(m, runs, path):
    """Writes runs of inputs in the runners' layout: every input of run 0,
    then of run 1, ..."""
    ins = m.io("input")
    with open(path, "wb") as f:
        for r in runs:
            assert len(r) == len(ins), "wrong number of inputs"
            for arr, (shape, dtype) in zip(r, ins):
                f.write(np.ascontiguousarray(arr, dtype=dtype).tobytes())


def read_outputs(m, runs, data):
    """Splits a runner's output file into outputs per run."""
    results, pos = [], 0
    for _ in runs:
        one = []
        for shape, dtype in m.io("output"):
            n = int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize
            one.append(np.frombuffer(data[pos:pos + n], dtype=dtype).reshape(shape))
            pos += n
        results.append(one)
    if pos != len(data):
        raise RuntimeError(f"module wrote {len(data)} bytes, expected {pos}")
    return results


def run(m, exe, runs, reinit_each=False, runner_args=()):
    """Runs the module on consecutive runs; returns outputs per run."""
    work = m.path.parent
    in_file = work / (m.path.name + ".in.bin")
    out_file = work / (m.path.name + ".out.bin")
    write_inputs(m, runs, in_file)
    cmd = [str(exe), *runner_args, "--module-dir", str(m.path)]
    if reinit_each:
        cmd.append("--reinit-each")
    cmd += [str(in_file), str(out_file), str(len(runs))]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise RuntimeError(f"module run failed ({p.returncode}):\n{p.stderr}")
    return read_outputs(m, runs, out_file.read_bytes())


QEMU_RUN = ROOT / "tests" / "qemu" / "run.sh"


def cached_qemu_sources(module_dir, board, opt="-O2", options=()):
    """What a tests/qemu/run.sh build command lists for the module: its C
    files, each runtime kernel that is the tree's own replaced by its cached
    object, compiled as run.sh compiles for `board` with `opt` and
    `options` (the same -D and --cflags words the command passes)."""
    from tests.harness import objects  # it imports this module

    return objects.with_cached_kernels(*objects.qemu_compile(board, opt, tuple(options)),
                                       module_dir, sources(module_dir))


def build_qemu(m, board="mps3-an547", opt="-O2", defines=(), cflags=None, name=None):
    """Cross-compiles the module with tests/qemu/module_runner.c into an ELF
    (`cflags`: extra compiler flags, after the kit's own). The runtime
    kernels come from the run's object cache, compiled with the kit's flags."""
    elf = m.path.parent / (m.path.name + f".{name or board}.elf")
    options = (f"-DTA_PREFIX={m.prefix}", *[f"-D{d}" for d in defines],
               *(["--cflags", cflags] if cflags else []))
    srcs = cached_qemu_sources(m.path, board, opt, options)
    cmd = ["bash", str(QEMU_RUN), "--board", board, opt, *options,
           "-I", str(m.path), "-o", str(elf), "--build-only",
           str(ROOT / "tests" / "qemu" / "module_runner.c"), *srcs]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise RuntimeError(f"cross build failed:\n{' '.join(cmd)}\n{p.stdout}\n{p.stderr}")
    return elf


def run_qemu(m, elf, runs, board="mps3-an547"):
    """Runs the ELF under QEMU on consecutive runs; returns (outputs, log)."""
    work = m.path.parent
    in_file = work / (m.path.name + ".qin.bin")
    out_file = work / (m.path.name + ".qout.bin")
    write_inputs(m, runs, in_file)
    cmd = ["bash", str(QEMU_RUN), "--board", board, "--elf", str(elf), "--timeout", "600", "--",
           in_file.name, out_file.name, str(len(runs))]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900, cwd=work)
    if p.returncode != 0:
        raise RuntimeError(f"QEMU run failed ({p.returncode}):\n{p.stdout}\n{p.stderr}")
    return read_outputs(m, runs, out_file.read_bytes()), p.stdout
