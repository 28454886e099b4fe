"""CONV_2D at the image border with an input zero point of 0.

With a zero point of 0 a padded tap adds nothing, so the kernels drop the
padded taps of a border pixel from its list of input runs; a pixel of a
one- or two-row image under a 3x3 or 5x5 SAME filter is then left with one
run that starts past the filter's first taps. CONV_2D.int8_zero_borders
(variants.SIMD, run under QEMU by tests/test_simd.py) draws exactly that:
deep filters (more taps than the M55 patch buffer holds, so the taps stay
in place), 1 row (sometimes 2) of 1-6 columns, per-channel quantization
and output channels a multiple of four (mostly), now and then scales
above 1/2 (multipliers with a left shift). The general variants draw a
zero point of 0 once in 256, so they almost never reached this."""

import math

from ..common import (ModelBuilder, Q, UNIFORM_STD, chance, conv_out_size,
                      draw_activation, draw_bias, draw_output_quant, draw_scale,
                      draw_weight_quant, f32, pick, rand_values, randint)
from ..core import variant


@variant("CONV_2D.int8_zero_borders", "CONV_2D", simd=True)
def conv_int8_zero_borders(rng):
    """int8 CONV_2D, input zero point 0 (most draws), 3x3 filters of 32-64
    channels or 5x5 of 16-32, SAME, stride 1-2, over 1 row (or 2)
    of 1-6 pixels, mostly per-channel: border pixels whose taps inside
    the image are one run."""
    b = ModelBuilder()
    k = pick(rng, [3, 3, 5])
    in_c = pick(rng, [32, 48, 64] if k == 3 else [16, 32])
    kh = kw = k
    stride = pick(rng, [1, 1, 2])
    in_h, in_w = (1 if chance(rng, 0.85) else 2), randint(rng, 1, 6)
    # the kernels' whole-vector path wants whole blocks of four channels
    out_c = pick(rng, [4, 8, 12, 16, 24, 32, 36]) if chance(rng, 0.9) else 6
    zero_point = 0 if chance(rng, 0.85) else randint(rng, -128, 127)
    in_q = Q(draw_scale(rng, 1e-3, 1.0), zero_point)
    # per-channel: the arrays of multipliers the vector paths read
    per_channel = chance(rng, 0.85)
    w_q = draw_weight_quant(rng, out_c, per_channel, 0)
    k_sum = kh * kw * in_c
    act = draw_activation(rng)
    w_typ = math.exp(sum(math.log(s) for s in w_q.scales) / len(w_q.scales))
    acc_std = math.sqrt(k_sum) * UNIFORM_STD["int8"] ** 2
    out_q = draw_output_quant(rng, "int8", acc_std * in_q.scale * w_typ, act)
    if chance(rng, 0.2):
        # scales above 1/2: shifts >= 0, the requantization's left shift
        out_q = Q(f32(out_q.scale / 300), out_q.zero_point)
    out_h = conv_out_size(in_h, kh, stride, 1, "SAME")
    out_w = conv_out_size(in_w, kw, stride, 1, "SAME")
    x = b.tensor([1, in_h, in_w, in_c], "int8", in_q, name="input")
    w = b.const(rand_values(rng, "int8", [out_c, kh, kw, in_c]), "int8", w_q, name="filter")
    bias_q = Q([f32(in_q.scale * s) for s in w_q.scales], [0] * len(w_q.scales), axis=0)
    bias = b.const(draw_bias(rng, out_c, acc_std, "int32", acc_bound=k_sum * 256 * 128),
                   "int32", bias_q, name="bias")
    y = b.tensor([1, out_h, out_w, out_c], "int8", out_q, name="output")
    b.op("CONV_2D", [x, w, bias], [y], "Conv2DOptions", padding="SAME", strideH=stride,
         strideW=stride, fusedActivationFunction=act)
    config = {"input_shape": [1, in_h, in_w, in_c], "filter_shape": [out_c, kh, kw, in_c],
              "output_shape": [1, out_h, out_w, out_c], "stride": stride, "activation": act,
              "per_channel": per_channel, "input_quant": in_q.to_json(),
              "output_quant": out_q.to_json(), "weight_quant": w_q.to_json()}
    return b.build([x], [y]), config
