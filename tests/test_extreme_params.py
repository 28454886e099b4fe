"""Quantization and geometry at the edges of what the converter accepts,
byte for byte against TFLite Micro on the host, the Cortex-M55 and the
Cortex-M4 (QEMU): undefined behaviour in a kernel (a shift past the type's
width, an index that overflows) shows as a difference between them, or as
a sanitizer report on the host (issue 26, "what to add").

The cases, drawn from a fixed seed (EXTREME_SEED), one model each:

  * rescale factors at the ends of ta_requant's range: a left shift of
    exactly TA_SHIFT_MAX_INT32 (30) with the multiplier just below 2^31,
    one whose mantissa rounds up to 2^31 (halved, shift + 1), and factors
    near 2^-31 (the smallest not flushed to zero) - through RELU,
    QUANTIZE, ABS, LEAKY_RELU, PRELU, MEAN, ADD, MUL, FULLY_CONNECTED,
    CONV_2D and DEPTHWISE_CONV_2D;
  * zero points -128 and 127 on inputs and outputs;
  * fused activation ranges of one value (RELU with output zero point 127,
    RELU_N1_TO_1 on a scale that maps [-1, 1] to one integer);
  * geometry at its bounds: 1x1 inputs, a kernel as large as the input,
    strides larger than the kernel, dilations large enough that every tap
    but the centre falls in the padding, for CONV_2D, DEPTHWISE_CONV_2D
    and the pools.

Every case must be accepted (they are inside the limits) and match TFLite
Micro exactly; inputs are random over the full int8 range, three runs."""

import math
import os

import numpy as np
import pytest

from tests.gen.builder import ModelBuilder, Q
from tests.harness import batch, difftest, oracle
from tests.harness.refusals import refusal

SEED = int(os.environ.get("EXTREME_SEED", "26"))
RUNS = 3


def f32(x):
    return float(np.float32(x))


def f32_above(x, steps=1):
    v = np.float32(x)
    for _ in range(steps):
        v = np.nextafter(v, np.float32(np.inf))
    return float(v)


def ratio_scales(rng, kind):
    """(input scale, output scale) whose ratio (in double, from the float32
    scales, as the converter computes it) sits at one edge."""
    in_scale = f32(2.0 ** rng.integers(-8, 3) * rng.uniform(1.0, 1.999))
    if kind == "shift30":  # just below 2^30: shift 30, multiplier just below 2^31
        out_scale = f32_above(in_scale / 2.0 ** 30, int(rng.integers(1, 4)))
    elif kind == "tiny":  # near 2^-31, the smallest factor kept
        out_scale = f32(in_scale * 2.0 ** 30 * rng.uniform(1.0, 1.9))
    else:  # an ordinary ratio near 1
        out_scale = f32(in_scale * rng.uniform(0.5, 2.0))
    return in_scale, out_scale


RATIOS = ["shift30", "tiny", "plain"]


def rounds_up_scales(rng):
    """(input, weight, output) float32 scales whose product ratio in double
    lies within 2^-32 below 2^29: its mantissa rounds to 2^31, which
    ta_quantize_multiplier halves and makes the shift 30 (the largest kept).
    One float32 product in 256 lands there: searched."""
    s_out = f32(rng.uniform(1.0, 2.0) * 2.0 ** -20)
    while True:
        s_in = f32(rng.uniform(1.0, 2.0) * 2.0 ** -4)
        s_w = f32(s_out * 2.0 ** 29 / s_in)
        m, e = math.frexp(s_in * s_w / s_out)
        if e == 29 and round(m * 2 ** 31) == 2 ** 31:
            return s_in, s_w, s_out
ZERO_POINTS = [-128, 127, 0]


def zp(rng):
    return int(rng.choice(ZERO_POINTS))


# ---- quantization edges ------------------------------------------------------


def unary(rng, op, kind):
    s_in, s_out = ratio_scales(rng, kind)
    b = ModelBuilder()
    shape = [1, int(rng.integers(1, 4)), int(rng.integers(1, 4)), int(rng.integers(1, 9))]
    x = b.tensor(shape, "int8", Q(s_in, zp(rng)), name="x")
    if op == "MEAN":
        axis = b.const(np.array([1, 2], np.int32), "int32", name="axis")
        y = b.tensor([1, 1, 1, shape[3]], "int8", Q(s_out, zp(rng)), name="y")
        b.op("MEAN", [x, axis], [y], "ReducerOptions", keepDims=True)
    elif op == "PRELU":
        alpha = b.const(rng.integers(-128, 128, [shape[3]]).astype(np.int8), "int8",
                        Q(f32(rng.uniform(0.001, 0.02)), zp(rng)), name="alpha")
        y = b.tensor(shape, "int8", Q(s_out, zp(rng)), name="y")
        b.op("PRELU", [x, alpha], [y])
    elif op == "LEAKY_RELU":
        y = b.tensor(shape, "int8", Q(s_out, zp(rng)), name="y")
        b.op("LEAKY_RELU", [x], [y], "LeakyReluOptions", alpha=f32(rng.uniform(0.01, 0.9)))
    else:
        y = b.tensor(shape, "int8", Q(s_out, zp(rng)), name="y")
        b.op(op, [x], [y])
    return b.build([x], [y])


