/*
 * arena_test_util.c - helpers shared by the arena tests.
 */
#include "arena_test_util.h"

int tu_overlap(const void *a, size_t an, const void *b, size_t bn)
{
    uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
    if (an == 0 || bn == 0) {
        return 0;
    }
    return pa < pb + bn && pb < pa + an;
}

int tu_inside(const void *p, size_t n, const void *lo, size_t lon)
{
    uintptr_t pp = (uintptr_t)p, pl = (uintptr_t)lo;
    return pp >= pl && pp + n <= pl + lon && pp + n >= pp;
}

int tu_aligned(const void *p, size_t alignment)
{
    return ((uintptr_t)p & (uintptr_t)(alignment - 1)) == 0;
}

unsigned char *tu_align(unsigned char *buf, size_t alignment)
{
    uintptr_t a = (uintptr_t)buf;
    size_t pad = (size_t)((alignment - (size_t)(a & (alignment - 1))) & (alignment - 1));
    return buf + pad;
}

const char *tu_number(const char *prefix, size_t v, const char *suffix, char *out)
{
    char digits[24];
    size_t n = 0, i = 0;
    while (*prefix != '\0' && i < 20) {
        out[i++] = *prefix++;
    }
    do {
        digits[n++] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v != 0);
    while (n > 0) {
        out[i++] = digits[--n];
    }
    while (*suffix != '\0' && i < 63) {
        out[i++] = *suffix++;
    }
    out[i] = '\0';
    return out;
}

int tu_contains(const char *text, const char *needle)
{
    size_t i, j;
    for (i = 0; text[i] != '\0'; i++) {
        for (j = 0; needle[j] != '\0' && text[i + j] == needle[j]; j++) {
        }
        if (needle[j] == '\0') {
            return 1;
        }
    }
    return needle[0] == '\0';
}

static unsigned char pattern(size_t i, unsigned seed)
{
    return (unsigned char)((i * 31u + seed * 17u + (i >> 8)) & 0xFFu);
}

void tu_fill(void *p, size_t n, unsigned seed)
{
    unsigned char *b = (unsigned char *)p;
    size_t i;
    for (i = 0; i < n; i++) {
        b[i] = pattern(i, seed);
    }
}

int tu_holds(const void *p, size_t n, unsigned seed)
{
    const unsigned char *b = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < n; i++) {
        if (b[i] != pattern(i, seed)) {
            return 0;
        }
    }
    return 1;
}

void tu_log_hook(void *user, const char *line)
{
    tu_log_t *log = (tu_log_t *)user;
    size_t i = 0;
    while (line[i] != '\0' && i + 1 < sizeof log->last) {
        log->last[i] = line[i];
        i++;
    }
    log->last[i] = '\0';
    log->lines++;
}

static void stat_fail(const char *file, int line, const char *what, unsigned long long a,
                      unsigned long long b)
{
    ta_test_fail_eq(file, line, what, "expected", a, b);
}

void tu_check_stats(const ta_arena_t *arena, size_t buffer_size, const char *file, int line)
{
    ta_arena_stats_t s;
    if (ta_arena_get_stats(arena, &s) != TA_OK) {
        ta_test_fail(file, line, "ta_arena_get_stats(arena) == TA_OK");
        return;
    }
    if (s.arena_used + s.arena_free != s.arena_total) {
        stat_fail(file, line, "arena_used + arena_free", s.arena_used + s.arena_free,
                  s.arena_total);
    }
    if (s.persistent_used + s.ephemeral_used + s.scratch_used != s.arena_used) {
        stat_fail(file, line, "persistent_used + ephemeral_used + scratch_used",
                  s.persistent_used + s.ephemeral_used + s.scratch_used, s.arena_used);
    }
    if (s.tensor_free + (s.scratch_total - s.scratch_used) != s.arena_free) {
        stat_fail(file, line, "tensor_free + scratch_total - scratch_used",
                  s.tensor_free + (s.scratch_total - s.scratch_used), s.arena_free);
    }
    if (s.arena_total + s.align_lost != buffer_size) {
        stat_fail(file, line, "arena_total + align_lost", s.arena_total + s.align_lost,
                  buffer_size);
    }
    if (s.scratch_used > s.scratch_total || s.arena_used > s.arena_peak ||
        s.scratch_used > s.scratch_peak || s.shared_used > s.shared_total) {
        ta_test_fail(file, line, "used <= total and used <= peak");
    }
}
