"""INT4 weights kept packed (docs/compressed-models.md, "INT4 weights"):
weight bytes and instructions of a MobileNet-v1-0.25-like model with
TFLite INT4 weights against the same model with int8 weights, on the
Cortex-M55 and the Cortex-M4 (QEMU).

    .venv/bin/python -m bench.int4 [--boards mps3-an547,mps2-an386] [--cycles]

The model (written here with tests/gen's builder): 96x96x3 int8 input, a
3x3 stride-2 CONV_2D to 8 channels, the 13 depthwise-separable blocks of
MobileNet v1 at width 0.25 (3x3 DEPTHWISE_CONV_2D, stride 2 where v1 has
it, then a 1x1 CONV_2D: 16, 32, 32, 64, 64, 128 x 6, 256, 256 channels), a
3x3 AVERAGE_POOL_2D and a FULLY_CONNECTED to 2 classes; ReLU after every
convolution, per-channel weights (per-tensor for FULLY_CONNECTED, as
TFLite Micro wants for INT4). The int8 and the INT4 model hold the same
weight values (drawn over -8..7), so their outputs must be equal too, and
both byte-equal to TFLite Micro's. The int8 model is converted with
weights.format dense: its 16 values a tensor would otherwise be stored as
tables (bench/clustered.py measures that).

Printed per board: the weights' bytes in the module (every constant made
from a weight tensor), instructions of one inference, and the ratios with
the goals of issue 24 (weights at most 55% of int8, instructions at most
1.1x); then the same for weights.format packed (every INT4 tensor packed,
the short CONV_2D filters and DEPTHWISE_CONV_2D that auto stores dense
too) and dense (INT4 expanded at conversion). --cycles adds the cycles
../shared/tools/cycles estimates for one inference of each, and their
ratio to the int8 model's.
"""

import argparse
import math
import pathlib
import sys
import tempfile

import numpy as np

from bench import shapes, target
from tests.gen.builder import ModelBuilder, Q
from tests.harness import difftest, oracle

BLOCKS = [(16, 1), (32, 2), (32, 1), (64, 2), (64, 1), (128, 2), (128, 1), (128, 1), (128, 1),
          (128, 1), (128, 1), (256, 2), (256, 1)]
WEIGHT_GOAL, INSTR_GOAL = 0.55, 1.1


def out_size(n, stride):
    return (n + stride - 1) // stride  # SAME padding


def draw_int4(rng, shape):
    return rng.integers(-8, 8, shape)


def build(weight_dtype, seed=24, draw=draw_int4):
    """(model bytes, indices of the weight tensors); draw(rng, shape) gives
    each weight tensor's values."""
    rng = np.random.default_rng(seed)
    b = ModelBuilder("tinyaot bench/int4.py")
    weights = []
    scale = 0.02

    def act_tensor(shape, s, name):
        return b.tensor(shape, "int8", Q(s, -128), name=name)

    def conv(op, x, shape_in, out_c, k, stride, name):
        nonlocal scale
        h, w, c = shape_in
        dw = op == "DEPTHWISE_CONV_2D"
        filt = [1, k, k, c] if dw else [out_c, k, k, c]
        taps = k * k * (1 if dw else c)
        w_scales = [float(np.float32(s)) for s in rng.uniform(0.01, 0.03, out_c)]
        wt = b.const(draw(rng, filt), weight_dtype,
                     Q(w_scales, [0] * out_c, axis=3 if dw else 0), name=name + "_w")
        weights.append(wt)
        bias = b.const(rng.integers(-200, 200, out_c).astype(np.int32), "int32",
                       Q([scale * s for s in w_scales], [0] * out_c), name=name + "_b")
        out_scale = float(np.float32(scale * 0.02 * math.sqrt(taps) * 4.6 * 40 / 60))
        oh, ow = out_size(h, stride), out_size(w, stride)
        y = act_tensor([1, oh, ow, out_c], out_scale, name)
        opts = dict(padding="SAME", strideH=stride, strideW=stride, fusedActivationFunction="RELU")
        if dw:
            b.op(op, [x, wt, bias], [y], "DepthwiseConv2DOptions", depthMultiplier=1, **opts)
        else:
            b.op(op, [x, wt, bias], [y], "Conv2DOptions", **opts)
        scale = out_scale
        return y, (oh, ow, out_c)

    x = b.tensor([1, 96, 96, 3], "int8", Q(0.02, -1), name="input")
    y, shape = conv("CONV_2D", x, (96, 96, 3), 8, 3, 2, "conv0")
    for i, (ch, stride) in enumerate(BLOCKS):
        y, shape = conv("DEPTHWISE_CONV_2D", y, shape, shape[2], 3, stride, f"dw{i + 1}")
        y, shape = conv("CONV_2D", y, shape, ch, 1, 1, f"pw{i + 1}")
    pooled = act_tensor([1, 1, 1, shape[2]], scale, "pool")
    b.op("AVERAGE_POOL_2D", [y], [pooled], "Pool2DOptions", padding="VALID", strideH=1,
         strideW=1, filterHeight=shape[0], filterWidth=shape[1], fusedActivationFunction="NONE")
    fc_w = b.const(draw(rng, (2, shape[2])), weight_dtype, Q(0.02, 0), name="fc_w")
    weights.append(fc_w)
    logits = b.tensor([1, 2], "int8", Q(float(np.float32(scale * 0.02 * 16 * 4.6)), 0),
                      name="logits")
    b.op("FULLY_CONNECTED", [pooled, fc_w, -1], [logits], "FullyConnectedOptions")
    return b.build([x], [logits]), set(weights)


