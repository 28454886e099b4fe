/*
 * conv_entries.h - the int8 CONV_2D kernel entries, one per weight layout
 * (conv_2d.c picks one per layer), and what each takes: the entry its
 * layers run fused with a residual ADD (conv_2d_add.c), and whether packed
 * int4 weights can replace it (int4_packed.c). Row chains (every entry and
 * every fused one runs by bands) and sparse 1x1 weights read it too.
 */
#ifndef TA_CONV_ENTRIES_H
#define TA_CONV_ENTRIES_H

#include <stdbool.h>

typedef struct TaConvEntry {
    const char *entry;
    const char *fused; /* with the residual ADD (runtime/kernels/ta_conv_2d_add.h) */
    bool int4;         /* ta_conv_2d_s4 can take its layers */
} TaConvEntry;

/* The entry named `function`; NULL for any other kernel. */
const TaConvEntry *ta_conv_entry(const char *function);
/* Whether `function` is an entry or a fused entry. */
bool ta_conv_entry_or_fused(const char *function);

#endif
