/*
 * ta_push_pieces.h - how the built-in test case, the firmware and the test
 * runners hand a row-push module (module.input_rows: push) its input: in
 * uneven pieces of 1, 3, 2, 1, 3, 2, ... rows, so that the pieces start and
 * end at every offset of the row chain's bands. An application pushes its
 * rows in whatever pieces its camera or microphone delivers.
 */
#ifndef TA_PUSH_PIECES_H
#define TA_PUSH_PIECES_H

#include <stdint.h>

/* The rows of piece `piece` (0, 1, ...) when `rows_left` rows remain. */
static inline int32_t ta_push_piece_rows(int32_t piece, int32_t rows_left)
{
    int32_t n = 1 + (piece * 2) % 3;
    return n < rows_left ? n : rows_left;
}

#endif /* TA_PUSH_PIECES_H */
