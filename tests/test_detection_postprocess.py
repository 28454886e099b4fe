"""TFLite_Detection_PostProcess, TFLite Micro's custom operator (float32):
a detector's int8 body feeding it through DEQUANTIZE, bit-exact with TFLite
Micro (and on Cortex-M55 under QEMU, newlib's exp); identical boxes at an
IoU threshold of 1 (kept: the test is IoU > threshold); float options
written as 64-bit floats or integers; a run whose decoded boxes fail TFLite Micro's
ValidateBoxes fails in ours with TA_ERR_KERNEL; and each refusal with its
one line, asserting that TFLite Micro fails the same model where it does
(the rest are models it would run past its buffers or reads oddly)."""

import numpy as np
import pytest
from flatbuffers import flexbuffers

from tests.gen.builder import ModelBuilder, Q
from tests.gen.ops.detection import fast_compare
from tests.harness import module, oracle
from tests.harness.refusals import refusal, tflm_fails

OP = "TFLite_Detection_PostProcess"
OPTIONS = {"max_detections": 5, "max_classes_per_detection": 1, "detections_per_class": 3,
           "use_regular_nms": False, "nms_score_threshold": 0.25, "nms_iou_threshold": 0.5,
           "num_classes": 3, "y_scale": 10.0, "x_scale": 10.0, "h_scale": 5.0, "w_scale": 5.0}


def _anchors(n, h=0.5):
    rng = np.random.default_rng(n)
    yx = rng.integers(0, 4, size=[n, 2]) / 8.0
    return np.concatenate([yx, np.full([n, 2], h)], axis=1).astype(np.float32)


def _outputs(b, entries, rows=None):
    rows = rows or [1, entries]
    return [b.tensor([1, entries, 4], "float32", name="detection_boxes"),
            b.tensor(rows, "float32", name="detection_classes"),
            b.tensor(rows, "float32", name="detection_scores"),
            b.tensor([1], "float32", name="num_detections")]


def _postprocess_model(n=8, options=None, depth=4, columns=3, batch=(1, 1), anchors=None,
                       entries=5, dtype="float32", anchor_rows=None, options_bytes=None):
    """Box encodings and class predictions as inputs, constant anchors."""
    options = {**OPTIONS, **(options or {})}
    b = ModelBuilder()
    q = Q(0.05, 0) if dtype != "float32" else None
    box = b.tensor([batch[0], n, depth], dtype, q, name="box_encodings")
    cls = b.tensor([batch[1], n, columns], dtype, q, name="class_predictions")
    anc = b.const(anchors if anchors is not None else _anchors(anchor_rows or n), "float32",
                  name="anchors")
    outs = _outputs(b, entries)
    b.custom_op(OP, [box, cls, anc], outs, options_bytes or flexbuffers.Dumps(options))
    return b.build([box, cls], outs)


def _conv_body_model(hw=4, classes=3):
    """int8 [1, hw, hw, 3] -> two 1x1 CONV_2Ds (4 box values, classes + 1
    scores) -> RESHAPE -> DEQUANTIZE -> TFLite_Detection_PostProcess."""
    rng = np.random.default_rng(4)
    b = ModelBuilder()
    in_q = Q(0.02, -3)
    x = b.tensor([1, hw, hw, 3], "int8", in_q, name="image")
    n = hw * hw
    heads = []
    for name, depth, out_q in [("box", 4, Q(0.01, 2)), ("class", classes + 1, Q(1 / 128, -128))]:
        w_q = Q(0.01, 0)
        w = b.const(rng.integers(-127, 128, size=[depth, 1, 1, 3]), "int8", w_q,
                    name=name + "_weights")
        bias = b.const(rng.integers(-500, 500, size=[depth]), "int32", Q(0.02 * 0.01, 0),
                       name=name + "_bias")
        y = b.tensor([1, hw, hw, depth], "int8", out_q, name=name + "_conv")
        b.op("CONV_2D", [x, w, bias], [y], "Conv2DOptions", padding="VALID", strideH=1,
             strideW=1, dilationHFactor=1, dilationWFactor=1, fusedActivationFunction="NONE")
        shape = b.const(np.array([1, n, depth], np.int32), "int32", name=name + "_shape")
        r = b.tensor([1, n, depth], "int8", out_q, name=name + "_rows")
        b.op("RESHAPE", [y, shape], [r])
        f = b.tensor([1, n, depth], "float32", name=name + "_float")
        b.op("DEQUANTIZE", [r], [f])
        heads.append(f)
    anc = b.const(_anchors(n), "float32", name="anchors")
    outs = _outputs(b, 6)
    options = {**OPTIONS, "num_classes": classes, "max_detections": 6, "nms_score_threshold": 0.3}
    b.custom_op(OP, [heads[0], heads[1], anc], outs, flexbuffers.Dumps(options))
    return b.build([x], outs)


