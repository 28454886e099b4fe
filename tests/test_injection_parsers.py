"""Every generated file, read by a real parser of its syntax, whatever the
names in the model and the configuration (issue 26, defect 5 and what would
have found it).

One model whose tensor names, file name, model.name, model.description and
model.version hold what could end a comment, a string or a line, or start
a substitution, in any of the module's syntaxes: quotes, backslashes, "--",
"*/", "/*", "??/" trigraphs, newlines, "$(...)", "${...}", "#", "%",
U+FFFE, U+FFFF, control characters (NUL cannot be in a name), markup and a
3,000-byte name. It is converted with every module.type (cmake, make,
zephyr, cmsis_pack, firmware), each with the test case, the HTML
documentation and the residency report, and each file is read by:

  .json         json (strict UTF-8)
  .html         html.parser with a strict checker (below), the SVG also as XML
  .pdsc         xml.etree
  .c .h         gcc -fsyntax-only -Wall -Wextra -Werror (firmware: arm-none-eabi-gcc),
                and the C string literals compiled and printed back byte for byte
  CMakeLists    a configure of a project that add_subdirectory()s the module,
                the firmware project configured with its toolchain file, Zephyr's
                with `cmake -P` and the zephyr_* commands stubbed
  .mk Makefile  make -n
  .ld           arm-none-eabi-ld, linking the firmware's board.ld (which
                INCLUDEs the module's fragment) and the Zephyr fragment
  module.yml    yaml.safe_load
  Kconfig       a strict check of the grammar of each line (kconfiglib is not
                installed): comments, one `config` with a quoted prompt free of
                quotes, backslashes and `$`, an indented help text

and no file's "$(shell ...)" or "file(TOUCH ...)" ran."""

import hashlib
import html
import html.entities
import html.parser
import json
import os
import pathlib
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import numpy as np
import pytest
import yaml

from tests.gen.builder import ModelBuilder, Q
from tests.harness import module

TYPES = ["cmake", "make", "zephyr", "cmsis_pack", "firmware"]
# And module.type cmake for a target file whose own fields are hostile.
ALL = [*TYPES, "own_target"]
HOSTILE = ('q"\\ -- */ /* ??/ ??= ??\n\r\t $(shell touch ran) ${X} #x %s %% \x01\x1f\x7f '
           '\ufffe\uffff <!-- ]]> </script> & <b> \u2028 \u00e9 file(TOUCH ran) \\')
# A file name holds no "/" (nor NUL): the rest of the hostile bytes.
FILE_NAME = os.fsdecode(b"m\n$(shell touch mk_ran)\nfile(TOUCH cmake_ran)\n${Y} -- * ??= ??) % "
                        b"#\\ \"q\x01\xef\xbf\xbe\xef\xbf\xbf<!-- \\.tflite")
LONG = "L" * 3000
TARGET_NAME = 'T"*/ /* ??/ $(shell touch ran) ${X} \n#x % <b>&\ufffe\\'  # at most 64 bytes


def hostile_model():
    rng = np.random.default_rng(0)
    b = ModelBuilder()
    x = b.tensor([1, 8], "int8", Q(0.1, -5), name="in" + HOSTILE)
    y = b.tensor([1, 4], "int8", Q(0.2, 3), name="out" + HOSTILE + LONG)
    w = b.const(rng.integers(-127, 128, (4, 8)).astype(np.int8), "int8", Q(0.02, 0),
                name="w" + HOSTILE)
    b.op("FULLY_CONNECTED", [x, w], [y], "FullyConnectedOptions")
    return b.build(inputs=[x], outputs=[y])


def model_keys(module_type):
    """model.name, description and version as the configuration gives them
    (a pack's version must be numeric; the description at its 1,024-byte limit)."""
    description = "D" + HOSTILE
    description += "x" * (1024 - len(description.encode()))
    return {"name": "N" + HOSTILE, "description": description,
            "version": "1.2.3" if module_type == "cmsis_pack" else "V" + HOSTILE}


