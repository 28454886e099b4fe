"""CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV.

int8 variants: int8 input/output (any zero point), int8 symmetric weights
(per-tensor or per-channel), int32 bias (scale = input scale * weight scale).
int16 variants: int16 input/output with zero point 0, int8 weights, int64 bias.
"""

import math

from ..common import (ModelBuilder, Q, UNIFORM_STD, chance, conv_out_size,
                      draw_activation, draw_bias, draw_dim, draw_output_quant,
                      draw_simd_size,
                      draw_quant, draw_weight_quant, f32, pick,
                      rand_values, randint)
from ..core import variant

BIAS_DTYPE = {"int8": "int32", "int16": "int64"}


def _spatial(rng, max_k=5):
    """Kernel, stride, dilation, padding and an input size that is valid."""
    k = randint(rng, 1, max_k) if chance(rng, 0.8) else 1
    stride = pick(rng, [1, 1, 2, 3])
    dilation = pick(rng, [1, 1, 1, 2, 3]) if k > 1 else 1
    return k, stride, dilation


def _simd_geometry(rng):
    """Kernel, stride, dilation, padding and input size for the SIMD
    variants: mostly 1x1 and 3x3 (the specialised kernels), sometimes 5 or
    a 1xN/Nx1 kernel, stride 1-2, dilation 1-2, small inputs (often 1)."""
    kh = pick(rng, [1, 1, 3, 3, 3, 5])
    kw = kh if chance(rng, 0.8) else pick(rng, [1, 3])
    sh = pick(rng, [1, 1, 2])
    sw = sh if chance(rng, 0.8) else pick(rng, [1, 2])
    dh = pick(rng, [1, 1, 1, 2]) if kh > 1 else 1
    dw = dh if kw > 1 and chance(rng, 0.8) else (pick(rng, [1, 2]) if kw > 1 else 1)
    padding = pick(rng, ["SAME", "SAME", "VALID"])
    in_h = draw_dim(rng, 1, 9, p_one=0.15)
    in_w = draw_dim(rng, 1, 9, p_one=0.15)
    if padding == "VALID":
        in_h = max(in_h, (kh - 1) * dh + 1)
        in_w = max(in_w, (kw - 1) * dw + 1)
    return kh, sh, dh, kw, sw, dw, padding, in_h, in_w


def _few_channels_geometry(rng):
    """Kernel, stride, dilation, padding, input size and channels for the
    paths that share weight loads between pixels: few input channels
    (taps by column), short patches (three pixels at a time) and 1x1 filters
    of one or two 16-byte chunks (four pixels at a time), rows wide enough
    for several pixel groups and a remainder."""
    shape = pick(rng, ["column", "column", "patch", "1x1"])
    if shape == "1x1":
        kh = kw = 1
        in_c = pick(rng, [randint(rng, 1, 16), randint(rng, 17, 32), 16, 32])
    else:
        kh = pick(rng, [3, 3, 2, 5]) if chance(rng, 0.8) else randint(rng, 1, 10)
        kw = kh if chance(rng, 0.7) else randint(rng, 1, 5)
        in_c = randint(rng, 1, 8) if shape == "column" else randint(rng, 6, 19)
    sh = pick(rng, [1, 1, 2])
    sw = sh if chance(rng, 0.8) else pick(rng, [1, 2, 3])
    dh = pick(rng, [1, 1, 2]) if kh > 1 else 1
    dw = pick(rng, [1, 1, 1, 2]) if kw > 1 else 1
    padding = pick(rng, ["SAME", "SAME", "VALID"])
    in_h = randint(rng, 1, 8)
    in_w = randint(rng, 3, 24)
    if padding == "VALID":
        in_h = max(in_h, (kh - 1) * dh + 1)
        in_w = max(in_w, (kw - 1) * dw + 1)
    return kh, sh, dh, kw, sw, dw, padding, in_h, in_w, in_c


