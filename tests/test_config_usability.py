"""Smaller things a user hit: relative paths in a --config file resolve from
its folder; a placement rule that fails for many tensors is one line with a
count and the fix; unknown keys get a suggestion for prefixes and parts of
keys too."""

import json
import pathlib
import re
import shutil
import subprocess

import pytest

from tests.harness import module

HELLO = module.MODELS / "tflm_hello_world_int8.tflite"
AD01 = module.MODELS / "mlperf_tiny_ad01_int8.tflite"


def tinyaot(*args, cwd=None):
    binary = str(pathlib.Path(module.tinyaot_bin()).resolve())
    return subprocess.run([binary, *map(str, args)], capture_output=True, text=True, cwd=cwd,
                          timeout=120)


def test_relative_paths_in_a_config_file_are_from_its_folder(tmp_path):
    project = tmp_path / "project"
    (project / "models").mkdir(parents=True)
    shutil.copy(HELLO, project / "models" / "hello.tflite")
    (project / "board.yaml").write_text((module.ROOT / "targets" / "host.yaml").read_text())
    cfg = project / "tinyaot.yaml"
    cfg.write_text("model:\n  path: models/hello.tflite\nmodule:\n  path: out/hello\n"
                   "platform:\n  name: ./board.yaml\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    p = tinyaot("convert", "--config", "../project/tinyaot.yaml", cwd=elsewhere)
    assert p.returncode == 0, p.stderr
    assert (project / "out" / "hello" / "model.h").exists()
    assert list(elsewhere.iterdir()) == []
    # On the command line a relative path is from the working directory.
    shutil.copy(HELLO, elsewhere / "local.tflite")
    p = tinyaot("convert", "--config", cfg, "--model.path", "local.tflite",
                "--module.path", "mine", cwd=elsewhere)
    assert p.returncode == 0, p.stderr
    assert (elsewhere / "mine" / "model.h").exists()
    # A missing file is named as tinyaot looked for it.
    cfg.write_text("model:\n  path: models/missing.tflite\n")
    p = tinyaot("analyze", "--config", "../project/tinyaot.yaml", cwd=elsewhere)
    assert p.returncode != 0
    assert "../project/models/missing.tflite: cannot open" in p.stderr, p.stderr


def error_lines(p):
    return [l for l in p.stderr.splitlines() if l.startswith("tinyaot: error:")]


def test_a_rule_failing_for_many_tensors_is_one_line(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(f"model: {{path: {AD01}}}\nplatform: {{name: mps2_an386}}\n"
                   "memory:\n  tensors:\n    - attributes: {memory: DTCM}\n")
    p = tinyaot("analyze", "--config", cfg)
    assert p.returncode != 0
    lines = error_lines(p)
    assert len(lines) == 1, p.stderr
    # The rule matches every tensor; the views of the same model count them.
    _, views = converted(tmp_path)
    placed = sum(1 for t in views["tensors"] if views["placements"][t["id"]]["region"] is not None)
    m = re.search(r"memory\.tensors\[0\]: (\d+) tensors \(([^)]*)\): target mps2_an386 has no "
                  r"DTCM memory \(tinyaot platforms mps2_an386 lists the ones it has\)", lines[0])
    assert m, lines[0]
    assert 5 < int(m.group(1)) <= placed
    assert m.group(2).endswith(f"and {int(m.group(1)) - 5} more")


def converted(tmp_path):
    out = tmp_path / "ok"
    p = tinyaot("convert", "--model.path", AD01, "--module.path", out, "--module.prefix", "v",
                "--platform.name", "mps2_an386")
    assert p.returncode == 0, p.stderr
    return out, json.loads((out / "v_views.json").read_text())


def test_one_tensor_keeps_the_single_form(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(f"model: {{path: {AD01}}}\nplatform: {{name: apollo510_evb}}\n"
                   "memory:\n  tensors:\n    - id: '0'\n      attributes: {memory: MRAM}\n")
    p = tinyaot("analyze", "--config", cfg)
    lines = error_lines(p)
    assert len(lines) == 1 and "memory.tensors[0]: tensor 0 is scratch, but MRAM is read-only" \
        in lines[0], p.stderr


def test_tensors_that_fit_nowhere_are_one_line_with_the_fix():
    p = tinyaot("analyze", "--model.path", AD01, "--platform.name", "apollo510_evb",
                "--memory.constraints", "[{name: DTCM, max_size: 100}, {name: MRAM}]")
    assert p.returncode != 0
    lines = error_lines(p)
    assert len(lines) == 1, p.stderr
    assert re.search(r": \d+ tensors \(.*\): each fits in no usable memory \(scratch; \S+ needs "
                     r"\d+ bytes where DTCM has \d+ of 100 bytes free\); set "
                     r"memory.constraints\[0\]\.max_size \(DTCM\) to at least \d+, the smallest "
                     r"that fits", lines[0]), lines[0]


@pytest.mark.parametrize("given,suggested", [
    ("memry.planner", "'memory.planner'"),        # a near miss
    ("mem.planner", "'memory.planner'"),          # a prefix of a section
    ("memory.plan", "'memory.planner' or 'memory.planner_options'"),  # a prefix of two keys
    ("memory.dump_residency", "'memory.dump_residency_json'"),
    ("module.pre", "'module.prefix'"),
    ("planner", "'memory.planner'"),              # the section left out
    ("dump_residency_json", "'memory.dump_residency_json'"),
    ("path", "'model.path' or 'module.path'"),    # two equally close
    ("test.enable", "'test.enabled'"),
])
def test_unknown_key_suggestions(given, suggested):
    p = tinyaot("analyze", "--model.path", HELLO, "--" + given, "true")
    assert p.returncode != 0
    assert f"unknown key '{given}' (did you mean {suggested}?)" in p.stderr, p.stderr


def test_unknown_key_without_a_close_one_has_no_suggestion():
    p = tinyaot("analyze", "--model.path", HELLO, "--zzzz.qqqq", "1")
    assert p.returncode != 0
    assert "unknown key 'zzzz.qqqq'" in p.stderr and "did you mean" not in p.stderr


def test_unknown_key_beside_known_ones_reports_only_itself(tmp_path):
    """The known keys of the same section still load, so no follow-on errors."""
    p = tinyaot("convert", "--model.path", HELLO, "--module.path", tmp_path / "x",
                "--module.pre", "kws")
    lines = error_lines(p)
    assert len(lines) == 1 and "module.pre" in lines[0], p.stderr


@pytest.mark.parametrize("args, expected", [
    (["--platform", "mps3_an547", "--model.path", HELLO],
     "platform: expected a mapping of keys to values (did you mean --platform.name mps3_an547?)"),
    (["--model", "x.tflite"],
     "model: expected a mapping of keys to values (did you mean --model.path x.tflite?)"),
    (["--target", "mps3_an547", "--model.path", HELLO],
     "unknown key 'target' (did you mean 'platform.name'?)"),
    (["--module.output", "out", "--model.path", HELLO],
     "unknown key 'module.output' (did you mean 'module.path'?)"),
    (["--memory.budget", "3", "--model.path", HELLO],
     "unknown key 'memory.budget' (did you mean 'memory.constraints'?)"),
    (["--platform.name", "mps3-an547", "--model.path", HELLO],
     "unknown target 'mps3-an547' (did you mean 'mps3_an547'?"),
    (["--platform.name", "MPS2-AN386", "--model.path", HELLO],
     "unknown target 'MPS2-AN386' (did you mean 'mps2_an386'?"),
    (["--platform.name", "an547", "--model.path", HELLO],
     "unknown target 'an547' (did you mean 'mps3_an547'?"),
], ids=["platform", "model", "target", "module.output", "memory.budget", "qemu-an547",
        "qemu-an386", "board-part"])
def test_synonyms_and_qemu_spellings_get_a_suggestion(tmp_path, args, expected):
    """Keys other tools use and QEMU's board spelling (which validate
    prints) point at tinyaot's (issue 22, finding 6)."""
    p = tinyaot("convert", "--module.path", tmp_path / "out", *args)
    assert p.returncode != 0
    assert expected in p.stderr, p.stderr
    assert len(error_lines(p)) == 1, p.stderr
    assert not (tmp_path / "out").exists()


def test_a_section_given_one_value_in_a_file_names_the_key(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("platform: mps3_an547\n")
    p = tinyaot("convert", "--config", cfg, "--model.path", HELLO, "--module.path", tmp_path / "o")
    assert p.returncode != 0
    assert "platform: expected a mapping of keys to values (did you mean platform.name: " \
        "mps3_an547?)" in p.stderr, p.stderr


@pytest.mark.parametrize("key, value", [("memory.overlap_test_shortfall", "16"),
                                        ("memory.overlap_test_direction", "above"),
                                        ("memory.row_streaming_test_share_all", "true"),
                                        ("memory.row_streaming_test_share_early", "true"),
                                        ("memory.row_streaming_test_unchecked", "true")])
def test_testing_only_keys_need_the_testing_switch(key, value, monkeypatch):
    """Keys that break the plan on purpose, for tinyaot's own tests, are one
    error line without TINYAOT_TESTING=1 (issue 22, finding 9)."""
    monkeypatch.delenv("TINYAOT_TESTING", raising=False)
    p = tinyaot("analyze", "--model.path", HELLO, "--" + key, value)
    assert p.returncode != 0
    lines = error_lines(p)
    assert lines == [f"tinyaot: error: command line (--{key}): {key} is for tinyaot's own tests "
                     "only (it can make wrong results); remove it, or set TINYAOT_TESTING=1 in "
                     "the environment to use it"], p.stderr
    monkeypatch.setenv("TINYAOT_TESTING", "1")
    p = tinyaot("analyze", "--model.path", HELLO, "--" + key, value)
    assert p.returncode == 0, p.stderr
