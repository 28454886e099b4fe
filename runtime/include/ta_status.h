/*
 * ta_status.h - status codes shared by the tinyaot runtime and every
 * generated module.
 *
 * 0 is success. The two numbers the specification fixes are 14
 * (not_initialized) and 200 (hydration_required); every other failure has
 * its own number here so firmware can tell them apart without strings.
 */
#ifndef TA_STATUS_H
#define TA_STATUS_H

enum {
    TA_OK = 0,
    TA_ERR_BAD_ARGUMENT = 1,        /* NULL or inconsistent argument, bad context */
    TA_ERR_UNKNOWN_REGION = 2,      /* bind_arena: region enumerator out of range */
    TA_ERR_NULL_BUFFER = 3,         /* bind_arena: buffer pointer is NULL */
    TA_ERR_BUFFER_TOO_SMALL = 4,    /* bind_arena: size below the region size */
    TA_ERR_MISALIGNED_BUFFER = 5,   /* bind_arena: buffer not aligned to the region */
    TA_ERR_UNBOUND_REGION = 6,      /* model_init: a region was never bound */
    TA_ERR_KERNEL = 7,              /* a kernel rejected its arguments */
    TA_ERR_HYDRATION_FAILED = 8,    /* model_init: hydrate_constants returned
                                      anything but TA_OK, or returned TA_OK
                                      without calling mark_hydrated */
    TA_ERR_ARENA_REBOUND = 9,       /* model_run: an arena was bound after the
                                      last successful model_init; init again */
    TA_ERR_NOT_INITIALIZED = 14,    /* model_run before a successful model_init */
    TA_ERR_ARENA_EXHAUSTED = 20,    /* runtime arena: not enough free memory */
    TA_ERR_ARENA_OVERFLOW = 21,     /* runtime arena: a size overflows size_t */
    TA_ERR_ARENA_NO_SHARED = 22,    /* runtime arena: SHARED without a shared region */
    TA_ERR_TEST_MISMATCH = 30,      /* <prefix>_test_case_run: an output differs from
                                      the expected one beyond the tolerance */
    TA_ERR_HYDRATION_REQUIRED = 200 /* model_run with the hydration latch cleared */
};

/* A short constant name for a status, for logs. */
static inline const char *ta_status_name(int status)
{
    switch (status) {
    case TA_OK: return "ok";
    case TA_ERR_BAD_ARGUMENT: return "bad_argument";
    case TA_ERR_UNKNOWN_REGION: return "unknown_region";
    case TA_ERR_NULL_BUFFER: return "null_buffer";
    case TA_ERR_BUFFER_TOO_SMALL: return "buffer_too_small";
    case TA_ERR_MISALIGNED_BUFFER: return "misaligned_buffer";
    case TA_ERR_UNBOUND_REGION: return "unbound_region";
    case TA_ERR_KERNEL: return "kernel_error";
    case TA_ERR_HYDRATION_FAILED: return "hydration_failed";
    case TA_ERR_ARENA_REBOUND: return "arena_rebound";
    case TA_ERR_NOT_INITIALIZED: return "not_initialized";
    case TA_ERR_ARENA_EXHAUSTED: return "arena_exhausted";
    case TA_ERR_ARENA_OVERFLOW: return "arena_overflow";
    case TA_ERR_ARENA_NO_SHARED: return "arena_no_shared";
    case TA_ERR_TEST_MISMATCH: return "test_mismatch";
    case TA_ERR_HYDRATION_REQUIRED: return "hydration_required";
    default: return "unknown_status";
    }
}

#endif /* TA_STATUS_H */
