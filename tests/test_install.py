"""Installing tinyaot as a user does (docs/install.md).

The wheel: a fresh clone of the committed tree (HEAD), `pip wheel --no-deps`
of it (scikit-build-core from PyPI or pip's cache), the clone left exactly
as cloned, the wheel installed with its dependencies into a new virtual
environment; there the `tinyaot` command converts the demo model, the
module is built and run on the host, and the Python API and the TFLite
Micro oracle import.

scripts/deps.sh: `make build` asks only for a C compiler, CMake, make and
libyaml, even of a user who cannot install packages; `make demo` adds the
Cortex-M toolchain, QEMU and python3, never the test-only tools.

`cmake --install`: build/ (make build's folder) installed into a temporary
prefix; the installed command converts, the installed runtime sources
stand in for the module's own copy, a program links the installed library.
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

import pytest

from tests.harness.doc_commands import doc_command

ROOT = pathlib.Path(__file__).resolve().parents[1]
HEADER = ROOT / "include" / "tinyaot" / "tinyaot.h"
VERSION = re.search(r'#define TINYAOT_VERSION "([^"]+)"', HEADER.read_text()).group(1)
CLASSES = 4  # examples/demo: four windows, four classes, window i is class i


def run(cmd, cwd=None, env=None, timeout=900):
    p = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env or user_env(), text=True,
                       capture_output=True, timeout=timeout)
    assert p.returncode == 0, f"{' '.join(map(str, cmd))} exited {p.returncode}:\n" \
                              f"{p.stdout[-3000:]}\n{p.stderr[-3000:]}"
    return p.stdout


def user_env():
    """The environment without what the test suite sets for itself, so only
    the installed package can answer."""
    env = dict(os.environ)
    for key in ("TINYAOT_LIBRARY", "TINYAOT_PYTHON", "PYTHONPATH", "VIRTUAL_ENV"):
        env.pop(key, None)
    env["CMAKE_BUILD_PARALLEL_LEVEL"] = "2"
    return env


@pytest.fixture(scope="module")
def clone(tmp_path_factory):
    head = run(["git", "-C", ROOT, "rev-parse", "HEAD"]).strip()
    dest = tmp_path_factory.mktemp("clone") / "tinyaot"
    run(["git", "clone", "-q", "--no-checkout", ROOT, dest])
    run(["git", "-C", dest, "checkout", "-q", head])
    return dest


@pytest.fixture(scope="module")
def wheel(clone, tmp_path_factory):
    out = tmp_path_factory.mktemp("wheels")
    run(["nice", sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
         "--disable-pip-version-check", "-w", out, clone])
    wheels = sorted(out.glob("*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory):
    env_dir = tmp_path_factory.mktemp("venv") / "env"
    run([sys.executable, "-m", "venv", env_dir])
    run([env_dir / "bin" / "python", "-m", "pip", "install", "-q",
         "--disable-pip-version-check", wheel])
    return env_dir


def convert_demo(tinyaot, clone_or_root, module):
    out = run([tinyaot, "convert", "--model.path", clone_or_root / "examples/demo/demo.tflite",
               "--module.path", module, "--module.prefix", "demo", "--quiet"])
    assert (module / "demo_model.h").is_file(), out
    return module


def build_and_classify(source_root, module, runtime_sources):
    """Builds the demo module with tests/harness/host_runner.c, as
    examples/demo/run.sh does, and checks that each window is classified
    as its class."""
    harness = source_root / "tests" / "harness"
    exe = module.parent / "demo_runner"
    sources = sorted(module.glob("*.c")) + sorted(module.glob("ops/*.c")) + runtime_sources
    run(["cc", "-std=c99", "-O1", "-Wall", "-Wextra", "-Werror", "-DTA_PREFIX=demo",
         "-I", module, "-I", harness, harness / "host_runner.c", *sources, "-lm", "-o", exe])
    outputs = module.parent / "outputs.bin"
    run([exe, "--module-dir", module, source_root / "examples/demo/inputs.bin", outputs,
         CLASSES])
    import numpy as np
    probabilities = np.fromfile(outputs, dtype=np.float32).reshape(CLASSES, CLASSES)
    assert list(probabilities.argmax(axis=1)) == list(range(CLASSES)), probabilities


@doc_command("pip wheel --no-deps -w dist .")
def test_wheel_leaves_the_clone_as_cloned(clone, wheel):
    status = run(["git", "-C", clone, "status", "--porcelain", "--ignored"])
    assert status == "", "building the wheel wrote into the source tree:\n" + status


def test_wheel_carries_command_library_api_header_runtime(clone, wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    data = f"tinyaot-{VERSION}.data/"
    for name in ("tinyaot/__init__.py", "tinyaot/_native.py", "tinyaot/views.py",
                 "tinyaot/oracle.py", "tinyaot/libtinyaot.so", data + "scripts/tinyaot",
                 data + "data/include/tinyaot/tinyaot.h"):
        assert name in names, name
    runtime = {n[len(data + "data/share/tinyaot/"):] for n in names
               if n.startswith(data + "data/share/tinyaot/")}
    tracked = set(run(["git", "-C", clone, "ls-files", "runtime"]).split())
    assert runtime == tracked
    assert not [n for n in names if "/scripts/" in n and not n.endswith("/scripts/tinyaot")]


def test_wheel_requires_the_oracle_of_the_test_suite(wheel):
    metadata = zipfile.ZipFile(wheel).read(f"tinyaot-{VERSION}.dist-info/METADATA").decode()
    pinned = re.search(r"^tflite-micro==(\S+)", (ROOT / "tests/requirements.txt").read_text(),
                       re.M).group(1)
    assert f"Requires-Dist: tflite-micro>={pinned}" in metadata
    assert re.search(r"^Requires-Dist: numpy\b", metadata, re.M)


@doc_command("python3 -m venv ~/tinyaot-env", "~/tinyaot-env/bin/pip install .",
             "~/tinyaot-env/bin/tinyaot --version",
             "pip install dist/tinyaot-0.1.0-py3-none-linux_x86_64.whl")
def test_installed_command_converts_and_the_module_runs(clone, venv, tmp_path):
    tinyaot = venv / "bin" / "tinyaot"
    assert run([tinyaot, "--version"]).strip() == f"tinyaot {VERSION}"
    module = convert_demo(tinyaot, clone, tmp_path / "module")
    build_and_classify(clone, module, sorted(module.glob("runtime/kernels/*.c")))


def test_installed_python_api_loads_its_own_library(clone, venv, tmp_path):
    script = ("import tinyaot, sys\n"
              "r = tinyaot.analyze(model_path=sys.argv[1])\n"
              "print(tinyaot.version(), tinyaot._lib()._name, r.analysis.total_macs > 0)\n")
    out = run([venv / "bin" / "python", "-c", script, clone / "examples/demo/demo.tflite"],
              cwd=tmp_path).split()
    site = next((venv / "lib").glob("python3*/site-packages"))
    assert out == [VERSION, str(site / "tinyaot" / "libtinyaot.so"), "True"]
    # The wheel's dependencies: what `tinyaot validate` runs TFLite Micro with.
    run([venv / "bin" / "python", "-m", "tinyaot.oracle", "--probe"], cwd=tmp_path)


@pytest.fixture(scope="module")
def prefix(tmp_path_factory):
    build = ROOT / "build"
    assert (build / "CMakeCache.txt").is_file(), "configure and build build/ first (make build)"
    dest = tmp_path_factory.mktemp("prefix")
    run(["cmake", "--install", build, "--prefix", dest])
    return dest


@doc_command("cmake -S . -B build -DCMAKE_BUILD_TYPE=Release", "cmake --build build -j 2",
             "cmake --install build --prefix /opt/tinyaot")
def test_cmake_install_lays_out_command_library_header_runtime(prefix):
    files = {str(p.relative_to(prefix)) for p in prefix.rglob("*") if not p.is_dir()}
    libs = [p.parent.relative_to(prefix) for p in prefix.rglob("libtinyaot.so")]
    assert len(libs) == 1, f"cmake --install wrote no single libtinyaot.so: {sorted(files)}"
    libdir = libs[0]
    runtime = run(["git", "-C", ROOT, "ls-files", "runtime"]).split()
    expected = {"bin/tinyaot", f"{libdir}/libtinyaot.so", "include/tinyaot/tinyaot.h"}
    expected |= {"share/tinyaot/" + f for f in runtime}
    assert files == expected
    assert str(libdir).startswith("lib")
    assert run([prefix / "bin" / "tinyaot", "--version"]).strip() == f"tinyaot {VERSION}"


def test_installed_runtime_builds_a_converted_module(prefix, tmp_path):
    module = convert_demo(prefix / "bin" / "tinyaot", ROOT, tmp_path / "module")
    # The module's runtime/ is a copy of the installed sources, file for file.
    installed = prefix / "share" / "tinyaot" / "runtime"
    for copy in sorted((module / "runtime").rglob("*.[ch]")):
        assert copy.read_bytes() == (installed / copy.relative_to(module / "runtime")).read_bytes()
    # So a module built from the installed runtime instead runs the same.
    kernels = [installed / "kernels" / p.name for p in sorted(module.glob("runtime/kernels/*.c"))]
    (module / "runtime").rename(tmp_path / "module_runtime")
    (module / "runtime").symlink_to(installed)
    build_and_classify(ROOT, module, kernels)
    # The tensor arena library and the custom-kernel header compile from there.
    arena = installed / "arena"
    for source in sorted(arena.glob("*.c")) + [installed / "include" / "ta_custom.h"]:
        run(["cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-fsyntax-only", "-x", "c",
             "-I", arena, "-I", installed / "include", source])


@doc_command("cc -I /opt/tinyaot/include app.c -L /opt/tinyaot/lib -ltinyaot -o app",
             "LD_LIBRARY_PATH=/opt/tinyaot/lib ./app")
def test_installed_library_links_from_the_prefix(prefix, tmp_path):
    program = tmp_path / "version.c"
    program.write_text('#include <stdio.h>\n#include "tinyaot/tinyaot.h"\n'
                       'int main(void) { puts(tinyaot_version()); return 0; }\n')
    libdir = next(prefix.rglob("libtinyaot.so")).parent
    exe = tmp_path / "version"
    run(["cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-I", prefix / "include", program,
         "-L", libdir, "-ltinyaot", "-o", exe])
    env = user_env()
    env["LD_LIBRARY_PATH"] = str(libdir)
    assert run([exe], env=env).strip() == VERSION


def deps(mode, tools):
    """scripts/deps.sh MODE as a user who is not root, with only `tools` on
    PATH (besides the two commands the script itself uses)."""
    bindir = pathlib.Path(tempfile.mkdtemp(prefix="tinyaot-deps-"))
    try:
        bindir.chmod(0o755)
        for tool in (*tools, "dirname", "id"):
            (bindir / tool).symlink_to(shutil.which(tool))
        cmd = ["/bin/sh", str(ROOT / "scripts" / "deps.sh"), mode]
        if os.geteuid() == 0:
            cmd = [shutil.which("setpriv"), "--reuid=65534", "--regid=65534",
                   "--clear-groups"] + cmd
        return subprocess.run(cmd, env={"PATH": str(bindir)}, capture_output=True, text=True,
                              timeout=60)
    finally:
        shutil.rmtree(bindir)


def test_deps_build_needs_only_a_compiler_cmake_and_libyaml():
    assert pathlib.Path("/usr/include/yaml.h").is_file()  # libyaml-dev, as deps.sh checks
    p = deps("build", ("cc", "cmake", "make"))
    assert (p.returncode, p.stdout, p.stderr) == (0, "", "")
    p = deps("build", ("cc", "make"))
    assert p.returncode == 1
    assert p.stderr == "deps (build): missing Debian packages: cmake (run as root, or install them)\n"


def test_deps_demo_adds_the_cortex_m_toolchain_and_qemu_only():
    p = deps("demo", ("cc", "cmake", "make"))
    assert p.returncode == 1
    assert p.stderr == ("deps (demo): missing Debian packages: gcc-arm-none-eabi "
                        "libnewlib-arm-none-eabi qemu-system-arm python3 (run as root, or "
                        "install them)\n")
    p = deps("test", ("cc", "cmake", "make"))
    assert p.returncode == 1
    for package in ("qemu-system-arm", "clang", "libclang-rt-dev", "python3-venv", "chromium"):
        assert f" {package}" in p.stderr


def test_make_targets_ask_for_their_own_dependencies():
    def planned(target):
        return run(["make", "-n", "-C", ROOT, target])
    assert "scripts/deps.sh build" in planned("build")
    assert "deps.sh test" not in planned("build") and "deps.sh test" not in planned("demo")
    assert "scripts/deps.sh demo" in planned("demo")
    assert "scripts/deps.sh test" in planned("test")


@doc_command("pip install -C cmake.define.TINYAOT_PREBUILT_DIR=$PWD/build .")
def test_prebuilt_build_goes_into_the_package_unchanged(tmp_path):
    """make test's `pip install -C cmake.define.TINYAOT_PREBUILT_DIR=build .`:
    the project configured that way compiles nothing of its own and
    installs build/'s command and library as they are."""
    build = ROOT / "build"
    run(["cmake", "-S", ROOT, "-B", tmp_path / "b", f"-DTINYAOT_PREBUILT_DIR={build}"])
    run(["cmake", "--build", tmp_path / "b"])
    run(["cmake", "--install", tmp_path / "b", "--prefix", tmp_path / "p"])
    assert (tmp_path / "p/bin/tinyaot").read_bytes() == (build / "tinyaot").read_bytes()
    lib = next((tmp_path / "p").rglob("libtinyaot.so"))
    assert lib.read_bytes() == (build / "libtinyaot.so").read_bytes()
    assert not list((tmp_path / "b").rglob("*.o"))
    p = subprocess.run(["cmake", "-S", ROOT, "-B", tmp_path / "bad",
                        f"-DTINYAOT_PREBUILT_DIR={tmp_path}"], capture_output=True, text=True)
    assert p.returncode != 0
    message = " ".join(p.stderr.split())  # CMake wraps long messages
    assert f"TINYAOT_PREBUILT_DIR={tmp_path} is not a configured tinyaot build" in message


