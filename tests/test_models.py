"""Real models from ../shared/models, converted, built (with sanitizers when
TINYAOT_SANITIZE=1) and compared byte for byte with TFLite Micro on random
inputs, and with LiteRT as a second opinion."""

import json
import math

import numpy as np
import pytest

from tests import conftest
from tests.harness import difftest, module, oracle, unsupported

MODELS = module.MODELS

# Every shared model, with the number of consecutive random runs compared
# (at least 20; the two foundation models 100).
CONVERTED = {
    "tflm_audio_preprocessor_int8": 100,
    "tflm_hello_world_int8": 100,
    "mlperf_tiny_ad01_int8": 100,
    "tflm_simple_add_model": 100,
    "tflm_keyword_scrambled": 100,
    "tflm_keyword_scrambled_8bit": 100,
    "tflm_mnist_lstm_int8": 100,
    "mlperf_tiny_kws_ref_model": 100,
    "mlperf_tiny_ic_resnet8_quant": 100,
    "tflm_person_detect": 20,
    "tflm_micro_speech_quantized": 100,
}


@pytest.mark.parametrize("name", sorted(CONVERTED))
def test_model_matches_tflm(name, tmp_path):
    report = difftest.compare_model(MODELS / f"{name}.tflite", tmp_path, n_runs=CONVERTED[name],
                                    seed=2026)
    conftest.REPORTS.append(report)
    assert report.runs >= CONVERTED[name] >= 20
    assert report.diff["tflm"] == 0, f"{report.diff['tflm']} bytes differ from TFLite Micro"


@pytest.mark.parametrize("name", ["tflm_keyword_scrambled", "tflm_keyword_scrambled_8bit",
                                  "tflm_mnist_lstm_int8"])
def test_stateful_model_internals_match_tflm(name, tmp_path):
    """The keyword models saturate their outputs on random inputs, so the
    comparison above sees little of their state. Here every operator output
    and every variable tensor (the state after the run) is a model output,
    compared over 100 consecutive runs."""
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as schema
    import flatbuffers

    data = (MODELS / f"{name}.tflite").read_bytes()
    model = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(data, 0))
    sg = model.subgraphs[0]
    outputs = [int(t) for t in sg.outputs]
    for op in sg.operators:
        outputs += [int(t) for t in op.outputs if int(t) not in outputs]
    states = [i for i, t in enumerate(sg.tensors) if t.isVariable]
    assert states
    sg.outputs = outputs + [i for i in states if i not in outputs]
    b = flatbuffers.Builder(0)
    b.Finish(model.Pack(b), file_identifier=b"TFL3")
    report = difftest.compare_model(bytes(b.Output()), tmp_path, n_runs=100, seed=2027,
                                    name=f"{name} (internals)", litert=False)
    conftest.REPORTS.append(report)
    assert report.diff["tflm"] == 0, f"{report.diff['tflm']} bytes differ from TFLite Micro"


def test_hello_world_computes_sine(tmp_path):
    """The upstream example's check: x in {0.77, 1.57, 2.3, 3.14} as int8
    {-96, -63, -34, 0}; the dequantized output is within 0.05 of sin(x)."""
    m = module.convert(MODELS / "tflm_hello_world_int8.tflite", tmp_path / "hw")
    exe = module.build(m)
    ins, outs = oracle.io_details((MODELS / "tflm_hello_world_int8.tflite").read_bytes())
    in_scale, in_zp = ins[0].scales[0], ins[0].zero_points[0]
    out_scale, out_zp = outs[0].scales[0], outs[0].zero_points[0]
    qs = [-96, -63, -34, 0]
    results = module.run(m, exe, [[np.array([[q]], dtype=np.int8)] for q in qs])
    for q, r in zip(qs, results):
        x = (q - in_zp) * in_scale
        y = (int(r[0].reshape(-1)[0]) - out_zp) * out_scale
        assert abs(y - math.sin(x)) < 0.05, f"x={x:.3f}: got {y:.4f}, sin(x)={math.sin(x):.4f}"


def test_unsupported_custom_operators_are_named(tmp_path):
    """A custom operator tinyaot does not know and an unsupported builtin:
    the conversion fails with one line per operator and writes nothing."""
    out = tmp_path / "pre"
    with pytest.raises(module.ConvertError) as e:
        module.convert(unsupported.model(tmp_path), out)
    lines = [l for l in e.value.stderr.splitlines() if l.strip()]
    assert all(l.startswith("tinyaot: error:") for l in lines)
    assert [l for l in lines if "custom operator" in l] == [
        l for l in lines if f"operator 0 ({unsupported.CUSTOM})" in l]
    assert len(lines) == 2 and f"operator 17 ({unsupported.BUILTIN})" in lines[1]
    assert not out.exists()
    assert not list(tmp_path.glob("pre.tinyaot-*"))


def test_every_shared_model_converts_or_names_its_unsupported_operators(tmp_path):
    for path in sorted(MODELS.glob("*.tflite")):
        out = tmp_path / path.stem
        try:
            module.convert(path, out)
            assert (out / "m_model.h").exists()
        except module.ConvertError as e:
            lines = [l for l in e.stderr.splitlines() if l.strip()]
            assert lines, path
            for l in lines:
                assert l.startswith("tinyaot: error: ") and path.name in l, l
                assert "operator" in l, l
            assert not out.exists()


@pytest.mark.parametrize("name", sorted(CONVERTED))
def test_scratch_arena_near_lower_bound_and_below_tflm(name, tmp_path):
    """The scratch arena is within 1% of the lower bound (the most bytes live
    at one operator) and never larger than the planned (non-persistent) part
    of TFLite Micro's arena for the same model."""
    path = MODELS / f"{name}.tflite"
    m = module.convert(path, tmp_path / "m", keys={"memory.dump_residency_json": "true"})
    res = json.loads((m.path / "m_residency.json").read_text())
    scratch = [r for r in res["regions"] if r["role"] == "scratch"]
    size = sum(r["size"] for r in scratch)
    bound = sum(r["lower_bound"] for r in scratch)
    tflm = oracle.tflm_arena(path.read_bytes(), isolated=True)
    conftest.ARENAS.append((name, size, bound, tflm["total"], tflm["head"]))
    assert size <= bound * 1.01, f"scratch {size} is more than 1% above the lower bound {bound}"
    assert size <= tflm["head"], f"scratch {size} exceeds TFLM's planned arena {tflm['head']}"
