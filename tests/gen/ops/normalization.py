"""L2_NORMALIZATION over the last dimension: int8 (outputs in 1/128
steps, zero point 0) and float32, rank 1-4."""

from ..common import ModelBuilder, Q, chance, draw_quant, draw_shape, randint
from ..core import variant


def _l2_normalization(rng, dt):
    rank = randint(rng, 1, 4)
    shape = draw_shape(rng, rank, 1024, 1, 10)
    q_in = q_out = None
    if dt == "int8":
        q_in = draw_quant(rng, "int8", 1e-3, 1.0)
        # LiteRT's converter sets 1/128 and 0; TFLite Micro never reads it.
        q_out = Q(1.0 / 128, 0) if chance(rng, 0.8) else draw_quant(rng, "int8", 1e-3, 1.0)
    b = ModelBuilder()
    x = b.tensor(shape, dt, q_in, name="input")
    y = b.tensor(shape, dt, q_out, name="output")
    b.op("L2_NORMALIZATION", [x], [y], "L2NormOptions", fusedActivationFunction="NONE")
    return b.build([x], [y]), {"shape": shape,
                               "input_quant": None if q_in is None else q_in.to_json(),
                               "output_quant": None if q_out is None else q_out.to_json()}


@variant("L2_NORMALIZATION.int8", "L2_NORMALIZATION")
def l2_normalization_int8(rng):
    """int8 L2_NORMALIZATION, random input quantization, the output mostly
    (1/128, 0) and otherwise random (not read)."""
    return _l2_normalization(rng, "int8")


@variant("L2_NORMALIZATION.float32", "L2_NORMALIZATION")
def l2_normalization_float32(rng):
    """float32 L2_NORMALIZATION (some zeros among the inputs)."""
    return _l2_normalization(rng, "float32")
