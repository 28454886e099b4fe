"""The operator set of the operators issue: every operator is lowered by
tinyaot (src/lower/ops.def) and drawn by the model generator (tests/gen),
with its int16 variant where the issue asks for one ("+16")."""

import re

from tests.gen import variants
from tests.harness import module

REQUIRED = {
    # operator: also an int16 variant
    "CONV_2D": True, "DEPTHWISE_CONV_2D": True, "TRANSPOSE_CONV": False,
    "FULLY_CONNECTED": True, "BATCH_MATMUL": False,
    "AVERAGE_POOL_2D": True, "MAX_POOL_2D": True, "MEAN": False, "SUM": False,
    "REDUCE_MAX": False, "ARG_MAX": False, "ARG_MIN": False,
    "ADD": True, "SUB": True, "MUL": True, "MAXIMUM": True, "MINIMUM": True,
    "SQUARED_DIFFERENCE": False, "LESS": False, "LESS_EQUAL": False, "GREATER": False,
    "GREATER_EQUAL": False, "EQUAL": False, "NOT_EQUAL": False,
    "RELU": False, "RELU6": True, "LEAKY_RELU": False, "PRELU": True, "HARD_SWISH": False,
    "LOGISTIC": True, "TANH": True, "SOFTMAX": True, "LOG_SOFTMAX": False,
    "RESHAPE": False, "SQUEEZE": False, "EXPAND_DIMS": False, "CONCATENATION": False,
    "SPLIT": False, "SPLIT_V": False, "PACK": False, "UNPACK": False, "SLICE": False,
    "STRIDED_SLICE": False, "TRANSPOSE": False, "PAD": False, "PADV2": False, "GATHER": False,
    "DEPTH_TO_SPACE": False, "SPACE_TO_DEPTH": False, "RESIZE_NEAREST_NEIGHBOR": False,
    "RESIZE_BILINEAR": False, "QUANTIZE": False, "DEQUANTIZE": False, "CAST": False,
    "SVDF": True, "UNIDIRECTIONAL_SEQUENCE_LSTM": False,
    "VAR_HANDLE": False, "READ_VARIABLE": False, "ASSIGN_VARIABLE": False,
}


def lowered():
    text = (module.ROOT / "src" / "lower" / "ops.def").read_text()
    return set(re.findall(r"DECLARE_OP\(\d+, (\w+),", text))


def test_every_required_operator_is_lowered():
    missing = sorted(set(REQUIRED) - lowered())
    assert not missing, missing


def test_every_required_operator_is_generated():
    by_op = {}
    for name, v in variants.ALL.items():
        by_op.setdefault(v.op, []).append(name)
    variable_ops = {"VAR_HANDLE", "READ_VARIABLE", "ASSIGN_VARIABLE"}
    for op, needs16 in REQUIRED.items():
        if op in variable_ops:
            assert any(n.startswith("VARIABLES.") for n in variants.ALL), op
            continue
        names = by_op.get(op, [])
        assert names, f"no generator variant for {op}"
        if needs16:
            assert any("int16" in n.split(".", 1)[1] for n in names), f"no int16 variant for {op}"
