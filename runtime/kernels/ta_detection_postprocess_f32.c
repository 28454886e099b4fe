/* ta_detection_postprocess_f32.c - see the header. */
#include "ta_detection_postprocess_f32.h"

#include "../include/ta_status.h"

#include <math.h>
#include <string.h>

enum { BOX_FLOATS = 4 }; /* ymin, xmin, ymax, xmax */

static size_t min_size(size_t a, size_t b)
{
    return a < b ? a : b;
}

void ta_detection_postprocess_workspace(const ta_detection_postprocess_f32_params_t *p,
                                        ta_detection_workspace_t *w)
{
    const size_t boxes = (size_t)p->num_boxes, max_det = (size_t)p->max_detections;
    const int regular = p->use_regular_nms != 0;
    const size_t per_class = min_size((size_t)p->detections_per_class, boxes);
    /* regular: the detections kept so far plus one class's NMS result */
    const size_t candidates = regular ? max_det + per_class : 0;
    const size_t order_len = candidates > boxes ? candidates : boxes;
    const size_t selected_len = regular ? per_class : min_size(max_det, boxes);
    size_t at = 0;
    w->decoded = at, at += boxes * BOX_FLOATS * sizeof(float);
    w->box_scores = at, at += regular ? 0 : boxes * sizeof(float);
    w->order = at, at += order_len * sizeof(int32_t);
    w->merge = at, at += order_len * sizeof(int32_t);
    w->selected = at, at += selected_len * sizeof(int32_t);
    w->cand_index = at, at += candidates * sizeof(int32_t);
    w->cand_score = at, at += candidates * sizeof(float);
    w->top_index = at, at += regular ? max_det * sizeof(int32_t) : 0;
    w->top_score = at, at += regular ? max_det * sizeof(float) : 0;
    w->suppressed = at, at += boxes;
    w->bytes = at;
}

/* Decodes every box; false when one is empty or inverted (ValidateBoxes). */
static int decode_boxes(const ta_detection_postprocess_f32_params_t *p, const float *encodings,
                        const float *anchors, float *decoded)
{
    int valid = 1;
    for (int32_t i = 0; i < p->num_boxes; i++) {
        const float *e = encodings + (size_t)i * (size_t)p->box_stride;
        const float *a = anchors + (size_t)i * 4; /* y, x, h, w */
        const float yc = (float)((double)e[0] / (double)p->y_scale * (double)a[2] + (double)a[0]);
        const float xc = (float)((double)e[1] / (double)p->x_scale * (double)a[3] + (double)a[1]);
        const float hh = (float)(0.5 * exp((double)e[2] / (double)p->h_scale) * (double)a[2]);
        const float hw = (float)(0.5 * exp((double)e[3] / (double)p->w_scale) * (double)a[3]);
        float *box = decoded + (size_t)i * BOX_FLOATS;
        box[0] = yc - hh;
        box[1] = xc - hw;
        box[2] = yc + hh;
        box[3] = xc + hw;
        if (box[0] >= box[2] || box[1] >= box[3])
            valid = 0;
    }
    return valid;
}

/* std::max<float> and std::min<float>, NaN cases included. */
static float max_f(float a, float b)
{
    return a < b ? b : a;
}

static float min_f(float a, float b)
{
    return b < a ? b : a;
}

static float intersection_over_union(const float *a, const float *b)
{
    const float area_a = (a[2] - a[0]) * (a[3] - a[1]);
    const float area_b = (b[2] - b[0]) * (b[3] - b[1]);
    if (area_a <= 0.0f || area_b <= 0.0f)
        return 0.0f;
    const float h = max_f(min_f(a[2], b[2]) - max_f(a[0], b[0]), 0.0f);
    const float w = max_f(min_f(a[3], b[3]) - max_f(a[1], b[1]), 0.0f);
    const float intersection = h * w;
    return intersection / (area_a + area_b - intersection);
}

/* Sorts idx[0..n) by values[idx * stride], decreasing, keeping equal
   values in their order: any stable sort gives TFLite Micro's
   DecreasingArgSort order, this one is a bottom-up merge sort. */
