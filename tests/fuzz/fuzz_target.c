/*
 * fuzz_target.c - the target (platform) file loader: the bytes are a
 * target YAML named by platform.name, converted with a fixed model, so the
 * memories, sections and spill order it declares reach the planner and the
 * emitter. Seeds: the built-in targets (targets/).
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *target = fuzz_write_file("in.target.yaml", data, size);
    const tinyaot_option options[] = {{"model.path", TA_FUZZ_MODEL}, {"platform.name", target}};
    fuzz_convert(NULL, options, 2);
    return 0;
}
