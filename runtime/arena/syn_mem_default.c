/*
 * syn_mem_default.c - the default arena buffer, in a file of its own so a
 * program that passes its own buffer to syn_mem_init() does not carry it.
 */
#include "syn_mem.h"

/* Storage of CONFIG_SYNAPTIC_TENSOR_ARENA_SIZE bytes; the union asks for the
 * strictest alignment C99 can name, and the arena aligns the base up to its
 * own alignment if that is not enough. */
static union {
    unsigned char bytes[CONFIG_SYNAPTIC_TENSOR_ARENA_SIZE];
    long double ld;
    void *p;
    uintmax_t u;
} syn_mem_default_buffer;

int syn_mem_init_default(void)
{
    return syn_mem_init(syn_mem_default_buffer.bytes, sizeof syn_mem_default_buffer.bytes);
}
