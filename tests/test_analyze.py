"""`tinyaot analyze`: the per-operator table, the per-memory summary, MACs,
the flash estimate and unsupported operators, from the same configuration
as convert and without writing anything; convert's short summary; and
tinyaot.analyze() in Python."""

import json
import os
import pathlib
import re
import subprocess

import pytest

from tests.harness import module, unsupported

HELLO = module.MODELS / "tflm_hello_world_int8.tflite"
AD01 = module.MODELS / "mlperf_tiny_ad01_int8.tflite"
KWS = module.MODELS / "mlperf_tiny_kws_ref_model.tflite"


def tinyaot(*args, cwd=None):
    # absolute, so `cwd` can be anywhere
    binary = str(pathlib.Path(module.tinyaot_bin()).resolve())
    return subprocess.run([binary, *map(str, args)], capture_output=True, text=True, cwd=cwd,
                          timeout=120)


def analyze_json(*args):
    p = tinyaot("analyze", "--format", "json", *args)
    return p, json.loads(p.stdout)


def converted_views(tmp_path, model, *keys):
    out = tmp_path / "module"
    p = tinyaot("convert", "--model.path", model, "--module.path", out, "--module.prefix", "v",
                "--memory.dump_residency_json", "true", *keys)
    assert p.returncode == 0, p.stderr
    return json.loads((out / "v_views.json").read_text()), p.stdout


def test_analyze_writes_nothing(tmp_path):
    """No module, no temporary directory, not even with a module.path given."""
    work = tmp_path / "work"
    work.mkdir()
    p = tinyaot("analyze", "--model.path", KWS, "--module.path", work / "out",
                "--memory.dump_residency_json", "true", cwd=work)
    assert p.returncode == 0, p.stderr
    assert list(work.iterdir()) == []
    # module.path is not needed at all
    p = tinyaot("analyze", "--model.path", HELLO, cwd=work)
    assert p.returncode == 0, p.stderr
    assert list(work.iterdir()) == []


@pytest.mark.parametrize("model,platform", [(KWS, "host"), (AD01, "apollo510_evb")])
def test_json_matches_the_views_of_the_same_conversion(tmp_path, model, platform):
    # Whole tensors apart (no output over input, test_overlap.py), so that
    # the lower bound is the most scratch live at an operator.
    apart = ("--memory.output_over_input", "false")
    views, _ = converted_views(tmp_path, model, "--platform.name", platform, *apart)
    p, a = analyze_json("--model.path", model, "--platform.name", platform, *apart)
    assert p.returncode == 0, p.stderr
    assert a["supported"] is True and a["unsupported"] == [] and a["platform"] == platform
    ops = views["operators"]
    assert [o["layer_index"] for o in a["operators"]] == [o["layer_index"] for o in ops]
    assert [o["type"] for o in a["operators"]] == [o["type"] for o in ops]
    assert [o["macs"] for o in a["operators"]] == [o["macs"] for o in ops]
    assert [o["parameters"] for o in a["operators"]] == [o["parameters"] for o in ops]
    assert a["total_macs"] == sum(o["macs"] or 0 for o in ops)
    tensors = {t["id"]: t for t in views["tensors"]}
    regions = views["regions"]
    placements = views["placements"]
    for row, op in zip(a["operators"], ops):
        out = tensors[op["output_ids"][0]]
        assert row["output_shape"] == out["shape"]
        assert row["output_bytes"] == sum(_bytes(tensors[t]) for t in op["output_ids"])
        assert row["output_memory"] == regions[placements[out["id"]]["region"]]["memory"]
    # Per memory: the regions of the views, added up by role.
    for m in a["memories"]:
        mine = [r for r in regions if r["memory"] == m["memory"]]
        assert m["scratch"] == sum(r["size"] for r in mine if r["role"] == "scratch")
        assert m["persistent"] == sum(r["offset"] + r["size"] for r in mine
                                      if r["role"] == "persistent")
        assert m["constants"] + m["staged"] == sum(r["offset"] + r["size"] for r in mine
                                                   if r["role"] == "constant")
        assert m["used"] == (m["scratch"] + m["persistent"] + m["constants"] + m["staged"] +
                             m["staged_sources"] +
                             sum(r["offset"] for r in mine if r["role"] == "scratch"))
        assert m["free"] == m["budget"] - m["used"] and m["free"] >= 0
        assert m["gap"] == m["scratch"] - m["scratch_lower_bound"] >= 0
    # Scratch live at an operator never exceeds the arenas, and its most is
    # the lower bound (every scratch tensor is in one arena here).
    scratch_memories = [m for m in a["memories"] if m["scratch"]]
    assert len(scratch_memories) == 1
    live = [o["scratch_live"] for o in a["operators"]]
    assert max(live) == scratch_memories[0]["scratch_lower_bound"]
    assert all(x <= scratch_memories[0]["scratch"] for x in live)


