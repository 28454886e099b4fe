/*
 * ta_params.h - how a kernel header declares its parameter struct.
 *
 * Each kernel header lists the fields of its parameter struct once, as an
 * X-macro taking three field kinds:
 *
 *   #define TA_FOO_PARAMS(FIELD, ARRAY, ARRAY_USED) \
 *       FIELD(int32_t, size)                        \
 *       ARRAY(int32_t, multipliers, 4)              \
 *       ARRAY_USED(int32_t, dims, TA_FOO_MAX_RANK, rank)
 *   typedef struct { TA_PARAM_MEMBERS(TA_FOO_PARAMS) } ta_foo_params_t;
 *
 * FIELD is a scalar, ARRAY an array whose every element is meaningful,
 * ARRAY_USED an array of which only the first `used` elements (another
 * field of the struct) are. The runtime sees a plain struct; the compiler
 * expands the same list into a field table, so a lowering that sets a
 * field the kernel lacks does not build, and the generated initializer
 * names exactly the struct's fields.
 */
#ifndef TA_PARAMS_H
#define TA_PARAMS_H

#define TA_PARAM_FIELD(type, name) type name;
#define TA_PARAM_ARRAY(type, name, length) type name[length];
#define TA_PARAM_ARRAY_USED(type, name, length, used) type name[length];

/* The struct members of a parameter list. */
#define TA_PARAM_MEMBERS(LIST) LIST(TA_PARAM_FIELD, TA_PARAM_ARRAY, TA_PARAM_ARRAY_USED)

#endif /* TA_PARAMS_H */
