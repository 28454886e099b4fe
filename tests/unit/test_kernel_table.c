/*
 * test_kernel_table.c - the executor's kernel table (src/exec): every entry
 * is found by its own name (the table is in the order the binary search
 * needs), names are unique, unknown names are not found, and one kernel
 * called through its thunk computes what the kernel computes directly.
 */
#include "exec/kernel_table.h"

#include "../../runtime/kernels/ta_relu.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    int failures = 0;
    size_t n = ta_kernel_count();
    if (n < 80) {
        printf("FAIL: only %zu kernels in the table\n", n);
        failures++;
    }
    for (size_t i = 0; i < n; i++) {
        const TaKernelEntry *e = ta_kernel_at(i);
        if (ta_kernel_find(e->name) != e) {
            printf("FAIL: %s is not found by name\n", e->name);
            failures++;
        }
        if (i > 0 && strcmp(ta_kernel_at(i - 1)->name, e->name) >= 0) {
            printf("FAIL: %s is out of order or repeated\n", e->name);
            failures++;
        }
    }
    if (ta_kernel_find("ta_no_such_kernel") || ta_kernel_find("") || ta_kernel_at(n)) {
        printf("FAIL: an unknown name or index was found\n");
        failures++;
    }
    /* The thunk passes the arguments on in order. */
    const TaKernelEntry *relu = ta_kernel_find("ta_relu_s8");
    int8_t in[4] = {-100, -1, 5, 120}, via_table[4] = {0}, direct[4] = {0};
    ta_relu_params_t p;
    memset(&p, 0, sizeof p);
    p.size = 4;
    p.multiplier = 1 << 30; /* x 0.5 x 2^1: the identity scale */
    p.shift = 1;
    p.activation_min = 0;
    p.activation_max = 127;
    void *args[2] = {in, via_table};
    if (!relu || relu->arity != 2 || relu->call(&p, args) != ta_relu_s8(&p, in, direct) ||
        memcmp(via_table, direct, sizeof direct) != 0) {
        printf("FAIL: ta_relu_s8 through the table differs from a direct call\n");
        failures++;
    }
    printf("%zu kernels, %d failures\n", n, failures);
    return failures != 0;
}
