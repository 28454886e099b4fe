"""Graph transforms (conversion-views spec): each keeps outputs bit-exact
with TFLite Micro, and the views report what the spec says."""

import json

import numpy as np
import pytest

from tests.gen.builder import ModelBuilder, Q
from tests.harness import difftest, module


def fc_weights(rng, rows, cols):
    return rng.integers(-127, 128, (rows, cols)).astype(np.int8)


def shape_expression_model(seed=0):
    """input [1,4,6,2] -> SHAPE -> STRIDED_SLICE (batch) -> PACK([batch, 48])
    -> RESHAPE -> FULLY_CONNECTED: the pattern Keras exports for Flatten."""
    rng = np.random.default_rng(seed)
    b = ModelBuilder()
    x = b.tensor([1, 4, 6, 2], "int8", Q(0.05, 3), name="x")
    shape = b.tensor([4], "int32", name="shape")
    batch = b.tensor([], "int32", name="batch")
    packed = b.tensor([2], "int32", name="packed")
    flat = b.tensor([1, 48], "int8", Q(0.05, 3), name="flat")
    y = b.tensor([1, 10], "int8", Q(0.2, -7), name="y")
    begin = b.const(np.array([0], np.int32), "int32", name="begin")
    end = b.const(np.array([1], np.int32), "int32", name="end")
    stride = b.const(np.array([1], np.int32), "int32", name="stride")
    width = b.const(np.array(48, np.int32), "int32", name="width", shape=[])
    w = b.const(fc_weights(rng, 10, 48), "int8", Q(0.01, 0), name="w")
    bias = b.const(rng.integers(-500, 500, 10).astype(np.int32), "int32", Q(0.0005, 0), name="b")
    b.op("SHAPE", [x], [shape], "ShapeOptions", outType=2)
    b.op("STRIDED_SLICE", [shape, begin, end, stride], [batch], "StridedSliceOptions",
         shrinkAxisMask=1)
    b.op("PACK", [batch, width], [packed], "PackOptions", valuesCount=2, axis=0)
    b.op("RESHAPE", [x, packed], [flat])
    b.op("FULLY_CONNECTED", [flat, w, bias], [y], "FullyConnectedOptions")
    return b.build(inputs=[x], outputs=[y])


def relu_chain_model(seed=0):
    """FC -> RELU -> FC -> RELU6 -> FC (fused RELU) -> RELU: every standalone
    activation has the quantization of its input."""
    rng = np.random.default_rng(seed)
    b = ModelBuilder()
    x = b.tensor([1, 16], "int8", Q(0.1, -5), name="x")
    h1 = b.tensor([1, 12], "int8", Q(0.15, -20), name="h1")
    r1 = b.tensor([1, 12], "int8", Q(0.15, -20), name="r1")
    h2 = b.tensor([1, 12], "int8", Q(0.05, 10), name="h2")
    r2 = b.tensor([1, 12], "int8", Q(0.05, 10), name="r2")
    h3 = b.tensor([1, 8], "int8", Q(0.2, -3), name="h3")
    r3 = b.tensor([1, 8], "int8", Q(0.2, -3), name="r3")
    consts = [(b.const(fc_weights(rng, 12, 16), "int8", Q(0.02, 0)), 12),
              (b.const(fc_weights(rng, 12, 12), "int8", Q(0.02, 0)), 12),
              (b.const(fc_weights(rng, 8, 12), "int8", Q(0.02, 0)), 8)]
    b.op("FULLY_CONNECTED", [x, consts[0][0]], [h1], "FullyConnectedOptions")
    b.op("RELU", [h1], [r1])
    b.op("FULLY_CONNECTED", [r1, consts[1][0]], [h2], "FullyConnectedOptions")
    b.op("RELU6", [h2], [r2])
    b.op("FULLY_CONNECTED", [r2, consts[2][0]], [h3], "FullyConnectedOptions",
         fusedActivationFunction="RELU")
    b.op("RELU", [h3], [r3])
    return b.build(inputs=[x], outputs=[r3])