def _bits(outputs):
    return [np.asarray(o, np.float32).view(np.uint32) for o in outputs]


def _convert_run(model, runs, tmp_path):
    (tmp_path / "m.tflite").write_bytes(model)
    m = module.convert(tmp_path / "m.tflite", tmp_path / "mod")
    return m, module.run(m, module.build(m), runs)


def _conv_runs():
    rng = np.random.default_rng(11)
    return [[rng.integers(-128, 128, size=[1, 4, 4, 3], dtype=np.int8)] for _ in range(3)]


def test_int8_body_then_detection_matches_tflite_micro(tmp_path):
    model, runs = _conv_body_model(), _conv_runs()
    ref = oracle.run_tflm(model, runs, isolated=True)
    _, ours = _convert_run(model, runs, tmp_path)
    assert any(r[3][0] > 0 for r in ref)  # detections are made
    total, diff = fast_compare(ours, ref)
    assert total > 0 and diff == 0


@pytest.mark.parametrize("regular", [False, True])
def test_identical_boxes_at_iou_threshold_one_are_kept(tmp_path, regular):
    anchors = np.tile(np.array([[0.5, 0.5, 0.25, 0.25]], np.float32), [4, 1])
    model = _postprocess_model(4, {"nms_iou_threshold": 1.0, "use_regular_nms": regular,
                                   "nms_score_threshold": 0.0}, anchors=anchors)
    runs = [[np.zeros([1, 4, 4], np.float32),
             np.array([[[0.5, 0.5, 0.25], [0.5, 0.75, 0.5], [0.5, 0.5, 0.5], [0.25, 0.25, 0.25]]],
                      np.float32)]]
    ref = oracle.run_tflm(model, runs, isolated=True)
    _, ours = _convert_run(model, runs, tmp_path)
    assert ref[0][3][0] == 4 if not regular else ref[0][3][0] == 5
    if regular:
        assert all(np.array_equal(a, b) for a, b in zip(_bits(ours[0]), _bits(ref[0])))
    else:
        assert fast_compare(ours, ref)[1] == 0


@pytest.mark.parametrize("floats", ["indirect_64_bit", "integers"])
def test_float_options_as_other_writers_store_them_read_alike(tmp_path, floats):
    """Float options as 64-bit indirect floats (rounded to float as
    FlexBuffers' AsFloat does) or, where integral, as integers."""
    fb = flexbuffers.Builder(force_min_bit_width=flexbuffers.BitWidth.W64)
    with fb.Map():
        for key, value in OPTIONS.items():
            fb.Key(key)
            if isinstance(value, bool):
                fb.Bool(value)
            elif isinstance(value, int) or (floats == "integers" and value == int(value)):
                fb.Int(int(value))
            else:
                fb.IndirectFloat(value + 1e-9, byte_width=8)
    model = _postprocess_model(options_bytes=bytes(fb.Finish()))
    rng = np.random.default_rng(2)
    runs = [[np.floor(rng.uniform(-4, 4, [1, 8, 4])).astype(np.float32) / 4,
             np.floor(rng.uniform(0, 8, [1, 8, 3])).astype(np.float32) / 8]]
    ref = oracle.run_tflm(model, runs, isolated=True)
    _, ours = _convert_run(model, runs, tmp_path)
    assert fast_compare(ours, ref)[1] == 0


def test_empty_box_fails_the_run_as_in_tflite_micro(tmp_path):
    """An anchor of height 0 decodes to ymin == ymax: TFLite Micro's
    ValidateBoxes fails its Invoke, our model_run returns TA_ERR_KERNEL."""
    anchors = _anchors(8)
    anchors[5, 2] = 0.0
    model = _postprocess_model(anchors=anchors)
    runs = [[np.zeros([1, 8, 4], np.float32), np.full([1, 8, 3], 0.5, np.float32)]]
    tflm_fails(model, runs)
    with pytest.raises(RuntimeError, match=r"model_run failed with status 501 \(kernel_error\)"):
        _convert_run(model, runs, tmp_path)


