/*
 * flexbuffer.h - a bounds-checked reader of the FlexBuffers map that holds
 * a custom operator's options (LiteRT's custom_options), for hostile files.
 *
 * Only what custom options use: a root map whose values are integers,
 * booleans or floats, looked up by key. Every byte read is checked against the
 * buffer; a malformed buffer is reported as a reason, never read past.
 */
#ifndef TA_FLEXBUFFER_H
#define TA_FLEXBUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct TaFlexMap {
    const uint8_t *buf;
    size_t len;
    size_t values; /* first value */
    size_t types;  /* one packed type byte per value, after the values */
    size_t keys;   /* first key offset */
    uint32_t count;
    int width;      /* bytes per value */
    int keys_width; /* bytes per key offset */
} TaFlexMap;

/* Reads the root map of `buf`; false (and `*why` says what is wrong) when
   it is not a well-formed map. An empty buffer is an empty map. */
bool ta_flex_map(const uint8_t *buf, size_t len, TaFlexMap *map, const char **why);

typedef enum {
    TA_FLEX_FOUND,
    TA_FLEX_ABSENT,     /* no such key */
    TA_FLEX_NOT_INT,    /* the value is not an integer or boolean */
    TA_FLEX_NOT_NUMBER, /* the value is not a float, integer or boolean */
    TA_FLEX_MALFORMED,  /* the value's bytes lie outside the buffer */
} TaFlexStatus;

/* The integer (or boolean, as 0/1) value of `key`. */
TaFlexStatus ta_flex_int(const TaFlexMap *map, const char *key, int64_t *value);
/* The value of `key` as FlexBuffers' AsDouble reads it: a float (32 or 64
   bits), or an integer or boolean converted. */
TaFlexStatus ta_flex_number(const TaFlexMap *map, const char *key, double *value);

#endif /* TA_FLEXBUFFER_H */