def binary(rng, op, kind):
    s_in, s_out = ratio_scales(rng, kind)
    b = ModelBuilder()
    shape = [1, int(rng.integers(1, 5)), int(rng.integers(1, 9))]
    x1 = b.tensor(shape, "int8", Q(s_in, zp(rng)), name="a")
    x2 = b.tensor(shape, "int8", Q(f32(s_in * rng.uniform(0.5, 1.0)), zp(rng)), name="b")
    if op == "MUL":  # the product's scale is s_in^2 / s_out: keep the edge on s_in / s_out
        s_out = f32(s_out * s_in) if kind != "plain" else s_out
    elif kind == "shift30":  # ADD's output factor 2 max(s) / (2^20 s_out) just below 1
        s_out = f32_above(2 * s_in / 2.0 ** 20, int(rng.integers(1, 4)))
    elif kind == "tiny":  # ... and near 2^-31
        s_out = f32(2 * s_in * 2.0 ** 10 * rng.uniform(1.0, 1.9))
    y = b.tensor(shape, "int8", Q(s_out, zp(rng)), name="y")
    # RELU6 on an output scale near 2^-30 needs 6 / scale beyond int32: refused.
    act = int(rng.choice([0, 1, 3] if kind == "plain" else [0, 1]))
    b.op(op, [x1, x2], [y], "AddOptions" if op == "ADD" else "MulOptions",
         fusedActivationFunction=act)
    return b.build([x1, x2], [y])


def weighted_scales(rng, kind):
    """(input, weight, output-over-weight) scales: the output scale is the
    last times the weight scale, so the rescale factor is input / last."""
    if kind == "rounds_up":
        s_in, s_w, s_out = rounds_up_scales(rng)
        return s_in, s_w, None, s_out
    s_in, s_out = ratio_scales(rng, kind)
    w_scale = f32(2.0 ** -int(rng.integers(0, 3)))  # a power of two keeps the edge exact
    return s_in, w_scale, s_out, f32(s_out * w_scale)


def fully_connected(rng, kind, act=0, out_zp=None, with_bias=None):
    """A bias only where its float32 scale can be input * weights scale
    within 2% of the output scale (TFLite Micro's Prepare checks it): not
    for the rounds_up product, which has no exact float32."""
    s_in, w_scale, _, s_y = weighted_scales(rng, kind)
    with_bias = kind != "rounds_up" if with_bias is None else with_bias
    b = ModelBuilder()
    n_in, n_out = int(rng.integers(1, 17)), int(rng.integers(1, 9))
    x = b.tensor([1, n_in], "int8", Q(s_in, zp(rng)), name="x")
    w = b.const(rng.integers(-127, 128, (n_out, n_in)).astype(np.int8), "int8",
                Q(w_scale, 0), name="w")
    ins = [x, w]
    if with_bias:
        ins.append(b.const(rng.integers(-1000, 1000, n_out).astype(np.int32), "int32",
                           Q(f32(s_in * w_scale), 0), name="bias"))
    y = b.tensor([1, n_out], "int8", Q(s_y, zp(rng) if out_zp is None else out_zp), name="y")
    b.op("FULLY_CONNECTED", ins, [y], "FullyConnectedOptions",
         fusedActivationFunction=act)
    return b.build([x], [y])


