"""Every command README.md and docs/*.md show is run (issue 22, deliverable 2):
the cheap ones here, in a clone-like sandbox, each checked for its exit status
and the output the document shows; the long ones by the test that claims them
with @doc_command. The convention is in tests/harness/doc_commands.py and
docs/testing.md ("Documented commands")."""

import pathlib
import re
import subprocess
import tempfile

import pytest

from tests.harness import doc_commands as dc
from tests.harness import module

DOCS = dc.documents()


def claimed():
    return dc.registry()


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(dc.ROOT)))
@dc.doc_command(
    "TINYAOT_BIN=build/tinyaot .venv/bin/python -m pytest -q tests/test_doc_commands.py")
def test_documented_commands_run(doc, tmp_path):
    cmds = dc.commands(doc)
    reg = claimed()
    if not cmds:
        return
    sandbox = dc.make_sandbox(tmp_path, module.tinyaot_bin())
    failures = []
    for cmd in cmds:
        if cmd.file_text is None and dc.normalize(cmd.text) in reg:
            continue
        failure = dc.run(cmd, sandbox)
        if failure:
            failures.append(failure)
            break  # later commands of the document may build on this one
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(dc.ROOT)))
def test_claimed_commands_are_well_formed(doc, tmp_path):
    """The long commands a test claims still run in a cheap form (collect the
    tests, list them, zero cases, make -n), so a wrong file, marker, option or
    target fails here."""
    reg = claimed()
    dry = [(cmd, dc.dry_run(cmd.text)) for cmd in dc.commands(doc)
           if cmd.file_text is None and dc.normalize(cmd.text) in reg]
    dry = [(cmd, form) for cmd, form in dry if form is not None]
    if not dry:
        return
    sandbox = dc.make_sandbox(tmp_path, module.tinyaot_bin())
    for cmd, (text, shows) in dry:
        p = dc.shell(text, sandbox, 120)
        printed = p.stdout[-3000:] if p else "(ran longer than 120 s)"
        assert p is not None and p.returncode == 0 and re.search(shows, p.stdout, re.M), \
            f"{cmd.where}: `{text}` (the cheap form of a claimed command) failed:\n{printed}"


def test_every_claimed_command_is_documented():
    shown = {dc.normalize(c.text) for d in DOCS for c in dc.commands(d) if c.file_text is None}
    stale = {cmd: tests for cmd, tests in claimed().items() if cmd not in shown}
    assert not stale, f"@doc_command names commands no document shows: {stale}"


def test_the_readme_has_its_quick_start_within_150_lines():
    lines = (dc.ROOT / "README.md").read_text().splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("## Quick start"))
    end = next(i for i, l in enumerate(lines) if i > start and l.startswith("## "))
    assert end <= 150 and len(lines) < 400, (start, end, len(lines))
    # and it shows commands (which test_documented_commands_run runs)
    assert any(start < c.line < end for c in dc.commands(dc.ROOT / "README.md"))


def test_every_docs_file_the_readme_maps_exists():
    text = (dc.ROOT / "README.md").read_text()
    linked = set(re.findall(r"\]\((docs/[^)#]+)", text))
    assert linked, "the README links no docs/ file"
    for path in linked:
        assert (dc.ROOT / path).is_file(), path
    for doc in (dc.ROOT / "docs").glob("*.md"):
        assert f"docs/{doc.name}" in linked, f"the README's map leaves out docs/{doc.name}"


# ---- the long commands, claimed by what runs them -------------------------------


def makefile():
    return (dc.ROOT / "Makefile").read_text()


def recipe(target):
    return re.search(rf"^{re.escape(target)}:.*?(?=^\S)", makefile(), re.M | re.S).group(0)


@dc.doc_command("make test", "make lint", "make test-unit", "make test-python", "make test-ops",
                "make test-qemu", "make fuzz", "make fuzz FUZZ_SECONDS=3600", "make bench",
                "make build")
def test_ci_runs_make_test_and_make_test_runs_each_part():
    """`make test` is what CI runs (.ci/run); its parts are the targets the
    documents show, each of which also runs alone."""
    assert "exec make test" in (dc.ROOT / ".ci" / "run").read_text()
    test = recipe("test")
    for part in ("scripts/lint.sh build", "$(run_unit)", "$(run_python)", "$(run_ops)",
                 "scripts/fuzz.sh"):
        assert part in test, part
    assert recipe("test").startswith("test: deps build build-asan")
    for target in ("build", "lint", "test-unit", "test-python", "test-ops", "test-qemu", "fuzz",
                   "bench", "demo", "test-target-long"):
        assert recipe(target), target
    assert "-m bench.models" in recipe("bench")


@dc.doc_command("cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo",
                "cmake --build build -j2")
def test_the_install_commands_are_what_make_build_runs():
    build = recipe("build")
    assert "cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo" in build
    assert "cmake --build build -j $(JOBS)" in build and "JOBS ?= 2" in makefile()


