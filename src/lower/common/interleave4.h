/*
 * interleave4.h - weights interleaved four rows at a time in 16-byte
 * chunks, the layout of ta_conv_2d.h (CONV_2D's filters) and
 * ta_fully_connected.h (FULLY_CONNECTED on Helium cores): one pointer then
 * walks a block's four rows, each input chunk loaded once for them.
 */
#ifndef TA_INTERLEAVE4_H
#define TA_INTERLEAVE4_H

#include "../lower.h"

/* The bytes of `rows` rows of `length` taps each: whole blocks of four
   rows, whole chunks of 16 taps. */
size_t ta_interleave4_bytes(int32_t rows, size_t length);

/* Where row o's tap t goes, with `chunks` = ceil(length / 16). */
static inline size_t ta_interleave4_index(int32_t o, size_t t, size_t chunks)
{
    return ((size_t)o / 4 * chunks + t / 16) * 64 + (size_t)(o % 4) * 16 + t % 16;
}

/* Per-channel int32 factors (multipliers, shifts) of `count` channels
   padded to `padded` with copies of the last: the interleaved kernels read
   whole blocks and store only the valid channels. */
void ta_pad_channels(TaLower *L, TaTensor *t, int32_t count, int32_t padded);

#endif /* TA_INTERLEAVE4_H */
