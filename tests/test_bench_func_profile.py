"""bench/func_profile.py on a small shared model on the Cortex-M55: the
instructions it counts per function from the QEMU trace (tests/qemu/run.sh
--trace) add up to the runner's instruction count of the same inference,
give or take the counter's own calls, and the kernel is among them. The
benchmark asserts nothing itself; this checks what it prints."""

import re
import subprocess
import sys

import pytest

from tests.harness import doc_commands as dc

pytestmark = pytest.mark.qemu

HEADER = re.compile(r"^== \S+ on mps3-an547 \(M55\): ([\d,]+) instructions in the first "
                    r"inference \(runner: ([\d,]+)\)$")
ROW = re.compile(r"^\s*([\d,]+)\s+\d+\.\d%\s+(\S+)$")


def number(text):
    return int(text.replace(",", ""))


def test_counts_add_up_to_the_runners():
    out = subprocess.run([sys.executable, "-m", "bench.func_profile", "tflm_hello_world_int8",
                          "--top", "100"], cwd=dc.ROOT, capture_output=True, text=True,
                         timeout=600, check=True).stdout.splitlines()
    head = HEADER.match(out[0])
    assert head, out[0]
    total, runner = number(head.group(1)), number(head.group(2))
    assert runner > 0 and abs(total - runner) <= 50, (total, runner)
    rows = {m.group(2): number(m.group(1)) for m in map(ROW.match, out[2:]) if m}
    assert sum(rows.values()) == total
    assert any(name.startswith("ta_fully_connected") for name in rows), rows
