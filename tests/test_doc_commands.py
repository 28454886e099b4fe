"""Every command README.md and docs/*.md show is run (issue 22, deliverable 2):
the cheap ones here, in a clone-like sandbox, each checked for its exit status
and the output the document shows; the long ones by the test that claims them
with @doc_command. The convention is in tests/harness/doc_commands.py and
docs/testing.md ("Documented commands")."""

import pathlib
import re

import pytest

from tests.harness import doc_commands as dc
from tests.harness import module

DOCS = dc.documents()


def claimed():
    return dc.registry()


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(dc.ROOT)))
def test_documented_commands_run(doc, tmp_path):
    cmds = dc.commands(doc)
    reg = claimed()
    sandbox = dc.make_sandbox(tmp_path, module.tinyaot_bin())
    failures = []
    for cmd in cmds:
        if dc.normalize(cmd.text) in reg:
            continue
        failure = dc.run(cmd, sandbox)
        if failure:
            failures.append(failure)
            break  # later commands of the document may build on this one
    assert not failures, "\n".join(failures)


def test_every_claimed_command_is_documented():
    shown = {dc.normalize(c.text) for d in DOCS for c in dc.commands(d)}
    stale = {cmd: tests for cmd, tests in claimed().items() if cmd not in shown}
    assert not stale, f"@doc_command names commands no document shows: {stale}"


def test_the_readme_keeps_its_quick_start_near_the_top():
    lines = (dc.ROOT / "README.md").read_text().splitlines()
    heading = next(i for i, l in enumerate(lines) if l.startswith("## Quick start"))
    assert heading < 150 and len(lines) < 400
    # and it shows commands that run
    assert any(c.line > heading for c in dc.commands(dc.ROOT / "README.md"))


def test_every_docs_file_the_readme_maps_exists():
    text = (dc.ROOT / "README.md").read_text()
    linked = set(re.findall(r"\]\((docs/[^)#]+)", text))
    assert linked, "the README links no docs/ file"
    for path in linked:
        assert (dc.ROOT / path).is_file(), path
    for doc in (dc.ROOT / "docs").glob("*.md"):
        assert f"docs/{doc.name}" in linked, f"the README's map leaves out docs/{doc.name}"


# ---- the Makefile targets the documents show, run by CI ------------------------


@dc.doc_command("make test", "make lint", "make test-unit", "make test-python", "make test-ops",
                "make fuzz")
def test_make_test_runs_each_part_and_ci_runs_make_test():
    """`make test` is what CI runs (.ci/run); its parts are the targets the
    documents show, each running alone too."""
    assert "exec make test" in (dc.ROOT / ".ci" / "run").read_text()
    makefile = (dc.ROOT / "Makefile").read_text()
    recipe = re.search(r"^test: .*?(?=^\S)", makefile, re.M | re.S).group(0)
    for part in ("scripts/lint.sh build", "$(run_unit)", "$(run_python)", "$(run_ops)",
                 "scripts/fuzz.sh"):
        assert part in recipe, part
    for target in ("lint", "test-unit", "test-python", "test-ops", "test-qemu", "fuzz",
                   "bench", "demo", "test-target-long"):
        assert re.search(rf"^{re.escape(target)}:", makefile, re.M), target


# ---- the convention itself: a broken command fails the test -------------------


def run_text(tmp_path, text):
    """Runs the commands of a document text (outside docs/) in a sandbox;
    returns the first failure."""
    path = tmp_path / "doc.md"
    path.write_text(text)
    cmds = doc_commands_of(path)
    sandbox = dc.make_sandbox(tmp_path, module.tinyaot_bin())
    for cmd in cmds:
        failure = dc.run(cmd, sandbox)
        if failure:
            return failure
    return None


def doc_commands_of(path):
    # Command.where wants a path under the tree; the self-test's are not.
    cmds = dc.commands(path)
    for c in cmds:
        c.doc = dc.ROOT / "docs" / path.name
    return cmds


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
    assert failure and "exited with 2" in failure and "model.pth" in failure


def test_output_the_command_does_not_print_fails(tmp_path):
    failure = run_text(tmp_path, GOOD.replace("total MACs: ...", "total MACs: 12"))
    assert failure and "did not print the shown line" in failure


def test_an_expected_failure_is_checked(tmp_path):
    text = """
```console
$ build/tinyaot convert --model.path examples/demo/demo.tflite   # exit 2
tinyaot: error: ...module.path...
```
"""
    assert run_text(tmp_path, text) is None
    assert run_text(tmp_path, text.replace("# exit 2", "# exit 0")) is not None


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
