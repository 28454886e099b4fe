/*
 * interleave4.c - see interleave4.h.
 */
#include "interleave4.h"

#include <string.h>

size_t ta_interleave4_bytes(int32_t rows, size_t length)
{
    return ((size_t)rows + 3) / 4 * ((length + 15) / 16) * 64;
}

void ta_pad_channels(TaLower *L, TaTensor *t, int32_t count, int32_t padded)
{
    if (padded == count)
        return;
    int32_t *v = ta_alloc_array(L->pool, (size_t)padded, sizeof(int32_t));
    memcpy(v, t->data, (size_t)count * sizeof(int32_t));
    for (int32_t i = count; i < padded; i++)
        v[i] = v[count - 1];
    t->dims[0] = padded;
    t->data_size = (size_t)padded * sizeof(int32_t);
    t->data = (const uint8_t *)v;
}
