"""TFLite INT4 weights (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED), kept
packed (weights.format packed; auto, the default, for FULLY_CONNECTED) and
expanded to int8 (dense).

The shapes are the int8 variants' (random, so odd element counts, where the
last byte holds one value, come often); the weights are drawn over -8..7
and packed two to a byte as TFLite writes them. FULLY_CONNECTED's weights
are per tensor: TFLite Micro refuses per-channel INT4 there.

`make test` draws four of them (tests.optest, --variants all); the others
are in variants.SIMD (named with --variants, or simd:), and
tests/test_int4.py runs all eleven on both boards."""

from .conv import _conv_common
from .fc import _fully_connected
from ..core import variant

DENSE = {"weights.format": "dense"}
# auto stores DEPTHWISE_CONV_2D's INT4 weights and CONV_2D filters of fewer
# than 64 values dense: packed runs their kernels.
PACKED = {"weights.format": "packed"}


@variant("CONV_2D.int4", "CONV_2D", keys=PACKED)
def conv_int4(rng):
    """CONV_2D with INT4 weights kept packed: random windows, strides,
    dilations, padding, per-tensor and per-channel."""
    return _conv_common(rng, "int8", "conv", w_dt="int4")


@variant("CONV_2D.int4_deep", "CONV_2D", simd=True, keys=PACKED)
def conv_int4_deep(rng):
    """CONV_2D with INT4 weights kept packed, 16-48 input channels: whole
    groups of eight values per tap (the DSP dot product)."""
    return _conv_common(rng, "int8", "conv", deep=True, w_dt="int4")


@variant("CONV_2D.int4_pointwise", "CONV_2D", keys=PACKED)
def conv_int4_pointwise(rng):
    """CONV_2D with INT4 weights kept packed over the SIMD sizes (1x1 and
    3x3 mostly): filters ending inside a step of 32 values (at most 16 or
    more), whole steps, and channel counts off 4 and 16, per tensor and per
    channel."""
    return _conv_common(rng, "int8", "conv", simd=True, w_dt="int4")


@variant("CONV_2D.int4_long", "CONV_2D", simd=True, keys=PACKED)
def conv_int4_long(rng):
    """CONV_2D with INT4 weights kept packed and long filters: windows over
    TA_CONV_2D_S4_MAX_PATCH values (read value by value) and over the DSP
    path's 256 widened values, up to 256 output channels."""
    return _conv_common(rng, "int8", "conv", long=True, w_dt="int4")


@variant("CONV_2D.int4_grouped", "CONV_2D", simd=True, keys=PACKED)
def conv_int4_grouped(rng):
    """Grouped CONV_2D with INT4 weights kept packed."""
    return _conv_common(rng, "int8", "conv", groups_allowed=True, w_dt="int4")


@variant("CONV_2D.int4_dense", "CONV_2D", keys=DENSE, simd=True)
def conv_int4_dense(rng):
    """CONV_2D with INT4 weights expanded to int8 (weights.format dense)."""
    return _conv_common(rng, "int8", "conv", w_dt="int4")


@variant("DEPTHWISE_CONV_2D.int4", "DEPTHWISE_CONV_2D", keys=PACKED)
def dw_int4(rng):
    """DEPTHWISE_CONV_2D with INT4 weights kept packed (weights.format
    packed), multipliers 1-4, mostly 1 (the Helium and DSP paths): channel
    counts with every tail of their blocks (1-33), random windows, strides,
    dilations, padding, zero points, per-tensor and per-channel."""
    return _conv_common(rng, "int8", "dw", w_dt="int4", tails=True)


@variant("DEPTHWISE_CONV_2D.int4_dense", "DEPTHWISE_CONV_2D", keys=DENSE, simd=True)
def dw_int4_dense(rng):
    """DEPTHWISE_CONV_2D with INT4 weights expanded to int8."""
    return _conv_common(rng, "int8", "dw", wide=True, w_dt="int4")


@variant("FULLY_CONNECTED.int4", "FULLY_CONNECTED")
def fc_int4(rng):
    """FULLY_CONNECTED with per-tensor INT4 weights kept packed: 2-D,
    batched, keep_num_dims, flattened."""
    return _fully_connected(rng, "int8", w_dt="int4")


@variant("FULLY_CONNECTED.int4_wide", "FULLY_CONNECTED", simd=True)
def fc_int4_wide(rng):
    """FULLY_CONNECTED with INT4 weights kept packed and 65-700 inputs:
    long runs of whole groups and their tails."""
    return _fully_connected(rng, "int8", wide=True, w_dt="int4")


@variant("FULLY_CONNECTED.int4_dense", "FULLY_CONNECTED", keys=DENSE, simd=True)
def fc_int4_dense(rng):
    """FULLY_CONNECTED with INT4 weights expanded to int8."""
    return _fully_connected(rng, "int8", w_dt="int4")
