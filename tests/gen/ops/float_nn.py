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


def _window(rng, max_k=5):
    """Kernel, stride, dilation per spatial dimension, padding and an input
    size that is valid for it (as the int8 variants draw them)."""
    dims = []
    for _ in range(2):
        k = randint(rng, 1, max_k) if chance(rng, 0.8) else 1
        stride = pick(rng, [1, 1, 2, 3])
        dilation = pick(rng, [1, 1, 1, 2, 3]) if k > 1 else 1
        dims.append((k, stride, dilation))
    if chance(rng, 0.3):
        dims[1] = dims[0]
    padding = pick(rng, ["SAME", "VALID"])
    sizes = []
    for k, _, d in dims:
        n = randint(rng, 1, 12)
        sizes.append(max(n, (k - 1) * d + 1) if padding == "VALID" else n)
    return dims, padding, sizes


def _conv_float(rng, kind, grouped=False):
    b = ModelBuilder()
    batch = 2 if chance(rng, 0.15) else 1
    ((kh, sh, dh), (kw, sw, dw)), padding, (in_h, in_w) = _window(rng)
    in_c = randint(rng, 1, 12) if chance(rng, 0.85) else 1
    groups, mult = 1, 1
    if kind == "conv":
        out_c = randint(rng, 1, 12)
        if grouped:
            groups = pick(rng, [2, 3, 4])
            in_c, out_c = groups * randint(rng, 1, 4), groups * randint(rng, 1, 4)
        filt_shape = [out_c, kh, kw, in_c // groups]
        fan_in = kh * kw * (in_c // groups)
    else:
        mult = pick(rng, [1, 1, 2, 3, 4])
        out_c = in_c * mult
        filt_shape = [1, kh, kw, out_c]
        fan_in = kh * kw
    out_h = conv_out_size(in_h, kh, sh, dh, padding)
    out_w = conv_out_size(in_w, kw, sw, dw, padding)
    act = draw_activation(rng)
    x = b.tensor([batch, in_h, in_w, in_c], "float32", name="input")
    ins = [x, b.const(draw_float_weights(rng, filt_shape, fan_in), "float32", name="filter")]
    # TFLM's float DEPTHWISE_CONV_2D reads the bias unconditionally (it
    # crashes without one): depthwise variants always have one.
    has_bias = kind == "dw" or chance(rng, 0.85)
    if has_bias:
        ins.append(b.const(draw_float_values(rng, [out_c], 1.0), "float32", name="bias"))
    elif chance(rng, 0.5):
        ins.append(-1)
    y = b.tensor([batch, out_h, out_w, out_c], "float32", name="output")
    config = {"input_shape": [batch, in_h, in_w, in_c], "filter_shape": filt_shape,
              "output_shape": [batch, out_h, out_w, out_c], "stride": [sh, sw],
              "dilation": [dh, dw], "padding": padding, "activation": act, "bias": has_bias}
    if kind == "conv":
        b.op("CONV_2D", ins, [y], "Conv2DOptions", padding=padding, strideH=sh, strideW=sw,
             dilationHFactor=dh, dilationWFactor=dw, fusedActivationFunction=act)
        config["groups"] = groups
    else:
        b.op("DEPTHWISE_CONV_2D", ins, [y], "DepthwiseConv2DOptions", padding=padding,
             strideH=sh, strideW=sw, dilationHFactor=dh, dilationWFactor=dw,
             depthMultiplier=mult, fusedActivationFunction=act)
        config["depth_multiplier"] = mult
    return b.build([x], [y]), config


@variant("CONV_2D.float32", "CONV_2D")
def conv_float32(rng):
    """float32 CONV_2D: kernel 1-5, stride 1-3, dilation 1-3, SAME/VALID,
    batch 1-2, 1-12 channels, bias optional (absent or index -1), all fused
    activations."""
    return _conv_float(rng, "conv")


@variant("CONV_2D.float32_grouped", "CONV_2D")
def conv_float32_grouped(rng):
    """float32 grouped CONV_2D (2-4 groups)."""
    return _conv_float(rng, "conv", grouped=True)


@variant("DEPTHWISE_CONV_2D.float32", "DEPTHWISE_CONV_2D")
def dw_float32(rng):
    """float32 DEPTHWISE_CONV_2D, depth multiplier 1-4, geometry as CONV_2D.float32."""
    return _conv_float(rng, "dw")


def _pool_float(rng, op):
    b = ModelBuilder()
    batch = 2 if chance(rng, 0.15) else 1
    in_h, in_w, c = randint(rng, 1, 16), randint(rng, 1, 16), randint(rng, 1, 16)
    padding = pick(rng, ["SAME", "VALID"])
    if chance(rng, 0.15):   # global pooling
        fh, fw, sh, sw, padding = in_h, in_w, 1, 1, "VALID"
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
    act = draw_activation(rng, p_none=0.5)
    x = b.tensor([batch, in_h, in_w, c], "float32", name="input")
    y = b.tensor([batch, out_h, out_w, c], "float32", name="output")
    b.op(op, [x], [y], "Pool2DOptions", padding=padding, strideH=sh, strideW=sw,
         filterHeight=fh, filterWidth=fw, fusedActivationFunction=act)
    config = {"input_shape": [batch, in_h, in_w, c], "output_shape": [batch, out_h, out_w, c],
              "filter": [fh, fw], "stride": [sh, sw], "padding": padding, "activation": act}
    return b.build([x], [y]), config


@variant("AVERAGE_POOL_2D.float32", "AVERAGE_POOL_2D")
def average_pool_float32(rng):
    """float32 AVERAGE_POOL_2D: filter 1-5 or global, stride 1-3, SAME/VALID
    (windows clipped at the borders), all fused activations."""
    return _pool_float(rng, "AVERAGE_POOL_2D")


@variant("MAX_POOL_2D.float32", "MAX_POOL_2D")
def max_pool_float32(rng):
    """float32 MAX_POOL_2D, drawn as AVERAGE_POOL_2D.float32."""
    return _pool_float(rng, "MAX_POOL_2D")


@variant("L2_POOL_2D.float32", "L2_POOL_2D")
def l2_pool_float32(rng):
    """float32 L2_POOL_2D (TFLite Micro has no other), drawn as
    AVERAGE_POOL_2D.float32."""
    return _pool_float(rng, "L2_POOL_2D")


@variant("TRANSPOSE_CONV.float32", "TRANSPOSE_CONV")
def transpose_conv_float32(rng):
    """float32 TRANSPOSE_CONV: const int32 output_shape, OHWI weights, kernel
    1-5, stride 1-3, SAME/VALID with output sizes anywhere in the valid
    range, optional bias, activations (mostly NONE)."""
    b = ModelBuilder()
    batch = 2 if chance(rng, 0.15) else 1
    padding = pick(rng, ["SAME", "VALID"])
    kh, kw = randint(rng, 1, 5), randint(rng, 1, 5)
    sh, sw = pick(rng, [1, 2, 2, 3]), pick(rng, [1, 2, 2, 3])
    in_h, in_w = randint(rng, 1, 8), randint(rng, 1, 8)
    in_c, out_c = randint(rng, 1, 10), randint(rng, 1, 10)

    def out_size(n, k, s):
        # every output size whose forward convolution gives back n
        if padding == "SAME":
            lo, hi = (n - 1) * s + 1, n * s
        else:
            lo = (n - 1) * s + k
            hi = lo + s - 1
        return hi if padding == "SAME" and chance(rng, 0.7) else randint(rng, lo, hi)

    out_h, out_w = out_size(in_h, kh, sh), out_size(in_w, kw, sw)
    act = draw_activation(rng, p_none=0.7)
    oshape = b.const([batch, out_h, out_w, out_c], "int32", name="output_shape")
    w = b.const(draw_float_weights(rng, [out_c, kh, kw, in_c], kh * kw * in_c), "float32",
                name="filter")
    x = b.tensor([batch, in_h, in_w, in_c], "float32", name="input")
    ins = [oshape, w, x]
    has_bias = chance(rng, 0.8)
    if has_bias:
        ins.append(b.const(draw_float_values(rng, [out_c], 1.0), "float32", name="bias"))
    y = b.tensor([batch, out_h, out_w, out_c], "float32", name="output")
    b.op("TRANSPOSE_CONV", ins, [y], "TransposeConvOptions", padding=padding,
         strideH=sh, strideW=sw, fusedActivationFunction=act)
    config = {"input_shape": [batch, in_h, in_w, in_c], "filter_shape": [out_c, kh, kw, in_c],
              "output_shape": [batch, out_h, out_w, out_c], "stride": [sh, sw],
              "padding": padding, "activation": act, "bias": has_bias}
    return b.build([x], [y]), config


@variant("BATCH_MATMUL.float32", "BATCH_MATMUL")
def bmm_float32(rng):
    """float32 BATCH_MATMUL: rank 2-5, broadcast batch dimensions (lower-rank
    operands too), adj_x / adj_y, rhs constant or a second input."""
    b = ModelBuilder()
    rank = randint(rng, 2, 5) if chance(rng, 0.7) else randint(rng, 2, 3)
    nb = rank - 2
    batch = [randint(rng, 1, 3) for _ in range(nb)]
    lb, rb = list(batch), list(batch)
    for i in range(nb):
        r = rng.random()
        if r < 0.25:
            lb[i] = 1
        elif r < 0.5:
            rb[i] = 1
    if nb and chance(rng, 0.25):      # lower-rank operand
        cut = randint(rng, 1, nb)
        if chance(rng, 0.5):
            lb = lb[cut:]
        else:
            rb = rb[cut:]
    m, k, n = randint(rng, 1, 8), randint(rng, 1, 32), randint(rng, 1, 8)
    adj_x, adj_y = chance(rng, 0.3), chance(rng, 0.3)
    lhs_shape = lb + ([k, m] if adj_x else [m, k])
    rhs_shape = rb + ([n, k] if adj_y else [k, n])
    out_batch = [max(a, c) for a, c in zip([1] * (nb - len(lb)) + lb, [1] * (nb - len(rb)) + rb)]
    out_shape = out_batch + [m, n]
    rhs_const = chance(rng, 0.5)
    x = b.tensor(lhs_shape, "float32", name="lhs")
    if rhs_const:
        y = b.const(draw_float_weights(rng, rhs_shape, k), "float32", name="rhs")
    else:
        y = b.tensor(rhs_shape, "float32", name="rhs")
    z = b.tensor(out_shape, "float32", name="output")
    b.op("BATCH_MATMUL", [x, y], [z], "BatchMatMulOptions", adjX=adj_x, adjY=adj_y)
    config = {"lhs_shape": lhs_shape, "rhs_shape": rhs_shape, "output_shape": out_shape,
              "adj_x": adj_x, "adj_y": adj_y, "rhs_const": rhs_const}
    return b.build([x] if rhs_const else [x, y], [z]), config
