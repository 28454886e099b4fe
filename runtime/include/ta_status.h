/*
 * ta_status.h - status codes shared by the tinyaot runtime and every
 * generated module.
 *
 * 0 is success. The numbers a helia-aot 1.1.0 module returns for the same
 * failure are kept exactly (1..4 binding, 10..14 context and hydration,
 * 100..101 bulk binding, 200 hydration latch), so firmware written against
 * such a module reads the same numbers from a tinyaot one; every module
 * also names them `<prefix>_status_*`. The failures only tinyaot reports
 * take 500..599, clear of helia-aot's ranges (1..999 of its own, 1000..1999
 * for custom operators).
 */
#ifndef TA_STATUS_H
#define TA_STATUS_H

enum {
    TA_OK = 0,
    TA_ERR_UNKNOWN_REGION = 1,         /* bind_arena: region enumerator out of range */
    TA_ERR_NULL_BUFFER = 2,            /* bind_arena: buffer pointer is NULL */
    TA_ERR_BUFFER_TOO_SMALL = 3,       /* bind_arena: size below the region size */
    TA_ERR_MISALIGNED_BUFFER = 4,      /* bind_arena: buffer not aligned to the region */
    TA_ERR_OVERLAPPING_BUFFER = 5,     /* bind_arena: buffer overlaps another bound region */
    TA_ERR_UNBOUND_REGION = 10,        /* context_init / model_init: a region was never bound */
    TA_ERR_HYDRATE_UNINITIALIZED = 11, /* hydrate_constants: the context was never
                                          initialized (no arena table) */
    TA_ERR_HYDRATE_NULL_BLOB = 12,     /* hydrate_constants: a staged region's buffer in
                                       the context's arena table is NULL */
    TA_ERR_NULL_CONTEXT = 13,          /* a module function got a NULL context */
    TA_ERR_NOT_INITIALIZED = 14,       /* model_run before a successful model_init */
    TA_ERR_BULK_NULL_ARGUMENT = 100,   /* bind_arenas: buffers or sizes is NULL */
    TA_ERR_BULK_WRONG_COUNT = 101,     /* bind_arenas: count is not the number of regions */
    TA_ERR_HYDRATION_REQUIRED = 200,   /* model_run with the hydration latch cleared */
    TA_ERR_BAD_ARGUMENT = 500,         /* NULL or inconsistent argument other than a context */
    TA_ERR_KERNEL = 501,               /* a kernel rejected its arguments */
    TA_ERR_HYDRATION_FAILED = 502,     /* model_init: hydrate_constants returned TA_OK
                                       without calling mark_hydrated */
    TA_ERR_ARENA_REBOUND = 503,        /* model_run: an arena was bound after the
                                       last successful model_init; init again */
    TA_ERR_ARENA_EXHAUSTED = 520,      /* runtime arena: not enough free memory */
    TA_ERR_ARENA_OVERFLOW = 521,       /* runtime arena: a size overflows size_t */
    TA_ERR_ARENA_NO_SHARED = 522,      /* runtime arena: SHARED without a shared region */
    TA_ERR_TEST_MISMATCH = 530,        /* <prefix>_test_case_run: an output differs from
                                       the expected one beyond the tolerance */
    TA_ERR_ROWS_MISSING = 540,         /* module.input_rows: push: model_run before the
                                       input's last row was pushed */
    TA_ERR_TOO_MANY_ROWS = 541,        /* model_push_rows: more rows than the input
                                       has left */
    TA_STATUS_CUSTOM_FIRST = 1000,     /* reserved for custom operators (none yet) */
    TA_STATUS_CUSTOM_LAST = 1999
};

/* A short constant name for a status, for logs. */
static inline const char *ta_status_name(int status)
{
    switch (status) {
    case TA_OK: return "ok";
    case TA_ERR_UNKNOWN_REGION: return "unknown_region";
    case TA_ERR_NULL_BUFFER: return "null_buffer";
    case TA_ERR_BUFFER_TOO_SMALL: return "buffer_too_small";
    case TA_ERR_MISALIGNED_BUFFER: return "misaligned_buffer";
    case TA_ERR_OVERLAPPING_BUFFER: return "overlapping_buffer";
    case TA_ERR_UNBOUND_REGION: return "unbound_region";
    case TA_ERR_HYDRATE_UNINITIALIZED: return "hydrate_uninitialized_context";
    case TA_ERR_HYDRATE_NULL_BLOB: return "hydrate_null_blob";
    case TA_ERR_NULL_CONTEXT: return "null_context";
    case TA_ERR_NOT_INITIALIZED: return "not_initialized";
    case TA_ERR_BULK_NULL_ARGUMENT: return "bulk_null_argument";
    case TA_ERR_BULK_WRONG_COUNT: return "bulk_wrong_count";
    case TA_ERR_HYDRATION_REQUIRED: return "hydration_required";
    case TA_ERR_BAD_ARGUMENT: return "bad_argument";
    case TA_ERR_KERNEL: return "kernel_error";
    case TA_ERR_HYDRATION_FAILED: return "hydration_failed";
    case TA_ERR_ARENA_REBOUND: return "arena_rebound";
    case TA_ERR_ARENA_EXHAUSTED: return "arena_exhausted";
    case TA_ERR_ARENA_OVERFLOW: return "arena_overflow";
    case TA_ERR_ARENA_NO_SHARED: return "arena_no_shared";
    case TA_ERR_TEST_MISMATCH: return "test_mismatch";
    case TA_ERR_ROWS_MISSING: return "rows_missing";
    case TA_ERR_TOO_MANY_ROWS: return "too_many_rows";
    default:
        return status >= TA_STATUS_CUSTOM_FIRST && status <= TA_STATUS_CUSTOM_LAST
                   ? "custom"
                   : "unknown_status";
    }
}

#endif /* TA_STATUS_H */
