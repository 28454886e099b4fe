/* ta_lut.c - the table kernel; see the header. */
#include "ta_lut.h"

#include "../include/ta_status.h"

#include "ta_lookup.h"

int ta_lut_s8(const ta_lut_params_t *p, const int8_t *input, const int8_t *table, int8_t *output)
{
    /* Checked before any write, so a rejected input leaves the output as
       it was even when it shares the input's bytes. */
    if (p->input_min > INT8_MIN)
        for (int32_t i = 0; i < p->size; i++)
            if (input[i] < p->input_min)
                return TA_ERR_KERNEL;
    ta_lookup_s8(p->size, input, table, output);
    return TA_OK;
}
