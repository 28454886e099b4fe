"""FULLY_CONNECTED and BATCH_MATMUL."""

import math

from ..common import (INT_RANGE, ModelBuilder, Q, SIMD_LONG, UNIFORM_STD, chance,
                      draw_activation, draw_bias, draw_output_quant, draw_simd_size,
                      draw_quant, draw_weight_quant, f32, pick, quant_around,
                      rand_values, randint)
from ..core import variant

BIAS_DTYPE = {"int8": "int32", "int16": "int64"}


def _fully_connected(rng, dt, simd=False, wide=False, w_dt="int8"):
    b = ModelBuilder()
    if simd:
        units = draw_simd_size(rng)
        mode = pick(rng, ["2d", "2d", "2d", "keep_num_dims"])
    else:
        units = randint(rng, 1, 32)
        mode = "wide" if wide else pick(rng, ["2d", "2d", "batched", "keep_num_dims", "flatten"])
    if simd:
        # depths across the dot loops' blocks and tails, up to K > 256
        n_in = draw_simd_size(rng, 320, SIMD_LONG + (320,))
        lead = [pick(rng, [1, 1, 1, 2, 3, 5])]
        if mode == "keep_num_dims":
            lead = [1, pick(rng, [1, 2, 3])]
        in_shape = lead + [n_in]
        out_shape = lead + [units]
    elif mode == "wide":              # the SIMD loops' long paths and tails
        n_in = pick(rng, [randint(rng, 65, 300), randint(rng, 256, 700),
                          16 * randint(rng, 5, 40), 16 * randint(rng, 5, 40) + 4])
        units = randint(rng, 1, 40)
        in_shape = [pick(rng, [1, 1, 2, 3]), n_in]
        out_shape = [in_shape[0], units]
    elif mode == "2d":
        n_in = randint(rng, 1, 64)
        in_shape = [pick(rng, [1, 1, 1, 2, 3, 5]), n_in]
        out_shape = [in_shape[0], units]
    elif mode == "batched":           # rank 3/4 input, collapsed to 2-D output
        n_in = randint(rng, 1, 32)
        lead = [randint(rng, 1, 4) for _ in range(randint(rng, 1, 2))]
        in_shape = lead + [n_in]
        out_shape = [int(math.prod(lead)), units]
    elif mode == "keep_num_dims":
        n_in = randint(rng, 1, 32)
        lead = [randint(rng, 1, 4) for _ in range(randint(rng, 1, 3))]
        in_shape = lead + [n_in]
        out_shape = lead + [units]
    else:                             # [1, h, w, c] feeding a dense layer
        in_shape = [1, randint(rng, 1, 4), randint(rng, 1, 4), randint(rng, 1, 8)]
        n_in = int(math.prod(in_shape))
        out_shape = [1, units]
    keep = mode == "keep_num_dims"

    in_q = draw_quant(rng, dt, 1e-3, 1.0)
    # TFLite Micro refuses per-channel int4 FULLY_CONNECTED weights.
    per_channel = chance(rng, 0.35) and w_dt != "int4"
    w_q = draw_weight_quant(rng, units, per_channel, 0)
    act = draw_activation(rng)
    w_typ = math.exp(sum(math.log(s) for s in w_q.scales) / len(w_q.scales))
    acc_std = math.sqrt(n_in) * UNIFORM_STD[dt] * UNIFORM_STD[w_dt]
    out_q = draw_output_quant(rng, dt, acc_std * in_q.scale * w_typ, act)

    x = b.tensor(in_shape, dt, in_q, name="input")
    w = b.const(rand_values(rng, w_dt, [units, n_in]), w_dt, w_q, name="weights")
    ins = [x, w]
    has_bias = chance(rng, 0.85)
    if has_bias:
        bias_q = Q([f32(in_q.scale * s) for s in w_q.scales],
                   [0] * len(w_q.scales))
        bias = draw_bias(rng, units, acc_std, BIAS_DTYPE[dt],
                         acc_bound=n_in * 256 * 128)
        ins.append(b.const(bias, BIAS_DTYPE[dt], bias_q, name="bias"))
    else:
        ins.append(-1)
    y = b.tensor(out_shape, dt, out_q, name="output")
    b.op("FULLY_CONNECTED", ins, [y], "FullyConnectedOptions",
         fusedActivationFunction=act, keepNumDims=keep)
    config = {"mode": mode, "input_shape": in_shape, "units": units,
              "output_shape": out_shape, "keep_num_dims": keep,
              "activation": act, "per_channel": per_channel, "bias": has_bias,
              "input_quant": in_q.to_json(), "output_quant": out_q.to_json(),
              "weight_quant": w_q.to_json()}
    return b.build([x], [y]), config


