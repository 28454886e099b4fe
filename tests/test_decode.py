"""TFLM_DECODE, TFLite Micro's compressed constants: tinyaot decodes each
DECODE output at conversion time into a constant (src/passes/
decode_constants.c). Compressed models (LUT from the wheel's compression
tool, at several bit widths and with per-channel tables; Huffman and Prune
built here as the kernels read them) must run bit-exact with TFLite Micro
and give what the uncompressed model's module gives; bad headers and
sizes are refused with one line naming the operator."""


import numpy as np
import pytest

from tests.gen.builder import ModelBuilder, Q
from tests.harness import module, oracle
from tests.harness import tflm_decode as td
from tests.harness.refusals import refusal, tflm_fails

MODELS = module.MODELS


def _run_both(model, tmp_path, name, n_runs=3, seed=0, keys=None):
    """TFLite Micro's and the module's outputs on the same random inputs."""
    runs = oracle.random_inputs(model, np.random.default_rng(seed), n_runs)
    ref = oracle.run_tflm(model, runs, isolated=True)
    (tmp_path / f"{name}.tflite").write_bytes(model)
    m = module.convert(tmp_path / f"{name}.tflite", tmp_path / name, keys=keys)
    ours = module.run(m, module.build(m), runs)
    return runs, ref, ours, m


def _same(a, b):
    return all(len(x) == len(y) and all(np.array_equal(p, q) for p, q in zip(x, y))
               for x, y in zip(a, b)) and len(a) == len(b)


# ---------------------------------------------------------------- consumers

def _levels(rng, shape, levels, dtype=np.int8, axis=None):
    """Weights with at most `levels` distinct values (per slice along axis)."""
    if axis is None:
        pool = rng.integers(-127, 128, size=levels)
        return rng.choice(pool, size=shape).astype(dtype)
    out = np.empty(shape, dtype)
    for c in range(shape[axis]):
        pool = rng.integers(-127, 128, size=levels)
        idx = [slice(None)] * len(shape)
        idx[axis] = c
        out[tuple(idx)] = rng.choice(pool, size=out[tuple(idx)].shape)
    return out


def _fully_connected(rng, levels, act="int8"):
    b = ModelBuilder()
    x = b.tensor([2, 40], act, Q(0.05, 2 if act == "int8" else 0), name="input")
    w = b.tensor([6, 40], "int8", Q(0.01, 0), name="weights", data=_levels(rng, [6, 40], levels))
    bias_type = "int32" if act == "int8" else "int64"
    bias = b.tensor([6], bias_type, Q(0.0005, 0), name="bias",
                    data=rng.choice(rng.integers(-500, 500, min(levels, 4)), 6))
    y = b.tensor([2, 6], act, Q(0.1, -3 if act == "int8" else 0), name="output")
    b.op("FULLY_CONNECTED", [x, w, bias], [y], "FullyConnectedOptions")
    return b.build([x], [y]), [w, bias]


def _fully_connected_float(rng, levels):
    b = ModelBuilder()
    x = b.tensor([3, 20], "float32", name="input")
    pool = rng.standard_normal(levels).astype(np.float32)
    w = b.tensor([5, 20], "float32", name="weights", data=rng.choice(pool, size=[5, 20]))
    y = b.tensor([3, 5], "float32", name="output")
    b.op("FULLY_CONNECTED", [x, w, -1], [y], "FullyConnectedOptions")
    return b.build([x], [y]), [w]


def _conv_per_channel(rng, levels):
    b = ModelBuilder()
    x = b.tensor([1, 6, 6, 3], "int8", Q(0.05, -1), name="input")
    scales = [0.01 + 0.002 * c for c in range(4)]
    w = b.tensor([4, 3, 3, 3], "int8", Q(scales, 0, 0), name="weights",
                 data=_levels(rng, [4, 3, 3, 3], levels, axis=0))
    bias = b.tensor([4], "int32", Q([0.05 * s for s in scales], 0, 0), name="bias",
                    data=rng.integers(-300, 300, 4))
    y = b.tensor([1, 6, 6, 4], "int8", Q(0.08, 5), name="output")
    b.op("CONV_2D", [x, w, bias], [y], "Conv2DOptions", padding="SAME", strideH=1, strideW=1)
    return b.build([x], [y]), [w, bias]


