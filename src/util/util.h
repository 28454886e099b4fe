/*
 * util.h - small pieces every stage of the compiler uses: a memory pool
 * that is freed in one call, growable strings, diagnostics, files.
 *
 * Ownership rule of the compiler: everything a conversion allocates comes
 * from its TaPool and dies with it; nothing is freed one piece at a time.
 */
#ifndef TA_UTIL_H
#define TA_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define TA_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define TA_PRINTF(fmt, args)
#endif

/* An internal invariant that bad input cannot break: a bug if it fails. */
#define ta_unreachable() ta_bug(__FILE__, __LINE__, "unreachable")
#define TA_ASSERT(cond) ((cond) ? (void)0 : ta_bug(__FILE__, __LINE__, #cond))
_Noreturn void ta_bug(const char *file, int line, const char *what);

#define TA_COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ---- pool.c: bump allocator freed all at once ------------------------- */

typedef struct TaPoolBlock TaPoolBlock;
typedef struct TaPool {
    TaPoolBlock *head;
} TaPool;

void *ta_alloc(TaPool *pool, size_t size);                     /* zeroed; see TaOomGuard */
void *ta_alloc_array(TaPool *pool, size_t count, size_t elem); /* overflow-checked */
char *ta_strdup(TaPool *pool, const char *s);
char *ta_strndup(TaPool *pool, const char *s, size_t n);
char *ta_format(TaPool *pool, const char *fmt, ...) TA_PRINTF(2, 3);
void *ta_memdup(TaPool *pool, const void *p, size_t n);
void ta_pool_free(TaPool *pool);

/* Running out of memory. While a guard is entered (tinyaot_convert does),
   an allocation that fails calls the guard's unwind step, if any, then
   longjmps to guard->jump; without a guard it prints and aborts. Every
   allocation of a conversion is a pool block or heap storage made with
   ta_heap_realloc (tracked by the guard and freed after a jump), so the
   jump leaks nothing. The jump never crosses the public API.
   Test hook (TINYAOT_TEST_HOOKS builds): TINYAOT_DEBUG_FAIL_ALLOC=N fails
   the Nth allocation after ta_oom_enter. */
typedef struct TaOomGuard {
    jmp_buf jump;
    size_t failed_size; /* the allocation that failed, once one has */
    bool failed;
    void (*unwind)(void *arg); /* e.g. removes a half-written module */
    void *unwind_arg;
    void **heap; /* live ta_heap_realloc storage */
    size_t num_heap, cap_heap;
    long fail_at, count; /* the test hook */
    struct TaOomGuard *outer;
} TaOomGuard;

void ta_oom_enter(TaOomGuard *g);
/* Pops the guard; after a failure, also frees the heap storage it tracks. */
void ta_oom_leave(TaOomGuard *g);
/* The step to run before jumping (NULL: none), e.g. while a module is being
   written; the step's frame must outlive it, so clear it before returning. */
void ta_oom_on_unwind(void (*unwind)(void *arg), void *arg);
_Noreturn void ta_out_of_memory(size_t size);
/* realloc/free for storage outside pools (TaBuf, scratch arrays). */
void *ta_heap_realloc(void *p, size_t size);
void ta_heap_free(void *p);

/* Growable array of pointers, allocated from a pool. */
typedef struct TaVec {
    void **items;
    int len;
    int cap;
} TaVec;
void ta_vec_push(TaPool *pool, TaVec *v, void *item);

/* ---- strbuf.c: growable text ------------------------------------------ */

typedef struct TaBuf {
    char *data; /* always NUL-terminated once anything is appended */
    size_t len;
    size_t cap;
} TaBuf;

void ta_buf_printf(TaBuf *b, const char *fmt, ...) TA_PRINTF(2, 3);
void ta_buf_vprintf(TaBuf *b, const char *fmt, va_list ap);
void ta_buf_puts(TaBuf *b, const char *s);
void ta_buf_append(TaBuf *b, const void *data, size_t n);
void ta_buf_free(TaBuf *b);
/* Appends `s` as a C string literal body (escaped, no quotes). */
void ta_buf_c_escape(TaBuf *b, const char *s);

/* ---- diag.c: messages for the user -------------------------------------- */

/* The values of TINYAOT_DIAG_*; STAGE, DEBUG and DETAIL are progress
   messages, kept only when TaDiag.verbose reaches 1, 2 and 3. */
