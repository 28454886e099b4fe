"""Module packaging and identity: module.path ending .zip or .pack (a
CMSIS-Pack with module.type cmsis_pack), model.name/description/version,
the compiler version and the plan hash in the header, views and residency
report, and the command line's --verbose and --log-file."""

import json
import os
import pathlib
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
import zipfile

import pytest

from tests.harness import module

HELLO = module.MODELS / "tflm_hello_world_int8.tflite"
KWS = module.MODELS / "mlperf_tiny_kws_ref_model.tflite"
ARM_GCC = shutil.which("arm-none-eabi-gcc")


def tinyaot(*args, cwd=None):
    return subprocess.run([module.tinyaot_bin(), *map(str, args)], capture_output=True,
                          text=True, timeout=300, cwd=cwd)


def convert(model, path, *extra):
    return tinyaot("convert", "--model.path", model, "--module.path", path, "--quiet", *extra)


def tree_files(root):
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(pathlib.Path(root).rglob("*")) if p.is_file()}


def leftovers(parent):
    return [p.name for p in pathlib.Path(parent).iterdir() if ".tinyaot-" in p.name]


# ---- zip ------------------------------------------------------------------------

def test_zip_holds_the_module_under_its_name_deterministically(tmp_path):
    r = convert(HELLO, tmp_path / "dir", "--module.prefix", "hw", "--module.name", "hello")
    assert r.returncode == 0, r.stderr
    r = convert(HELLO, tmp_path / "hw.zip", "--module.prefix", "hw", "--module.name", "hello")
    assert r.returncode == 0, r.stderr
    archive = tmp_path / "hw.zip"
    assert archive.is_file()
    with zipfile.ZipFile(archive) as z:
        assert z.testzip() is None
        names = z.namelist()
        assert names == sorted(names)
        assert all(n.startswith("hello/") for n in names)
        assert all(i.date_time == (1980, 1, 1, 0, 0, 0) for i in z.infolist())
        assert all(i.external_attr >> 16 == 0o100644 for i in z.infolist())
        unpacked = {n[len("hello/"):]: z.read(n) for n in names}
        assert z.comment.startswith(b"tinyaot archive fnv1a-64 ")
    # Byte for byte the files of the same module written as a directory.
    assert unpacked == tree_files(tmp_path / "dir")
    first = archive.read_bytes()
    r = convert(HELLO, archive, "--module.prefix", "hw", "--module.name", "hello")
    assert r.returncode == 0, r.stderr
    assert archive.read_bytes() == first
    assert leftovers(tmp_path) == []


def test_unzipped_module_builds_and_runs(tmp_path):
    r = convert(HELLO, tmp_path / "m.zip", "--module.prefix", "m")
    assert r.returncode == 0, r.stderr
    with zipfile.ZipFile(tmp_path / "m.zip") as z:
        z.extractall(tmp_path / "x")
    m = module.Module(tmp_path / "x" / "m", "m",
                      json.loads((tmp_path / "x" / "m" / "m_views.json").read_text()), "", "")
    exe = module.build(m)
    out = module.run(m, exe, [module.baseline_inputs(m)])
    assert len(out) == 1 and out[0][0].shape == (1, 1)
    # The unpacked folder carries the marker: converting into it replaces it.
    r = convert(HELLO, tmp_path / "x" / "m", "--module.prefix", "m")
    assert r.returncode == 0, r.stderr


def test_zip_is_replaced_only_when_tinyaot_wrote_it(tmp_path):
    archive = tmp_path / "m.zip"
    assert convert(HELLO, archive).returncode == 0
    good = archive.read_bytes()
    archive.write_bytes(good + b"x")
    r = convert(HELLO, archive)
    lines = r.stderr.strip().splitlines()
    assert r.returncode != 0 and len(lines) == 1, r.stderr
    assert "is not an archive tinyaot wrote" in lines[0] and "--force" in lines[0]
    assert archive.read_bytes() == good + b"x"
    r = convert(HELLO, archive, "--force")
    assert r.returncode == 0, r.stderr
    assert archive.read_bytes() == good
    # Someone else's file of that name, and a directory, are refused.
    other = tmp_path / "other.zip"
    other.write_bytes(b"PK\x05\x06" + bytes(18))
    r = convert(HELLO, other)
    assert r.returncode != 0 and "not an archive tinyaot wrote" in r.stderr
    assert other.read_bytes() == b"PK\x05\x06" + bytes(18)
    (tmp_path / "d.zip").mkdir()
    (tmp_path / "d.zip" / "keep.txt").write_text("mine")
    r = convert(HELLO, tmp_path / "d.zip", "--force")
    assert r.returncode != 0 and "is a directory" in r.stderr
    assert (tmp_path / "d.zip" / "keep.txt").read_text() == "mine"
    assert leftovers(tmp_path) == []


