"""Operator tests: random single-operator models against the oracle.

    python -m tests.optest [--variants A,B,'OP.*'|all] [--count N] [--seed S] [--litert]

For each variant it draws N models from the generator (tests/gen) with a
fixed seed, converts them all, builds them into one executable, runs each
on random inputs (several consecutive runs for stateful variants) and
compares every output byte with TFLite Micro's interpreter (and LiteRT with
--litert; a variant of an operator TFLite Micro has no kernel for names
LiteRT as its oracle, Variant.oracle, and is compared with it): float32 outputs bit for bit too (a -0.0 for a 0.0 or another NaN
payload counts as a difference). A variant whose reference leaves part of
an output undefined (CIRCULAR_BUFFER's unwritten slots) brings its own
comparison (tests/gen/core.py, Variant.compare). It prints, per variant, the configurations tried and the bytes
that differ, and exits non-zero on any difference or failure. Set
TINYAOT_SANITIZE=1 to build the kernels with ASan and UBSan.
"""

import argparse
import concurrent.futures
import fnmatch
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


# "all" is the operator suite; the SIMD-size variants (*_simd) can be named too.
KNOWN = {**gen_variants.ALL, **gen_variants.SIMD}

def test_variant(name, count, seed, workdir, litert=False, runs_per_case=None):
    """Returns a dict with tried, converted, bytes, diff, litert_diff, failures."""
    v = KNOWN[name]
    # A distinct, reproducible stream per variant: seed and the variant name.
    rng = np.random.default_rng([seed] + [ord(c) for c in name])
    cases = [v.draw(rng) for _ in range(count)]
    n_runs = runs_per_case or (10 if v.stateful else 3)
    res = {"variant": name, "tried": count, "converted": 0, "bytes": 0, "diff": 0,
           "litert_diff": 0, "litert_cases": 0, "failures": []}
    b = batch_mod.build_batch([(c.name, c.model) for c in cases], workdir, keys=v.keys)
    jobs = []
    for i, case in enumerate(cases):
        if b.modules[i] is None:
            res["failures"].append(f"{case.name}: conversion failed: {b.errors[i]}")
            continue
        res["converted"] += 1
        jobs.append((i, oracle.random_inputs(case.model, np.random.default_rng([seed, i]),
                                             n_runs)))
    results = batch_mod.run_cases(b, jobs) if jobs else {}
    compare = v.compare or difftest._count_diff
    for i, runs in jobs:
        case, ours = cases[i], results[i]
        if isinstance(ours, str):
            res["failures"].append(f"{case.name}: {ours}")
            continue
        # LiteRT where TFLite Micro has no kernel for the operator.
        reference = oracle.run_litert if v.oracle == "litert" else oracle.run_tflm
        expected = reference(case.model, runs, isolated=True)
        total, d = compare(ours, expected)
        res["bytes"] += total
        res["diff"] += d
        if d:
            res["failures"].append(f"{case.name}: {d} of {total} bytes differ from "
                                   f"{'LiteRT' if v.oracle == 'litert' else 'TFLM'}; "
                                   f"config {case.config}")
        if litert:
            try:
                lite = oracle.run_litert(case.model, runs, isolated=True)
                res["litert_diff"] += compare(ours, lite)[1]
                res["litert_cases"] += 1
            except oracle.OracleError:
                pass
    return res


def _run_one(job):
    """One variant in a worker process (with its own oracle children). Its
    folder goes as soon as it is done, unless kept: the modules are many
    small files, and removing them while the other worker compiles costs
    the run nothing, where removing them all at the end took minutes."""
    *job, keep = job
    t0 = time.time()
    try:
        r = test_variant(*job)
    except Exception as e:  # a harness failure is a failing case, not a crash
        r = {"variant": job[0], "tried": job[1], "converted": 0, "bytes": 0, "diff": 0,
             "litert_diff": 0, "failures": [f"{job[0]}: {type(e).__name__}: {e}"]}
    finally:
        oracle.shutdown()
        if not keep:
            shutil.rmtree(job[3], ignore_errors=True)
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
    else:
        names, unknown = [], []
        for part in args.variants.split(","):
            # a name or an fnmatch pattern ('CONV_2D.*', '*.float32')
            hits = sorted(n for n in KNOWN if fnmatch.fnmatchcase(n, part))
            if not hits:
                unknown.append(part)
            names.extend(h for h in hits if h not in names)
        if unknown:
            print("unknown variants:", ", ".join(unknown))
            return 2
    top = pathlib.Path(args.keep or tempfile.mkdtemp(prefix="tinyaot-optest-"))
    print(f"{'variant':34} {'tried':>5} {'conv':>5} {'bytes':>9} {'diff':>6}"
          + (f" {'litert':>7}" if args.litert else "") + "  time")
    bad = 0
    # The runtime kernels are compiled once for all variants and both workers.
    os.environ.setdefault("TINYAOT_OBJECT_CACHE", str(top / "kernel-objects"))
    work = [(name, args.count, args.seed, top / name.replace("/", "_"), args.litert,
             bool(args.keep)) for name in names]
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
