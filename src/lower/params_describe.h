/*
 * params_describe.h - the macros that expand a kernel's parameter list
 * (runtime/include/ta_params.h) into a TaParamsDesc. Only the generated
 * kernel_params.c includes this, once per struct:
 *
 *   #define STRUCT ta_foo_params_t
 *   DESCRIBE(TA_FOO_PARAMS)
 *   #undef STRUCT
 *
 * defines `ta_foo_params_t_desc` with offsets and element types taken from
 * the real struct, so a list and its table cannot disagree.
 */
#ifndef TA_PARAMS_DESCRIBE_H
#define TA_PARAMS_DESCRIBE_H

#include <stddef.h>
#include <stdint.h>

/* The element type; a field of any other type does not build. */
#define FIELD_TYPE(member)              \
    _Generic((member), int32_t          \
             : TA_FIELD_INT32, uint32_t \
             : TA_FIELD_UINT32, float   \
             : TA_FIELD_FLOAT, double   \
             : TA_FIELD_DOUBLE)
/* The counting field must be an int32_t. */
#define USED_OFFSET(used) _Generic(((STRUCT *)0)->used, int32_t : (long)offsetof(STRUCT, used))

#define DESCRIBE_FIELD(type, name) \
    {#name, offsetof(STRUCT, name), FIELD_TYPE(((STRUCT *)0)->name), 0, -1},
#define DESCRIBE_ARRAY(type, name, length) \
    {#name, offsetof(STRUCT, name), FIELD_TYPE(((STRUCT *)0)->name[0]), length, -1},
#define DESCRIBE_ARRAY_USED(type, name, length, used) \
    {#name, offsetof(STRUCT, name), FIELD_TYPE(((STRUCT *)0)->name[0]), length, USED_OFFSET(used)},

#define NAME2(a, b) a##b
#define NAME(a, b) NAME2(a, b)
#define TEXT2(a) #a
#define TEXT(a) TEXT2(a)
/* <STRUCT>_fields and <STRUCT>_desc from the list LIST. */
#define DESCRIBE(LIST)                                              \
    static const TaParamField NAME(STRUCT, _fields)[] = {           \
        LIST(DESCRIBE_FIELD, DESCRIBE_ARRAY, DESCRIBE_ARRAY_USED)}; \
    const TaParamsDesc NAME(STRUCT, _desc) = {                      \
        TEXT(STRUCT), sizeof(STRUCT), NAME(STRUCT, _fields),        \
        (int)(sizeof NAME(STRUCT, _fields) / sizeof NAME(STRUCT, _fields)[0])};

#endif /* TA_PARAMS_DESCRIBE_H */