def my_int8_model():
    """A newcomer's own model, written here: int8 [1,8,8,3] -> CONV_2D 3x3
    to 8 channels (per-channel weights, fused RELU) -> FULLY_CONNECTED to 4."""
    import numpy as np

    from tests.gen.builder import ModelBuilder, Q
    rng = np.random.default_rng(22)
    b = ModelBuilder()
    x = b.tensor([1, 8, 8, 3], "int8", Q(0.05, -3), name="image")
    w = b.const(rng.integers(-127, 128, [8, 3, 3, 3]).astype(np.int8), "int8",
                Q([0.004 + 0.001 * i for i in range(8)], [0] * 8), name="conv_weights")
    bias = b.const(rng.integers(-500, 500, [8]).astype(np.int32), "int32",
                   Q([0.05 * (0.004 + 0.001 * i) for i in range(8)], [0] * 8), name="conv_bias")
    c = b.tensor([1, 8, 8, 8], "int8", Q(0.08, -128), name="features")
    b.op("CONV_2D", [x, w, bias], [c], "Conv2DOptions", padding=b.SAME, strideH=1, strideW=1,
         dilationHFactor=1, dilationWFactor=1, fusedActivationFunction="RELU")
    fw = b.const(rng.integers(-127, 128, [4, 512]).astype(np.int8), "int8", Q(0.002, 0),
                 name="fc_weights")
    y = b.tensor([1, 4], "int8", Q(0.5, 10), name="scores")
    b.op("FULLY_CONNECTED", [c, fw], [y], "FullyConnectedOptions")
    return b.build([x], [y])


