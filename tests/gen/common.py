"""Random-drawing helpers shared by the op families.

Everything takes the numpy Generator it is given and nothing else, so that a
(variant, seed) pair always gives the same bytes.
"""

import math

import numpy as np

from .builder import ModelBuilder, Q, np_dtype  # noqa: F401  (re-exported)

INT_RANGE = {"int8": (-128, 127), "int16": (-32768, 32767),
             "uint8": (0, 255), "int32": (-2**31, 2**31 - 1),
             "int64": (-2**63, 2**63 - 1), "int4": (-8, 7)}

# standard deviation of a uniform draw over the full integer range
UNIFORM_STD = {"int8": 73.9, "int16": 18918.0, "uint8": 73.9, "int4": 4.6}

ACTIVATIONS = ("NONE", "RELU", "RELU_N1_TO_1", "RELU6")

# Sizes at which the SIMD kernels change path: 1, the lane counts (4 int8
# per DSP word, 8 int16 and 16 int8 per Helium vector, blocks of 2 and 4
# outputs) and one either side of them, so every tail length appears.
SIMD_SIZES = (1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 48, 63, 64, 65)
# Longer vectors for the reductions (dot products, softmax rows).
SIMD_LONG = SIMD_SIZES + (100, 127, 128, 129, 255, 256, 257)


def f32(x):
    """Round to the nearest float32, returned as a Python float."""
    return float(np.float32(x))


def pick(rng, options, p=None):
    """One element of a sequence (index drawn with rng)."""
    options = list(options)
    if p is None:
        return options[int(rng.integers(len(options)))]
    p = np.asarray(p, dtype=np.float64)
    return options[int(rng.choice(len(options), p=p / p.sum()))]


def chance(rng, p):
    return bool(rng.random() < p)


def randint(rng, lo, hi):
    """Integer in [lo, hi] (inclusive)."""
    return int(rng.integers(lo, hi, endpoint=True))


def log_uniform(rng, lo, hi):
    return float(math.exp(rng.uniform(math.log(lo), math.log(hi))))


def draw_scale(rng, lo=1e-4, hi=1.0):
    return f32(log_uniform(rng, lo, hi))


def draw_zero_point(rng, dtype):
    """Full range for int8/uint8; 0 for int16 (as TFLite requires)."""
    if dtype == "int16":
        return 0
    lo, hi = INT_RANGE[dtype]
    return randint(rng, lo, hi)


def draw_quant(rng, dtype, lo=1e-4, hi=1.0):
    return Q(draw_scale(rng, lo, hi), draw_zero_point(rng, dtype))


def quant_for_range(dtype, rmin, rmax):
    """Quantization covering [rmin, rmax] (which must contain 0)."""
    qmin, qmax = INT_RANGE[dtype]
    rmin, rmax = min(rmin, 0.0), max(rmax, 0.0)
    if dtype == "int16":
        scale = max(abs(rmin), abs(rmax)) / qmax
        return Q(f32(scale), 0)
    scale = (rmax - rmin) / (qmax - qmin)
    zp = int(round(qmin - rmin / scale))
    return Q(f32(scale), max(qmin, min(qmax, zp)))


def draw_output_quant(rng, dtype, real_std, activation="NONE", spread=1.0):
    """Output quantization for a value of typical magnitude real_std: the
    range is 3*std times 10**U(-spread, spread), so some draws saturate and
    some use few levels. Half the draws with a fused activation pick a range
    that fits it (as a converter would); the rest are arbitrary."""
    width = 3.0 * real_std * 10 ** rng.uniform(-spread, spread)
    width = max(width, 1e-6)
    if activation != "NONE" and chance(rng, 0.5):
        if activation == "RELU":
            return quant_for_range(dtype, 0.0, width)
        if activation == "RELU6":
            return quant_for_range(dtype, 0.0, min(6.0, width) if chance(rng, 0.5) else 6.0)
        if activation == "RELU_N1_TO_1":
            return quant_for_range(dtype, -1.0, 1.0)
    qmin, qmax = INT_RANGE[dtype]
    scale = f32(2 * width / (qmax - qmin))
    return Q(scale, draw_zero_point(rng, dtype))


