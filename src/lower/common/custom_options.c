/* custom_options.c - see custom_options.h. */
#include "custom_options.h"

#include "../../model/flexbuffer.h"

bool ta_custom_option_int(TaLower *L, TaOp *op, const char *key, int64_t lo, int64_t hi,
                          int32_t *value)
{
    TaFlexMap map;
    const char *why = NULL;
    if (!ta_flex_map(op->custom_options, op->custom_options_size, &map, &why)) {
        ta_op_error(L, op, "custom options: %s", why);
        return false;
    }
    int64_t v = 0;
    switch (ta_flex_int(&map, key, &v)) {
    case TA_FLEX_FOUND: break;
    case TA_FLEX_ABSENT: ta_op_error(L, op, "custom option '%s' is missing", key); return false;
    case TA_FLEX_NOT_INT:
        ta_op_error(L, op, "custom option '%s' is not an integer", key);
        return false;
    default:
        ta_op_error(L, op, "custom options: malformed FlexBuffers value of '%s'", key);
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
