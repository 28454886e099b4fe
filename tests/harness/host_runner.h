/*
 * host_runner.h - what the host runner needs of a generated module, as
 * data, so one runner program can hold many modules (the operator tests
 * build dozens of modules into one executable).
 *
 *   TA_RUNNER_MODULE(prefix) defines `ta_runner_module_t prefix##_runner`
 *   for a module whose <prefix>_model.h is included.
 */
#ifndef TA_HOST_RUNNER_H
#define TA_HOST_RUNNER_H

#include <stddef.h>

#include "runtime/include/ta_module.h"
#include "runtime/include/ta_status.h"

typedef struct ta_runner_module {
    const char *prefix;
    const ta_module_desc_t *desc;
    int (*init)(void);
    int (*run)(void);
    int num_inputs;
    int num_outputs;
    void *(*input)(int i, size_t *size);
    void *(*output)(int i, size_t *size);
} ta_runner_module_t;

/* What both kinds of module share: the context, init, the outputs and the
   table entry (NUM_INPUTS inputs). */
#define TA_RUNNER_CONTEXT_(P)                           \
    static P##_model_context_t P##_runner_ctx;          \
    static int P##_runner_init(void)                    \
    {                                                   \
        return P##_model_init(&P##_runner_ctx);         \
    }                                                   \
    static void *P##_runner_output(int i, size_t *size) \
    {                                                   \
        *size = P##_runner_ctx.outputs[i].size;         \
        return P##_runner_ctx.outputs[i].data;          \
    }
#define TA_RUNNER_ENTRY_(P, NUM_INPUTS)                                          \
    const ta_runner_module_t P##_runner = {                                      \
        #P,                                                                      \
        &P##_module_desc,                                                        \
        P##_runner_init,                                                         \
        P##_runner_run,                                                          \
        (NUM_INPUTS),                                                            \
        (int)(sizeof P##_runner_ctx.outputs / sizeof P##_runner_ctx.outputs[0]), \
        P##_runner_input,                                                        \
        P##_runner_output}

#define TA_RUNNER_MODULE(P)                            \
    TA_RUNNER_CONTEXT_(P)                              \
    static int P##_runner_run(void)                    \
    {                                                  \
        return P##_model_run(&P##_runner_ctx);         \
    }                                                  \
    static void *P##_runner_input(int i, size_t *size) \
    {                                                  \
        *size = P##_runner_ctx.inputs[i].size;         \
        return P##_runner_ctx.inputs[i].data;          \
    }                                                  \
    TA_RUNNER_ENTRY_(P, (int)(sizeof P##_runner_ctx.inputs / sizeof P##_runner_ctx.inputs[0]))

/* A module with row-push input (module.input_rows: push; its model.h
   defines <prefix>_model_push_input_rows): `input` is a buffer of the whole
   input, and `run` pushes its rows in ta_push_pieces.h's pieces. */
#define TA_RUNNER_PUSH_MODULE(P)                                                               \
    TA_RUNNER_CONTEXT_(P)                                                                      \
    static int8_t P##_runner_rows[P##_model_push_input_rows * P##_model_push_row_size];        \
    static int P##_runner_run(void)                                                            \
    {                                                                                          \
        int status = TA_OK;                                                                    \
        for (int done = 0, piece = 0; status == TA_OK && done < P##_model_push_input_rows;     \
             piece++) {                                                                        \
            int n = ta_push_piece_rows(piece, P##_model_push_input_rows - done);               \
            status = P##_model_push_rows(                                                      \
                &P##_runner_ctx, P##_runner_rows + (size_t)done * P##_model_push_row_size, n); \
            done += n;                                                                         \
        }                                                                                      \
        return status;                                                                         \
    }                                                                                          \
    static void *P##_runner_input(int i, size_t *size)                                         \
    {                                                                                          \
        (void)i;                                                                               \
        *size = sizeof P##_runner_rows;                                                        \
        return P##_runner_rows;                                                                \
    }                                                                                          \
    TA_RUNNER_ENTRY_(P, 1)

/* The modules a runner program holds (defined by host_runner.c for one
   module, or by a generated table for many). */
extern const ta_runner_module_t *const ta_runner_modules[];
extern const int ta_runner_num_modules;

#endif /* TA_HOST_RUNNER_H */
