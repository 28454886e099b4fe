"""The command line and configuration: keys from YAML and the command line,
clear errors for unknown keys and wrong types, atomic output, determinism,
and generated modules that compile warning-free with every compiler."""

import filecmp
import os
import pathlib
import shutil
import signal
import subprocess
import sys

import pytest

from tests.harness import module, unsupported

HELLO = module.MODELS / "tflm_hello_world_int8.tflite"
AD01 = module.MODELS / "mlperf_tiny_ad01_int8.tflite"


def tinyaot(*args, cwd=None):
    return subprocess.run([module.tinyaot_bin(), *map(str, args)], capture_output=True,
                          text=True, cwd=cwd, timeout=120)


def test_yaml_config_and_command_line_override(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(f"model:\n  path: {HELLO}\nmodule:\n  path: {tmp_path / 'a'}\n"
                   "  prefix: fromfile\nmemory:\n  dump_residency_json: false\n")
    p = tinyaot("convert", "--config", cfg, "--module.prefix", "fromcli",
                "--memory.dump_residency_json", "true")
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "a" / "fromcli_model.h").exists()
    assert (tmp_path / "a" / "fromcli_residency.json").exists()
    assert not (tmp_path / "a" / "fromfile_model.h").exists()


def test_key_value_with_equals_sign(tmp_path):
    p = tinyaot("convert", f"--model.path={HELLO}", f"--module.path={tmp_path / 'b'}",
                "--module.prefix=eq")
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "b" / "eq_model.h").exists()