@pytest.fixture(scope="module")
def modules(tmp_path_factory):
    """module.type -> module directory, all converted from the hostile model."""
    tmp = tmp_path_factory.mktemp("inject")
    model = tmp / FILE_NAME
    model.write_bytes(hostile_model())
    out = {}
    target = tmp / "target.yaml"
    target.write_text(
        "name: %s\ndescription: %s\ncore: cortex-m4\nmin_alignment: 16\nsources: [%s]\n"
        "memories:\n  - {name: SRAM, base: 0x20000000, capacity: 65536, writable: true,\n"
        "     executable: false, volatile: true}\nspill_order: [SRAM]\n"
        % (json.dumps(TARGET_NAME), json.dumps("TD" + HOSTILE), json.dumps("S" + HOSTILE)))
    for t in ALL:
        keys = model_keys(t)
        cfg = tmp / f"{t}.yaml"
        # A configuration file: a command-line value is a plain YAML scalar.
        cfg.write_text(
            "model: {path: %s, name: %s, description: %s, version: %s}\n"
            "module: {type: %s, path: %s, prefix: m}\n"
            "platform: {name: %s}\n"
            "memory: {dump_residency_json: true}\n"
            "documentation: {html: true}\n"
            "test: {enabled: true}\n"
            % (json.dumps(str(model)), json.dumps(keys["name"]),
               json.dumps(keys["description"]), json.dumps(keys["version"]),
               "cmake" if t == "own_target" else t, json.dumps(str(tmp / t)),
               json.dumps(str(target)) if t == "own_target" else "mps3_an547"))
        p = subprocess.run([module.tinyaot_bin(), "convert", "--config", str(cfg)],
                           capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, p.stderr
        out[t] = tmp / t
    return out


def files(mod, *suffixes):
    return sorted(p for p in mod.rglob("*") if p.is_file() and p.name.endswith(suffixes))


def assert_nothing_ran(*dirs):
    for d in dirs:
        ran = [p for p in pathlib.Path(d).rglob("*") if p.name in ("ran", "mk_ran", "cmake_ran")]
        assert not ran, ran


def test_every_file_is_read_by_some_check(modules):
    """No file type escapes the checks below (a new kind of file needs one)."""
    checked = (".json", ".html", ".pdsc", ".c", ".h", ".txt", ".mk", "Makefile", ".ld",
               ".yml", "Kconfig", ".cmake", ".tinyaot-module")
    for t, mod in modules.items():
        unchecked = [p for p in mod.rglob("*") if p.is_file() and not p.name.endswith(checked)]
        assert not unchecked, (t, unchecked)


# ---- JSON ---------------------------------------------------------------------


@pytest.mark.parametrize("t", ALL)
def test_json_files_parse_and_keep_the_names(modules, t):
    for path in files(modules[t], ".json"):
        json.loads(path.read_bytes().decode("utf-8"))  # strict UTF-8, strict JSON
    residency = json.loads((modules[t] / "m_residency.json").read_text())
    names = {x["name"] for x in residency["tensors"]}
    # Valid UTF-8 kept as it is (U+FFFE and U+FFFF are characters to JSON).
    assert {"in" + HOSTILE, "w" + HOSTILE, "out" + HOSTILE + LONG} <= names


# ---- HTML and XML -------------------------------------------------------------

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
# Characters HTML calls parse errors in text (controls, noncharacters).
BAD_CHARS = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ufdd0-\ufdef\ufffe\uffff]")


class StrictHTML(html.parser.HTMLParser):
    """html.parser forgives everything; this records what a strict reader
    would not: end tags that close nothing or the wrong element, elements
    left open, text holding a raw '<' (a tag that did not parse) or '&'
    (charrefs are handled apart), bogus declarations, and characters HTML
    does not allow, raw or as references."""

    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.stack, self.errors = [], []

    def handle_charref(self, name):
        code = int(name[1:], 16) if name[0] in "xX" else int(name)
        if BAD_CHARS.search(chr(code)):
            self.errors.append(f"character reference &#{name};")

    def handle_entityref(self, name):
        if name + ";" not in html.entities.html5:
            self.errors.append(f"entity &{name};")

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value is not None and BAD_CHARS.search(value):
                self.errors.append(f"attribute {name} of <{tag}>: {value!r}")
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:]}")
        else:
            self.stack.pop()

    def handle_data(self, data):
        if self.stack and self.stack[-1] in ("style", "script"):
            return
        if "<" in data or "&" in data or BAD_CHARS.search(data):
            self.errors.append(f"text {data[:80]!r}")

    def unknown_decl(self, data):
        self.errors.append(f"declaration {data[:80]!r}")

    def handle_pi(self, data):
        self.errors.append(f"processing instruction {data[:80]!r}")


