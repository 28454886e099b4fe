"""pytest configuration: tests import `tests.harness`, so the repository
root must be on sys.path, and the differential tests report a table of
differing bytes at the end of the session."""

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

REPORTS = []


def pytest_terminal_summary(terminalreporter):
    if not REPORTS:
        return
    tr = terminalreporter
    tr.write_sep("=", "differing output bytes against the oracles")
    tr.write_line(f"{'model':44} {'runs':>5} {'bytes':>9} {'TFLM':>6} {'LiteRT':>7}  notes")
    for r in REPORTS:
        lite = "n/a" if r.diff["litert"] is None else str(r.diff["litert"])
        tr.write_line(f"{r.name:44} {r.runs:5} {r.bytes:9} {r.diff['tflm']:6} {lite:>7}  {r.notes}")