def conv(rng, kind, depthwise=False, in_hw=None, k_hw=None, stride=None, dilation=None,
         padding=None, act=0, out_zp=None):
    s_in, w_scale, _, s_y = weighted_scales(rng, kind)
    in_h, in_w = in_hw or (int(rng.integers(1, 6)), int(rng.integers(1, 6)))
    k_h, k_w = k_hw or (int(rng.integers(1, 4)), int(rng.integers(1, 4)))
    sh, sw = stride or (1, 1)
    dh, dw = dilation or (1, 1)
    padding = padding or str(rng.choice(["SAME", "VALID"]))
    in_c = int(rng.integers(1, 6))
    out_c = in_c if depthwise else int(rng.integers(1, 6))

    def out_size(n, k, s, d):
        eff = (k - 1) * d + 1
        return (n + s - 1) // s if padding == "SAME" else (n - eff + s) // s

    out_h, out_w = out_size(in_h, k_h, sh, dh), out_size(in_w, k_w, sw, dw)
    if out_h < 1 or out_w < 1:  # VALID with a window larger than the input
        padding = "SAME"
        out_h, out_w = out_size(in_h, k_h, sh, dh), out_size(in_w, k_w, sw, dw)
    b = ModelBuilder()
    x = b.tensor([1, in_h, in_w, in_c], "int8", Q(s_in, zp(rng)), name="x")
    shape = [1, k_h, k_w, out_c] if depthwise else [out_c, k_h, k_w, in_c]
    w = b.const(rng.integers(-127, 128, shape).astype(np.int8), "int8",
                Q([w_scale] * out_c, [0] * out_c, axis=3 if depthwise else 0), name="w")
    bias = b.const(rng.integers(-1000, 1000, out_c).astype(np.int32), "int32",
                   Q([f32(s_in * w_scale)] * out_c, [0] * out_c, axis=0), name="bias")
    y = b.tensor([1, out_h, out_w, out_c], "int8",
                 Q(s_y, zp(rng) if out_zp is None else out_zp), name="y")
    common = dict(padding=padding, strideH=sh, strideW=sw, dilationHFactor=dh,
                  dilationWFactor=dw, fusedActivationFunction=act)
    if depthwise:
        b.op("DEPTHWISE_CONV_2D", [x, w, bias], [y], "DepthwiseConv2DOptions",
             depthMultiplier=1, **common)
    else:
        b.op("CONV_2D", [x, w, bias], [y], "Conv2DOptions", **common)
    return b.build([x], [y])


def pool(rng, op, in_hw, k_hw, stride, padding):
    q = Q(f32(rng.uniform(0.01, 1.0)), zp(rng))
    b = ModelBuilder()
    c = int(rng.integers(1, 9))
    x = b.tensor([1, *in_hw, c], "int8", q, name="x")

    def out_size(n, k, s):
        return (n + s - 1) // s if padding == "SAME" else (n - k + s) // s

    y = b.tensor([1, out_size(in_hw[0], k_hw[0], stride[0]), out_size(in_hw[1], k_hw[1], stride[1]),
                  c], "int8", q, name="y")
    b.op(op, [x], [y], "Pool2DOptions", padding=padding, strideH=stride[0], strideW=stride[1],
         filterHeight=k_hw[0], filterWidth=k_hw[1], fusedActivationFunction=int(rng.choice([0, 1])))
    return b.build([x], [y])


def cases():
    rng = np.random.default_rng(SEED)
    out = []
    for kind in ("shift30", "tiny"):
        for op in ("RELU", "QUANTIZE", "ABS", "LEAKY_RELU", "PRELU", "MEAN"):
            out.append((f"{op}.{kind}", unary(rng, op, kind)))
        for op in ("ADD", "MUL"):
            out.append((f"{op}.{kind}", binary(rng, op, kind)))
    for kind in ("shift30", "rounds_up", "tiny"):
        out.append((f"FULLY_CONNECTED.{kind}", fully_connected(rng, kind)))
        out.append((f"CONV_2D.{kind}", conv(rng, kind)))
        out.append((f"DEPTHWISE_CONV_2D.{kind}", conv(rng, kind, depthwise=True)))
    # Activation ranges of one value: RELU over zero point 127 keeps only
    # 127; RELU_N1_TO_1 with a scale of 4 maps [-1, 1] to the zero point.
    out.append(("FULLY_CONNECTED.relu_one_value", fully_connected(rng, "plain", act=1, out_zp=127)))
    out.append(("CONV_2D.relu_one_value", conv(rng, "plain", act=1, out_zp=127)))
    out.append(("DEPTHWISE_CONV_2D.relu_n1_one_value",
                conv(rng, "plain", depthwise=True, act=2, out_zp=int(rng.choice([-128, 0, 127])))))
    # Geometry at its bounds.
    for dw in (False, True):
        name = "DEPTHWISE_CONV_2D" if dw else "CONV_2D"
        out += [
            (f"{name}.input_1x1", conv(rng, "plain", dw, in_hw=(1, 1), k_hw=(1, 1))),
            (f"{name}.input_1x1_kernel_3x3_same", conv(rng, "plain", dw, in_hw=(1, 1), k_hw=(3, 3),
                                                       padding="SAME")),
            (f"{name}.kernel_is_input", conv(rng, "plain", dw, in_hw=(5, 4), k_hw=(5, 4),
                                             padding="VALID")),
            (f"{name}.stride_above_kernel", conv(rng, "plain", dw, in_hw=(9, 7), k_hw=(2, 1),
                                                 stride=(5, 3))),
            (f"{name}.dilation_past_input", conv(rng, "plain", dw, in_hw=(5, 6), k_hw=(3, 3),
                                                 dilation=(64, 1000), padding="SAME")),
            (f"{name}.dilation_exact_fit", conv(rng, "plain", dw, in_hw=(9, 9), k_hw=(3, 3),
                                                dilation=(4, 4), padding="VALID")),
            (f"{name}.shift30_geometry", conv(rng, "shift30", dw, in_hw=(1, 7), k_hw=(1, 7),
                                              stride=(9, 9), padding="VALID")),
        ]
    for op in ("AVERAGE_POOL_2D", "MAX_POOL_2D"):
        out += [
            (f"{op}.input_1x1", pool(rng, op, (1, 1), (1, 1), (1, 1), "VALID")),
            (f"{op}.window_is_input", pool(rng, op, (6, 5), (6, 5), (1, 1), "VALID")),
            (f"{op}.window_past_input_same", pool(rng, op, (2, 3), (7, 9), (1, 1), "SAME")),
            (f"{op}.stride_above_window", pool(rng, op, (9, 8), (2, 2), (5, 7), "VALID")),
        ]
    return out


