"""pytest configuration: tests import `tests.harness`, so the repository
root must be on sys.path, and the differential tests report a table of
differing bytes at the end of the session."""

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

REPORTS = []
ARENAS = []  # (model, scratch bytes, lower bound, TFLM arena total, TFLM planned part)


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
