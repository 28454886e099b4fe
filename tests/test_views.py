"""Views (conversion-views spec): the C API, the JSON file and the Python
package describe every conversion identically; the Python classes carry the
spec's names; placements agree with the residency report; MAC counts follow
the spec; the table schedule's callback matches the operator views."""

import dataclasses
import json
import pathlib
import re
import subprocess

import pytest

from tests.harness import module, unsupported

SPEC = module.SHARED / "spec" / "conversion-views.txt"
HELLO = module.MODELS / "tflm_hello_world_int8.tflite"
AD01 = module.MODELS / "mlperf_tiny_ad01_int8.tflite"

# Models whose views are compared: every shared model.
MODELS = sorted(p.stem for p in module.MODELS.glob("*.tflite"))


def views_dump():
    return module.ROOT / "build" / "tests" / "unit" / "views_dump"


def python_views(keys):
    import tinyaot
    r = tinyaot.convert(options=keys)

    def plain(x):
        if dataclasses.is_dataclass(x):
            return {f.name: plain(getattr(x, f.name)) for f in dataclasses.fields(x)}
        if isinstance(x, (tuple, list)):
            return [plain(v) for v in x]
        if hasattr(x, "items"):
            return {k: plain(v) for k, v in x.items()}
        return x
    return {"operators": plain(r.operators), "tensors": plain(r.tensors),
            "regions": plain(r.regions), "placements": plain(r.placements)}, \
        dict(r.model_tensors)


