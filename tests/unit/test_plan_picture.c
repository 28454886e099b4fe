/*
 * test_plan_picture.c - the measures of the memory-plan picture in the
 * module documentation: the offset axis (src/emit/plan_axis.c: linear,
 * but no covered piece under the minimum, strictly increasing) and the
 * labels on the rectangles (src/emit/plan_label.c: the id whole, the name
 * in lines broken after a separator, cut with an ellipsis, never inside a
 * UTF-8 character, escaped).
 */
#include "check.h"
#include "emit/plan_axis.h"
#include "emit/plan_label.h"

#include <string.h>

/* A rectangle wide enough for `chars` label characters. */
static int64_t width_for(int chars)
{
    return 2 * LABEL_PAD_PX * 100 + (int64_t)chars * LABEL_CHAR_PX100;
}

/* The label's lines joined with '|'. */
static const char *label(TaPool *pool, const char *id, const char *name, int chars, int max)
{
    const char *lines[LABEL_MAX_LINES];
    int n = ta_plan_label(pool, id, name, width_for(chars), max, lines);
    const char *joined = "";
    for (int i = 0; i < n; i++)
        joined = ta_format(pool, "%s%s%s", joined, i ? "|" : "", lines[i]);
    return n ? joined : "(none)";
}

static void expect(const char *got, const char *want)
{
    CHECK(strcmp(got, want) == 0, "got [%s], want [%s]", got, want);
}

static void labels(TaPool *pool)
{
    expect(label(pool, "7", "abc", 10, 1), "7 abc");
    expect(label(pool, "7", NULL, 10, 3), "7");
    /* one line: cut where the width ends, the ellipsis in the last place */
    expect(label(pool, "7", "conv/Relu;more", 10, 1), "7 conv/Re\xE2\x80\xA6");
    /* two lines: the first breaks after the '/' */
    expect(label(pool, "7", "conv/Relu;more", 10, 2), "7 conv/|Relu;more");
    expect(label(pool, "7", "conv/Relu;more_and_more", 10, 2), "7 conv/|Relu;more\xE2\x80\xA6");
    /* the id is never cut: alone when the name does not fit beside it,
       nothing when the id itself does not fit */
    expect(label(pool, "op12.weights", "x", 12, 1), "op12.weights");
    expect(label(pool, "op12.weights", "x", 11, 4), "(none)");
    expect(label(pool, "op12.weights", "conv", 12, 2), "op12.weights| conv");
    /* two-byte characters stay whole */
    expect(
        label(pool, "1", "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9", 8, 1),
        "1 \xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xE2\x80\xA6");
    /* too narrow for a useful name: the id alone */
    expect(label(pool, "34", "MobilenetV1", 7, 4), "34");
    /* markup is escaped after the cut, a control character shows as \xNN */
    expect(label(pool, "2", "<b>&", 10, 1), "2 &lt;b&gt;&amp;");
    expect(label(pool, "3", "a\nb", 10, 1), "3 a\\x0ab");
    expect(label(pool, "3", "a\nbcdef", 10, 1), "3 a\\x0abc\xE2\x80\xA6");
    expect(label(pool, "4", "abc", 0, 1), "(none)");
}

static void axis(TaPool *pool)
{
    /* 1,000 bytes over 100 pixels: 10 bytes a pixel; the 10-byte tensor
       would be 1 pixel and is drawn 3, the gap after it stays linear */
    const TaByteRange tensors[] = {{0, 500}, {500, 10}, {600, 400}};
    TaPlanAxis a = ta_plan_axis(pool, 1000, tensors, 3, 100, 3);
    CHECK(a.num_edges == 5, "%d edges", a.num_edges);
    CHECK(a.height_px == 10200, "height %lld", (long long)a.height_px);
    CHECK(ta_plan_axis_at(&a, 0) == 0 && ta_plan_axis_at(&a, 500) == 5000, "top pieces");
    CHECK(ta_plan_axis_at(&a, 505) == 5150, "%lld", (long long)ta_plan_axis_at(&a, 505));
    CHECK(ta_plan_axis_at(&a, 510) == 5300 && ta_plan_axis_at(&a, 600) == 6200, "gap");
    CHECK(ta_plan_axis_at(&a, 1000) == 10200, "end");
    CHECK(!a.stretched[0] && a.stretched[1] && !a.stretched[2] && !a.stretched[3], "stretched");
    for (size_t b = 1; b <= 1000; b++)
        CHECK(ta_plan_axis_at(&a, b) >= ta_plan_axis_at(&a, b - 1), "decreases at %zu", b);
    /* a byte-sized tensor between two large ones, in a large region */
    const TaByteRange tiny[] = {{0, 65536}, {65536, 2}, {65552, 65536}};
    TaPlanAxis t = ta_plan_axis(pool, 131088, tiny, 3, 280, 3);
    CHECK(ta_plan_axis_at(&t, 65538) - ta_plan_axis_at(&t, 65536) == 300, "tiny one at 3 px");
    CHECK(ta_plan_axis_at(&t, 65552) > ta_plan_axis_at(&t, 65538), "apart from the next");
    expect(ta_plan_axis_scale_text(pool, &a, 100), "10");
    TaPlanAxis small = ta_plan_axis(pool, 320, NULL, 0, 280, 3);
    expect(ta_plan_axis_scale_text(pool, &small, 280), "1.1");
    expect(ta_px_text(pool, 1234), "12.34");
    expect(ta_px_text(pool, 1250), "12.5");
    expect(ta_px_text(pool, 1200), "12");
    expect(ta_px_text(pool, -50), "-0.5");
}

int main(void)
{
    TaPool pool = {0};
    labels(&pool);
    axis(&pool);
    ta_pool_free(&pool);
    return check_summary("plan_picture");
}