typedef enum {
    TA_DIAG_ERROR,
    TA_DIAG_WARNING,
    TA_DIAG_NOTE,
    TA_DIAG_STAGE,
    TA_DIAG_DEBUG,
    TA_DIAG_DETAIL
} TaDiagLevel;

typedef void (*TaDiagSink)(void *user, int level, const char *line);

typedef struct TaDiag {
    TaPool *pool;
    TaDiagSink sink; /* NULL: stderr */
    void *sink_user;
    int errors;
    int warnings;
    bool warnings_are_errors; /* strict mode */
    int verbose;              /* progress messages wanted: 0 none ... 3 details */
    TaVec lines;              /* every message, for the result */
} TaDiag;

void ta_error(TaDiag *d, const char *fmt, ...) TA_PRINTF(2, 3);
void ta_warn(TaDiag *d, const char *fmt, ...) TA_PRINTF(2, 3);
void ta_note(TaDiag *d, const char *fmt, ...) TA_PRINTF(2, 3);
void ta_stage(TaDiag *d, const char *fmt, ...) TA_PRINTF(2, 3);
void ta_debug(TaDiag *d, const char *fmt, ...) TA_PRINTF(2, 3);
void ta_detail(TaDiag *d, const char *fmt, ...) TA_PRINTF(2, 3);
/* Whether a message of `level` would be kept (to skip building it). */
bool ta_diag_wants(const TaDiag *d, TaDiagLevel level);
void ta_diagv(TaDiag *d, TaDiagLevel level, const char *fmt, va_list ap);

/* ---- file.c: files and directories --------------------------------------- */

/* Reads a whole regular file; on failure reports "<path>: <reason>" and
   returns NULL. Anything else (a FIFO, a device, a directory) is refused
   without blocking. */
uint8_t *ta_read_file(TaPool *pool, TaDiag *d, const char *path, size_t *size);
bool ta_write_file(TaDiag *d, const char *path, const void *data, size_t size);
bool ta_mkdir_p(TaDiag *d, const char *path);
/* Removes a file or a directory tree; never follows a symbolic link and
   never descends into another file system. True when nothing is left. */
bool ta_remove_tree(const char *path);
/* "a FIFO", "a directory", ... for messages; `mode` is a struct stat st_mode. */
const char *ta_file_kind(unsigned mode);
bool ta_path_exists(const char *path);
char *ta_path_join(TaPool *pool, const char *a, const char *b);
char *ta_dirname(TaPool *pool, const char *path);
const char *ta_basename(const char *path);

/* ---- hash.c: checksums ---------------------------------------------------- */

/* FNV-1a 64: start from TA_FNV1A64_OFFSET, feed bytes in any number of calls. */
#define TA_FNV1A64_OFFSET 0xcbf29ce484222325ull
uint64_t ta_fnv1a64(uint64_t hash, const void *data, size_t n);

/* A set of strings (open addressing, FNV-1a), for uniqueness checks that
   must stay linear in the model: `slots` is a power of two above twice the
   number of names it will hold. The strings are not copied. */
typedef struct TaNameSet {
    const char **slots;
    size_t mask;
} TaNameSet;
TaNameSet ta_name_set(TaPool *pool, size_t names);
/* Adds `name`; false when it was already there. */
bool ta_name_set_add(TaNameSet *set, const char *name);
/* CRC-32 of zip and PNG (reflected polynomial 0xEDB88320): start from 0. */
uint32_t ta_crc32(uint32_t crc, const void *data, size_t n);

/* ---- json.c: a small JSON writer ------------------------------------------ */

typedef struct TaJson {
    TaBuf *out;
    int depth;
    bool need_comma[64];
    bool after_key;
} TaJson;

void ta_json_begin_object(TaJson *j);
void ta_json_end_object(TaJson *j);
void ta_json_begin_array(TaJson *j);
void ta_json_end_array(TaJson *j);
void ta_json_key(TaJson *j, const char *key);
void ta_json_string(TaJson *j, const char *s); /* NULL writes null */
void ta_json_int(TaJson *j, int64_t v);
void ta_json_double(TaJson *j, double v);
void ta_json_bool(TaJson *j, bool v);
void ta_json_null(TaJson *j);

/* Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong
   forms, no surrogates, nothing above U+10FFFF), or 0. */
int ta_utf8_length(const unsigned char *s);
/* The shortest text that reads back as the same (finite) double, as JSON
   and the module documentation write numbers. */
void ta_buf_shortest_double(TaBuf *b, double v);

#endif /* TA_UTIL_H */
