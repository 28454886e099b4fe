/*
 * pool.c - the conversion's memory: a list of blocks, bump-allocated and
 * freed in one call. Allocation failure is fatal (a compiler on a host
 * with no memory left has nothing sensible to do).
 */
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct TaPoolBlock {
    TaPoolBlock *next;
    size_t used;
    size_t cap;
    _Alignas(max_align_t) unsigned char data[];
};

enum { BLOCK_SIZE = 64 * 1024 };

_Noreturn void ta_bug(const char *file, int line, const char *what)
{
    fprintf(stderr, "tinyaot: internal error at %s:%d: %s\n", file, line, what);
    abort();
}

static void *checked_malloc(size_t size)
{
    void *p = malloc(size);
    if (!p) {
        fprintf(stderr, "tinyaot: out of memory allocating %zu bytes\n", size);
        abort();
    }
    return p;
}

void *ta_alloc(TaPool *pool, size_t size)
{
    const size_t align = _Alignof(max_align_t);
    if (size > SIZE_MAX - align - sizeof(TaPoolBlock))
        ta_bug(__FILE__, __LINE__, "allocation size overflow");
    size = (size + align - 1) & ~(align - 1);
    TaPoolBlock *b = pool->head;
    if (!b || b->cap - b->used < size) {
        size_t cap = size > BLOCK_SIZE ? size : BLOCK_SIZE;
        b = checked_malloc(sizeof(TaPoolBlock) + cap);
        b->cap = cap;
        b->used = 0;
        b->next = pool->head;
        pool->head = b;
    }
    void *p = b->data + b->used;
    b->used += size;
    memset(p, 0, size);
    return p;
}

void *ta_alloc_array(TaPool *pool, size_t count, size_t elem)
{
    if (elem && count > SIZE_MAX / elem)
        ta_bug(__FILE__, __LINE__, "array size overflow");
    return ta_alloc(pool, count * elem);
}

char *ta_strndup(TaPool *pool, const char *s, size_t n)
{
    char *p = ta_alloc(pool, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *ta_strdup(TaPool *pool, const char *s)
{
    return s ? ta_strndup(pool, s, strlen(s)) : NULL;
}

void *ta_memdup(TaPool *pool, const void *p, size_t n)
{
    void *q = ta_alloc(pool, n ? n : 1);
    if (n)
        memcpy(q, p, n);
    return q;
}

char *ta_format(TaPool *pool, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        ta_bug(__FILE__, __LINE__, "bad format");
    char *p = ta_alloc(pool, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

void ta_pool_free(TaPool *pool)
{
    TaPoolBlock *b = pool->head;
    while (b) {
        TaPoolBlock *next = b->next;
        free(b);
        b = next;
    }
    pool->head = NULL;
}

void ta_vec_push(TaPool *pool, TaVec *v, void *item)
{
    if (v->len == v->cap) {
        int cap = v->cap ? v->cap * 2 : 8;
        void **items = ta_alloc_array(pool, (size_t)cap, sizeof(void *));
        if (v->len)
            memcpy(items, v->items, (size_t)v->len * sizeof(void *));
        v->items = items;
        v->cap = cap;
    }
    v->items[v->len++] = item;
}
