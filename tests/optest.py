"""Operator tests: random single-operator models against the oracle.

    python -m tests.optest [--variants A,B|all] [--count N] [--seed S] [--litert]

For each variant it draws N models from the generator (tests/gen) with a
fixed seed, converts them all, builds them into one executable, runs each
on random inputs (several consecutive runs for stateful variants) and
compares every output byte with TFLite Micro's interpreter (and LiteRT with
--litert). It prints, per variant, the configurations tried and the bytes
that differ, and exits non-zero on any difference or failure. Set
TINYAOT_SANITIZE=1 to build the kernels with ASan and UBSan.
"""

import argparse
import concurrent.futures
import os
import pathlib
import shutil
import sys
import tempfile
import time

import numpy as np

from tests.gen import variants as gen_variants
from tests.harness import batch as batch_mod
from tests.harness import difftest, oracle


# Variants whose operators tinyaot lowers today; `--variants implemented`
# runs these. Every variant of tests/gen belongs here once its operator is in.
IMPLEMENTED = [
    "ARG_MAX.int8",
    "ARG_MIN.int8",
    "AVERAGE_POOL_2D.int8", "AVERAGE_POOL_2D.int16",
    "BATCH_MATMUL.int8", "BATCH_MATMUL.int16",
    "CONV_2D.int8", "CONV_2D.int16", "CONV_2D.int8_grouped",
    "DEPTHWISE_CONV_2D.int8", "DEPTHWISE_CONV_2D.int16",
    "ADD.int8", "ADD.int16",
    "DEQUANTIZE.int8", "DEQUANTIZE.int16",
    "EQUAL.int8",
    "FULLY_CONNECTED.int8", "FULLY_CONNECTED.int16",
    "MAX_POOL_2D.int8", "MAX_POOL_2D.int16",
    "MEAN.int8", "MEAN.int16",
    "GREATER.int8", "GREATER_EQUAL.int8",
    "LESS.int8", "LESS_EQUAL.int8",
    "MAXIMUM.int8", "MINIMUM.int8",
    "MUL.int8", "MUL.int16",
    "NOT_EQUAL.int8",
    "CAST.bool_f32", "CAST.bool_int16", "CAST.bool_int32", "CAST.bool_int8", "CAST.f32_int16",
    "CAST.f32_int32", "CAST.f32_int8", "CAST.int16_f32", "CAST.int16_int32", "CAST.int16_int8",
    "CAST.int32_f32", "CAST.int32_int16", "CAST.int32_int8", "CAST.int8_f32", "CAST.int8_int16",
    "CAST.int8_int32",
    "CONCATENATION.int8", "CONCATENATION.int16",
    "DEPTH_TO_SPACE.int8",
    "EXPAND_DIMS.int8",
    "GATHER.int8",
    "PACK.int8",
    "PAD.int8",
    "PADV2.int8",
    "QUANTIZE.f32_int8", "QUANTIZE.f32_int16", "QUANTIZE.int8_int8", "QUANTIZE.int8_int16",
    "QUANTIZE.int16_int8", "QUANTIZE.int16_int16",
    "REDUCE_MAX.int8",
    "RESHAPE.int8", "RESHAPE.int16",
    "RESIZE_BILINEAR.int8",
    "RESIZE_NEAREST_NEIGHBOR.int8",
    "SLICE.int8",
    "SOFTMAX.int8", "SOFTMAX.int8_int16",
    "SUM.int8", "SUM.int16",
    "TRANSPOSE_CONV.int8", "TRANSPOSE_CONV.int16",
    "SQUARED_DIFFERENCE.int8", "SQUARED_DIFFERENCE.int16",
    "SUB.int8", "SUB.int16",
    "HARD_SWISH.int8",
    "LEAKY_RELU.int8", "LEAKY_RELU.int16",
    "LOGISTIC.int8", "LOGISTIC.int16",
    "LOG_SOFTMAX.int8",
    "PRELU.int8",
    "RELU.int8", "RELU.int16",
    "RELU6.int8",
    "SOFTMAX.int8", "SOFTMAX.int8_int16", "SOFTMAX.int16",
    "TANH.int8", "TANH.int16",
    "SVDF.int8", "SVDF.int16",
    "UNIDIRECTIONAL_SEQUENCE_LSTM.int8",
    "VARIABLES.int8", "VARIABLES.int16", "VARIABLES.int8_noinit",
    "SPACE_TO_DEPTH.int8",
    "SPLIT.int8",
    "SPLIT_V.int8",
    "SQUEEZE.int8",
    "STRIDED_SLICE.int8",
    "TRANSPOSE.int8",
    "UNPACK.int8",
]


