"""The commands README.md and docs/*.md show, found and run (docs/testing.md,
"Documented commands").

The convention:

* A ```sh block holds commands only: every line is one (a trailing `\\`
  continues it on the next line; blank lines and `#` comment lines are
  skipped). Nothing it prints is checked, only that it exits with 0.
* A ```console block is a session: a line starting with `$ ` is a command,
  the lines after it, up to the next `$ `, are what it prints. Each shown
  line must appear, in that order, in what the command prints (stdout and
  stderr together); `...` inside a line matches any text, and a line that
  is only `...` stands for lines left out. A trailing `# exit N` comment on
  the `$ ` line says the command is meant to exit with N.
* A block of any language right after a line `<!-- doc-test: file PATH -->`
  is a file: its text is written to PATH (relative to the sandbox) before
  the commands after it run, so a command can use the configuration a page
  shows.
* Every other block (```text, ```yaml, ```c, ...) is not a command. A block
  without a language must not hold one either: a line there that starts with
  `$ ` or a command word is an error, so a command cannot hide from the test.

A command runs in a sandbox laid out like a clone (every top-level entry of
the tree linked in, `build/` the plain build with `build/tinyaot` the
converter under test,
`../shared` beside it), one sandbox per document, in the document's order,
so a later command sees what an earlier one wrote. A command too long for
that (`make test`, a QEMU suite) is instead claimed by a test that runs it:
`@doc_command("...")` on that test, found here by reading the test files.
"""

import ast
import dataclasses
import functools
import os
import pathlib
import re
import shlex
import signal
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

# The first word of a line that is a command, for the check of blocks
# without a language.
COMMAND_WORDS = ("build/tinyaot", "tinyaot", "make", "cmake", "ctest", "cc", "cd",
                 ".venv/bin/python", "python", "python3", "pip", "examples/", "scripts/",
                 "tests/", "TINYAOT_", ".ci/run")


def doc_command(*commands):
    """Marks a test as the one that runs these documented commands (the long
    ones the documentation test does not run itself)."""
    return pytest.mark.doc_command(*commands)


@dataclasses.dataclass
class Command:
    doc: pathlib.Path
    line: int           # 1-based line of the command in doc
    text: str           # as the shell gets it (continuations joined)
    expected: list      # lines the command must print, in order
    status: int = 0
    file_text: str = None  # a file to write to `text` instead of a command

    @property
    def where(self):
        return f"{shown_path(self.doc)}:{self.line}"


def shown_path(path):
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def normalize(text):
    """The words of a command without its comments, one space apart: the key
    the registry of long commands uses."""
    return " ".join(shlex.split(text.replace("\\\n", " "), comments=True))


def documents():
    return [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))


FILE = re.compile(r"^<!--\s*doc-test:\s*file\s+(\S+)\s*-->\s*$")


