/* custom_options.c - see custom_options.h. */
#include "custom_options.h"

#include "../../model/flexbuffer.h"

static bool open_map(TaLower *L, TaOp *op, TaFlexMap *map)
{
    const char *why = NULL;
    if (!ta_flex_map(op->custom_options, op->custom_options_size, map, &why)) {
        ta_op_error(L, op, "custom options: %s", why);
        return false;
    }
    return true;
}

/* One error line for a lookup that found no usable value. */
static void report(TaLower *L, TaOp *op, const char *key, TaFlexStatus status)
{
    switch (status) {
    case TA_FLEX_ABSENT: ta_op_error(L, op, "custom option '%s' is missing", key); break;
    case TA_FLEX_NOT_INT: ta_op_error(L, op, "custom option '%s' is not an integer", key); break;
    case TA_FLEX_NOT_NUMBER: ta_op_error(L, op, "custom option '%s' is not a number", key); break;
    default: ta_op_error(L, op, "custom options: malformed FlexBuffers value of '%s'", key); break;
    }
}

static bool read_int(TaLower *L, TaOp *op, const char *key, const int32_t *fallback, int64_t lo,
                     int64_t hi, int32_t *value)
{
    TaFlexMap map;
    if (!open_map(L, op, &map))
        return false;
    int64_t v = 0;
    TaFlexStatus status = ta_flex_int(&map, key, &v);
    if (status == TA_FLEX_ABSENT && fallback) {
        *value = *fallback;
        return true;
    }
    if (status != TA_FLEX_FOUND) {
        report(L, op, key, status);
        return false;
    }
    if (v < lo || v > hi) {
        ta_op_error(L, op, "custom option '%s' is %lld; tinyaot supports %lld to %lld", key,
                    (long long)v, (long long)lo, (long long)hi);
        return false;
    }
    *value = (int32_t)v;
    return true;
}

bool ta_custom_option_int(TaLower *L, TaOp *op, const char *key, int64_t lo, int64_t hi,
                          int32_t *value)
{
    return read_int(L, op, key, NULL, lo, hi, value);
}

bool ta_custom_option_int_or(TaLower *L, TaOp *op, const char *key, int32_t fallback, int64_t lo,
                             int64_t hi, int32_t *value)
{
    return read_int(L, op, key, &fallback, lo, hi, value);
}

bool ta_custom_option_float(TaLower *L, TaOp *op, const char *key, float *value)
{
    TaFlexMap map;
    if (!open_map(L, op, &map))
        return false;
    double v = 0.0;
    TaFlexStatus status = ta_flex_number(&map, key, &v);
    if (status != TA_FLEX_FOUND) {
        report(L, op, key, status);
        return false;
    }
    *value = (float)v;
    return true;
}