def test_newcomers_path_with_the_installed_command_on_both_boards(venv, tmp_path):
    """Issue 22's walk, with nothing but the wheel in a new environment (its
    bin/ first on PATH, as after `activate`): convert a model the test
    writes into firmware for each board, build and run it under QEMU,
    validate it against TFLite Micro (the wheel's own dependency, found
    beside the installed command), profile it; then a float32 model on the
    Cortex-M4F, which differs from TFLite Micro in the last bits (newlib's
    expf) and passes only with a tolerance."""
    import json

    from tests.test_validate_float import softmax_model
    env = user_env()
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env['PATH']}"
    model = tmp_path / "my_model.tflite"
    model.write_bytes(my_int8_model())
    for board in ("mps3_an547", "mps2_an386"):
        out = tmp_path / board
        run(["tinyaot", "convert", "--model.path", model, "--module.path", out,
             "--module.prefix", "mine", "--platform.name", board, "--module.type", "firmware",
             "--quiet"], env=env)
        printed = run(["make", "-s", "-C", out / "firmware", "run"], env=env)
        assert "mine: test case passed" in printed, printed
        assert re.search(r"mine: inference: \d+ instructions", printed), printed
        checked = run(["tinyaot", "validate", "--model.path", model, "--platform.name", board,
                       "--runs", "2"], env=env, timeout=600)
        first = checked.splitlines()[0]
        assert first.startswith("tinyaot validate: reference: TFLite Micro"), first
        assert f"(python {venv / 'bin'}" in first, first  # the wheel's oracle
        assert "OK: every output of every build matches TFLite Micro" in checked, checked
        profile = json.loads(run(["tinyaot", "profile", "--model.path", model,
                                  "--platform.name", board, "--format", "json"], env=env))
        text = json.dumps(profile)
        assert "CONV_2D" in text and "FULLY_CONNECTED" in text, text[:2000]
    float_model = tmp_path / "my_float_model.tflite"
    float_model.write_bytes(softmax_model())
    exact = subprocess.run(["tinyaot", "validate", "--model.path", str(float_model),
                            "--platform.name", "mps2_an386", "--runs", "20"], env=env,
                           capture_output=True, text=True, timeout=600)
    assert exact.returncode == 1 and "MISMATCH" in exact.stdout + exact.stderr, exact.stdout
    tolerant = run(["tinyaot", "validate", "--model.path", float_model, "--platform.name",
                    "mps2_an386", "--runs", "20", "--ulps", "4"], env=env, timeout=600)
    assert re.search(r"max ulp error [1-4], cosine similarity", tolerant), tolerant
    assert "OK: every output of every build matches TFLite Micro" in tolerant, tolerant
