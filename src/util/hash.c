/*
 * hash.c - the two checksums tinyaot writes, FNV-1a 64 (module markers,
 * the plan hash) and CRC-32 (zip archives), and a string set keyed by
 * FNV-1a.
 */
#include "util.h"

#include <string.h>

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

TaNameSet ta_name_set(TaPool *pool, size_t names)
{
    size_t n = 16;
    while (n < 2 * names + 2)
        n *= 2;
    TaNameSet set = {ta_alloc_array(pool, n, sizeof(const char *)), n - 1};
    return set;
}

bool ta_name_set_add(TaNameSet *set, const char *name)
{
    size_t at = (size_t)ta_fnv1a64(0xcbf29ce484222325ULL, name, strlen(name)) & set->mask;
    for (; set->slots[at]; at = (at + 1) & set->mask)
        if (strcmp(set->slots[at], name) == 0)
            return false;
    set->slots[at] = name;
    return true;
}
