/*
 * ops.h - TA_BUILTIN_<NAME>: the LiteRT builtin code of every operator
 * tinyaot lowers, from ops.def (the only place the numbers are written).
 */
#ifndef TA_LOWER_OPS_H
#define TA_LOWER_OPS_H

enum {
#define DECLARE_OP(builtin, name, def_name, file) TA_BUILTIN_##name = builtin,
#include "ops.def"
#undef DECLARE_OP
};

#endif /* TA_LOWER_OPS_H */