@variant("FULLY_CONNECTED.int8", "FULLY_CONNECTED")
def fc_int8(rng):
    """int8 FULLY_CONNECTED: 2-D, batched (rank 3/4 collapsed), keep_num_dims,
    and 4-D input flattened; per-tensor/per-channel weights; optional bias
    (absent = input index -1); all fused activations."""
    return _fully_connected(rng, "int8")


@variant("FULLY_CONNECTED.int8_wide", "FULLY_CONNECTED")
def fc_int8_wide(rng):
    """int8 FULLY_CONNECTED with 65-700 inputs (multiples of 16, of 16 plus
    4, and any) and 1-40 units: every path of the four-row SIMD loops."""
    return _fully_connected(rng, "int8", wide=True)


@variant("FULLY_CONNECTED.int16", "FULLY_CONNECTED")
def fc_int16(rng):
    """int16x8 FULLY_CONNECTED with int64 bias."""
    return _fully_connected(rng, "int16")


def _batch_matmul(rng, dt, simd=False):
    b = ModelBuilder()
    rank = randint(rng, 2, 5) if chance(rng, 0.7) else randint(rng, 2, 3)
    if simd:
        rank = min(rank, 3)
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
    if simd:
        m = draw_simd_size(rng, 17)
        k = draw_simd_size(rng, 129, SIMD_LONG)
        n = draw_simd_size(rng, 33)
    else:
        m, k, n = randint(rng, 1, 8), randint(rng, 1, 16), randint(rng, 1, 8)
    adj_x, adj_y = chance(rng, 0.3), chance(rng, 0.3)
    lhs_shape = lb + ([k, m] if adj_x else [m, k])
    rhs_shape = rb + ([n, k] if adj_y else [k, n])
    out_batch = [max(a, c) for a, c in zip([1] * (nb - len(lb)) + lb,
                                           [1] * (nb - len(rb)) + rb)]
    out_shape = out_batch + [m, n]

    lq = draw_quant(rng, dt, 1e-3, 1.0)
    rq = draw_quant(rng, dt, 1e-3, 1.0)
    # (q - zp) of a uniform draw has mean -0.5 - zp (int8) and std ~74
    m1 = ((INT_RANGE[dt][0] + INT_RANGE[dt][1]) / 2.0 - lq.zero_point)
    m2 = ((INT_RANGE[dt][0] + INT_RANGE[dt][1]) / 2.0 - rq.zero_point)
    sd = UNIFORM_STD[dt]
    center = k * m1 * m2 * lq.scale * rq.scale
    spread = 3 * math.sqrt(k * (sd * sd + m1 * m1) * (sd * sd + m2 * m2)) \
        * lq.scale * rq.scale
    oq = quant_around(rng, dt, center, spread + 0.2 * abs(center))
    rhs_const = chance(rng, 0.5)
    x = b.tensor(lhs_shape, dt, lq, name="lhs")
    if rhs_const:
        y = b.const(rand_values(rng, dt, rhs_shape), dt, rq, name="rhs")
    else:
        y = b.tensor(rhs_shape, dt, rq, name="rhs")
    z = b.tensor(out_shape, dt, oq, name="output")
    b.op("BATCH_MATMUL", [x, y], [z], "BatchMatMulOptions", adjX=adj_x, adjY=adj_y)
    config = {"lhs_shape": lhs_shape, "rhs_shape": rhs_shape,
              "output_shape": out_shape, "adj_x": adj_x, "adj_y": adj_y,
              "rhs_const": rhs_const, "lhs_quant": lq.to_json(),
              "rhs_quant": rq.to_json(), "output_quant": oq.to_json()}
    return b.build([x] if rhs_const else [x, y], [z]), config