CASES = cases()


def runs_for(i, model):
    return oracle.random_inputs(model, np.random.default_rng([SEED, i]), RUNS)


_EXPECTED = {}


def expected(i, model):
    if i not in _EXPECTED:
        _EXPECTED[i] = oracle.run_tflm(model, runs_for(i, model), isolated=True)
    return _EXPECTED[i]


def assert_accepted(b):
    assert not b.errors, "refused inside the limits:\n" + "\n".join(
        f"{CASES[i][0]}: {e}" for i, e in b.errors.items())


def check(results):
    bad, total = [], 0
    for i, (name, model) in enumerate(CASES):
        ours = results[i]
        if isinstance(ours, str):
            bad.append(f"{name}: {ours[:300]}")
            continue
        n, d = difftest._count_diff(ours, expected(i, model))
        total += n
        if d:
            bad.append(f"{name}: {d} of {n} bytes differ")
    assert total > 0 and not bad, f"{len(bad)} of {len(CASES)} cases differ:\n" + "\n".join(bad)


def test_the_edges_are_really_at_the_edges():
    """The scales give the shifts they are named after (ta_quantize_multiplier's
    steps in Python), so the cases test what they say."""
    rng = np.random.default_rng(0)
    for _ in range(20):
        s_in, s_out = ratio_scales(rng, "shift30")
        m, e = math.frexp(s_in / s_out)
        assert e == 30 and round(m * 2 ** 31) < 2 ** 31
        s_in, s_w, s_out = rounds_up_scales(rng)
        m, e = math.frexp(s_in * s_w / s_out)
        assert e == 29 and round(m * 2 ** 31) == 2 ** 31  # halved: 2^30, shift 30
        s_in, s_out = ratio_scales(rng, "tiny")
        assert -31 <= math.frexp(s_in / s_out)[1] <= -29


def test_a_bias_scale_tflm_refuses_is_refused(tmp_path):
    """The rounds_up product with a float32 bias scale: off by more than
    2% of the output scale. TFLite Micro's Prepare refuses it; so does
    tinyaot, in one line (it converted it before)."""
    model = fully_connected(np.random.default_rng(SEED), "rounds_up", with_bias=True)
    with pytest.raises(oracle.OracleFailed, match="scale_diff / output_scale <= 0.02"):
        oracle.run_tflm(model, runs_for(0, model), isolated=True)
    err = refusal(model, tmp_path)  # one line, nothing written
    assert "operator 0 (FULLY_CONNECTED): bias scale" in err and "(TFLite Micro allows 0.02)" in err


def test_extremes_match_tflm_on_host(tmp_path):
    b = batch.build_batch(CASES, tmp_path)
    assert_accepted(b)
    results = batch.run_cases(b, [(i, runs_for(i, m)) for i, (_, m) in enumerate(CASES)])
    check(results)


@pytest.mark.qemu
@pytest.mark.parametrize("board,target", [("mps3-an547", "mps3_an547"),
                                          ("mps2-an386", "mps2_an386")])
def test_extremes_match_tflm_on_cortex_m(tmp_path, board, target):
    b = batch.build_batch_qemu(CASES, tmp_path, board, target,
                               keys={"memory.constraints": [{"name": "PSRAM"}, {"name": "MRAM"}]})
    assert_accepted(b)
    results = batch.run_cases_qemu(b, [(i, runs_for(i, m)) for i, (_, m) in enumerate(CASES)])
    check(results)
