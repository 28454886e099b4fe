/*
 * fb.h - a bounds-checked reader of FlatBuffers, for hostile files.
 *
 * Every access checks that the bytes it touches lie inside the buffer.
 * The first failure is reported once, as "<file>: <where>: <what>", and
 * makes the reader "failed": from then on every access returns an empty
 * value (0, an absent table, an empty vector), so callers can keep their
 * loops simple and test `r->failed` at the end of a stage. Vector lengths
 * are capped by the bytes that remain, so no loop can run away.
 */
#ifndef TA_FB_H
#define TA_FB_H

#include "../util/util.h"

typedef struct TaFbReader {
    const uint8_t *buf;
    size_t len;
    const char *path; /* for messages */
    TaDiag *diag;
    bool failed;
    char where[192]; /* current location, e.g. "subgraph 0, tensor 12" */
} TaFbReader;

/* A table: `pos` is its first byte, `vt` its vtable. ok=false: absent. */
typedef struct TaFbTable {
    TaFbReader *r;
    size_t pos;
    size_t vt;
    uint16_t vt_size;
    uint16_t size;
    bool ok;
} TaFbTable;

/* A vector: `len` elements of `elem` bytes starting at `pos`. */
typedef struct TaFbVec {
    TaFbReader *r;
    size_t pos;
    uint32_t len;
    size_t elem;
    bool ok; /* false: absent (len 0) */
} TaFbVec;

void ta_fb_fail(TaFbReader *r, size_t at, const char *fmt, ...) TA_PRINTF(3, 4);
void ta_fb_where(TaFbReader *r, const char *fmt, ...) TA_PRINTF(2, 3);

TaFbTable ta_fb_root(TaFbReader *r);
TaFbTable ta_fb_table_at(TaFbReader *r, size_t pos);

bool ta_fb_has(TaFbTable t, int field);
uint8_t ta_fb_u8(TaFbTable t, int field, uint8_t def);
int8_t ta_fb_i8(TaFbTable t, int field, int8_t def);
bool ta_fb_bool(TaFbTable t, int field, bool def);
int32_t ta_fb_i32(TaFbTable t, int field, int32_t def);
uint32_t ta_fb_u32(TaFbTable t, int field, uint32_t def);
uint64_t ta_fb_u64(TaFbTable t, int field, uint64_t def);
float ta_fb_f32(TaFbTable t, int field, float def);

TaFbTable ta_fb_table(TaFbTable t, int field);
TaFbVec ta_fb_vec(TaFbTable t, int field, size_t elem);
/* A string field copied into the pool; NULL when absent. */
char *ta_fb_string(TaFbTable t, int field, TaPool *pool);

TaFbTable ta_fb_vec_table(TaFbVec v, uint32_t i);
char *ta_fb_vec_string(TaFbVec v, uint32_t i, TaPool *pool);
int32_t ta_fb_vec_i32(TaFbVec v, uint32_t i);
int64_t ta_fb_vec_i64(TaFbVec v, uint32_t i);
float ta_fb_vec_f32(TaFbVec v, uint32_t i);
uint8_t ta_fb_vec_u8(TaFbVec v, uint32_t i);
const uint8_t *ta_fb_vec_bytes(TaFbVec v); /* NULL if empty */

#endif /* TA_FB_H */
