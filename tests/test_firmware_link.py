"""The linker fragment <prefix>_sections.ld (issue 10 item 5): the Cortex-M55
firmware module.type firmware generates (firmware/) links a module with it, and
every module object lands in the memory the plan gave it; without the
fragment the problem is caught at link time; the fragment's ASSERTs stop a
script that puts a module section elsewhere; a Helium/DSP module compiled
without its CPU flags warns."""

import pathlib
import re
import subprocess

import pytest

from tests.harness import module

ROOT = pathlib.Path(__file__).resolve().parents[1]
DEMO = ROOT / "examples" / "demo" / "demo.tflite"
HELLO = pathlib.Path("/work/shared/models/tflm_hello_world_int8.tflite")
# targets/mps3_an547.yaml
MEMORIES = {"ITCM": (0x00000000, 512 * 1024), "DTCM": (0x20000000, 512 * 1024),
            "SRAM": (0x01000000, 2 << 20), "MRAM": (0x28000000, 8 << 20),
            "PSRAM": (0x21000000, 4 << 20)}

pytestmark = pytest.mark.qemu


def convert_demo(tmp_path, **keys):
    keys = {"platform.name": "mps3_an547", "module.type": "firmware", **keys}
    return module.convert(DEMO, tmp_path / "module", prefix="demo", keys=keys)


def make_firmware(tmp_path, mod, *targets, **variables):
    cmd = ["make", "-s", "-C", str(mod.path / "firmware"), f"OUT={tmp_path / 'fw'}"]
    cmd += [f"{k}={v}" for k, v in variables.items()] + list(targets)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def symbols(elf):
    out = subprocess.run(["arm-none-eabi-nm", str(elf)], capture_output=True, text=True,
                         check=True).stdout
    return {name: int(addr, 16) for addr, _, name in (l.split() for l in out.splitlines()
                                                       if len(l.split()) == 3)}


def memory_of(addr):
    return next((m for m, (base, size) in MEMORIES.items() if base <= addr < base + size), None)


def placed_objects(mod):
    """(symbol, memory) of every arena and blob the residency plan places."""
    out = [(r["symbol"], r["memory"]) for r in mod.views["regions"] if r.get("symbol")]
    return out + [(r["source_symbol"], r["source_memory"]) for r in mod.views["regions"]
                  if r.get("source_symbol")]


def script_variant(tmp_path, mod, old, new):
    text = (mod.path / "firmware" / "board.ld").read_text()
    assert old in text
    path = tmp_path / "variant.ld"
    path.write_text(text.replace(old, new))
    return path


@pytest.mark.parametrize("case,keys", [
    ("default", {}),
    # Constants in DTCM: initial bytes in a volatile memory, so they load from
    # TINYAOT_LOAD and the copy table must bring them in (else all zero).
    ("dtcm_constants", {"memory.tensors": [{"type": "constant",
                                            "attributes": {"memory": "DTCM"}}]}),
    # Staged: MRAM source blob, SRAM destination arena, hydrated at init.
    ("staged", {"memory.tensors": [{"type": "constant", "attributes": {
        "memory": "MRAM", "constant_destination_memory": "SRAM"}}]}),
    # Operator code in ITCM: loaded from TINYAOT_LOAD, copied before it runs.
    ("itcm_code", {"operators": [{"type": "FULLY_CONNECTED",
                                  "attributes": {"code_placement": "ITCM"}}]}),
])
def test_fragment_places_every_section(tmp_path, case, keys):
    mod = convert_demo(tmp_path, **keys)
    fragment = mod.path / "demo_sections.ld"
    assert fragment.is_file()
    assert "DEMO_LINKER_FRAGMENT" in (mod.path / "CMakeLists.txt").read_text()
    assert "DEMO_LINKER_FRAGMENT :=" in (mod.path / "demo.mk").read_text()
    p = make_firmware(tmp_path, mod, "run")
    assert p.returncode == 0, p.stdout + p.stderr
    assert "demo: test case passed (2 runs, status 0 ok)" in p.stdout
    assert re.search(r"demo: inference: \d+ instructions", p.stdout)
    syms = symbols(tmp_path / "fw" / "firmware.elf")
    placed = placed_objects(mod)
    assert placed
    for symbol, memory in placed:
        assert memory_of(syms[symbol]) == memory, (symbol, hex(syms[symbol]), memory)
    if case == "itcm_code":
        for op in ("demo_fully_connected_1_run", "demo_fully_connected_2_run"):
            assert memory_of(syms[op]) == "ITCM", (op, hex(syms[op]))
        assert memory_of(syms["__demo_itcm_text_load"]) == "MRAM"
    if case == "dtcm_constants":
        assert "AT> TINYAOT_LOAD" in fragment.read_text()
        assert syms["__demo_copy_table_end"] - syms["__demo_copy_table_start"] == 12


