"""bench/shapes.py on three shapes of ../shared/baselines/cmsis-nn-shapes.tsv
(one fully connected, one ADD, one 1x1 convolution) on the Cortex-M55,
instructions only: each row parses, its CMSIS-NN column is the baseline
file's figure, its ratio is instr / CMSIS and its per-unit figure instr /
MACs or elements, no row is flagged, and the family summary counts them.
The benchmark asserts nothing itself; this checks what it prints.
docs/benchmarks.md's bench.shapes commands are the same program on more
shapes, boards and the cycle estimate."""

import os
import re
import subprocess
import sys

import pytest

from bench import shape_models
from tests.harness import doc_commands as dc

pytestmark = pytest.mark.qemu

SHAPES = ["fc_in16_out16_b1", "add_64", "conv_k1x1_s1x1_i16x16x3_o8_same"]
ROW = re.compile(r"^(\S+)\s+([\d,]+)\s+([\d,]+)\s+(\d+\.\d\d)\s+(\d+\.\d{3})\s+-\s+[\d,]+\s+-\s+-$")


def number(text):
    return int(text.replace(",", ""))


@dc.doc_command(".venv/bin/python -m bench.shapes",
                ".venv/bin/python -m bench.shapes --only '^(conv_k1x1|add_)' "
                "--boards mps3-an547 --no-cycles",
                ".venv/bin/python -m bench.shapes --jobs 2 --tsv out/shapes.tsv")
def test_shapes_rows_and_summary(tmp_path):
    env = {**os.environ, "TINYAOT_SHAPES_CACHE": str(tmp_path / "cache")}
    only = "^(" + "|".join(SHAPES) + ")$"
    p = subprocess.run([sys.executable, "-m", "bench.shapes", "--only", only, "--boards",
                        "mps3-an547", "--no-cycles", "--tsv", str(tmp_path / "rows.tsv")],
                       cwd=dc.ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    baseline = {s.id: s for s in shape_models.load_rows()}
    rows = {}
    for line in p.stdout.splitlines():
        m = ROW.match(line)
        if m:
            rows[m.group(1)] = m
    assert sorted(rows) == sorted(SHAPES), p.stdout
    for name, m in rows.items():
        instr, cmsis = number(m.group(2)), number(m.group(3))
        assert cmsis == baseline[name].m55, m.group(0)
        assert instr > 0
        assert float(m.group(4)) == pytest.approx(instr / cmsis, abs=0.005), m.group(0)
        assert float(m.group(5)) == pytest.approx(instr / baseline[name].work, abs=0.0005)
    assert "MISMATCH" not in p.stdout and "FAILED" not in p.stdout, p.stdout
    families = dict(re.findall(r"^(fc|add|conv 1x1|all)\s+(\d+)\s+\d+\.\d\d", p.stdout, re.M))
    assert families == {"fc": "1", "add": "1", "conv 1x1": "1", "all": "3"}, p.stdout
    tsv = (tmp_path / "rows.tsv").read_text().splitlines()
    assert len(tsv) == 1 + len(SHAPES) and tsv[0].startswith("id\top\tfamily\twork\tM55_instr")
