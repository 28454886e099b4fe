"""Operators that walk a tensor by index: GATHER_ND (int8, float32),
EMBEDDING_LOOKUP (int8, float32, int8 to float32), DYNAMIC_UPDATE_SLICE
(float32, int8, int16, int32) and CUMSUM (int8, float32) along a constant
axis. Indices are constants (random run-time indices would mostly be out
of range), but for DYNAMIC_UPDATE_SLICE's clamped start indices."""

import numpy as np

from ..common import ModelBuilder, Q, chance, draw_quant, draw_shape, f32, randint
from ..core import variant


def _q(rng, dt):
    """A tensor's quantization, None for float32 and int32."""
    return draw_quant(rng, dt, 1e-3, 1.0) if dt in ("int8", "int16") else None


def _qjson(q):
    return None if q is None else q.to_json()


# ---------------------------------------------------------------- GATHER_ND
def _gather_nd(rng, dt):
    rank = randint(rng, 1, 4)
    shape = draw_shape(rng, rank, 1024, 1, 7)
    depth = randint(rng, 1, rank)
    rows_shape = [randint(rng, 1, 4) for _ in range(randint(rng, 0, 2))]
    idx = np.stack([rng.integers(0, shape[j], size=rows_shape) for j in range(depth)],
                   axis=-1).astype(np.int32)
    idx_shape = rows_shape + [depth]
    out = rows_shape + shape[depth:]
    q = _q(rng, dt)
    b = ModelBuilder()
    x = b.tensor(shape, dt, q, name="params")
    it = b.const(idx, "int32", name="indices", shape=idx_shape)
    y = b.tensor(out, dt, None if q is None else Q(q.scales, q.zero_points), name="output")
    b.op("GATHER_ND", [x, it], [y])
    return b.build([x], [y]), {"params_shape": shape, "indices_shape": idx_shape,
                               "indices": idx.tolist(), "output_shape": out,
                               "quant": _qjson(q)}


@variant("GATHER_ND.int8", "GATHER_ND")
def gather_nd_int8(rng):
    """int8 GATHER_ND: params rank 1-4, constant int32 indices of depth 1 to
    the params' rank, 0-2 leading index dimensions."""
    return _gather_nd(rng, "int8")


@variant("GATHER_ND.float32", "GATHER_ND")
def gather_nd_float32(rng):
    """float32 GATHER_ND, as GATHER_ND.int8."""
    return _gather_nd(rng, "float32")


# --------------------------------------------------------- EMBEDDING_LOOKUP
def _embedding_lookup(rng, dt, out_dt):
    """The table is a graph input (random every run), the lookups constant."""
    rank = randint(rng, 2, 4)
    shape = draw_shape(rng, rank, 1024, 1, 8)
    n = randint(rng, 1, 6)
    lookup = rng.integers(0, shape[0], size=[n]).astype(np.int32)
    q = q_out = None
    if dt == "int8":
        q = draw_quant(rng, "int8", 1e-3, 1.0)
        if out_dt == "float32":
            q = Q(q.scale, 0)
        else:
            q_out = Q(q.scale, q.zero_point)
    b = ModelBuilder()
    ids = b.const(lookup, "int32", name="lookup")
    table = b.tensor(shape, dt, q, name="value")
    out = [n] + shape[1:]
    y = b.tensor(out, out_dt, q_out, name="output")
    b.op("EMBEDDING_LOOKUP", [ids, table], [y])
    return b.build([table], [y]), {"value_shape": shape, "lookup": lookup.tolist(),
                                   "output_shape": out, "quant": _qjson(q)}


@variant("EMBEDDING_LOOKUP.int8", "EMBEDDING_LOOKUP")
def embedding_lookup_int8(rng):
    """int8 table rank 2-4, 1-6 constant lookups (repeats allowed)."""
    return _embedding_lookup(rng, "int8", "int8")


@variant("EMBEDDING_LOOKUP.float32", "EMBEDDING_LOOKUP")
def embedding_lookup_float32(rng):
    """float32 table, as EMBEDDING_LOOKUP.int8."""
    return _embedding_lookup(rng, "float32", "float32")


@variant("EMBEDDING_LOOKUP.int8_float32", "EMBEDDING_LOOKUP")
def embedding_lookup_hybrid(rng):
    """The hybrid form: an int8 table (zero point 0) dequantized to float32."""
    return _embedding_lookup(rng, "int8", "float32")