def test_objdump_shows_the_module_sections_in_their_regions(tmp_path):
    mod = convert_demo(tmp_path)
    assert make_firmware(tmp_path, mod).returncode == 0
    out = subprocess.run(["arm-none-eabi-objdump", "-h", str(tmp_path / "fw" / "firmware.elf")],
                         capture_output=True, text=True, check=True).stdout
    vma = {f[1]: int(f[3], 16) for f in (l.split() for l in out.splitlines())
           if len(f) >= 4 and f[1].startswith(".demo.")}
    assert memory_of(vma[".demo.dtcm_bss"]) == "DTCM"
    assert memory_of(vma[".demo.mram_data"]) == "MRAM"


def test_without_the_fragment_the_link_fails_on_orphans(tmp_path):
    mod = convert_demo(tmp_path)
    # A script of the application's own: board.ld without the fragment and
    # without the QEMU kit's catch-all rules for the module memories.
    text = (mod.path / "firmware" / "board.ld").read_text()
    start = text.index("    /* firmware: the module's sections")
    end = text.index("    /* ---- the test program")
    script = tmp_path / "own.ld"
    script.write_text(text[:start] + text[end:])
    # With the default orphan handling the sections would land wherever the
    # linker likes while the residency report says MRAM; the firmware's link
    # makes that an error that names them.
    p = make_firmware(tmp_path, mod, SCRIPT=script)
    assert p.returncode != 0
    assert re.search(r"orphan section `\.mram_data\.demo'", p.stderr), p.stderr
    assert re.search(r"orphan section `\.dtcm_bss\.demo'", p.stderr), p.stderr


def test_an_earlier_rule_taking_a_module_section_fails_the_link(tmp_path):
    mod = convert_demo(tmp_path)
    # A script whose first rule also swallows .mram_data (before the INCLUDE).
    script = script_variant(
        tmp_path, mod, "    INCLUDE demo_sections.ld\n",
        "    .flashdata : { *(.mram_data.*) } > APP\n    INCLUDE demo_sections.ld\n")
    p = make_firmware(tmp_path, mod, SCRIPT=script)
    assert p.returncode != 0
    assert ("demo_arena_mram_const not in MRAM; an earlier rule took .mram_data.demo?"
            in p.stderr), p.stderr


def test_a_region_outside_the_target_memory_fails_the_link(tmp_path):
    mod = convert_demo(tmp_path)
    # DTCM declared where the SRAM is: the plan's DTCM would not be DTCM.
    script = script_variant(tmp_path, mod, "ORIGIN = 0x20000000, LENGTH = 512K",
                            "ORIGIN = 0x01100000, LENGTH = 512K")
    p = make_firmware(tmp_path, mod, SCRIPT=script)
    assert p.returncode != 0
    assert "region DTCM starts outside the target's DTCM" in p.stderr, p.stderr


