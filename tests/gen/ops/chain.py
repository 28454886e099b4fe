"""Small multi-operator models: CHAIN.conv_pool, CHAIN.reshape_alias,
CHAIN.residual, CHAIN.dw_conv, CHAIN.pad_elementwise,
CHAIN.broadcast_elementwise. Layers are added to one builder with the
helpers below; each returns (tensor, shape, quant) of its output."""

import math

import numpy as np

from ..common import (ModelBuilder, Q, UNIFORM_STD, chance, conv_out_size,
                      draw_activation, draw_bias, draw_output_quant,
                      draw_quant, draw_scale, draw_weight_quant,
                      draw_zero_point, f32, log_uniform, nelems, pick,
                      quant_around, rand_values, randint)
from ..core import variant


def _conv(b, rng, x, shape, q, out_c, kind="conv", mult=1, k=None, stride=None,
          padding=None, act=None, name="conv"):
    n, h, w, c = shape
    k = k if k is not None else pick(rng, [1, 3, 3, 5])
    stride = stride if stride is not None else pick(rng, [1, 1, 2])
    padding = padding or pick(rng, ["SAME", "VALID"])
    if padding == "VALID" and (h < k or w < k):
        padding = "SAME"
    act = act if act is not None else draw_activation(rng)
    if kind == "conv":
        fshape, axis, ksum = [out_c, k, k, c], 0, k * k * c
    else:
        out_c = c * mult
        fshape, axis, ksum = [1, k, k, out_c], 3, k * k
    wq = draw_weight_quant(rng, out_c, chance(rng, 0.7), axis)
    wtyp = math.exp(sum(math.log(s) for s in wq.scales) / len(wq.scales))
    acc_std = math.sqrt(ksum) * UNIFORM_STD["int8"] ** 2
    oq = draw_output_quant(rng, "int8", acc_std * q.scale * wtyp, act, spread=0.5)
    wt = b.const(rand_values(rng, "int8", fshape), "int8", wq, name=name + "_filter")
    bq = Q([f32(q.scale * s) for s in wq.scales], [0] * len(wq.scales))
    bt = b.const(draw_bias(rng, out_c, acc_std, "int32", ksum * 256 * 128), "int32",
                 bq, name=name + "_bias")
    oh, ow = conv_out_size(h, k, stride, 1, padding), conv_out_size(w, k, stride, 1, padding)
    oshape = [n, oh, ow, out_c]
    y = b.tensor(oshape, "int8", oq, name=name + "_out")
    if kind == "conv":
        b.op("CONV_2D", [x, wt, bt], [y], "Conv2DOptions", padding=padding,
             strideH=stride, strideW=stride, fusedActivationFunction=act)
    else:
        b.op("DEPTHWISE_CONV_2D", [x, wt, bt], [y], "DepthwiseConv2DOptions",
             padding=padding, strideH=stride, strideW=stride, depthMultiplier=mult,
             fusedActivationFunction=act)
    info = {"op": "CONV_2D" if kind == "conv" else "DEPTHWISE_CONV_2D",
            "kernel": k, "stride": stride, "padding": padding, "activation": act,
            "filter_shape": fshape, "output_shape": oshape,
            "output_quant": oq.to_json(), "per_channel": len(wq.scales) > 1}
    return y, oshape, oq, info


def _fc(b, rng, x, shape, q, units, name="fc", target_std=None):
    n_in = shape[-1]
    acc_std = math.sqrt(n_in) * UNIFORM_STD["int8"] ** 2
    if target_std is None:
        wq = Q(draw_scale(rng, 1e-3, 0.05), 0)
        oq = draw_output_quant(rng, "int8", acc_std * q.scale * wq.scale, spread=0.5)
    else:   # weights scaled so that outputs have about target_std
        wq = Q(f32(target_std / (acc_std * q.scale)), 0)
        oq = quant_around(rng, "int8", 0.0, 3 * target_std)
    wt = b.const(rand_values(rng, "int8", [units, n_in]), "int8", wq, name=name + "_weights")
    bt = b.const(draw_bias(rng, units, acc_std, "int32", n_in * 256 * 128), "int32",
                 Q(f32(q.scale * wq.scale), 0), name=name + "_bias")
    oshape = [shape[0], units]
    y = b.tensor(oshape, "int8", oq, name=name + "_out")
    b.op("FULLY_CONNECTED", [x, wt, bt], [y], "FullyConnectedOptions",
         fusedActivationFunction="NONE")
    return y, oshape, oq, {"op": "FULLY_CONNECTED", "units": units,
                           "output_quant": oq.to_json()}


