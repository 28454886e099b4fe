/*
 * plan_label.h - the text drawn on a tensor's rectangle in the memory-plan
 * picture: its id, then its name, in as many lines as the rectangle holds,
 * the last one cut with an ellipsis when the name goes on (the hover title
 * keeps the whole text). A line breaks after a '/', ';', '_', '.', ':' or
 * space when one is past its first third, else where the width ends. A
 * line narrower than LABEL_MIN_NAME_ROOM characters shows the id alone.
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
    LABEL_LINE_PX = 13,       /* from one line to the next */
    LABEL_MIN_HEIGHT_PX = 14, /* a rectangle lower than this gets no label */
    LABEL_MIN_NAME_ROOM = 8,  /* characters a line needs to show the name too */
    LABEL_MAX_LINES = 8
};

/* The label's lines, each escaped for markup, for a rectangle
   `width_px100` hundredths of a pixel wide, at most `max_lines` (at most
   LABEL_MAX_LINES) of them; the count, 0 when not even the id fits on
   the first. `name` may be NULL. */
int ta_plan_label(TaPool *pool, const char *id, const char *name, int64_t width_px100,
                  int max_lines, const char **lines);

#endif /* TA_PLAN_LABEL_H */
