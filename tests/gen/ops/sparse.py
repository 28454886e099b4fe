"""Pruned models for SPARSE_CHANNELS (docs/design.md, "Pruned models"):
convolutions with output channels whose weights are all zero (constants: their bias,
requantized) and input channels no nonzero weight reads (dead channels),
with depthwise convolutions, standalone activations, pooling and residual
ADDs between them, SAME padding but in SPARSE.constants.

SPARSE.chain: conv -> [RELU] -> depthwise 3x3 -> 1x1 conv -> [pool] ->
[PAD, MUL, LEAKY_RELU or HARD_SWISH] -> 3x3 conv -> 1x1 conv or
FULLY_CONNECTED. SPARSE.constants: conv -> depthwise 3x3 (SAME or VALID)
-> [pool of any window] -> 1x1 conv or FULLY_CONNECTED, constants
carried through both. SPARSE.residual: stem conv, one or
two inverted-residual blocks (1x1 expand, depthwise 3x3, 1x1 project, ADD
with the block's input), a 1x1 head. config["zero_rows"] and
["zero_cols"] name what was zeroed per layer."""

import math

import numpy as np

from ..common import (ModelBuilder, Q, UNIFORM_STD, chance, conv_out_size,
                      draw_bias, draw_output_quant, draw_quant,
                      draw_weight_quant, f32, pick, randint)
from ..core import variant


def _subset(rng, n, p):
    return sorted(int(i) for i in range(n) if chance(rng, p))


