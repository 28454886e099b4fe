/*
 * arena_test_util.h - helpers shared by the arena tests.
 */
#ifndef ARENA_TEST_UTIL_H
#define ARENA_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "ta_arena.h"
#include "ta_test.h"

/*
 * Bytes a tensor descriptor takes at the start of its block with the
 * default 16-byte alignment: 48 on a 64-bit host, 32 on arm-none-eabi
 * (whose enums are one byte).
 */
#define TU_HDR ((sizeof(ta_tensor_t) + 15u) & ~(size_t)15u)

/* 1 if [a, a + an) and [b, b + bn) share a byte. */
int tu_overlap(const void *a, size_t an, const void *b, size_t bn);
/* 1 if [p, p + n) lies inside [lo, lo + lon). */
int tu_inside(const void *p, size_t n, const void *lo, size_t lon);
int tu_aligned(const void *p, size_t alignment);
/* The first address in buf at a multiple of alignment. */
unsigned char *tu_align(unsigned char *buf, size_t alignment);
/* Writes prefix, the decimal v and suffix into out (64 bytes); returns out. */
const char *tu_number(const char *prefix, size_t v, const char *suffix, char *out);
/* 1 if the text contains needle. */
int tu_contains(const char *text, const char *needle);

/* Fills [p, p + n) with a pattern derived from seed; checks it back. */
void tu_fill(void *p, size_t n, unsigned seed);
int tu_holds(const void *p, size_t n, unsigned seed);

/* A log hook that keeps the last line and counts lines. */
typedef struct {
    char last[512];
    unsigned lines;
} tu_log_t;
void tu_log_hook(void *user, const char *line);

/*
 * Checks that the statistics add up (see ta_arena.h) for an arena over a
 * buffer of buffer_size bytes.
 */
void tu_check_stats(const ta_arena_t *arena, size_t buffer_size, const char *file, int line);
#define TU_CHECK_STATS(arena, size) tu_check_stats((arena), (size), __FILE__, __LINE__)

#endif /* ARENA_TEST_UTIL_H */
