"""float32 variants of the binary elementwise operators (ADD, SUB, MUL,
DIV, MAXIMUM, MINIMUM, SQUARED_DIFFERENCE) and of the comparisons (LESS,
LESS_EQUAL, GREATER, GREATER_EQUAL, EQUAL, NOT_EQUAL, bool output):
broadcasting as the quantized variants draw it, an optional constant
second operand (nonzero for DIV), every fused activation TFLite clamps in
float where the operator has one. The modules must match TFLite Micro's
float reference kernels bit for bit."""

from ..common import (ModelBuilder, broadcast_shapes, chance, draw_activation,
                      draw_float_values, randint)
from ..core import variant

# The options table of the operators with a fused activation.
OPTIONS = {"ADD": "AddOptions", "SUB": "SubOptions", "MUL": "MulOptions", "DIV": "DivOptions"}


COMPARISONS = ("LESS", "LESS_EQUAL", "GREATER", "GREATER_EQUAL", "EQUAL", "NOT_EQUAL")


def _binary_float(rng, op):
    b = ModelBuilder()
    s1, s2, out = broadcast_shapes(rng, randint(rng, 1, 4))
    x = b.tensor(s1, "float32", name="input1")
    inputs = [x]
    const_second = chance(rng, 0.3)
    if op in COMPARISONS and chance(rng, 0.25):
        # One tensor compared with itself: every element equal (random
        # inputs would almost never be), the case EQUAL and the _EQUAL
        # forms turn on.
        y = x
        s2 = out = s1
        const_second = False
    elif const_second:
        # A constant divisor has no zeros: TFLite's quotient would be
        # +-inf or NaN, equal bits but nothing tested beyond the clamp.
        p_zero = 0.0 if op == "DIV" else 0.05
        y = b.const(draw_float_values(rng, s2, p_zero=p_zero), "float32", name="input2")
    else:
        y = b.tensor(s2, "float32", name="input2")
        inputs.append(y)
    z = b.tensor(out, "bool" if op in COMPARISONS else "float32", name="output")
    config = {"input1_shape": s1, "input2_shape": s2, "output_shape": out,
              "input2_const": const_second}
    if op in OPTIONS:
        act = draw_activation(rng, p_none=0.4)
        b.op(op, [x, y], [z], OPTIONS[op], fusedActivationFunction=act)
        config["activation"] = act
    else:
        b.op(op, [x, y], [z])
    return b.build(inputs, [z]), config


for _op in ("ADD", "SUB", "MUL", "DIV", "MAXIMUM", "MINIMUM", "SQUARED_DIFFERENCE"):
    def _make(op=_op):
        def fn(rng):
            return _binary_float(rng, op)
        fn.__doc__ = ("float32 %s: rank 1-4, broadcasting (size-1 dims, lower-rank "
                      "operand), optional constant operand%s." % (
                          op, ", all fused activations" if op in OPTIONS else ""))
        return fn
    variant("%s.float32" % _op, _op)(_make())


for _op in COMPARISONS:
    def _make_cmp(op=_op):
        def fn(rng):
            return _binary_float(rng, op)
        fn.__doc__ = ("float32 %s -> bool: rank 1-4, broadcasting, optional constant "
                      "operand, at times one tensor against itself." % op)
        return fn
    variant("%s.float32" % _op, _op)(_make_cmp())