# (model arguments, the error line's reason, whether TFLite Micro fails it too)
REFUSALS = {
    "iou_zero": (dict(options={"nms_iou_threshold": 0.0}),
                 "nms_iou_threshold is not in (0, 1]: TFLite Micro's Eval fails", True),
    "iou_above_one": (dict(options={"nms_iou_threshold": 1.5}),
                      "nms_iou_threshold is not in (0, 1]", True),
    "max_detections_negative": (dict(options={"max_detections": -1}),
                                "max_detections is negative", True),
    "detections_per_class_zero": (
        dict(options={"use_regular_nms": True, "detections_per_class": 0}),
        "detections_per_class is not above 0 (regular NMS)", True),
    "max_classes_per_detection_zero": (dict(options={"max_classes_per_detection": 0}),
                                       "max_classes_per_detection is not above 0", True),
    "two_background_columns": (dict(columns=5), "have 5 columns for 3 classes", True),
    "fewer_columns_than_classes": (dict(columns=2), "have 2 columns for 3 classes", True),
    "batch_two": (dict(batch=(2, 1)), "is not 1", True),
    "class_batch_two": (dict(batch=(1, 2)), "is not 1", True),
    "box_depth_three": (dict(depth=3), "fewer than 4 values per box", True),
    "int8_inputs": (dict(dtype="int8"), "box encodings (tensor", True),
    "anchor_rows": (dict(anchor_rows=6), "do not match 8 boxes", False),
    "fast_outputs_too_small": (dict(options={"max_classes_per_detection": 2}, entries=10),
                               "outputs hold 10 detections; TFLite Micro may write up to 20 (fast",
                               False),
    "regular_outputs_too_small": (dict(options={"use_regular_nms": True}, entries=4),
                                  "TFLite Micro may write up to 5 (regular", False),
    "regular_scratch_overrun": (dict(options={"use_regular_nms": True, "max_detections": 1,
                                              "detections_per_class": 100}, entries=1),
                                "writes 9 sorted entries past its scratch of 8", False),
    "no_classes": (dict(options={"num_classes": 0}, columns=1),
                   "num_classes 0 is not supported", False),
}


@pytest.mark.parametrize("name", sorted(REFUSALS))
def test_refusals(tmp_path, name):
    kwargs, reason, tflm_too = REFUSALS[name]
    model = _postprocess_model(**kwargs)
    line = refusal(model, tmp_path)
    assert f"operator 0 ({OP}): " in line and reason in line, line
    if tflm_too:
        # the anchors are positive: these inputs decode to valid boxes
        tflm_fails(model, oracle.random_inputs(model, np.random.default_rng(1), 1))


def test_missing_option_is_refused(tmp_path):
    options = dict(OPTIONS)
    del options["h_scale"]
    line = refusal(_postprocess_model(options_bytes=flexbuffers.Dumps(options)), tmp_path)
    assert f"operator 0 ({OP}): custom option 'h_scale' is missing" in line, line


def test_option_that_is_not_a_number_is_refused(tmp_path):
    options = {**OPTIONS, "y_scale": "ten"}
    line = refusal(_postprocess_model(options_bytes=flexbuffers.Dumps(options)), tmp_path)
    assert f"operator 0 ({OP}): custom option 'y_scale' is not a number" in line, line


def test_generator_comparison_checks_written_entries_and_zeros():
    """The fast variant's comparison counts a changed written entry, a
    changed num_detections and a non-zero unwritten entry as differences,
    and ignores what TFLite Micro holds where it has not written."""
    k, entries = 2, 12
    rng = np.random.default_rng(3)
    want = [rng.uniform(-1, 1, [1, entries, 4]).astype(np.float32),
            rng.uniform(0, 3, [1, entries // k, k]).astype(np.float32),
            rng.uniform(0, 1, [1, entries // k, k]).astype(np.float32),
            np.array([4.0], np.float32)]  # two boxes, at entries 0, 3, 4, 7
    written = np.zeros(entries, bool)
    written[[0, 3, 4, 7]] = True
    ours = [w.copy() for w in want]
    for o in ours[:3]:
        o.reshape(entries, -1)[~written] = 0
    assert fast_compare([ours], [want]) == (entries * 24 + 4, 0)
    ours[1].reshape(-1)[7] += 1          # a written entry differs
    assert fast_compare([ours], [want])[1] > 0
    ours[1].reshape(-1)[7] -= 1
    ours[0].reshape(entries, 4)[5, 2] = 1.0  # an unwritten entry is not zero
    assert fast_compare([ours], [want])[1] > 0
    ours[0].reshape(entries, 4)[5, 2] = 0.0
    ours[3][0] = 2.0
    assert fast_compare([ours], [want])[1] > 0


@pytest.mark.qemu
def test_detection_on_cortex_m55_matches_tflite_micro(tmp_path):
    """The int8 body and the float postprocess (decoding with newlib's exp,
    in software double) on the emulated Cortex-M55."""
    model, runs = _conv_body_model(), _conv_runs()
    ref = oracle.run_tflm(model, runs, isolated=True)
    (tmp_path / "m.tflite").write_bytes(model)
    m = module.convert(tmp_path / "m.tflite", tmp_path / "mod")
    ours, _ = module.run_qemu(m, module.build_qemu(m), runs)
    total, diff = fast_compare(ours, ref)
    assert total > 0 and diff == 0