def _input(b, rng, shape, name="input"):
    q = draw_quant(rng, "int8", 1e-3, 0.5)
    return b.tensor(shape, "int8", q, name=name), q


@variant("CHAIN.conv_pool", "CHAIN")
def conv_pool(rng):
    """CONV_2D -> MAX_POOL_2D -> RESHAPE (flatten) -> FULLY_CONNECTED ->
    SOFTMAX, int8, the classic small CNN head."""
    b = ModelBuilder()
    shape = [1, randint(rng, 4, 12), randint(rng, 4, 12), randint(rng, 1, 4)]
    x, q = _input(b, rng, shape)
    c, cshape, cq, cinfo = _conv(b, rng, x, shape, q, randint(rng, 2, 8), stride=1)
    f = pick(rng, [2, 2, 3])
    ph = conv_out_size(cshape[1], f, f, 1, "SAME")
    pw = conv_out_size(cshape[2], f, f, 1, "SAME")
    pshape = [1, ph, pw, cshape[3]]
    p = b.tensor(pshape, "int8", Q(cq.scale, cq.zero_point), name="pool_out")
    b.op("MAX_POOL_2D", [c], [p], "Pool2DOptions", padding="SAME", strideH=f,
         strideW=f, filterHeight=f, filterWidth=f, fusedActivationFunction="NONE")
    flat = [1, nelems(pshape)]
    r = b.tensor(flat, "int8", Q(cq.scale, cq.zero_point), name="flatten_out")
    st = b.const(np.array([1, -1], np.int32), "int32", name="flatten_shape")
    b.op("RESHAPE", [p, st], [r])
    classes = randint(rng, 2, 12)
    fc, fshape, fq, finfo = _fc(b, rng, r, flat, cq, classes,
                                target_std=log_uniform(rng, 0.5, 4.0))
    y = b.tensor(fshape, "int8", Q(1.0 / 256, -128), name="output")
    b.op("SOFTMAX", [fc], [y], "SoftmaxOptions", beta=1.0)
    return b.build([x], [y]), {"input_shape": shape, "input_quant": q.to_json(),
                               "conv": cinfo, "pool": f, "flat": flat,
                               "fc": finfo}


def _reshape_like(b, rng, x, shape, q, name):
    """RESHAPE, SQUEEZE or EXPAND_DIMS of x (same quantization)."""
    kind = pick(rng, ["RESHAPE", "SQUEEZE", "EXPAND_DIMS"])
    if kind == "SQUEEZE" and 1 not in shape:
        kind = "EXPAND_DIMS"
    if kind == "RESHAPE":
        n = nelems(shape)
        out = pick(rng, [[n], [1, n], [n, 1], list(reversed(shape))])
        st = b.const(np.array(out, np.int32), "int32", name=name + "_shape")
        y = b.tensor(out, "int8", Q(q.scale, q.zero_point), name=name + "_out")
        b.op("RESHAPE", [x, st], [y])
    elif kind == "SQUEEZE":
        out = [d for d in shape if d != 1]
        y = b.tensor(out, "int8", Q(q.scale, q.zero_point), name=name + "_out")
        b.op("SQUEEZE", [x], [y], "SqueezeOptions", squeezeDims=[])
    else:
        ax = randint(rng, 0, len(shape))
        out = shape[:ax] + [1] + shape[ax:]
        at = b.const(np.array([ax], np.int32), "int32", name=name + "_axis")
        y = b.tensor(out, "int8", Q(q.scale, q.zero_point), name=name + "_out")
        b.op("EXPAND_DIMS", [x, at], [y])
    return y, out, kind