def quant_around(rng, dtype, center, spread, jitter=0.5):
    """Quantization whose range covers center +- spread (times
    10**U(-jitter, jitter)), zero point placed accordingly (0 for int16)."""
    qmin, qmax = INT_RANGE[dtype]
    scale = f32(max(spread, 1e-9) * 2 / (qmax - qmin) * 10 ** rng.uniform(-jitter, jitter))
    if dtype == "int16":
        return Q(scale, 0)
    zp = int(round((qmin + qmax) / 2.0 - center / scale)) + randint(rng, -32, 32)
    return Q(scale, max(qmin, min(qmax, zp)))


def rand_values(rng, dtype, shape, lo=None, hi=None):
    """Random array over the full range of dtype (or [lo, hi])."""
    if dtype == "bool":
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if dtype == "float32":
        return rng.uniform(lo if lo is not None else -1.0,
                           hi if hi is not None else 1.0, size=shape).astype(np.float32)
    qlo, qhi = INT_RANGE[dtype]
    lo = qlo if lo is None else lo
    hi = qhi if hi is None else hi
    return rng.integers(lo, hi, size=shape, endpoint=True, dtype=np_dtype(dtype))


def draw_float_values(rng, shape, magnitude=None, p_zero=0.05):
    """float32 values of a tensor: uniform over +-magnitude (log-uniform over
    1e-2..1e2 when not given), some of them exactly 0 (and -0.0), so
    products, sums and clamps meet signed zeros and mixed magnitudes."""
    if magnitude is None:
        magnitude = log_uniform(rng, 1e-2, 1e2)
    x = rng.uniform(-magnitude, magnitude, size=shape).astype(np.float32)
    zeros = rng.random(size=shape) < p_zero
    x[zeros] = np.where(rng.random(size=shape) < 0.5, np.float32(0.0), np.float32(-0.0))[zeros]
    return x


def draw_float_weights(rng, shape, fan_in):
    """float32 weights scaled by 1/sqrt(fan_in) (times 10**U(-1, 1)), as a
    trained layer's: accumulations stay in a normal range."""
    return draw_float_values(rng, shape, 10 ** rng.uniform(-1.0, 1.0) / math.sqrt(max(1, fan_in)))


def float_activation_bounds(activation):
    """(min, max) of a fused activation in float, as TFLite's
    CalculateActivationRange: RELU [0, inf), RELU6 [0, 6], RELU_N1_TO_1 [-1, 1]."""
    return {"NONE": (-math.inf, math.inf), "RELU": (0.0, math.inf),
            "RELU6": (0.0, 6.0), "RELU_N1_TO_1": (-1.0, 1.0)}[activation]


def draw_weight_quant(rng, n_channels, per_channel, axis, lo=1e-4, hi=0.1):
    """Symmetric (zero point 0) weight quantization, per-tensor or per-channel
    along `axis`; per-channel scales spread over up to two decades."""
    if per_channel:
        base = log_uniform(rng, lo, hi)
        spread = rng.uniform(0.0, 2.0)
        scales = [f32(base * 10 ** rng.uniform(-spread / 2, spread / 2))
                  for _ in range(n_channels)]
        return Q(scales, [0] * n_channels, axis=axis)
    return Q(draw_scale(rng, lo, hi), 0)


def draw_bias(rng, n, acc_std, dtype="int32", acc_bound=None):
    """Bias values of magnitude around the accumulator's, capped so that the
    int32 accumulator cannot overflow (acc_bound: max |sum of products|)."""
    mag = acc_std * 10 ** rng.uniform(-1.0, 1.0)
    cap = 2**24 if dtype == "int32" else 2**36
    if acc_bound is not None and dtype == "int32":
        cap = min(cap, max(1, 2**31 - 1 - int(acc_bound)))
    mag = int(max(1, min(cap, mag)))
    return rng.integers(-mag, mag, size=n, endpoint=True).astype(np_dtype(dtype))


