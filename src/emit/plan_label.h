/*
 * plan_label.h - the text drawn on a tensor's rectangle in the memory-plan
 * picture: its id, then its name, cut with an ellipsis to the rectangle's
 * width (the hover title keeps the whole text).
 *
 * The label is monospace, so its width is known without a browser: the
 * stylesheet sets the font size LABEL_FONT_PX, and LABEL_CHAR_PX100 (in
 * hundredths of a pixel) is a little more than the advance of the common
 * monospace fonts at that size (0.6 em).
 */
#ifndef TA_PLAN_LABEL_H
#define TA_PLAN_LABEL_H

#include "../util/util.h"

#include <stdint.h>

enum {
    LABEL_FONT_PX = 11,
    LABEL_CHAR_PX100 = 670,
    LABEL_PAD_PX = 4,         /* room left and right of the text */
    LABEL_MIN_HEIGHT_PX = 14, /* a rectangle lower than this gets no label */
    LABEL_MIN_NAME_CHARS = 3  /* fewer of the name than this: the id alone */
};

/* The label, escaped for markup, for a rectangle `width_px100` hundredths
   of a pixel wide; NULL when not even the id fits. `name` may be NULL. */
const char *ta_plan_label(TaPool *pool, const char *id, const char *name, int64_t width_px100);

#endif /* TA_PLAN_LABEL_H */
