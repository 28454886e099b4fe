/*
 * fuzz_config.c - the configuration loader and everything it steers: the
 * bytes are a YAML configuration file, converted with a fixed model
 * (model.path and module.path come from the command line, which overrides
 * the file), so placement rules, constraints, operator rules, transforms
 * and the planner see whatever the file says. Seeds: tests/fuzz/seeds/config.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *config = fuzz_write_file("in.config.yaml", data, size);
    const tinyaot_option options[] = {{"model.path", TA_FUZZ_MODEL}};
    fuzz_convert(config, options, 1);
    return 0;
}
