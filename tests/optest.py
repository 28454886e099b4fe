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
    "CAST.bool_f32", "CAST.bool_int16", "CAST.bool_int32", "CAST.bool_int8", "CAST.f32_int16",
    "CAST.f32_int32", "CAST.f32_int8", "CAST.int16_f32", "CAST.int16_int32", "CAST.int16_int8",
    "CAST.int32_f32", "CAST.int32_int16", "CAST.int32_int8", "CAST.int8_f32", "CAST.int8_int16",
    "CAST.int8_int32",
    "CONCATENATION.int8", "CONCATENATION.int16",
    "DEPTH_TO_SPACE.int8",
    "DEQUANTIZE.int8", "DEQUANTIZE.int16",
    "EXPAND_DIMS.int8",
    "FULLY_CONNECTED.int8", "FULLY_CONNECTED.int16",
    "GATHER.int8",
    "PACK.int8",
    "PAD.int8",
    "PADV2.int8",
    "QUANTIZE.f32_int8", "QUANTIZE.f32_int16", "QUANTIZE.int8_int8", "QUANTIZE.int8_int16",
    "QUANTIZE.int16_int8", "QUANTIZE.int16_int16",
    "RESHAPE.int8", "RESHAPE.int16",
    "RESIZE_BILINEAR.int8",
    "RESIZE_NEAREST_NEIGHBOR.int8",
    "SLICE.int8",
    "SOFTMAX.int8", "SOFTMAX.int8_int16",
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
    for i, case in enumerate(cases):
        if b.modules[i] is None:
            res["failures"].append(f"{case.name}: conversion failed: {b.errors[i]}")
            continue
        res["converted"] += 1
        runs = oracle.random_inputs(case.model, np.random.default_rng([seed, i]), n_runs)
        try:
            ours = batch_mod.run_case(b, i, runs)
        except RuntimeError as e:
            res["failures"].append(f"{case.name}: {e}")
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


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default="all")
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--litert", action="store_true")
    ap.add_argument("--keep", help="keep generated files in this folder")
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
    for name in names:
        t0 = time.time()
        r = test_variant(name, args.count, args.seed, top / name.replace("/", "_"), args.litert)
        bad += len(r["failures"])
        print(f"{name:34} {r['tried']:5} {r['converted']:5} {r['bytes']:9} {r['diff']:6}"
              + (f" {r['litert_diff']:7}" if args.litert else "")
              + f"  {time.time() - t0:5.1f}s", flush=True)
        for f in r["failures"][:5]:
            print("    FAIL", f[:2000])
    if not args.keep:
        shutil.rmtree(top, ignore_errors=True)
    print(f"{'FAIL' if bad else 'ok'}: {len(names)} variants, {bad} failing cases")
    oracle.shutdown()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
