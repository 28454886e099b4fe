"""SIGN on float32 and int32. TFLite Micro has no SIGN kernel, so these
variants name LiteRT's reference kernel as their oracle (tests/gen/core.py,
Variant.oracle); tests/test_sign.py adds the values random inputs rarely
meet (zeros, -0.0, NaN, infinities, INT32_MIN)."""

from ..common import ModelBuilder, draw_shape, randint
from ..core import variant


def _sign(rng, dtype):
    shape = draw_shape(rng, randint(rng, 1, 4), 1024, 1, 10)
    b = ModelBuilder()
    x = b.tensor(shape, dtype, name="input")
    y = b.tensor(shape, dtype, name="output")
    b.op("SIGN", [x], [y])
    return b.build([x], [y]), {"shape": shape}


@variant("SIGN.float32", "SIGN", oracle="litert")
def sign_float32(rng):
    """float32 SIGN: rank 1-4, up to 1024 elements."""
    return _sign(rng, "float32")


@variant("SIGN.int32", "SIGN", oracle="litert")
def sign_int32(rng):
    """int32 SIGN: rank 1-4, up to 1024 elements."""
    return _sign(rng, "int32")
