"""Command line for the random model generator.

  python -m tests.gen --list
  python -m tests.gen --variant NAME|PATTERN|all --seed S --count N --out DIR
  python -m tests.gen --validate [--variant ...] --seed S --count N [--report FILE]

Generation writes <case>.tflite and <case>.json (name, variant, op,
stateful, n_runs, config) for seeds S .. S+N-1 of every selected variant.

Validation draws the same cases, runs each in TFLite Micro (in a child
process) on random inputs, then in LiteRT's reference kernels, and prints per
variant: drawn, ran in TFLM, TFLM failures (generator bugs), and how many
output bytes LiteRT agreed on / differed in. It exits 1 if TFLM failed on
any case.
"""

import argparse
import json
import os
import sys
import time
import zlib
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from . import variants


def _write_case(case, out):
    with open(os.path.join(out, case.name + ".tflite"), "wb") as f:
        f.write(case.model)
    with open(os.path.join(out, case.name + ".json"), "w") as f:
        json.dump(case.meta(), f, indent=1, sort_keys=True)
        f.write("\n")


def input_rng(case_name):
    """The generator for a case's random inputs (used by --validate)."""
    return np.random.default_rng([zlib.crc32(case_name.encode()), 7])


def _first_lines(text, n=6):
    lines = [ln for ln in str(text).splitlines() if ln.strip()]
    return "\n".join(lines[:n])


def validate(selected, seed, count, report_path=None, verbose=False):
    from tests.harness import oracle

    rows = []
    details = {"tflm_failures": [], "litert_unsupported": [],
               "disagreements": []}
    pool = ThreadPoolExecutor(max_workers=1)
    t0 = time.time()
    for v in selected:
        row = {"variant": v.name, "drawn": 0, "ran": 0, "tflm_failed": 0,
               "litert_ran": 0, "litert_unsupported": 0, "agree_bytes": 0,
               "differ_bytes": 0, "cases_differing": 0, "draw_errors": 0,
               "tflm_no_kernel": 0}
        for s in range(seed, seed + count):
            try:
                case = v.case(s)
            except Exception as e:  # noqa: BLE001 - a generator bug
                row["draw_errors"] += 1
                details["tflm_failures"].append(
                    {"case": "%s-s%d" % (v.name, s), "error": "draw: %r" % e})
                continue
            row["drawn"] += 1
            runs = oracle.random_inputs(case.model, input_rng(case.name),
                                        case.n_runs)
            lite_future = pool.submit(oracle.run_litert, case.model, runs,
                                      isolated=True)
            try:
                ref = oracle.run_tflm(case.model, runs, isolated=True)
                row["ran"] += 1
            except oracle.OracleError as e:
                ref = None
                if v.oracle == "litert":  # TFLite Micro has no kernel: expected
                    row["tflm_no_kernel"] += 1
                else:
                    row["tflm_failed"] += 1
                    details["tflm_failures"].append(
                        {"case": case.name, "error": _first_lines(e, 12),
                         "config": case.config})
                    if verbose:
                        print("TFLM FAILED %s: %s" % (case.name, _first_lines(e)))
            try:
                lite = lite_future.result()
            except oracle.OracleError as e:
                row["litert_unsupported"] += 1
                details["litert_unsupported"].append(
                    {"case": case.name, "error": _first_lines(e, 4)})
                continue
            row["litert_ran"] += 1
            if ref is None:
                continue
            diff_here = 0
            for r, (ro, lo) in enumerate(zip(ref, lite)):
                for k, (a, b) in enumerate(zip(ro, lo)):
                    ab = np.ascontiguousarray(a).view(np.uint8).ravel()
                    bb = np.ascontiguousarray(b).view(np.uint8).ravel()
                    if a.shape != b.shape or a.dtype != b.dtype:
                        n = max(ab.size, bb.size)
                        row["differ_bytes"] += n
                        diff_here += n
                        continue
                    d = int(np.count_nonzero(ab != bb))
                    row["differ_bytes"] += d
                    row["agree_bytes"] += ab.size - d
                    if d:
                        diff_here += d
                        if a.dtype.kind in "iuf":
                            delta = np.abs(a.astype(np.float64) - b.astype(np.float64))
                            maxd = float(delta.max())
                            nel = int(np.count_nonzero(delta))
                        else:
                            maxd, nel = None, int(np.count_nonzero(a != b))
                        details["disagreements"].append(
                            {"case": case.name, "run": r, "output": k,
                             "elements_differing": nel,
                             "elements": int(a.size), "max_abs_diff": maxd,
                             "config": case.config})
            if diff_here:
                row["cases_differing"] += 1
        rows.append(row)
        if row["tflm_no_kernel"]:
            print("%-34s TFLite Micro has no kernel (%d cases): LiteRT is its oracle"
                  % (v.name, row["tflm_no_kernel"]), flush=True)
        print("%-34s drawn %4d  ran %4d  tflm_fail %3d  litert %4d (unsupp %3d)"
              "  agree %9d B  differ %7d B in %3d cases"
              % (v.name, row["drawn"], row["ran"], row["tflm_failed"],
                 row["litert_ran"], row["litert_unsupported"],
                 row["agree_bytes"], row["differ_bytes"],
                 row["cases_differing"]), flush=True)
    pool.shutdown()
    oracle.shutdown()
    tot = {k: sum(r[k] for r in rows) for k in rows[0] if k != "variant"} if rows else {}
    print("TOTAL: %s  (%.0f s)" % (json.dumps(tot), time.time() - t0))
    for f in details["tflm_failures"][:20]:
        print("TFLM failure %s:\n  %s" % (f["case"], f["error"].replace("\n", "\n  ")))
    if report_path:
        with open(report_path, "w") as f:
            json.dump({"seed": seed, "count": count, "rows": rows,
                       "totals": tot, **details}, f, indent=1, sort_keys=True)
    return 1 if (tot.get("tflm_failed", 0) or tot.get("draw_errors", 0)) else 0


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tests.gen",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="all",
                    help="name, comma list or fnmatch pattern, or 'all'")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=1)
    ap.add_argument("--out", help="directory for <case>.tflite/.json")
    ap.add_argument("--validate", action="store_true")
    ap.add_argument("--report", help="with --validate: write a JSON report")
    ap.add_argument("--list", action="store_true", help="list the variants")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)

    selected = variants.select(args.variant)
    if args.list:
        for v in selected:
            doc = v.doc.splitlines()[0] if v.doc else ""
            print("%-34s %-30s %s%s" % (v.name, v.op,
                                        "stateful " if v.stateful else "", doc))
        return 0
    if args.validate:
        return validate(selected, args.seed, args.count, args.report,
                        args.verbose)
    if not args.out:
        ap.error("--out DIR is required (or --validate / --list)")
    os.makedirs(args.out, exist_ok=True)
    n = 0
    for v in selected:
        for s in range(args.seed, args.seed + args.count):
            _write_case(v.case(s), args.out)
            n += 1
    print("wrote %d cases to %s" % (n, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
