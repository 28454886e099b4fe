"""pytest configuration: tests import `tests.harness`, so the repository
root must be on sys.path; they import the `tinyaot` package from python/
in this tree (no `pip install ./python` needed), which loads the library
named by TINYAOT_LIBRARY, by default the plain CMake build's
build/libtinyaot.so. Tests that run QEMU carry the `qemu` marker
(`pytest -m qemu`, `pytest -m "not qemu"`). The differential tests report
a table of differing bytes at the end of the session."""

import os
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
for path in (ROOT / "python", ROOT):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))
# Set before the package loads the library: a copy left in python/tinyaot by
# an earlier `pip install ./python` could be older than the build.
os.environ.setdefault("TINYAOT_LIBRARY", str(ROOT / "build" / "libtinyaot.so"))

REPORTS = []
ARENAS = []  # (model, scratch bytes, lower bound, TFLM arena total, TFLM planned part)


def pytest_configure(config):
    config.addinivalue_line("markers", "qemu: runs generated code on Cortex-M under QEMU "
                            "(make test-qemu)")


def pytest_terminal_summary(terminalreporter):
    tr = terminalreporter
    _reports(tr)
    _arenas(tr)


def _reports(tr):
    if not REPORTS:
        return
    tr.write_sep("=", "differing output bytes against the oracles")
    tr.write_line(f"{'model':44} {'runs':>5} {'bytes':>9} {'TFLM':>6} {'LiteRT':>7}  notes")
    for r in REPORTS:
        lite = "n/a" if r.diff["litert"] is None else str(r.diff["litert"])
        tr.write_line(f"{r.name:44} {r.runs:5} {r.bytes:9} {r.diff['tflm']:6} {lite:>7}  {r.notes[:60]}")


def _arenas(tr):
    if ARENAS:
        tr.write_sep("=", "scratch arena against its lower bound and TFLite Micro's arena")
        tr.write_line(f"{'model':44} {'scratch':>8} {'bound':>8} {'gap':>6} {'TFLM total':>11} "
                      f"{'TFLM planned':>13}")
        for name, size, bound, total, head in ARENAS:
            tr.write_line(f"{name:44} {size:8} {bound:8} {size - bound:6} {total:11} {head:13}")
