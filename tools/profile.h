/*
 * profile.h - `tinyaot profile`: per-operator instructions of a module on a
 * Cortex-M board under QEMU.
 *
 *   profile.c         the command: options, conversion, build and run
 *   profile_report.c  the input, the runner's log, the text and JSON reports
 */
#ifndef TA_PROFILE_H
#define TA_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../include/tinyaot/tinyaot.h"
#include "validate.h"

/* The command, from main(): argv[1] is "profile". Returns the exit status. */
int tinyaot_cli_profile(int argc, char **argv);

/* What tests/qemu/profile_runner.c measured, in instructions. */
typedef struct PrFigures {
    uint64_t *ops; /* by layer index, the second run */
    size_t num_ops;
    uint64_t overhead; /* an empty callback pair: removed from each operator */
    uint64_t pair;     /* a whole callback pair: removed from the whole run, per operator */
    uint64_t cold;     /* the first run after model_init */
    uint64_t profiled; /* the second, around model_run, callbacks included */
    uint64_t whole;    /* profiled less the callbacks */
    uint64_t *warm;    /* runs 3.. without the callback */
    size_t num_warm;
    long calls, errors; /* operators the callback timed; out of order */
} PrFigures;

/* work/inputs.bin: one run of every input, from the file `from` (NULL:
   generated, seed 1: integers any value, float32 in [-1, 1), bool 0 or 1).
   0 when written; else said on stderr. */
int pr_write_inputs(const tinyaot_result *r, const char *work, const char *from);
/* Reads the runner's log into *f; false (said on stderr) when it lacks a
   figure or the callback did not see every operator once, in order. */
bool pr_read_log(const char *path, const VaBoard *board, PrFigures *f);
void pr_free_figures(PrFigures *f);
void pr_print_text(FILE *out, const tinyaot_result *r, long runs, const PrFigures *f);
void pr_print_json(FILE *out, const tinyaot_result *r, const char *model, const char *platform,
                   const VaBoard *board, long runs, const PrFigures *f);

#endif /* TA_PROFILE_H */
