"""The single-operator models of ../shared/baselines/cmsis-nn-shapes.tsv.

    from bench import shape_models
    rows = shape_models.load_rows()            # the 181 operator rows, in file order
    shape = rows[0]                            # .id, .op, .params, .work, .m55, .m4, .family
    model_bytes, inputs = shape_models.build(shape)

Each model holds one operator with the row's shape, and the data and
quantization cmsis-nn-shapes.md describes ("Quantisation", "Data"):

- Data: xorshift32 seeded with the 32-bit FNV-1a of the row id (0 becomes
  1); the input bytes first ((int8)(r >> 24); ADD/MUL: tensor A, then B),
  then the weights in CMSIS-NN's layout (which is TFLite's: conv OHWI,
  depthwise 1HWC, fully connected [out][in]; each the sum of four 5-bit
  fields less 62), then the biases ((r % 8192) - 4096), then one draw per
  output channel (fully connected: one in all) for the requantization.
- Offsets: input zero point -128, output -6 (conv, depthwise, fully
  connected); ADD -128 / -83 -> -128; MUL -128 / 12 -> -20.
- Requantization: CMSIS-NN's multiplier 2^30 + (r >> 2) and its shift are
  turned into TFLite float scales that tinyaot and TFLite Micro turn back
  into integers (in double, TFLite's QuantizeMultiplier). With one
  multiplier per operator (fully connected, softmax) two float32 scales
  are searched whose product gives exactly CMSIS-NN's 31-bit multiplier;
  ADD and MUL take the .md's scales, which give its multipliers exactly.
  Per-channel multipliers (conv, depthwise) come from one float32 filter
  scale each, so only their top 24 bits can match: the shift is exact and
  the multiplier is the nearest a float32 scale gives (at most 2^7 of
  2^31 off). Instruction counts do not depend on those low bits.
- Pools keep the input's scale and zero point (the kernels average or
  compare raw bytes); activation NONE everywhere (range [-128, 127]).
"""

import dataclasses
import math
import pathlib
import re

import numpy as np

from tests.gen.builder import ModelBuilder, Q

SHARED = pathlib.Path(__file__).resolve().parents[1].parent / "shared"
TSV = SHARED / "baselines" / "cmsis-nn-shapes.tsv"
CYCLES_TSV = SHARED / "baselines" / "cmsis-nn-shapes-cycles.tsv"

# Operator families, as cmsis-nn-shapes.md's summary table groups the rows.
FAMILIES = ["conv 1x1", "conv 3x3", "conv other", "dw mult 1", "dw mult>1", "fc", "add", "mul",
            "max pool", "avg pool", "softmax"]


@dataclasses.dataclass
class Shape:
    id: str
    op: str
    params: dict     # key -> text, e.g. {"k": "3x3", "in": "16x16x16", ...}
    work: int        # MACs (conv, depthwise, fc) or elements (the baseline's unit)
    m55: int         # CMSIS-NN's instructions on the Cortex-M55
    m4: int          # and on the Cortex-M4
    cycles: dict = dataclasses.field(default_factory=dict)  # board -> estimated cycles
    index: int = 0   # position among the operator rows (a stable module prefix)

    def dims(self, key):
        return [int(x) for x in self.params[key].split("x")]

    @property
    def family(self):
        if self.op == "CONV_2D":
            k = self.params["k"]
            return "conv 1x1" if k == "1x1" else "conv 3x3" if k == "3x3" else "conv other"
        if self.op == "DEPTHWISE_CONV_2D":
            mult_one = self.params["mult"] == "1" and self.dims("in")[2] > 1
            return "dw mult 1" if mult_one else "dw mult>1"
        return {"FULLY_CONNECTED": "fc", "ADD": "add", "MUL": "mul", "MAX_POOL_2D": "max pool",
                "AVERAGE_POOL_2D": "avg pool", "SOFTMAX": "softmax"}[self.op]

    @property
    def unit(self):
        return "MAC" if self.op in ("CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED") else "elem"


def parse_params(text):
    return dict(re.findall(r"(\w+)=(\S+)", text))


