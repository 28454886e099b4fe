"""The example applications of examples/ (issue 10 item 7), built and run
as a user would: a host CMake app (examples/host_cmake) and a plain-make
app using the module's demo.mk (examples/make_app). The generated firmware
(module.type firmware, examples/firmware/run.sh) runs on both QEMU boards
here through `make demo` (examples/demo/run.sh), and in test_firmware_*.py."""

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
def test_make_demo_runs_on_the_host_and_the_emulated_cortex_m55_and_m4():
    out = run(["sh", EXAMPLES / "demo" / "run.sh", module.tinyaot_bin()])
    host, boards = out.split("== the same model on the emulated Cortex-M55", 1)
    assert "all 4 windows classified correctly" in host
    m55, m4 = boards.split("== the same model on the emulated Cortex-M4F", 1)
    for board, text in (("mps3_an547", m55), ("mps2_an386", m4)):
        # The generated firmware (module.type firmware), not a hand-kept copy.
        assert (ROOT / "build" / "demo" / board / "module" / "firmware" / "main.c").is_file()
        assert "demo: test case passed (2 runs, status 0 ok)" in text
        assert re.search(r"demo: output 0 \(4 elements\):( \S+){4}\n", text)
        assert int(re.search(r"demo: inference: (\d+) instructions \(QEMU -icount", text)[1]) > 0
        size = re.search(r"module \(libdemo\.a, every object linked from it\): "
                         r"flash (\d+) bytes, RAM (\d+) bytes", text)
        flash, ram = map(int, size.groups())
        views = json.loads((ROOT / "build" / "demo" / board / "module" /
                            "demo_views.json").read_text())
        constants = sum(r["size"] for r in views["regions"] if r["role"] == "constant")
        scratch = sum(r["size"] for r in views["regions"] if r["role"] == "scratch")
        assert flash > constants and ram >= scratch
