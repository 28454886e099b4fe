/*
 * ta_io_dtype.h - element types of a module's inputs and outputs, as the
 * generated <PREFIX>_INPUT<i>_DTYPE / <PREFIX>_OUTPUT<i>_DTYPE macros name
 * them. Numbered as LiteRT's TensorType, so the values match the model
 * (the tensor arena's ta_dtype_t, runtime/arena/ta_arena.h, is its own list).
 */
#ifndef TA_IO_DTYPE_H
#define TA_IO_DTYPE_H

typedef enum {
    TA_IO_DTYPE_FLOAT32 = 0,
    TA_IO_DTYPE_INT32 = 2,
    TA_IO_DTYPE_UINT8 = 3,
    TA_IO_DTYPE_INT64 = 4,
    TA_IO_DTYPE_BOOL = 6,
    TA_IO_DTYPE_INT16 = 7,
    TA_IO_DTYPE_INT8 = 9
} ta_io_dtype_t;

#endif /* TA_IO_DTYPE_H */
