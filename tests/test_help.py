"""Help that answers: every command's --help / -h lists every configuration
key with its type, default and meaning, from the table the loader checks
keys against (so the help and the loader cannot drift); `tinyaot
platforms` lists and shows the targets."""

import json
import pathlib
import re
import subprocess

import pytest
import yaml

from tests.harness import module

HELLO = module.MODELS / "tflm_hello_world_int8.tflite"
KEY_LINE = re.compile(r"^  (\S+)  \((.+); default: (.+)\)$")


def tinyaot(*args, cwd=None):
    binary = str(pathlib.Path(module.tinyaot_bin()).resolve())
    return subprocess.run([binary, *map(str, args)], capture_output=True, text=True, cwd=cwd,
                          timeout=120)


def help_keys(text):
    """{key: (type, default, meaning)} from a help text."""
    lines = text.splitlines()
    keys = {}
    for i, line in enumerate(lines):
        m = KEY_LINE.match(line)
        if m:
            meaning = lines[i + 1]
            assert meaning.startswith("      ") and meaning.strip(), line
            keys[m.group(1)] = (m.group(2), m.group(3), meaning.strip())
    return keys


@pytest.mark.parametrize("args", [["--help"], ["-h"], ["help"], ["convert", "--help"],
                                  ["convert", "-h"], ["analyze", "--help"], ["analyze", "-h"],
                                  ["convert", "--model.path", "x", "--help"]])
def test_every_help_lists_every_key(args):
    p = tinyaot(*args)
    assert p.returncode == 0, p.stderr
    assert p.stderr == ""
    keys = help_keys(p.stdout)
    reference = help_keys(tinyaot("--help").stdout)
    assert keys == reference and len(keys) > 20
    for key in ("model.path", "module.prefix", "memory.constraints[].max_size",
                "operators[].attributes.code_placement", "test.tolerance"):
        assert key in keys


def test_command_help_names_its_options():
    p = tinyaot("convert", "--help")
    for option in ("--config", "--strict", "--force", "--quiet"):
        assert option in p.stdout
    p = tinyaot("analyze", "--help")
    for option in ("--config", "--strict", "--format text|json"):
        assert option in p.stdout
    assert "scripts/flash_sizes.py" in p.stdout and "estimate" in p.stdout


def nested(key, value):
    """'memory.tensors[].attributes.memory' -> {'memory': {'tensors': [{...: value}]}}."""
    head, _, rest = key.partition(".")
    if head.endswith("[]"):
        inner = nested(rest, value) if rest else value
        return {head[:-2]: [inner]}
    return {head: nested(rest, value) if rest else value}


def merge(a, b):
    for k, v in b.items():
        if k in a and isinstance(a[k], dict) and isinstance(v, dict):
            merge(a[k], v)
        else:
            a[k] = v
    return a


def sample_value(key, type_text):
    if type_text == "bool":
        return True
    if "memory name" in type_text:
        return "SRAM"
    if "|" in type_text:
        return type_text.split("|")[0]
    if type_text.startswith(("integer", "power of two")):
        return 16
    if type_text == "number":
        return 0.5
    if key.endswith(("tensors", "constraints", "operators", "transforms")):
        return []
    return "x"


def test_the_loader_accepts_exactly_the_keys_the_help_lists(tmp_path):
    keys = help_keys(tinyaot("--help").stdout)
    for key, (type_text, _, _) in keys.items():
        value = str(HELLO) if key == "model.path" else sample_value(key, type_text)
        cfg = tmp_path / "c.yaml"
        cfg.write_text(json.dumps(merge(nested("model.path", str(HELLO)), nested(key, value))))
        p = tinyaot("analyze", "--config", cfg)
        assert "unknown key" not in p.stderr, (key, p.stderr)
    # And nothing else: a sibling of each key that the help does not list.
    for key in keys:
        wrong = key + "x"
        if wrong in keys:
            continue
        p = tinyaot("analyze", "--model.path", HELLO, "--" + wrong.replace("[]", ""), "1")
        if "[]" in key:
            # A list element's key can only be written inside a list.
            cfg = tmp_path / "w.yaml"
            cfg.write_text(json.dumps(merge(nested("model.path", str(HELLO)),
                                            nested(wrong, 1))))
            p = tinyaot("analyze", "--config", cfg)
        assert p.returncode != 0 and "unknown key" in p.stderr, (wrong, p.stderr)


