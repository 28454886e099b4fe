"""Float32 modules are built without floating-point contraction (issue 12
item 4): a fused multiply-add rounds once where TFLite Micro's float
reference kernels round twice, so every build file the module carries, the
test harnesses and the QEMU kit pass -ffp-contract=off; and the operator
tests compare float outputs bit for bit."""

import json
import pathlib
import re
import subprocess

import numpy as np

from tests.harness import difftest, module

ROOT = pathlib.Path(__file__).resolve().parents[1]
DEMO = ROOT / "examples" / "demo" / "demo.tflite"


def test_generated_cmake_compiles_every_source_without_contraction(tmp_path):
    m = module.convert(DEMO, tmp_path / "mod", prefix="demo")
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.13)\nproject(app C)\n"
        f"add_subdirectory({m.path} demo)\n")
    p = subprocess.run(["cmake", "-S", str(tmp_path / "app"), "-B", str(tmp_path / "b"),
                        "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    commands = json.loads((tmp_path / "b" / "compile_commands.json").read_text())
    compiled = {pathlib.Path(c["file"]).resolve() for c in commands}
    assert compiled == {p.resolve() for p in m.path.rglob("*.c")}
    for c in commands:
        assert "-ffp-contract=off" in c["command"].split(), c


def test_make_fragment_and_pack_say_so(tmp_path):
    m = module.convert(DEMO, tmp_path / "mod", prefix="demo")
    mk = (m.path / "demo.mk").read_text()
    assert re.search(r"^DEMO_CFLAGS := .* -ffp-contract=off$", mk, re.M)
    assert "# -ffp-contract=off: no fused multiply-add" in mk
    assert "# -ffp-contract=off: no fused multiply-add" in (m.path / "CMakeLists.txt").read_text()


def test_harness_and_qemu_kit_build_without_contraction():
    assert "-ffp-contract=off" in module.cflags()
    run_sh = (ROOT / "tests" / "qemu" / "run.sh").read_text()
    assert re.search(r"^\s+-Wall -Wextra -Werror -ffp-contract=off ", run_sh, re.M)


def test_float_outputs_compare_bit_for_bit():
    ours = [[np.array([0.0, 1.0, np.nan], np.float32)]]
    same = [[np.array([0.0, 1.0, np.nan], np.float32)]]
    # -0.0 == 0.0 and a different NaN payload both count as differences
    other = [[np.array([-0.0, np.nextafter(np.float32(1), np.float32(2)),
                        np.frombuffer(np.uint32(0x7fc00001).tobytes(), np.float32)[0]],
                       np.float32)]]
    assert difftest._count_diff(ours, same) == (12, 0)
    total, diff = difftest._count_diff(ours, other)
    assert total == 12 and diff >= 3