def fenced_blocks(path):
    """(language, first line number, lines, file to write or None) of every
    fenced block."""
    lines = path.read_text().splitlines()
    blocks, i = [], 0
    while i < len(lines):
        m = re.match(r"^(\s*)```(\S*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        file = FILE.match(lines[i - 1]) if i > 0 else None
        start, lang, body = i + 2, m.group(2), []
        i += 1
        while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
            body.append(lines[i])
            i += 1
        if i == len(lines):
            raise AssertionError(f"{shown_path(path)}:{start - 1}: fenced block not closed")
        blocks.append((lang, start, body, file.group(1) if file else None))
        i += 1
    return blocks


def join_continuations(body, start, prefix=""):
    """Yields (line number, text, index after it) of each logical line."""
    i = 0
    while i < len(body):
        line, first = body[i], i
        while line.endswith("\\") and i + 1 < len(body):
            i += 1
            nxt = body[i]
            line = line + "\n" + (nxt[len(prefix):] if prefix and nxt.startswith(prefix) else nxt)
        yield start + first, line, i + 1
        i += 1


EXIT = re.compile(r"\s+#\s*exit\s+(\d+)\s*$")


def console_commands(path, start, body):
    cmds = []
    for lineno, text, _ in join_continuations(body, start):
        if text.startswith("$ "):
            cmd = text[2:]
            m = EXIT.search(cmd)
            status = int(m.group(1)) if m else 0
            cmds.append(Command(path, lineno, cmd, [], status))
        elif cmds:
            cmds[-1].expected.extend(text.split("\n"))
        elif text.strip():
            raise AssertionError(f"{shown_path(path)}:{lineno}: a console block must "
                                 "start with a `$ ` command line")
    return cmds


def sh_commands(path, start, body):
    return [Command(path, lineno, text, [])
            for lineno, text, _ in join_continuations(body, start)
            if text.strip() and not text.lstrip().startswith("#")]


def looks_like_command(line):
    s = line.strip()
    return s.startswith("$ ") or any(s == w or s.startswith(w + " ") or
                                     (w.endswith("/") and s.startswith(w))
                                     for w in COMMAND_WORDS)


def commands(path):
    """Every command of one document; raises on a command outside a sh or
    console block."""
    found = []
    for lang, start, body, file in fenced_blocks(path):
        if file:
            found.append(Command(path, start - 1, file, [], 0, "\n".join(body) + "\n"))
        elif lang == "sh":
            found += sh_commands(path, start, body)
        elif lang == "console":
            found += console_commands(path, start, body)
        elif lang == "":
            for k, line in enumerate(body):
                if looks_like_command(line):
                    raise AssertionError(
                        f"{shown_path(path)}:{start + k}: a command in a block without "
                        "a language; put it in a ```sh or ```console block (docs/testing.md, "
                        "\"Documented commands\") or mark the block ```text")
    return found


@functools.lru_cache(maxsize=None)
def registry(tests_dir=None):
    """{normalized command: [test, ...]} from every @doc_command(...) in the
    test files, read without importing them."""
    reg = {}
    for f in sorted((tests_dir or ROOT / "tests").rglob("*.py")):
        tree = ast.parse(f.read_text(), str(f))
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for dec in node.decorator_list:
                if not isinstance(dec, ast.Call):
                    continue
                name = dec.func.attr if isinstance(dec.func, ast.Attribute) else \
                    getattr(dec.func, "id", "")
                if name != "doc_command":
                    continue
                for arg in dec.args:
                    if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                        raise AssertionError(f"{f}:{dec.lineno}: doc_command takes strings")
                    where = f.relative_to(ROOT) if f.is_relative_to(ROOT) else f
                    test = f"{where}::{node.name}"
                    reg.setdefault(normalize(arg.value), []).append(test)
    return reg


# ---- the sandbox -------------------------------------------------------------


def make_sandbox(tmp, converter):
    """A clone-like tree in tmp/clone: the tree's top-level entries linked,
    build/ the converter's build directory, ../shared beside it, out/ empty."""
    clone = tmp / "clone"
    clone.mkdir()
    for entry in ROOT.iterdir():
        if entry.name in ("build", "out", ".git") or entry.name.startswith("build-"):
            continue
        (clone / entry.name).symlink_to(entry)
    # build/ is the plain build's entries with tinyaot the converter under
    # test (the sanitized one in make test): libtinyaot.so stays loadable
    # into Python, and what a command writes there stays in the sandbox.
    converter = pathlib.Path(converter).resolve()
    plain = ROOT / "build"
    build = clone / "build"
    build.mkdir()
    for entry in (plain.iterdir() if plain.is_dir() else converter.parent.iterdir()):
        if entry.name != "tinyaot" and entry.name != "Testing":
            (build / entry.name).symlink_to(entry)
    (build / "tinyaot").symlink_to(converter)
    shared = ROOT.parent / "shared"
    if not (tmp / "shared").exists():
        (tmp / "shared").symlink_to(shared)
    return clone


def sandbox_env(cwd=None):
    # As a user's shell after installing: no pytest state, and the command
    # `tinyaot` (as build/tinyaot) is the converter under test (the
    # sandbox's build/ is first on PATH, where pip would put the command).
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PYTEST_") and k != "TINYAOT_BIN"}
    if cwd is not None and (pathlib.Path(cwd) / "build" / "tinyaot").exists():
        env["PATH"] = f"{pathlib.Path(cwd) / 'build'}{os.pathsep}{env.get('PATH', '')}"
    return env


def expected_matches(expected, printed):
    """None when every shown line appears in order in printed, else the first
    shown line that does not."""
    lines = [l.rstrip() for l in printed.splitlines()]
    pos = 0
    for want in expected:
        want = want.rstrip()
        if want.strip() in ("", "..."):
            continue
        pattern = re.compile(".*".join(re.escape(p) for p in want.split("...")))
        while pos < len(lines) and not pattern.fullmatch(lines[pos]):
            pos += 1
        if pos == len(lines):
            return want
        pos += 1
    return None


def shell(text, cwd, timeout):
    """Runs text with sh in its own process group (all of it killed on a
    timeout); the CompletedProcess, or None after a timeout."""
    with subprocess.Popen(["sh", "-c", text], cwd=cwd, env=sandbox_env(cwd), text=True,
                          errors="replace", stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          start_new_session=True) as proc:
        try:
            out, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            return None
    return subprocess.CompletedProcess(proc.args, proc.returncode, out)


def run(cmd, cwd, timeout=180):
    """Runs one command in the sandbox; returns a failure message or None."""
    if cmd.file_text is not None:
        target = pathlib.Path(cwd) / cmd.text
        if ".." in pathlib.PurePath(cmd.text).parts or pathlib.PurePath(cmd.text).is_absolute():
            return f"{cmd.where}: doc-test file {cmd.text} must be a path inside the sandbox"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(cmd.file_text)
        return None
    p = shell(cmd.text, cwd, timeout)
    if p is None:
        return (f"{cmd.where}: `{cmd.text}` ran longer than {timeout} s: make it cheaper, or "
                "claim it with @doc_command on the test that runs it")
    tail = "\n".join(p.stdout.splitlines()[-25:])
    if p.returncode != cmd.status:
        return (f"{cmd.where}: `{cmd.text}` exited with {p.returncode}, the document expects "
                f"{cmd.status}; it printed:\n{tail}")
    missing = expected_matches(cmd.expected, p.stdout)
    if missing is not None:
        return (f"{cmd.where}: `{cmd.text}` did not print the shown line\n    {missing}\n"
                f"it printed:\n{tail}")
    return None


# ---- claimed commands, checked without their cost ------------------------------


def dry_run(text):
    """A cheap form of a long command that still fails when the command is
    wrong (an unknown test file, target, marker or option), or None. The
    form and what its output must show."""
    words = shlex.split(text.replace("\\\n", " "), comments=True)
    if words[:3] == ["cd", "build", "&&"] and "ctest" in words:
        k = words.index("ctest")
        return shlex.join(words[3:k + 1] + ["-N"] + words[k + 1:]).join(["cd build && ", ""]), \
            r"Total Tests: [1-9]"
    if "pytest" in words:
        return shlex.join(words + ["--collect-only", "-q"]), \
            r"^\S+\.py: [1-9]\d*$|[1-9]\d* tests? collected|::"
    if "tests.optest" in words:
        extra = [] if "--variants" in words else ["--variants", "CONV_2D.int8"]
        return shlex.join(words + extra + ["--count", "0"]), r"^ok: "
    if words[:1] == ["make"] and len(words) >= 2:
        return shlex.join(["make", "-n"] + words[1:]), r""
    return None