def _pointwise_off4_geometry(rng):
    """1x1 filters longer than the four-pixel loops' 32 taps (33-160
    input channels, 64 often): rows and images of odd and even pixel counts
    (pairs and a last odd pixel), stride 1 (the whole image one run) or 2
    (a row a run), one-pixel images."""
    in_c = pick(rng, [64, 64, 96, randint(rng, 33, 160)])
    sh = sw = pick(rng, [1, 1, 2])
    padding = pick(rng, ["SAME", "VALID"])
    in_h, in_w = pick(rng, [(randint(rng, 1, 8), randint(rng, 1, 9)), (1, 1)])
    return 1, sh, 1, 1, sw, 1, padding, in_h, in_w, in_c


def _pointwise_triples_geometry(rng):
    """1x1 filters of whole chunks longer than the four-pixel loops (48 to
    256 input channels, 64 often): images of 3 to 60 pixels (a run's last
    one or two pixels left to the single-pixel loop), stride 1 (the whole
    image one run) or 2 (a row a run, pixels two apart)."""
    in_c = pick(rng, [64, 64, 48, 96, 128, 256, 16 * randint(rng, 3, 16)])
    sh = sw = pick(rng, [1, 1, 2])
    padding = pick(rng, ["SAME", "VALID"])
    in_h, in_w = randint(rng, 1, 6), randint(rng, 3, 10)
    return 1, sh, 1, 1, sw, 1, padding, in_h, in_w, in_c


def _small_geometry(rng):
    """Geometry of the DSP paths for small filters (at most 16 taps: 1x1 of
    1-16 input channels, 3x3/1x3/3x1/2x2 patches of few channels), now and
    then a deep 1x1 (up to 256 channels, the widest pixel-pair loop): rows
    long enough for whole groups of pixels and their tails."""
    kh, kw = pick(rng, [(1, 1), (1, 1), (1, 1), (3, 3), (3, 3), (1, 3), (3, 1), (2, 2)])
    if kh * kw == 1 and chance(rng, 0.15):
        in_c = pick(rng, [48, 80, 128, 192, 256])
    elif kh * kw == 1:
        in_c = pick(rng, [1, 2, 3, 4, 5, 7, 8, 8, 9, 11, 12, 13, 15, 16])
    else:
        in_c = pick(rng, [n for n in (1, 1, 1, 2, 3, 4) if kh * kw * n <= 16])
    sh = pick(rng, [1, 1, 2])
    sw = sh if chance(rng, 0.8) else pick(rng, [1, 2])
    dh = pick(rng, [1, 1, 1, 2]) if kh > 1 else 1
    dw = pick(rng, [1, 1, 1, 2]) if kw > 1 else 1
    padding = pick(rng, ["SAME", "SAME", "VALID"])
    in_h = draw_dim(rng, 1, 6, p_one=0.1)
    in_w = randint(rng, 1, 14)
    if padding == "VALID":
        in_h = max(in_h, (kh - 1) * dh + 1)
        in_w = max(in_w, (kw - 1) * dw + 1)
    return kh, sh, dh, kw, sw, dw, padding, in_h, in_w, in_c


def _small_depth_geometry(rng):
    """Geometry of the Helium depthwise paths for few channels: 3x3 windows
    (now and then 1x3, 3x1 or 5x5) over 8 channels (pixel pairs), 16 (one
    block) and counts beside them (9-15: one block of 16 whose upper half is
    predicated), stride 1-2 (3 now and then), dilation 1
    mostly, SAME or VALID, 1-row inputs and rows of 4-24 pixels (interior
    runs of odd and even length)."""
    kh, kw = (3, 3) if chance(rng, 0.8) else pick(rng, [(1, 3), (3, 1), (5, 5)])
    sh = pick(rng, [1, 1, 2])
    sw = pick(rng, [1, 1, 2, 2, 3])
    dh = pick(rng, [1, 1, 1, 2]) if kh > 1 else 1
    dw = pick(rng, [1, 1, 1, 2]) if kw > 1 else 1
    padding = pick(rng, ["SAME", "SAME", "VALID"])
    in_h = draw_dim(rng, 2, 6, p_one=0.2)
    in_w = randint(rng, 4, 24)
    if padding == "VALID":
        in_h = max(in_h, (kh - 1) * dh + 1)
        in_w = max(in_w, (kw - 1) * dw + 1)
    in_c = pick(rng, [8, 8, 8, 16, 16, 4, 12, 24, 32, 9, 13, 15])
    return kh, sh, dh, kw, sw, dw, padding, in_h, in_w, in_c


