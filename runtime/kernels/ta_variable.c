/* ta_variable.c - see the header. */
#include "ta_variable.h"

#include "../include/ta_status.h"

#include <string.h>

int ta_variable_fill(const ta_variable_fill_params_t *p, void *state)
{
    memset(state, p->byte_value, p->bytes);
    return TA_OK;
}