def _elementwise_op(b, rng, x, shape, q, name):
    """ADD of a constant, LOGISTIC or requantizing RELU on x."""
    kind = pick(rng, ["ADD", "LOGISTIC", "RELU"])
    if kind == "ADD":
        cq = draw_quant(rng, "int8", 1e-3, 0.5)
        c = b.const(rand_values(rng, "int8", shape), "int8", cq, name=name + "_const")
        oq = Q(f32(max(q.scale, cq.scale) * 10 ** rng.uniform(-0.5, 0.8)),
               draw_zero_point(rng, "int8"))
        y = b.tensor(shape, "int8", oq, name=name + "_out")
        b.op("ADD", [x, c], [y], "AddOptions", fusedActivationFunction="NONE")
    elif kind == "LOGISTIC":
        oq = Q(1.0 / 256, -128)
        y = b.tensor(shape, "int8", oq, name=name + "_out")
        b.op("LOGISTIC", [x], [y])
    else:
        oq = Q(f32(q.scale * 10 ** rng.uniform(-0.5, 0.5)), -128)
        y = b.tensor(shape, "int8", oq, name=name + "_out")
        b.op("RELU", [x], [y])
    return y, oq, kind


@variant("CHAIN.reshape_alias", "CHAIN")
def reshape_alias(rng):
    """op -> RESHAPE/SQUEEZE/EXPAND_DIMS -> op, where the reshape output could
    alias its input. Sub-modes: the reshape reads the graph input, writes the
    graph output, or its input also feeds another op (fan-out, a second
    model output)."""
    b = ModelBuilder()
    rank = randint(rng, 1, 4)
    shape = [randint(rng, 1, 6) if chance(rng, 0.7) else 1 for _ in range(rank)]
    x, q = _input(b, rng, shape)
    mode = pick(rng, ["middle", "middle", "from_input", "to_output", "fanout"])
    outputs = []
    if mode == "from_input":
        r, rshape, rkind = _reshape_like(b, rng, x, shape, q, "reshape")
        y, yq, k2 = _elementwise_op(b, rng, r, rshape, q, "op2")
        outputs, ops = [y], [rkind, k2]
    else:
        a, aq, k1 = _elementwise_op(b, rng, x, shape, q, "op1")
        r, rshape, rkind = _reshape_like(b, rng, a, shape, aq, "reshape")
        if mode == "to_output":
            outputs, ops = [r], [k1, rkind]
        else:
            y, yq, k2 = _elementwise_op(b, rng, r, rshape, aq, "op2")
            outputs, ops = [y], [k1, rkind, k2]
            if mode == "fanout":
                z, zq, k3 = _elementwise_op(b, rng, a, shape, aq, "op3")
                outputs.append(z)
                ops.append(k3)
    return b.build([x], outputs), {"input_shape": shape, "mode": mode,
                                   "ops": ops, "input_quant": q.to_json()}


@variant("CHAIN.residual", "CHAIN")
def residual(rng):
    """Two branches joined by ADD: input -> CONV_2D (SAME, stride 1) [->
    CONV_2D] on one side, the input itself or a 1x1 CONV_2D on the other;
    optional RELU after the ADD."""
    b = ModelBuilder()
    c = randint(rng, 1, 8)
    shape = [1, randint(rng, 2, 10), randint(rng, 2, 10), c]
    x, q = _input(b, rng, shape)
    a, ashape, aq, ainfo = _conv(b, rng, x, shape, q, c, stride=1, padding="SAME",
                                 name="branch_a1")
    infos = [ainfo]
    if chance(rng, 0.5):
        a, ashape, aq, ainfo2 = _conv(b, rng, a, ashape, aq, c, stride=1,
                                      padding="SAME", name="branch_a2")
        infos.append(ainfo2)
    skip = pick(rng, ["identity", "conv1x1"])
    if skip == "identity":
        s, sq = x, q
    else:
        s, _, sq, sinfo = _conv(b, rng, x, shape, q, c, k=1, stride=1,
                                padding="SAME", name="branch_b")
        infos.append(sinfo)
    oq = Q(f32(max(aq.scale, sq.scale) * 10 ** rng.uniform(0.0, 0.6)),
           draw_zero_point(rng, "int8"))
    act = pick(rng, ["NONE", "RELU"])
    add = b.tensor(shape, "int8", oq, name="add_out")
    b.op("ADD", [a, s], [add], "AddOptions", fusedActivationFunction=act)
    out = add
    if chance(rng, 0.3):
        out = b.tensor(shape, "int8", Q(oq.scale, oq.zero_point), name="relu_out")
        b.op("RELU", [add], [out])
    return b.build([x], [out]), {"input_shape": shape, "skip": skip,
                                 "convs": infos, "add_activation": act,
                                 "add_quant": oq.to_json()}


