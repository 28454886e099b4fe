/*
 * ta_detection_postprocess_f32.h - TFLite Micro's TFLite_Detection_PostProcess
 * custom operator on float32, in TFLite Micro's order of operations:
 *
 * 1. Decode: box encoding (y, x, h, w) and anchor (y, x, h, w) give the box
 *    (ymin, xmin, ymax, xmax), each step in double, exp() the C library's:
 *      yc = (float)(y / y_scale * anchor_h + anchor_y)        (xc alike)
 *      hh = (float)(0.5 * exp(h / h_scale) * anchor_h)        (hw alike)
 *      ymin = yc - hh, ymax = yc + hh                         (float)
 *    A box with ymin >= ymax or xmin >= xmax fails the run (TA_ERR_KERNEL),
 *    as TFLite Micro's ValidateBoxes fails its Invoke.
 * 2. Single-class non-max suppression: the boxes whose score is >=
 *    score_threshold, in a stable order of decreasing score, each taken
 *    unless a taken box overlaps it with IoU > iou_threshold.
 * 3. Fast path: each box's score is its best class's (ties: lowest class);
 *    NMS keeps up to max_detections boxes; each kept box i writes its
 *    K = classes_per_detection best classes (value, then lowest index) at
 *    entry K*K*i + (K+1)*c, c < K - TFLite Micro's offsets, which leave
 *    gaps when K > 1 - and num_detections is (kept boxes) * K.
 *    Regular path: NMS per class (up to detections_per_class boxes), the
 *    union kept at the max_detections best in (score, earlier entry) order
 *    after every class; all max_detections entries written (zeros past
 *    the detections).
 * Entries TFLite Micro does not write (it leaves the arena's bytes there)
 * are zero here. NaN scores are not supported: TFLite Micro's order then
 * depends on its C++ library's sorting.
 */
#ifndef TA_DETECTION_POSTPROCESS_F32_H
#define TA_DETECTION_POSTPROCESS_F32_H

#include <stddef.h>
#include <stdint.h>

#include "../include/ta_params.h"

#define TA_DETECTION_POSTPROCESS_F32_PARAMS(FIELD, ARRAY, ARRAY_USED)                         \
    FIELD(int32_t, num_boxes)                                                                 \
    FIELD(int32_t, box_stride) /* box encoding depth (>= 4): y, x, h, w first */              \
    FIELD(int32_t, num_classes)                                                               \
    FIELD(int32_t, score_stride) /* class predictions per box */                              \
    FIELD(int32_t, label_offset) /* 1 when the first column is the background */              \
    FIELD(int32_t, max_detections)                                                            \
    FIELD(int32_t, classes_per_detection) /* fast: min(max_classes_per_detection, classes) */ \
    FIELD(int32_t, detections_per_class)  /* regular: NMS limit per class */                  \
    FIELD(int32_t, use_regular_nms)                                                           \
    FIELD(int32_t, output_entries) /* entries of each of boxes, classes and scores */         \
    FIELD(float, score_threshold)                                                             \
    FIELD(float, iou_threshold)                                                               \
    FIELD(float, y_scale)                                                                     \
    FIELD(float, x_scale)                                                                     \
    FIELD(float, h_scale)                                                                     \
    FIELD(float, w_scale)
typedef struct {
    TA_PARAM_MEMBERS(TA_DETECTION_POSTPROCESS_F32_PARAMS)
} ta_detection_postprocess_f32_params_t;

/* Byte offsets of the working arrays in the workspace, one layout for the
   converter (which sizes the scratch) and the kernel. 4-byte arrays come
   first, so the byte flags need no alignment. */
typedef struct {
    size_t decoded;    /* float [num_boxes][4] */
    size_t box_scores; /* float [num_boxes] (fast: best class score) */
    size_t order;      /* int32 [order_len]: kept boxes, sorted positions */
    size_t merge;      /* int32 [order_len]: merge sort's buffer */
    size_t selected;   /* int32 [selected_len]: one NMS's result */
    size_t cand_index; /* int32 [candidates] (regular): score-table index */
    size_t cand_score; /* float [candidates] (regular) */
    size_t top_index;  /* int32 [max_detections] (regular) */
    size_t top_score;  /* float [max_detections] (regular) */
    size_t suppressed; /* uint8 [num_boxes] */
    size_t bytes;      /* total */
} ta_detection_workspace_t;

void ta_detection_postprocess_workspace(const ta_detection_postprocess_f32_params_t *p,
                                        ta_detection_workspace_t *w);

/* `workspace` is w.bytes of scratch, aligned for int32 and float. */
int ta_detection_postprocess_f32(const ta_detection_postprocess_f32_params_t *p,
                                 const float *box_encodings, const float *class_predictions,
                                 const float *anchors, void *workspace, float *boxes,
                                 float *classes, float *scores, float *num_detections);

#endif /* TA_DETECTION_POSTPROCESS_F32_H */