def test_a_link_at_the_archive_path_is_replaced_not_followed(tmp_path):
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    link = tmp_path / "m.zip"
    link.symlink_to(target)
    r = convert(HELLO, link)
    assert r.returncode != 0 and "symbolic link" in r.stderr
    r = convert(HELLO, link, "--force")
    assert r.returncode == 0, r.stderr
    assert not link.is_symlink() and zipfile.is_zipfile(link)
    assert target.read_text() == "keep me"


def test_a_failed_conversion_keeps_the_previous_archive(tmp_path):
    archive = tmp_path / "m.zip"
    assert convert(HELLO, archive).returncode == 0
    before = archive.read_bytes()
    env = dict(os.environ, TINYAOT_DEBUG_FAIL_AT="tmp-written")
    r = subprocess.run([module.tinyaot_bin(), "convert", "--model.path", str(KWS),
                        "--module.path", str(archive), "--quiet"], capture_output=True,
                       text=True, timeout=300, env=env)
    assert r.returncode != 0 and "TINYAOT_DEBUG_FAIL_AT" in r.stderr
    assert archive.read_bytes() == before
    assert leftovers(tmp_path) == []


def test_an_archive_may_not_replace_the_model(tmp_path):
    model = tmp_path / "model.zip"
    shutil.copy(HELLO, model)
    r = convert(model, model, "--force")
    assert r.returncode != 0 and "model file" in r.stderr
    assert model.read_bytes() == HELLO.read_bytes()


# ---- CMSIS-Pack ---------------------------------------------------------------------

def test_pack_path_needs_module_type_cmsis_pack(tmp_path):
    r = convert(HELLO, tmp_path / "m.pack")
    lines = r.stderr.strip().splitlines()
    assert r.returncode != 0 and len(lines) == 1, r.stderr
    assert "ends in .pack, which needs module.type: cmsis_pack" in lines[0]
    assert not (tmp_path / "m.pack").exists()


def pdsc_of(files):
    names = [n for n in files if n.endswith(".pdsc") and "/" not in n]
    assert len(names) == 1, names
    return names[0], ET.fromstring(files[names[0]])


SEMVER = re.compile(r"\d+\.\d+\.\d+")


def check_pdsc(name, root, files, module_name):
    """Schema-like checks of a .pdsc against what the pack holds."""
    assert name == f"tinyaot.{module_name}.pdsc"
    assert root.tag == "package" and SEMVER.fullmatch(root.get("schemaVersion"))
    for tag in ("vendor", "name", "description", "url"):
        assert (root.findtext(tag) or "").strip(), tag
    assert root.findtext("vendor") == "tinyaot" and root.findtext("name") == module_name
    releases = root.findall("releases/release")
    assert releases and all(SEMVER.fullmatch(r.get("version")) for r in releases)
    conditions = {c.get("id") for c in root.findall("conditions/condition")}
    components = root.findall("components/component")
    assert len(components) == 1
    c = components[0]
    for attr in ("Cclass", "Cgroup", "Cversion"):
        assert c.get(attr), attr
    assert c.get("Cversion") == releases[0].get("version")
    assert c.get("condition") is None or c.get("condition") in conditions
    listed = [(f.get("category"), f.get("name")) for f in c.findall("files/file")]
    for category, path in listed:
        assert category in ("include", "header", "sourceC", "other"), category
        if category == "include":
            assert path.endswith("/")
        else:
            assert path in files, path
    sources = sorted(p for cat, p in listed if cat == "sourceC")
    assert sources == sorted(p for p in files if p.endswith(".c")), "every source is listed"
    headers = {p for cat, p in listed if cat == "header"}
    assert headers == {p for p in files if p.endswith(".h")}, "every header is listed"
    return c, listed


