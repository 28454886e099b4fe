/*
 * xorshift.h - the unit tests' pseudo-random numbers: Marsaglia's 32-bit
 * xorshift (shifts 13, 17, 5). Each test program keeps its own state, so
 * its data is the same on every run.
 */
#ifndef TINYAOT_TESTS_UNIT_XORSHIFT_H
#define TINYAOT_TESTS_UNIT_XORSHIFT_H

#include <stdint.h>

static inline uint32_t xorshift32(uint32_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return *state;
}

#endif /* TINYAOT_TESTS_UNIT_XORSHIFT_H */
