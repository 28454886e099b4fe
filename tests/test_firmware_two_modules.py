"""Two modules in one image (issue 22, finding 5): every section a module
emits is named after its prefix (".dtcm_bss.<prefix>") and each
<prefix>_sections.ld takes only its own. Two models, converted with two
prefixes, link into one Cortex-M55 firmware (the first module's generated
firmware with the second module's fragment INCLUDEd next to the first);
the link map shows each module's objects in its own output sections, every
copy and zero table entry covers its output section exactly, and both
built-in test cases pass under QEMU."""

import pathlib
import re
import struct
import subprocess

import pytest

from tests.harness import module

ROOT = pathlib.Path(__file__).resolve().parents[1]
DEMO = ROOT / "examples" / "demo" / "demo.tflite"
HELLO = module.MODELS / "tflm_hello_world_int8.tflite"
M55 = ["-mcpu=cortex-m55", "-mfloat-abi=hard"]
# Constants in DTCM: initial bytes that load from the MRAM, so both modules
# have a copy table entry as well as a zero table entry.
DTCM_CONSTANTS = {"memory.tensors": [{"type": "constant", "attributes": {"memory": "DTCM"}}]}

pytestmark = pytest.mark.qemu

MAIN = """\
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "demo_test_case.h"
#include "{wave}/wave_test_case.h"

extern const uint32_t __demo_copy_table_start[], __demo_copy_table_end[];
extern const uint32_t __demo_zero_table_start[], __demo_zero_table_end[];
extern const uint32_t __wave_copy_table_start[], __wave_copy_table_end[];
extern const uint32_t __wave_zero_table_start[], __wave_zero_table_end[];

static void init(const uint32_t *copy, const uint32_t *copy_end, const uint32_t *zero,
                 const uint32_t *zero_end)
{{
    for (const uint32_t *e = copy; e < copy_end; e += 3)
        memcpy((void *)(uintptr_t)e[1], (const void *)(uintptr_t)e[0], e[2]);
    for (const uint32_t *e = zero; e < zero_end; e += 2)
        memset((void *)(uintptr_t)e[0], 0, e[1]);
}}

int main(void)
{{
    init(__demo_copy_table_start, __demo_copy_table_end, __demo_zero_table_start,
         __demo_zero_table_end);
    init(__wave_copy_table_start, __wave_copy_table_end, __wave_zero_table_start,
         __wave_zero_table_end);
    demo_model_context_t d;
    wave_model_context_t w;
    int a = demo_test_case_run(&d);
    int b = wave_test_case_run(&w);
    printf("demo: test case %s (status %d)\\n", a ? "FAILED" : "passed", a);
    printf("wave: test case %s (status %d)\\n", b ? "FAILED" : "passed", b);
    return a || b;
}}
"""


def build_archive(mod, out):
    """lib<prefix>.a of a module (its sources and runtime kernels), for the M55."""
    objs = []
    for src in sorted(mod.path.rglob("*.c")):
        obj = out / (src.relative_to(mod.path).as_posix().replace("/", "_") + ".o")
        subprocess.run(["arm-none-eabi-gcc", *M55, "-std=c99", "-O2", "-ffp-contract=off",
                        "-ffunction-sections", "-fdata-sections", "-Wall", "-Wextra", "-Werror",
                        "-I", str(mod.path), "-c", str(src), "-o", str(obj)], check=True)
        objs.append(str(obj))
    lib = out / f"lib{mod.prefix}.a"
    subprocess.run(["arm-none-eabi-ar", "rcs", str(lib), *objs], check=True)
    return lib


def map_sections(text):
    """{output section: (address, size, [(input section, size, origin)])} of a GNU ld map."""
    body = text.split("Linker script and memory map", 1)[1]
    out, current = {}, None
    pattern = (r"^(?P<indent> ?)(?P<name>\.\S+)\s+0x(?P<addr>[0-9a-f]+)\s+0x(?P<size>[0-9a-f]+)"
               r"(?:[ \t]+(?P<origin>\S+))?")
    for m in re.finditer(pattern, body, re.M):
        addr, size = int(m["addr"], 16), int(m["size"], 16)
        if not m["indent"]:
            current = out[m["name"]] = (addr, size, [])
        elif current is not None and m["origin"]:
            current[2].append((m["name"], size, m["origin"]))
    return out


def symbols(elf):
    out = subprocess.run(["arm-none-eabi-nm", str(elf)], capture_output=True, text=True,
                         check=True).stdout
    return {f[2]: int(f[0], 16) for f in (l.split() for l in out.splitlines()) if len(f) == 3}


