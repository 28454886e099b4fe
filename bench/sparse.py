"""SPARSE_CHANNELS on a pruned MobileNet (issue 24, item 1).

docs/design.md, "Pruned models", describes the transform.

    .venv/bin/python -m bench.sparse [--boards mps3-an547,mps2-an386] [--seed 0]
                                     [--save model.tflite]
    .venv/bin/python -m bench.sparse --write model.tflite [--seed 0]   # the model only
    .venv/bin/python -m bench.sparse --against 73a1a2a   # also the converter of that commit

The model is written here (no trained weights exist on this machine): a
MobileNet-v1-0.25-like int8 network at 96x96x3 — a 3x3 stride-2
convolution to 8 channels, then 13 blocks of depthwise 3x3 (SAME) and
pointwise 1x1 convolutions widening 8 -> 16 -> 32 -> 64 -> 128 -> 256,
RELU6 fused everywhere, per-channel weight scales, 3x3 average pooling, a
FULLY_CONNECTED to 2 classes and SOFTMAX (visual wake words). The depthwise
layers and the first six blocks are dense. The pointwise layers of the
6x6 and 3x3 stages (128 and 256 channels) carry the pruning profile of a
magnitude-pruned model: 85-92% of their output channels all zero (e.g.
109 of 128, 228 of 256), most input channels read by no nonzero weight
(only the channels the previous layer keeps, less a few, plus a few that
died: constants read through the depthwise layer), and half the remaining
weights zero as well: 95-99% zeros per layer. The classifier reads 30 of
the 256 pooled channels.

For each board (mps3-an547: Cortex-M55; mps2-an386: Cortex-M4) it prints
the instructions of one inference (bench/target.py: QEMU -icount, the
baselines' input) with the transform off (`transforms: {SPARSE_CHANNELS:
false}`, today's module) and on, the module's constant bytes (weights,
biases and what the converter precomputed) against the model's int8 weight
bytes, and the total RAM (every scratch and persistent arena); a row ends
in MISMATCH when the outputs differ from TFLite Micro's. Nothing is
asserted: this prints figures.

`--against COMMIT` also builds the converter of that commit (a git
worktree in a temporary folder, CMake) and prints the instructions of the
module it writes for the same model, and the transform's against those:
issue 24 asks for 40% fewer instructions than the tinyaot of its day,
73a1a2a (the commit before SPARSE_CHANNELS), whose dense kernels were
slower than today's.
"""

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench import target  # noqa: E402
from tests.gen.builder import ModelBuilder, Q  # noqa: E402
from tests.harness import difftest, module, oracle  # noqa: E402

ACT = Q(6.0 / 255.0, -128)  # RELU6 outputs, as converters quantize them
OFF = {"transforms": "{SPARSE_CHANNELS: false}"}
# (stride of the depthwise layer, pointwise output channels, pruned)
BLOCKS = [(1, 16, False), (2, 32, False), (1, 32, False), (2, 64, False), (1, 64, False),
          (2, 128, True), (1, 128, True), (1, 128, True), (1, 128, True), (1, 128, True),
          (1, 128, True), (2, 256, True), (1, 256, True)]


