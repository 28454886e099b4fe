"""Stateful models (run them several times on one interpreter without reset):
SVDF (int8 or int16 state; float32), UNIDIRECTIONAL_SEQUENCE_LSTM (integer:
int8 activations, int16 cell state; float32), resource variables (VAR_HANDLE /
READ_VARIABLE / ASSIGN_VARIABLE, optionally initialised through CALL_ONCE) and
TFLite Micro's CIRCULAR_BUFFER.

Variable tensors (SVDF/LSTM states) have no buffer: TFLM resets them to the
zero point (int8) or 0 before the first run."""

import math

from flatbuffers import flexbuffers
import numpy as np

from ..common import (ModelBuilder, Q, SIMD_LONG, UNIFORM_STD, chance, draw_float_values,
                      draw_float_weights, draw_quant, draw_scale, draw_simd_size,
                      draw_zero_point, f32, log_uniform, pick, rand_values, randint)
from ..core import variant


# --------------------------------------------------------------------- SVDF
def _svdf(rng, state_dt, simd=False, big=False):
    """big: time sums past +-2^30 (biases near the int32 range, the output
    scale set so that such sums land in or near the output range)."""
    batch = pick(rng, [1, 1, 1, 2])
    if simd:
        # feature depths and filter counts across the dot loops' blocks
        n_in = draw_simd_size(rng, 129, SIMD_LONG)
        units = draw_simd_size(rng, 33)
    else:
        n_in = randint(rng, 1, 32)
        units = randint(rng, 1, 16)
    rank = pick(rng, [1, 1, 2])
    filters = units * rank
    mem = randint(rng, 1, 10)
    q_in = draw_quant(rng, "int8", 1e-3, 0.2)
    s_wf = draw_scale(rng, 1e-4, 0.05)
    # state scale: feature dot products land within the state's range
    dot_std = math.sqrt(n_in) * UNIFORM_STD["int8"] ** 2
    qmax = 127.0 if state_dt == "int8" else 32767.0
    s_state = f32(q_in.scale * s_wf * dot_std / (qmax / 3) * 10 ** rng.uniform(-1, 1))
    zp_state = draw_zero_point(rng, "int8") if state_dt == "int8" else 0
    if state_dt == "int8":
        w_time = rand_values(rng, "int8", [filters, mem])
    else:
        # keep the int32 time accumulator (mem * rank products of up to
        # 65535 * |w|) from overflowing
        lim = max(1, min(32767, (2**28 if big else 2**31 - 2**26) // (mem * rank * 65536)))
        w_time = rand_values(rng, "int16", [filters, mem], -lim, lim)
    s_wt = draw_scale(rng, 1e-4, 0.05)
    bias_scale = f32(s_state * s_wt)
    acc_std = math.sqrt(mem * rank) * (qmax / 3) * float(np.abs(w_time).mean() + 1)
    bmax = int(min(acc_std, 2**25))
    if big:
        # every time sum stays below 2^31 in magnitude: products under 2^29
        mag = rng.integers(2**29, 2**31 - 2**30 // 2, size=units, endpoint=True)
        bias = (mag * rng.choice([-1, 1], size=units)).astype(np.int32)
        out_scale = 2.0**30 * bias_scale / 128 / 10 ** rng.uniform(0.0, 1.0)
    else:
        bias = rng.integers(-bmax, bmax + 1, size=units).astype(np.int32)
        out_scale = bias_scale * acc_std * 3 / 128 * 10 ** rng.uniform(-1, 1)
    q_out = Q(f32(out_scale), draw_zero_point(rng, "int8"))
    act = pick(rng, ["NONE", "RELU"])

    b = ModelBuilder()
    x = b.tensor([batch, n_in], "int8", q_in, name="input")
    wf = b.const(rand_values(rng, "int8", [filters, n_in]), "int8", Q(s_wf, 0),
                 name="weights_feature")
    wt = b.const(w_time, state_dt, Q(s_wt, 0), name="weights_time")
    bt = b.const(bias, "int32", Q(bias_scale, 0), name="bias")
    st = b.tensor([batch, mem * filters], state_dt, Q(s_state, zp_state),
                  name="activation_state", variable=True)
    y = b.tensor([batch, units], "int8", q_out, name="output")
    b.op("SVDF", [x, wf, wt, bt, st], [y], "SVDFOptions", rank=rank,
         fusedActivationFunction=act)
    return b.build([x], [y]), {
        "batch": batch, "input_size": n_in, "units": units, "rank": rank,
        "memory_size": mem, "state_dtype": state_dt, "activation": act,
        "input_quant": q_in.to_json(), "weights_feature_scale": s_wf,
        "weights_time_scale": s_wt, "state_quant": {"scale": s_state,
                                                    "zero_point": zp_state},
        "bias_scale": bias_scale, "output_quant": q_out.to_json()}


@variant("SVDF.int8", "SVDF", stateful=True)
def svdf_int8(rng):
    """int8 SVDF with int8 weights_time and an int8 activation state (any
    zero point); rank 1-2, memory 1-10, batch 1-2. Stateful."""
    return _svdf(rng, "int8")


@variant("SVDF.int16", "SVDF", stateful=True)
def svdf_int16(rng):
    """int8 SVDF with int16 weights_time and int16 activation state (zero
    point 0). Stateful."""
    return _svdf(rng, "int16")


@variant("SVDF.float32", "SVDF", stateful=True)
def svdf_float32(rng):
    """float32 SVDF (TFLM's float reference loop): rank 1-2, memory 1-10,
    batch 1-2, weights scaled by 1/sqrt(fan-in), every fused activation
    TFLM applies; always a bias (TFLM's float path crashes without one,
    tinyaot sums from 0). Stateful."""
    batch = pick(rng, [1, 1, 1, 2])
    n_in = randint(rng, 1, 32)
    units = randint(rng, 1, 16)
    rank = pick(rng, [1, 1, 2])
    filters = units * rank
    mem = randint(rng, 1, 10)
    # SIGN_BIT (5) has no name in the builder's table.
    act = pick(rng, ["NONE", "NONE", "RELU", "RELU_N1_TO_1", "RELU6", "TANH", 5])
    b = ModelBuilder()
    x = b.tensor([batch, n_in], "float32", name="input")
    wf = b.const(draw_float_weights(rng, [filters, n_in], n_in), "float32",
                 name="weights_feature")
    wt = b.const(draw_float_weights(rng, [filters, mem], mem), "float32", name="weights_time")
    bt = b.const(draw_float_values(rng, [units], 1.0), "float32", name="bias")
    st = b.tensor([batch, mem * filters], "float32", name="activation_state", variable=True)
    y = b.tensor([batch, units], "float32", name="output")
    b.op("SVDF", [x, wf, wt, bt, st], [y], "SVDFOptions", rank=rank,
         fusedActivationFunction=act)
    return b.build([x], [y]), {
        "batch": batch, "input_size": n_in, "units": units, "rank": rank,
        "memory_size": mem, "activation": act}


@variant("SVDF.int8_simd", "SVDF", stateful=True, simd=True)
def svdf_int8_simd(rng):
    """int8 SVDF at SIMD sizes: input depth 1-129, units 1-33. Stateful."""
    return _svdf(rng, "int8", simd=True)


@variant("SVDF.int16_simd", "SVDF", stateful=True, simd=True)
def svdf_int16_simd(rng):
    """int8 SVDF with int16 state at SIMD sizes. Stateful."""
    return _svdf(rng, "int16", simd=True)


@variant("SVDF.int8_big_sums", "SVDF", stateful=True, simd=True)
def svdf_int8_big_sums(rng):
    """int8 SVDF whose time sums reach past +-2^30 (the DSP output
    requantization's path for sums its SMMULR rounding cannot take).
    Stateful."""
    return _svdf(rng, "int8", big=True)


@variant("SVDF.int16_big_sums", "SVDF", stateful=True, simd=True)
def svdf_int16_big_sums(rng):
    """int8 SVDF with int16 state whose time sums reach past +-2^30.
    Stateful."""
    return _svdf(rng, "int16", big=True)


# --------------------------------------------------------------------- LSTM
GATES = ("input", "forget", "cell", "output")


@variant("UNIDIRECTIONAL_SEQUENCE_LSTM.int8", "UNIDIRECTIONAL_SEQUENCE_LSTM",
         stateful=True)
def lstm_int8(rng, simd=False, big=False):
    """Integer UNIDIRECTIONAL_SEQUENCE_LSTM as the converter writes it for a
    fully int8 model: int8 input/output/hidden state, int8 per-tensor
    weights, int32 gate biases, int16 cell state with a power-of-two scale,
    no CIFG/peephole/projection/layer norm (TFLM supports none of them),
    5 intermediates (4 float placeholders + the int8 effective hidden scale).
    batch-major or time-major, 1-6 time steps, optional cell clip. Stateful.
    big: input-to-gate sums past +-2^30 (biases near the int32 range, the
    input weights' scale set so that such sums land in the gates' range)."""
    batch = pick(rng, [1, 1, 2, 3])
    steps = randint(rng, 1, 6)
    if simd:
        # gate matrix depths (input and recurrent) across the blocks
        n_in = draw_simd_size(rng, 65)
        n_cell = draw_simd_size(rng, 33)
    else:
        n_in = randint(rng, 1, 16)
        n_cell = randint(rng, 1, 16)
    time_major = chance(rng, 0.3)
    q_in = draw_quant(rng, "int8", 3e-3, 0.1)
    q_h = Q(f32(10 ** rng.uniform(-0.3, 0.3) / 128),
            0 if chance(rng, 0.6) else randint(rng, -20, 20))
    cell_pow = pick(rng, [-11, -12, -12, -10, -13])
    q_c = Q(2.0 ** cell_pow, 0)
    cell_clip = f32(pick(rng, [0.0, 0.0, log_uniform(rng, 0.5, 2.0 ** (15 + cell_pow))]))

    b = ModelBuilder()
    in_shape = [steps, batch, n_in] if time_major else [batch, steps, n_in]
    out_shape = [steps, batch, n_cell] if time_major else [batch, steps, n_cell]
    x = b.tensor(in_shape, "int8", q_in, name="input")
    w_in, w_rec, biases, cfg_w = {}, {}, {}, {}
    for g in GATES:
        target = log_uniform(rng, 0.3, 3.0)
        s_wi = f32(target / (math.sqrt(n_in) * UNIFORM_STD["int8"] ** 2 * q_in.scale))
        if big:
            # a sum of 2^30 is a pre-activation of 1-10 (Q3.12 holds +-8)
            s_wi = f32(10 ** rng.uniform(0.0, 1.0) / (2.0**30 * q_in.scale))
        s_wr = f32(log_uniform(rng, 0.3, 3.0)
                   / (math.sqrt(n_cell) * UNIFORM_STD["int8"] * 40 * q_h.scale))
        w_in[g] = b.const(rand_values(rng, "int8", [n_cell, n_in]), "int8",
                          Q(s_wi, 0), name="input_to_%s_weights" % g)
        w_rec[g] = b.const(rand_values(rng, "int8", [n_cell, n_cell]), "int8",
                           Q(s_wr, 0), name="recurrent_to_%s_weights" % g)
        bs = f32(q_in.scale * s_wi)
        if big:
            # the input part's sums (bias, its zero point's fold, the dot
            # product) stay below 2^31 in magnitude
            mag = rng.integers(2**29, 2**31 - 2**24, size=n_cell, endpoint=True)
            bias = (mag * rng.choice([-1, 1], size=n_cell)).astype(np.int32)
        else:
            bias = np.round(rng.normal(1.0 if g == "forget" else 0.0, 1.0, n_cell) / bs)
            bias = np.clip(bias, -2**24, 2**24).astype(np.int32)
        biases[g] = b.const(bias, "int32", Q(bs, 0), name="%s_gate_bias" % g)
        cfg_w[g] = {"input_weight_scale": s_wi, "recurrent_weight_scale": s_wr,
                    "bias_scale": bs}
    h = b.tensor([batch, n_cell], "int8", Q(q_h.scale, q_h.zero_point),
                 name="output_state", variable=True)
    c = b.tensor([batch, n_cell], "int16", q_c, name="cell_state", variable=True)
    inter = [b.tensor([0], "float32", name="input_to_%s_intermediate" % g)
             for g in GATES]
    inter.append(b.tensor([0], "int8", Q(q_h.scale, 0),
                          name="effective_hidden_scale_intermediate"))
    y = b.tensor(out_shape, "int8", Q(q_h.scale, q_h.zero_point), name="output")
    ins = ([x] + [w_in[g] for g in GATES] + [w_rec[g] for g in GATES]
           + [-1, -1, -1] + [biases[g] for g in GATES] + [-1, -1, h, c]
           + [-1, -1, -1, -1])
    b.op("UNIDIRECTIONAL_SEQUENCE_LSTM", ins, [y],
         "UnidirectionalSequenceLSTMOptions", intermediates=inter,
         fusedActivationFunction="TANH", cellClip=cell_clip, projClip=0.0,
         timeMajor=time_major, asymmetricQuantizeInputs=False)
    return b.build([x], [y]), {
        "batch": batch, "time_steps": steps, "input_size": n_in,
        "cell_size": n_cell, "time_major": time_major, "cell_clip": cell_clip,
        "input_quant": q_in.to_json(), "hidden_quant": q_h.to_json(),
        "cell_scale_log2": cell_pow, "gates": cfg_w}


@variant("UNIDIRECTIONAL_SEQUENCE_LSTM.float32", "UNIDIRECTIONAL_SEQUENCE_LSTM",
         stateful=True)
def lstm_float32(rng):
    """float32 UNIDIRECTIONAL_SEQUENCE_LSTM (TFLM's float LstmStep): float
    input/output, weights (1/sqrt(fan-in)), biases and states, TANH cell
    activation, no CIFG/peephole/projection/layer norm, no intermediates;
    batch-major or time-major, 1-6 time steps, cell clip none, positive or
    negative (TFLM clips only when it is > 0). Stateful."""
    batch = pick(rng, [1, 1, 2, 3])
    steps = randint(rng, 1, 6)
    n_in = randint(rng, 1, 16)
    n_cell = randint(rng, 1, 16)
    time_major = chance(rng, 0.3)
    clip = log_uniform(rng, 0.05, 4.0)
    cell_clip = f32(pick(rng, [0.0, 0.0, clip, clip, -clip]))

    b = ModelBuilder()
    in_shape = [steps, batch, n_in] if time_major else [batch, steps, n_in]
    out_shape = [steps, batch, n_cell] if time_major else [batch, steps, n_cell]
    x = b.tensor(in_shape, "float32", name="input")
    w_in = {g: b.const(draw_float_weights(rng, [n_cell, n_in], n_in), "float32",
                       name="input_to_%s_weights" % g) for g in GATES}
    w_rec = {g: b.const(draw_float_weights(rng, [n_cell, n_cell], n_cell), "float32",
                        name="recurrent_to_%s_weights" % g) for g in GATES}
    biases = {g: b.const(draw_float_values(rng, [n_cell], 1.0), "float32",
                         name="%s_gate_bias" % g) for g in GATES}
    h = b.tensor([batch, n_cell], "float32", name="output_state", variable=True)
    c = b.tensor([batch, n_cell], "float32", name="cell_state", variable=True)
    y = b.tensor(out_shape, "float32", name="output")
    ins = ([x] + [w_in[g] for g in GATES] + [w_rec[g] for g in GATES]
           + [-1, -1, -1] + [biases[g] for g in GATES] + [-1, -1, h, c]
           + [-1, -1, -1, -1])
    b.op("UNIDIRECTIONAL_SEQUENCE_LSTM", ins, [y],
         "UnidirectionalSequenceLSTMOptions", fusedActivationFunction="TANH",
         cellClip=cell_clip, projClip=0.0, timeMajor=time_major,
         asymmetricQuantizeInputs=False)
    return b.build([x], [y]), {
        "batch": batch, "time_steps": steps, "input_size": n_in,
        "cell_size": n_cell, "time_major": time_major, "cell_clip": cell_clip}


@variant("UNIDIRECTIONAL_SEQUENCE_LSTM.int8_simd", "UNIDIRECTIONAL_SEQUENCE_LSTM",
         stateful=True, simd=True)
def lstm_int8_simd(rng):
    """Integer UNIDIRECTIONAL_SEQUENCE_LSTM at SIMD sizes: input 1-65,
    cell 1-33. Stateful."""
    return lstm_int8(rng, simd=True)


@variant("UNIDIRECTIONAL_SEQUENCE_LSTM.int8_big_sums", "UNIDIRECTIONAL_SEQUENCE_LSTM",
         stateful=True, simd=True)
def lstm_int8_big_sums(rng):
    """Integer UNIDIRECTIONAL_SEQUENCE_LSTM whose input-to-gate sums reach
    past +-2^30 (the DSP gate requantization's path for sums its SMMULR
    rounding cannot take). Stateful."""
    return lstm_int8(rng, big=True)


# ---------------------------------------------------------------- variables
def _variables(rng, dt, init):
    shape = [randint(rng, 1, 4) for _ in range(randint(rng, 1, 3))]
    q_var = draw_quant(rng, dt, 1e-3, 0.5)
    q_in = Q(f32(q_var.scale * 10 ** rng.uniform(-1, 0.3)), draw_zero_point(rng, dt))
    b = ModelBuilder()
    name = b"accumulator"
    init_values = None
    if init:
        sg = b.subgraph("init")
        b.select(sg)
        hi = b.tensor([], "resource", name="handle")
        b.op("VAR_HANDLE", [], [hi], "VarHandleOptions", container=b"",
             sharedName=name)
        init_values = rand_values(rng, dt, shape)
        iv = b.const(init_values, dt, Q(q_var.scale, q_var.zero_point), name="init_value")
        b.op("ASSIGN_VARIABLE", [hi, iv], [])
        b.set_io(sg, [], [])
        b.select(0)
        b.op("CALL_ONCE", [], [], "CallOnceOptions", initSubgraphIndex=sg)
    h = b.tensor([], "resource", name="handle")
    b.op("VAR_HANDLE", [], [h], "VarHandleOptions", container=b"", sharedName=name)
    x = b.tensor(shape, dt, q_in, name="input")
    r = b.tensor(shape, dt, Q(q_var.scale, q_var.zero_point), name="read")
    b.op("READ_VARIABLE", [h], [r])
    s = b.tensor(shape, dt, Q(q_var.scale, q_var.zero_point), name="output")
    b.op("ADD", [r, x], [s], "AddOptions", fusedActivationFunction="NONE",
         potScaleInt16=False)
    b.op("ASSIGN_VARIABLE", [h, s], [])
    config = {"shape": shape, "variable_quant": q_var.to_json(),
              "input_quant": q_in.to_json(), "call_once_init": init}
    if init_values is not None:
        config["init_values"] = init_values.tolist()
    return b.build([x], [s]), config


@variant("VARIABLES.int8", "VAR_HANDLE", stateful=True)
def variables_int8(rng):
    """Resource variable accumulator: CALL_ONCE runs an init subgraph that
    assigns a constant; each run READ_VARIABLE, ADD the input, ASSIGN_VARIABLE
    the sum and output it. int8. Stateful."""
    return _variables(rng, "int8", True)


@variant("VARIABLES.int16", "VAR_HANDLE", stateful=True)
def variables_int16(rng):
    """The accumulator with int16 values (zero points 0). Stateful."""
    return _variables(rng, "int16", True)


@variant("VARIABLES.int8_noinit", "VAR_HANDLE", stateful=True)
def variables_int8_noinit(rng):
    """The int8 accumulator without CALL_ONCE: TFLM starts the variable at
    its zero point (LiteRT refuses to read an uninitialised variable).
    Stateful."""
    return _variables(rng, "int8", False)


# ---------------------------------------------------------- CIRCULAR_BUFFER
def _written_slots_compare(ours_runs, expected_runs):
    """TFLite Micro keeps CIRCULAR_BUFFER's window in its output tensor,
    which starts as whatever the arena held: after run k (from 0) only the
    last min(k + 1, slots) slots are defined. Those are compared with TFLite
    Micro; the slots not yet written must be zero in ours (the window is
    zero after model_init). Counts bytes as difftest._count_diff does."""
    total = diff = 0
    for k, (ours, expected) in enumerate(zip(ours_runs, expected_runs)):
        got, want = np.asarray(ours[0]), np.asarray(expected[0])
        slots = got.shape[1]
        got = got.reshape(slots, -1).view(np.uint8)
        want = want.reshape(slots, -1).view(np.uint8)
        fresh = slots - min(k + 1, slots)
        total += got.size
        diff += int(np.count_nonzero(got[fresh:] != want[fresh:]))
        diff += int(np.count_nonzero(got[:fresh]))
    return total, diff


@variant("CIRCULAR_BUFFER.int8", "CIRCULAR_BUFFER", stateful=True,
         compare=_written_slots_compare)
def circular_buffer_int8(rng):
    """TFLite Micro's custom CIRCULAR_BUFFER: each run shifts the window of
    the last `slots` inputs [1, 1, h, w] by one and appends the input;
    cycles_max 1 (given, or absent with 5 slots, TFLite Micro's default
    there). Stateful; the slots TFLite Micro has not written yet are not
    compared (they must be zero in ours)."""
    slots = randint(rng, 1, 12)
    options = {"cycles_max": 1}
    if chance(rng, 0.2):
        slots, options = 5, None
    h, w = randint(rng, 1, 4), randint(rng, 1, 12)
    q = draw_quant(rng, "int8", 1e-3, 0.5)
    b = ModelBuilder()
    x = b.tensor([1, 1, h, w], "int8", q, name="input")
    y = b.tensor([1, slots, h, w], "int8", q, name="output")
    b.custom_op("CIRCULAR_BUFFER", [x], [y],
                b"" if options is None else flexbuffers.Dumps(options))
    return b.build([x], [y]), {"slots": slots, "height": h, "width": w,
                               "options": options, "quant": q.to_json()}