def build_pack(root, listed, component, compiler, flags, out, cwd=None):
    """Compiles every listed source with the listed include paths and the
    component's RTE_Components.h defines."""
    includes = [f"-I{root / p}" for cat, p in listed if cat == "include"]
    defines = re.findall(r"#define\s+(\w+)", component.findtext("RTE_Components_h") or "")
    assert defines, "the component defines its RTE_ macro"
    sources = [str(root / p) for cat, p in listed if cat == "sourceC"]
    cmd = [compiler, "-std=c99", "-Wall", "-Wextra", "-Werror", *flags, *includes,
           *[f"-D{d}" for d in defines], *sources, *out]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=cwd)
    assert p.returncode == 0, " ".join(cmd) + "\n" + p.stderr


def test_cmsis_pack_archive_is_a_consumable_pack(tmp_path):
    pack = tmp_path / "kws.pack"
    r = convert(KWS, pack, "--module.type", "cmsis_pack", "--module.prefix", "kws",
                "--platform.name", "mps3_an547", "--model.version", "2.1",
                "--model.description", "keyword <spotting> & \"more\"")
    assert r.returncode == 0, r.stderr
    with zipfile.ZipFile(pack) as z:
        files = {n: z.read(n) for n in z.namelist()}
        z.extractall(tmp_path / "x")
    name, root = pdsc_of(files)
    component, listed = check_pdsc(name, root, files, "kws")
    assert root.find("releases/release").get("version") == "2.1.0"
    assert root.findtext("description") == 'model: keyword <spotting> & "more"'
    cond = root.find("conditions/condition/require")
    assert cond.get("Dcore") == "Cortex-M55"
    # The pack builds: every listed source, for the core it was made for.
    if ARM_GCC:
        objects = tmp_path / "objects"
        objects.mkdir()
        build_pack(tmp_path / "x", listed, component, ARM_GCC,
                   ["-mcpu=cortex-m55", "-mthumb", "-mfloat-abi=hard", "-O2", "-c"], [],
                   cwd=objects)
        assert len(list(objects.glob("*.o"))) == sum(c == "sourceC" for c, _ in listed)
    first = pack.read_bytes()
    assert convert(KWS, pack, "--module.type", "cmsis_pack", "--module.prefix", "kws",
                   "--platform.name", "mps3_an547", "--model.version", "2.1",
                   "--model.description",
                   "keyword <spotting> & \"more\"").returncode == 0
    assert pack.read_bytes() == first


def test_cmsis_pack_directory_builds_and_runs_on_the_host(tmp_path):
    out = tmp_path / "hw"
    r = convert(HELLO, out, "--module.type", "cmsis_pack", "--module.prefix", "hw",
                "--test.enabled", "true")
    assert r.returncode == 0, r.stderr
    files = {p: b for p, b in tree_files(out).items()}
    name, root = pdsc_of(files)
    component, listed = check_pdsc(name, root, files, "hw")
    assert root.find("conditions") is None  # the host has no Dcore
    main = tmp_path / "main.c"
    main.write_text('#include "hw_test_case.h"\n#include <stdio.h>\n'
                    "int main(void) { hw_model_context_t ctx; int s = hw_test_case_run(&ctx);"
                    " printf(\"%d\\n\", s); return s; }\n")
    exe = tmp_path / "app"
    build_pack(out, listed, component, os.environ.get("CC", "cc"), [*module.cflags()[1:]],
               [str(main), "-lm", "-o", str(exe)])
    p = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stdout.strip() == "0", p.stdout + p.stderr


def test_cmsis_pack_refuses_a_version_that_is_not_a_pack_version(tmp_path):
    r = convert(HELLO, tmp_path / "m.pack", "--module.type", "cmsis_pack",
                "--model.version", "v1-beta")
    assert r.returncode != 0 and "model.version 'v1-beta' is not a pack version" in r.stderr
    assert not (tmp_path / "m.pack").exists() and leftovers(tmp_path) == []


# ---- identity ------------------------------------------------------------------------

