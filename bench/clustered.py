"""Clustered and TFLM_DECODE-compressed weights kept compressed
(docs/compressed-models.md, "Weights as tables"): weight bytes, RAM and
instructions of the MobileNet-v1-0.25-like model of bench/int4.py with its
weights clustered to 16 values per tensor, against the same model stored
dense, on the Cortex-M55 and the Cortex-M4 (QEMU); then the model
compressed with TFLite Micro's tool (LUT, tests/harness/tflm_decode.py):
the module's constant bytes against the compressed model's; then the same
model clustered with skewed value counts (the k-th most common of a
tensor's 16 values about 0.6^k as often as the first) compressed as
TFLM_DECODE's Huffman (tests/harness/tflm_decode.py's writer: the tool's
Huffman is a stub), whose weights auto keeps as Huffman codes.

    .venv/bin/python -m bench.clustered [--boards mps3-an547,mps2-an386] [--no-decode] [--cycles]

Printed per board and weights.format: the weights' bytes in the module,
instructions of one inference, the largest decoded layer (the scratch a
decode writes) and the module's scratch arena in all (activations and
decoded weights), and whether the outputs equal TFLite Micro's.

Clustered model: each weight tensor's values drawn from 16 int8 values of
its own (drawn over -127..127), as weight clustering with per-tensor
centroids gives. weights.format auto stores them as 4-bit indices into a
16-value table, decoded before each layer into planned scratch;
weights.format dense gives today's module (the int8 kernels on dense
weights). Both outputs must be byte-equal to TFLite Micro's.
"""

import argparse
import pathlib
import sys
import tempfile

import numpy as np

from bench import int4, target
from tests.harness import difftest

WEIGHT_GOAL, INSTR_GOAL, DECODE_GOAL = 0.55, 1.15, 1.05


def draw_clustered(rng, shape):
    centroids = rng.choice(np.arange(-127, 128), 16, replace=False)
    return centroids[rng.integers(0, 16, shape)]


def draw_skewed(rng, shape):
    centroids = rng.choice(np.arange(-127, 128), 16, replace=False)
    p = 0.6 ** np.arange(16)
    return centroids[rng.choice(16, shape, p=p / p.sum())]


def compress_huffman(model):
    """The model with every int8 weight tensor compressed as TFLM_DECODE's
    Huffman (32-bit entries, a first lookup of 6 bits)."""
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as S

    from tests.gen.ops.weight_table import _with_decode
    from tests.harness import tflm_decode
    m = S.ModelT.InitFromPackedBuf(model, 0)
    for i, t in enumerate(m.subgraphs[0].tensors):
        buf = m.buffers[t.buffer]
        if t.type == S.TensorType.INT8 and buf.data is not None and len(buf.data) and \
                len(t.shape) > 1:
            w = np.frombuffer(bytes(buf.data), np.int8).reshape(list(t.shape))
            model = _with_decode(model, i, *tflm_decode.huffman(w, True, 6))
    return model


def stored_formats(m, weight_tensors):
    """The stored formats of the module's constants for weight tensors."""
    return ",".join(sorted({t["stored_format"] for t in m.views["tensors"]
                            if t["kind"] == "constant" and t["model_tensor"] in weight_tensors}))


def constant_bytes(m):
    return sum(t["nbytes"] for t in m.views["tensors"] if t["kind"] == "constant")


def scratch_bytes(m):
    """The largest decoded layer: the scratch the decode calls write."""
    return max([t["nbytes"] for t in m.views["tensors"] if t["id"].endswith(".weights_decoded")]
               or [0])


def scratch_arena(m):
    """Bytes of the module's scratch arenas (activations and decoded weights)."""
    return sum(r["size"] for r in m.views["regions"] if r["role"] == "scratch")


def estimated_cycles(m, board, folder):
    """../shared/tools/cycles' estimate of the first inference (bench/shapes.py's runner)."""
    from bench import shapes
    return shapes.first_run_cycles(m, board, folder, target.baseline_inputs(m))[2]


def bench_board(board, path, weights, tmp, cycles=False):
    print(f"== {board} ({target.SHORT[board]}): MobileNet-v1-0.25-like 96x96, clustered to 16 "
          "values per tensor")
    print(f"{'weights.format':16} {'weights':>9} {'/dense':>6} {'instr':>13} {'/dense':>6} "
          f"{'decoded':>8} {'scratch':>8}  TFLM")
    base, failed = None, False
    for fmt in ("dense", "auto"):
        m, outs, instr, diff = int4.measure(path, board, tmp / f"{board}-{fmt}",
                                            {"weights.format": fmt})
        wb = int4.weight_bytes(m, weights)
        if base is None:
            base = (wb, instr, outs)
        same = difftest._count_diff(outs, base[2])[1] == 0
        failed |= diff != 0 or not same
        w_ratio, i_ratio = wb / base[0], instr / base[1]
        print(f"{fmt:16} {wb:>9,} {w_ratio:6.2f} {instr:>13,} {i_ratio:6.2f} "
              f"{scratch_bytes(m):>8,} {scratch_arena(m):>8,}  "
              f"{'equal' if diff == 0 else f'{diff} bytes differ'}"
              f"{'' if same else ', differs from dense'}", flush=True)
        if cycles:
            print(f"  estimated cycles: {estimated_cycles(m, board, tmp / f'{board}-{fmt}-cyc'):,}")
        if fmt == "auto":
            print(f"  goals: weights <= {WEIGHT_GOAL:.2f} of int8: "
                  f"{'met' if w_ratio <= WEIGHT_GOAL else 'missed'}; instructions <= "
                  f"{INSTR_GOAL:.2f}x: {'met' if i_ratio <= INSTR_GOAL else 'missed'}")
    print()
    return failed


