/*
 * control_flow.h - the lowerings of what inline_control_flow.c puts in the
 * operator list: control-flow markers (no kernel call; the emitter writes
 * the C statement) and the COPY operators moving values across a
 * subgraph's boundary.
 */
#ifndef TA_CONTROL_FLOW_H
#define TA_CONTROL_FLOW_H

#include "lower.h"

extern const TaOpDef ta_op_control_marker; /* ELSE, END_IF, WHILE_TEST, END_WHILE */
extern const TaOpDef ta_op_control_copy;   /* COPY */

#endif /* TA_CONTROL_FLOW_H */