IDENTITY_PROGRAM = r"""
#include "%(model_h)s"
#include <stdio.h>
int main(void)
{
    printf("%%s\n%%s\n%%s\n%%s\n%%016llx\n", %(P)s_MODEL_NAME, %(P)s_MODEL_DESCRIPTION,
           %(P)s_MODEL_VERSION, %(P)s_COMPILER_VERSION, (unsigned long long)%(P)s_PLAN_HASH);
    return %(p)s_plan_hash == %(P)s_PLAN_HASH ? 0 : 3;
}
"""


def identity_app(tmp_path, header_dir, module_dir, prefix, name):
    """Compiles a program with the header of `header_dir` against the module
    in `module_dir`; returns its (exit status, printed lines)."""
    src = tmp_path / f"{name}.c"
    src.write_text(IDENTITY_PROGRAM % {"model_h": f"{prefix}_model.h", "P": prefix.upper(),
                                       "p": prefix})
    exe = tmp_path / name
    cmd = [os.environ.get("CC", "cc"), *module.cflags(), "-I", str(header_dir), str(src),
           *module.cached_sources(module_dir), "-I", str(module_dir), "-lm", "-o",
           str(exe)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    return run.returncode, run.stdout.split("\n")


def test_model_identity_is_recorded_escaped_in_header_views_and_report(tmp_path):
    description = 'quotes " and \\ backslash */ end-of-comment\tand ??= trigraph'
    cfg = tmp_path / "c.yaml"
    cfg.write_text("model:\n  name: \"kws \\\"v2\\\"\"\n  description: " +
                   json.dumps(description) + "\n  version: \"2.0-rc1\"\n")
    out = tmp_path / "m"
    r = tinyaot("convert", "--config", cfg, "--model.path", KWS, "--module.path", out,
                "--module.prefix", "kws", "--memory.dump_residency_json", "true", "--quiet")
    assert r.returncode == 0, r.stderr
    status, lines = identity_app(tmp_path, out, out, "kws", "ident")
    version = tinyaot("--version").stdout.split()[1]
    assert status == 0
    assert lines[:4] == ['kws "v2"', description, "2.0-rc1", version]
    views = json.loads((out / "kws_views.json").read_text())
    report = json.loads((out / "kws_residency.json").read_text())
    for doc in (views, report):
        assert doc["model_name"] == 'kws "v2"' and doc["model_description"] == description
        assert doc["model_version"] == "2.0-rc1" and doc["compiler_version"] == version
        assert doc["plan_hash"] == "0x" + lines[4]


def test_identity_defaults(tmp_path):
    out = tmp_path / "m"
    assert convert(HELLO, out, "--module.prefix", "hw").returncode == 0
    views = json.loads((out / "hw_views.json").read_text())
    # helia-aot's defaults: name "model", no description, the schema version.
    assert (views["model_name"], views["model_description"], views["model_version"]) == \
        ("model", "", "3")
    header = (out / "hw_model.h").read_text()
    assert '#define HW_MODEL_VERSION "3"' in header
    assert re.search(r"#define HW_PLAN_HASH UINT64_C\(0x[0-9a-f]{16}\)", header)


def test_model_text_is_bounded(tmp_path):
    r = convert(HELLO, tmp_path / "m", "--model.description", "x" * 1025)
    assert r.returncode != 0 and "model.description: 1025 bytes is longer" in r.stderr


def plan_hash(path, prefix="m"):
    return json.loads((path / f"{prefix}_views.json").read_text())["plan_hash"]


def test_plan_hash_is_deterministic_and_follows_the_plan(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for out in (a, b):
        assert convert(KWS, out, "--module.prefix", "m").returncode == 0
    assert plan_hash(a) == plan_hash(b)
    # Identity text and the module's place are not part of the plan.
    c = tmp_path / "c"
    assert convert(KWS, c, "--module.prefix", "m", "--model.name", "other").returncode == 0
    assert plan_hash(c) == plan_hash(a)
    # Each of these changes the plan: offsets and sizes (alignment), the
    # memories (target), the kernels chosen (a transform turned off).
    changed = {
        "alignment": ["--memory.constraints", "[{name: DRAM, arena_alignment: 64}]"],
        "target": ["--platform.name", "mps3_an547"],
        "kernels": ["--transforms", "{DEPTHWISE_TO_CONV: false}"],
    }
    speech = module.MODELS / "tflm_micro_speech_quantized.tflite"
    hashes = {"kws": plan_hash(a)}
    for name, keys in changed.items():
        out = tmp_path / name
        r = convert(speech if name == "kernels" else KWS, out, "--module.prefix", "m", *keys)
        assert r.returncode == 0, r.stderr
        hashes[name] = plan_hash(out)
    # micro_speech with DEPTHWISE_TO_CONV on: a CONV_2D kernel in place of
    # the depthwise one, same tensors.
    base = tmp_path / "speech"
    assert convert(speech, base, "--module.prefix", "m").returncode == 0
    hashes["speech"] = plan_hash(base)
    assert len(set(hashes.values())) == len(hashes), hashes


def test_firmware_detects_a_module_of_another_plan(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    assert convert(HELLO, a, "--module.prefix", "m").returncode == 0
    assert convert(HELLO, b, "--module.prefix", "m", "--memory.constraints",
                   "[{name: DRAM, arena_alignment: 256}]").returncode == 0
    assert plan_hash(a) != plan_hash(b)
    status, _ = identity_app(tmp_path, a, a, "m", "same")
    assert status == 0
    # Built against a's header, linked with b's module: the check fails.
    status, _ = identity_app(tmp_path, a, b, "m", "other")
    assert status == 3


# ---- --verbose and --log-file ----------------------------------------------------------

def run_verbose(tmp_path, *extra):
    return tinyaot("convert", "--model.path", HELLO, "--module.path", tmp_path / "m",
                   "--memory.auto_hydrate_constants", "true", *extra)


def kinds(text):
    return {m.group(1) for m in re.finditer(r"^tinyaot: (stage|debug|detail): ", text, re.M)}


def test_verbose_levels(tmp_path):
    r = run_verbose(tmp_path, "--verbose", "0")
    assert r.returncode == 0 and r.stdout == "" and r.stderr == ""
    r = run_verbose(tmp_path)  # 1, the default
    assert r.returncode == 0 and kinds(r.stdout) == {"stage"}
    assert "tinyaot: wrote " in r.stdout and "deprecated" in r.stderr
    assert "tinyaot: stage: lowered: 3 operators" in r.stdout
    r = run_verbose(tmp_path, "--verbose=2")
    assert kinds(r.stdout) == {"stage", "debug"} and "planning took" in r.stdout
    r = run_verbose(tmp_path, "--verbose", "3")
    assert kinds(r.stdout) == {"stage", "debug", "detail"}
    ops = re.findall(r"^tinyaot: detail: operator (\d+) FULLY_CONNECTED", r.stdout, re.M)
    assert ops == ["0", "1", "2"]
    r = run_verbose(tmp_path, "--quiet")
    assert r.returncode == 0 and r.stdout == "" and "deprecated" in r.stderr
    r = run_verbose(tmp_path, "--verbose", "4")
    assert r.returncode == 2 and "--verbose: '4' is not one of: 0, 1, 2, 3" in r.stderr
    # Errors are shown at every level, on one line.
    r = tinyaot("convert", "--model.path", tmp_path / "none.tflite", "--module.path",
                tmp_path / "n", "--verbose", "0")
    assert r.returncode == 1 and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_log_file_gets_everything_and_appends(tmp_path):
    log = tmp_path / "convert.log"
    r = run_verbose(tmp_path, "--verbose", "0", "--log-file", log)
    assert r.returncode == 0 and r.stdout == "" and r.stderr == ""
    text = log.read_text()
    assert text.startswith("== tinyaot ")
    assert kinds(text) == {"stage", "debug", "detail"}
    assert "deprecated" in text and "tinyaot: wrote " in text
    r = run_verbose(tmp_path, "--log-file", log)
    assert r.returncode == 0
    assert log.read_text().startswith(text) and log.read_text().count("== tinyaot ") == 2


def test_log_file_never_damages_another_file(tmp_path):
    model = tmp_path / "model.tflite"
    shutil.copy(HELLO, model)
    before = model.read_bytes()
    for log in (model, HELLO):
        r = tinyaot("convert", "--model.path", model, "--module.path", tmp_path / "m",
                    "--log-file", log)
        assert r.returncode == 1 and "--log-file" in r.stderr, r.stderr
    assert model.read_bytes() == before and not (tmp_path / "m").exists()
    link = tmp_path / "link.log"
    link.symlink_to(tmp_path / "elsewhere.log")
    r = run_verbose(tmp_path, "--log-file", link)
    assert r.returncode == 1 and "symbolic link" in r.stderr
    assert not (tmp_path / "elsewhere.log").exists()
    cfg = tmp_path / "c.yaml"
    cfg.write_text(f"model:\n  path: {model}\n")
    r = tinyaot("convert", "--config", cfg, "--module.path", tmp_path / "m", "--log-file", cfg)
    assert r.returncode == 1 and cfg.read_text() == f"model:\n  path: {model}\n"


def test_python_result_carries_the_identity(tmp_path):
    import tinyaot
    r = tinyaot.convert(HELLO, tmp_path / "m", prefix="m",
                        options={"model.name": "hello", "model.version": "7"})
    views = json.loads((tmp_path / "m" / "m_views.json").read_text())
    i = r.identity
    assert (i.model_name, i.model_description, i.model_version) == ("hello", "", "7")
    assert i.compiler_version == tinyaot.version()
    assert f"0x{i.plan_hash:016x}" == views["plan_hash"]
    a = tinyaot.analyze(HELLO, prefix="m", options={"model.name": "hello", "model.version": "7"})
    assert a.identity == i


@pytest.mark.parametrize("step,holds", [("tmp-created", "old"), ("tmp-written", "old"),
                                        ("moved", "new")])
def test_kill_while_writing_an_archive_leaves_a_complete_one(tmp_path, step, holds):
    """A conversion killed at each step leaves the complete old or the
    complete new archive at module.path; the next run clears what it left."""
    archive = tmp_path / "m.zip"
    refs = {}
    for prefix in ("new", "old"):
        assert convert(HELLO, archive, "--module.prefix", prefix, "--force").returncode == 0
        refs[prefix] = archive.read_bytes()
    env = dict(os.environ, TINYAOT_DEBUG_STOP_AT=step)
    p = subprocess.Popen([module.tinyaot_bin(), "convert", "--model.path", str(HELLO),
                          "--module.path", str(archive), "--module.prefix", "new", "--quiet"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    _, status = os.waitpid(p.pid, os.WUNTRACED)
    assert os.WIFSTOPPED(status), p.stderr.read().decode()
    assert archive.read_bytes() == refs[holds]
    p.kill()
    p.wait()
    p.stdout.close()
    p.stderr.close()
    assert archive.read_bytes() == refs[holds]
    r = convert(HELLO, archive, "--module.prefix", "new")
    assert r.returncode == 0, r.stderr
    assert archive.read_bytes() == refs["new"] and leftovers(tmp_path) == []


@pytest.mark.parametrize("file_name", ["a--b.tflite", "ends-.tflite", "x---->y.tflite"])
def test_pdsc_is_well_formed_xml_whatever_the_names(tmp_path, file_name):
    """The model's file name goes into an XML comment, where "--" is not
    allowed, and model.name/description into elements, where U+FFFE and
    U+FFFF are not characters (issue 26, defect 5): a real parser reads it."""
    model = tmp_path / file_name
    model.write_bytes(KWS.read_bytes())
    out = tmp_path / "pack"
    cfg = tmp_path / "names.yaml"  # YAML escapes: libyaml reads them as the characters
    cfg.write_text('model: {name: "n\\uFFFE\\uFFFF--x", description: "d\\uFFFF<!-- -->"}\n')
    r = convert(model, out, "--config", str(cfg), "--module.type", "cmsis_pack",
                "--module.prefix", "kws", "--platform.name", "mps3_an547")
    assert r.returncode == 0, r.stderr
    (pdsc,) = out.glob("*.pdsc")
    root = ET.fromstring(pdsc.read_bytes())  # raises on malformed XML
    assert "\ufffe" not in root.findtext("description")
    assert root.findtext("description").endswith("d\ufffd<!-- -->")
