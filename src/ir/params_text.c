/*
 * params_text.c - a kernel call's parameter struct as text, one field per
 * item in the order of the kernel header's X-macro list: the module's C
 * initializer (emit_op_files.c) and `--dump-after` (dump.c) both print it
 * from here, so the two always agree.
 */
#include "ir.h"

#include <string.h>

static size_t field_type_size(TaFieldType type)
{
    return type == TA_FIELD_DOUBLE ? sizeof(double) : 4;
}

/* One element of a field, as a C initializer spells it. */
static void field_value(TaBuf *b, TaFieldType type, const unsigned char *at)
{
    switch (type) {
    case TA_FIELD_INT32: {
        int32_t v;
        memcpy(&v, at, sizeof v);
        ta_buf_printf(b, "%lld", (long long)v);
        break;
    }
    case TA_FIELD_UINT32: {
        uint32_t v;
        memcpy(&v, at, sizeof v);
        ta_buf_printf(b, "%lld", (long long)v);
        break;
    }
    case TA_FIELD_FLOAT: {
        float v;
        memcpy(&v, at, sizeof v);
        ta_buf_printf(b, "%.17g", (double)v);
        break;
    }
    case TA_FIELD_DOUBLE: {
        double v;
        memcpy(&v, at, sizeof v);
        ta_buf_printf(b, "%.17g", v);
        break;
    }
    }
}

static bool all_zero(const unsigned char *at, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (at[i])
            return false;
    return true;
}

void ta_params_text(TaBuf *b, const TaKernelCall *call, bool one_line)
{
    const TaParamsDesc *desc = call->params_desc;
    const unsigned char *base = call->params_struct;
    bool first = true;
    for (int i = 0; desc && i < desc->num_fields; i++) {
        const TaParamField *f = &desc->fields[i];
        size_t bytes = field_type_size(f->type) * (size_t)(f->length ? f->length : 1);
        /* the initializer zeroes an omitted field all the same */
        if (ta_call_ignores_field(call, f->offset) && all_zero(base + f->offset, bytes))
            continue;
        if (one_line)
            ta_buf_printf(b, "%s%s=", first ? "" : " ", f->name);
        else
            ta_buf_printf(b, "    .%s = ", f->name);
        first = false;
        if (f->length == 0) {
            field_value(b, f->type, base + f->offset);
        } else {
            /* of an array with a counting field, the elements in use */
            int32_t n = f->length;
            if (f->used_offset >= 0)
                memcpy(&n, base + f->used_offset, sizeof n);
            if (n < 0 || n > f->length) /* lowerings check ranks first; never expected */
                n = f->length;
            ta_buf_puts(b, "{");
            for (int32_t k = 0; k < n; k++) {
                ta_buf_puts(b, k ? ", " : "");
                field_value(b, f->type, base + f->offset + (size_t)k * field_type_size(f->type));
            }
            ta_buf_puts(b, "}");
        }
        if (!one_line)
            ta_buf_puts(b, ",\n");
    }
}
