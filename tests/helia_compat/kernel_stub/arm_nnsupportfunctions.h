/* arm_nnsupportfunctions.h - see arm_nnfunctions.h beside it. */
#include "arm_nnfunctions.h"
