"""TFLite Micro's TFLite_Detection_PostProcess custom operator (float32):
box decoding against anchors, then non-max suppression, the fast path
(one NMS over each box's best class) or the regular one (NMS per class).

The harness draws float inputs uniformly, so the model quantizes them on
the way in: scores = FLOOR(x) / 8 (ties on every draw, against a score
threshold from the same set), box encodings = FLOOR(x / 4) / 4 (a few
values, or FLOOR(x / 8) / 4: identical and overlapping boxes, so NMS
suppresses, and IoU 1 meets a threshold of 1), and anchors given as a graph input =
(|FLOOR(x / 2)| + 1) / 8 (every coordinate positive: no box is empty).
Constant anchors sit on a coarse grid of a few sizes, so they overlap.

Fast path: TFLite Micro writes only the entries of its kept detections
(K = min(max_classes_per_detection, num_classes) per kept box i, at
K*K*i + (K+1)*c) and leaves the rest as its arena held them; there ours
must hold zeros. The comparison needs K: the classes and scores outputs
are drawn [1, entries / K, K] (TFLite Micro ignores output shapes); one
of rank 2 means K = 1."""

from flatbuffers import flexbuffers
import numpy as np

from ..common import ModelBuilder, chance, f32, pick, randint
from ..core import variant

OP = "TFLite_Detection_PostProcess"


def _scaled(b, x, shape, factor, name):
    c = b.const(np.full([1], factor, np.float32), "float32", name=name + "_factor")
    y = b.tensor(shape, "float32", name=name)
    b.op("MUL", [x, c], [y], "MulOptions", fusedActivationFunction="NONE")
    return y


def _quantized_input(b, shape, name, coarse, step, positive=False):
    """A graph input x and the tensor FLOOR(x * coarse) * step, or
    (|FLOOR(x * coarse)| + 1) * step when positive."""
    x = b.tensor(shape, "float32", name=name + "_input")
    f = b.tensor(shape, "float32", name=name + "_floor")
    b.op("FLOOR", [_scaled(b, x, shape, coarse, name + "_coarse")], [f])
    if positive:
        a = b.tensor(shape, "float32", name=name + "_abs")
        b.op("ABS", [f], [a])
        one = b.const(np.ones([1], np.float32), "float32", name=name + "_one")
        s = b.tensor(shape, "float32", name=name + "_shifted")
        b.op("ADD", [a, one], [s], "AddOptions", fusedActivationFunction="NONE")
        f = s
    return x, _scaled(b, f, shape, step, name)