class _Net:
    """One builder and a record of what each layer zeroed."""

    def __init__(self, rng):
        self.rng = rng
        self.b = ModelBuilder()
        self.info = {"zero_rows": {}, "zero_cols": {}, "layers": []}

    def layer(self, x, shape, q, kind, out_c=None, k=1, stride=1, p_rows=0.0, p_cols=0.0,
              name="conv", density=1.0, padding="SAME"):
        """CONV_2D ('conv'), DEPTHWISE_CONV_2D ('dw', multiplier 1) or
        FULLY_CONNECTED ('fc') with `padding`; a share p_rows of the
        output channels all zero (their bias kept), p_cols of the input
        channels read by no weight, and of the other weights a share
        `density` kept (unstructured pruning)."""
        rng, b = self.rng, self.b
        c = shape[-1]
        if kind == "dw":
            out_c = c
        if kind == "conv":
            fshape, axis, ksum = [out_c, k, k, c], 0, k * k * c
        elif kind == "dw":
            fshape, axis, ksum = [1, k, k, c], 3, k * k
        else:
            fshape, axis, ksum = [out_c, c], 0, c
        w = self.rng.integers(-127, 128, size=fshape, endpoint=True).astype(np.int8)
        rows = _subset(rng, out_c, p_rows)
        cols = _subset(rng, c, p_cols) if kind != "dw" else []
        if kind == "dw":
            w[..., rows] = 0
        else:
            w[rows] = 0
            w[..., cols] = 0
        w[rng.random(w.shape) >= density] = 0
        ksum = max(1, round(ksum * density))
        wq = draw_weight_quant(rng, out_c, kind != "fc" and chance(rng, 0.7), axis)
        wtyp = math.exp(sum(math.log(s) for s in wq.scales) / len(wq.scales))
        acc_std = math.sqrt(ksum) * UNIFORM_STD["int8"] ** 2
        act = pick(rng, ["NONE", "RELU", "RELU6"]) if kind != "fc" else "NONE"
        oq = draw_output_quant(rng, "int8", acc_std * q.scale * wtyp, act, spread=0.3)
        wt = b.const(w, "int8", wq, name=name + "_filter")
        inputs = [x, wt]
        if kind == "dw" or chance(rng, 0.85):
            bq = Q([f32(q.scale * s) for s in wq.scales], [0] * len(wq.scales))
            inputs.append(b.const(draw_bias(rng, out_c, acc_std, "int32", ksum * 256 * 128),
                                  "int32", bq, name=name + "_bias"))
        if kind == "fc":
            oshape = [int(np.prod(shape[:-1])), out_c]
        else:
            oshape = [shape[0], conv_out_size(shape[1], k, stride, 1, padding),
                      conv_out_size(shape[2], k, stride, 1, padding), out_c]
        y = b.tensor(oshape, "int8", oq, name=name + "_out")
        if kind == "conv":
            b.op("CONV_2D", inputs, [y], "Conv2DOptions", padding=padding, strideH=stride,
                 strideW=stride, fusedActivationFunction=act)
        elif kind == "dw":
            b.op("DEPTHWISE_CONV_2D", inputs, [y], "DepthwiseConv2DOptions", padding=padding,
                 strideH=stride, strideW=stride, depthMultiplier=1, fusedActivationFunction=act)
        else:
            b.op("FULLY_CONNECTED", inputs, [y], "FullyConnectedOptions",
                 fusedActivationFunction="NONE")
        self.info["zero_rows"][name] = rows
        self.info["zero_cols"][name] = cols
        self.info["layers"].append({"name": name, "kind": kind, "k": k, "stride": stride,
                                    "activation": act, "shape": oshape})
        return y, oshape, oq

    def relu(self, x, shape, q, name):
        y = self.b.tensor(shape, "int8", Q(q.scale, q.zero_point), name=name)
        self.b.op("RELU", [x], [y])
        self.info["layers"].append({"name": name, "kind": "RELU"})
        return y, shape, q

    def pool(self, x, shape, q, name):
        kind = pick(self.rng, ["MAX_POOL_2D", "AVERAGE_POOL_2D"])
        oshape = [shape[0], conv_out_size(shape[1], 2, 2, 1, "SAME"),
                  conv_out_size(shape[2], 2, 2, 1, "SAME"), shape[3]]
        y = self.b.tensor(oshape, "int8", Q(q.scale, q.zero_point), name=name)
        self.b.op(kind, [x], [y], "Pool2DOptions", padding="SAME", strideH=2, strideW=2,
                  filterHeight=2, filterWidth=2, fusedActivationFunction="NONE")
        self.info["layers"].append({"name": name, "kind": kind})
        return y, oshape, q

    def any_pool(self, x, shape, q, name):
        """AVERAGE_POOL_2D or MAX_POOL_2D of any size up to the whole
        image, stride 1 to the size, SAME or VALID padding, a fused
        activation or none."""
        rng = self.rng
        kind = pick(rng, ["MAX_POOL_2D", "AVERAGE_POOL_2D"])
        padding = pick(rng, ["SAME", "VALID"])
        fh, fw = randint(rng, 1, shape[1]), randint(rng, 1, shape[2])
        sh, sw = randint(rng, 1, fh), randint(rng, 1, fw)
        oshape = [shape[0], conv_out_size(shape[1], fh, sh, 1, padding),
                  conv_out_size(shape[2], fw, sw, 1, padding), shape[3]]
        y = self.b.tensor(oshape, "int8", Q(q.scale, q.zero_point), name=name)
        self.b.op(kind, [x], [y], "Pool2DOptions", padding=padding, strideH=sh, strideW=sw,
                  filterHeight=fh, filterWidth=fw,
                  fusedActivationFunction=pick(rng, ["NONE", "RELU", "RELU6"]))
        self.info["layers"].append({"name": name, "kind": kind, "filter": [fh, fw],
                                    "stride": [sh, sw], "padding": padding})
        return y, oshape, q

    def channelwise(self, x, shape, q, name):
        """One of the other channel-wise operators the transform walks
        through: PAD of the spatial dimensions, MUL by a one-element
        constant, LEAKY_RELU or HARD_SWISH."""
        rng, b = self.rng, self.b
        kind = pick(rng, ["PAD", "MUL", "LEAKY_RELU", "HARD_SWISH"])
        oshape = list(shape)
        oq = Q(f32(q.scale * 10 ** rng.uniform(-0.3, 0.5)), randint(rng, -100, 100))
        if kind == "PAD":
            pads = np.array([[0, 0], [1, randint(rng, 0, 1)], [randint(rng, 0, 1), 1], [0, 0]],
                            np.int32)
            oshape = [shape[0], shape[1] + int(pads[1].sum()), shape[2] + int(pads[2].sum()),
                      shape[3]]
            y = b.tensor(oshape, "int8", Q(q.scale, q.zero_point), name=name)
            b.op("PAD", [x, b.const(pads, "int32", name=name + "_pads")],
                 [y], "PadOptions")
            oq = q
        elif kind == "MUL":
            c = b.const(np.array([randint(rng, -120, 120)], np.int8), "int8",
                        Q(f32(10 ** rng.uniform(-2.5, -1.5)), randint(rng, -5, 5)),
                        name=name + "_factor")
            y = b.tensor(oshape, "int8", oq, name=name)
            b.op("MUL", [x, c], [y], "MulOptions", fusedActivationFunction="NONE")
        elif kind == "LEAKY_RELU":
            y = b.tensor(oshape, "int8", oq, name=name)
            b.op("LEAKY_RELU", [x], [y], "LeakyReluOptions",
                 alpha=f32(rng.uniform(0.01, 0.5)))
        else:
            oq = Q(f32(max(q.scale / 100.0, q.scale * 10 ** rng.uniform(-1, 0.7))),
                   randint(rng, -128, 127))
            y = b.tensor(oshape, "int8", oq, name=name)
            b.op("HARD_SWISH", [x], [y])
        self.info["layers"].append({"name": name, "kind": kind})
        return y, oshape, oq

    def add(self, lhs, rhs, shape, name):
        (a, aq), (s, sq) = lhs, rhs
        oq = Q(f32(max(aq.scale, sq.scale) * 10 ** self.rng.uniform(0.0, 0.5)),
               randint(self.rng, -128, 127))
        y = self.b.tensor(shape, "int8", oq, name=name)
        self.b.op("ADD", [a, s], [y], "AddOptions", fusedActivationFunction="NONE")
        self.info["layers"].append({"name": name, "kind": "ADD"})
        return y, shape, oq


