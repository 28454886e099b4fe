"""memory.planner and memory.planner_options (docs/placement.md,
"Planners"): every planner converts bit-exactly, reports its arena against
the lower bound everywhere the plan is shown, options are checked against
the selected planner; and the rule-precedence warning where helia-aot 1.1.0
would place a tensor otherwise than memory-placement documents."""

import json
import pathlib
import subprocess

import pytest

from tests.harness import difftest, module

HELLO = module.MODELS / "tflm_hello_world_int8.tflite"
KWS = module.MODELS / "mlperf_tiny_kws_ref_model.tflite"
PLANNERS = ["greedy", "greedy_by_size", "hill_climb", "exact"]


def tinyaot(*args):
    binary = str(pathlib.Path(module.tinyaot_bin()).resolve())
    return subprocess.run([binary, *map(str, args)], capture_output=True, text=True, timeout=120)


def convert(tmp_path, *keys, model=KWS, name="m"):
    out = tmp_path / name
    # Whole tensors (output over input off): the planners' own results
    # against the whole-tensor lower bound; test_overlap_plans_name_the_planner
    # covers the overlapping plans.
    p = tinyaot("convert", "--model.path", model, "--module.path", out, "--module.prefix", "v",
                "--memory.dump_residency_json", "true", "--memory.output_over_input", "false",
                *keys)
    return p, out


@pytest.mark.parametrize("planner", PLANNERS)
def test_each_planner_reports_against_the_lower_bound(tmp_path, planner):
    p, out = convert(tmp_path, "--memory.planner", planner)
    assert p.returncode == 0, p.stderr
    res = json.loads((out / "v_residency.json").read_text())
    views = json.loads((out / "v_views.json").read_text())
    scratch = [r for r in res["regions"] if r["role"] == "scratch"]
    assert scratch
    for r in scratch:
        assert r["planner"] == planner
        assert r["size"] >= r["lower_bound"] and r["gap"] == r["size"] - r["lower_bound"]
        assert r["proven"] == (r["proof"] != "not proven")
        # KWS packs to its bound with every planner: the bound is the proof.
        assert r["proven"] and r["proof"] == "proven (lower bound)"
    planning = views["scratch_planning"]
    assert [(x["region"], x["planner"], x["size"], x["lower_bound"], x["proven"])
            for x in planning] == [(r["id"], r["planner"], r["size"], r["lower_bound"],
                                    r["proven"]) for r in scratch]
    # No other region carries planner fields.
    assert all("planner" not in r for r in res["regions"] if r["role"] != "scratch")
    line = next(l for l in p.stdout.splitlines() if ": scratch " in l and "stage:" not in l)
    assert f"; {planner}, proven minimal)" in line


def test_exact_is_the_default_and_python_sees_the_planner(tmp_path):
    import tinyaot
    p, _ = convert(tmp_path)
    assert p.returncode == 0 and "; exact, proven minimal)" in p.stdout
    r = tinyaot.analyze(options={"model.path": str(KWS), "memory.planner": "hill_climb",
                                 "memory.output_over_input": False})
    used = [m for m in r.analysis.memories if m.scratch]
    assert used and all(m.scratch_planner == "hill_climb" and m.scratch_proven for m in used)
    assert all(m.scratch_planner is None for m in r.analysis.memories if not m.scratch)


@pytest.mark.parametrize("planner", PLANNERS)
def test_overlap_plans_name_the_planner(tmp_path, planner):
    """With outputs over inputs (the default) KWS goes below the whole-tensor
    bound; the configured planner packs the overlap groups and the plan is
    not claimed minimal, since that bound proves nothing about it."""
    out = tmp_path / "m"
    p = tinyaot("convert", "--model.path", KWS, "--module.path", out, "--module.prefix", "v",
                "--memory.dump_residency_json", "true", "--memory.planner", planner,
                "--memory.row_streaming", "off")  # the overlap alone, no row chains
    assert p.returncode == 0, p.stderr
    res = json.loads((out / "v_residency.json").read_text())
    (r,) = [r for r in res["regions"] if r["role"] == "scratch"]
    assert r["planner"] == planner and r["size"] < r["lower_bound"]
    assert not r["proven"] and r["proof"] == "not proven"
    assert f"; {planner}, not proven minimal)" in p.stdout