static void sort_decreasing_stable(int32_t *idx, int32_t *buf, int32_t n, const float *values,
                                   size_t stride)
{
    int32_t *src = idx, *dst = buf;
    for (int32_t width = 1; width<n; width = width> n / 2 ? n : width * 2) {
        for (int32_t lo = 0; lo < n; lo += 2 * width) {
            const int32_t mid = lo + width < n ? lo + width : n;
            const int32_t hi = mid + width < n ? mid + width : n;
            int32_t l = lo, r = mid;
            for (int32_t k = lo; k < hi; k++) {
                const int take_right = l >= mid || (r < hi && values[(size_t)src[r] * stride] >
                                                                  values[(size_t)src[l] * stride]);
                dst[k] = take_right ? src[r++] : src[l++];
            }
        }
        int32_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != idx)
        memcpy(idx, src, (size_t)n * sizeof(int32_t));
}

/* TFLite Micro's NonMaxSuppressionSingleClassHelper over the scores
   scores[box * stride]: writes up to `limit` box indices to `selected`,
   returns how many. */
static int32_t suppress_single_class(const ta_detection_postprocess_f32_params_t *p,
                                     const float *decoded, const float *scores, size_t stride,
                                     int32_t limit, const ta_detection_workspace_t *w,
                                     uint8_t *workspace, int32_t *selected)
{
    int32_t *order = (int32_t *)(void *)(workspace + w->order);
    int32_t *merge = (int32_t *)(void *)(workspace + w->merge);
    uint8_t *suppressed = workspace + w->suppressed;
    int32_t kept = 0;
    for (int32_t i = 0; i < p->num_boxes; i++)
        if (scores[(size_t)i * stride] >= p->score_threshold)
            order[kept++] = i;
    sort_decreasing_stable(order, merge, kept, scores, stride);
    const int32_t wanted = kept < limit ? kept : limit;
    memset(suppressed, 0, (size_t)kept);
    int32_t count = 0, active = kept;
    for (int32_t i = 0; i < kept && active > 0 && count < wanted; i++) {
        if (suppressed[i])
            continue;
        const float *box = decoded + (size_t)order[i] * BOX_FLOATS;
        selected[count++] = order[i];
        suppressed[i] = 1;
        active--;
        for (int32_t j = i + 1; j < kept; j++) {
            if (!suppressed[j] &&
                intersection_over_union(box, decoded + (size_t)order[j] * BOX_FLOATS) >
                    p->iou_threshold) {
                suppressed[j] = 1;
                active--;
            }
        }
    }
    return count;
}

/* DecreasingPartialArgSort's order: the higher value first, then the lower
   index (a total order without NaN). */
static int comes_before(const float *v, int32_t a, int32_t b)
{
    if (v[a] == v[b])
        return a < b;
    return v[a] > v[b];
}

/* The class after `prev` (-1: the first) in that order over v[0..n). */
static int32_t next_class(const float *v, int32_t n, int32_t prev)
{
    int32_t best = -1;
    for (int32_t j = 0; j < n; j++)
        if ((prev < 0 || comes_before(v, prev, j)) && (best < 0 || comes_before(v, j, best)))
            best = j;
    return best;
}

static void write_detection(float *boxes, float *classes, float *scores, size_t entry,
                            const float *box, int32_t class_index, float score)
{
    memcpy(boxes + entry * BOX_FLOATS, box, BOX_FLOATS * sizeof(float));
    classes[entry] = (float)class_index;
    scores[entry] = score;
}

static void fast_path(const ta_detection_postprocess_f32_params_t *p, const float *predictions,
                      const ta_detection_workspace_t *w, uint8_t *workspace, float *boxes,
                      float *classes, float *scores, float *num_detections)
{
    const float *decoded = (const float *)(void *)(workspace + w->decoded);
    float *box_scores = (float *)(void *)(workspace + w->box_scores);
    int32_t *selected = (int32_t *)(void *)(workspace + w->selected);
    const size_t stride = (size_t)p->score_stride;
    const float *first = predictions + p->label_offset;
    for (int32_t row = 0; row < p->num_boxes; row++) {
        const float *v = first + (size_t)row * stride;
        box_scores[row] = v[next_class(v, p->num_classes, -1)];
    }
    const int32_t kept = suppress_single_class(p, decoded, box_scores, 1, p->max_detections, w,
                                               workspace, selected);
    const size_t per_box = (size_t)p->classes_per_detection;
    for (int32_t i = 0; i < kept; i++) {
        const float *v = first + (size_t)selected[i] * stride;
        int32_t class_index = -1;
        for (size_t c = 0; c < per_box; c++) {
            class_index = next_class(v, p->num_classes, class_index);
            /* TFLite Micro's offset: its entry counter times K, plus c */
            const size_t entry = per_box * ((size_t)i * per_box + c) + c;
            write_detection(boxes, classes, scores, entry,
                            decoded + (size_t)selected[i] * BOX_FLOATS, class_index,
                            v[class_index]);
        }
    }
    num_detections[0] = (float)((size_t)kept * per_box);
}