def compile_model_c(mod, *flags):
    return subprocess.run(["arm-none-eabi-gcc", "-std=c99", "-Wall", "-Wextra", *flags,
                           "-I", str(mod.path), "-c", str(mod.path / f"{mod.prefix}_model.c"),
                           "-o", "/dev/null"], capture_output=True, text=True, check=True)


@pytest.mark.parametrize("target,good,bad,feature", [
    ("mps3_an547", ["-mcpu=cortex-m55", "-mfloat-abi=hard"], ["-mcpu=cortex-m4"], "Helium"),
    # gcc has no MVE with the soft-float ABI, whatever -mcpu says.
    ("mps3_an547", ["-mcpu=cortex-m55", "-mfloat-abi=softfp"], ["-mcpu=cortex-m55"], "Helium"),
    ("mps2_an386", ["-mcpu=cortex-m4"], ["-mcpu=cortex-m3"], "DSP"),
])
def test_cpu_flags_warning(tmp_path, target, good, bad, feature):
    mod = module.convert(HELLO, tmp_path / target, keys={"platform.name": target})
    warning = f"#warning \"m module: compiled without {feature}"
    assert warning in compile_model_c(mod, *bad).stderr
    assert warning in compile_model_c(mod).stderr  # no -mcpu at all
    assert "#warning" not in compile_model_c(mod, *good).stderr
    assert "#warning" not in compile_model_c(mod, *bad, "-DTA_NO_SIMD").stderr
    # A host build of the same module does not warn (it cannot have Helium).
    host = subprocess.run(["cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-I", str(mod.path),
                           "-c", str(mod.path / "m_model.c"), "-o", "/dev/null"],
                          capture_output=True, text=True)
    assert host.returncode == 0, host.stderr


def test_portable_target_has_no_warning_and_no_fragment(tmp_path):
    mod = module.convert(HELLO, tmp_path / "host")
    assert "#warning" not in (mod.path / "m_model.c").read_text()
    assert not (mod.path / "m_sections.ld").exists()
    assert "LINKER_FRAGMENT" not in (mod.path / "CMakeLists.txt").read_text()


def test_the_test_case_catches_a_skipped_copy_table(tmp_path):
    # Constants in DTCM load from TINYAOT_LOAD; a start-up that does not walk
    # the copy table leaves them zero, and the built-in test case says so.
    mod = convert_demo(tmp_path, **{"memory.tensors": [{"type": "constant",
                                                        "attributes": {"memory": "DTCM"}}]})
    fw = mod.path / "firmware"
    main = (fw / "main.c").read_text()
    loop = "    for (const uint32_t *e = __demo_copy_table_start;"
    assert loop in main
    variant = fw / "main_without_copy.c"
    variant.write_text(main.replace(loop, "    if (0)\n" + loop))
    srcs = " ".join(str(fw / f) for f in ["main_without_copy.c", "startup.c", "semihost.c",
                                          "icount.c"])
    p = make_firmware(tmp_path, mod, "run", APP_SRCS=srcs)
    assert p.returncode != 0
    assert re.search(r"demo: test case: run 0, output 0, element \d+: expected \S+, got 0",
                     p.stdout)
    assert "demo: test case FAILED" in p.stdout and "test_mismatch" in p.stdout


def test_cmake_exposes_the_fragment_to_the_parent_project(tmp_path):
    mod = convert_demo(tmp_path)
    app = tmp_path / "app"
    app.mkdir()
    (app / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.13)\nproject(app C)\n"
        f"add_subdirectory({mod.path} module)\n"
        'message(STATUS "fragment=${DEMO_LINKER_FRAGMENT} dir=${DEMO_LINKER_DIR}")\n')
    p = subprocess.run(["cmake", "-S", str(app), "-B", str(tmp_path / "b")], capture_output=True,
                       text=True)
    assert p.returncode == 0, p.stderr
    assert f"fragment={mod.path}/demo_sections.ld dir={mod.path}" in p.stdout
