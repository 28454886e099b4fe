/*
 * detection_postprocess.c - TFLite Micro's TFLite_Detection_PostProcess
 * custom operator (float32): box encodings [1, N, >= 4], class predictions
 * [1, N, classes (+ 1 background column first)], anchors [N, 4]; outputs
 * boxes [.., 4], classes, scores (the same number of entries each) and
 * num_detections [1]. ta_detection_postprocess_f32.h has the algorithm.
 *
 * TFLite Micro checks the options at every Invoke, where a bad value
 * fails the run; here they are constants, refused at conversion. It does
 * not check the output sizes and writes past a small output: refused too.
 * The options TFLite Micro reads as 0 when absent must be present here
 * (detections_per_class defaults to 100, use_regular_nms to false).
 */
#include "../../runtime/kernels/ta_detection_postprocess_f32.h"
#include "common/custom_options.h"

/* Bounds that keep every index and the workspace size in int32. */
enum { MAX_BOXES = 1 << 20, MAX_DETECTIONS = 1 << 20 };

typedef struct {
    int32_t max_detections, max_classes_per_detection, detections_per_class;
    int32_t use_regular_nms, num_classes;
    float score_threshold, iou_threshold, y_scale, x_scale, h_scale, w_scale;
} DetectionOptions;

static bool read_options(TaLower *L, TaOp *op, DetectionOptions *o)
{
    return ta_custom_option_int(L, op, "max_detections", INT32_MIN, INT32_MAX,
                                &o->max_detections) &&
           ta_custom_option_int(L, op, "max_classes_per_detection", INT32_MIN, INT32_MAX,
                                &o->max_classes_per_detection) &&
           ta_custom_option_int_or(L, op, "detections_per_class", 100, INT32_MIN, INT32_MAX,
                                   &o->detections_per_class) &&
           ta_custom_option_int_or(L, op, "use_regular_nms", 0, INT32_MIN, INT32_MAX,
                                   &o->use_regular_nms) &&
           ta_custom_option_int(L, op, "num_classes", INT32_MIN, INT32_MAX, &o->num_classes) &&
           ta_custom_option_float(L, op, "nms_score_threshold", &o->score_threshold) &&
           ta_custom_option_float(L, op, "nms_iou_threshold", &o->iou_threshold) &&
           ta_custom_option_float(L, op, "y_scale", &o->y_scale) &&
           ta_custom_option_float(L, op, "x_scale", &o->x_scale) &&
           ta_custom_option_float(L, op, "h_scale", &o->h_scale) &&
           ta_custom_option_float(L, op, "w_scale", &o->w_scale);
}

/* The checks TFLite Micro's Eval makes on the options (its Invoke fails). */
static bool check_options(TaLower *L, TaOp *op, const DetectionOptions *o)
{
    const char *why = NULL;
    if (!(o->iou_threshold > 0.0f && o->iou_threshold <= 1.0f))
        why = "nms_iou_threshold is not in (0, 1]";
    else if (o->max_detections < 0)
        why = "max_detections is negative";
    else if (o->use_regular_nms && o->detections_per_class <= 0)
        why = "detections_per_class is not above 0 (regular NMS)";
    else if (!o->use_regular_nms && o->max_classes_per_detection <= 0)
        why = "max_classes_per_detection is not above 0 (fast NMS)";
    if (why) {
        ta_op_error(L, op, "%s: TFLite Micro's Eval fails", why);
        return false;
    }
    if (o->num_classes < 1) {
        ta_op_error(L, op, "num_classes %d is not supported: at least 1 class",
                    (int)o->num_classes);
        return false;
    }
    if (o->max_detections > MAX_DETECTIONS) {
        ta_op_error(L, op, "max_detections %d is not supported: at most %d", (int)o->max_detections,
                    MAX_DETECTIONS);
        return false;
    }
    return true;
}