static void regular_path(const ta_detection_postprocess_f32_params_t *p, const float *predictions,
                         const ta_detection_workspace_t *w, uint8_t *workspace, float *boxes,
                         float *classes, float *scores, float *num_detections)
{
    const float *decoded = (const float *)(void *)(workspace + w->decoded);
    int32_t *order = (int32_t *)(void *)(workspace + w->order);
    int32_t *merge = (int32_t *)(void *)(workspace + w->merge);
    int32_t *selected = (int32_t *)(void *)(workspace + w->selected);
    int32_t *cand_index = (int32_t *)(void *)(workspace + w->cand_index);
    float *cand_score = (float *)(void *)(workspace + w->cand_score);
    int32_t *top_index = (int32_t *)(void *)(workspace + w->top_index);
    float *top_score = (float *)(void *)(workspace + w->top_score);
    const int32_t stride = p->score_stride;
    int32_t count = 0;
    for (int32_t col = 0; col < p->num_classes; col++) {
        const float *column = predictions + p->label_offset + col;
        const int32_t n = suppress_single_class(p, decoded, column, (size_t)stride,
                                                p->detections_per_class, w, workspace, selected);
        for (int32_t s = 0; s < n; s++) {
            cand_index[count + s] = selected[s] * stride + col + p->label_offset;
            cand_score[count + s] = column[(size_t)selected[s] * (size_t)stride];
        }
        /* keep the max_detections best, equal scores in entry order */
        const int32_t total = count + n;
        const int32_t keep = total < p->max_detections ? total : p->max_detections;
        for (int32_t k = 0; k < total; k++)
            order[k] = k;
        sort_decreasing_stable(order, merge, total, cand_score, 1);
        for (int32_t r = 0; r < keep; r++) {
            top_index[r] = cand_index[order[r]];
            top_score[r] = cand_score[order[r]];
        }
        memcpy(cand_index, top_index, (size_t)keep * sizeof(int32_t));
        memcpy(cand_score, top_score, (size_t)keep * sizeof(float));
        count = keep;
    }
    for (int32_t r = 0; r < count; r++) {
        const int32_t anchor = cand_index[r] / stride;
        const int32_t class_index = cand_index[r] - anchor * stride - p->label_offset;
        write_detection(boxes, classes, scores, (size_t)r, decoded + (size_t)anchor * BOX_FLOATS,
                        class_index, cand_score[r]);
    }
    num_detections[0] = (float)count;
}

int ta_detection_postprocess_f32(const ta_detection_postprocess_f32_params_t *p,
                                 const float *box_encodings, const float *class_predictions,
                                 const float *anchors, void *scratch, float *boxes, float *classes,
                                 float *scores, float *num_detections)
{
    uint8_t *workspace = scratch;
    ta_detection_workspace_t w;
    ta_detection_postprocess_workspace(p, &w);
    float *decoded = (float *)(void *)(workspace + w.decoded);
    if (!decode_boxes(p, box_encodings, anchors, decoded))
        return TA_ERR_KERNEL;
    /* entries TFLite Micro leaves as the arena held them are zero here */
    const size_t entries = (size_t)p->output_entries;
    memset(boxes, 0, entries * BOX_FLOATS * sizeof(float));
    memset(classes, 0, entries * sizeof(float));
    memset(scores, 0, entries * sizeof(float));
    if (p->use_regular_nms)
        regular_path(p, class_predictions, &w, workspace, boxes, classes, scores, num_detections);
    else
        fast_path(p, class_predictions, &w, workspace, boxes, classes, scores, num_detections);
    return TA_OK;
}
