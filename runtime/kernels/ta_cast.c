/* ta_cast.c - see the header. */
#include "ta_cast.h"

#include "../include/ta_status.h"

/* The low 8 or 16 bits as a signed value, without relying on the
   implementation-defined conversion to a narrower signed type. */
static int8_t wrap_s8(int32_t v)
{
    const int32_t low = (int32_t)((uint32_t)v & 0xFFu);
    return (int8_t)(low >= 0x80 ? low - 0x100 : low);
}

static int16_t wrap_s16(int32_t v)
{
    const int32_t low = (int32_t)((uint32_t)v & 0xFFFFu);
    return (int16_t)(low >= 0x8000 ? low - 0x10000 : low);
}

/* Truncation toward zero, saturated to [lo, hi]; NaN is 0. Every
   comparison is exact in float, and (int32_t)v is only reached inside the
   range, where C defines it. */
static int32_t f32_sat(float v, int32_t lo, int32_t hi)
{
    if (v != v)
        return 0;
    if (v >= (float)hi) /* for int32, (float)hi is 2^31 */
        return hi;
    if (v <= (float)lo)
        return lo;
    return (int32_t)v;
}

#define TA_CAST_DEFINE(name, from_t, to_t, convert)                        \
    int name(const ta_cast_params_t *p, const from_t *input, to_t *output) \
    {                                                                      \
        for (int32_t i = 0; i < p->count; i++)                             \
            output[i] = convert(input[i]);                                 \
        return TA_OK;                                                      \
    }

#define TO_S8(v) wrap_s8((int32_t)(v))
#define TO_S16(v) wrap_s16((int32_t)(v))
#define TO_S32(v) ((int32_t)(v))
#define TO_F32(v) ((float)(v))
#define F32_S8(v) ((int8_t)f32_sat(v, INT8_MIN, INT8_MAX))
#define F32_S16(v) ((int16_t)f32_sat(v, INT16_MIN, INT16_MAX))
#define F32_S32(v) f32_sat(v, INT32_MIN, INT32_MAX)
#define BOOL_INT(v) ((v) ? 1 : 0)

TA_CAST_DEFINE(ta_cast_i8_i16, int8_t, int16_t, TO_S32)
TA_CAST_DEFINE(ta_cast_i8_i32, int8_t, int32_t, TO_S32)
TA_CAST_DEFINE(ta_cast_i8_f32, int8_t, float, TO_F32)
TA_CAST_DEFINE(ta_cast_i16_i8, int16_t, int8_t, TO_S8)
TA_CAST_DEFINE(ta_cast_i16_i32, int16_t, int32_t, TO_S32)
TA_CAST_DEFINE(ta_cast_i16_f32, int16_t, float, TO_F32)
TA_CAST_DEFINE(ta_cast_i32_i8, int32_t, int8_t, TO_S8)
TA_CAST_DEFINE(ta_cast_i32_i16, int32_t, int16_t, TO_S16)
TA_CAST_DEFINE(ta_cast_i32_f32, int32_t, float, TO_F32)
TA_CAST_DEFINE(ta_cast_f32_i8, float, int8_t, F32_S8)
TA_CAST_DEFINE(ta_cast_f32_i16, float, int16_t, F32_S16)
TA_CAST_DEFINE(ta_cast_f32_i32, float, int32_t, F32_S32)
TA_CAST_DEFINE(ta_cast_b_i8, bool, int8_t, BOOL_INT)
TA_CAST_DEFINE(ta_cast_b_i16, bool, int16_t, BOOL_INT)
TA_CAST_DEFINE(ta_cast_b_i32, bool, int32_t, BOOL_INT)
TA_CAST_DEFINE(ta_cast_b_f32, bool, float, BOOL_INT)