def load_rows(path=TSV, cycles_path=CYCLES_TSV):
    """The operator rows (not the one-time FULLY_CONNECTED_INIT rows), with
    CMSIS-NN's estimated cycles where the cycles file has them."""
    cycles = {}
    if pathlib.Path(cycles_path).exists():
        for line in pathlib.Path(cycles_path).read_text().splitlines()[1:]:
            f = line.split("\t")
            if line.startswith("#") or len(f) < 5:
                continue
            cycles[f[0]] = {"mps3-an547": int(f[2]), "mps2-an386": int(f[4])}
    rows = []
    for line in pathlib.Path(path).read_text().splitlines()[1:]:
        f = line.split("\t")
        if line.startswith("#") or len(f) < 6 or f[1] == "FULLY_CONNECTED_INIT":
            continue
        rows.append(Shape(f[0], f[1], parse_params(f[2]), int(f[3]), int(f[4]), int(f[5]),
                          cycles.get(f[0], {}), len(rows)))
    return rows


# ------------------------------------------------------------------ data


class Xorshift32:
    def __init__(self, text):
        h = 2166136261
        for b in text.encode():
            h = ((h ^ b) * 16777619) & 0xFFFFFFFF
        self.x = h or 1

    def next(self):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x

    def draws(self, n):
        return np.array([self.next() for _ in range(n)], dtype=np.uint64)


def int8_data(rng, n):
    return (rng.draws(n) >> 24).astype(np.uint8).view(np.int8)


def weights(rng, n):
    r = rng.draws(n)
    w = sum((r >> s) & 31 for s in (27, 22, 17, 12)).astype(np.int64) - 62
    return w.astype(np.int8)


def biases(rng, n):
    return (rng.draws(n) % 8192).astype(np.int64).astype(np.int32) - 4096


# ---------------------------------------------------------- quantization


def quantize_multiplier(real):
    """(multiplier, shift) as TFLite's QuantizeMultiplier (and tinyaot's)."""
    if real == 0.0:
        return 0, 0
    frac, exp = math.frexp(real)
    q = int(math.floor(abs(frac) * 2**31 + 0.5)) * (1 if frac > 0 else -1)
    if q == 2**31:
        q //= 2
        exp += 1
    return q, exp


def cmsis_requant(r, base):
    """CMSIS-NN's (multiplier, shift) from one draw: per-channel rows take
    one bit of r off the base shift, never below -9."""
    return 2**30 + (r >> 2), max(base - ((r >> 1) & 1), -9)


def shift_base(depth):
    return -7 if depth <= 96 else -8 if depth <= 768 else -9


def f32(x):
    return float(np.float32(x))


def f32_step(x, k):
    """The float32 k steps above x."""
    return float((np.array([x], np.float32).view(np.int32) + k).view(np.float32)[0])


def scale_for(mult, shift, in_scale, out_scale):
    """The float32 filter scale nearest to giving (mult, shift) with these
    input and output scales (per-channel: no second free scale)."""
    target = mult * 2.0 ** (shift - 31) * out_scale / in_scale
    best = None
    for k in (-1, 0, 1):
        w = f32_step(f32(target), k)
        m, s = quantize_multiplier(in_scale * w / out_scale)
        if s == shift and (best is None or abs(m - mult) < best[0]):
            best = (abs(m - mult), w)
    return best[1]


def exact_pair(mult, shift, near, divisor=1.0):
    """Float32 scales (a, b), a near `near`, with
    QuantizeMultiplier(a * b / divisor) == (mult, shift) exactly."""
    target = mult * 2.0 ** (shift - 31) * divisor
    for k in range(1 << 16):
        a = f32_step(f32(near), k)
        b0 = f32(target / a)
        for j in (-1, 0, 1):
            b = f32_step(b0, j)
            if quantize_multiplier(a * b / divisor) == (mult, shift):
                return a, b
    raise RuntimeError(f"no float32 scales give multiplier {mult} shift {shift}")


IN_SCALE, OUT_SCALE = 0.03125, 0.0625
IN_ZP, OUT_ZP = -128, -6


# ---------------------------------------------------------------- models