/* Regular NMS: TFLite Micro sizes its sorting scratch max_detections *
   boxes entries, but sorts the detections kept so far plus one class's
   (up to max_detections + min(detections_per_class, boxes)): with fewer
   (max_detections 0 or 1) it writes past its scratch. */
static bool check_tflm_scratch(TaLower *L, TaOp *op, const DetectionOptions *o, int32_t boxes)
{
    if (!o->use_regular_nms)
        return true;
    const int64_t per_class = o->detections_per_class < boxes ? o->detections_per_class : boxes;
    if ((int64_t)o->max_detections * boxes >= o->max_detections + per_class)
        return true;
    ta_op_error(L, op,
                "max_detections %d with %d boxes is not supported (regular NMS): TFLite Micro "
                "writes %lld sorted entries past its scratch of %lld",
                (int)o->max_detections, (int)boxes, (long long)(o->max_detections + per_class),
                (long long)o->max_detections * boxes);
    return false;
}

static bool check_inputs(TaLower *L, TaOp *op, const DetectionOptions *o)
{
    const TaTensor *box = op->inputs[0], *cls = op->inputs[1], *anchors = op->inputs[2];
    if (!ta_expect_dtype(L, op, box, "box encodings", TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, cls, "class predictions", TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, anchors, "anchors", TA_FLOAT32, -1) ||
        !ta_expect_rank(L, op, box, "box encodings", 3) ||
        !ta_expect_rank(L, op, cls, "class predictions", 3) ||
        !ta_expect_rank(L, op, anchors, "anchors", 2))
        return false;
    const int32_t boxes = box->dims[1];
    if (box->dims[0] != 1 || cls->dims[0] != 1) {
        ta_op_error(L, op, "batch of box encodings %s or class predictions %s is not 1",
                    ta_shape_text(L->pool, box), ta_shape_text(L->pool, cls));
        return false;
    }
    if (box->dims[2] < 4) {
        ta_op_error(L, op, "box encodings %s have fewer than 4 values per box",
                    ta_shape_text(L->pool, box));
        return false;
    }
    if (boxes < 1 || boxes > MAX_BOXES) {
        ta_op_error(L, op, "%d boxes is not supported: 1 to %d", (int)boxes, MAX_BOXES);
        return false;
    }
    if (cls->dims[1] != boxes || anchors->dims[0] != boxes || anchors->dims[1] != 4) {
        ta_op_error(L, op, "class predictions %s and anchors %s do not match %d boxes",
                    ta_shape_text(L->pool, cls), ta_shape_text(L->pool, anchors), (int)boxes);
        return false;
    }
    const int32_t background = cls->dims[2] - o->num_classes;
    if (background != 0 && background != 1) {
        ta_op_error(L, op,
                    "class predictions %s have %d columns for %d classes, not the classes and "
                    "at most one background column: TFLite Micro's Eval fails",
                    ta_shape_text(L->pool, cls), (int)cls->dims[2], (int)o->num_classes);
        return false;
    }
    return true;
}

/* The entries TFLite Micro may write to boxes, classes and scores. */
static int64_t entries_written(const DetectionOptions *o, int32_t boxes)
{
    if (o->use_regular_nms)
        return o->max_detections;
    const int64_t kept = o->max_detections < boxes ? o->max_detections : boxes;
    const int64_t k = o->max_classes_per_detection < o->num_classes ? o->max_classes_per_detection
                                                                    : o->num_classes;
    return k * k * kept; /* K entries per box at TFLite Micro's offsets */
}

