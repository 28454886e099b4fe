/*
 * fuzz_common.h - what the three fuzz targets share: a private scratch
 * directory per process, writing the fuzzer's bytes to a file there, one
 * whole conversion through the public API, and the checks every result
 * must pass whatever the input:
 *
 *   - a failure has at least one diagnostic, and every diagnostic is one
 *     line (no newline inside);
 *   - a failure leaves nothing at module.path and no temporary folder
 *     beside it; a success leaves a module directory there;
 *   - nothing crashes, hangs or trips a sanitizer (libFuzzer and
 *     ASan/UBSan watch for that).
 *
 * A violated check aborts, so libFuzzer keeps the input as a crash.
 */
#ifndef TA_FUZZ_COMMON_H
#define TA_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "tinyaot/tinyaot.h"

/* The process's scratch directory (created on first use). */
const char *fuzz_dir(void);
/* Writes bytes to <fuzz_dir>/<name> and returns that path. */
const char *fuzz_write_file(const char *name, const uint8_t *data, size_t size);
/* Converts with the given configuration file (or NULL) and keys into
   <fuzz_dir>/module, checks the result as above and removes the module. */
void fuzz_convert(const char *config_path, const tinyaot_option *options, size_t num_options);

#endif /* TA_FUZZ_COMMON_H */