def compress(model):
    """The model with every int8 weight tensor LUT-compressed at 4 bits by
    TFLite Micro's tool (one table per channel where quantized per channel,
    as TFLite Micro requires)."""
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as S

    from tests.harness import tflm_decode
    m = S.ModelT.InitFromPackedBuf(model, 0)
    pairs = []
    for i, t in enumerate(m.subgraphs[0].tensors):
        buf, q = m.buffers[t.buffer], t.quantization
        if t.type == S.TensorType.INT8 and buf.data is not None and len(buf.data) and \
                len(t.shape) > 1:
            per_channel = q is not None and q.scale is not None and len(q.scale) > 1
            pairs.append((i, int(q.quantizedDimension) if per_channel else None))
    return tflm_decode.compress_lut(model, pairs, 4)


def decode_figures(model):
    """(bytes of every constant buffer, bytes of the DECODE inputs, indices
    of the DECODE outputs) of a compressed model."""
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as S
    m = S.ModelT.InitFromPackedBuf(model, 0)
    g = m.subgraphs[0]

    def nbytes(i):
        data = m.buffers[g.tensors[i].buffer].data
        return 0 if data is None else len(data)

    codes = [oc.customCode for oc in m.operatorCodes]
    inputs, outputs = set(), set()
    for op in g.operators:
        if codes[op.opcodeIndex] in (b"TFLM_DECODE", "TFLM_DECODE"):
            inputs.update(int(i) for i in op.inputs)
            outputs.update(int(o) for o in op.outputs)
    return sum(nbytes(i) for i in range(len(g.tensors))), sum(nbytes(i) for i in inputs), outputs


def bench_decode(board, path, tmp, huffman=False):
    compressed = tmp / f"mobilenet025_96_{'huffman' if huffman else 'lut'}.tflite"
    compressed.write_bytes((compress_huffman if huffman else compress)(path.read_bytes()))
    model_all, model_weights, decoded = decode_figures(compressed.read_bytes())
    print(f"== {board} ({target.SHORT[board]}): " + (
        "the model clustered with skewed counts, compressed as TFLM_DECODE's Huffman" if huffman
        else "the clustered model compressed with TFLite Micro's tool (TFLM_DECODE LUT, 4 bits, "
        "a table per channel)"))
    print(f"the compressed model: {model_weights:,} bytes of compressed weights (encoded and "
          f"ancillary tensors), {model_all:,} bytes of constants in all")
    failed = False
    # table: what auto gave before Huffman codes (tables or a bitmap)
    for fmt in ("dense", "table", "auto") if huffman else ("dense", "auto"):
        m, outs, instr, diff = int4.measure(compressed, board,
                                            tmp / f"{board}-dcm-{huffman}-{fmt}",
                                            {"weights.format": fmt})
        module_weights = int4.weight_bytes(m, decoded)
        module_all = constant_bytes(m)
        failed |= diff != 0
        print(f"weights.format {fmt:5}: weights {module_weights:,} bytes "
              f"({module_weights / model_weights:.3f}x the compressed ones), constants "
              f"{module_all:,} ({module_all / model_all:.3f}x), {instr:,} instructions, "
              f"scratch {scratch_arena(m):,}, stored as "
              f"{stored_formats(m, decoded)}, TFLM "
              f"{'equal' if diff == 0 else f'{diff} bytes differ'}", flush=True)
        if fmt == "auto":
            ratio = module_all / model_all
            print(f"  goal: constants <= {DECODE_GOAL:.2f}x the compressed model's: "
                  f"{'met' if ratio <= DECODE_GOAL else 'missed'}")
    print()
    return failed


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", default=",".join(target.BOARDS))
    ap.add_argument("--no-decode", action="store_true", help="skip the TFLM_DECODE models")
    ap.add_argument("--only-huffman", action="store_true",
                    help="the Huffman-compressed model alone")
    ap.add_argument("--cycles", action="store_true",
                    help="also estimate cycles of the clustered model (../shared/tools/cycles)")
    args = ap.parse_args(argv)
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="bench-clustered-"))
    model, weights = int4.build("int8", draw=draw_clustered)
    path = tmp / "mobilenet025_96_clustered.tflite"
    path.write_bytes(model)
    skewed, _ = int4.build("int8", draw=draw_skewed)
    skewed_path = tmp / "mobilenet025_96_skewed.tflite"
    skewed_path.write_bytes(skewed)
    failed = False
    for board in args.boards.split(","):
        if not args.only_huffman:
            failed |= bench_board(board, path, weights, tmp, args.cycles)
        if not args.no_decode and not args.only_huffman:
            failed |= bench_decode(board, path, tmp)
        if not args.no_decode:
            failed |= bench_decode(board, skewed_path, tmp, huffman=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