def test_variant(name, count, seed, workdir, litert=False, runs_per_case=None):
    """Returns a dict with tried, converted, bytes, diff, litert_diff, failures."""
    v = gen_variants.ALL[name]
    # A distinct, reproducible stream per variant: seed and the variant name.
    rng = np.random.default_rng([seed] + [ord(c) for c in name])
    cases = [v.draw(rng) for _ in range(count)]
    n_runs = runs_per_case or (10 if v.stateful else 3)
    res = {"variant": name, "tried": count, "converted": 0, "bytes": 0, "diff": 0,
           "litert_diff": 0, "litert_cases": 0, "failures": []}
    b = batch_mod.build_batch([(c.name, c.model) for c in cases], workdir)
    jobs = []
    for i, case in enumerate(cases):
        if b.modules[i] is None:
            res["failures"].append(f"{case.name}: conversion failed: {b.errors[i]}")
            continue
        res["converted"] += 1
        jobs.append((i, oracle.random_inputs(case.model, np.random.default_rng([seed, i]),
                                             n_runs)))
    results = batch_mod.run_cases(b, jobs) if jobs else {}
    for i, runs in jobs:
        case, ours = cases[i], results[i]
        if isinstance(ours, str):
            res["failures"].append(f"{case.name}: {ours}")
            continue
        expected = oracle.run_tflm(case.model, runs, isolated=True)
        total, d = difftest._count_diff(ours, expected)
        res["bytes"] += total
        res["diff"] += d
        if d:
            res["failures"].append(f"{case.name}: {d} of {total} bytes differ from TFLM; "
                                   f"config {case.config}")
        if litert:
            try:
                lite = oracle.run_litert(case.model, runs, isolated=True)
                res["litert_diff"] += difftest._count_diff(ours, lite)[1]
                res["litert_cases"] += 1
            except oracle.OracleError:
                pass
    return res


def _run_one(job):
    """One variant in a worker process (with its own oracle children)."""
    t0 = time.time()
    try:
        r = test_variant(*job)
    except Exception as e:  # a harness failure is a failing case, not a crash
        r = {"variant": job[0], "tried": job[1], "converted": 0, "bytes": 0, "diff": 0,
             "litert_diff": 0, "failures": [f"{job[0]}: {type(e).__name__}: {e}"]}
    finally:
        oracle.shutdown()
    r["seconds"] = time.time() - t0
    return r


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default="all")
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--litert", action="store_true")
    ap.add_argument("--keep", help="keep generated files in this folder")
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("JOBS", "2")),
                    help="variants tested in parallel (default 2, or $JOBS)")
    args = ap.parse_args(argv)
    if args.variants == "all":
        names = sorted(gen_variants.ALL)
    elif args.variants == "implemented":
        names = sorted(IMPLEMENTED)
    else:
        names = args.variants.split(",")
    unknown = [n for n in names if n not in gen_variants.ALL]
    if unknown:
        print("unknown variants:", ", ".join(unknown))
        return 2
    top = pathlib.Path(args.keep or tempfile.mkdtemp(prefix="tinyaot-optest-"))
    print(f"{'variant':34} {'tried':>5} {'conv':>5} {'bytes':>9} {'diff':>6}"
          + (f" {'litert':>7}" if args.litert else "") + "  time")
    bad = 0
    work = [(name, args.count, args.seed, top / name.replace("/", "_"), args.litert)
            for name in names]
    with concurrent.futures.ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for r in pool.map(_run_one, work):
            bad += len(r["failures"])
            print(f"{r['variant']:34} {r['tried']:5} {r['converted']:5} {r['bytes']:9} "
                  f"{r['diff']:6}" + (f" {r['litert_diff']:7}" if args.litert else "")
                  + f"  {r['seconds']:5.1f}s", flush=True)
            for f in r["failures"][:5]:
                print("    FAIL", f[:2000])
    if not args.keep:
        shutil.rmtree(top, ignore_errors=True)
    print(f"{'FAIL' if bad else 'ok'}: {len(names)} variants, {bad} failing cases")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
