/*
 * ta_move_rows.h - a row chain's move (src/emit/emit_row_chain.c): the
 * rows a row buffer still needs, `n` bytes at `from`, copied back to `to`
 * at or before them in the same buffer (the two may overlap), or to
 * bytes apart from them. Not a kernel: the chain's runner calls it between
 * band calls, and a band function to copy its parameter struct.
 *
 * Helium copies 64 bytes a step (a low-overhead loop; the rest 16, then
 * predicated), a fraction of the instructions of the C library's word
 * loop; DSP cores (Cortex-M4) 32 bytes a step by LDM/STM when everything
 * is word-aligned; other cores use memmove.
 */
#ifndef TA_MOVE_ROWS_H
#define TA_MOVE_ROWS_H

#include <stddef.h>
#include <stdint.h>

void ta_move_rows(int8_t *to, const int8_t *from, size_t n);

#endif /* TA_MOVE_ROWS_H */
