"""SIGN (src/lower/sign.c, runtime/kernels/ta_sign.c) against LiteRT's
kernel, TFLite Micro having none: the values random inputs rarely meet,
zeros, -0.0, NaN, infinities and the int32 extremes, bit for bit; and the
dtypes LiteRT has that tinyaot does not refused with one line."""

import numpy as np
import pytest

from tests.gen.common import ModelBuilder
from tests.harness import difftest, module, oracle

# NaNs as bit patterns: quiet, negative, with a payload, signalling.
NANS = np.array([0x7FC00000, 0xFFC00000, 0x7FC00123, 0xFFA00001], dtype=np.uint32).view(np.float32)
FLOAT_EDGES = [0.0, -0.0, *NANS, float("inf"), -float("inf"), 1e-45, -1e-45, 3.4e38, -3.4e38,
               0.5, -2.0]
INT_EDGES = [0, 1, -1, 2**31 - 1, -2**31, 7, -7, 0, 123456, -123456, 2, -2]


def sign_model(dtype, n):
    b = ModelBuilder()
    x = b.tensor([n], dtype, name="input")
    y = b.tensor([n], dtype, name="output")
    b.op("SIGN", [x], [y])
    return b.build([x], [y])


@pytest.mark.parametrize("dtype,values", [("float32", FLOAT_EDGES), ("int32", INT_EDGES)])
def test_sign_edges_match_litert(tmp_path, dtype, values):
    model = sign_model(dtype, len(values))
    path = tmp_path / "sign.tflite"
    path.write_bytes(model)
    runs = [[np.array(values, dtype=dtype)]]
    m = module.convert(path, tmp_path / "module")
    ours = module.run(m, module.build(m), runs)
    expected = oracle.run_litert(model, runs, isolated=True)
    total, diff = difftest._count_diff(ours, expected)
    assert total == 4 * len(values) and diff == 0, (ours, expected)
    if dtype == "float32":  # -0.0 gives +0.0, a NaN its own bits
        bits = np.ascontiguousarray(ours[0][0]).view(np.uint32)
        assert bits[1] == 0 and list(bits[2:6]) == list(NANS.view(np.uint32))


def test_sign_refuses_other_dtypes(tmp_path):
    path = tmp_path / "sign_int8.tflite"
    path.write_bytes(sign_model("int8", 4))
    with pytest.raises(module.ConvertError) as e:
        module.convert(path, tmp_path / "module")
    assert "operator 0 (SIGN): input (tensor 0) is int8; tinyaot supports float32 or int32" in str(
        e.value)


@pytest.mark.qemu
@pytest.mark.parametrize("board,target", [("mps3-an547", "mps3_an547"),
                                          ("mps2-an386", "mps2_an386")])
@pytest.mark.parametrize("dtype,values", [("float32", FLOAT_EDGES), ("int32", INT_EDGES)])
def test_sign_edges_on_cortex_m_match_litert(tmp_path, board, target, dtype, values):
    """The same values on both boards: the FPU's comparisons and moves keep
    a NaN's bits there too."""
    model = sign_model(dtype, len(values))
    path = tmp_path / "sign.tflite"
    path.write_bytes(model)
    runs = [[np.array(values, dtype=dtype)]]
    m = module.convert(path, tmp_path / "module", keys={"platform.name": target})
    ours, _ = module.run_qemu(m, module.build_qemu(m, board=board), runs, board=board)
    total, diff = difftest._count_diff(ours, oracle.run_litert(model, runs, isolated=True))
    assert total == 4 * len(values) and diff == 0, ours