def _constant_anchors(rng, n):
    """n anchors from a pool of about n / 4 (boxes on one anchor with the
    same encoding are identical)."""
    pool = randint(rng, 1, max(1, n // 4))
    y = rng.integers(0, 4, pool) / 8.0
    x = rng.integers(0, 4, pool) / 8.0
    h = rng.choice([0.25, 0.5, 0.75], pool)
    w = rng.choice([0.25, 0.5, 0.75], pool)
    anchors = np.stack([y, x, h, w], axis=1).astype(np.float32)
    return anchors[rng.integers(0, pool, n)]


def _fast_entries(max_detections, boxes, k):
    """The entries TFLite Micro may write on the fast path."""
    return k * k * min(max_detections, boxes)


def _draw(rng, regular):
    boxes = randint(rng, 2 if regular else 1, 64)
    classes = randint(rng, 1, 6)
    background = chance(rng, 0.5)
    depth = randint(rng, 4, 6)
    per_box = randint(rng, 1, 3)
    # regular NMS: max_detections >= 2 (below, TFLite Micro overruns its scratch)
    max_det = randint(rng, 2, 10) if regular else randint(rng, 0, 10)
    options = {
        "max_detections": max_det,
        "max_classes_per_detection": per_box,
        "num_classes": classes,
        "nms_score_threshold": pick(rng, [-1.0, 0.0, 0.125, 0.25, 0.5]),
        "nms_iou_threshold": pick(rng, [1.0, f32(rng.uniform(0.05, 0.7)),
                                        f32(rng.uniform(0.05, 0.7))]),
        # small moves off the anchors: the boxes overlap
        "y_scale": pick(rng, [5.0, 10.0, 10.0]),
        "x_scale": pick(rng, [5.0, 10.0, 10.0]),
        "h_scale": pick(rng, [2.0, 5.0, 5.0]),
        "w_scale": pick(rng, [2.0, 5.0, 5.0]),
    }
    if regular or chance(rng, 0.5):
        options["use_regular_nms"] = regular
    if chance(rng, 0.7):
        options["detections_per_class"] = pick(rng, [1, 2, 3, 5, 100])
    k = min(per_box, classes)
    if regular:
        entries = max_det
    else:
        entries = max(_fast_entries(max_det, boxes, k) + k * randint(rng, 0, 2), k)
    anchors_input = chance(rng, 0.5)

    b = ModelBuilder()
    box_x, box = _quantized_input(b, [1, boxes, depth], "box_encodings",
                                  pick(rng, [0.125, 0.25]), 0.25)
    cls_x, cls = _quantized_input(b, [1, boxes, classes + background], "class_predictions",
                                  1.0, 0.125)
    inputs = [box_x, cls_x]
    if anchors_input:
        anc_x, anc = _quantized_input(b, [boxes, 4], "anchors", 0.5, 0.125, positive=True)
        inputs.append(anc_x)
    else:
        anc = b.const(_constant_anchors(rng, boxes), "float32", name="anchors")
    rows = [1, entries] if regular else [1, entries // k, k]
    out_boxes = b.tensor([1, entries, 4], "float32", name="detection_boxes")
    out_classes = b.tensor(rows, "float32", name="detection_classes")
    out_scores = b.tensor(rows, "float32", name="detection_scores")
    out_num = b.tensor([1], "float32", name="num_detections")
    outputs = [out_boxes, out_classes, out_scores, out_num]
    b.custom_op(OP, [box, cls, anc], outputs, flexbuffers.Dumps(options))
    return b.build(inputs, outputs), {
        "boxes": boxes, "classes": classes, "background_column": background,
        "box_encoding_depth": depth, "anchors_input": anchors_input,
        "output_entries": entries, "options": options}


def written_entries(entries, per_box, num_detections):
    """Mask of the fast path's entries TFLite Micro wrote."""
    mask = np.zeros(entries, bool)
    for i in range(int(num_detections) // per_box):
        for c in range(per_box):
            mask[per_box * per_box * i + (per_box + 1) * c] = True
    return mask


def fast_compare(ours_runs, expected_runs):
    """num_detections byte for byte; boxes, classes and scores on the
    entries TFLite Micro wrote (by its num_detections), zero elsewhere in
    ours. Counts bytes as difftest._count_diff does."""
    total = diff = 0
    for ours, expected in zip(ours_runs, expected_runs):
        num_o = np.asarray(ours[3], np.float32).reshape(-1).view(np.uint8)
        num_e = np.asarray(expected[3], np.float32).reshape(-1).view(np.uint8)
        total += num_o.size
        diff += int(np.count_nonzero(num_o != num_e))
        classes = np.asarray(ours[1])
        per_box = classes.shape[-1] if classes.ndim == 3 else 1
        entries = classes.size
        mask = written_entries(entries, per_box, np.asarray(expected[3]).reshape(-1)[0])
        for o, e in zip(ours[:3], expected[:3]):
            got = np.asarray(o, np.float32).reshape(entries, -1).view(np.uint8)
            want = np.asarray(e, np.float32).reshape(entries, -1).view(np.uint8)
            total += got.size
            diff += int(np.count_nonzero(got[mask] != want[mask]))
            diff += int(np.count_nonzero(got[~mask]))
    return total, diff


@variant("DETECTION_POSTPROCESS.fast", OP, compare=fast_compare)
def detection_postprocess_fast(rng):
    """TFLite_Detection_PostProcess, fast NMS: 1-64 boxes, 1-6 classes (a
    background column or not), box encodings 4-6 deep, anchors constant or
    computed from an input, max_detections 0-10, max_classes_per_detection
    1-3; scores with ties. Compared on the entries TFLite Micro writes."""
    return _draw(rng, regular=False)


@variant("DETECTION_POSTPROCESS.regular", OP)
def detection_postprocess_regular(rng):
    """TFLite_Detection_PostProcess, regular NMS (per class): 2-64 boxes,
    1-6 classes (a background column or not), detections_per_class 1-100
    (or the default 100), max_detections 2-10; every output byte compared."""
    return _draw(rng, regular=True)
