"""SPARSE_WEIGHTS' cost model (issue 24, item 2): instructions of one int8
FULLY_CONNECTED with its weights dense (weights.format dense) and with the
zero weights left out (weights.format sparse: the sparse kernel wherever it
is smaller), at several sizes and densities, on the Cortex-M55 and the
Cortex-M4 (QEMU), and what the default (auto) picks.

    .venv/bin/python -m bench.sparse_weights [--boards mps3-an547,mps2-an386]

Each model: input [rows, depth], weights [outputs, depth] with a share
`density` of them nonzero at random (-127..127), per-tensor scales, bias.
Printed per layer: instructions dense and sparse, their ratio and auto's
choice (a row ends in MISMATCH when the outputs differ from TFLite
Micro's); then per board the least-squares fit over every layer, dense
instructions per MAC and per output value, sparse ones per nonzero weight
and per output value: src/passes/sparse_weights.c's table of costs holds
these fits. Nothing is asserted: this prints figures.
"""

import argparse
import pathlib
import sys
import tempfile

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench import target  # noqa: E402
from tests.gen.builder import ModelBuilder, Q  # noqa: E402
from tests.harness import difftest, oracle  # noqa: E402

SHAPES = [(1, 256, 64), (1, 640, 128), (8, 128, 32), (16, 64, 64)]  # rows, depth, outputs
DENSITIES = [0.02, 0.05, 0.1, 0.2, 0.35]


def build(rows, depth, outputs, density, seed=7):
    rng = np.random.default_rng(seed)
    b = ModelBuilder(description="bench/sparse_weights.py")
    x = b.tensor([rows, depth], "int8", Q(0.02, 3), name="input")
    w = rng.integers(-127, 128, (outputs, depth)).astype(np.int8)
    w[rng.random(w.shape) >= density] = 0
    scale = 0.01
    bias = rng.integers(-3000, 3000, outputs).astype(np.int32)
    fan = max(1.0, depth * density)
    y = b.tensor([rows, outputs], "int8", Q(float(0.02 * scale * 60 * np.sqrt(fan) / 8), -5),
                 name="output")
    b.op("FULLY_CONNECTED", [x, b.const(w, "int8", Q(scale, 0), name="weights"),
                             b.const(bias, "int32", Q(float(np.float32(0.02 * scale)), 0),
                                     name="bias")],
         [y], "FullyConnectedOptions", fusedActivationFunction="NONE")
    return b.build([x], [y]), int(np.count_nonzero(w))


def count(path, board, work, fmt):
    m, outs, log = target.first_run(path, work, board, keys={"weights.format": fmt})
    expected = oracle.run_tflm(path.read_bytes(), [target.baseline_inputs(m)], isolated=True)
    return target.run_counts(log)[0], difftest._count_diff(outs, expected)[1], m


def fit(samples):
    """Least-squares coefficients of instructions over the samples' terms."""
    a = np.array([terms for terms, _ in samples], dtype=float)
    y = np.array([instr for _, instr in samples], dtype=float)
    return np.linalg.lstsq(a, y, rcond=None)[0], y


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", default=",".join(target.BOARDS))
    args = ap.parse_args(argv)
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="bench-sparse-weights-"))
    for board in args.boards.split(","):
        print(f"== {board} ({target.SHORT[board]}): one FULLY_CONNECTED, dense against sparse")
        print(f"{'rows x depth -> outputs':24} {'density':>7} {'nonzero':>8} {'dense':>10} "
              f"{'sparse':>10} {'ratio':>6} {'auto':>7}  TFLM")
        dense_fit, sparse_fit = [], []
        for rows, depth, outputs in SHAPES:
            for density in DENSITIES:
                model, nz = build(rows, depth, outputs, density)
                path = tmp / f"fc_{rows}_{depth}_{outputs}_{density}.tflite"
                path.write_bytes(model)
                work = tmp / f"{board}-{path.stem}"
                dense, d1, _ = count(path, board, work / "dense", "dense")
                sparse, d2, _ = count(path, board, work / "sparse", "sparse")
                auto, d3, _ = count(path, board, work / "auto", "auto")
                dense_fit.append(([rows * outputs * depth, rows * outputs], dense))
                if sparse != dense:  # stored sparse
                    sparse_fit.append(([rows * nz, rows * outputs], sparse))
                ok = d1 == d2 == d3 == 0
                print(f"{rows:>4} x {depth:>5} -> {outputs:<8} {density:7.2f} {nz:>8,} "
                      f"{dense:>10,} {sparse:>10,} {sparse / dense:6.2f} "
                      f"{'sparse' if auto != dense else 'dense':>7}  "
                      f"{'equal' if ok else 'MISMATCH'}", flush=True)
        # least squares over every layer: src/passes/sparse_weights.c's table
        (mac, out_d), _ = fit(dense_fit)
        (nzc, out_s), _ = fit(sparse_fit)
        print(f"fitted: dense {mac:.3f} per MAC + {out_d:.1f} per output; "
              f"sparse {nzc:.2f} per nonzero weight + {out_s:.1f} per output")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