def _depthwise_per_channel(rng, levels):
    """Weights quantized along their last axis: TFLite Micro's other layout."""
    b = ModelBuilder()
    x = b.tensor([1, 5, 5, 8], "int8", Q(0.05, 1), name="input")
    scales = [0.01 + 0.001 * c for c in range(8)]
    w = b.tensor([1, 3, 3, 8], "int8", Q(scales, 0, 3), name="weights",
                 data=_levels(rng, [1, 3, 3, 8], levels, axis=3))
    bias = b.tensor([8], "int32", Q([0.05 * s for s in scales], 0, 0), name="bias",
                    data=rng.integers(-300, 300, 8))
    y = b.tensor([1, 5, 5, 8], "int8", Q(0.06, -2), name="output")
    b.op("DEPTHWISE_CONV_2D", [x, w, bias], [y], "DepthwiseConv2DOptions", padding="SAME",
         strideH=1, strideW=1, depthMultiplier=1)
    return b.build([x], [y]), [w, bias]


CONSUMERS = [
    # (name, builder, levels, bit width, per-channel table axis or None)
    ("fc_int8_1bit", lambda r: _fully_connected(r, 2), 1, None),
    ("fc_int8_2bit", lambda r: _fully_connected(r, 4), 2, None),
    ("fc_int8_3bit", lambda r: _fully_connected(r, 8), 3, None),
    ("fc_int8_4bit", lambda r: _fully_connected(r, 16), 4, None),
    ("fc_int8_5bit", lambda r: _fully_connected(r, 30), 5, None),
    ("fc_int8_7bit", lambda r: _fully_connected(r, 100), 7, None),
    ("fc_int16x8", lambda r: _fully_connected(r, 12, act="int16"), 4, None),
    ("fc_float32", lambda r: _fully_connected_float(r, 6), 3, None),
    ("conv_per_channel_3bit", lambda r: _conv_per_channel(r, 8), 3, 0),
    ("conv_per_channel_4bit", lambda r: _conv_per_channel(r, 16), 4, 0),
    ("depthwise_last_axis", lambda r: _depthwise_per_channel(r, 5), 3, 3),
]


@pytest.mark.parametrize("name,make,bitwidth,axis", CONSUMERS, ids=[c[0] for c in CONSUMERS])
def test_lut_compressed_model_matches_tflite_micro_and_the_uncompressed_module(
        tmp_path, name, make, bitwidth, axis):
    model, tensors = make(np.random.default_rng(len(name)))
    # the bias too: per channel (along its only axis) when it is quantized so
    compressed = td.compress_lut(
        model, [(tensors[0], axis)] + [(t, None if axis is None else 0) for t in tensors[1:]],
        bitwidth)
    assert b"TFLM_DECODE" in compressed
    runs, ref, ours, m = _run_both(compressed, tmp_path, "compressed")
    assert _same(ours, ref)
    plain_ref = oracle.run_tflm(model, runs, isolated=True)
    assert _same(plain_ref, ref)
    (tmp_path / "plain.tflite").write_bytes(model)
    plain = module.convert(tmp_path / "plain.tflite", tmp_path / "plain")
    assert _same(module.run(plain, module.build(plain), runs), ours)
    # The views: no DECODE left, the consumer keeps its model index; the
    # encoded and ancillary tensors are gone, a decoded one left is a constant.
    types = [op["type"] for op in m.views["operators"]]
    assert types == [plain.views["operators"][0]["type"]], types
    assert m.views["operators"][0]["source_indices"] == [1]  # after the tool's DECODE
    names = {t["name"]: t["kind"] for t in m.views["tensors"] if t["name"]}
    assert not [n for n in names if n.endswith("_ancillary")], names
    assert all(k == "constant" for n, k in names.items() if n.endswith("_decoded")), names