static bool check_outputs(TaLower *L, TaOp *op, const DetectionOptions *o, int32_t *entries)
{
    static const char *const roles[] = {"boxes", "classes", "scores", "num_detections"};
    for (int i = 0; i < 4; i++)
        if (!ta_expect_dtype(L, op, op->outputs[i], roles[i], TA_FLOAT32, -1))
            return false;
    const size_t box_values = ta_tensor_elements(op->outputs[0]);
    const size_t n = ta_tensor_elements(op->outputs[1]);
    if (box_values != 4 * n || ta_tensor_elements(op->outputs[2]) != n) {
        ta_op_error(L, op,
                    "outputs boxes %s, classes %s and scores %s do not hold the same "
                    "number of detections (4 values per box)",
                    ta_shape_text(L->pool, op->outputs[0]), ta_shape_text(L->pool, op->outputs[1]),
                    ta_shape_text(L->pool, op->outputs[2]));
        return false;
    }
    if (ta_tensor_elements(op->outputs[3]) != 1) {
        ta_op_error(L, op, "output num_detections %s is not one value",
                    ta_shape_text(L->pool, op->outputs[3]));
        return false;
    }
    const int64_t needed = entries_written(o, op->inputs[0]->dims[1]);
    if ((int64_t)n < needed) {
        ta_op_error(L, op,
                    "outputs hold %zu detections; TFLite Micro may write up to %lld (%s), past "
                    "their end",
                    n, (long long)needed,
                    o->use_regular_nms ? "regular NMS: max_detections"
                                       : "fast NMS: K * K entries per kept box, K classes each");
        return false;
    }
    if (n > INT32_MAX / 16) {
        ta_op_error(L, op, "outputs hold %zu detections; tinyaot supports up to %d", n,
                    INT32_MAX / 16);
        return false;
    }
    *entries = (int32_t)n;
    return true;
}

static bool lower(TaLower *L, TaOp *op)
{
    DetectionOptions o;
    int32_t entries;
    if (!ta_expect_counts(L, op, 3, 3, 4) || !read_options(L, op, &o) ||
        !check_options(L, op, &o) || !check_inputs(L, op, &o) ||
        !check_tflm_scratch(L, op, &o, op->inputs[0]->dims[1]) ||
        !check_outputs(L, op, &o, &entries))
        return false;
    TaTensor *box = op->inputs[0], *cls = op->inputs[1], *anchors = op->inputs[2];
    TaKernelCall *c = ta_call(L, op, "ta_detection_postprocess_f32",
                              "runtime/kernels/ta_detection_postprocess_f32.h");
    ta_detection_postprocess_f32_params_t *p = TA_CALL_PARAMS(
        L, c, ta_detection_postprocess_f32_params_t);
    p->num_boxes = box->dims[1];
    p->box_stride = box->dims[2];
    p->num_classes = o.num_classes;
    p->score_stride = cls->dims[2];
    p->label_offset = cls->dims[2] - o.num_classes;
    p->max_detections = o.max_detections;
    p->classes_per_detection = o.max_classes_per_detection < o.num_classes
                                   ? o.max_classes_per_detection
                                   : o.num_classes;
    p->detections_per_class = o.detections_per_class;
    p->use_regular_nms = o.use_regular_nms != 0;
    p->output_entries = entries;
    p->score_threshold = o.score_threshold;
    p->iou_threshold = o.iou_threshold;
    p->y_scale = o.y_scale;
    p->x_scale = o.x_scale;
    p->h_scale = o.h_scale;
    p->w_scale = o.w_scale;
    if (p->use_regular_nms)
        p->classes_per_detection = 0;
    else
        p->detections_per_class = 0;
    ta_detection_workspace_t w;
    ta_detection_postprocess_workspace(p, &w);
    if (w.bytes > INT32_MAX) {
        ta_op_error(L, op, "the working memory (%zu bytes) is too large", w.bytes);
        return false;
    }
    ta_call_arg(L, c, box);
    ta_call_arg(L, c, cls);
    ta_call_arg(L, c, anchors);
    ta_call_arg(L, c, ta_local_scratch(L, op, "workspace", (int32_t)w.bytes));
    for (int i = 0; i < 4; i++)
        ta_call_arg(L, c, op->outputs[i]);
    return true;
}

const TaOpDef ta_op_detection_postprocess = {NULL, lower};