def weight_bytes(m, weight_tensors):
    """Bytes of every constant the module keeps for a weight tensor."""
    return sum(t["nbytes"] for t in m.views["tensors"]
               if t["kind"] == "constant" and t["model_tensor"] in weight_tensors)


def measure(path, board, work, keys=None):
    m, outs, log = target.first_run(path, work, board, keys=keys)
    expected = oracle.run_tflm(path.read_bytes(), [target.baseline_inputs(m)], isolated=True)
    return m, outs, target.run_counts(log)[0], difftest._count_diff(outs, expected)[1]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", default=",".join(target.BOARDS))
    ap.add_argument("--cycles", action="store_true",
                    help="also estimate cycles (../shared/tools/cycles)")
    args = ap.parse_args(argv)
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="bench-int4-"))
    int8_model, weights = build("int8")
    int4_model, _ = build("int4")
    paths = {dt: tmp / f"mobilenet025_96_{dt}.tflite" for dt in ("int8", "int4")}
    paths["int8"].write_bytes(int8_model)
    paths["int4"].write_bytes(int4_model)
    failed = False
    for board in args.boards.split(","):
        print(f"== {board} ({target.SHORT[board]}): MobileNet-v1-0.25-like 96x96")
        print(f"{'model':28} {'weights':>9} {'/int8':>6} {'instr':>13} {'/int8':>6}  TFLM")
        base = base_cyc = None
        for label, path, keys in (("int8 weights", paths["int8"], {"weights.format": "dense"}),
                                  ("INT4, weights.format auto", paths["int4"], None),
                                  ("INT4, weights.format packed", paths["int4"],
                                   {"weights.format": "packed"}),
                                  ("INT4, weights.format dense", paths["int4"],
                                   {"weights.format": "dense"})):
            m, outs, instr, diff = measure(path, board, tmp / f"{board}-{len(label)}", keys)
            wb = weight_bytes(m, weights)
            if base is None:
                base = (wb, instr, outs)
            same = difftest._count_diff(outs, base[2])[1] == 0
            w_ratio, i_ratio = wb / base[0], instr / base[1]
            failed |= diff != 0 or not same
            print(f"{label:28} {wb:>9,} {w_ratio:6.2f} {instr:>13,} {i_ratio:6.2f}  "
                  f"{'equal' if diff == 0 else f'{diff} bytes differ'}"
                  f"{'' if same else ', differs from the int8 model'}", flush=True)
            if args.cycles:
                cyc = shapes.first_run_cycles(m, board, tmp / f"{board}-{len(label)}-cyc",
                                              target.baseline_inputs(m))[2]
                base_cyc = cyc if base_cyc is None else base_cyc
                print(f"  estimated cycles: {cyc:,} ({cyc / base_cyc:.2f}x int8)", flush=True)
            if label.endswith("auto"):
                print(f"  goals: weights <= {WEIGHT_GOAL:.2f} of int8: "
                      f"{'met' if w_ratio <= WEIGHT_GOAL else 'missed'}; instructions <= "
                      f"{INSTR_GOAL:.1f}x: {'met' if i_ratio <= INSTR_GOAL else 'missed'}")
        print()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