# ------------------------------------------------------- decoded values alone

def _check_decoded(tmp_path, model, expected):
    """The model's second output is the decoded tensor: TFLite Micro's, the
    module's and the expected values agree byte for byte."""
    _, ref, ours, _ = _run_both(model, tmp_path, "decode", n_runs=1)
    assert _same(ours, ref)
    assert ref[0][1].dtype == expected.dtype
    assert ref[0][1].tobytes() == np.ascontiguousarray(expected).tobytes()


LUT_TYPES = ["int8", "int16", "int32", "int64", "float32", "bool"]


@pytest.mark.parametrize("dtype", LUT_TYPES)
@pytest.mark.parametrize("bitwidth", [1, 3, 6])
def test_lut_decodes_every_type_tflite_micro_does(tmp_path, dtype, bitwidth):
    rng = np.random.default_rng(bitwidth * 10 + LUT_TYPES.index(dtype))
    levels = 2 if dtype == "bool" else 1 << bitwidth
    values = td.random_values(rng, [5, 7], dtype, levels)
    table, idx = np.unique(values, return_inverse=True)
    encoded, ancillary = td.lut([table], idx, bitwidth)
    _check_decoded(tmp_path, td.decode_model([5, 7], dtype, encoded, ancillary), values)


@pytest.mark.parametrize("axis", [0, 2])
@pytest.mark.parametrize("dtype", ["int8", "int16", "int32"])
def test_lut_per_channel_tables_follow_the_quantization_axis(tmp_path, axis, dtype):
    """Axis 0: a run of elements per channel; the last axis: element i is in
    channel i % channels (TFLite Micro's two layouts)."""
    rng = np.random.default_rng(axis + len(dtype))
    shape = [3, 2, 4] if axis == 0 else [2, 5, 3]
    channels = shape[axis]
    values = td.random_values(rng, shape, dtype, 40)
    moved = np.moveaxis(values, axis, 0)
    tables, idx = [], np.empty(moved.shape, np.int64)
    for c in range(channels):
        t, i = np.unique(moved[c], return_inverse=True)
        tables.append(t)
        idx[c] = i.reshape(moved[c].shape)
    encoded, ancillary = td.lut(tables, np.moveaxis(idx, 0, axis), 5)
    quant = Q([0.5] * channels, 0, axis)
    _check_decoded(tmp_path, td.decode_model(shape, dtype, encoded, ancillary, quant), values)


def test_lut_index_past_the_stride_reads_the_next_table_as_tflite_micro(tmp_path):
    tables = [np.array([1, 2], np.int8), np.array([3, 4], np.int8), np.array([5, 6], np.int8)]
    idx = np.array([[0, 3], [1, 2], [0, 1]])  # channel 0 reads channel 1's 4
    encoded, ancillary = td.lut(tables, idx, 2, stride=2)
    expected = np.array([[1, 4], [4, 5], [5, 6]], np.int8)
    model = td.decode_model([3, 2], "int8", encoded, ancillary, Q([1.0] * 3, 0, 0))
    _check_decoded(tmp_path, model, expected)


@pytest.mark.parametrize("dtype,wide", [("int8", False), ("int8", True), ("int16", True)])
@pytest.mark.parametrize("root_bits", [2, 4])
def test_huffman_decodes_as_tflite_micro(tmp_path, dtype, wide, root_bits):
    rng = np.random.default_rng(root_bits + 2 * wide + len(dtype))
    pool = td.random_values(rng, [14], dtype, 14)
    # skewed counts: long codes that need the second-level tables
    values = pool[np.minimum(rng.geometric(0.35, size=[9, 11]) - 1, 13)].astype(pool.dtype)
    encoded, ancillary = td.huffman(values, wide, root_bits)
    _check_decoded(tmp_path, td.decode_model([9, 11], dtype, encoded, ancillary), values)


