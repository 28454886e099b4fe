"""Checks for conversions that must be refused, shared by the refusal tests.

`refusal` converts a model that tinyaot must refuse and returns its one
error line (a refused conversion writes no module folder at all);
`tflm_fails` checks that TFLite Micro's interpreter fails on it too.
"""

import pytest

from tests.harness import module, oracle


def refusal(model, tmp_path):
    """tinyaot's one error line for `model` (bytes), which it must refuse."""
    (tmp_path / "m.tflite").write_bytes(model)
    with pytest.raises(module.ConvertError) as e:
        module.convert(tmp_path / "m.tflite", tmp_path / "mod")
    lines = e.value.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert not (tmp_path / "mod").exists()
    return lines[0]


def tflm_fails(model, runs):
    """TFLite Micro's interpreter refuses `model` or fails on `runs`."""
    with pytest.raises(oracle.OracleError):
        oracle.run_tflm(model, runs, isolated=True)
