/* ta_broadcast_args.c - BROADCAST_ARGS; see the header. Both element
 * types go through int32_t, as TFLite Micro's reference reads every entry
 * into an int: int64 entries keep their low 32 bits. */
#include "ta_broadcast_args.h"

#include "../include/ta_status.h"

/* Entry `back` counted from the end of a shape of `length` entries. */
static int32_t entry_s32(const int32_t *shape, int32_t length, int32_t back)
{
    return back < length ? shape[length - 1 - back] : 1;
}

static int32_t entry_s64(const int64_t *shape, int32_t length, int32_t back)
{
    return back < length ? (int32_t)(uint32_t)shape[length - 1 - back] : 1;
}

/* The broadcast of two entries; 0 with *ok cleared when they clash. */
static int32_t combine(int32_t a, int32_t b, int *ok)
{
    if (a == 1)
        return b;
    if (b != 1 && a != b)
        *ok = 0;
    return a;
}

int ta_broadcast_args_i32(const ta_broadcast_args_params_t *p, const int32_t *shape1,
                          const int32_t *shape2, int32_t *output)
{
    int ok = 1;
    for (int32_t back = 0; back < p->output_length; back++) {
        const int32_t v = combine(entry_s32(shape1, p->length1, back),
                                  entry_s32(shape2, p->length2, back), &ok);
        output[p->output_length - 1 - back] = v;
    }
    return ok ? TA_OK : TA_ERR_KERNEL;
}

int ta_broadcast_args_i64(const ta_broadcast_args_params_t *p, const int64_t *shape1,
                          const int64_t *shape2, int64_t *output)
{
    int ok = 1;
    for (int32_t back = 0; back < p->output_length; back++) {
        const int32_t v = combine(entry_s64(shape1, p->length1, back),
                                  entry_s64(shape2, p->length2, back), &ok);
        output[p->output_length - 1 - back] = v;
    }
    return ok ? TA_OK : TA_ERR_KERNEL;
}