PRUNE_CASES = [
    # (dtype, shape, quantization, channel axis of the zero points)
    ("int8", [4, 6], Q(0.1, -5), 0),
    ("int8", [4, 6], Q([0.1] * 4, [3, -2, 0, 7], 0), 0),
    ("int8", [3, 5], Q([0.1] * 5, [1, -1, 2, -2, 0], 1), 1),
    ("int16", [4, 6], Q(0.1, 0), 0),
    ("int32", [3, 7], None, 0),
    ("int64", [3, 7], None, 0),
    ("float32", [4, 5], None, 0),
    ("bool", [4, 5], None, 0),
]


@pytest.mark.parametrize("dtype,shape,quant,axis", PRUNE_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(PRUNE_CASES)])
def test_prune_restores_the_zero_points_as_tflite_micro(tmp_path, dtype, shape, quant, axis):
    rng = np.random.default_rng(len(dtype) + len(shape))
    zps = quant.zero_points if quant else [0]
    values = td.random_values(rng, shape, dtype, 20)
    zp_full = np.asarray(zps).reshape([-1 if k == axis else 1 for k in range(len(shape))]) \
        if len(zps) > 1 else np.asarray(zps[0])
    pruned = rng.random(shape) < 0.5
    values = np.where(pruned, zp_full.astype(values.dtype), values).astype(values.dtype)
    encoded, ancillary = td.prune(values, zps, axis)
    model = td.decode_model(shape, dtype, encoded, ancillary, quant)
    _check_decoded(tmp_path, model, values)


def test_a_decode_with_several_outputs(tmp_path):
    """One DECODE may decode several tensors, each from its own pair."""
    a = np.arange(12, dtype=np.int8).reshape(3, 4) % 3
    enc_a, anc_a = td.lut([np.array([7, -8, 9], np.int8)], a, 2)
    b = np.array([0, 5, 0, 0, 6, 7], np.int16)
    enc_b, anc_b = td.prune(b)
    mb = ModelBuilder()
    x = mb.tensor([4], "int8", Q(0.1, 0), name="x")
    y = mb.tensor([4], "int8", Q(0.1, 0), name="y")
    mb.op("ABS", [x], [y])
    consts = [mb.tensor([len(v)], "uint8", data=np.frombuffer(v, np.uint8))
              for v in (enc_a, anc_a, enc_b, anc_b)]
    da = mb.tensor([3, 4], "int8", name="a")
    db = mb.tensor([6], "int16", name="b")
    mb.custom_op("TFLM_DECODE", consts, [da, db])
    model = mb.build([x], [y, da, db])
    _, ref, ours, _ = _run_both(model, tmp_path, "two", n_runs=1)
    assert _same(ours, ref)
    assert np.array_equal(ref[0][1], np.array([7, -8, 9], np.int8)[a])
    assert np.array_equal(ref[0][2], b)


# ---------------------------------------------------------------- refusals

def _lut_case():
    idx = np.array([[0, 1, 2, 3], [3, 2, 1, 0], [1, 1, 2, 2]])
    return td.lut([np.array([10, -20, 30, -40], np.int8)], idx, 2)


def _huffman_case(dtype="int8", wide=True):
    values = np.array([1, 1, 1, 2, 2, 3, 4, 1, 1, 2, 1, 5], dtype)
    return td.huffman(values.reshape(3, 4), wide, 2)


def _prune_case(dtype="int8", zp=0):
    values = np.array([[zp, 4, zp, 6], [7, zp, zp, 9], [zp, zp, 2, 3]], dtype)
    return td.prune(values, [zp])


def _patched(blob, at, value):
    b = bytearray(blob)
    b[at] = value
    return bytes(b)


def _model(case, dtype="int8", quant=None, shape=(3, 4), encoded=None, ancillary=None):
    enc, anc = case
    return td.decode_model(list(shape), dtype, enc if encoded is None else encoded,
                           anc if ancillary is None else ancillary, quant)