def test_planners_stay_bit_exact(tmp_path):
    for planner in ("greedy_by_size", "hill_climb"):
        report = difftest.compare_model(KWS, tmp_path / planner, n_runs=5, seed=2,
                                        keys={"memory.planner": planner,
                                              "memory.planner_options":
                                                  "{iterations: 50, seed: 7}"
                                              if planner == "hill_climb" else "{}"})
        assert report.diff["tflm"] == 0, report


def test_same_seed_same_module(tmp_path):
    keys = ("--memory.planner", "hill_climb", "--memory.planner_options",
            "{iterations: 300, seed: 11, max_stall_iterations: 50}")
    a, out_a = convert(tmp_path, *keys, name="a")
    b, out_b = convert(tmp_path, *keys, name="b")
    assert a.returncode == 0 and b.returncode == 0, a.stderr + b.stderr
    for f in ("v_arenas.c", "v_residency.json", "v_views.json"):
        if (out_a / f).exists():
            assert (out_a / f).read_text().replace(str(out_a), "") == \
                (out_b / f).read_text().replace(str(out_b), ""), f


@pytest.mark.parametrize("planner,options,message", [
    ("greedy", "{seed: 3}", "memory.planner greedy does not read 'seed' (its options: none)"),
    ("exact", "{iterations: 3}",
     "memory.planner exact does not read 'iterations' (its options: node_limit)"),
    ("hill_climb", "{node_limit: 3}", "memory.planner hill_climb does not read 'node_limit' "
     "(its options: iterations, seed, max_stall_iterations)"),
    ("hill_climb", "{iterations: -1}", "memory.planner_options.iterations"),
    ("hill_climb", "{seeds: 1}", "unknown key 'memory.planner_options.seeds'"),
    ("best", "{}", "memory.planner: 'best' is not one of: greedy, greedy_by_size, "
     "hill_climb, exact"),
])
def test_bad_planner_settings_are_one_clear_error(tmp_path, planner, options, message):
    p, out = convert(tmp_path, "--memory.planner", planner, "--memory.planner_options", options)
    assert p.returncode != 0 and message in p.stderr, p.stderr
    assert not out.exists()


# ---- rule precedence: the document against helia-aot 1.1.0 -----------------

def placed(tmp_path, rules):
    cfg = tmp_path / "p.yaml"
    cfg.write_text(json.dumps({"memory": {"tensors": rules}}))
    p = tinyaot("convert", "--config", cfg, "--model.path", HELLO, "--module.path",
                tmp_path / "m", "--module.prefix", "v", "--platform.name", "apollo510_evb",
                "--memory.dump_residency_json", "true")
    assert p.returncode == 0, p.stderr
    res = json.loads((tmp_path / "m" / "v_residency.json").read_text())
    warnings = [l for l in p.stderr.splitlines() if "helia-aot 1.1.0" in l]
    return {t["id"]: t["memory"] for t in res["tensors"]}, warnings


def test_type_only_rule_outranks_id_only_and_the_difference_is_warned(tmp_path):
    memories, warnings = placed(tmp_path, [
        {"type": "scratch", "attributes": {"memory": "SRAM"}},
        {"id": ["0"], "attributes": {"memory": "DTCM"}},
    ])
    assert memories["0"] == "SRAM"  # the document: type only above id only
    assert len(warnings) == 1, warnings
    w = warnings[0]
    assert w.startswith("tinyaot: warning: memory.tensors: tensor 0: memory SRAM from "
                        "memory.tensors[0] (type only, ")
    assert "helia-aot 1.1.0 would give DTCM from memory.tensors[1] (id only, " in w


def test_uppercase_type_matches_nothing_and_the_difference_is_warned(tmp_path):
    memories, warnings = placed(tmp_path, [{"type": "CONSTANT", "attributes": {"memory": "SRAM"}}])
    assert "SRAM" not in memories.values()
    assert any("memory unset from no rule" in w and "would give SRAM from memory.tensors[0] "
               "(type only" in w for w in warnings), warnings
    assert any("write 'constant', not 'CONSTANT' (helia-aot 1.1.0 ignores case" in w
               for w in warnings), warnings


def test_rules_that_agree_under_both_give_no_warning(tmp_path):
    memories, warnings = placed(tmp_path, [
        {"attributes": {"memory": "DTCM"}},
        {"type": "constant", "attributes": {"memory": "MRAM"}},
        {"type": "scratch", "id": ["0"], "attributes": {"memory": "SRAM"}},
    ])
    assert memories["0"] == "SRAM" and memories["2"] == "MRAM" and memories["7"] == "DTCM"
    assert warnings == []
