/*
 * execute.h - runs a lowered, planned graph on the host, in the compiler's
 * own process, with the runtime's C99 kernels (kernel_table.h).
 *
 * It is the generated module's schedule replayed from the IR, not an
 * interpreter shipped anywhere: every region gets a buffer with the
 * plan's size and alignment, constant regions (staged or not) get their
 * bytes, persistent regions start at zero, the "init" calls run once in
 * layer order, then each run copies the inputs in, makes the "run" calls in
 * layer order and copies the outputs out. The built-in test case
 * (emit_test_case.c) takes its expected outputs from here.
 */
#ifndef TA_EXECUTE_H
#define TA_EXECUTE_H

#include "../ir/ir.h"
#include "../plan/plan.h"

/* Consecutive runs over one initialized instance (state carries over).
   inputs[r * num_inputs + i] holds ta_tensor_bytes() bytes of input i of
   run r; outputs[r * num_outputs + o] receives output o (pool memory).
   False, with an error naming the operator, when a kernel is unknown or
   fails, or when the WHILE loops of one run go round more than
   `max_loop_iterations` times in all (a loop that never ends). Memory
   stays bounded however long it runs: nothing is allocated per call. */
bool ta_execute(TaPool *pool, TaDiag *diag, const TaGraph *graph, const TaPlan *plan, int runs,
                uint64_t max_loop_iterations, const uint8_t *const *inputs, uint8_t **outputs);

#endif /* TA_EXECUTE_H */
