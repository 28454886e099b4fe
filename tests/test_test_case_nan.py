"""How the built-in test case compares NaN outputs (issue 26, defect 9):
any NaN matches any NaN, whatever its sign and payload, and a NaN never
matches a number, at every optimisation level. Before, NaN matched only
NaN bytes, and the sign of a NaN the kernels compute varies with the
compiler's options (an LSTM gave -nan at -O0 and nan at -O1)."""

import os
import subprocess

import numpy as np
import pytest

from tests.gen.builder import ModelBuilder
from tests.harness import module
from tests.test_test_case import MAIN

POS_NAN = np.array([0x7FC00000], np.uint32).view(np.float32)[0]   # +qNaN
NEG_NAN = np.array([0xFFC00123], np.uint32).view(np.float32)[0]   # -NaN, a payload


def _sub_model():
    """output = x - x: inf - inf is a NaN whose bits the machine chooses."""
    b = ModelBuilder()
    x = b.tensor([4], "float32", name="input")
    y = b.tensor([4], "float32", name="output")
    b.op("SUB", [x, x], [y], "SubOptions")
    return b.build([x], [y])


def _run(tmp_path, name, expected, opt):
    (tmp_path / "m.tflite").write_bytes(_sub_model())
    x = np.array([np.inf, 1.0, -np.inf, 2.5], np.float32)
    (tmp_path / "in.bin").write_bytes(x.tobytes())
    (tmp_path / f"{name}.bin").write_bytes(np.asarray(expected, np.float32).tobytes())
    m = module.convert(tmp_path / "m.tflite", tmp_path / name, prefix="nan",
                       keys={"test.enabled": "true", "test.inputs": [str(tmp_path / "in.bin")],
                             "test.outputs": [str(tmp_path / f"{name}.bin")]})
    exe = tmp_path / f"{name}{opt}.exe"
    cmd = [os.environ.get("CC", "cc"), f"-O{opt}", "-std=c99", "-I", str(m.path),
           f"-DTA_PREFIX={m.prefix}", str(MAIN), *map(str, module.sources(m.path)), "-lm", "-o", str(exe)]
    c = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert c.returncode == 0, c.stderr
    r = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout + r.stderr


@pytest.mark.parametrize("opt", ["0", "2"])
def test_any_nan_matches_any_nan(tmp_path, opt):
    for i, nan in enumerate((POS_NAN, NEG_NAN)):
        status, out = _run(tmp_path, f"e{i}", [nan, 0.0, nan, 0.0], opt)
        assert status == 0, out


@pytest.mark.parametrize("opt", ["0", "2"])
def test_a_nan_never_matches_a_number(tmp_path, opt):
    status, out = _run(tmp_path, "num", [POS_NAN, POS_NAN, POS_NAN, 0.0], opt)
    assert status != 0 and "mismatch: run 0 output 0 element 1" in out, out
    status, out = _run(tmp_path, "num2", [0.0, 0.0, POS_NAN, 0.0], opt)
    assert status != 0 and "mismatch: run 0 output 0 element 0" in out, out
