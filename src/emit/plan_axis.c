/*
 * plan_axis.c - the offset axis of a memory-plan picture (plan_axis.h).
 */
#include "plan_axis.h"

#include <stdlib.h>

static int compare_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* 0, region_size and every tensor's edges inside the region, sorted, once. */
static int collect_edges(size_t *edge, size_t region_size, const TaByteRange *tensors, int n)
{
    int count = 0;
    edge[count++] = 0;
    edge[count++] = region_size;
    for (int i = 0; i < n; i++) {
        size_t end = tensors[i].offset + tensors[i].size;
        edge[count++] = tensors[i].offset < region_size ? tensors[i].offset : region_size;
        edge[count++] = end < region_size ? end : region_size;
    }
    qsort(edge, (size_t)count, sizeof *edge, compare_size);
    int unique = 0;
    for (int i = 0; i < count; i++)
        if (unique == 0 || edge[i] != edge[unique - 1])
            edge[unique++] = edge[i];
    return unique;
}

static bool covered(size_t from, size_t to, const TaByteRange *tensors, int n)
{
    for (int i = 0; i < n; i++)
        if (tensors[i].size > 0 && tensors[i].offset <= from &&
            to <= tensors[i].offset + tensors[i].size)
            return true;
    return false;
}

TaPlanAxis ta_plan_axis(TaPool *pool, size_t region_size, const TaByteRange *tensors, int n,
                        int linear_px, int min_px)
{
    TaPlanAxis a = {.region_size = region_size};
    a.edge = ta_alloc_array(pool, 2 * (size_t)n + 2, sizeof *a.edge);
    a.edge_px = ta_alloc_array(pool, 2 * (size_t)n + 2, sizeof *a.edge_px);
    a.stretched = ta_alloc_array(pool, 2 * (size_t)n + 2, sizeof *a.stretched);
    a.num_edges = collect_edges(a.edge, region_size, tensors, n);
    const uint64_t total = region_size ? region_size : 1;
    int64_t y = 0;
    for (int i = 0; i + 1 < a.num_edges; i++) {
        a.edge_px[i] = y;
        uint64_t bytes = a.edge[i + 1] - a.edge[i];
        int64_t linear = (int64_t)((bytes * (uint64_t)linear_px * 100 + total / 2) / total);
        bool grow = linear < min_px * 100 && covered(a.edge[i], a.edge[i + 1], tensors, n);
        a.stretched[i] = grow;
        y += grow ? min_px * 100 : linear;
    }
    a.edge_px[a.num_edges - 1] = y;
    a.height_px = y;
    return a;
}

int64_t ta_plan_axis_at(const TaPlanAxis *a, size_t offset)
{
    for (int i = 0; i + 1 < a->num_edges; i++) {
        if (offset >= a->edge[i + 1])
            continue;
        int64_t span = a->edge_px[i + 1] - a->edge_px[i];
        uint64_t bytes = a->edge[i + 1] - a->edge[i];
        return a->edge_px[i] + (int64_t)(((uint64_t)span * (offset - a->edge[i])) / bytes);
    }
    return a->height_px;
}

const char *ta_plan_axis_scale_text(TaPool *pool, const TaPlanAxis *a, int linear_px)
{
    /* Tenths of a byte per pixel, rounded: "1.1" for a small region. */
    uint64_t tenths = ((uint64_t)a->region_size * 10 + (uint64_t)linear_px / 2) /
                      (uint64_t)linear_px;
    if (tenths >= 100 || tenths % 10 == 0)
        return ta_format(pool, "%llu", (unsigned long long)((tenths + 5) / 10));
    return ta_format(pool, "%llu.%llu", (unsigned long long)(tenths / 10),
                     (unsigned long long)(tenths % 10));
}

const char *ta_px_text(TaPool *pool, int64_t hundredths)
{
    int64_t whole = hundredths / 100, part = hundredths % 100;
    if (hundredths < 0)
        return ta_format(pool, "-%s", ta_px_text(pool, -hundredths));
    if (part == 0)
        return ta_format(pool, "%lld", (long long)whole);
    if (part % 10 == 0)
        return ta_format(pool, "%lld.%lld", (long long)whole, (long long)(part / 10));
    return ta_format(pool, "%lld.%02lld", (long long)whole, (long long)part);
}