@variant("SPARSE.chain", "SPARSE")
def chain(rng):
    """conv (3x3 or 1x1, zero output channels) -> [RELU] -> depthwise 3x3
    SAME (zero channels: constants at the border too) -> 1x1 conv (zero
    rows and columns) -> [pool] -> [PAD, MUL by a constant, LEAKY_RELU or
    HARD_SWISH] -> 3x3 conv (zero columns) -> 1x1 conv or FULLY_CONNECTED
    output (zero columns)."""
    n = _Net(rng)
    shape = [1, randint(rng, 2, 9), randint(rng, 2, 9), randint(rng, 1, 6)]
    q = draw_quant(rng, "int8", 1e-3, 0.5)
    x = n.b.tensor(shape, "int8", q, name="input")
    h, s, hq = n.layer(x, shape, q, "conv", randint(rng, 4, 24), k=pick(rng, [1, 3]),
                       stride=pick(rng, [1, 2]), p_rows=0.4, name="first")
    if chance(rng, 0.3):
        h, s, hq = n.relu(h, s, hq, "relu")
    h, s, hq = n.layer(h, s, hq, "dw", k=3, p_rows=0.3, name="dw")
    h, s, hq = n.layer(h, s, hq, "conv", randint(rng, 4, 32), p_rows=0.5, p_cols=0.5,
                       name="pointwise")
    if chance(rng, 0.3):
        h, s, hq = n.pool(h, s, hq, "pool")
    if chance(rng, 0.5):
        h, s, hq = n.channelwise(h, s, hq, "between")
    h, s, hq = n.layer(h, s, hq, "conv", randint(rng, 4, 16), k=3, p_rows=0.3, p_cols=0.4,
                       name="spatial")
    last = pick(rng, ["conv", "fc"])
    y, s, yq = n.layer(h, s, hq, last, randint(rng, 2, 10), p_cols=0.5, name="output")
    return n.b.build([x], [y]), {"input_shape": shape, "last": last, **n.info}


