"""module.type firmware (issue 22, finding 3): the generated bare-metal
application in <module>/firmware builds with make and with CMake for both
QEMU boards and any prefix, runs the built-in test case under
qemu-system-arm, and prints every output and the instructions an
inference took. Other platforms and a switched-off test case are refused
in one line."""

import pathlib
import re
import subprocess

import pytest

from tests.harness import module

ROOT = pathlib.Path(__file__).resolve().parents[1]
DEMO = ROOT / "examples" / "demo" / "demo.tflite"
HELLO = module.MODELS / "tflm_hello_world_int8.tflite"
FILES = {"main.c", "startup.c", "semihost.c", "semihost.h", "icount.c", "icount.h", "board.ld",
         "Makefile", "CMakeLists.txt", "arm-none-eabi.cmake"}
# board, model, prefix, module.name, the printed output line
CASES = [
    ("mps3_an547", DEMO, "wake", "wake_lib", r"wake: output 0 \(4 elements\):( [-0-9.e]+){4}\n"),
    ("mps2_an386", HELLO, "sine", "sine", r"sine: output 0 \(1 elements\): -?\d+\n"),
]

pytestmark = pytest.mark.qemu


def convert(tmp_path, board, model, prefix, name, **keys):
    keys = {"platform.name": board, "module.type": "firmware", "module.name": name, **keys}
    return module.convert(model, tmp_path / "module", prefix=prefix, keys=keys)


def check_run(p, prefix):
    assert p.returncode == 0, p.stdout + p.stderr
    assert f"{prefix}: test case passed" in p.stdout, p.stdout
    count = re.search(rf"{prefix}: inference: (\d+) instructions \(QEMU -icount; no DWT", p.stdout)
    assert count and int(count[1]) > 100, p.stdout
    return int(count[1])


@pytest.mark.parametrize("board,model,prefix,name,output", CASES)
def test_make_and_cmake_build_and_run_the_firmware(tmp_path, board, model, prefix, name, output):
    mod = convert(tmp_path, board, model, prefix, name)
    fw = mod.path / "firmware"
    assert {p.name for p in fw.iterdir()} == FILES
    # Every file is the module's: listed in the marker, so --force and the
    # swap treat it like the others.
    marker = (mod.path / ".tinyaot-module").read_text()
    assert all(f"firmware/{f}" in marker for f in FILES)
    assert f"INCLUDE {prefix}_sections.ld" in (fw / "board.ld").read_text()

    made = subprocess.run(["make", "-s", "-C", str(fw), f"OUT={tmp_path / 'make'}", "run"],
                          capture_output=True, text=True, timeout=600)
    made_count = check_run(made, prefix)
    assert re.search(output, made.stdout), made.stdout

    build = tmp_path / "cmake"
    for cmd in (["cmake", "-S", str(fw), "-B", str(build),
                 "-DCMAKE_TOOLCHAIN_FILE=arm-none-eabi.cmake"],
                ["cmake", "--build", str(build), "-j2"],
                ["cmake", "--build", str(build), "--target", "run"]):
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        assert p.returncode == 0, p.stdout + p.stderr
    check_run(p, prefix)
    assert re.search(output, p.stdout), p.stdout
    # The same outputs from both builds.
    assert re.search(output, made.stdout)[0] == re.search(output, p.stdout)[0]
    assert made_count > 0


def test_the_firmware_is_deterministic(tmp_path):
    a = convert(tmp_path / "a", "mps3_an547", DEMO, "wake", "wake")
    b = convert(tmp_path / "b", "mps3_an547", DEMO, "wake", "wake")
    for f in FILES:
        assert (a.path / "firmware" / f).read_bytes() == (b.path / "firmware" / f).read_bytes()


def test_a_failing_test_case_fails_make_run(tmp_path):
    mod = convert(tmp_path, "mps2_an386", HELLO, "sine", "sine")
    # Corrupt the expected outputs: the firmware reports and exits 3.
    src = mod.path / "sine_test_case.c"
    text = src.read_text()
    start = text.index("sine_test_case_output0[")
    brace = text.index("{", start) + 1
    src.write_text(text[:brace] + "99, " + text[brace:].split(",", 1)[1])
    p = subprocess.run(["make", "-s", "-C", str(mod.path / "firmware"), f"OUT={tmp_path / 'b'}",
                        "run"], capture_output=True, text=True, timeout=600)
    assert p.returncode != 0
    assert "sine: test case: run 0, output 0, element 0: expected 99" in p.stdout, p.stdout
    assert "sine: test case FAILED" in p.stdout


@pytest.mark.parametrize("keys,message", [
    ({}, "module.type firmware: platform.name 'host' has no firmware board; supported: "
         "mps3_an547 (Cortex-M55 with Helium), mps2_an386 (Cortex-M4F)"),
    ({"platform.name": "apollo4p_evb"}, "platform.name 'apollo4p_evb' has no firmware board"),
    ({"platform.name": "mps3_an547", "test.enabled": "false"},
     "test.enabled: false, but module.type firmware runs the built-in test case"),
])
def test_refusals_are_one_line(tmp_path, keys, message):
    with pytest.raises(module.ConvertError) as e:
        module.convert(DEMO, tmp_path / "m", keys={"module.type": "firmware", **keys})
    assert message in e.value.stderr
    assert len(e.value.stderr.strip().splitlines()) == 1, e.value.stderr
    assert not (tmp_path / "m").exists()


def test_the_commands_of_docs_firmware_md_run(tmp_path):
    """The first shell block of docs/firmware.md, as written (tinyaot and the
    demo model given as this build's and an absolute path), and the output
    it shows."""
    doc = (ROOT / "docs" / "firmware.md").read_text()
    block = re.search(r"```sh\n(.*?)```", doc, re.S)[1]
    shown = re.search(r"The run\nprints, for the prefix `kws`:\n\n```\n(.*?)```", doc, re.S)[1]
    tinyaot = pathlib.Path(module.tinyaot_bin()).resolve()
    script = block.replace("tinyaot convert", f"{tinyaot} convert", 1)
    script = script.replace("examples/demo/demo.tflite", str(DEMO))
    p = subprocess.run(["bash", "-euc", script], cwd=tmp_path, capture_output=True, text=True,
                       timeout=900)
    assert p.returncode == 0, p.stdout + p.stderr
    # make run and the CMake run target each print the lines the doc shows.
    for line in shown.splitlines():
        assert p.stdout.count(line) == 2, (line, p.stdout)