@variant("CHAIN.dw_conv", "CHAIN")
def dw_conv(rng):
    """DEPTHWISE_CONV_2D over a single input channel (depth multiplier 1, or
    sometimes M > 1): a compiler may rewrite it into CONV_2D; optionally
    followed by AVERAGE_POOL_2D."""
    b = ModelBuilder()
    mult = 1 if chance(rng, 0.6) else randint(rng, 2, 8)
    k = randint(rng, 1, 5)
    pad = pick(rng, ["SAME", "VALID"])
    lo = k if pad == "VALID" else 1
    shape = [pick(rng, [1, 1, 2]), randint(rng, lo, 12), randint(rng, lo, 12), 1]
    x, q = _input(b, rng, shape)
    y, yshape, yq, info = _conv(b, rng, x, shape, q, None, kind="dw", mult=mult,
                                k=k, padding=pad)
    out = y
    pooled = chance(rng, 0.3) and yshape[1] >= 2 and yshape[2] >= 2
    if pooled:
        pshape = [yshape[0], yshape[1] // 2, yshape[2] // 2, yshape[3]]
        out = b.tensor(pshape, "int8", Q(yq.scale, yq.zero_point), name="pool_out")
        b.op("AVERAGE_POOL_2D", [y], [out], "Pool2DOptions", padding="VALID",
             strideH=2, strideW=2, filterHeight=2, filterWidth=2,
             fusedActivationFunction="NONE")
    return b.build([x], [out]), {"input_shape": shape, "depth_multiplier": mult,
                                 "dw": info, "avg_pool": pooled,
                                 "input_quant": q.to_json()}


# Layers a row chain (docs/row-streaming.md) runs row for row: PAD and the
# int8 elementwise layers that survive fusion.
ROW_UNARY = ["RELU", "RELU6", "LEAKY_RELU", "HARD_SWISH", "LOGISTIC", "TANH", "QUANTIZE", "ABS",
             "ELU"]


def _pad_layer(b, rng, x, shape, q, pads=None, name="pad"):
    """PAD (or PADV2 with the zero point as its value) of the rows and
    columns, sometimes of the channels too; pads: [[top, bottom], [left,
    right], [front, back]] or drawn 0-3 a side."""
    if pads is None:
        pads = [[randint(rng, 0, 3), randint(rng, 0, 3)],
                [randint(rng, 0, 3), randint(rng, 0, 3)],
                [0, 0] if chance(rng, 0.8) else [randint(rng, 0, 2), randint(rng, 0, 2)]]
    full = [[0, 0]] + [list(p) for p in pads]
    oshape = [d + p[0] + p[1] for d, p in zip(shape, full)]
    pt = b.const(np.array(full, np.int32), "int32", name=name + "_paddings")
    y = b.tensor(oshape, "int8", Q(q.scale, q.zero_point), name=name + "_out")
    if chance(rng, 0.3):
        v = b.const(np.array([q.zero_point], np.int8), "int8", Q(q.scale, q.zero_point),
                    name=name + "_value")
        b.op("PADV2", [x, pt, v], [y], "PadV2Options")
    else:
        b.op("PAD", [x, pt], [y], "PadOptions")
    return y, oshape, q, {"op": "PAD", "paddings": full}


def _unary_layer(b, rng, x, shape, q, kind=None, name="act"):
    """An int8 activation or requantization of x as a layer of its own
    (its output quantization differs from x's, so it is not fused)."""
    kind = kind or pick(rng, ROW_UNARY)
    fields, options = {}, None
    if kind == "LOGISTIC":
        oq = Q(1.0 / 256, -128)
    elif kind == "TANH":
        oq = Q(1.0 / 128, 0)
    elif kind == "RELU6":
        oq = Q(q.scale, q.zero_point)  # TFLM clamps in the input's quantization
    else:
        oq = Q(f32(max(q.scale / 100.0, q.scale * 10 ** rng.uniform(-0.7, 0.7))),
               draw_zero_point(rng, "int8"))
    if kind == "LEAKY_RELU":
        options, fields = "LeakyReluOptions", {"alpha": f32(pick(rng, [0.1, 0.2, 0.01, 1.5]))}
    y = b.tensor(shape, "int8", oq, name=name + "_out")
    b.op(kind, [x], [y], options, **fields)
    return y, shape, oq, {"op": kind, "output_quant": oq.to_json()}


def _binary_layer(b, rng, x, y, shape, qx, qy, kind="MUL", name="gate"):
    """MUL (a gate: x * sigmoid(x)) or SUB of two int8 tensors of one shape."""
    if kind == "MUL":
        scale = qx.scale * qy.scale * 128
    else:
        scale = max(qx.scale, qy.scale) * 2
    oq = Q(f32(scale * 10 ** rng.uniform(-0.5, 0.5)), draw_zero_point(rng, "int8"))
    out = b.tensor(shape, "int8", oq, name=name + "_out")
    b.op(kind, [x, y], [out], kind.capitalize() + "Options", fusedActivationFunction="NONE")
    return out, shape, oq, {"op": kind, "output_quant": oq.to_json()}


def draw_row_layers(rng, x, shape, q, b):
    """input -> PAD -> CONV_2D (any stride, SAME or VALID) -> an activation
    layer -> DEPTHWISE_CONV_2D -> MUL (or SUB) by its own LOGISTIC, or
    another activation layer -> 1x1 CONV_2D to 2 channels: the layers a
    row chain runs, each of a kind that used to end it."""
    infos = []
    t, tshape, tq, info = _pad_layer(b, rng, x, shape, q)
    infos.append(info)
    t, tshape, tq, info = _conv(b, rng, t, tshape, tq, pick(rng, [8, 16]), k=pick(rng, [1, 3, 5]),
                                stride=pick(rng, [1, 2]), act="NONE", name="conv")
    infos.append(info)
    t, tshape, tq, info = _unary_layer(b, rng, t, tshape, tq, name="act1")
    infos.append(info)
    t, tshape, tq, info = _conv(b, rng, t, tshape, tq, None, kind="dw", k=3,
                                stride=pick(rng, [1, 2]), act="NONE", name="dw")
    infos.append(info)
    if chance(rng, 0.6):
        g, _, gq, info = _unary_layer(b, rng, t, tshape, tq, kind="LOGISTIC", name="gate")
        infos.append(info)
        t, tshape, tq, info = _binary_layer(b, rng, t, g, tshape, tq, gq,
                                            kind=pick(rng, ["MUL", "MUL", "SUB"]))
    else:
        t, tshape, tq, info = _unary_layer(b, rng, t, tshape, tq, name="act2")
    infos.append(info)
    t, tshape, tq, info = _conv(b, rng, t, tshape, tq, 2, k=1, stride=1, padding="SAME",
                                act="NONE", name="head")
    infos.append(info)
    return t, infos


@variant("CHAIN.pad_elementwise", "CHAIN")
def pad_elementwise(rng):
    """PAD -> CONV_2D -> activation -> DEPTHWISE_CONV_2D -> MUL or SUB by
    its LOGISTIC (or an activation) -> CONV_2D, int8: layers a row chain
    runs row for row (docs/row-streaming.md), heights 1-24."""
    b = ModelBuilder()
    shape = [1, randint(rng, 1, 24), randint(rng, 1, 8), randint(rng, 1, 4)]
    x, q = _input(b, rng, shape)
    y, infos = draw_row_layers(rng, x, shape, q, b)
    return b.build([x], [y]), {"input_shape": shape, "layers": infos,
                               "input_quant": q.to_json()}


# The forms of a constant operand broadcast along the rows (ADD, SUB, MUL,
# PRELU's alpha): per channel ([C] or [1, 1, 1, C]), per pixel of a row
# ([1, 1, W, C]) or a scalar ([1] or [1, 1, 1, 1]).
CONSTANT_FORMS = ["channel", "channel4", "pixel", "scalar", "scalar4"]


def _constant_shape(form, shape):
    c, w = shape[3], shape[2]
    return {"channel": [c], "channel4": [1, 1, 1, c], "pixel": [1, 1, w, c], "scalar": [1],
            "scalar4": [1, 1, 1, 1]}[form]


def _constant_layer(b, rng, x, shape, q, kind=None, form=None, name="const_op"):
    """ADD, SUB or MUL of x by an int8 constant broadcast along the rows."""
    kind = kind or pick(rng, ["ADD", "SUB", "MUL"])
    form = form or pick(rng, CONSTANT_FORMS)
    cq = draw_quant(rng, "int8", 1e-3, 0.5) if kind != "MUL" else \
        Q(draw_scale(rng, 2e-3, 2e-2), draw_zero_point(rng, "int8"))
    cshape = _constant_shape(form, shape)
    ct = b.const(rand_values(rng, "int8", cshape), "int8", cq, name=name + "_constant")
    if kind == "MUL":
        scale = q.scale * cq.scale * 128
    else:
        scale = max(q.scale, cq.scale) * 2
    oq = Q(f32(scale * 10 ** rng.uniform(-0.5, 0.5)), draw_zero_point(rng, "int8"))
    out = b.tensor(shape, "int8", oq, name=name + "_out")
    b.op(kind, [x, ct], [out], kind.capitalize() + "Options",
         fusedActivationFunction=pick(rng, ["NONE", "NONE", "RELU"]))
    return out, shape, oq, {"op": kind, "constant_shape": cshape, "output_quant": oq.to_json()}


def _prelu_layer(b, rng, x, shape, q, form=None, name="prelu"):
    """PRELU of x with an int8 alpha broadcast along the rows."""
    form = form or pick(rng, CONSTANT_FORMS)
    aq = draw_quant(rng, "int8", 1e-3, 0.02)
    ashape = _constant_shape(form, shape)
    at = b.const(rand_values(rng, "int8", ashape), "int8", aq, name=name + "_alpha")
    oq = Q(f32(q.scale * 10 ** rng.uniform(-1, 0.5)), draw_zero_point(rng, "int8"))
    out = b.tensor(shape, "int8", oq, name=name + "_out")
    b.op("PRELU", [x, at], [out])
    return out, shape, oq, {"op": "PRELU", "alpha_shape": ashape, "output_quant": oq.to_json()}


def draw_broadcast_layers(rng, x, shape, q, b, forms=None):
    """input -> CONV_2D -> ADD, SUB or MUL by a constant -> DEPTHWISE_CONV_2D
    (any stride) -> PRELU -> MUL, ADD or SUB by a constant -> 1x1 CONV_2D to
    2 channels: the layers with a constant operand a row chain runs row
    for row. forms: the three constants' forms, drawn when None."""
    forms = forms or [pick(rng, CONSTANT_FORMS) for _ in range(3)]
    infos = []
    t, tshape, tq, info = _conv(b, rng, x, shape, q, pick(rng, [16, 32]), k=pick(rng, [1, 3]),
                                stride=pick(rng, [1, 2]), act="NONE", name="conv")
    infos.append(info)
    t, tshape, tq, info = _constant_layer(b, rng, t, tshape, tq, form=forms[0], name="bias")
    infos.append(info)
    t, tshape, tq, info = _conv(b, rng, t, tshape, tq, None, kind="dw", k=3,
                                stride=pick(rng, [1, 2]), act="NONE", name="dw")
    infos.append(info)
    t, tshape, tq, info = _prelu_layer(b, rng, t, tshape, tq, form=forms[1])
    infos.append(info)
    t, tshape, tq, info = _constant_layer(b, rng, t, tshape, tq, form=forms[2], name="scale")
    infos.append(info)
    t, tshape, tq, info = _conv(b, rng, t, tshape, tq, 2, k=1, stride=1, padding="SAME",
                                act="NONE", name="head")
    infos.append(info)
    return t, infos


@variant("CHAIN.broadcast_elementwise", "CHAIN")
def broadcast_elementwise(rng):
    """CONV_2D -> ADD/SUB/MUL by a constant -> DEPTHWISE_CONV_2D -> PRELU ->
    ADD/SUB/MUL by a constant -> CONV_2D, int8, the constants per channel,
    per pixel of a row or scalars: layers a row chain runs row for row
    (docs/row-streaming.md), heights 1-24."""
    b = ModelBuilder()
    shape = [1, randint(rng, 1, 24), randint(rng, 1, 8), randint(rng, 1, 4)]
    x, q = _input(b, rng, shape)
    y, infos = draw_broadcast_layers(rng, x, shape, q, b)
    return b.build([x], [y]), {"input_shape": shape, "layers": infos,
                               "input_quant": q.to_json()}