REFUSALS = [
    # (name, model, what the line says, TFLite Micro refuses it too)
    ("short ancillary", lambda: _model(_lut_case(), ancillary=_lut_case()[1][:10]),
     "the ancillary tensor has 10 bytes, less than the 16 of its header", False),
    ("dcm version", lambda: _model(_lut_case(), ancillary=_patched(_lut_case()[1], 1, 2)),
     "header version 2 (TFLite Micro reads version 1)", True),
    ("custom type", lambda: _model(_lut_case(), ancillary=_patched(_lut_case()[1], 0, 127)),
     "custom decode type 127, which TFLite Micro does not support either", True),
    ("unknown type", lambda: _model(_lut_case(), ancillary=_patched(_lut_case()[1], 0, 9)),
     "unknown decode type 9", True),
    ("lut version", lambda: _model(_lut_case(), ancillary=_patched(_lut_case()[1], 4, 3)),
     "LUT format version 3 (TFLite Micro reads version 1)", True),
    ("lut bit width 0", lambda: _model(_lut_case(), ancillary=_patched(_lut_case()[1], 5, 0xF0)),
     "LUT index bit width 0 (TFLite Micro takes 1 to 7)", False),
    ("lut short tables", lambda: _model(_lut_case(), ancillary=_lut_case()[1][:18]),
     "element 2 reads value 2 of channel 0's table (stride 4), past the 2 values", False),
    ("lut short indices", lambda: _model(_lut_case(), encoded=_lut_case()[0][:2]),
     "the encoded tensor has 2 bytes; 12 indices of 2 bits need 3", False),
    ("lut to uint8", lambda: _model(_lut_case(), dtype="uint8"),
     "a LUT cannot decode to uint8", True),
    ("lut quantization axis", lambda: _model(_lut_case(), shape=(2, 2, 3),
                                             quant=Q([1.0, 1.0], 0, 1)),
     "the output's quantization axis 1 is neither 0 nor the last axis", True),
    ("lut channels do not divide", lambda: _model(_lut_case(), quant=Q([1.0] * 5, 0, 0)),
     "the output's 12 elements do not split into its 5 quantization channels", False),
    ("lut one table for per-channel weights",
     lambda: _model(_lut_case(), quant=Q([1.0] * 3, 0, 0)),
     "element 4 reads value 3 of channel 1's table (stride 4), past the 4 values", False),
    ("huffman 16-bit table to int16",
     lambda: _model(_huffman_case("int16", True), dtype="int16",
                    ancillary=_patched(_huffman_case("int16", True)[1], 5, 0x10)),
     "Huffman tables of 16-bit entries decode to int8 only, the output is int16", True),
    ("huffman to int32", lambda: _model(_huffman_case(), dtype="int32"),
     "Huffman cannot decode to int32 (TFLite Micro: int8, int16)", True),
    ("huffman version", lambda: _model(_huffman_case(), ancillary=_patched(_huffman_case()[1],
                                                                             4, 0)),
     "Huffman format version 0 (TFLite Micro reads version 1)", True),
    ("huffman short tables", lambda: _model(_huffman_case(), ancillary=_huffman_case()[1][:24]),
     "past the 2 entries of the tables", False),
    ("huffman short stream", lambda: _model(_huffman_case(), encoded=b"\x00"),
     "the code of element 8 ends past the 8 bits of the code stream", False),
    ("prune short values", lambda: _model(_prune_case(), ancillary=_prune_case()[1][:20]),
     "the bitmap keeps more than the 4 values the ancillary tensor holds", False),
    ("prune short bitmap", lambda: _model(_prune_case(), encoded=b"\xff"),
     "the encoded tensor has 1 bytes; a bitmap of 12 elements needs 2", False),
    ("prune zero point of int16", lambda: _model(_prune_case("int16", 3), dtype="int16",
                                                 quant=Q(0.5, 3)),
     "pruned int16 values need every zero point to be 0", True),
]