@pytest.mark.parametrize("name", MODELS)
def test_c_json_and_python_views_agree(name, tmp_path):
    keys = {"model.path": str(module.MODELS / f"{name}.tflite"), "module.prefix": "v",
            "memory.dump_residency_json": "true", "platform.name": "apollo510_evb"}
    c_keys = dict(keys, **{"module.path": str(tmp_path / "c")})
    args = [a for kv in c_keys.items() for a in kv]
    p = subprocess.run([str(views_dump()), *args], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    from_c = json.loads(p.stdout)
    from_json = json.loads((tmp_path / "c" / "v_views.json").read_text())
    assert from_json["schema"] == "tinyaot.views" and from_json["version"] == 1
    from_py, py_model_tensors = python_views(dict(keys, **{"module.path": str(tmp_path / "py")}))
    # model_tensor: beside the spec's fields (Python: result.model_tensors).
    c_model_tensors = {t["id"]: t.pop("model_tensor") for t in from_c["tensors"]}
    assert c_model_tensors == {t["id"]: t.pop("model_tensor") for t in from_json["tensors"]}
    assert c_model_tensors == py_model_tensors
    assert all(c_model_tensors[i] == int(i) for i in c_model_tensors if i.isdigit())
    # stored_format, dense_nbytes: beside the spec's fields too (docs/compressed-models.md).
    for extra in ("stored_format", "dense_nbytes"):
        c_extra = {t["id"]: t.pop(extra) for t in from_c["tensors"]}
        assert c_extra == {t["id"]: t.pop(extra) for t in from_json["tensors"]}, extra
    for part in ("operators", "tensors", "regions", "placements"):
        assert from_c[part] == from_json[part], part
        assert from_py[part] == from_json[part], part
    # Placements agree with the residency report.
    res = json.loads((tmp_path / "c" / "v_residency.json").read_text())
    for row in res["tensors"]:
        pl = from_json["placements"][row["id"]]
        assert (pl["region"], pl["offset"], pl["size"], pl["source_memory"], pl["staged"]) == \
            (row["region_id"], row["offset"], row["size"], row["source_memory"], row["staged"])
    # Index invariants of the spec.
    for i, op in enumerate(from_json["operators"]):
        assert op["layer_index"] == i
        assert op["symbol"] == f"v_{op['type'].lower()}_{op['source_indices'][0]}"
        assert not set(op["local_tensor_ids"]) & set(op["input_ids"] + op["output_ids"])
    for i, r in enumerate(from_json["regions"]):
        assert r["id"] == i
    ids = [t["id"] for t in from_json["tensors"]]
    assert ids == list(from_json["placements"])
    header = (tmp_path / "c" / "v_internal.h").read_text()
    enum = re.findall(r"V_TENSOR_(\w+) = (\d+),", header)
    assert [int(n) for _, n in enum] == list(range(len(ids)))


def spec_fields():
    """Class name -> field names, read from the spec's signatures."""
    text = SPEC.read_text()
    out = {}
    for m in re.finditer(r"```python\n(\w+View)\((.*?)\) -> None\n```", text, re.S):
        out[m.group(1)] = re.findall(r"(\w+):", m.group(2))
    return out


def test_python_classes_match_the_spec_name_for_name():
    import tinyaot
    from tinyaot import views
    fields = spec_fields()
    assert set(fields) == {"OperatorView", "QuantizationView", "TensorView", "RegionView",
                           "PlacementView"}
    for cls, names in fields.items():
        dc = getattr(views, cls)
        assert getattr(tinyaot, cls) is dc
        assert dataclasses.is_dataclass(dc) and dc.__dataclass_params__.frozen
        assert [f.name for f in dataclasses.fields(dc)] == names, cls


def test_views_are_frozen(tmp_path):
    import tinyaot
    r = tinyaot.convert(model_path=HELLO, module_path=tmp_path / "m")
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.operators[0].macs = 0
    with pytest.raises(TypeError):
        r.operators[0].kernel_calls["run"] = "x"


def test_python_conversion_errors(tmp_path):
    import tinyaot
    with pytest.raises(tinyaot.ConversionError) as e:
        tinyaot.convert(model_path=unsupported.model(tmp_path), module_path=tmp_path / "m")
    assert e.value.status == 3 and any(unsupported.CUSTOM in d for d in e.value.diagnostics)


def test_out_of_memory_is_an_error_not_an_abort(tmp_path, monkeypatch):
    """A failed allocation inside the library (the test hook fails the 50th)
    raises ConversionError in this process, which then converts again."""
    import tinyaot
    monkeypatch.setenv("TINYAOT_DEBUG_FAIL_ALLOC", "50")
    with pytest.raises(tinyaot.ConversionError) as e:
        tinyaot.convert(model_path=HELLO, module_path=tmp_path / "m")
    assert e.value.status == 7 and len(e.value.diagnostics) == 1
    assert re.fullmatch(r"error: out of memory: an allocation of \d+ bytes failed",
                        e.value.diagnostics[0])
    assert not (tmp_path / "m").exists()
    monkeypatch.delenv("TINYAOT_DEBUG_FAIL_ALLOC")
    assert len(tinyaot.convert(model_path=HELLO, module_path=tmp_path / "m").operators) == 3


def test_mac_counts_of_ad01(tmp_path):
    """AD01 is ten FULLY_CONNECTED layers 640-128-128-128-128-8-128-128-128-128-640
    on one row each: MACs = sum of in*out."""
    import tinyaot
    r = tinyaot.convert(model_path=AD01, module_path=tmp_path / "m")
    widths = [640, 128, 128, 128, 128, 8, 128, 128, 128, 128, 640]
    expected = sum(a * b for a, b in zip(widths, widths[1:]))
    assert expected == 264192
    assert sum(op.macs for op in r.operators) == expected
    assert [op.macs for op in r.operators] == [a * b for a, b in zip(widths, widths[1:])]
    # Parameters: weights plus biases.
    assert sum(op.parameters for op in r.operators) == expected + sum(widths[1:])


def test_table_schedule_callback_follows_the_views(tmp_path):
    import tinyaot
    r = tinyaot.convert(model_path=AD01, module_path=tmp_path / "m", prefix="t",
                        options={"module.schedule": "table"})
    n = len(r.operators)
    m = module.Module(tmp_path / "m", "t", {}, "", "")
    main_c = """
#include <stdio.h>
#include <string.h>
#include "t_model.h"
static int log_event[256], log_op[256], log_status[256], count;
static void *seen_user;
static void record(int32_t op, t_operator_state_t state, int32_t status, void *user)
{
    seen_user = user;
    if (count < 256) { log_event[count] = state; log_op[count] = op; log_status[count] = status; }
    count++;
}
int main(void)
{
    t_model_context_t ctx;
    memset(&ctx, 0, sizeof ctx);
    if (t_model_init(&ctx) != 0) return 1;
    if (t_model_run(&ctx) != 0 || count != 0) return 2;   /* NULL callback: no calls */
    ctx.callback = record;
    ctx.user_data = &ctx;
    if (t_model_run(&ctx) != 0) return 3;
    if (seen_user != &ctx) return 4;
    for (int i = 0; i < count; i++) printf("%d %d %d\\n", log_event[i], log_op[i], log_status[i]);
    return 0;
}
"""
    src = tmp_path / "main.c"
    src.write_text(main_c)
    exe = tmp_path / "main"
    c = subprocess.run(["cc", *module.cflags(), "-I", str(m.path), str(src),
                        *module.cached_sources(m.path, "cc"), "-lm", "-o", str(exe)],
                       capture_output=True,
                       text=True)
    assert c.returncode == 0, c.stderr
    p = subprocess.run([str(exe)], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    got = [tuple(map(int, line.split())) for line in p.stdout.split("\n") if line]
    want = []
    for op in r.operators:  # run_started (2), run_finished (3)
        want += [(2, op.layer_index, 0), (3, op.layer_index, 0)]
    assert got == want and len(got) == 2 * n


def test_default_schedule_is_straight_line_calls(tmp_path):
    import tinyaot
    tinyaot.convert(model_path=AD01, module_path=tmp_path / "m", prefix="s")
    src = (tmp_path / "m" / "s_model.c").read_text()
    assert "s_schedule" not in src and "callback(" not in src
    assert src.count("_run()) != TA_OK") == 10


def test_mac_counts_of_kws(tmp_path):
    """DS-CNN on 49x10x1: CONV 10x4x1x64 stride 2 -> 25x5x64, then four
    blocks of DEPTHWISE 3x3x64 and CONV 1x1 64->64 on 25x5, average pool,
    FULLY_CONNECTED 64->12."""
    import tinyaot
    r = tinyaot.convert(model_path=module.MODELS / "mlperf_tiny_kws_ref_model.tflite",
                        module_path=tmp_path / "m")
    rows = 25 * 5
    first = 10 * 4 * 1 * 64 * rows
    block = 3 * 3 * 64 * rows + 64 * 64 * rows
    expected = first + 4 * block + 64 * 12
    assert expected == 2656768
    assert sum(op.macs or 0 for op in r.operators) == expected
    pools = [op for op in r.operators if op.type == "AVERAGE_POOL_2D"]
    assert pools and all(op.macs == 0 and op.parameters == 0 for op in pools)
    assert all(op.macs is None for op in r.operators if op.type in ("RESHAPE", "SOFTMAX"))


def test_mac_counts_of_resnet8(tmp_path):
    """ResNet-8 on 32x32x3: CONV 3x3 3->16; a 16-channel stack of two 3x3
    convs at 32x32; stacks of 32 and 64 channels at 16x16 and 8x8, each a
    strided 3x3, a 3x3 and a strided 1x1 shortcut; FULLY_CONNECTED 64->10."""
    import tinyaot
    r = tinyaot.convert(model_path=module.MODELS / "mlperf_tiny_ic_resnet8_quant.tflite",
                        module_path=tmp_path / "m")

    def conv(k, cin, cout, side):
        return k * k * cin * cout * side * side
    expected = (conv(3, 3, 16, 32) + 2 * conv(3, 16, 16, 32)
                + conv(3, 16, 32, 16) + conv(3, 32, 32, 16) + conv(1, 16, 32, 16)
                + conv(3, 32, 64, 8) + conv(3, 64, 64, 8) + conv(1, 32, 64, 8)
                + 64 * 10)
    assert expected == 12501632
    assert sum(op.macs or 0 for op in r.operators) == expected


def test_binding_reads_the_struct_layout_of_the_header():
    """python/tinyaot/_native.py mirrors include/tinyaot/tinyaot.h's structs;
    both name the layout, and the binding refuses a library of another."""
    import re

    from tinyaot import _native
    header = (module.ROOT / "include" / "tinyaot" / "tinyaot.h").read_text()
    declared = int(re.search(r"#define TINYAOT_ABI_VERSION (\d+)", header).group(1))
    assert _native.ABI_VERSION == declared
    assert _native.load().tinyaot_abi_version() == declared
