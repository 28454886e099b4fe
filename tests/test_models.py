"""Real models from ../shared/models, converted, built (with sanitizers when
TINYAOT_SANITIZE=1) and compared byte for byte with TFLite Micro on random
inputs, and with LiteRT as a second opinion."""

import math

import numpy as np
import pytest

from tests import conftest
from tests.harness import difftest, module, oracle

MODELS = module.MODELS

# Models tinyaot converts today, with the number of random runs compared.
CONVERTED = {
    "tflm_hello_world_int8": 100,
    "mlperf_tiny_ad01_int8": 100,
    "tflm_micro_speech_quantized": 100,
}


@pytest.mark.parametrize("name", sorted(CONVERTED))
def test_model_matches_tflm(name, tmp_path):
    report = difftest.compare_model(MODELS / f"{name}.tflite", tmp_path, n_runs=CONVERTED[name],
                                    seed=2026)
    conftest.REPORTS.append(report)
    assert report.runs >= 100
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
    """The audio preprocessor uses custom Signal operators: the conversion
    fails with one line per unsupported operator and writes nothing."""
    out = tmp_path / "pre"
    with pytest.raises(module.ConvertError) as e:
        module.convert(MODELS / "tflm_audio_preprocessor_int8.tflite", out)
    lines = [l for l in e.value.stderr.splitlines() if l.strip()]
    assert any("SignalWindow" in l and "operator 0" in l for l in lines)
    assert all(l.startswith("tinyaot: error:") for l in lines)
    custom = [l for l in lines if "custom operator" in l]
    assert len(custom) == 9
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
