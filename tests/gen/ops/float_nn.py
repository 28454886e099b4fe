"""float32 variants of the convolution family, FULLY_CONNECTED, BATCH_MATMUL
and the pools: float inputs, weights and biases (draw_float_values,
draw_float_weights), every fused activation TFLite clamps in float. The
modules must match TFLite Micro's float reference kernels bit for bit."""

import math

from ..common import (ModelBuilder, chance, conv_out_size, draw_activation,
                      draw_float_values, draw_float_weights, pick, randint)
from ..core import variant


@variant("FULLY_CONNECTED.float32", "FULLY_CONNECTED")
def fully_connected_float32(rng):
    """float32 FULLY_CONNECTED: 2-D, batched rank 3/4 input collapsed to
    2-D, keep_num_dims, [1,h,w,c] flattened; depth 1-96, 1-32 units; bias
    optional; all fused activations."""
    b = ModelBuilder()
    units = randint(rng, 1, 32)
    mode = pick(rng, ["2d", "2d", "batched", "keep_num_dims", "flatten"])
    if mode == "2d":
        n_in = randint(rng, 1, 96)
        in_shape = [pick(rng, [1, 1, 2, 3, 5]), n_in]
        out_shape = [in_shape[0], units]
    elif mode == "batched":
        n_in = randint(rng, 1, 32)
        lead = [randint(rng, 1, 4) for _ in range(randint(rng, 1, 2))]
        in_shape = lead + [n_in]
        out_shape = [math.prod(lead), units]
    elif mode == "keep_num_dims":
        n_in = randint(rng, 1, 32)
        lead = [randint(rng, 1, 4) for _ in range(randint(rng, 1, 3))]
        in_shape = lead + [n_in]
        out_shape = lead + [units]
    else:
        in_shape = [1, randint(rng, 1, 4), randint(rng, 1, 4), randint(rng, 1, 8)]
        n_in = math.prod(in_shape)
        out_shape = [1, units]
    act = draw_activation(rng)
    x = b.tensor(in_shape, "float32", name="input")
    w = b.const(draw_float_weights(rng, [units, n_in], n_in), "float32", name="weights")
    has_bias = chance(rng, 0.8)
    bias = b.const(draw_float_values(rng, [units], 1.0), "float32", name="bias") if has_bias else -1
    y = b.tensor(out_shape, "float32", name="output")
    b.op("FULLY_CONNECTED", [x, w, bias], [y], "FullyConnectedOptions",
         fusedActivationFunction=act, keepNumDims=mode == "keep_num_dims")
    config = {"mode": mode, "input_shape": in_shape, "units": units,
              "output_shape": out_shape, "activation": act, "bias": has_bias}
    return b.build([x], [y]), config