def draw_activation(rng, p_none=0.4):
    if chance(rng, p_none):
        return "NONE"
    return pick(rng, ACTIVATIONS[1:])


def draw_dim(rng, lo=1, hi=8, p_one=0.15):
    """A dimension, 1 with probability p_one, else uniform in [lo, hi]."""
    if chance(rng, p_one):
        return 1
    return randint(rng, lo, hi)


def draw_shape(rng, rank, max_elems=2048, lo=1, hi=8, p_one=0.15):
    """Random shape of the given rank with at most max_elems elements."""
    while True:
        shape = [draw_dim(rng, lo, hi, p_one) for _ in range(rank)]
        if int(np.prod(shape, dtype=np.int64)) <= max_elems:
            return shape
        hi = max(lo, hi - 1)


def conv_out_size(in_size, k, stride, dilation, padding):
    eff = (k - 1) * dilation + 1
    if padding == "SAME":
        return (in_size + stride - 1) // stride
    return (in_size - eff + stride) // stride


def draw_simd_size(rng, hi=65, sizes=SIMD_SIZES):
    """One of `sizes` not above hi."""
    return pick(rng, [n for n in sizes if n <= hi])


def draw_simd_shape(rng, rank, max_elems=4096, last_hi=257):
    """A shape of the given rank whose last dimension is a SIMD size (up to
    last_hi) and whose other dimensions are small, often 1."""
    last = draw_simd_size(rng, last_hi, SIMD_LONG)
    lead = [draw_dim(rng, 1, 5, p_one=0.35) for _ in range(rank - 1)]
    while lead and nelems(lead) * last > max_elems:
        lead[lead.index(max(lead))] -= 1
    return lead + [last]


def simd_broadcast_shapes(rng, rank, max_elems=4096):
    """Two operand shapes and their broadcast for the elementwise SIMD
    paths: equal shapes (the contiguous loop), one operand a scalar, one a
    vector along the last axis (per-channel), or size-1 dims at random."""
    out = draw_simd_shape(rng, rank, max_elems)
    a, b = list(out), list(out)
    mode = pick(rng, ["same", "same", "scalar", "channel", "bcast"])
    if mode == "scalar":
        b = [1] * pick(rng, [1, rank])
    elif mode == "channel":
        b = [out[-1]] if chance(rng, 0.5) else [1] * (rank - 1) + [out[-1]]
    elif mode == "bcast":
        for i in range(rank):
            r = rng.random()
            if r < 0.3:
                a[i] = 1
            elif r < 0.6:
                b[i] = 1
    if chance(rng, 0.5):
        a, b = b, a
    return a, b, list(np.broadcast_shapes(tuple(a), tuple(b)))


def nelems(shape):
    return int(np.prod(shape, dtype=np.int64))


def broadcast_shapes(rng, rank, max_elems=1024):
    """Two shapes of the given rank that broadcast against each other
    (dims of either set to 1 at random), plus their broadcast shape; the
    second may also have a lower rank."""
    out = draw_shape(rng, rank, max_elems)
    a, b = list(out), list(out)
    mode = pick(rng, ["same", "bcast", "bcast", "scalar_like"])
    if mode == "bcast":
        for i in range(rank):
            r = rng.random()
            if r < 0.3:
                a[i] = 1
            elif r < 0.6:
                b[i] = 1
    elif mode == "scalar_like":
        b = [1] * rank
        if chance(rng, 0.5):
            a, b = b, a
    if chance(rng, 0.25) and len(b) > 1:
        drop = randint(rng, 1, len(b) - 1)   # lower rank second operand
        b = b[drop:]
    if chance(rng, 0.5):
        a, b = b, a
    outshape = list(np.broadcast_shapes(tuple(a), tuple(b)))
    return a, b, outshape
