/* analyze_tensors.h - `tinyaot analyze --tensors`: every tensor of the
   module with its id, name, kind, dtype and shape, size and placement,
   the ids placement rules (memory.tensors) match. */
#ifndef TA_CLI_ANALYZE_TENSORS_H
#define TA_CLI_ANALYZE_TENSORS_H

#include "../include/tinyaot/tinyaot.h"

/* A table on stdout, one line per tensor. */
void cli_print_tensors_text(const tinyaot_result *r);
/* `,\n "tensors": [...]` on stdout: a key of analyze's JSON object. */
void cli_print_tensors_json(const tinyaot_result *r);

#endif /* TA_CLI_ANALYZE_TENSORS_H */