def convert_and_compare(tmp_path, data, keys=None, name="m"):
    report = difftest.compare_model(data, tmp_path / name, n_runs=50, seed=3, keys=keys)
    assert report.diff["tflm"] == 0, report
    return json.loads((tmp_path / name / "module" / "m_views.json").read_text())


def test_fold_static_shape_expressions(tmp_path):
    data = shape_expression_model()
    views = convert_and_compare(tmp_path, data)
    types = [op["type"] for op in views["operators"]]
    assert types == ["RESHAPE", "FULLY_CONNECTED"]
    indices = [i for op in views["operators"] for i in op["source_indices"]]
    assert indices == [3, 4]  # SHAPE, STRIDED_SLICE and PACK (0-2) appear nowhere
    # The reshape costs nothing: its output shares the input's bytes.
    assert views["operators"][0]["kernel_calls"] == {}
    assert views["placements"]["4"] == {**views["placements"]["0"]}


def empty_broadcast_model(op, empty_first=True, seed=0):
    """SHAPE of a scalar is an empty vector; `op` of it with a one-element
    vector is empty too (TFLite broadcasting), so CONCATENATION with [1, 48]
    gives RESHAPE the shape [1, 48]."""
    rng = np.random.default_rng(seed)
    b = ModelBuilder()
    x = b.tensor([1, 4, 6, 2], "int8", Q(0.05, 3), name="x")
    scalar = b.const(np.array(3, np.int32), "int32", name="scalar", shape=[])
    empty = b.tensor([0], "int32", name="empty")
    one = b.const(np.array([7], np.int32), "int32", name="one")
    result = b.tensor([0], "int32", name="result")
    tail = b.const(np.array([1, 48], np.int32), "int32", name="tail")
    packed = b.tensor([2], "int32", name="packed")
    flat = b.tensor([1, 48], "int8", Q(0.05, 3), name="flat")
    y = b.tensor([1, 10], "int8", Q(0.2, -7), name="y")
    w = b.const(fc_weights(rng, 10, 48), "int8", Q(0.01, 0), name="w")
    b.op("SHAPE", [scalar], [empty], "ShapeOptions", outType=2)
    options = {"ADD": "AddOptions", "SUB": "SubOptions", "MUL": "MulOptions"}[op]
    b.op(op, [empty, one] if empty_first else [one, empty], [result], options)
    b.op("CONCATENATION", [result, tail], [packed], "ConcatenationOptions", axis=0)
    b.op("RESHAPE", [x, packed], [flat])
    b.op("FULLY_CONNECTED", [flat, w], [y], "FullyConnectedOptions")
    return b.build(inputs=[x], outputs=[y])


@pytest.mark.parametrize("op", ["ADD", "SUB", "MUL"])
@pytest.mark.parametrize("empty_first", [True, False])
def test_fold_broadcasts_an_empty_vector_to_an_empty_vector(tmp_path, op, empty_first):
    # Used to take the one-element side's length and read the empty side's
    # (uninitialized) first element; the fold was then refused.
    views = convert_and_compare(tmp_path, empty_broadcast_model(op, empty_first))
    assert [o["type"] for o in views["operators"]] == ["RESHAPE", "FULLY_CONNECTED"]


def test_fold_static_shape_expressions_can_be_disabled(tmp_path):
    """Off, the shape expression runs in the module (SHAPE, STRIDED_SLICE and
    PACK are operators of their own) and the result is still TFLM's."""
    off = {"transforms": {"FOLD_STATIC_SHAPE_EXPRESSIONS": False}}
    report = difftest.compare_model(shape_expression_model(), tmp_path / "off", keys=off)
    assert report.diff["tflm"] == 0 and report.bytes > 0
    path = tmp_path / "shape.tflite"
    path.write_bytes(shape_expression_model())
    m = module.convert(path, tmp_path / "views", keys=off)
    assert [op["type"] for op in m.views["operators"]][:3] == ["SHAPE", "STRIDED_SLICE", "PACK"]