def _bytes(t):
    n = 1
    for d in t["shape"]:
        n *= d
    return n * {"int8": 1, "uint8": 1, "int16": 2, "int32": 4, "float32": 4,
                "bool": 1, "int64": 8}[t["dtype"]]


def test_budget_is_the_constraint_or_the_capacity():
    p, a = analyze_json("--model.path", AD01, "--platform.name", "apollo510_evb",
                        "--memory.constraints", "[{name: DTCM, max_size: 40000}, {name: MRAM}]")
    assert p.returncode == 0, p.stderr
    mem = {m["memory"]: m for m in a["memories"]}
    assert mem["DTCM"]["budget"] == 40000 and mem["DTCM"]["usable"]
    assert mem["MRAM"]["budget"] == 4128768  # targets/apollo510_evb.yaml capacity
    assert not mem["SRAM"]["usable"] and mem["SRAM"]["used"] == 0


def test_text_table_has_a_row_per_operator_and_the_summary():
    p = tinyaot("analyze", "--model.path", KWS)
    assert p.returncode == 0, p.stderr
    _, a = analyze_json("--model.path", KWS)
    lines = p.stdout.splitlines()
    rows = [l for l in lines if re.match(r"^\s+\d+\s+[A-Z_0-9]+\s", l)]
    assert len(rows) == len(a["operators"])
    for row, op in zip(rows, a["operators"]):
        cells = row.split()
        assert int(cells[0]) == op["layer_index"] and cells[1] == op["type"]
        assert cells[2] == "x".join(map(str, op["output_shape"]))
        assert cells[3] == (str(op["macs"]) if op["macs"] is not None else "-")
        assert cells[5:8] == [str(op["scratch_live"]), str(op["output_bytes"]),
                              op["output_memory"]]
    dram = next(l for l in lines if l.startswith("DRAM "))
    m = a["memories"][0]
    assert dram.split()[1:4] == [str(m["scratch"]), str(m["scratch_lower_bound"]), str(m["gap"])]
    assert f"total MACs: {a['total_macs']}" in p.stdout
    f = a["flash"]
    assert (f"flash (estimate): {f['total']} bytes = generated code {f['code']} + kernels "
            f"{f['kernels']} + constants {f['constants']}") in p.stdout


def test_flash_estimate_parts(tmp_path):
    p, a = analyze_json("--model.path", AD01, "--platform.name", "apollo510_evb")
    views, _ = converted_views(tmp_path, AD01, "--platform.name", "apollo510_evb")
    f = a["flash"]
    assert f["total"] == f["code"] + f["kernels"] + f["constants"]
    assert f["constants"] == sum(r["size"] for r in views["regions"] if r["role"] == "constant")
    assert f["kernels"] > 0 and f["code"] > 0 and "estimate" in f["basis"]
    # A model with more kinds of kernels needs more kernel bytes.
    _, hello = analyze_json("--model.path", HELLO)
    _, kws = analyze_json("--model.path", KWS)
    assert kws["flash"]["kernels"] > hello["flash"]["kernels"]


