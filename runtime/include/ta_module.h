/*
 * ta_module.h - a generated module's arena regions, described as data.
 *
 * Every generated module exports one `<prefix>_module_desc` of this type so
 * that generic firmware code (the runtime tensor arena's binding helper, a
 * test harness) can bind the regions of any module without knowing its
 * prefix at compile time.
 */
#ifndef TA_MODULE_H
#define TA_MODULE_H

#include <stddef.h>

typedef enum {
    TA_REGION_SCRATCH = 0,    /* working memory of one run; may be shared */
    TA_REGION_PERSISTENT = 1, /* state kept between runs; zeroed by model_init */
    TA_REGION_CONSTANT = 2    /* weights and parameters */
} ta_region_role_t;

typedef struct ta_module_desc {
    const char *prefix;               /* module.prefix */
    unsigned num_regions;             /* entries in each array below */
    const size_t *sizes;              /* usable bytes (plus any ITCM guard) */
    const size_t *alignments;         /* required buffer alignment */
    const unsigned char *roles;       /* ta_region_role_t per region */
    const unsigned char *staged;      /* 1: constant region filled at init from
                                         module-owned source bytes; the caller
                                         binds an empty writable buffer */
    const char *const *sidecar_files; /* cold constant region: the .bin file
                                         the caller loads and binds; else NULL */
    int (*bind_arena)(int region, void *buffer, size_t size);
} ta_module_desc_t;

#endif /* TA_MODULE_H */