def table_words(elf, section, tmp_path):
    raw = tmp_path / f"{section}.bin"
    subprocess.run(["arm-none-eabi-objcopy", "-O", "binary", f"--only-section={section}",
                    str(elf), str(raw)], check=True)
    data = raw.read_bytes()
    return list(struct.unpack(f"<{len(data) // 4}I", data))


def section_at(sections, addr):
    return next(name for name, (a, size, _) in sections.items()
                if a <= addr < a + max(size, 1) and not name.startswith(".debug"))


@pytest.fixture(scope="module")
def image(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("two")
    demo = module.convert(DEMO, tmp / "demo", prefix="demo",
                          keys={"platform.name": "mps3_an547", "module.type": "firmware",
                                **DTCM_CONSTANTS})
    wave = module.convert(HELLO, tmp / "wave", prefix="wave",
                          keys={"platform.name": "mps3_an547", "test.enabled": "true",
                                **DTCM_CONSTANTS})
    lib = build_archive(wave, tmp_path_factory.mktemp("wave_objs"))
    fw = demo.path / "firmware"
    script = tmp / "two.ld"
    first = "    INCLUDE demo_sections.ld\n"
    board = (fw / "board.ld").read_text()
    assert first in board
    script.write_text(board.replace(first, first + f"    INCLUDE {wave.path}/wave_sections.ld\n"))
    main = tmp / "two.c"
    main.write_text(MAIN.format(wave=wave.path))
    srcs = [main] + [fw / f for f in ("startup.c", "semihost.c", "icount.c")]
    p = subprocess.run(["make", "-s", "-C", str(fw), f"OUT={tmp / 'build'}", f"SCRIPT={script}",
                        f"APP_SRCS={' '.join(map(str, srcs))}", f"EXTRA_LIBS={lib}", "run"],
                       capture_output=True, text=True, timeout=600)
    elf = tmp / "build" / "firmware.elf"
    sections = map_sections((tmp / "build" / "firmware.map").read_text())
    return {"demo": demo, "wave": wave, "run": p, "elf": elf, "sections": sections, "tmp": tmp}


def test_both_test_cases_pass_in_one_image(image):
    p = image["run"]
    assert p.returncode == 0, p.stdout + p.stderr
    assert "demo: test case passed" in p.stdout and "wave: test case passed" in p.stdout


@pytest.mark.parametrize("prefix", ["demo", "wave"])
def test_each_module_sits_in_its_own_output_sections(image, prefix):
    sections = image["sections"]
    mine = {n: s for n, s in sections.items() if n.startswith(f".{prefix}.")}
    # Every output section of the fragment holds only this module's objects...
    for name, (_, _, inputs) in mine.items():
        for section, _, origin in inputs:
            assert section.endswith(f".{prefix}") and f"lib{prefix}.a(" in origin, \
                (name, section, origin)
    # ...and every input section of the module named after it is in one of them.
    for name, (_, _, inputs) in sections.items():
        for section, size, origin in inputs:
            if re.fullmatch(rf"\.\w+_(bss|data|text)\.{prefix}", section) and size:
                assert name in mine, (section, origin, name)
    # Every object the plan places is in this module's output sections.
    syms = symbols(image["elf"])
    m = image[prefix]
    placed = [r["symbol"] for r in m.views["regions"] if r.get("symbol")]
    assert placed
    for symbol in placed:
        assert section_at(sections, syms[symbol]).startswith(f".{prefix}."), symbol


@pytest.mark.parametrize("prefix", ["demo", "wave"])
def test_every_table_entry_covers_its_section(image, prefix):
    sections, elf, syms = image["sections"], image["elf"], symbols(image["elf"])
    words = table_words(elf, f".{prefix}.init_tables", image["tmp"])
    base = sections[f".{prefix}.init_tables"][0]

    def entries(name, width):
        start = (syms[f"__{prefix}_{name}_table_start"] - base) // 4
        end = (syms[f"__{prefix}_{name}_table_end"] - base) // 4
        return [words[i:i + width] for i in range(start, end, width)]

    copies, zeros = entries("copy", 3), entries("zero", 2)
    assert copies and zeros
    covered = set()
    for run_addr, size in [(e[1], e[2]) for e in copies] + [(e[0], e[1]) for e in zeros]:
        name = section_at(sections, run_addr)
        assert name.startswith(f".{prefix}."), (hex(run_addr), name)
        addr, out_size, inputs = sections[name]
        assert (run_addr, size) == (addr, out_size), (name, size, out_size)
        assert size >= sum(s for _, s, _ in inputs) > 0, name
        covered.add(name)
    # Every *_bss and every volatile *_data section of the module has its entry.
    needed = {n for n in sections if re.fullmatch(rf"\.{prefix}\.(\w+_bss|dtcm_data)", n)}
    assert needed and needed <= covered, (needed, covered)
