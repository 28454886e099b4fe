"""The example applications of examples/ (issue 10 item 7), built and run
as a user would: a host CMake app (examples/host_cmake) and a plain-make
app using the module's demo.mk (examples/make_app). The Cortex-M55
firmware (examples/firmware_m55) runs under QEMU in test_firmware_link.py and
here through `make demo` (examples/demo/run.sh)."""

import json
import pathlib
import re
import subprocess

import pytest

from tests.harness import module
from tests.harness.doc_commands import doc_command

ROOT = pathlib.Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
DEMO = EXAMPLES / "demo" / "demo.tflite"
CLASSES = ["flat", "rising", "falling", "oscillating"]


@pytest.fixture(scope="module")
def demo_module(tmp_path_factory):
    return module.convert(DEMO, tmp_path_factory.mktemp("demo") / "module", prefix="demo")


def run(cmd, **kw):
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=300, **kw)
    assert p.returncode == 0, p.stdout + p.stderr
    return p.stdout


@pytest.mark.parametrize("window", [1, 2, 3, 4])
def test_host_cmake_app_prints_the_top_class_and_scores(tmp_path_factory, demo_module, window):
    build = tmp_path_factory.getbasetemp() / "host_cmake_build"
    if not (build / "classify").exists():
        run(["cmake", "-S", EXAMPLES / "host_cmake", "-B", build,
             f"-DTINYAOT_MODULE={demo_module.path}"])
        run(["cmake", "--build", build])
    out = run([build / "classify", window]).splitlines()
    assert out[0] == f"window {window}: {CLASSES[window - 1]}"
    scores = {line.split()[0]: float(line.split()[1]) for line in out[1:]}
    assert set(scores) == set(CLASSES)
    assert max(scores, key=scores.get) == CLASSES[window - 1]
    assert abs(sum(scores.values()) - 1.0) < 0.02  # softmax probabilities, dequantized
    assert f"{CLASSES[window - 1]:11} {scores[CLASSES[window - 1]]:.4f}  <- top" in "\n".join(out)


def test_host_cmake_app_rejects_a_bad_window(tmp_path, demo_module):
    run(["cmake", "-S", EXAMPLES / "host_cmake", "-B", tmp_path, f"-DTINYAOT_MODULE={demo_module.path}"])
    run(["cmake", "--build", tmp_path])
    p = subprocess.run([tmp_path / "classify", "5"], capture_output=True, text=True)
    assert p.returncode == 2 and "usage" in p.stderr


def test_make_app_with_the_module_mk(tmp_path, demo_module):
    run(["make", "-s", "-C", EXAMPLES / "make_app", f"MODULE={demo_module.path}",
         f"OUT={tmp_path}"])
    out = run([tmp_path / "classify_file", EXAMPLES / "demo" / "inputs.bin"]).splitlines()
    assert [line.split()[2] for line in out] == CLASSES
    assert [line.split()[1] for line in out] == ["1:", "2:", "3:", "4:"]


@pytest.mark.qemu
@doc_command("make demo")  # run.sh is what make demo runs after make build
def test_make_demo_runs_on_the_host_and_the_emulated_cortex_m55():
    out = run(["sh", EXAMPLES / "demo" / "run.sh", module.tinyaot_bin()])
    host, m55 = out.split("== the same model on the emulated Cortex-M55", 1)
    assert "all 4 windows classified correctly" in host
    runs = re.findall(r"window \d \((\w+) *\): p = \[[0-9. ]+\] -> (\w+), (\d+) instructions", m55)
    assert [(a, b) for a, b, _ in runs] == [(c, c) for c in CLASSES]
    assert all(int(n) > 0 for _, _, n in runs)
    assert "test case: passed" in m55
    assert "all 4 windows classified correctly" in m55
    size = re.search(r"module \(libdemo\.a, every object linked from it\): "
                     r"flash (\d+) bytes, RAM (\d+) bytes", m55)
    flash, ram = map(int, size.groups())
    views = json.loads((ROOT / "build" / "demo" / "module_m55" / "demo_views.json").read_text())
    constants = sum(r["size"] for r in views["regions"] if r["role"] == "constant")
    scratch = sum(r["size"] for r in views["regions"] if r["role"] == "scratch")
    assert flash > constants and ram >= scratch