def _long_geometry(rng):
    """Geometry of the long-filter paths: kernels up to 10x10 over input
    depths mostly off 16 whose patches pass 256 bytes (pieces of the
    patch), strides and dilations 1-3, 1-row and 1-column inputs, and
    1xN rows with SAME padding, stride 2 and asymmetric padding (where
    CMSIS-NN's Helium 1xN kernel is wrong). Output channels 1-256, off 4
    and 16 too; the widest on small planes."""
    if chance(rng, 0.25):
        # one input row, a 1xN window, stride 2, SAME with an odd total pad
        kh, kw, sh, sw, dh, dw = 1, randint(rng, 3, 8), 1, 2, 1, 1
        in_h, padding = 1, "SAME"
        in_w = randint(rng, 5, 20)
        while (max((-(-in_w // sw) - 1) * sw + kw - in_w, 0)) % 2 == 0:
            in_w += 1
    else:
        kh, kw = randint(rng, 1, 10), randint(rng, 1, 10)
        if kh * kw == 1:
            kh = 3
        sh, sw = pick(rng, [1, 1, 2, 3]), pick(rng, [1, 1, 2, 3])
        dh = pick(rng, [1, 1, 2]) if kh > 1 else 1
        dw = pick(rng, [1, 1, 2]) if kw > 1 else 1
        padding = pick(rng, ["SAME", "SAME", "VALID"])
        in_h = 1 if chance(rng, 0.15) else randint(rng, 1, 8)
        in_w = 1 if chance(rng, 0.15) else randint(rng, 1, 8)
        if padding == "VALID":
            in_h = max(in_h, (kh - 1) * dh + 1)
            in_w = max(in_w, (kw - 1) * dw + 1)
    in_c = pick(rng, [randint(rng, 1, 15), randint(rng, 17, 31), randint(rng, 33, 47), 20, 28, 32, 64])
    if kh * kw * in_c <= 256 and chance(rng, 0.85):
        in_c = -(-257 // (kh * kw)) + randint(rng, 0, 9)
    in_c = max(1, min(in_c, 1500 // (kh * kw)))
    return kh, sh, dh, kw, sw, dw, padding, in_h, in_w, in_c


def _conv_common(rng, dt, kind, groups_allowed=False, simd=False, deep=False,
                 wide=False, few=False, small=False, long_rows=False, long=False, w_dt="int8",
                 small_depth=False, pointwise_off4=False, pointwise_triples=False,
                 tails=False):
    b = ModelBuilder()
    batch = 2 if chance(rng, 0.15) else 1
    mult = 1
    groups = 1
    if long:
        kh, sh, dh, kw, sw, dw, padding, in_h, in_w, in_c = _long_geometry(rng)
    elif few:
        kh, sh, dh, kw, sw, dw, padding, in_h, in_w, in_c = _few_channels_geometry(rng)
    elif small_depth:
        kh, sh, dh, kw, sw, dw, padding, in_h, in_w, in_c = _small_depth_geometry(rng)
    elif pointwise_off4:
        kh, sh, dh, kw, sw, dw, padding, in_h, in_w, in_c = _pointwise_off4_geometry(rng)
    elif pointwise_triples:
        kh, sh, dh, kw, sw, dw, padding, in_h, in_w, in_c = _pointwise_triples_geometry(rng)
    elif small:
        kh, sh, dh, kw, sw, dw, padding, in_h, in_w, in_c = _small_geometry(rng)
    elif simd:
        kh, sh, dh, kw, sw, dw, padding, in_h, in_w = _simd_geometry(rng)
        in_c = draw_simd_size(rng)
    else:
        kh, sh, dh = _spatial(rng)
        kw, sw, dw = _spatial(rng)
        if chance(rng, 0.3):
            kw, sw, dw = kh, sh, dh
        if wide and chance(rng, 0.6):
            # the specialised 3x3 window of the SIMD depthwise paths
            kh = kw = 3
        padding = pick(rng, ["SAME", "VALID"])
        in_h = randint(rng, 1, 12)
        in_w = randint(rng, 1, 12)
        if long_rows:
            # 3x3 windows over rows with interior runs of 8 pixels and more
            kh = kw = 3
            in_w = randint(rng, 10, 24)
        if padding == "VALID":
            in_h = max(in_h, (kh - 1) * dh + 1)
            in_w = max(in_w, (kw - 1) * dw + 1)
        in_c = randint(rng, 1, 12) if chance(rng, 0.85) else 1
        if wide:
            # whole 16-channel blocks, an 8-channel block and tails
            in_c = pick(rng, [8, 16, 24, 32, randint(rng, 13, 40)])
        if deep:
            in_c = pick(rng, [16, 32, 48])
        if tails:
            # every tail of the SIMD blocks of 4 (DSP) and 16 (Helium)
            # channels, whole blocks and more than one
            in_c = pick(rng, [1, 3, 7, 8, 9, 15, 16, 17, 24, 30, 33])
            if chance(rng, 0.5):
                # the 3x3 windows the SIMD paths run a window row at a time
                kh = kw = 3
                in_h, in_w = max(in_h, 3), max(in_w, 3)
    if kind == "conv" and long:
        out_c = pick(rng, [randint(rng, 1, 16), randint(rng, 17, 64), 10, 30, 28, 64,
                           randint(rng, 65, 256)])
        if out_c > 64:  # keep the case small: few pixels
            in_h, in_w = min(in_h, 3), min(in_w, 4)
            if padding == "VALID":
                padding = "SAME"
        filt_shape = [out_c, kh, kw, in_c]
        axis = 0
        k_sum = kh * kw * in_c
    elif kind == "conv" and pointwise_off4:
        # last blocks of one and two channels (their own entry), of three
        # and whole blocks (the others)
        out_c = pick(rng, [1, 2, 5, 6, 10, 10, 30, 9, 13, 14, 7, 12, randint(rng, 1, 40)])
        filt_shape = [out_c, kh, kw, in_c]
        axis = 0
        k_sum = kh * kw * in_c
    elif kind == "conv" and pointwise_triples:
        # whole blocks: one or more groups of 32 channels and a last one of
        # a few pairs; now and then a depth the entry leaves to the others
        out_c = pick(rng, [8, 12, 16, 32, 40, 64, 4 * randint(rng, 2, 32), randint(rng, 1, 40)])
        filt_shape = [out_c, kh, kw, in_c]
        axis = 0
        k_sum = kh * kw * in_c
    elif kind == "conv" and few:
        # whole groups of 16 channels, a partial group, and counts off 4
        out_c = pick(rng, [16, 32, 4, 8, 20, 36, randint(rng, 1, 40)])
        filt_shape = [out_c, kh, kw, in_c]
        axis = 0
        k_sum = kh * kw * in_c
    elif kind == "conv" and small:
        # whole blocks of four channels (the fast paths) and a few tails
        out_c = pick(rng, [4, 8, 8, 12, 16, 16, 20, 32, 3, 6, 9])
        filt_shape = [out_c, kh, kw, in_c]
        axis = 0
        k_sum = kh * kw * in_c
    elif kind == "conv" and simd:
        out_c = draw_simd_size(rng)
        filt_shape = [out_c, kh, kw, in_c]
        axis = 0
        k_sum = kh * kw * in_c
    elif kind == "dw" and small_depth:
        out_c = in_c
        filt_shape = [1, kh, kw, out_c]
        axis = 3
        k_sum = kh * kw
    elif kind == "dw" and simd:
        mult = pick(rng, [1, 1, 1, 2, 3])
        out_c = in_c * mult
        filt_shape = [1, kh, kw, out_c]
        axis = 3
        k_sum = kh * kw
    elif kind == "conv":
        out_c = randint(rng, 1, 20 if deep else 12)
        if groups_allowed:
            groups = pick(rng, [2, 3, 4])
            in_c = groups * randint(rng, 1, 4)
            out_c = groups * randint(rng, 1, 4)
        filt_shape = [out_c, kh, kw, in_c // groups]
        axis = 0
        k_sum = kh * kw * (in_c // groups)
    else:
        mult = pick(rng, [1, 1, 2, 3, 4])
        if (wide or tails) and chance(rng, 0.7):
            mult = 1
        out_c = in_c * mult
        filt_shape = [1, kh, kw, out_c]
        axis = 3
        k_sum = kh * kw
    out_h = conv_out_size(in_h, kh, sh, dh, padding)
    out_w = conv_out_size(in_w, kw, sw, dw, padding)

    in_q = draw_quant(rng, dt, 1e-3, 1.0)
    per_channel = chance(rng, 0.65)
    w_q = draw_weight_quant(rng, out_c, per_channel, axis)
    weights = rand_values(rng, w_dt, filt_shape)
    act = draw_activation(rng)
    w_typ = math.exp(sum(math.log(s) for s in w_q.scales) / len(w_q.scales))
    acc_std = math.sqrt(k_sum) * UNIFORM_STD[dt] * UNIFORM_STD[w_dt]
    out_q = draw_output_quant(rng, dt, acc_std * in_q.scale * w_typ, act)
    if small and chance(rng, 0.25):
        # scales above 1/2 (shifts >= 0): the requantization's general path
        out_q = Q(f32(out_q.scale / 300), out_q.zero_point)

    x = b.tensor([batch, in_h, in_w, in_c], dt, in_q, name="input")
    w = b.const(weights, w_dt, w_q, name="filter")
    has_bias = chance(rng, 0.9)
    ins = [x, w]
    if has_bias:
        bias_q = Q([f32(in_q.scale * s) for s in w_q.scales],
                   [0] * len(w_q.scales), axis=0)
        bias = draw_bias(rng, out_c, acc_std, BIAS_DTYPE[dt],
                         acc_bound=k_sum * 256 * 128)
        if (small or long) and dt == "int8" and chance(rng, 0.3):
            # one channel's bias of 2^29 or more: the DSP pair and long loops' sums
            # may leave [-2^30, 2^30), where their cheap requantization
            # (small_right_sums) does not hold; the layer takes the general one
            top = 2**31 - 1 - k_sum * 256 * 128
            bias[randint(rng, 0, out_c - 1)] = pick(rng, [-1, 1]) * randint(rng, 2**29, top)
        ins.append(b.const(bias, BIAS_DTYPE[dt], bias_q, name="bias"))
    y = b.tensor([batch, out_h, out_w, out_c], dt, out_q, name="output")
    config = {"input_shape": [batch, in_h, in_w, in_c],
              "filter_shape": filt_shape, "output_shape": [batch, out_h, out_w, out_c],
              "stride": [sh, sw], "dilation": [dh, dw], "padding": padding,
              "activation": act, "per_channel": per_channel, "bias": has_bias,
              "input_quant": in_q.to_json(), "output_quant": out_q.to_json(),
              "weight_quant": w_q.to_json()}
    if kind == "conv":
        b.op("CONV_2D", ins, [y], "Conv2DOptions", padding=padding,
             strideH=sh, strideW=sw, dilationHFactor=dh, dilationWFactor=dw,
             fusedActivationFunction=act)
        config["groups"] = groups
    else:
        b.op("DEPTHWISE_CONV_2D", ins, [y], "DepthwiseConv2DOptions",
             padding=padding, strideH=sh, strideW=sw, dilationHFactor=dh,
             dilationWFactor=dw, depthMultiplier=mult,
             fusedActivationFunction=act)
        config["depth_multiplier"] = mult
    return b.build([x], [y]), config


@variant("CONV_2D.int8", "CONV_2D")
def conv_int8(rng):
    """int8 CONV_2D: random kernel 1-5, stride 1-3, dilation 1-3, SAME/VALID,
    batch 1-2, per-tensor or per-channel weights, all fused activations."""
    return _conv_common(rng, "int8", "conv")


@variant("CONV_2D.int8_deep", "CONV_2D")
def conv_int8_deep(rng):
    """int8 CONV_2D with 16, 32 or 48 input channels and 1-20 filters: the
    kernel's paths for whole 16-byte chunks of taps (padded borders in
    place, dilated taps, more runs than one list holds)."""
    return _conv_common(rng, "int8", "conv", deep=True)


@variant("CONV_2D.int16", "CONV_2D")
def conv_int16(rng):
    """int16x8 CONV_2D with int64 bias."""
    return _conv_common(rng, "int16", "conv")


@variant("CONV_2D.int8_grouped", "CONV_2D")
def conv_int8_grouped(rng):
    """int8 grouped CONV_2D: filter input depth = input depth / groups."""
    return _conv_common(rng, "int8", "conv", groups_allowed=True)


@variant("DEPTHWISE_CONV_2D.int8", "DEPTHWISE_CONV_2D")
def dw_int8(rng):
    """int8 DEPTHWISE_CONV_2D, depth multiplier 1-4, per-channel along axis 3."""
    return _conv_common(rng, "int8", "dw")


@variant("DEPTHWISE_CONV_2D.int8_wide", "DEPTHWISE_CONV_2D")
def dw_int8_wide(rng):
    """int8 DEPTHWISE_CONV_2D with 8-40 channels (mostly multiplier 1 and
    3x3): every block shape of the SIMD paths, interior and border pixels."""
    return _conv_common(rng, "int8", "dw", wide=True)


@variant("DEPTHWISE_CONV_2D.int8_rows", "DEPTHWISE_CONV_2D", simd=True)
def dw_int8_rows(rng):
    """int8 DEPTHWISE_CONV_2D, 3x3 over rows of 10-24 pixels with 8-40
    channels: the long interior runs where the DSP path pairs the weights."""
    return _conv_common(rng, "int8", "dw", wide=True, long_rows=True)


@variant("DEPTHWISE_CONV_2D.int16", "DEPTHWISE_CONV_2D")
def dw_int16(rng):
    """int16x8 DEPTHWISE_CONV_2D with int64 bias."""
    return _conv_common(rng, "int16", "dw")


@variant("CONV_2D.int8_simd", "CONV_2D", simd=True)
def conv_int8_simd(rng):
    """int8 CONV_2D at SIMD sizes: input and output channels 1-65 at and
    beside the lane counts, 1x1/3x3/5x5 and 1xN kernels, stride and
    dilation 1-2, SAME borders, per-tensor or per-channel weights."""
    return _conv_common(rng, "int8", "conv", simd=True)


@variant("CONV_2D.int8_few_channels", "CONV_2D", simd=True)
def conv_int8_few_channels(rng):
    """int8 CONV_2D where pixels share weight loads: 1-8 input channels
    (taps by column), patches of up to 176 taps, 1x1 filters of 1-32
    channels; rows of 3-24 pixels, stride 1-3, dilation 1-2, padding,
    per-tensor or per-channel weights, 1-40 filters."""
    return _conv_common(rng, "int8", "conv", few=True)


@variant("CONV_2D.int8_long", "CONV_2D", simd=True)
def conv_int8_long(rng):
    """int8 CONV_2D with long filters: kernels up to 10x10, patches past 256
    bytes over depths off 16 (the patch a piece at a time), 1-256 output
    channels (off 4 and 16: the last block stored in part), strides,
    dilations, 1-row and 1-column inputs, 1xN rows with SAME and
    asymmetric padding at stride 2."""
    return _conv_common(rng, "int8", "conv", long=True)


@variant("CONV_2D.int8_pointwise_off4", "CONV_2D", simd=True)
def conv_int8_pointwise_off4(rng):
    """int8 1x1 CONV_2D of 33-160 input channels whose output channel
    count is off four (ta_conv_2d_s8_pointwise_off4: a last block of one or
    two channels two pixels at a time), odd and even pixel counts, stride 1
    and 2, per-tensor or per-channel weights."""
    return _conv_common(rng, "int8", "conv", pointwise_off4=True)


@variant("CONV_2D.int8_pointwise_triples", "CONV_2D", simd=True)
def conv_int8_pointwise_triples(rng):
    """int8 1x1 CONV_2D of 48-256 input channels in whole chunks to whole
    blocks of output channels (ta_conv_2d_s8_pointwise_triples on the
    Cortex-M55: three pixels read in place share each weight load), 3 to 60
    pixels, stride 1 and 2, per-tensor or per-channel weights."""
    return _conv_common(rng, "int8", "conv", pointwise_triples=True)


@variant("CONV_2D.int8_dsp", "CONV_2D", simd=True)
def conv_int8_dsp(rng):
    """int8 CONV_2D for the DSP paths: filters of at most 16 taps (1x1 of
    1-16 input channels, 3x3 and 1x3 patches of 1-4) and deep 1x1 ones,
    pixels in pairs and groups, odd row lengths and pixel counts, SAME
    borders, stride and dilation 2, the per-channel requantization four
    channels at a time (by SMMULR while every bias sum is small) and, for
    scales above 1/2 or a channel's bias of 2^29 or more, its general
    path."""
    return _conv_common(rng, "int8", "conv", small=True)


@variant("CONV_2D.int16_simd", "CONV_2D", simd=True)
def conv_int16_simd(rng):
    """int16x8 CONV_2D at SIMD sizes."""
    return _conv_common(rng, "int16", "conv", simd=True)


@variant("DEPTHWISE_CONV_2D.int8_simd", "DEPTHWISE_CONV_2D", simd=True)
def dw_int8_simd(rng):
    """int8 DEPTHWISE_CONV_2D at SIMD sizes: channels 1-65, multiplier 1-3,
    3x3 mostly, stride and dilation 1-2, SAME borders."""
    return _conv_common(rng, "int8", "dw", simd=True)


@variant("DEPTHWISE_CONV_2D.int8_small_depth", "DEPTHWISE_CONV_2D", simd=True)
def dw_int8_small_depth(rng):
    """int8 DEPTHWISE_CONV_2D over 4-32 channels, 8 and 16 mostly (the
    first depthwise layers of small MobileNets): the Helium pixel pairs of
    eight channels at stride 1 and 2, 16-channel blocks, border pixels,
    1-row inputs."""
    return _conv_common(rng, "int8", "dw", small_depth=True)


@variant("DEPTHWISE_CONV_2D.int16_simd", "DEPTHWISE_CONV_2D", simd=True)
def dw_int16_simd(rng):
    """int16x8 DEPTHWISE_CONV_2D at SIMD sizes."""
    return _conv_common(rng, "int16", "dw", simd=True)


def _transpose_conv(rng, dt, shape_input=False):
    """shape_input: output_shape is a graph input (TFLM never reads it and
    uses the output tensor's shape; its random values do not matter)."""
    b = ModelBuilder()
    batch = 2 if chance(rng, 0.15) else 1
    padding = pick(rng, ["SAME", "VALID"])
    kh, kw = randint(rng, 1, 5), randint(rng, 1, 5)
    sh, sw = pick(rng, [1, 2, 2, 3]), pick(rng, [1, 2, 2, 3])
    in_h, in_w = randint(rng, 1, 8), randint(rng, 1, 8)
    in_c, out_c = randint(rng, 1, 10), randint(rng, 1, 10)

    def out_size(n, k, s):
        # every output size whose forward conv gives back n
        if padding == "SAME":
            lo, hi = (n - 1) * s + 1, n * s
            return hi if chance(rng, 0.7) else randint(rng, lo, hi)
        lo = (n - 1) * s + k
        return lo if chance(rng, 0.7) else randint(rng, lo, lo + s - 1)

    out_h, out_w = out_size(in_h, kh, sh), out_size(in_w, kw, sw)
    in_q = draw_quant(rng, dt, 1e-3, 1.0)
    per_channel = chance(rng, 0.65)
    w_q = draw_weight_quant(rng, out_c, per_channel, 0)
    act = draw_activation(rng, p_none=0.7)
    w_typ = math.exp(sum(math.log(s) for s in w_q.scales) / len(w_q.scales))
    k_sum = max(1, (kh // sh) * (kw // sw)) * in_c
    acc_std = math.sqrt(k_sum) * UNIFORM_STD[dt] * UNIFORM_STD["int8"]
    out_q = draw_output_quant(rng, dt, acc_std * in_q.scale * w_typ, act)

    if shape_input:
        oshape = b.tensor([4], "int32", name="output_shape")
    else:
        oshape = b.const([batch, out_h, out_w, out_c], "int32", name="output_shape")
    w = b.const(rand_values(rng, "int8", [out_c, kh, kw, in_c]), "int8", w_q,
                name="filter")
    x = b.tensor([batch, in_h, in_w, in_c], dt, in_q, name="input")
    ins = [oshape, w, x]
    has_bias = chance(rng, 0.8)
    if has_bias:
        bias_q = Q([f32(in_q.scale * s) for s in w_q.scales],
                   [0] * len(w_q.scales), axis=0)
        bias = draw_bias(rng, out_c, acc_std, BIAS_DTYPE[dt],
                         acc_bound=kh * kw * in_c * 256 * 128)
        ins.append(b.const(bias, BIAS_DTYPE[dt], bias_q, name="bias"))
    y = b.tensor([batch, out_h, out_w, out_c], dt, out_q, name="output")
    b.op("TRANSPOSE_CONV", ins, [y], "TransposeConvOptions", padding=padding,
         strideH=sh, strideW=sw, fusedActivationFunction=act)
    config = {"input_shape": [batch, in_h, in_w, in_c],
              "filter_shape": [out_c, kh, kw, in_c],
              "output_shape": [batch, out_h, out_w, out_c],
              "stride": [sh, sw], "padding": padding, "activation": act,
              "per_channel": per_channel, "bias": has_bias,
              "input_quant": in_q.to_json(), "output_quant": out_q.to_json(),
              "weight_quant": w_q.to_json()}
    if shape_input:
        config["output_shape_input"] = True
    return b.build([oshape, x] if shape_input else [x], [y]), config


@variant("TRANSPOSE_CONV.int8", "TRANSPOSE_CONV")
def transpose_conv_int8(rng):
    """int8 TRANSPOSE_CONV: output_shape const, OHWI weights, stride 1-3,
    SAME/VALID (output sizes anywhere in the valid range), optional bias."""
    return _transpose_conv(rng, "int8")


@variant("TRANSPOSE_CONV.int16", "TRANSPOSE_CONV")
def transpose_conv_int16(rng):
    """int16x8 TRANSPOSE_CONV with int64 bias."""
    return _transpose_conv(rng, "int16")


@variant("TRANSPOSE_CONV.int8_shape_input", "TRANSPOSE_CONV")
def transpose_conv_int8_shape_input(rng):
    """int8 TRANSPOSE_CONV whose output_shape operand is a graph input
    (random values each run): the output tensor's static shape is used."""
    return _transpose_conv(rng, "int8", shape_input=True)


@variant("TRANSPOSE_CONV.int16_shape_input", "TRANSPOSE_CONV")
def transpose_conv_int16_shape_input(rng):
    """int16x8 TRANSPOSE_CONV whose output_shape operand is a graph input."""
    return _transpose_conv(rng, "int16", shape_input=True)
