/*
 * ta_element.h - for kernels written once over their element type: the
 * thin s8/s16 entry points call one body with a constant `wide` flag
 * (int16 when true, int8 when false).
 *
 * TA_ALWAYS_INLINE marks such a body: forced inlining compiles one copy per
 * entry point with the flag folded away, as two hand-written twins would
 * be. ta_load_element and ta_store_element read and write element i of
 * either type.
 */
#ifndef TA_ELEMENT_H
#define TA_ELEMENT_H

#include "ta_compiler.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline int32_t ta_load_element(const void *base, size_t i, bool wide)
{
    return wide ? ((const int16_t *)base)[i] : ((const int8_t *)base)[i];
}

/* v must lie in the element type's range. */
static inline void ta_store_element(void *base, size_t i, int32_t v, bool wide)
{
    if (wide)
        ((int16_t *)base)[i] = (int16_t)v;
    else
        ((int8_t *)base)[i] = (int8_t)v;
}

#endif /* TA_ELEMENT_H */
