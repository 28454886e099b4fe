"""module.type: zephyr (issue 10 item 7): the Zephyr module files. Zephyr
is not installed, so the generated zephyr/CMakeLists.txt runs under
`cmake -P` with recording stand-ins for the zephyr_* functions; the test
checks what it asks Zephyr to build and link, and the Kconfig's shape."""

import pathlib
import re
import subprocess

from tests.harness import module

ROOT = pathlib.Path(__file__).resolve().parents[1]
DEMO = ROOT / "examples" / "demo" / "demo.tflite"
LOCATIONS = {"NOINIT", "RWDATA", "RODATA", "SECTIONS", "ITCM_SECTION", "DTCM_SECTION"}
STANDINS = """
function(zephyr_library_named name)
  file(APPEND ${LOG} "library ${name}\\n")
endfunction()
function(zephyr_library_sources)
  foreach(f ${ARGN})
    file(APPEND ${LOG} "source ${f}\\n")
  endforeach()
endfunction()
function(zephyr_include_directories)
  foreach(d ${ARGN})
    file(APPEND ${LOG} "include ${d}\\n")
  endforeach()
endfunction()
function(zephyr_library_compile_options)
  foreach(o ${ARGN})
    file(APPEND ${LOG} "option ${o}\n")
  endforeach()
endfunction()
function(zephyr_linker_sources location)
  foreach(f ${ARGN})
    file(APPEND ${LOG} "linker ${location} ${f}\\n")
  endforeach()
endfunction()
"""


def run_zephyr_cmake(tmp_path, mod, config):
    log = tmp_path / "calls.log"
    log.write_text("")
    script = tmp_path / "zephyr.cmake"
    script.write_text(f"set(LOG {log})\n{config}\n{STANDINS}\n"
                      f"include({mod.path / 'zephyr' / 'CMakeLists.txt'})\n")
    p = subprocess.run(["cmake", "-P", str(script)], capture_output=True, text=True)
    assert p.returncode == 0 and not p.stderr, p.stderr
    calls = [line.split(" ", 2) for line in log.read_text().splitlines()]
    return calls


def convert(tmp_path, **keys):
    keys = {"platform.name": "mps3_an547", "module.type": "zephyr", **keys}
    return module.convert(DEMO, tmp_path / "module", prefix="demo", keys=keys)


def test_zephyr_module_builds_every_source_and_places_every_section(tmp_path):
    mod = convert(tmp_path, **{
        "memory.tensors": [{"type": "constant", "attributes": {
            "memory": "MRAM", "constant_destination_memory": "SRAM"}}],
        "operators": [{"type": "FULLY_CONNECTED", "attributes": {"code_placement": "ITCM"}}]})
    z = mod.path / "zephyr"
    yml = (z / "module.yml").read_text()
    assert re.search(r"^name: \"demo\"$", yml, re.M)
    assert "  cmake: zephyr\n" in yml and "  kconfig: zephyr/Kconfig\n" in yml
    kconfig = (z / "Kconfig").read_text()
    assert re.search(r"^config TINYAOT_DEMO\n\tbool \"[^\"\n]+\"\n\thelp\n\t  \S", kconfig, re.M)

    calls = run_zephyr_cmake(tmp_path, mod, "set(CONFIG_TINYAOT_DEMO y)")
    assert ["library", "demo"] in [c[:2] for c in calls]
    built = {pathlib.Path(c[1]).resolve() for c in calls if c[0] == "source"}
    assert built == {p.resolve() for p in mod.path.rglob("*.c")}
    includes = [pathlib.Path(c[1]).resolve() for c in calls if c[0] == "include"]
    assert includes == [mod.path.resolve()]
    # no fused multiply-add: float kernels round as TFLite Micro's
    assert [c[1] for c in calls if c[0] == "option"] == ["-ffp-contract=off"]
    linked = {}
    for c in calls:
        if c[0] == "linker":
            location, snippet = c[1], c[2]
            assert pathlib.Path(snippet).name == f"demo_zephyr_{location.lower()}.ld"
            assert location in LOCATIONS
            linked[location] = pathlib.Path(snippet).read_text()
    # Code in ITCM, staged source blob in MRAM (flash), staged arena in SRAM.
    assert "*(.itcm_text.demo)\n" in linked["ITCM_SECTION"]
    assert "*(.mram_data.demo)\n" in linked["RODATA"]
    assert "*(.sram_bss.demo)\n" in linked["NOINIT"]
    # DTCM scratch uses Zephyr's own section name: no snippet, Zephyr places it.
    assert 'TA_SECTION(".dtcm_bss.demo")' in (mod.path / "demo_arenas.c").read_text()
    assert not any(".dtcm_bss" in text for text in linked.values())
    assert "# .dtcm_bss.demo (DTCM): Zephyr's linker script places it." in \
        (z / "CMakeLists.txt").read_text()


def test_the_library_is_guarded_by_its_config_option(tmp_path):
    mod = convert(tmp_path)
    assert run_zephyr_cmake(tmp_path, mod, "") == []


def test_cmake_module_type_has_no_zephyr_folder(tmp_path):
    mod = module.convert(DEMO, tmp_path / "m", prefix="demo",
                         keys={"platform.name": "mps3_an547"})
    assert not (mod.path / "zephyr").exists()


def test_external_memory_gets_an_output_section_of_its_own(tmp_path):
    mod = convert(tmp_path, **{"memory.tensors": [{"type": "scratch",
                                                   "attributes": {"memory": "PSRAM"}}]})
    calls = run_zephyr_cmake(tmp_path, mod, "set(CONFIG_TINYAOT_DEMO y)")
    linked = {c[1]: pathlib.Path(c[2]).read_text() for c in calls if c[0] == "linker"}
    assert set(linked) == {"SECTIONS", "RODATA"}
    assert ".demo.psram_bss (NOLOAD) :\n{\n    *(.psram_bss.demo)\n} > PSRAM\n" in \
        linked["SECTIONS"]
