/*
 * hash.c - the two checksums tinyaot writes: FNV-1a 64 (module markers,
 * the plan hash) and CRC-32 (zip archives).
 */
#include "util.h"

#define FNV1A64_PRIME 0x100000001b3ull

uint64_t ta_fnv1a64(uint64_t hash, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
        hash = (hash ^ p[i]) * FNV1A64_PRIME;
    return hash;
}

/* Bit by bit: archives are small next to the conversion, and no table
   needs building or checking. */
uint32_t ta_crc32(uint32_t crc, const void *data, size_t n)
{
    const unsigned char *p = data;
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int bit = 0; bit < 8; bit++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}