@pytest.mark.parametrize("t", ALL)
def test_html_is_well_formed(modules, t):
    (page,) = files(modules[t], ".html")
    text = page.read_bytes().decode("utf-8")
    checker = StrictHTML()
    checker.feed(text)
    checker.close()
    assert checker.errors == [] and checker.stack == [], (checker.errors[:5], checker.stack)
    assert "touch ran" in text  # the names are there, escaped
    if t == "own_target":
        assert "T&quot;*/ /* ??/ $(shell touch ran) ${X} \\x0a#x % &lt;b&gt;&amp;" in text
    svgs = re.findall(r"<svg\b.*?</svg>", text, re.S)
    assert svgs
    for svg in svgs:  # the picture is also XML, HTML's named references aside
        ET.fromstring(re.sub(r"&(?!(?:amp|lt|gt|quot|apos|#x?[0-9a-fA-F]+);)(\w+);",
                             lambda m: "&#%d;" % ord(html.unescape(m.group(0))), svg))


def test_pdsc_is_xml_and_keeps_the_description(modules):
    (pdsc,) = files(modules["cmsis_pack"], ".pdsc")
    root = ET.fromstring(pdsc.read_bytes())
    texts = " ".join(e.text or "" for e in root.iter())
    assert "$(shell touch ran) ${X} #x %s %%" in texts and "<!-- ]]> </script> & <b>" in texts


# ---- C ------------------------------------------------------------------------

C_FLAGS = ["-std=c99", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", "-Wcomment",
           "-Wtrigraphs", "-trigraphs"]


@pytest.mark.parametrize("t", ALL)
def test_c_files_compile(modules, t):
    """Every .c and .h, headers alone too; with -trigraphs, so a "??/" left
    in a comment or string would splice or escape (and warn)."""
    mod = modules[t]
    firmware = mod / "firmware"
    host = [p for p in files(mod, ".c", ".h") if firmware not in p.parents]
    cc = os.environ.get("CC", "cc")
    c = subprocess.run([cc, *C_FLAGS, "-I", mod, *[p for p in host if p.suffix == ".c"]],
                       capture_output=True, text=True)
    assert c.returncode == 0, c.stderr[-3000:]
    c = subprocess.run([cc, *C_FLAGS, "-I", mod, "-x", "c",
                        *[p for p in host if p.suffix == ".h"]], capture_output=True, text=True)
    assert c.returncode == 0, c.stderr[-3000:]
    if t == "firmware":
        arm = [p for p in files(firmware, ".c")]
        c = subprocess.run(["arm-none-eabi-gcc", "-mcpu=cortex-m55", "-mthumb", *C_FLAGS,
                            "-DTA_QEMU_CPU_HZ=25000000", "-I", mod, "-I", firmware, *arm],
                           capture_output=True, text=True)
        assert c.returncode == 0, c.stderr[-3000:]


