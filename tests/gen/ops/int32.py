"""Binary elementwise ops on plain int32 tensors (no quantization), as
models that compute on integers use them (the audio preprocessor's feature
scaling): ADD, MUL, DIV, MAXIMUM and MINIMUM with broadcasting, full-range
operands (ADD and MUL wrap), fused activations where TFLite Micro applies
them (MUL, DIV; its int32 ADD ignores them); and CAST between int32 and
uint32."""

import numpy as np

from ..common import (ModelBuilder, broadcast_shapes, chance, draw_activation, rand_values,
                      randint)
from ..core import variant

OPTIONS = {"ADD": "AddOptions", "MUL": "MulOptions", "DIV": "DivOptions"}


def _divisors(rng, shape):
    """Nonzero divisors, small (interesting quotients) or large; never -1
    (INT32_MIN / -1 traps on the host running TFLite Micro)."""
    if chance(rng, 0.5):
        d = rand_values(rng, "int32", shape, -1000, 1000)
    else:
        d = rand_values(rng, "int32", shape)
    d = np.where((d == 0) | (d == -1), 7, d)
    return d.astype(np.int32)


def _int32_binary(rng, op):
    b = ModelBuilder()
    rank = randint(rng, 1, 4)
    s1, s2, out = broadcast_shapes(rng, rank)
    config = {"input1_shape": s1, "input2_shape": s2, "output_shape": out}
    # Small operands often, so that sums and products also stay in range.
    small = chance(rng, 0.5)
    x = b.tensor(s1, "int32", name="input1")
    inputs = [x]
    if op == "DIV":
        # A tensor divisor's random values are never 0 in practice (full
        # range); a constant one is drawn without 0.
        const_second = chance(rng, 0.7)
        if const_second:
            y = b.const(_divisors(rng, s2), "int32", name="input2")
    else:
        const_second = chance(rng, 0.25)
        if const_second:
            lo, hi = (-1000, 1000) if small else (None, None)
            y = b.const(rand_values(rng, "int32", s2, lo, hi), "int32", name="input2")
    if not const_second:
        y = b.tensor(s2, "int32", name="input2")
        inputs.append(y)
    z = b.tensor(out, "int32", name="output")
    fields = {}
    if op in OPTIONS:
        fields["fusedActivationFunction"] = draw_activation(rng, p_none=0.5)
        config["activation"] = fields["fusedActivationFunction"]
    b.op(op, [x, y], [z], OPTIONS.get(op), **fields)
    config["input2_const"] = const_second
    return b.build(inputs, [z]), config


for _op in ("ADD", "MUL", "DIV", "MAXIMUM", "MINIMUM"):
    def _make(op=_op):
        def fn(rng):
            return _int32_binary(rng, op)
        fn.__doc__ = ("int32 %s without quantization: rank 1-4, broadcasting, optional "
                      "constant operand%s." % (op, ", fused activations"
                                               if op in OPTIONS else ""))
        return fn
    variant("%s.int32" % _op, _op)(_make())


@variant("CAST.int32_uint32", "CAST")
def cast_int32_uint32(rng):
    """CAST between int32 and uint32 (either way; the 32 bits are kept), any
    shape of rank 1-4."""
    b = ModelBuilder()
    src, dst = ("int32", "uint32") if chance(rng, 0.5) else ("uint32", "int32")
    shape, _, _ = broadcast_shapes(rng, randint(rng, 1, 4))
    x = b.tensor(shape, src, name="input")
    z = b.tensor(shape, dst, name="output")
    b.op("CAST", [x], [z])
    return b.build([x], [z]), {"shape": shape, "from": src, "to": dst}