@dc.doc_command(
    "cd build && ctest -L qemu",
    '.venv/bin/python -m pytest -q -m "not qemu" tests/test_placement.py',
    ".venv/bin/python -m pytest -q tests/test_custom_operators.py",
    "TINYAOT_BIN=build-asan/tinyaot TINYAOT_SANITIZE=1 .venv/bin/python -m pytest -q "
    "tests/test_custom_operators.py",
    ".venv/bin/python -m tests.optest --count 2000 --seed 12345",
    "TINYAOT_SANITIZE=1 .venv/bin/python -m tests.optest --variants CONV_2D.int8 --count 500 "
    "--litert",
    ".venv/bin/python -m tests.optest --variants CONV_2D.int8,CONV_2D.int16 --count 50",
    "TINYAOT_SANITIZE=1 .venv/bin/python -m tests.optest --variants CONV_2D.int8 --count 200 "
    "--seed 9",
    ".venv/bin/python -m bench.op_profile --all")
def test_make_test_runs_what_the_selections_select():
    """These select part of what `make test` runs in full (every pytest file,
    every ctest test, every operator variant); their cheap forms run in
    test_claimed_commands_are_well_formed. bench.op_profile --all is the
    per-model command run on every model."""
    assert "ctest --output-on-failure" in makefile()
    assert "--durations=30 tests\n" in makefile()  # every test file
    assert "--variants all" in makefile()
    help_text = subprocess.run([str(dc.ROOT / ".venv" / "bin" / "python"), "-m",
                                "bench.op_profile", "--help"], cwd=dc.ROOT, text=True,
                               capture_output=True).stdout
    assert "--all" in help_text


# ---- the convention itself: a broken command fails the test -------------------


def run_text(tmp_path, text):
    """Runs the commands of a document text (outside docs/) in a sandbox;
    returns the first failure."""
    tmp = pathlib.Path(tempfile.mkdtemp(dir=tmp_path))
    path = tmp / "doc.md"
    path.write_text(text)
    cmds = dc.commands(path)
    sandbox = dc.make_sandbox(tmp, module.tinyaot_bin())
    for cmd in cmds:
        failure = dc.run(cmd, sandbox)
        if failure:
            return failure
    return None


GOOD = """
```console
$ build/tinyaot analyze --model.path examples/demo/demo.tflite
...
total MACs: ...
```
"""


def test_a_working_command_passes(tmp_path):
    assert run_text(tmp_path, GOOD) is None


def test_a_misspelled_key_fails(tmp_path):
    failure = run_text(tmp_path, GOOD.replace("--model.path", "--model.pth"))
    assert failure and "exited with 1" in failure and "model.pth" in failure


def test_output_the_command_does_not_print_fails(tmp_path):
    failure = run_text(tmp_path, GOOD.replace("total MACs: ...", "total MACs: 12"))
    assert failure and "did not print the shown line" in failure


def test_an_expected_failure_is_checked(tmp_path):
    text = """
```console
$ build/tinyaot convert --model.path examples/demo/demo.tflite   # exit 1
tinyaot: error: ...module.path...
```
"""
    assert run_text(tmp_path, text) is None
    assert run_text(tmp_path, text.replace("# exit 1", "# exit 0")) is not None


def test_a_file_block_is_written_before_the_commands_after_it(tmp_path):
    text = """
<!-- doc-test: file cfg/demo.yaml -->
```yaml
model: {path: ../examples/demo/demo.tflite}
```

```console
$ build/tinyaot analyze --config cfg/demo.yaml
...
total MACs: 640
```
"""
    assert run_text(tmp_path, text) is None
    assert "inside the sandbox" in run_text(tmp_path, text.replace("cfg/demo", "../demo"))


def test_sh_blocks_run_every_line(tmp_path):
    assert run_text(tmp_path, "```sh\ntrue\nfalse\n```\n") is not None
    assert run_text(tmp_path, "```sh\ntrue \\\n  && true   # both\n```\n") is None


def test_a_command_in_a_block_without_language_is_refused(tmp_path):
    path = tmp_path / "doc.md"
    path.write_text("```\nbuild/tinyaot convert --model.path m.tflite\n```\n")
    with pytest.raises(AssertionError, match="without a language"):
        dc.commands(path)


def test_the_registry_reads_decorators_without_importing(tmp_path):
    (tmp_path / "test_x.py").write_text(
        "raise SystemExit('imported')\n"
        "@doc_command('make  demo  # the demo')\ndef test_y():\n    pass\n")
    assert dc.registry(tmp_path) == {"make demo": [f"{tmp_path}/test_x.py::test_y"]}


def test_the_readme_walks_a_user_from_install_to_the_board_within_150_lines():
    """Issue 22: what tinyaot is, how to install it and a quick start that
    takes a model to both boards, validates it against TFLite Micro and
    profiles it, all within the README's first 150 lines."""
    lines = (dc.ROOT / "README.md").read_text().splitlines()
    headings = [i for i, line in enumerate(lines) if line.startswith("## ")]
    names = [lines[i] for i in headings]
    assert names[:2] == ["## Install", "## Quick start"], names
    end = headings[2] if len(headings) > 2 else len(lines)
    assert end <= 150, f"the quick start ends at line {end + 1}"
    quick = "\n".join(lines[:end])
    for step in ("pip install .", "tinyaot convert", "--module.type firmware",
                 "--platform.name mps3_an547", "--platform.name mps2_an386", "firmware run",
                 "tinyaot validate", "TFLite Micro", "tinyaot profile", "tinyaot analyze"):
        assert step in quick, step
