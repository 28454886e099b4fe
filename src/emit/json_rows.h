/*
 * json_rows.h - the one writer of region and tensor rows for the JSON
 * files of a module (<prefix>_residency.json, <prefix>_views.json). Each
 * file lists its columns, a key and the value written under it, in its
 * schema's order; every value is derived here, once, from the plan.
 */
#ifndef TA_JSON_ROWS_H
#define TA_JSON_ROWS_H

#include "../plan/plan.h"

typedef enum {
    TA_REGION_COL_ID,   /* the <prefix>_arena_region_t value */
    TA_REGION_COL_NAME, /* "dram_scratch" */
    TA_REGION_COL_ROLE, /* "scratch", "persistent", "constant" */
    TA_REGION_COL_MEMORY,
    TA_REGION_COL_SOURCE_MEMORY,
    TA_REGION_COL_STAGED,
    TA_REGION_COL_OFFSET, /* of the first usable byte: the guard */
    TA_REGION_COL_SIZE,
    TA_REGION_COL_ALIGNMENT,
    TA_REGION_COL_SYMBOL,
    TA_REGION_COL_SOURCE_SYMBOL,
    TA_REGION_COL_SOURCE_OFFSET, /* the source blob's guard */
    TA_REGION_COL_SIDECAR_FILE,
    TA_REGION_COL_NUM_TENSORS,
    TA_REGION_COL_LOWER_BOUND, /* scratch regions only: the key is left out otherwise */
    TA_REGION_COL_GAP,         /* scratch regions only: size - lower bound */
    TA_REGION_COL_PLANNER,     /* scratch regions only: whose offsets */
    TA_REGION_COL_PROVEN,      /* scratch regions only: size proven minimal */
    TA_REGION_COL_PROOF        /* scratch regions only: how, or "not proven" */
} TaRegionValue;

typedef enum {
    TA_TENSOR_COL_ID,
    TA_TENSOR_COL_NAME,
    TA_TENSOR_COL_ROLE,      /* of the tensor owning the bytes */
    TA_TENSOR_COL_VIEW_KIND, /* "input", "output", else its role */
    TA_TENSOR_COL_IO,        /* "input", "output" or null */
    TA_TENSOR_COL_SHAPE,
    TA_TENSOR_COL_DTYPE,
    TA_TENSOR_COL_CTYPE,
    TA_TENSOR_COL_QUANTIZATION,  /* {scale, zero_point, axis} or null */
    TA_TENSOR_COL_INPUT_INDEX,   /* or null */
    TA_TENSOR_COL_OUTPUT_INDEX,  /* or null */
    TA_TENSOR_COL_REGION_ROLE,   /* of its region, null without one */
    TA_TENSOR_COL_MEMORY,        /* null without a region */
    TA_TENSOR_COL_SOURCE_MEMORY, /* null without a region */
    TA_TENSOR_COL_REGION_ID,     /* null without a region */
    TA_TENSOR_COL_OFFSET,
    TA_TENSOR_COL_SIZE,
    TA_TENSOR_COL_STAGED,
    TA_TENSOR_COL_ALIAS_OF, /* the id of the tensor owning the bytes, or null */
    TA_TENSOR_COL_FIRST_OP,
    TA_TENSOR_COL_LAST_OP,
    TA_TENSOR_COL_OVERLAPS,      /* {tensor, lead, below_by, why}: output over input, or null */
    TA_TENSOR_COL_MODEL_TENSOR,  /* the model tensor's index (its own or its source's), or null */
    TA_TENSOR_COL_STORED_FORMAT, /* constants: "int4" (packed) or "dense"; else null */
    TA_TENSOR_COL_DENSE_BYTES,   /* constants: bytes as the dense dtype; else null */
    TA_TENSOR_COL_ROW_BUFFER /* {chain, rows, height, bytes}: a row chain's row buffer, or null */
} TaTensorValue;

typedef struct TaRegionColumn {
    const char *key;
    TaRegionValue value;
} TaRegionColumn;

typedef struct TaTensorColumn {
    const char *key;
    TaTensorValue value;
} TaTensorColumn;

/* One object with the columns, in order. */
void ta_json_region_row(TaJson *j, const TaRegion *r, const TaRegionColumn *cols, size_t n);
void ta_json_tensor_row(TaJson *j, const TaTensor *t, const TaTensorColumn *cols, size_t n);

#endif /* TA_JSON_ROWS_H */
