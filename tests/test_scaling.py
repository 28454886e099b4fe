"""Conversion cost grows linearly with the model (issue 26, defects 2 and
12): chains of 1,000, 10,000 and 30,000 RELUs, and chains of ADDs (which
FUSE_RESIDUAL_ADD examines one by one), are converted, and the converter's
CPU time and peak memory (getrusage of the child) of the large model may
be at most LINEAR_SLACK times the size ratio times those of the small one -
a ratio in one run, not an absolute time. Before, RELU chains took 0.09 s / 1.5 s / 11.5 s and ADD
chains 12 * N^2 bytes. A second conversion onto the module the first one
wrote (the marker check) is measured the same way.

Only user CPU time counts: the system time is the file system creating
tens of thousands of files and varies with the machine's load.
`python -m bench.scaling` prints the whole curve."""

import subprocess

import pytest

from tests.gen.builder import ModelBuilder, Q
from tests.harness import module

LINEAR_SLACK = 2.5  # allowed on top of linear: caches, the allocator, noise
FLOOR_SECONDS = 0.05  # small runs are measured against at least this


def chain(kind, n):
    """n operators in a row on [1, 4] int8: RELUs, or ADDs of the running
    value and the model input."""
    b = ModelBuilder()
    x = b.tensor([1, 4], "int8", Q(0.1, 0), name="x")
    prev = x
    for i in range(n):
        y = b.tensor([1, 4], "int8", Q(0.1, 0), name=f"t{i}")
        if kind == "relu":
            b.op("RELU", [prev], [y])
        else:
            b.op("ADD", [prev, x], [y], "AddOptions")
        prev = y
    return b.build([x], [prev])


def check_linear(costs, small, large, what):
    """costs[n] = (user seconds, peak KiB): the large run at most
    LINEAR_SLACK times linear growth over the small one."""
    growth = large / small
    (t_small, m_small), (t_large, m_large) = costs[small], costs[large]
    assert t_large <= LINEAR_SLACK * growth * max(t_small, FLOOR_SECONDS), (what, costs)
    assert m_large <= LINEAR_SLACK * growth * m_small, (what, costs)


@pytest.mark.parametrize("kind", ["relu", "add"])
def test_planning_time_and_memory_grow_linearly(tmp_path, kind):
    """analyze: reading, the checks, the transforms (FUSE_RESIDUAL_ADD on
    the ADD chain), lowering, planning and the report, at 1,000 and 30,000
    operators."""
    costs = {}
    for n in (1000, 30000):
        model = tmp_path / f"{kind}{n}.tflite"
        model.write_bytes(chain(kind, n))
        costs[n] = alone([module.tinyaot_bin(), "analyze", "--model.path", str(model)])
    check_linear(costs, 1000, 30000, f"analyze {kind}")


def test_writing_and_rewriting_a_module_grow_linearly(tmp_path):
    """convert, then convert again onto the module it wrote (the marker
    check of every file), at 300 and 6,000 operators (a file per operator:
    kept smaller, the file system's time is not measured)."""
    first, again = {}, {}
    for n in (300, 6000):
        model = tmp_path / f"relu{n}.tflite"
        model.write_bytes(chain("relu", n))
        args = [module.tinyaot_bin(), "convert", "--model.path", str(model), "--module.path",
                str(tmp_path / f"out{n}"), "--quiet"]
        first[n] = alone(args)
        again[n] = alone(args)
    check_linear(first, 300, 6000, "convert")
    check_linear(again, 300, 6000, "convert onto its own module")


def alone(args):
    """(user CPU seconds, peak resident KiB) of one tinyaot run, measured in
    a fresh process tree so the peak is this run's own."""
    code = ("import resource, subprocess, sys;"
            "p = subprocess.run(sys.argv[1:], capture_output=True);"
            "sys.stderr.buffer.write(p.stderr);"
            "u = resource.getrusage(resource.RUSAGE_CHILDREN);"
            "print(u.ru_utime, u.ru_maxrss);"
            "sys.exit(p.returncode)")
    p = subprocess.run(["python3", "-c", code, *args], capture_output=True, text=True,
                       timeout=1200)
    assert p.returncode == 0, p.stderr
    seconds, kib = p.stdout.split()
    return float(seconds), int(kib)
