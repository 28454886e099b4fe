"""pytest configuration: tests import `tests.harness`, so the repository
root must be on sys.path; they import the `tinyaot` package from python/
in this tree (no `pip install .` needed), which loads the library
named by TINYAOT_LIBRARY, by default the plain CMake build's
build/libtinyaot.so. Tests that run QEMU carry the `qemu` marker
(`pytest -m qemu`, `pytest -m "not qemu"`). The differential tests report
a table of differing bytes at the end of the session; under pytest-xdist
(`-n 2`, as `make test` runs) each worker sends its rows to the controller
with the test's report, and the tables are sorted so both ways print the
same."""

import dataclasses
import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
for path in (ROOT / "python", ROOT):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))
# Set before the package loads the library: a copy left in python/tinyaot
# (by the setup.py of older trees) could be older than the build.
os.environ.setdefault("TINYAOT_LIBRARY", str(ROOT / "build" / "libtinyaot.so"))

REPORTS = []
ARENAS = []  # (model, scratch bytes, lower bound, TFLM arena total, TFLM planned part)


def pytest_configure(config):
    global _IS_WORKER
    _IS_WORKER = hasattr(config, "workerinput")
    config.addinivalue_line("markers", "qemu: runs generated code on Cortex-M under QEMU "
                            "(make test-qemu)")
    config.addinivalue_line("markers", "doc_command(*commands): the test runs these commands "
                            "of README.md/docs (tests/test_doc_commands.py)")


# Rows already sent to the controller, when this process is an xdist worker.
_SENT = {"reports": 0, "arenas": 0}
_IS_WORKER = False


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """In an xdist worker, attaches the rows a test added to its report."""
    outcome = yield
    if not _IS_WORKER:
        return
    rep = outcome.get_result()
    new_reports = REPORTS[_SENT["reports"]:]
    new_arenas = ARENAS[_SENT["arenas"]:]
    _SENT["reports"], _SENT["arenas"] = len(REPORTS), len(ARENAS)
    if new_reports:
        rep.user_properties.append(("tinyaot_reports",
                                    [dataclasses.asdict(r) for r in new_reports]))
    if new_arenas:
        rep.user_properties.append(("tinyaot_arenas", [list(a) for a in new_arenas]))


def pytest_runtest_logreport(report):
    """In the xdist controller, collects the rows the workers sent."""
    if _IS_WORKER:
        return
    from tests.harness import difftest  # after sys.path is set
    for key, rows in report.user_properties:
        if key == "tinyaot_reports":
            REPORTS.extend(difftest.Report(**r) for r in rows)
        elif key == "tinyaot_arenas":
            ARENAS.extend(tuple(a) for a in rows)


@pytest.fixture(scope="session", autouse=True)
def kernel_objects(tmp_path_factory):
    """The builds of the session share compiled runtime kernels
    (tests/harness/objects.py) in the session's tmp folder; xdist workers
    share one beside their own folders (objects are written under names
    of their own and renamed, so two workers can fill it at once)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        folder = tmp_path_factory.getbasetemp().parent / "kernel-objects"
    else:
        folder = tmp_path_factory.mktemp("kernel-objects")
    os.environ.setdefault("TINYAOT_OBJECT_CACHE", str(folder))


def pytest_terminal_summary(terminalreporter):
    tr = terminalreporter
    _reports(tr)
    _arenas(tr)


def _reports(tr):
    if not REPORTS:
        return
    tr.write_sep("=", "differing output bytes against the oracles")
    tr.write_line(f"{'model':44} {'runs':>5} {'bytes':>9} {'TFLM':>6} {'LiteRT':>7}  notes")
    for r in sorted(REPORTS, key=lambda r: (r.name, r.runs, r.bytes)):
        lite = "n/a" if r.diff["litert"] is None else str(r.diff["litert"])
        tr.write_line(f"{r.name:44} {r.runs:5} {r.bytes:9} {r.diff['tflm']:6} {lite:>7}  {r.notes[:60]}")


def _arenas(tr):
    if ARENAS:
        tr.write_sep("=", "scratch arena against its lower bound and TFLite Micro's arena")
        tr.write_line(f"{'model':44} {'scratch':>8} {'bound':>8} {'gap':>6} {'TFLM total':>11} "
                      f"{'TFLM planned':>13}")
        for name, size, bound, total, head in sorted(ARENAS):
            tr.write_line(f"{name:44} {size:8} {bound:8} {size - bound:6} {total:11} {head:13}")