@variant("BATCH_MATMUL.int8", "BATCH_MATMUL")
def bmm_int8(rng):
    """int8 BATCH_MATMUL: rank 2-5, broadcast batch dims (also lower rank
    operands), adj_x/adj_y, RHS constant or an input; any zero points."""
    return _batch_matmul(rng, "int8")


@variant("BATCH_MATMUL.int16", "BATCH_MATMUL")
def bmm_int16(rng):
    """int16 BATCH_MATMUL (zero points 0)."""
    return _batch_matmul(rng, "int16")


@variant("FULLY_CONNECTED.int8_simd", "FULLY_CONNECTED", simd=True)
def fc_int8_simd(rng):
    """int8 FULLY_CONNECTED at SIMD sizes: depth 1-320 (blocks, tails and
    K > 256), 1-65 units, 1-5 rows, keep_num_dims sometimes."""
    return _fully_connected(rng, "int8", simd=True)


@variant("FULLY_CONNECTED.int16_simd", "FULLY_CONNECTED", simd=True)
def fc_int16_simd(rng):
    """int16x8 FULLY_CONNECTED at SIMD sizes."""
    return _fully_connected(rng, "int16", simd=True)


@variant("BATCH_MATMUL.int8_simd", "BATCH_MATMUL", simd=True)
def bmm_int8_simd(rng):
    """int8 BATCH_MATMUL at SIMD sizes: m 1-17, k 1-129, n 1-33, rank 2-3."""
    return _batch_matmul(rng, "int8", simd=True)


@variant("BATCH_MATMUL.int16_simd", "BATCH_MATMUL", simd=True)
def bmm_int16_simd(rng):
    """int16 BATCH_MATMUL at SIMD sizes."""
    return _batch_matmul(rng, "int16", simd=True)


@variant("FULLY_CONNECTED.int8_big_sums", "FULLY_CONNECTED", simd=True)
def fc_int8_big_sums(rng):
    """int8 FULLY_CONNECTED whose sums reach past +-2^30: biases near the
    int32 range (the accumulator still cannot overflow), the output scale
    set so that such sums land in or near the output range, per-tensor
    mostly. The DSP requantization's path for sums its SMMULR rounding
    cannot take; depth 1-64, 1-33 units."""
    b = ModelBuilder()
    n_in, units = randint(rng, 1, 64), randint(rng, 1, 33)
    in_q = draw_quant(rng, "int8", 1e-3, 1.0)
    per_channel = chance(rng, 0.25)
    w_q = draw_weight_quant(rng, units, per_channel, 0)
    bound = 2**31 - 1 - n_in * 256 * 128
    mag = rng.integers(2**29, bound, size=units, endpoint=True)
    bias = (mag * rng.choice([-1, 1], size=units)).astype("int32")
    w_typ = math.exp(sum(math.log(s) for s in w_q.scales) / len(w_q.scales))
    # a sum of 2^30 maps to about 10**U(0, 1) times the output's half range
    out_scale = f32(2.0**30 * in_q.scale * w_typ / 128 / 10 ** rng.uniform(0.0, 1.0))
    out_q = Q(out_scale, randint(rng, -128, 127))
    act = draw_activation(rng)
    rows = pick(rng, [1, 1, 2])
    x = b.tensor([rows, n_in], "int8", in_q, name="input")
    w = b.const(rand_values(rng, "int8", [units, n_in]), "int8", w_q, name="weights")
    bias_q = Q([f32(in_q.scale * s) for s in w_q.scales], [0] * len(w_q.scales))
    bt = b.const(bias, "int32", bias_q, name="bias")
    y = b.tensor([rows, units], "int8", out_q, name="output")
    b.op("FULLY_CONNECTED", [x, w, bt], [y], "FullyConnectedOptions",
         fusedActivationFunction=act)
    config = {"depth": n_in, "units": units, "per_channel": per_channel, "activation": act,
              "input_quant": in_q.to_json(), "output_quant": out_q.to_json()}
    return b.build([x], [y]), config
