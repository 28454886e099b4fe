/*
 * kernel_table.h - every runtime kernel, callable by name inside the
 * compiler. The lowerings name kernels as strings (TaKernelCall.function);
 * the executor (execute.h) looks them up here to run a lowered graph on
 * the host with the same C99 kernels the generated module links.
 *
 * kernel_table.c is written by scripts/gen_kernel_table.py from the
 * kernel headers (the build runs it; make lint checks it is current).
 */
#ifndef TA_KERNEL_TABLE_H
#define TA_KERNEL_TABLE_H

#include <stddef.h>

/* Calls the kernel with `params` and args[0 .. arity-1]. */
typedef int (*TaKernelThunk)(const void *params, void *const *args);

typedef struct TaKernelEntry {
    const char *name;
    int arity; /* tensor arguments after the parameter struct */
    /* Per tensor argument, space-separated: "r:" if the kernel only reads
       it (a const pointer) or "w:" if it writes it, then its C element
       type as ta_dtype_ctype spells it ("void": bytes of any type). */
    const char *signature;
    TaKernelThunk call;
} TaKernelEntry;

/* The kernel called `name`, or NULL. */
const TaKernelEntry *ta_kernel_find(const char *name);
size_t ta_kernel_count(void);
const TaKernelEntry *ta_kernel_at(size_t i);

#endif /* TA_KERNEL_TABLE_H */
