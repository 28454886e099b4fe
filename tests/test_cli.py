"""The command line and configuration: keys from YAML and the command line,
clear errors for unknown keys and wrong types, atomic output, determinism,
and generated modules that compile warning-free with every compiler."""

import filecmp
import os
import pathlib
import shutil
import subprocess

import pytest

from tests.harness import module

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
    before = (out / "model_model.h").read_text()
    p = tinyaot("convert", "--model.path", module.MODELS / "tflm_audio_preprocessor_int8.tflite",
                "--module.path", out)
    assert p.returncode != 0
    assert (out / "model_model.h").read_text() == before
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


CONVERTIBLE = sorted(p.stem for p in module.MODELS.glob("*.tflite")
                     if p.stem != "tflm_audio_preprocessor_int8")


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