def test_every_runtime_source_has_a_measured_size():
    """scripts/flash_sizes.py must be rerun when a runtime source is added."""
    inc = (module.ROOT / "src" / "report" / "flash_sizes.inc").read_text()
    measured = set(re.findall(r'TA_KERNEL_SIZE\("([^"]+)"', inc))
    sources = {p.relative_to(module.ROOT).as_posix()
               for p in (module.ROOT / "runtime").rglob("*.c") if "arena" not in p.parts}
    assert sources <= measured, sorted(sources - measured)


def test_unsupported_operators_are_named_and_fail(tmp_path):
    bad = unsupported.model(tmp_path)
    p = tinyaot("analyze", "--model.path", bad)
    assert p.returncode == 1
    errors = [l for l in p.stderr.splitlines() if "is not supported by tinyaot" in l]
    assert any(f"({unsupported.CUSTOM})" in l for l in errors)
    assert any(f"({unsupported.BUILTIN})" in l for l in errors)
    assert f"not every operator is supported: {len(errors)} operator problems" in p.stdout
    p, a = analyze_json("--model.path", bad)
    assert p.returncode == 1 and a["supported"] is False
    assert len(a["unsupported"]) == len(errors)
    assert all(u in e for u, e in zip(a["unsupported"], errors))
    assert "operators" not in a


