"""Generated code without repeats (issue 23, code per model): identical
parameter structs of different layers are one struct."""

import re

from tests.harness import difftest, module

KWS = module.MODELS / "mlperf_tiny_kws_ref_model.tflite"  # 4 identical DS-CNN blocks

DEFINITION = re.compile(r"^(?:static )?const (\w+) (\w+_params\d+) = \{\n(.*?)^\};", re.M | re.S)


def test_identical_parameters_are_one_struct(tmp_path):
    # Layers run alone: a row chain's layers pass their structs to band
    # functions (docs/row-streaming.md), which this test does not cover.
    report = difftest.compare_model(KWS, tmp_path, n_runs=3, seed=5, litert=False,
                                    keys={"memory.row_streaming": "off"})
    assert report.diff["tflm"] == 0
    ops = {p.name: p.read_text() for p in (tmp_path / "module" / "ops").glob("*.c")}
    defined = {}
    for text in ops.values():
        for type_, name, body in DEFINITION.findall(text):
            assert (type_, body) not in defined.values(), f"{name} repeats a struct"
            defined[name] = (type_, body)
    passed = [re.search(r"ta_\w+\(&(\w+_params\d+)", text).group(1) for text in ops.values()]
    assert all(name in defined for name in passed)
    # Three 1x1 convolutions pass the first one's, two depthwise the second's.
    assert len(passed) - len(set(passed)) == 5
    for name in set(passed) - {n for n in passed if passed.count(n) == 1}:
        owner = next(t for t in ops.values() if re.search(rf"^const \w+ {name} = ", t, re.M))
        assert re.search(rf"^extern const \w+ {name};", owner, re.M)

