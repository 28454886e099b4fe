/* ta_circular_buffer.c - see the header. */
#include "ta_circular_buffer.h"

#include "../include/ta_status.h"

#include <string.h>

int ta_circular_buffer_s8(const ta_circular_buffer_params_t *p, const int8_t *input, int8_t *window,
                          int8_t *output)
{
    const size_t depth = (size_t)p->depth, kept = (size_t)(p->slots - 1) * depth;
    memmove(window, window + depth, kept);
    memcpy(window + kept, input, depth);
    memcpy(output, window, kept + depth);
    return TA_OK;
}