def out_size(n, k, s, d, pad):
    eff = (k - 1) * d + 1
    return -(-n // s) if pad == "SAME" else (n - eff) // s + 1


def conv(shape, depthwise):
    kh, kw = shape.dims("k")
    sh, sw = shape.dims("s")
    dh, dw = shape.dims("d")
    h, w, cin = shape.dims("in")
    oh, ow, cout = shape.dims("out")
    pad = shape.params["pad"].upper()
    assert (oh, ow) == (out_size(h, kh, sh, dh, pad), out_size(w, kw, sw, dw, pad)), shape.id
    rng = Xorshift32(shape.id)
    x = int8_data(rng, h * w * cin).reshape(1, h, w, cin)
    filt = weights(rng, (1 if depthwise else cout) * kh * kw * (cout if depthwise else cin))
    bias = biases(rng, cout)
    base = -7 if depthwise else shift_base(kh * kw * cin)
    req = [cmsis_requant(int(r), base) for r in rng.draws(cout)]
    w_scales = [scale_for(m, s, IN_SCALE, OUT_SCALE) for m, s in req]
    b = ModelBuilder(description=f"tinyaot bench/shapes {shape.id}")
    xi = b.tensor([1, h, w, cin], "int8", Q(IN_SCALE, IN_ZP), name="input")
    fshape = [1, kh, kw, cout] if depthwise else [cout, kh, kw, cin]
    fi = b.const(filt.reshape(fshape), "int8", Q(w_scales, 0, axis=3 if depthwise else 0),
                 name="filter")
    bi = b.const(bias, "int32", Q([IN_SCALE * s for s in w_scales], 0), name="bias")
    yi = b.tensor([1, oh, ow, cout], "int8", Q(OUT_SCALE, OUT_ZP), name="output")
    fields = dict(padding=pad, strideH=sh, strideW=sw, dilationHFactor=dh, dilationWFactor=dw,
                  fusedActivationFunction="NONE")
    if depthwise:
        b.op("DEPTHWISE_CONV_2D", [xi, fi, bi], [yi], "DepthwiseConv2DOptions",
             depthMultiplier=int(shape.params["mult"]), **fields)
    else:
        b.op("CONV_2D", [xi, fi, bi], [yi], "Conv2DOptions", **fields)
    return b.build(inputs=[xi], outputs=[yi]), [x]


def fully_connected(shape):
    n_in, n_out, batch = (int(shape.params[k]) for k in ("in", "out", "batch"))
    rng = Xorshift32(shape.id)
    x = int8_data(rng, batch * n_in).reshape(batch, n_in)
    filt = weights(rng, n_out * n_in).reshape(n_out, n_in)
    bias = biases(rng, n_out)
    mult, shift = 2**30 + (int(rng.draws(1)[0]) >> 2), shift_base(n_in)
    in_scale, w_scale = exact_pair(mult, shift, IN_SCALE, OUT_SCALE)
    b = ModelBuilder(description=f"tinyaot bench/shapes {shape.id}")
    xi = b.tensor([batch, n_in], "int8", Q(in_scale, IN_ZP), name="input")
    fi = b.const(filt, "int8", Q(w_scale, 0), name="weights")
    bi = b.const(bias, "int32", Q(in_scale * w_scale, 0), name="bias")
    yi = b.tensor([batch, n_out], "int8", Q(OUT_SCALE, OUT_ZP), name="output")
    b.op("FULLY_CONNECTED", [xi, fi, bi], [yi], "FullyConnectedOptions",
         fusedActivationFunction="NONE")
    return b.build(inputs=[xi], outputs=[yi]), [x]


# Zero points of input A, input B and the output, and CMSIS-NN's
# multipliers and shifts (ADD: input 1, input 2, output; MUL: output).
ELEMENTWISE = {"ADD": ((-128, -83, -128), [(1073741824, 0), (1791092745, -1), (1287394534, -19)]),
               "MUL": ((-128, 12, -20), [(2028324075, -8)])}


def add_scales(requant):
    """Float32 scales (a, b, out) near the .md's 0.0235, 0.0196, 0.0392 that
    give ADD's three multipliers exactly (TFLite, left shift 20: a / 2a,
    b / 2a and 2a / (2^20 out), a the larger scale)."""
    (_, _), (m1, s1), (m2, s2) = requant
    for k in range(1 << 20):
        a = f32_step(f32(0.0235), k)
        b = [f32_step(f32(m1 * 2.0 ** (s1 - 31) * 2 * a), j) for j in (-1, 0, 1)]
        b = [x for x in b if quantize_multiplier(x / (2 * a)) == (m1, s1)]
        o = [f32_step(f32(2 * a / (2**20 * m2 * 2.0 ** (s2 - 31))), j) for j in (-1, 0, 1)]
        o = [x for x in o if quantize_multiplier(2 * a / (2**20 * x)) == (m2, s2)]
        if b and o:
            return a, b[0], o[0]
    raise RuntimeError("no float32 scales give ADD's multipliers")


def elementwise_scales(op):
    zps, requant = ELEMENTWISE[op]
    if op == "ADD":
        scales = add_scales(requant)
    else:  # MUL: a * b / out with out = 0.1
        a, b = exact_pair(*requant[0], 0.0235, f32(0.1))
        scales = (a, b, f32(0.1))
    return [Q(s, z) for s, z in zip(scales, zps)]


def elementwise(shape):
    n = int(shape.params["elems"])
    rng = Xorshift32(shape.id)
    a, c = int8_data(rng, n).reshape(1, n), int8_data(rng, n).reshape(1, n)
    qa, qc, qo = elementwise_scales(shape.op)
    b = ModelBuilder(description=f"tinyaot bench/shapes {shape.id}")
    ai = b.tensor([1, n], "int8", qa, name="a")
    ci = b.tensor([1, n], "int8", qc, name="b")
    yi = b.tensor([1, n], "int8", qo, name="output")
    options = "AddOptions" if shape.op == "ADD" else "MulOptions"
    b.op(shape.op, [ai, ci], [yi], options, fusedActivationFunction="NONE")
    return b.build(inputs=[ai, ci], outputs=[yi]), [a, c]


def pool(shape):
    kh, kw = shape.dims("k")
    sh, sw = shape.dims("s")
    h, w, c = shape.dims("in")
    oh, ow, _ = shape.dims("out")
    pad = shape.params["pad"].upper()
    assert (oh, ow) == (out_size(h, kh, sh, 1, pad), out_size(w, kw, sw, 1, pad)), shape.id
    rng = Xorshift32(shape.id)
    x = int8_data(rng, h * w * c).reshape(1, h, w, c)
    b = ModelBuilder(description=f"tinyaot bench/shapes {shape.id}")
    q = Q(0.0235, -128)
    xi = b.tensor([1, h, w, c], "int8", q, name="input")
    yi = b.tensor([1, oh, ow, c], "int8", q, name="output")
    b.op(shape.op, [xi], [yi], "Pool2DOptions", padding=pad, strideH=sh, strideW=sw,
         filterHeight=kh, filterWidth=kw, fusedActivationFunction="NONE")
    return b.build(inputs=[xi], outputs=[yi]), [x]


# CMSIS-NN's softmax multiplier and shift: TFLite's preprocessing of input
# scale 0.1 and beta 1 in double (a float32 0.1 gives 1717986944).
SOFTMAX_MULT, SOFTMAX_SHIFT = 1717986918, 23


def softmax(shape):
    rows, size = int(shape.params["rows"]), int(shape.params["row_size"])
    rng = Xorshift32(shape.id)
    x = int8_data(rng, rows * size).reshape(rows, size)
    # TFLite: input_scale * beta * 2^(31 - 5 integer bits), in double
    scale, beta = exact_pair(SOFTMAX_MULT, SOFTMAX_SHIFT, 0.1, 2.0**-26)
    b = ModelBuilder(description=f"tinyaot bench/shapes {shape.id}")
    xi = b.tensor([rows, size], "int8", Q(scale, -128), name="input")
    yi = b.tensor([rows, size], "int8", Q(1 / 256, -128), name="output")
    b.op("SOFTMAX", [xi], [yi], "SoftmaxOptions", beta=beta)
    return b.build(inputs=[xi], outputs=[yi]), [x]


def build(shape):
    """(model bytes, [input arrays]) of a row."""
    if shape.op in ("CONV_2D", "DEPTHWISE_CONV_2D"):
        return conv(shape, shape.op == "DEPTHWISE_CONV_2D")
    if shape.op == "FULLY_CONNECTED":
        return fully_connected(shape)
    if shape.op in ELEMENTWISE:
        return elementwise(shape)
    if shape.op in ("MAX_POOL_2D", "AVERAGE_POOL_2D"):
        return pool(shape)
    if shape.op == "SOFTMAX":
        return softmax(shape)
    raise ValueError(f"{shape.id}: no model for operator {shape.op}")
