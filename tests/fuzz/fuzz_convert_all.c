/*
 * fuzz_convert_all.c - the whole conversion with every output on: the
 * module of one module.type (cmake, make, zephyr, cmsis_pack, firmware),
 * the built-in test case (so the in-process executor runs the model,
 * control flow included), the HTML documentation and the residency report.
 * The executor's loop cap is set low (test.max_loop_iterations 64) so a
 * WHILE that never ends is an error in microseconds, not a timeout. The
 * bytes are the model; the last byte picks the module type and the board.
 * Seeds: IF, WHILE, DECODE, Signal, LSTM and variable models written by
 * tests/gen (tests/fuzz/seeds/convert_all/README).
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const types[] = {"cmake", "make", "zephyr", "cmsis_pack", "firmware"};
    static const char *const platforms[] = {"host", "mps3_an547", "mps2_an386"};
    unsigned pick = size ? data[size - 1] : 0;
    const char *type = types[pick % 5];
    /* A firmware needs one of the two boards. */
    const char *platform = platforms[(pick / 5) % 3];
    if (pick % 5 == 4 && (pick / 5) % 3 == 0)
        platform = "mps3_an547";
    const char *model = fuzz_write_file("in.model.tflite", data, size);
    const tinyaot_option options[] = {{"model.path", model},
                                      {"platform.name", platform},
                                      {"module.type", type},
                                      {"test.enabled", "true"},
                                      {"test.max_loop_iterations", "64"},
                                      {"documentation.html", "true"},
                                      {"memory.dump_residency_json", "true"}};
    fuzz_convert(NULL, options, sizeof options / sizeof options[0]);
    return 0;
}