def test_unknown_yaml_key_names_key_and_line(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(f"model:\n  path: {HELLO}\nmodule:\n  path: {tmp_path / 'x'}\n"
                   "memory:\n  dump_residency_jsn: true\n")
    p = tinyaot("convert", "--config", cfg)
    assert p.returncode != 0
    assert f"{cfg}:6: unknown key 'memory.dump_residency_jsn'" in p.stderr
    assert "did you mean 'memory.dump_residency_json'" in p.stderr
    assert not (tmp_path / "x").exists()


def test_wrong_type_in_yaml_names_key_and_line(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(f"model:\n  path: {HELLO}\nmodule:\n  path: {tmp_path / 'x'}\n"
                   "memory:\n  allocate_arenas: sometimes\n")
    p = tinyaot("convert", "--config", cfg)
    assert p.returncode != 0
    assert f"{cfg}:6: memory.allocate_arenas: expected true or false, got 'sometimes'" in p.stderr


def test_unknown_command_line_key(tmp_path):
    p = tinyaot("convert", "--model.path", HELLO, "--module.path", tmp_path / "x",
                "--modul.prefix", "kws")
    assert p.returncode != 0
    assert "command line (--modul.prefix): unknown key 'modul.prefix'" in p.stderr
    assert "did you mean 'module.prefix'" in p.stderr


def test_wrong_type_on_command_line(tmp_path):
    p = tinyaot("convert", "--model.path", HELLO, "--module.path", tmp_path / "x",
                "--model.subgraph", "first")
    assert p.returncode != 0
    assert "model.subgraph: expected a non-negative integer, got 'first'" in p.stderr


def test_bad_prefix_and_missing_model(tmp_path):
    p = tinyaot("convert", "--model.path", HELLO, "--module.path", tmp_path / "x",
                "--module.prefix", "3kws")
    assert "module.prefix: '3kws' is not a C identifier" in p.stderr
    p = tinyaot("convert", "--model.path", tmp_path / "none.tflite", "--module.path", tmp_path / "x")
    assert p.returncode != 0 and "none.tflite: cannot open" in p.stderr
    p = tinyaot("convert", "--module.path", tmp_path / "x")
    assert "model.path is required" in p.stderr


def test_yaml_syntax_error_has_line(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("model:\n  path: [unclosed\n")
    p = tinyaot("convert", "--config", cfg)
    assert p.returncode != 0
    assert f"{cfg}:" in p.stderr and "YAML syntax error" in p.stderr


def test_corrupt_model_gives_one_line_and_no_output(tmp_path):
    bad = tmp_path / "bad.tflite"
    data = bytearray(HELLO.read_bytes())
    data[len(data) // 2:] = b"\xff" * (len(data) - len(data) // 2)
    bad.write_bytes(bytes(data[: len(data) - 100]))
    p = tinyaot("convert", "--model.path", bad, "--module.path", tmp_path / "x")
    assert p.returncode != 0
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and str(bad) in lines[0] and "byte offset" in lines[0], p.stderr
    assert not (tmp_path / "x").exists()
    assert not list(tmp_path.glob("x.tinyaot-*"))


def test_failed_conversion_keeps_previous_module(tmp_path):
    out = tmp_path / "m"
    assert tinyaot("convert", "--model.path", HELLO, "--module.path", out).returncode == 0
    before = (out / "model.h").read_text()
    p = tinyaot("convert", "--model.path", unsupported.model(tmp_path), "--module.path", out)
    assert p.returncode != 0
    assert (out / "model.h").read_text() == before
    assert not list(tmp_path.glob("m.tinyaot-*"))


def test_output_is_deterministic(tmp_path):
    for d in ("one", "two"):
        p = tinyaot("convert", "--model.path", AD01, "--module.path", tmp_path / d,
                    "--memory.dump_residency_json", "true")
        assert p.returncode == 0, p.stderr
    cmp = filecmp.dircmp(tmp_path / "one", tmp_path / "two")

    def same(c):
        assert not c.left_only and not c.right_only and not c.diff_files, \
            (c.left_only, c.right_only, c.diff_files)
        _, mismatch, errors = filecmp.cmpfiles(c.left, c.right, c.common_files, shallow=False)
        assert not mismatch and not errors
        for sub in c.subdirs.values():
            same(sub)
    same(cmp)


COMPILERS = [
    ("gcc", ["gcc", "-std=c99", "-pedantic"]),
    ("clang", ["clang", "-std=c99", "-pedantic"]),
    ("arm-none-eabi-gcc", ["arm-none-eabi-gcc", "-std=c99", "-mcpu=cortex-m55", "-mthumb",
                           "-mfloat-abi=hard"]),
]


CONVERTIBLE = sorted(p.stem for p in module.MODELS.glob("*.tflite"))


@pytest.mark.parametrize("name,cc", COMPILERS, ids=[c[0] for c in COMPILERS])
@pytest.mark.parametrize("model", CONVERTIBLE)
def test_module_compiles_warning_free(tmp_path, name, cc, model):
    assert shutil.which(cc[0]), f"{cc[0]} is not installed (make deps installs it)"
    out = tmp_path / "mod"
    p = tinyaot("convert", "--model.path", module.MODELS / f"{model}.tflite", "--module.path", out,
                "--module.prefix", "chk")
    assert p.returncode == 0, p.stderr
    # One compiler run for every source file; objects land in tmp_path.
    c = subprocess.run([*cc, "-O2", "-Wall", "-Wextra", "-Werror", "-I", str(out), "-c",
                        *module.sources(out)], capture_output=True, text=True, cwd=tmp_path)
    assert c.returncode == 0, f"{name}:\n{c.stderr}"


def test_cmake_builds_the_module(tmp_path):
    out = tmp_path / "mod"
    assert tinyaot("convert", "--model.path", HELLO, "--module.path", out, "--module.name",
                   "hello", "--module.prefix", "m").returncode == 0
    app = tmp_path / "app"
    app.mkdir()
    (app / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.13)\nproject(app C)\n"
        f"add_subdirectory({out} module)\nadd_executable(app main.c)\n"
        "target_link_libraries(app PRIVATE hello)\n")
    (app / "main.c").write_text(
        '#include "m_model.h"\n#include <stdint.h>\n#include <stdio.h>\n'
        "int main(void) {\n  m_model_context_t ctx;\n"
        "  if (m_model_run(&ctx) != TA_ERR_NOT_INITIALIZED) return 3;\n"
        "  if (m_model_init(&ctx) != 0) return 1;\n"
        "  *(int8_t *)ctx.inputs[0].data = -96;\n"
        "  if (m_model_run(&ctx) != 0) return 2;\n"
        '  printf("%d\\n", *(int8_t *)ctx.outputs[0].data);\n  return 0;\n}\n')
    b = tmp_path / "b"
    subprocess.run(["cmake", "-S", app, "-B", b], check=True, capture_output=True)
    r = subprocess.run(["cmake", "--build", b], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    run = subprocess.run([b / "app"], capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout.strip() == "89"


# ---- module.path: never destroy what tinyaot did not write (issue 11) -------

def snapshot(root):
    """Every file under root (relative path -> bytes), or None if root is missing."""
    root = pathlib.Path(root)
    if not root.exists():
        return None
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def leftovers(out):
    return sorted(p.name for p in out.parent.glob(out.name + ".tinyaot-*"))


def test_refuses_a_directory_tinyaot_did_not_write(tmp_path):
    p = tmp_path / "p"
    (p / "src").mkdir(parents=True)
    (p / "src" / "main.c").write_text("x\n")
    r = tinyaot("convert", "--model.path", HELLO, "--module.path", p)
    assert r.returncode != 0
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and str(p) in lines[0] and "not written by tinyaot" in lines[0] \
        and "--force" in lines[0], r.stderr
    assert snapshot(p) == {"src/main.c": b"x\n"}
    assert not leftovers(p)
    r = tinyaot("convert", "--model.path", HELLO, "--module.path", p, "--force")
    assert r.returncode == 0, r.stderr
    assert (p / "model.h").exists() and not (p / "src").exists()
    assert not leftovers(p)


def test_force_notes_what_it_replaces(tmp_path):
    """--force says on stderr what it removes (issue 22, finding 9): a
    count and the first five entries, directories with a '/'; an unchanged
    module replaced without needing --force gets no note."""
    p = tmp_path / "p"
    (p / "src").mkdir(parents=True)
    for i in range(7):
        (p / f"f{i}.txt").write_text("x\n")
    r = tinyaot("convert", "--model.path", HELLO, "--module.path", p, "--force")
    assert r.returncode == 0, r.stderr
    notes = [line for line in r.stderr.splitlines() if "--force" in line]
    assert notes == [f"tinyaot: note: --force: replacing {p} (not an unchanged module tinyaot "
                     "wrote): removing 8 entries: f0.txt, f1.txt, f2.txt, f3.txt, f4.txt and 3 "
                     "more"], r.stderr
    r = tinyaot("convert", "--model.path", HELLO, "--module.path", p, "--force")
    assert r.returncode == 0 and "--force" not in r.stderr, r.stderr
    (p / "model.h").write_text("changed\n")
    (p / "extra").mkdir()
    r = tinyaot("convert", "--model.path", HELLO, "--module.path", p, "--force")
    assert "removing" in r.stderr and "extra/" in r.stderr, r.stderr


def test_an_empty_directory_is_replaced(tmp_path):
    (tmp_path / "e").mkdir()
    r = tinyaot("convert", "--model.path", HELLO, "--module.path", tmp_path / "e")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "e" / "model.h").exists()


@pytest.mark.parametrize("force", [False, True], ids=["plain", "force"])
def test_refuses_working_directory_home_and_parents_of_inputs(tmp_path, force):
    work = tmp_path / "work"
    (work / "models").mkdir(parents=True)
    model = work / "models" / "m.tflite"
    model.write_bytes(HELLO.read_bytes())
    (work / "keep.c").write_text("mine\n")
    home = tmp_path / "home"
    home.mkdir()
    (home / ".profile").write_text("mine\n")
    cfg = tmp_path / "cfgdir" / "c.yaml"
    cfg.parent.mkdir()
    cfg.write_text(f"model:\n  path: {model}\n")
    env = dict(os.environ, HOME=str(home))
    before = snapshot(tmp_path)
    extra = ["--force"] if force else []
    for target, what in ((".", "does not name a directory"), ("..", "does not name a directory"),
                         (str(work), "working directory"),
                         (str(tmp_path), "working directory"), (str(home), "home directory"),
                         (str(work / "models"), "model file"), (str(model), "model file"),
                         (str(cfg.parent), "configuration file")):
        r = subprocess.run([os.path.abspath(module.tinyaot_bin()), "convert", "--config", str(cfg),
                            "--module.path", target, *extra], capture_output=True, text=True,
                           cwd=work, env=env, timeout=120)
        assert r.returncode != 0, (target, r.stdout)
        assert what in r.stderr and len(r.stderr.splitlines()) == 1, (target, r.stderr)
        assert snapshot(tmp_path) == before, target
    r = tinyaot("convert", "--model.path", HELLO, "--module.path", "/", *extra)
    assert r.returncode != 0 and "'/' does not name a directory" in r.stderr
    target = tmp_path / "tgt" / "board.yaml"
    target.parent.mkdir()
    target.write_text((module.ROOT / "targets" / "host.yaml").read_text())
    r = tinyaot("convert", "--model.path", HELLO, "--platform.name", target,
                "--module.path", target.parent, *extra)
    assert r.returncode != 0 and "is the target file" in r.stderr, r.stderr
    assert target.exists()


def test_replaces_only_an_unchanged_module(tmp_path):
    out = tmp_path / "m"
    assert tinyaot("convert", "--model.path", HELLO, "--module.path", out).returncode == 0
    marker = (out / ".tinyaot-module").read_text()
    assert marker.startswith("tinyaot-module 1\n") and "file " in marker and "checksum " in marker
    (out / "notes.txt").write_text("my notes\n")
    r = tinyaot("convert", "--model.path", HELLO, "--module.path", out)
    assert r.returncode != 0 and f"{out}/notes.txt was not written by tinyaot" in r.stderr
    assert (out / "notes.txt").read_text() == "my notes\n"
    (out / "notes.txt").unlink()
    (out / "ops" / "extra").mkdir()
    r = tinyaot("convert", "--model.path", HELLO, "--module.path", out)
    assert r.returncode != 0 and f"directory {out}/ops/extra was not written" in r.stderr
    (out / "ops" / "extra").rmdir()
    with open(out / "model.c", "a") as f:
        f.write("/* my fix */\n")
    r = tinyaot("convert", "--model.path", HELLO, "--module.path", out)
    assert r.returncode != 0 and "model.c was changed after tinyaot wrote it" in r.stderr
    assert (out / "model.c").read_text().endswith("/* my fix */\n")
    # A marker that was edited is not trusted either.
    good = snapshot(out)
    (out / ".tinyaot-module").write_text(marker.replace("file ", "file 1", 1))
    r = tinyaot("convert", "--model.path", HELLO, "--module.path", out)
    assert r.returncode != 0 and "marker .tinyaot-module is damaged" in r.stderr
    r = tinyaot("convert", "--model.path", HELLO, "--module.path", out, "--force")
    assert r.returncode == 0, r.stderr
    assert snapshot(out) != good and (out / ".tinyaot-module").read_text() == marker
    # An unchanged module is replaced without --force.
    r = tinyaot("convert", "--model.path", AD01, "--module.path", out)
    assert r.returncode == 0, r.stderr
    assert "ad01" in (out / "model.h").read_text() or (out / "model.h").exists()
    assert not leftovers(out)


def test_force_never_follows_symbolic_links(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "precious.txt").write_text("keep\n")
    link = tmp_path / "link"
    link.symlink_to(outside, target_is_directory=True)
    r = tinyaot("convert", "--model.path", HELLO, "--module.path", link)
    assert r.returncode != 0 and "is a symbolic link" in r.stderr
    assert link.is_symlink()
    r = tinyaot("convert", "--model.path", HELLO, "--module.path", link, "--force")
    assert r.returncode == 0, r.stderr
    assert not link.is_symlink() and (link / "model.h").exists()
    assert snapshot(outside) == {"precious.txt": b"keep\n"}
    # A link inside a directory replaced with --force is removed, not followed.
    d = tmp_path / "d"
    d.mkdir()
    (d / "to_outside").symlink_to(outside, target_is_directory=True)
    (d / "sub").mkdir()
    (d / "sub" / "file").write_text("x")
    r = tinyaot("convert", "--model.path", HELLO, "--module.path", d, "--force")
    assert r.returncode == 0, r.stderr
    assert not (d / "to_outside").exists() and not (d / "sub").exists()
    assert snapshot(outside) == {"precious.txt": b"keep\n"}
    assert not leftovers(d)


def test_trailing_slash_in_module_path(tmp_path):
    for _ in range(2):  # a new directory, then replacing it
        r = tinyaot("convert", "--model.path", HELLO, "--module.path", f"{tmp_path}/out/x/")
        assert r.returncode == 0, r.stderr
    assert (tmp_path / "out" / "x" / "model.h").exists()
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["x"]
    assert not [p for p in (tmp_path / "out" / "x").iterdir() if "tinyaot-tmp" in p.name]


def test_failed_run_leaves_no_new_directories(tmp_path):
    env = dict(os.environ, TINYAOT_DEBUG_FAIL_AT="tmp-written")
    out = tmp_path / "a" / "b" / "c"
    r = subprocess.run([module.tinyaot_bin(), "convert", "--model.path", str(HELLO),
                        "--module.path", f"{out}/"], capture_output=True, text=True, env=env,
                       timeout=120)
    assert r.returncode != 0 and "TINYAOT_DEBUG_FAIL_AT" in r.stderr, r.stderr
    assert list(tmp_path.iterdir()) == []
    # An existing parent stays; only what the run created goes.
    (tmp_path / "a").mkdir()
    r = subprocess.run([module.tinyaot_bin(), "convert", "--model.path", str(HELLO),
                        "--module.path", str(out)], capture_output=True, text=True, env=env,
                       timeout=120)
    assert r.returncode != 0
    assert [p.name for p in tmp_path.iterdir()] == ["a"] and list((tmp_path / "a").iterdir()) == []


# ---- the swap: a kill at every step leaves a complete module (issue 11) -----

def dead_pid():
    p = subprocess.Popen(["true"])
    p.wait()
    return p.pid


def convert_and_stop(out, prefix, env):
    """Starts a conversion that stops itself at the hook; returns the Popen."""
    p = subprocess.Popen([module.tinyaot_bin(), "convert", "--model.path", str(HELLO),
                          "--module.path", str(out), "--module.prefix", prefix],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    _, status = os.waitpid(p.pid, os.WUNTRACED)
    if not os.WIFSTOPPED(status):
        p.returncode = os.waitstatus_to_exitcode(status)
        raise AssertionError(f"tinyaot did not stop at {env['TINYAOT_DEBUG_STOP_AT']} "
                             f"(exit {p.returncode}): {p.stderr.read().decode()}")
    return p


@pytest.fixture(scope="module")
def references(tmp_path_factory):
    """The old module (prefix old) and the new one (prefix new), written once."""
    base = tmp_path_factory.mktemp("refs")
    for prefix in ("old", "new"):
        r = tinyaot("convert", "--model.path", HELLO, "--module.path", base / prefix,
                    "--module.prefix", prefix)
        assert r.returncode == 0, r.stderr
    return {k: snapshot(base / k) for k in ("old", "new")}


# step -> (the exchange is used, what module.path holds while stopped there)
SWAP_STEPS = {
    "tmp-created": (True, "old"), "tmp-written": (True, "old"), "exchanged": (True, "new"),
    "old-removed": (True, "new"),
    "fallback-tmp-written": (False, "old"), "old-moved": (False, None),
    "new-moved": (False, "new"), "fallback-old-removed": (False, "new"),
}


@pytest.mark.parametrize("step", list(SWAP_STEPS))
def test_kill_at_each_step_of_the_swap(tmp_path, references, step):
    exchange, expect = SWAP_STEPS[step]
    out = tmp_path / "m"
    assert tinyaot("convert", "--model.path", HELLO, "--module.path", out,
                   "--module.prefix", "old").returncode == 0
    assert snapshot(out) == references["old"]
    env = dict(os.environ, TINYAOT_DEBUG_STOP_AT=step.replace("fallback-", ""))
    if not exchange:
        env["TINYAOT_DEBUG_FAIL_AT"] = "exchange"  # as if renameat2 were unsupported
    p = convert_and_stop(out, "new", env)
    try:
        for _ in range(2):  # while stopped there, then after the kill
            state = snapshot(out)
            if expect is None:  # the documented window of the fallback
                assert state is None
                assert snapshot(out.parent / f"m.tinyaot-old-{p.pid}") == references["old"]
                assert snapshot(out.parent / f"m.tinyaot-tmp-{p.pid}") == references["new"]
            else:
                assert state == references[expect], f"{step}: not the complete {expect} module"
            if p.poll() is None:
                p.kill()
                p.wait()
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    # The next run, even one that fails later, puts back or cleans up.
    r = tinyaot("convert", "--model.path", tmp_path / "missing.tflite", "--module.path", out)
    assert r.returncode != 0 and "missing.tflite" in r.stderr
    assert snapshot(out) == references[expect or "old"]
    assert leftovers(out) == []
    if expect is None:
        assert "put back the module" in r.stderr
    r = tinyaot("convert", "--model.path", HELLO, "--module.path", out, "--module.prefix", "new")
    assert r.returncode == 0, r.stderr
    assert snapshot(out) == references["new"] and leftovers(out) == []


@pytest.mark.parametrize("exchange", [True, False], ids=["exchange", "fallback"])
def test_kill_when_there_was_no_module(tmp_path, references, exchange):
    out = tmp_path / "m"
    env = dict(os.environ, TINYAOT_DEBUG_STOP_AT="moved")
    if not exchange:
        env["TINYAOT_DEBUG_FAIL_AT"] = "exchange"
    p = convert_and_stop(out, "new", env)
    assert snapshot(out) == references["new"] and leftovers(out) == []
    p.kill()
    p.wait()
    assert snapshot(out) == references["new"]


def test_leftovers_are_removed_only_when_dead_and_marked(tmp_path, references):
    out = tmp_path / "m"
    assert tinyaot("convert", "--model.path", HELLO, "--module.path", out,
                   "--module.prefix", "old").returncode == 0
    dead = dead_pid()
    # A leftover of a dead run with a marker goes; one without a marker, one
    # of a live process and a symbolic link to a marked directory stay.
    shutil.copytree(out, tmp_path / f"m.tinyaot-tmp-{dead}", symlinks=True)
    unmarked = tmp_path / "m.tinyaot-tmp-999999999"  # beyond any pid_max: dead
    unmarked.mkdir()
    (unmarked / "mine.txt").write_text("keep")
    shutil.copytree(out, tmp_path / f"m.tinyaot-tmp-{os.getpid()}", symlinks=True)
    (tmp_path / "m.tinyaot-tmp-1234567").symlink_to(out)
    r = tinyaot("convert", "--model.path", HELLO, "--module.path", out, "--module.prefix", "new")
    assert r.returncode == 0, r.stderr
    assert leftovers(out) == sorted([unmarked.name, f"m.tinyaot-tmp-{os.getpid()}",
                                     "m.tinyaot-tmp-1234567"])
    assert (unmarked / "mine.txt").read_text() == "keep"
    assert snapshot(out) == references["new"]


def test_python_force_option(tmp_path):
    p = tmp_path / "p"
    p.mkdir()
    (p / "main.c").write_text("x\n")
    code = ("import sys, tinyaot\n"
            "try:\n"
            f"    tinyaot.convert(model_path={str(HELLO)!r}, module_path={str(p)!r})\n"
            "    sys.exit('replaced without force')\n"
            "except tinyaot.ConversionError as e:\n"
            "    assert 'not written by tinyaot' in str(e), e\n"
            f"tinyaot.convert(model_path={str(HELLO)!r}, module_path={str(p)!r}, force=True)\n")
    # The plain build's library: a sanitized one cannot be loaded into Python.
    lib = module.ROOT / "build" / "libtinyaot.so"
    env = dict(os.environ, PYTHONPATH=str(module.ROOT / "python"), TINYAOT_LIBRARY=str(lib))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert (p / "model.h").exists() and not (p / "main.c").exists()


# ---- inputs and values (issue 11) ----------------------------------------------

@pytest.mark.parametrize("which", ["model", "config"])
def test_a_fifo_is_refused_without_blocking(tmp_path, which):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    args = (["--model.path", fifo, "--module.path", tmp_path / "x"] if which == "model"
            else ["--config", fifo])
    r = subprocess.run([module.tinyaot_bin(), "convert", *map(str, args)], capture_output=True,
                       text=True, timeout=30)
    assert r.returncode != 0 and f"{fifo}: is a FIFO, not a regular file" in r.stderr
    r = tinyaot("convert", "--model.path", tmp_path, "--module.path", tmp_path / "x")
    assert r.returncode != 0 and "is a directory, not a regular file" in r.stderr


def test_nul_in_a_string_is_refused(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(f'model:\n  path: {HELLO}\nmodule:\n  path: {tmp_path / "x"}\n'
                   '  prefix: "a\\0b"\n')
    r = tinyaot("convert", "--config", cfg)
    assert r.returncode != 0 and f"{cfg}:5: a value contains a NUL character" in r.stderr
    assert not (tmp_path / "x").exists()
    r = tinyaot("convert", "--model.path", HELLO, "--module.path", tmp_path / "x",
                "--module.name", '"a\\0b"')
    assert r.returncode != 0 and "NUL character" in r.stderr


def test_integers_are_decimal_or_hex(tmp_path):
    base = ["convert", "--model.path", HELLO, "--module.path", tmp_path / "x"]
    r = tinyaot(*base, "--memory.constraints", "[{name: DRAM, max_size: 010000}]")
    assert r.returncode != 0
    assert "max_size: '010000' has a leading zero" in r.stderr
    r = tinyaot(*base, "--model.subgraph", "00")
    assert r.returncode != 0 and "leading zero" in r.stderr
    for ok in ("0x10000", "65536"):
        r = tinyaot(*base, "--memory.constraints", f"[{{name: DRAM, max_size: {ok}}}]")
        assert r.returncode == 0, (ok, r.stderr)
    r = tinyaot(*base, "--memory.constraints", "[{name: DRAM, max_size: 100}]")
    assert r.returncode != 0 and "of 100 bytes free" in r.stderr  # decimal: too small


@pytest.mark.parametrize("value", ["nan", "NaN", ".nan", "inf", "-inf", "1e999", "-0.5"])
def test_tolerance_must_be_finite_and_non_negative(tmp_path, value):
    r = tinyaot("convert", "--model.path", HELLO, "--module.path", tmp_path / "x",
                "--test.tolerance", value)
    assert r.returncode != 0
    assert "test.tolerance: expected a finite non-negative number" in r.stderr


@pytest.mark.parametrize("prefix,why", [
    ("ta", "the runtime's own names"), ("TA", "the runtime's own names"),
    ("ta_kws", "the runtime's own names"), ("syn", "the runtime's own names"),
    ("_x", "underscore"), ("__x", "underscore"), ("_X", "underscore"),
    ("int", "C keyword"), ("while", "C keyword")])
def test_prefix_that_would_clash_is_refused(tmp_path, prefix, why):
    r = tinyaot("convert", "--model.path", HELLO, "--module.path", tmp_path / "x",
                "--module.prefix", prefix)
    assert r.returncode != 0
    assert f"module.prefix: '{prefix}' cannot prefix the generated symbols" in r.stderr \
        and why in r.stderr, r.stderr
    assert not (tmp_path / "x").exists()


def test_prefixes_near_the_reserved_ones_work(tmp_path):
    for prefix in ("tab", "syntax", "x_"):
        r = tinyaot("convert", "--model.path", HELLO, "--module.path", tmp_path / prefix,
                    "--module.prefix", prefix)
        assert r.returncode == 0, (prefix, r.stderr)


@pytest.mark.parametrize("force", [False, True])
def test_files_the_run_reads_or_writes_inside_module_path_are_protected(tmp_path, force):
    """Issue 26, defect 11: --force deleted a test.inputs file or the
    --log-file inside module.path (the model, config and target were
    protected), and without --force a log file there made the run refuse
    because of that same log. Each is now refused first, in one line,
    and nothing is touched."""
    out = tmp_path / "mod"
    assert tinyaot("convert", "--model.path", HELLO, "--module.path", out).returncode == 0
    stim = out / "stim.bin"
    stim.write_bytes(b"\0")
    extra = ["--force"] if force else []
    p = tinyaot("convert", "--model.path", HELLO, "--module.path", out, "--test.enabled", "true",
                "--test.inputs", stim, *extra)
    assert p.returncode == 1 and "is a test.inputs file or a directory that contains it" in \
        p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert stim.read_bytes() == b"\0"
    stim.unlink()
    log = out / "run.log"
    p = tinyaot("convert", "--model.path", HELLO, "--module.path", out, "--log-file", log, *extra)
    assert p.returncode == 1, p.stderr
    assert f"--log-file {log} is inside module.path {out}" in p.stderr, p.stderr
    assert not log.exists() and (out / ".tinyaot-module").is_file()


def test_concurrent_conversions_to_one_module_path_take_turns(tmp_path):
    """Issue 26, defect 8: two conversions to the same module.path at once
    sometimes failed falsely (one checked the module while the other swapped
    it). The check and the swap now hold a lock of the parent directory:
    with the first stopped just after its swap, inside the lock, the second
    is still waiting to check a second later; let go, both succeed and the
    module is complete."""
    out = tmp_path / "m"
    assert tinyaot("convert", "--model.path", HELLO, "--module.path", out).returncode == 0
    first = convert_and_stop(out, "first", dict(os.environ, TINYAOT_DEBUG_STOP_AT="exchanged"))
    second = subprocess.Popen([module.tinyaot_bin(), "convert", "--model.path", str(HELLO),
                               "--module.path", str(out), "--module.prefix", "second"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            second.wait(timeout=1.5)
    finally:
        os.kill(first.pid, signal.SIGCONT)
    assert first.wait(timeout=60) == 0, first.stderr.read().decode()
    assert second.wait(timeout=60) == 0, second.stderr.read().decode()
    assert (out / "second_model.h").is_file() and (out / ".tinyaot-module").is_file()
    # And many pairs at once, without hooks: every run succeeds.
    for round_ in range(10):
        runs = [subprocess.Popen([module.tinyaot_bin(), "convert", "--model.path", str(HELLO),
                                  "--module.path", str(out), "--module.prefix", f"p{k}"],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                for k in range(3)]
        for r in runs:
            assert r.wait(timeout=120) == 0, (round_, r.stderr.read().decode())