@variant("SPARSE.constants", "SPARSE")
def constants(rng):
    """Constants carried through a depthwise layer and pooling: conv (half
    its output channels zero: constants, at the zero point where a RELU
    clamps a negative bias) -> depthwise 3x3 (SAME or VALID, stride 1 or
    2; zero channels of its own) -> [AVERAGE_POOL_2D or MAX_POOL_2D, any
    window] -> 1x1 conv or FULLY_CONNECTED reading most channels (where a
    channel is one value at every position it folds into their bias)."""
    n = _Net(rng)
    shape = [1, randint(rng, 3, 9), randint(rng, 3, 9), randint(rng, 1, 6)]
    q = draw_quant(rng, "int8", 1e-3, 0.5)
    x = n.b.tensor(shape, "int8", q, name="input")
    h, s, hq = n.layer(x, shape, q, "conv", randint(rng, 4, 24), k=pick(rng, [1, 3]),
                       p_rows=0.5, name="first")
    h, s, hq = n.layer(h, s, hq, "dw", k=3, stride=pick(rng, [1, 2]), p_rows=0.2,
                       padding=pick(rng, ["SAME", "VALID"]), name="dw")
    if chance(rng, 0.6):
        h, s, hq = n.any_pool(h, s, hq, "pool")
    last = pick(rng, ["conv", "fc"])
    y, s, yq = n.layer(h, s, hq, last, randint(rng, 2, 10), p_cols=0.2, name="output")
    return n.b.build([x], [y]), {"input_shape": shape, "last": last, **n.info}


@variant("SPARSE.unstructured", "SPARSE")
def unstructured(rng):
    """Unstructured pruning (SPARSE_WEIGHTS): a 1x1 conv of 16-300 input
    channels and a FULLY_CONNECTED of 64-700 inputs, each with 1-40% of its
    weights kept at random (the sparse kernel where the cost model picks it,
    dense where not), with some all-zero rows too."""
    n = _Net(rng)
    shape = [1, randint(rng, 1, 4), randint(rng, 1, 4), randint(rng, 16, 300)]
    q = draw_quant(rng, "int8", 1e-3, 0.5)
    x = n.b.tensor(shape, "int8", q, name="input")
    h, s, hq = n.layer(x, shape, q, "conv", randint(rng, 1, 40), p_rows=pick(rng, [0, 0.1]),
                       density=pick(rng, [0.01, 0.03, 0.08, 0.15, 0.4]), name="pointwise")
    flat = [1, int(np.prod(s[1:]))]
    r = n.b.tensor(flat, "int8", hq, name="flat")
    n.b.op("RESHAPE", [h, n.b.const(np.array(flat, np.int32), "int32", name="flat_shape")], [r],
           "ReshapeOptions", newShape=flat)
    y, s, yq = n.layer(r, flat, hq, "fc", randint(rng, 1, 24),
                       density=pick(rng, [0.02, 0.05, 0.1, 0.3]), name="output")
    return n.b.build([x], [y]), {"input_shape": shape, **n.info}


@variant("SPARSE.residual", "SPARSE")
def residual(rng):
    """stem conv 3x3 SAME -> one or two inverted-residual blocks (1x1
    expand with zero rows, depthwise 3x3 SAME with zero channels, 1x1
    project with zero rows and columns, ADD with the block's input) -> 1x1
    head reading few channels of the sum."""
    n = _Net(rng)
    shape = [1, randint(rng, 2, 8), randint(rng, 2, 8), randint(rng, 1, 4)]
    q = draw_quant(rng, "int8", 1e-3, 0.5)
    x = n.b.tensor(shape, "int8", q, name="input")
    c = randint(rng, 4, 16)
    h, s, hq = n.layer(x, shape, q, "conv", c, k=3, p_rows=0.3, name="stem")
    for i in range(pick(rng, [1, 2])):
        e, es, eq = n.layer(h, s, hq, "conv", randint(rng, 8, 32), p_rows=0.4, p_cols=0.3,
                            name=f"expand{i}")
        e, es, eq = n.layer(e, es, eq, "dw", k=3, p_rows=0.3, name=f"dw{i}")
        p, ps, pq = n.layer(e, es, eq, "conv", c, p_rows=0.4, p_cols=0.5, name=f"project{i}")
        h, s, hq = n.add((p, pq), (h, hq), s, f"sum{i}")
    y, s, yq = n.layer(h, s, hq, "conv", randint(rng, 2, 8), p_cols=0.6, name="head")
    return n.b.build([x], [y]), {"input_shape": shape, **n.info}
