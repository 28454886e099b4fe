/*
 * fuzz_convert.c - the whole conversion (read, check, transforms, lower,
 * plan, emit) of a model given as bytes, with the default configuration
 * and, chosen by the first byte, one of the built-in targets. Seeds: the
 * shared models.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const platforms[] = {"host", "mps3_an547", "mps2_an386"};
    /* The target comes from the last byte so the model's own bytes (the
       flatbuffer's root offset first) stay those of the seed. */
    const char *platform = platforms[size ? data[size - 1] % 3 : 0];
    const char *model = fuzz_write_file("in.model.tflite", data, size);
    const tinyaot_option options[] = {{"model.path", model}, {"platform.name", platform}};
    fuzz_convert(NULL, options, 2);
    return 0;
}