def test_help_matches_the_python_key_table():
    import tinyaot
    keys = help_keys(tinyaot_cli_help())
    table = {k.key: (k.type, k.default, k.meaning) for k in tinyaot.config_keys()}
    assert keys == table


def tinyaot_cli_help():
    return tinyaot("--help").stdout


def test_readme_documents_every_key():
    """In README.md or a page of docs/ (the README links them)."""
    readme = (module.ROOT / "README.md").read_text() + "".join(
        p.read_text() for p in sorted((module.ROOT / "docs").glob("*.md")))
    for key in help_keys(tinyaot_cli_help()):
        assert f"`{key}`" in readme, key


def test_a_missing_value_points_to_the_help():
    p = tinyaot("convert", "--model.path")
    assert p.returncode == 2 and "tinyaot convert --help lists the keys" in p.stderr


# ---- platforms --------------------------------------------------------------


def builtin_targets():
    return sorted(p.stem for p in (module.ROOT / "targets").glob("*.yaml"))


def test_platforms_lists_every_builtin_target():
    p = tinyaot("platforms")
    assert p.returncode == 0, p.stderr
    listed = [l.split()[0] for l in p.stdout.splitlines()[1:] if l.startswith("  ")]
    assert listed == builtin_targets()
    for name in builtin_targets():
        desc = yaml.safe_load((module.ROOT / "targets" / f"{name}.yaml").read_text())
        line = next(l for l in p.stdout.splitlines() if l.split()[:1] == [name])
        assert desc["core"] in line


@pytest.mark.parametrize("name", builtin_targets())
def test_platform_shows_memories_sections_and_spill_order(name):
    p = tinyaot("platforms", name)
    assert p.returncode == 0, p.stderr
    desc = yaml.safe_load((module.ROOT / "targets" / f"{name}.yaml").read_text())
    rows = {l.split()[0]: l.split() for l in p.stdout.splitlines()
            if l.startswith("  ") and l.split()[0] in {m["name"] for m in desc["memories"]}}
    assert len(rows) == len(desc["memories"])
    for m in desc["memories"]:
        row = rows[m["name"]]
        assert int(row[1], 16) == m["base"] and int(row[2]) == m["capacity"]
        flags = ("w" if m["writable"] else "-") + ("x" if m["executable"] else "-") + \
            ("v" if m["volatile"] else "-")
        assert row[3] == flags
        assert row[4:7] == [m.get(s) or "-" for s in ("bss_section", "data_section",
                                                       "code_section")]
    spill = next(l for l in p.stdout.splitlines() if "spill order:" in l)
    assert spill.split(":", 1)[1].split() == desc["spill_order"]


def test_platform_from_a_file_and_an_unknown_name(tmp_path):
    board = tmp_path / "board.yaml"
    board.write_text("name: myboard\ncore: cortex-m4\nmin_alignment: 8\n"
                     "memories:\n  - {name: SRAM, base: 0x20000000, capacity: 65536, "
                     "writable: true, executable: true, volatile: true, "
                     "bss_section: .my_bss}\nspill_order: [SRAM]\n")
    p = tinyaot("platforms", board)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("myboard:") and ".my_bss" in p.stdout
    assert "0x20000000        65536  wxv" in p.stdout
    p = tinyaot("platforms", "apollo511_evb")
    assert p.returncode == 1 and "unknown target 'apollo511_evb'" in p.stderr
    assert "apollo510_evb" in p.stderr
    p = tinyaot("platforms", "--help")
    assert p.returncode == 0 and "usage: tinyaot platforms" in p.stdout