class Net:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.b = ModelBuilder(description="bench/sparse.py pruned MobileNet")
        self.weight_bytes = 0
        self.zero_bytes = 0

    def conv(self, x, shape, w, stride, kind, name):
        """CONV_2D or DEPTHWISE_CONV_2D (SAME, RELU6) with weights w."""
        rng, b = self.rng, self.b
        out_c = w.shape[0] if kind == "conv" else w.shape[3]
        fan_in = max(1, int(np.count_nonzero(w)) // max(1, out_c))
        base = 2.0 / (np.sqrt(fan_in) * 3.0 * 73.0)
        scales = [float(np.float32(base * 10 ** rng.uniform(-0.2, 0.2))) for _ in range(out_c)]
        wq = Q(scales, [0] * out_c, axis=0 if kind == "conv" else 3)
        bias = rng.integers(-2000, 2000, out_c).astype(np.int32)
        bq = Q([float(np.float32(ACT.scale * s)) for s in scales], [0] * out_c)
        oh, ow = -(-shape[1] // stride), -(-shape[2] // stride)
        oshape = [1, oh, ow, out_c]
        y = b.tensor(oshape, "int8", ACT, name=name + "_out")
        inputs = [x, b.const(w, "int8", wq, name=name + "_w"),
                  b.const(bias, "int32", bq, name=name + "_b")]
        if kind == "conv":
            b.op("CONV_2D", inputs, [y], "Conv2DOptions", padding="SAME", strideH=stride,
                 strideW=stride, fusedActivationFunction="RELU6")
        else:
            b.op("DEPTHWISE_CONV_2D", inputs, [y], "DepthwiseConv2DOptions", padding="SAME",
                 strideH=stride, strideW=stride, depthMultiplier=1,
                 fusedActivationFunction="RELU6")
        self.weight_bytes += w.size
        self.zero_bytes += int(np.count_nonzero(w == 0))
        return y, oshape

    def dense(self, shape):
        return self.rng.integers(-127, 128, shape).astype(np.int8)

    def pruned(self, out_c, in_c, kept_in):
        """Pointwise weights [out_c,1,1,in_c]: ~11% of the rows live, the
        columns read those the previous layer kept (less about a tenth)
        and two that died there, half the rest zero."""
        rng = self.rng
        rows = rng.choice(out_c, size=max(2, int(round(out_c * rng.uniform(0.08, 0.15)))),
                          replace=False)
        cols = [c for c in kept_in if rng.random() > 0.1]
        dead = [c for c in range(in_c) if c not in set(kept_in)]
        cols += list(rng.choice(dead, size=min(2, len(dead)), replace=False)) if dead else []
        w = np.zeros((out_c, 1, 1, in_c), np.int8)
        for r in rows:
            for c in cols:
                if rng.random() < 0.5:
                    w[r, 0, 0, c] = rng.integers(-127, 128)
        return w, sorted(int(r) for r in rows)


def build(seed=0):
    """The model's bytes and its int8 weight bytes (and how many are zero)."""
    n = Net(seed)
    b = n.b
    shape = [1, 96, 96, 3]
    x = b.tensor(shape, "int8", Q(1.0 / 128, 0), name="input")
    h, shape = n.conv(x, shape, n.dense((8, 3, 3, 3)), 2, "conv", "conv0")
    kept = list(range(8))
    for i, (stride, out_c, pruned) in enumerate(BLOCKS):
        c = shape[3]
        h, shape = n.conv(h, shape, n.dense((1, 3, 3, c)), stride, "dw", f"dw{i + 1}")
        if pruned:
            w, kept = n.pruned(out_c, c, kept)
        else:
            w, kept = n.dense((out_c, 1, 1, c)), list(range(out_c))
        h, shape = n.conv(h, shape, w, 1, "conv", f"pw{i + 1}")
    p = b.tensor([1, 1, 1, shape[3]], "int8", ACT, name="pool_out")
    b.op("AVERAGE_POOL_2D", [h], [p], "Pool2DOptions", padding="VALID", strideH=shape[1],
         strideW=shape[2], filterHeight=shape[1], filterWidth=shape[2],
         fusedActivationFunction="NONE")
    fw = np.zeros((2, shape[3]), np.int8)
    read = n.rng.choice(kept, size=min(30, len(kept)), replace=False)
    fw[:, read] = n.rng.integers(-127, 128, (2, len(read)))
    n.weight_bytes += fw.size
    n.zero_bytes += int(np.count_nonzero(fw == 0))
    logits = b.tensor([1, 2], "int8", Q(0.1, 0), name="logits")
    b.op("FULLY_CONNECTED", [p, b.const(fw, "int8", Q(0.002, 0), name="fc_w"),
                             b.const(n.rng.integers(-500, 500, 2).astype(np.int32), "int32",
                                     Q(ACT.scale * 0.002, 0), name="fc_b")],
         [logits], "FullyConnectedOptions", fusedActivationFunction="NONE")
    y = b.tensor([1, 2], "int8", Q(1.0 / 256, -128), name="output")
    b.op("SOFTMAX", [logits], [y], "SoftmaxOptions", beta=1.0)
    return b.build([x], [y]), n.weight_bytes, n.zero_bytes


def ram_of(m):
    res = json.loads((m.path / f"{m.prefix}_residency.json").read_text())
    return sum(r["size"] for r in res["regions"] if r["role"] in ("scratch", "persistent"))


def measure(path, board, work, keys):
    m, outs, log = target.first_run(path, work / "m", board,
                                    keys={"memory.dump_residency_json": "true", **keys})
    expected = oracle.run_tflm(path.read_bytes(), [target.baseline_inputs(m)], isolated=True)
    size = target.code_size(m, board, work / "size")
    return {"instr": target.run_counts(log)[0], "consts": size.consts, "ram": ram_of(m),
            "diff": difftest._count_diff(outs, expected)[1]}


def converter_at(commit, work):
    """tinyaot as it was at `commit`, built in a git worktree under work."""
    tree = work / f"tinyaot-{commit}"
    for cmd in (["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), commit],
                ["cmake", "-S", str(tree), "-B", str(tree / "build"), "-DCMAKE_BUILD_TYPE=Release"],
                ["cmake", "--build", str(tree / "build"), "--target", "tinyaot", "-j2"]):
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode:
            sys.exit(f"bench.sparse: --against {commit}: {' '.join(cmd)} failed:\n{p.stderr}")
    return tree


def measure_with(binary, *args):
    """measure() with the converter `binary`."""
    before = os.environ.get("TINYAOT_BIN")
    os.environ["TINYAOT_BIN"] = str(binary)
    try:
        return measure(*args)
    finally:
        if before is None:
            del os.environ["TINYAOT_BIN"]
        else:
            os.environ["TINYAOT_BIN"] = before


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", default="mps3-an547,mps2-an386")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--save", help="also write the model there")
    ap.add_argument("--write", help="write the model there and measure nothing")
    ap.add_argument("--against", metavar="COMMIT",
                    help="also measure the module the converter of this commit writes")
    args = ap.parse_args()
    model, weights, zeros = build(args.seed)
    if args.write:
        pathlib.Path(args.write).write_bytes(model)
        return
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="tinyaot-sparse-"))
    path = tmp / "pruned_mobilenet.tflite"
    path.write_bytes(model)
    if args.save:
        pathlib.Path(args.save).write_bytes(model)
    print(f"pruned MobileNet-v1-0.25-like, 96x96x3 int8 (seed {args.seed}): {weights:,} int8 "
          f"weight bytes, {zeros / weights:.0%} of them zero")
    then = converter_at(args.against, tmp) if args.against else None
    print(f"{'board':12} {'instr off':>12} {'instr on':>12} {'ratio':>7} {'consts off':>11} "
          f"{'consts on':>10} {'on/int8':>8} {'RAM off':>9} {'RAM on':>9}" +
          (f" {'instr ' + args.against:>14} {'on/then':>8} {'RAM then':>9}" if then else ""))
    try:
        for board in args.boards.split(","):
            off = measure(path, board, tmp / f"{board}-off", OFF)
            on = measure(path, board, tmp / f"{board}-on", {})
            old = (measure_with(then / "build" / "tinyaot", path, board, tmp / f"{board}-then", {})
                   if then else None)
            flag = "  MISMATCH" if off["diff"] or on["diff"] or (old and old["diff"]) else ""
            print(f"{target.SHORT[board]:12} {off['instr']:>12,} {on['instr']:>12,} "
                  f"{on['instr'] / off['instr']:7.3f} {off['consts']:>11,} {on['consts']:>10,} "
                  f"{on['consts'] / weights:8.3f} {off['ram']:>9,} {on['ram']:>9,}" +
                  (f" {old['instr']:>14,} {on['instr'] / old['instr']:8.3f} {old['ram']:>9,}"
                   if old else "") + flag, flush=True)
    finally:
        oracle.shutdown()
        if then:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(then)],
                           capture_output=True)


if __name__ == "__main__":
    main()
