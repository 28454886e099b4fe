"""AVERAGE_POOL_2D and MAX_POOL_2D (TFLM requires output quantization ==
input quantization)."""

from ..common import (ModelBuilder, Q, chance, conv_out_size, draw_activation,
                      draw_dim, draw_quant, draw_simd_size, pick, randint)
from ..core import variant


def _pool(rng, op, dt, simd=False, many_channels=False):
    b = ModelBuilder()
    batch = 2 if chance(rng, 0.15) else 1
    if simd:
        # channels across the vector width and its tails; small planes
        in_h, in_w = draw_dim(rng, 1, 10, 0.15), draw_dim(rng, 1, 10, 0.15)
        c = draw_simd_size(rng)
    elif many_channels:
        # The SIMD paths' channel blocks (16 and 4) with tails, and
        # windows over 256 positions (where the DSP sums leave int16).
        in_h, in_w = randint(rng, 1, 24), randint(rng, 1, 24)
        c = pick(rng, [randint(rng, 1, 72), 16, 17, 32, 35, 64])
    else:
        in_h, in_w = randint(rng, 1, 16), randint(rng, 1, 16)
        c = randint(rng, 1, 16)
    padding = pick(rng, ["SAME", "VALID"])
    if chance(rng, 0.4 if many_channels else 0.15):   # global pooling
        fh, fw, sh, sw = in_h, in_w, 1, 1
        padding = "VALID"
    else:
        fh, fw = randint(rng, 1, 5), randint(rng, 1, 5)
        if chance(rng, 0.4):
            fw = fh
        sh, sw = pick(rng, [1, 1, 2, 2, 3]), pick(rng, [1, 1, 2, 2, 3])
        if chance(rng, 0.4):
            sw = sh
        if padding == "VALID":
            in_h, in_w = max(in_h, fh), max(in_w, fw)
    out_h = conv_out_size(in_h, fh, sh, 1, padding)
    out_w = conv_out_size(in_w, fw, sw, 1, padding)
    q = draw_quant(rng, dt, 1e-3, 1.0)
    act = draw_activation(rng, p_none=0.6)
    x = b.tensor([batch, in_h, in_w, c], dt, q, name="input")
    y = b.tensor([batch, out_h, out_w, c], dt, Q(q.scale, q.zero_point), name="output")
    b.op(op, [x], [y], "Pool2DOptions", padding=padding, strideH=sh, strideW=sw,
         filterHeight=fh, filterWidth=fw, fusedActivationFunction=act)
    config = {"input_shape": [batch, in_h, in_w, c],
              "output_shape": [batch, out_h, out_w, c], "filter": [fh, fw],
              "stride": [sh, sw], "padding": padding, "activation": act,
              "quant": q.to_json()}
    return b.build([x], [y]), config


for _op in ("AVERAGE_POOL_2D", "MAX_POOL_2D"):
    for _dt in ("int8", "int16"):
        def _make(op=_op, dt=_dt):
            def fn(rng):
                return _pool(rng, op, dt)
            fn.__doc__ = ("%s %s: filter 1-5 or global, stride 1-3, SAME/VALID, "
                          "batch 1-2, fused activations." % (dt, op))
            return fn
        variant("%s.%s" % (_op, _dt), _op)(_make())

        def _make_simd(op=_op, dt=_dt):
            def fn(rng):
                return _pool(rng, op, dt, simd=True)
            fn.__doc__ = ("%s %s at SIMD sizes: channels 1-65, planes 1-10." % (dt, op))
            return fn
        variant("%s.%s_simd" % (_op, _dt), _op, simd=True)(_make_simd())

for _op in ("AVERAGE_POOL_2D", "MAX_POOL_2D"):
    def _make_wide(op=_op):
        def fn(rng):
            return _pool(rng, op, "int8", many_channels=True)
        fn.__doc__ = ("int8 %s with 1-72 channels (16-channel blocks and tails) and "
                      "windows up to 24x24." % op)
        return fn
    variant("%s.int8_channels" % _op, _op)(_make_wide())