def test_analyze_takes_the_same_config_as_convert(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(f"model:\n  path: {AD01}\nplatform:\n  name: apollo510_evb\n"
                   "memory:\n  tensors:\n    - type: constant\n      attributes: {memory: SRAM}\n")
    p, a = analyze_json("--config", cfg)
    assert p.returncode == 0, p.stderr
    mem = {m["memory"]: m for m in a["memories"]}
    assert mem["SRAM"]["constants"] > 0 and mem["MRAM"]["constants"] == 0
    p = tinyaot("analyze", "--config", cfg, "--memory.plannr", "greedy")
    assert p.returncode == 1 and "did you mean 'memory.planner'" in p.stderr
    p = tinyaot("analyze", "--model.path", AD01, "--format", "yaml")
    assert p.returncode == 2 and "--format" in p.stderr


def test_convert_prints_the_short_summary_unless_quiet(tmp_path):
    _, a = analyze_json("--model.path", KWS)
    p = tinyaot("convert", "--model.path", KWS, "--module.path", tmp_path / "m")
    assert p.returncode == 0, p.stderr
    m = a["memories"][0]
    assert (f"DRAM: scratch {m['scratch']} bytes (lower bound {m['scratch_lower_bound']}, "
            f"gap {m['gap']}; {m['scratch_planner']}, "
            f"{'proven minimal' if m['scratch_proven'] else 'not proven minimal'})") in p.stdout
    assert f"{a['total_macs']} MACs; flash estimate {a['flash']['total']} bytes" in p.stdout
    p = tinyaot("convert", "--model.path", KWS, "--module.path", tmp_path / "m", "--quiet")
    assert p.returncode == 0 and p.stdout == ""


def test_python_analyze_returns_views_without_a_module(tmp_path):
    import tinyaot
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        r = tinyaot.analyze(model_path=AD01, options={"platform.name": "apollo510_evb"})
    finally:
        os.chdir(cwd)
    assert list(tmp_path.iterdir()) == []
    assert r.module_path is None
    _, a = analyze_json("--model.path", AD01, "--platform.name", "apollo510_evb")
    assert [o.type for o in r.operators] == [o["type"] for o in a["operators"]]
    assert [o.scratch_live for o in r.analysis.operators] == \
        [o["scratch_live"] for o in a["operators"]]
    assert r.analysis.total_macs == a["total_macs"]
    assert r.analysis.flash.total == a["flash"]["total"]
    assert [m.free for m in r.analysis.memories] == [m["free"] for m in a["memories"]]
    with pytest.raises(tinyaot.ConversionError) as e:
        tinyaot.analyze(model_path=unsupported.model(tmp_path))
    assert e.value.status == 3 and len(e.value.analysis.unsupported) >= 2


def test_analyze_tensors_lists_every_tensor_with_its_placement(tmp_path):
    """analyze --tensors (issue 22, finding 6): every tensor of the module
    with id, name, kind, dtype and shape, bytes, memory and offset as the
    residency report has them, and the model tensor a created constant was
    made from; the same in text and JSON."""
    keys = ("--model.path", KWS, "--platform.name", "mps3_an547")
    p, got = analyze_json("--tensors", *keys)
    assert p.returncode == 0, p.stderr
    _, _ = converted_views(tmp_path, KWS, "--platform.name", "mps3_an547")
    res = json.loads((tmp_path / "module" / "v_residency.json").read_text())
    assert [t["id"] for t in got["tensors"]] == [t["id"] for t in res["tensors"]]
    for t, row in zip(got["tensors"], res["tensors"]):
        assert (t["name"], t["memory"], t["bytes"], t["model_tensor"]) == \
            (row["name"], row["memory"], row["size"], row["model_tensor"]), t["id"]
        if row["memory"]:
            assert (t["offset"], t["region"]) == (row["offset"], row["region_id"]), t["id"]
    by_id = {t["id"]: t for t in got["tensors"]}
    assert by_id["0"]["kind"] == "input" and by_id["0"]["shape"] == [1, 49, 10, 1]
    assert by_id["0"]["dtype"] == "int8"
    assert by_id["op0.weights_interleaved"]["model_tensor"] == 17
    assert {t["kind"] for t in got["tensors"]} == {"input", "output", "constant", "scratch"}
    text = tinyaot("analyze", "--tensors", *keys)
    assert text.returncode == 0, text.stderr
    lines = {line.split()[0]: line.split() for line in text.stdout.splitlines()
             if line.split() and line.split()[0] in by_id}
    assert set(lines) == set(by_id)
    row = lines["op0.weights_interleaved"]
    t = by_id["op0.weights_interleaved"]
    assert row[:7] == ["op0.weights_interleaved", "constant",
                       f"int8[{','.join(map(str, t['shape']))}]", str(t["bytes"]), t["memory"],
                       str(t["offset"]), "17"], row
    assert lines["0"][-1] == "input_1"
    # Without --tensors, no list.
    assert "op0.weights_interleaved" not in tinyaot("analyze", *keys).stdout
    assert "tensors" not in analyze_json(*keys)[1]
    assert "--tensors" in tinyaot("analyze", "--help").stdout


def _analyze_case(tmp_path, variant, seed):
    from tests.gen import variants
    case = variants.ALL[variant].case(seed)
    path = tmp_path / f"{variant}-{seed}.tflite"
    path.write_bytes(case.model)
    p, got = analyze_json("--model.path", path)
    assert p.returncode == 0, p.stderr
    return case.config, got


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_analyze_counts_svdf_macs(tmp_path, seed):
    """SVDF (issue 22, finding 9): per batch row each feature weight (the
    filters over the input) and each time weight (the filters over their
    memory), counted by hand from the generator's shapes."""
    cfg, got = _analyze_case(tmp_path, "SVDF.int8", seed)
    filters = cfg["units"] * cfg["rank"]
    hand = cfg["batch"] * filters * (cfg["input_size"] + cfg["memory_size"])
    (op,) = [o for o in got["operators"] if o["type"] == "SVDF"]
    assert op["macs"] == hand and got["total_macs"] == hand


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_analyze_counts_batch_matmul_macs(tmp_path, seed):
    cfg, got = _analyze_case(tmp_path, "BATCH_MATMUL.int8", seed)
    *batch, m, n = cfg["output_shape"]
    k = cfg["lhs_shape"][-2] if cfg["adj_x"] else cfg["lhs_shape"][-1]
    hand = m * n * k
    for b in batch:
        hand *= b
    (op,) = [o for o in got["operators"] if o["type"] == "BATCH_MATMUL"]
    assert op["macs"] == hand and got["total_macs"] == hand


def test_analyze_counts_lstm_macs():
    """tflm_mnist_lstm_int8: 28 time steps of one batch row, 20 cells, 28
    inputs: each step multiplies the four gates' input (20x28) and
    recurrent (20x20) weights once. Text and JSON agree."""
    p, got = analyze_json("--model.path", module.MODELS / "tflm_mnist_lstm_int8.tflite")
    assert p.returncode == 0, p.stderr
    hand = 28 * 4 * (20 * 28 + 20 * 20)
    (op,) = [o for o in got["operators"] if o["type"] == "UNIDIRECTIONAL_SEQUENCE_LSTM"]
    assert op["macs"] == hand == 107520
    fc = [o["macs"] for o in got["operators"] if o["type"] == "FULLY_CONNECTED"]
    assert got["total_macs"] == hand + sum(fc)
    text = tinyaot("analyze", "--model.path", module.MODELS / "tflm_mnist_lstm_int8.tflite")
    row = [line for line in text.stdout.splitlines() if "UNIDIRECTIONAL_SEQUENCE_LSTM" in line]
    assert row and row[0].split()[3] == str(hand), row


def flash_table():
    """path -> {core: bytes} from src/report/flash_sizes.inc (-1: unmeasured)."""
    inc = (module.ROOT / "src" / "report" / "flash_sizes.inc").read_text()
    return {path: dict(zip(("cortex-m55", "cortex-m4", "host"), map(int, sizes.split(","))))
            for path, sizes in re.findall(r'TA_KERNEL_SIZE\("([^"]+)", ([-\d, ]+)\)', inc)}


def test_flash_estimate_uses_the_target_cores_object_sizes(tmp_path):
    """The Cortex-M4 estimate sums Cortex-M4 object sizes, not Cortex-M55
    ones (issue 22, finding 9), and the basis names the core."""
    table = flash_table()
    sources = [p for p, s in table.items() if "ta_conv_2d.c" in p]
    assert sources and all(s["cortex-m55"] != s["cortex-m4"] for s in map(table.get, sources))
    got = {}
    for platform, core in (("mps3_an547", "cortex-m55"), ("mps2_an386", "cortex-m4"),
                           ("host", "host")):
        p, a = analyze_json("--model.path", KWS, "--platform.name", platform)
        assert p.returncode == 0, p.stderr
        f = a["flash"]
        assert f"at their {core} -O2 object size" in f["basis"], f["basis"]
        assert f["unmeasured"] == []
        got[core] = f
    assert len({f["kernels"] for f in got.values()}) == 3, got
    # The kernel bytes are the sum of the runtime sources' sizes for that core.
    views, _ = converted_views(tmp_path, KWS, "--platform.name", "mps2_an386")
    used = sorted(str(p.relative_to(tmp_path / "module")) for p in
                  (tmp_path / "module" / "runtime").rglob("*.c"))
    assert used and got["cortex-m4"]["kernels"] == sum(table[p]["cortex-m4"] for p in used)


def test_a_core_without_measured_sizes_shows_every_source_as_unmeasured(tmp_path):
    target = tmp_path / "m33.yaml"
    target.write_text((module.ROOT / "targets" / "mps2_an386.yaml").read_text()
                      .replace("core: cortex-m4", "core: cortex-m33"))
    p, a = analyze_json("--model.path", HELLO, "--platform.name", target)
    assert p.returncode == 0, p.stderr
    f = a["flash"]
    assert f["unmeasured"] and all(u.startswith("runtime/") for u in f["unmeasured"])
    assert f["kernels"] == 0 and "no sizes measured for core cortex-m33" in f["basis"]
    text = tinyaot("analyze", "--model.path", HELLO, "--platform.name", target).stdout
    assert f"  unmeasured for this core (not counted): {f['unmeasured'][0]}" in text