# ----------------------------------------------------- DYNAMIC_UPDATE_SLICE
def _dynamic_update_slice(rng, dt, run_time_start=False):
    rank = randint(rng, 1, 4)
    shape = draw_shape(rng, rank, 1024, 1, 8)
    update_shape = shape if chance(rng, 0.1) else [randint(rng, 1, d) for d in shape]
    # Starts inside, before and past the valid range (TFLite clamps them).
    start = [int(rng.integers(-2, d - u + 3)) for d, u in zip(shape, update_shape)]
    idx_dt = "int64" if chance(rng, 0.3) and not run_time_start else "int32"
    q = _q(rng, dt)
    b = ModelBuilder()
    x = b.tensor(shape, dt, q, name="operand")
    u = b.tensor(update_shape, dt, None if q is None else Q(q.scale, q.zero_point),
                 name="update")
    inputs = [x, u]
    if run_time_start:
        # int8 starts cast to int32: small values occur, most are clamped.
        raw = b.tensor([rank], "int8", name="start_int8")
        s = b.tensor([rank], "int32", name="start_indices")
        b.op("CAST", [raw], [s])
        inputs.append(raw)
        start = None
    else:
        s = b.const(np.array(start, dtype=idx_dt), idx_dt, name="start_indices")
    y = b.tensor(shape, dt, None if q is None else Q(q.scale, q.zero_point), name="output")
    b.op("DYNAMIC_UPDATE_SLICE", [x, u, s], [y])
    return b.build(inputs, [y]), {"operand_shape": shape, "update_shape": update_shape,
                                  "start_indices": start, "indices_dtype": idx_dt,
                                  "quant": _qjson(q)}


@variant("DYNAMIC_UPDATE_SLICE.float32", "DYNAMIC_UPDATE_SLICE")
def dynamic_update_slice_float32(rng):
    """float32 operand rank 1-4, an update no larger in any dimension,
    constant int32/int64 start indices, some outside (clamped)."""
    return _dynamic_update_slice(rng, "float32")


@variant("DYNAMIC_UPDATE_SLICE.int8", "DYNAMIC_UPDATE_SLICE")
def dynamic_update_slice_int8(rng):
    """int8, as DYNAMIC_UPDATE_SLICE.float32."""
    return _dynamic_update_slice(rng, "int8")


@variant("DYNAMIC_UPDATE_SLICE.int8_run_time_start", "DYNAMIC_UPDATE_SLICE")
def dynamic_update_slice_int8_run_time_start(rng):
    """int8 with start indices computed at run time (an int8 input cast to
    int32), clamped by the kernel."""
    return _dynamic_update_slice(rng, "int8", run_time_start=True)


@variant("DYNAMIC_UPDATE_SLICE.int16", "DYNAMIC_UPDATE_SLICE")
def dynamic_update_slice_int16(rng):
    """int16, as DYNAMIC_UPDATE_SLICE.float32."""
    return _dynamic_update_slice(rng, "int16")


@variant("DYNAMIC_UPDATE_SLICE.int32", "DYNAMIC_UPDATE_SLICE")
def dynamic_update_slice_int32(rng):
    """int32, as DYNAMIC_UPDATE_SLICE.float32."""
    return _dynamic_update_slice(rng, "int32")


# ------------------------------------------------------------------- CUMSUM
def _cumsum(rng, dt):
    rank = randint(rng, 1, 4)
    shape = draw_shape(rng, rank, 1024, 1, 8)
    axis = randint(rng, 0, rank - 1)
    arg = axis - rank if chance(rng, 0.3) else axis
    exclusive, reverse = chance(rng, 0.5), chance(rng, 0.5)
    q_in = q_out = None
    if dt == "int8":
        q_in = draw_quant(rng, "int8", 1e-3, 1.0)
        # Sums of up to 8 elements: an output scale a few times the input's.
        q_out = Q(f32(q_in.scale * shape[axis] * 10 ** rng.uniform(-0.7, 0.3)),
                  draw_quant(rng, "int8").zero_point)
    b = ModelBuilder()
    x = b.tensor(shape, dt, q_in, name="input")
    a = b.const(np.array([arg], np.int32), "int32", name="axis", shape=[] if chance(rng, 0.5) else [1])
    y = b.tensor(shape, dt, q_out, name="output")
    b.op("CUMSUM", [x, a], [y], "CumsumOptions", exclusive=exclusive, reverse=reverse)
    return b.build([x], [y]), {"shape": shape, "axis": arg, "exclusive": exclusive,
                               "reverse": reverse, "input_quant": _qjson(q_in),
                               "output_quant": _qjson(q_out)}


@variant("CUMSUM.int8", "CUMSUM")
def cumsum_int8(rng):
    """int8 CUMSUM: rank 1-4, axis possibly negative, exclusive and reverse
    at random, an output scale near the sums' range."""
    return _cumsum(rng, "int8")


@variant("CUMSUM.float32", "CUMSUM")
def cumsum_float32(rng):
    """float32 CUMSUM, as CUMSUM.int8."""
    return _cumsum(rng, "float32")