def test_fuse_activations(tmp_path):
    data = relu_chain_model()
    views = convert_and_compare(tmp_path, data)
    ops = views["operators"]
    assert [op["type"] for op in ops] == ["FULLY_CONNECTED"] * 3
    assert [op["source_indices"] for op in ops] == [[0], [2], [4]]
    assert [op["output_ids"] for op in ops] == [["2"], ["4"], ["6"]]  # r1, r2, r3
    ids = {t["id"] for t in views["tensors"]}
    assert not ids & {"1", "3", "5"}  # the pre-activation tensors are gone


def test_fuse_activations_off_keeps_the_operators(tmp_path):
    views = convert_and_compare(tmp_path, relu_chain_model(),
                                keys={"transforms": ["FOLD_STATIC_SHAPE_EXPRESSIONS"]})
    assert [op["type"] for op in views["operators"]] == [
        "FULLY_CONNECTED", "RELU", "FULLY_CONNECTED", "RELU6", "FULLY_CONNECTED", "RELU"]


def test_unknown_transform_is_an_error(tmp_path):
    with pytest.raises(module.ConvertError) as e:
        module.convert(_write(tmp_path, relu_chain_model()), tmp_path / "x",
                       keys={"transforms": {"FUSE_ACTIVATION": True}})
    assert "unknown transform 'FUSE_ACTIVATION'" in e.value.stderr
    assert "did you mean 'FUSE_ACTIVATIONS'" in e.value.stderr


def _write(tmp_path, data):
    p = tmp_path / "model.tflite"
    p.write_bytes(data)
    return p


def test_depthwise_to_conv(tmp_path):
    """micro_speech starts with a depthwise convolution over one input
    channel: it is generated as CONV_2D, keeps its model index, and the model
    stays bit-exact; with the transform off it stays DEPTHWISE_CONV_2D."""
    path = module.MODELS / "tflm_micro_speech_quantized.tflite"
    on = difftest.compare_model(path, tmp_path / "on", n_runs=30, seed=4)
    off = difftest.compare_model(path, tmp_path / "off", n_runs=30, seed=4,
                                 keys={"transforms": {"DEPTHWISE_TO_CONV": False}})
    assert on.diff["tflm"] == 0 and off.diff["tflm"] == 0
    v_on = json.loads((tmp_path / "on" / "module" / "m_views.json").read_text())
    v_off = json.loads((tmp_path / "off" / "module" / "m_views.json").read_text())
    first_off = [op for op in v_off["operators"] if op["type"] == "DEPTHWISE_CONV_2D"][0]
    first_on = v_on["operators"][first_off["layer_index"]]
    index = first_off["source_indices"]
    assert (first_on["type"], first_on["source_indices"]) == ("CONV_2D", index)
    assert first_on["symbol"] == f"m_conv_2d_{index[0]}"
    assert first_on["macs"] == first_off["macs"] and first_on["parameters"] == first_off["parameters"]


def test_depthwise_to_conv_on_generated_chains(tmp_path):
    from tests.gen import variants
    v = variants.ALL["CHAIN.dw_conv"]
    rng = np.random.default_rng(21)
    for i in range(8):
        case = v.draw(rng)
        views = convert_and_compare(tmp_path, case.model, name=f"c{i}")
        types = [op["type"] for op in views["operators"]]
        assert "DEPTHWISE_CONV_2D" not in types and "CONV_2D" in types, types


def test_docs_list_every_transform_in_run_order(tmp_path):
    """Issue 27.7: docs/operators.md's table of transforms names every
    transform the converter has, in the order it runs them (the converter
    lists its passes when asked for an unknown one)."""
    import re
    import subprocess

    run = subprocess.run(
        [module.tinyaot_bin(), "convert", "--model.path", str(module.MODELS / "tflm_hello_world_int8.tflite"),
         "--module.path", str(tmp_path / "m"), "--dump-after", "no_such_pass"],
        capture_output=True, text=True)
    assert run.returncode != 0
    passes = re.search(r"the passes: ([^)]*)\)", run.stderr).group(1).split(", ")
    transforms = [p for p in passes if p.isupper()]
    assert len(transforms) >= 9, passes
    doc = (module.ROOT / "docs" / "operators.md").read_text()
    documented = re.findall(r"^\| `([A-Z_]+)` \|", doc, re.M)
    assert documented == transforms, "docs/operators.md's transforms table is out of date or order"
