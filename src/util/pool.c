/*
 * pool.c - the conversion's memory: a list of blocks, bump-allocated and
 * freed in one call, and what happens when the host has no memory left:
 * inside a conversion (TaOomGuard) the failure returns to tinyaot_convert,
 * which reports it, so a process that embeds the library (Python) lives on.
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

/* The innermost guard of this thread, if any. */
static _Thread_local TaOomGuard *current_guard;

void ta_oom_enter(TaOomGuard *g)
{
    memset(g, 0, sizeof *g);
    g->outer = current_guard;
#ifdef TINYAOT_TEST_HOOKS
    const char *n = getenv("TINYAOT_DEBUG_FAIL_ALLOC");
    g->fail_at = n ? strtol(n, NULL, 10) : 0;
#endif
    current_guard = g;
}

void ta_oom_leave(TaOomGuard *g)
{
    TA_ASSERT(current_guard == g);
    current_guard = g->outer;
    /* After a jump, what the unwound frames had not freed yet. Otherwise
       the owners free their own storage (a TaBuf may outlive the guard). */
    if (g->failed)
        for (size_t i = 0; i < g->num_heap; i++)
            free(g->heap[i]);
    free(g->heap);
    g->heap = NULL;
    g->num_heap = g->cap_heap = 0;
}

void ta_oom_on_unwind(void (*unwind)(void *arg), void *arg)
{
    if (!current_guard)
        return;
    current_guard->unwind = unwind;
    current_guard->unwind_arg = arg;
}

_Noreturn void ta_out_of_memory(size_t size)
{
    TaOomGuard *g = current_guard;
    if (!g) {
        fprintf(stderr, "tinyaot: out of memory allocating %zu bytes\n", size);
        abort();
    }
    g->failed = true;
    g->failed_size = size;
    g->fail_at = 0; /* the hook fails one allocation, not the report of it */
    void (*unwind)(void *) = g->unwind;
    g->unwind = NULL; /* running out again inside it jumps at once */
    if (unwind)
        unwind(g->unwind_arg);
    longjmp(g->jump, 1);
}

/* True when the test hook says this allocation fails. */
static bool hook_fails(void)
{
    TaOomGuard *g = current_guard;
    return g && g->fail_at > 0 && ++g->count == g->fail_at;
}

static void *checked_malloc(size_t size)
{
    void *p = hook_fails() ? NULL : malloc(size);
    if (!p)
        ta_out_of_memory(size);
    return p;
}

static void forget_heap(TaOomGuard *g, void *p)
{
    for (size_t i = g->num_heap; i-- > 0;)
        if (g->heap[i] == p) {
            g->heap[i] = g->heap[--g->num_heap];
            return;
        }
}

void *ta_heap_realloc(void *p, size_t size)
{
    TaOomGuard *g = current_guard;
    /* Room to record the result first: after a successful realloc nothing
       may fail before it is recorded. */
    if (g && g->num_heap == g->cap_heap) {
        size_t cap = g->cap_heap ? g->cap_heap * 2 : 16;
        void **grown = realloc(g->heap, cap * sizeof *grown);
        if (!grown)
            ta_out_of_memory(cap * sizeof *grown);
        g->heap = grown;
        g->cap_heap = cap;
    }
    /* Forgotten before the call: after a moving realloc p may not even be
       compared. Recorded again if realloc fails, as p is then still live. */
    if (g && p)
        forget_heap(g, p);
    void *q = hook_fails() ? NULL : realloc(p, size ? size : 1);
    if (!q) {
        if (g && p)
            g->heap[g->num_heap++] = p;
        ta_out_of_memory(size);
    }
    if (g)
        g->heap[g->num_heap++] = q;
    return q;
}

void ta_heap_free(void *p)
{
    if (p && current_guard)
        forget_heap(current_guard, p);
    free(p);
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