@pytest.mark.parametrize("t", ["cmake", "cmsis_pack"])
def test_c_strings_round_trip(modules, t, tmp_path):
    """M_MODEL_NAME, _DESCRIPTION and _VERSION, compiled and printed, are
    the configuration's bytes exactly."""
    mod = modules[t]
    (tmp_path / "p.c").write_text(
        '#include <stdio.h>\n#include "m_model.h"\n'
        "int main(void) {\n"
        '  fwrite(M_MODEL_NAME, 1, sizeof M_MODEL_NAME - 1, stdout); putchar(0);\n'
        '  fwrite(M_MODEL_DESCRIPTION, 1, sizeof M_MODEL_DESCRIPTION - 1, stdout); putchar(0);\n'
        '  fwrite(M_MODEL_VERSION, 1, sizeof M_MODEL_VERSION - 1, stdout); putchar(0);\n'
        "  return 0;\n}\n")
    cc = os.environ.get("CC", "cc")
    subprocess.run([cc, "-std=c99", "-Wall", "-Wextra", "-Werror", "-trigraphs", "-I", mod,
                    tmp_path / "p.c", "-o", tmp_path / "p"], check=True)
    out = subprocess.run([tmp_path / "p"], capture_output=True, check=True).stdout
    keys = model_keys(t)
    assert out.split(b"\0")[:3] == [keys[k].encode() for k in ("name", "description", "version")]


# ---- CMake, make, linker scripts, Zephyr ------------------------------------------


def test_module_cmake_files_configure(modules, tmp_path):
    """A project add_subdirectory()s each distinct module CMakeLists.txt."""
    seen = set()
    for t, mod in modules.items():
        digest = hashlib.sha256((mod / "CMakeLists.txt").read_bytes()).hexdigest()
        if digest in seen:
            continue
        seen.add(digest)
        app = tmp_path / f"app_{t}"
        app.mkdir()
        (app / "CMakeLists.txt").write_text(
            "cmake_minimum_required(VERSION 3.13)\nproject(app C)\n"
            f'add_subdirectory("{mod}" mod)\n')
        c = subprocess.run(["cmake", "-S", app, "-B", app / "b"], capture_output=True, text=True)
        assert c.returncode == 0 and "Warning" not in c.stderr, c.stdout + c.stderr
        assert_nothing_ran(app, mod)


def test_firmware_cmake_project_configures(modules, tmp_path):
    fw = modules["firmware"] / "firmware"
    c = subprocess.run(["cmake", "-S", fw, "-B", tmp_path / "b",
                        f"-DCMAKE_TOOLCHAIN_FILE={fw / 'arm-none-eabi.cmake'}"],
                       capture_output=True, text=True)
    assert c.returncode == 0 and "Warning" not in c.stderr, c.stdout + c.stderr
    assert_nothing_ran(tmp_path, modules["firmware"])


def test_zephyr_cmake_file_runs_as_a_script(modules, tmp_path):
    """Zephyr's commands stubbed: each records its arguments, which must be
    the module's own files and names."""
    z = modules["zephyr"] / "zephyr"
    script = tmp_path / "z.cmake"
    stubs = "".join(
        f"function({name})\n  file(APPEND \"{tmp_path}/calls\" \"{name} ${{ARGN}}\\n\")\n"
        "endfunction()\n"
        for name in ("zephyr_library_named", "zephyr_library_sources", "zephyr_include_directories",
                     "zephyr_library_compile_options", "zephyr_linker_sources",
                     "zephyr_library_compile_definitions"))
    script.write_text(f"{stubs}set(CONFIG_TINYAOT_M y)\ninclude(\"{z / 'CMakeLists.txt'}\")\n")
    c = subprocess.run(["cmake", "-P", script], capture_output=True, text=True, cwd=tmp_path)
    assert c.returncode == 0 and c.stderr == "", c.stderr
    calls = (tmp_path / "calls").read_text()
    assert calls.startswith("zephyr_library_named m\n") and "touch" not in calls
    assert_nothing_ran(tmp_path, modules["zephyr"])


@pytest.mark.parametrize("t", ALL)
def test_make_include_file_parses(modules, t, tmp_path):
    mod = modules[t]
    (tmp_path / "Makefile").write_text(
        f"include {mod}/m.mk\nall:\n\t@echo $(M_SRCS) $(M_CFLAGS)\n")
    r = subprocess.run(["make", "-n", "--warn-undefined-variables", "-C", tmp_path],
                       capture_output=True, text=True)
    assert r.returncode == 0 and "warning" not in r.stderr.lower(), r.stdout + r.stderr
    assert "m_model.c" in r.stdout
    assert_nothing_ran(tmp_path, mod)


