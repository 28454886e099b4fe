/*
 * fake_modules.h - two hand-written stand-ins for converted modules
 * ("wake" and "clf") until the module generator can produce real ones.
 *
 * Each behaves like a module converted with memory.allocate_arenas: false:
 * a module-global bind table filled by <prefix>_bind_arena() with the
 * documented status codes, a model_init that checks every region is bound,
 * zeroes persistent storage and hydrates the staged constant region, and a
 * model_run that writes every byte of its scratch regions, reads its cold
 * and staged constants and updates its persistent state. Each also records
 * every bind call for the tests to inspect.
 *
 *   wake: 0 scratch 3000/16, 1 persistent 1000/16, 2 cold constant 512/16,
 *         3 staged constant 256/32
 *   clf:  0 scratch 5000/64, 1 persistent 700/32, 2 cold constant 1024/16,
 *         3 scratch 100/16
 */
#ifndef FAKE_MODULES_H
#define FAKE_MODULES_H

#include <stddef.h>
#include <stdint.h>

#include "ta_module.h"

#define FAKE_MAX_REGIONS 4
#define FAKE_INPUT_LEN 64

typedef struct {
    const ta_module_desc_t *desc;
    unsigned seed;                 /* derives the constant bytes */
    void *bound[FAKE_MAX_REGIONS]; /* last buffer bound per region */
    size_t bound_size[FAKE_MAX_REGIONS];
    unsigned bind_calls;
    int fail_region; /* >= 0: refuse this region ... */
    int fail_status; /* ... with this status */
    int initialized;
} fake_module_t;

extern fake_module_t fake_wake;
extern fake_module_t fake_clf;
extern const ta_module_desc_t wake_module_desc;
extern const ta_module_desc_t clf_module_desc;

/* Forgets every binding and the initialization. */
void fake_reset(fake_module_t *m);
/* The cold constant bytes the caller would load from the sidecar file. */
void fake_make_blob(const fake_module_t *m, unsigned region, unsigned char *out, size_t size);
int fake_model_init(fake_module_t *m);
/* Runs on FAKE_INPUT_LEN input values; the output is one number. */
int fake_model_run(fake_module_t *m, const int8_t *input, uint32_t *output);

/*
 * The oracle: the same computation on arrays it owns, with no binding, no
 * arena and no sharing. Start from a zeroed fake_oracle_t (model_init) and
 * step it along with the module's runs.
 */
typedef struct {
    unsigned char persistent[1024];
} fake_oracle_t;
uint32_t fake_oracle_run(const fake_module_t *m, fake_oracle_t *state, const int8_t *input);

#endif /* FAKE_MODULES_H */