@pytest.mark.parametrize("name,make,says,tflm_refuses", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_bad_decode_data_is_refused_with_one_line(tmp_path, name, make, says, tflm_refuses):
    model = make()
    line = refusal(model, tmp_path)
    assert "operator 1 (TFLM_DECODE): output 0 (tensor 4, from inputs 2 and 3): " in line, line
    assert says in line, line
    if tflm_refuses:
        tflm_fails(model, oracle.random_inputs(model, np.random.default_rng(0), 1))


def test_a_decode_input_that_is_not_constant_is_refused(tmp_path):
    enc, anc = _lut_case()
    b = ModelBuilder()
    e = b.tensor([len(enc)], "uint8", name="encoded_input")
    a = b.tensor([len(anc)], "uint8", data=np.frombuffer(anc, np.uint8))
    d = b.tensor([3, 4], "int8", name="decoded")
    b.custom_op("TFLM_DECODE", [e, a], [d])
    model = b.build([e], [d])
    line = refusal(model, tmp_path)
    assert ("operator 0 (TFLM_DECODE): input 0 (encoded tensor 0) is not a constant; "
            "TFLite Micro decodes constants only") in line, line
    tflm_fails(model, oracle.random_inputs(model, np.random.default_rng(0), 1))


def test_a_decode_without_an_ancillary_input_is_refused(tmp_path):
    enc, anc = _lut_case()
    model = _model(_lut_case())
    b = ModelBuilder()
    x = b.tensor([4], "int8", Q(0.1, 0), name="x")
    y = b.tensor([4], "int8", Q(0.1, 0), name="y")
    b.op("ABS", [x], [y])
    e = b.tensor([len(enc)], "uint8", data=np.frombuffer(enc, np.uint8))
    a = b.tensor([len(anc)], "uint8", data=np.frombuffer(anc, np.uint8))
    d = b.tensor([3, 4], "int8", name="decoded")
    b.custom_op("TFLM_DECODE", [e, a, e], [d])
    model = b.build([x], [y, d])
    line = refusal(model, tmp_path)
    assert ("operator 1 (TFLM_DECODE): has 3 inputs and 1 outputs; DECODE takes an encoded "
            "and an ancillary tensor for each of its outputs") in line, line
    tflm_fails(model, oracle.random_inputs(model, np.random.default_rng(0), 1))


# ------------------------------------------------------------ a whole model

def test_lut_compressed_keyword_spotting_model_is_bit_exact_with_tflite_micro(tmp_path):
    """mlperf_tiny_kws_ref_model with every weight tensor cut to 16 levels,
    then its weights (per channel along their quantization axis: axis 0 for
    CONV_2D, the last for DEPTHWISE_CONV_2D, one table for the dense layer)
    and biases LUT-compressed with 4-bit indices by the wheel's tool."""
    plain, tensors = td.cut_weights((MODELS / "mlperf_tiny_kws_ref_model.tflite").read_bytes())
    assert len(tensors) == 20 and (5, 3) in tensors and (17, 0) in tensors, tensors
    compressed = td.compress_lut(plain, tensors, 4)
    assert compressed.count(b"TFLM_DECODE") == 1
    runs, ref, ours, m = _run_both(compressed, tmp_path, "compressed", n_runs=3)
    assert _same(ours, ref)
    (tmp_path / "plain.tflite").write_bytes(plain)
    pm = module.convert(tmp_path / "plain.tflite", tmp_path / "plain")
    assert _same(module.run(pm, module.build(pm), runs), ours)
    assert _same(oracle.run_tflm(plain, runs, isolated=True), ref)
    assert [op["type"] for op in m.views["operators"]] == \
        [op["type"] for op in pm.views["operators"]]


def test_a_tensor_decoded_for_each_reader_is_held_once(tmp_path):
    """The tool puts a DECODE before each reader of a compressed tensor; the
    module holds the decoded weights once, as for the uncompressed model
    (weights.format dense), or their table once (auto)."""
    rng = np.random.default_rng(7)
    b = ModelBuilder()
    x = b.tensor([2, 16], "int8", Q(0.05, 1), name="input")
    w = b.tensor([5, 16], "int8", Q(0.01, 0), name="weights", data=_levels(rng, [5, 16], 8))
    h = b.tensor([2, 5], "int8", Q(0.1, 0), name="h")
    x2 = b.tensor([2, 16], "int8", Q(0.05, 1), name="input2")
    y = b.tensor([2, 5], "int8", Q(0.1, 2), name="output")
    b.op("FULLY_CONNECTED", [x, w, -1], [h], "FullyConnectedOptions")
    b.op("FULLY_CONNECTED", [x2, w, -1], [y], "FullyConnectedOptions")
    model = b.build([x, x2], [h, y])
    compressed = td.compress_lut(model, [(w, None)], 3)
    runs, ref, ours, m = _run_both(compressed, tmp_path, "tables")
    assert _same(ours, ref)
    tables = [t for t in m.views["tensors"] if (t["stored_format"] or "").startswith("table")]
    assert len(tables) == 1, m.views["tensors"]
    runs, ref, ours, m = _run_both(compressed, tmp_path, "shared",
                                   keys={"weights.format": "dense"})
    assert _same(ours, ref)
    assert [op["type"] for op in m.views["operators"]] == ["FULLY_CONNECTED"] * 2
    weights = {op["input_ids"][1] for op in m.views["operators"]}
    assert len(weights) == 1, m.views["operators"]
    (tmp_path / "plain.tflite").write_bytes(model)
    pm = module.convert(tmp_path / "plain.tflite", tmp_path / "plain")
    const_bytes = [sum(t["nbytes"] for t in v["tensors"] if t["kind"] == "constant")
                   for v in (m.views, pm.views)]
    assert const_bytes[0] == const_bytes[1], const_bytes


def test_a_decode_inside_an_if_branch(tmp_path):
    """The tool compresses a branch subgraph's weights too; the DECODE runs
    in that branch, which tinyaot inlines before it decodes."""
    rng = np.random.default_rng(11)
    b = ModelBuilder()
    branches = []
    for name in ("then", "else"):
        sg = b.subgraph(name)
        b.select(sg)
        c = b.tensor([1], "bool", name=name + "_c")
        x = b.tensor([1, 12], "int8", Q(0.05, 0), name=name + "_x")
        w = b.tensor([4, 12], "int8", Q(0.02, 0), name=name + "_w",
                     data=_levels(rng, [4, 12], 4))
        y = b.tensor([1, 4], "int8", Q(0.1, 1), name=name + "_y")
        b.op("FULLY_CONNECTED", [x, w, -1], [y], "FullyConnectedOptions")
        b.set_io(sg, [c, x], [y])
        branches.append((sg, w))
    b.select(0)
    c = b.tensor([1], "bool", name="cond")
    x = b.tensor([1, 12], "int8", Q(0.05, 0), name="input")
    y = b.tensor([1, 4], "int8", Q(0.1, 1), name="output")
    b.op("IF", [c, c, x], [y], "IfOptions", thenSubgraphIndex=branches[0][0],
         elseSubgraphIndex=branches[1][0])
    model = b.build([c, x], [y])
    compressed = td.compress_lut(model, [(branches[0][1], None)], 2, subgraph=branches[0][0])
    assert b"TFLM_DECODE" in compressed
    runs = [[np.array([k % 2 == 0]), rng.integers(-128, 128, [1, 12], dtype=np.int8)]
            for k in range(4)]
    ref = oracle.run_tflm(compressed, runs, isolated=True)
    (tmp_path / "if.tflite").write_bytes(compressed)
    m = module.convert(tmp_path / "if.tflite", tmp_path / "if")
    assert "TFLM_DECODE" not in [op["type"] for op in m.views["operators"]]
    assert _same(module.run(m, module.build(m), runs), ref)
    assert _same(oracle.run_tflm(model, runs, isolated=True), ref)