def test_firmware_makefile_parses(modules, tmp_path):
    fw = modules["firmware"] / "firmware"
    r = subprocess.run(["make", "-n", "-C", fw, f"BUILD={tmp_path}"], capture_output=True,
                       text=True)
    assert r.returncode == 0 and "warning" not in r.stderr.lower(), r.stdout + r.stderr
    assert "arm-none-eabi-gcc" in r.stdout
    assert_nothing_ran(tmp_path, modules["firmware"])


def test_linker_scripts_parse(modules, tmp_path):
    """ld reads the firmware's board.ld, which INCLUDEs m_sections.ld, for
    every module type's fragment, and Zephyr's RODATA fragment inside an
    output section. No module object is linked, so ld stops at the first
    symbol of the module the script refers to: after parsing it all."""
    fw = modules["firmware"] / "firmware"
    empty = tmp_path / "empty.o"
    subprocess.run(["arm-none-eabi-gcc", "-mcpu=cortex-m55", "-mthumb", "-c", "-x", "c",
                    "/dev/null", "-o", empty], check=True)
    for t, mod in modules.items():
        if t == "own_target":
            continue  # one memory: no linker fragment
        r = subprocess.run(["arm-none-eabi-ld", "-o", tmp_path / f"{t}.elf", "-L", mod, "-T",
                            fw / "board.ld", empty], capture_output=True, text=True)
        assert re.fullmatch(r"arm-none-eabi-ld:m_sections\.ld:\d+: undefined symbol `m_\w+' "
                            r"referenced in expression\n", r.stderr), (t, r.stderr)
    z = tmp_path / "z.ld"
    z.write_text(f'SECTIONS {{ .rodata : {{ INCLUDE "{modules["zephyr"]}/zephyr/m_zephyr_rodata.ld" }} }}\n')
    r = subprocess.run(["arm-none-eabi-ld", "-o", tmp_path / "z.elf", "-T", z, empty],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_zephyr_module_yml_parses(modules):
    meta = yaml.safe_load((modules["zephyr"] / "zephyr" / "module.yml").read_bytes())
    assert meta == {"name": "m", "build": {"cmake": "zephyr", "kconfig": "zephyr/Kconfig"}}


def test_zephyr_kconfig_lines(modules):
    """Kconfig has no parser here: each line must be one of the forms below.
    A '#' comment ends at the line's end in Kconfig too (the hostile file
    name sits in one, escaped to printable ASCII); the prompt is a quoted
    string without quote, backslash or '$' (Kconfig expands $(...) there);
    the help text is every following line indented more than `help`, so
    no name can leave it."""
    text = (modules["zephyr"] / "zephyr" / "Kconfig").read_bytes().decode("ascii")
    state = "top"
    configs = []
    for line in text.split("\n"):
        if state == "help" and (line.startswith("\t  ") or line == ""):
            assert "\r" not in line and "\t" not in line[3:]
            continue
        state = "config" if configs else "top"
        if line == "" or re.fullmatch(r"#[ -~]*", line):
            continue
        if m := re.fullmatch(r"config ([A-Z0-9_]+)", line):
            configs.append(m.group(1))
        elif configs and re.fullmatch(r'\t(bool|string|int|hex) "[^"\\$]*"', line):
            pass
        elif configs and re.fullmatch(r"\t(default|depends on|select) [A-Za-z0-9_ &|!=()]+", line):
            pass
        elif configs and line == "\thelp":
            state = "help"
        else:
            pytest.fail(f"Kconfig line not of a known form: {line!r}")
    assert configs == ["TINYAOT_M"]
    assert "$(shell touch mk_ran)" in text  # in the help text and comment, escaped to one line


def test_names_are_escaped_once(modules):
    """An escape applied twice shows its own backslash escaped (\\x5cx0a for
    a newline): the firmware's files did so with the model's file name."""
    for t, mod in modules.items():
        for path in mod.rglob("*"):
            if path.is_file() and path.suffix not in (".json", ".html"):
                assert "\\x5cx" not in path.read_text(errors="replace"), (t, path)
