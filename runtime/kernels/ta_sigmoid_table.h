/*
 * ta_sigmoid_table.h - the 256-entry table of sigmoid(i / 24) in unsigned
 * Q0.16 (saturated at 65535) that TFLite's int16 LOGISTIC and TANH kernels
 * interpolate (tanh(x) = 2 * sigmoid(2x) - 1).
 *
 * The values are TFLite's fixed table. They are not the rounded function
 * values (44 of the 256 entries differ from round(65536 * sigmoid(i / 24))),
 * so they are data to match bit for bit, not something to recompute.
 */
#ifndef TA_SIGMOID_TABLE_H
#define TA_SIGMOID_TABLE_H

#include <stdint.h>

extern const uint16_t ta_sigmoid_table_u16[256];

#endif /* TA_SIGMOID_TABLE_H */
