"""Weights stored as tables (docs/compressed-models.md, "Weights as
tables"): the generator's clustered and TFLM_DECODE variants byte-equal
to TFLite Micro on both boards (the host runs them in tests.optest); the
stored form each weights.format gives, in the views and analyze; DECODE
data that would make a bad table (corrupted tables, indices past a table,
a truncated index stream) refused with one line when the DECODE feeds a
convolution. tests/unit/test_weight_table.c decodes any bytes within
exact-size buffers."""

import json
import subprocess
import zlib

import numpy as np
import pytest

from tests.gen import variants
from tests.gen.builder import ModelBuilder, Q
from tests.harness import batch, difftest, module, oracle, tflm_decode

BOARDS = [("mps3-an547", "mps3_an547"), ("mps2-an386", "mps2_an386")]
CLUSTERED = ["CONV_2D.clustered", "DEPTHWISE_CONV_2D.clustered", "FULLY_CONNECTED.clustered"]
DECODE = ["CONV_2D.decode_lut", "DEPTHWISE_CONV_2D.decode_lut", "FULLY_CONNECTED.decode_lut",
          "CONV_2D.decode_prune", "FULLY_CONNECTED.decode_prune"]
HUFFMAN = ["CONV_2D.decode_huffman", "DEPTHWISE_CONV_2D.decode_huffman",
           "FULLY_CONNECTED.decode_huffman"]
PER_VARIANT = 4


def cases(names):
    return [variants.ALL[n].case(seed) for n in names for seed in range(PER_VARIANT)]


def runs_for(case):
    rng = np.random.default_rng([24, zlib.crc32(case.name.encode())])
    return oracle.random_inputs(case.model, rng, 2)


@pytest.mark.qemu
@pytest.mark.parametrize("board,target", BOARDS, ids=[b for b, _ in BOARDS])
def test_table_weights_match_tflm_on_boards(tmp_path, board, target):
    """The decode's Helium gathers (Cortex-M55) and portable loops (Cortex-M4),
    and the Huffman decoder."""
    bad, total = [], 0
    for fmt, names in (("table", CLUSTERED), ("auto", DECODE), ("huffman", HUFFMAN)):
        part = cases(names)
        b = batch.build_batch_qemu([(c.name, c.model) for c in part], tmp_path / fmt, board,
                                   target, keys={"weights.format": fmt})
        assert not b.errors, b.errors
        results = batch.run_cases_qemu(b, [(i, runs_for(c)) for i, c in enumerate(part)])
        for i, case in enumerate(part):
            ours = results.get(i)
            if isinstance(ours, str) or ours is None:
                bad.append(f"{case.name}: {str(ours)[:300]}")
                continue
            n, d = difftest._count_diff(ours, oracle.run_tflm(case.model, runs_for(case),
                                                              isolated=True))
            total += n
            if d:
                bad.append(f"{case.name}: {d} of {n} bytes differ; {case.config}")
    assert total > 0 and not bad, "\n".join(bad[:8])


def clustered_fc(rows=64, depth=64, levels=16, seed=5, skewed=False):
    """FULLY_CONNECTED [1, depth] -> [1, rows], weights of `levels` values
    (value k about twice as often as value k + 1 when skewed)."""
    rng = np.random.default_rng(seed)
    pool = rng.choice(np.arange(-127, 128), levels, replace=False)
    p = 0.5 ** np.arange(levels) if skewed else np.ones(levels)
    b = ModelBuilder()
    x = b.tensor([1, depth], "int8", Q(0.05, 3), name="x")
    w = b.const(pool[rng.choice(levels, (rows, depth), p=p / p.sum())], "int8", Q(0.01, 0),
                name="fc_w")
    y = b.tensor([1, rows], "int8", Q(2.0, -1), name="y")
    b.op("FULLY_CONNECTED", [x, w, -1], [y], "FullyConnectedOptions")
    return b.build([x], [y])


def convert(tmp_path, model, *keys):
    path = tmp_path / "m.tflite"
    path.write_bytes(model)
    return subprocess.run([module.tinyaot_bin(), "convert", "--model.path", str(path),
                           "--module.path", str(tmp_path / "out"), "--module.prefix", "m", *keys],
                          capture_output=True, text=True)


def views(tmp_path):
    return json.loads((tmp_path / "out" / "m_views.json").read_text())["tensors"]


def stored(tmp_path):
    return {t["id"]: (t["stored_format"], t["nbytes"], t["dense_nbytes"])
            for t in views(tmp_path) if t["kind"] == "constant"}


def kernels(tmp_path):
    return sorted(p.name for p in (tmp_path / "out" / "runtime" / "kernels").glob("*.c"))


@pytest.mark.parametrize("keys,levels,form", [
    ((), 16, ("table4", 16 + 2048, 4096)),             # clustered: auto codes it
    ((), 17, None),                                    # 17 values: not clustered, dense
    (("--weights.format", "table"), 17, ("table5", 32 + 2560, 4096)),
    (("--weights.format", "table"), 128, ("table7", 128 + 3584, 4096)),
    (("--weights.format", "table"), 200, None),        # more than 128 values: no table
    (("--weights.format", "dense"), 16, None),
    (("--weights.format", "packed"), 16, None),        # packed is INT4's form only
    (("--weights.dense", "fc_*"), 16, None),
    (("--weights.dense", "other"), 16, ("table4", 16 + 2048, 4096)),
])
def test_weights_format_chooses_the_table_form(tmp_path, keys, levels, form):
    p = convert(tmp_path, clustered_fc(levels=levels), *keys)
    assert p.returncode == 0, p.stderr
    s = stored(tmp_path)
    scratch = [t for t in views(tmp_path) if t["id"] == "op0.weights_decoded"]
    if form:
        assert s["op0.weights_table"] == form, s
        assert "1" not in s, s  # the dense weights left the module
        assert scratch and scratch[0]["kind"] == "scratch" and scratch[0]["nbytes"] == 4096
        assert "ta_weight_table.c" in kernels(tmp_path)
    else:
        assert s["1"] == ("dense", 4096, 4096), s
        assert not scratch and "ta_weight_table.c" not in kernels(tmp_path)


@pytest.mark.parametrize("keys,skewed,form", [
    ((), True, "huffman"),        # about 2 bits a weight against the tables' 4
    ((), False, "table4"),        # flat: Huffman codes would take as much
    (("--weights.format", "huffman"), False, "huffman"),
    (("--weights.format", "table"), True, "table4"),
])
def test_huffman_codes_where_chosen(tmp_path, keys, skewed, form):
    model = clustered_fc(skewed=skewed)
    p = convert(tmp_path, model, *keys)
    assert p.returncode == 0, p.stderr
    s = stored(tmp_path)
    coded = {k: v for k, v in s.items() if k.startswith("op0.weights_")}
    assert [v[0] for v in coded.values()] == [form], s
    nbytes = next(iter(coded.values()))[1]
    if form == "huffman":
        assert "ta_weight_huffman.c" in kernels(tmp_path)
        assert nbytes < (1400 if skewed else 2200), s
    runs = oracle.random_inputs(model, np.random.default_rng(2), 2)
    (tmp_path / "m.tflite").write_bytes(model)
    m = module.convert(tmp_path / "m.tflite", tmp_path / "mod",
                       keys={k[2:]: v for k, v in zip(keys[::2], keys[1::2])})
    ours = module.run(m, module.build(m), runs)
    assert difftest._count_diff(ours, oracle.run_tflm(model, runs, isolated=True))[1] == 0


def test_large_huffman_weights_equal_dense_module_and_tflm(tmp_path):
    """65,536 skewed weights: a lookup of two values an entry (the
    stream's bytes outweigh the larger lookup)."""
    model = clustered_fc(rows=256, depth=256, skewed=True)
    (tmp_path / "m.tflite").write_bytes(model)
    runs = oracle.random_inputs(model, np.random.default_rng(7), 2)
    outs = {}
    for fmt in ("auto", "dense"):
        m = module.convert(tmp_path / "m.tflite", tmp_path / fmt, keys={"weights.format": fmt})
        outs[fmt] = module.run(m, module.build(m), runs)
        formats = {t["stored_format"] for t in m.views["tensors"] if t["kind"] == "constant"}
        assert ("huffman" in formats) == (fmt == "auto"), formats
    assert difftest._count_diff(outs["auto"], outs["dense"])[1] == 0
    assert difftest._count_diff(outs["auto"], oracle.run_tflm(model, runs, isolated=True))[1] == 0


@pytest.mark.parametrize("skewed,form", [(False, "table4"), (True, "huffman")])
def test_dsp_pairs_layout_codes_the_models_values(tmp_path, skewed, form):
    """A core with the DSP extension lays FULLY_CONNECTED weights out in
    pairs of rows, each pair's first row with its sign bits flipped
    (ta_fully_connected_words.h): the coder codes the model's values and
    the decoders flip them back, so the form and the stored bytes are the
    host's (flipped, the clustered weights would hold twice the values),
    and a host build of the module gives TFLite Micro's outputs."""
    model = clustered_fc(skewed=skewed)
    forms = {}
    for name, keys in (("host", ()), ("m4", ("--platform.name", "mps2_an386"))):
        (tmp_path / name).mkdir()
        p = convert(tmp_path / name, model, *keys)
        assert p.returncode == 0, p.stderr
        forms[name] = {k: v for k, v in stored(tmp_path / name).items()
                       if k.startswith("op0.weights_")}
    assert [v[0] for v in forms["m4"].values()] == [form], forms
    assert list(forms["m4"].values()) == list(forms["host"].values()), forms
    m = module.convert(tmp_path / "host" / "m.tflite", tmp_path / "mod",
                       keys={"platform.name": "mps2_an386"})
    runs = oracle.random_inputs(model, np.random.default_rng(4), 2)
    ours = module.run(m, module.build(m), runs)
    assert difftest._count_diff(ours, oracle.run_tflm(model, runs, isolated=True))[1] == 0


def test_weights_format_huffman_without_int8_weights_is_one_line(tmp_path):
    b = ModelBuilder()
    x = b.tensor([1, 8], "int8", Q(0.05, 3), name="x")
    y = b.tensor([1, 8], "int8", Q(0.05, 3), name="y")
    b.op("ADD", [x, x], [y], "AddOptions")
    p = convert(tmp_path, b.build([x], [y]), "--weights.format", "huffman")
    assert p.returncode != 0
    lines = [line for line in p.stderr.splitlines() if "error" in line]
    assert len(lines) == 1 and "m.tflite: weights.format huffman: the model has no int8 weights" \
        in lines[0], p.stderr
    assert not (tmp_path / "out").exists()


def test_auto_leaves_small_clustered_weights_dense(tmp_path):
    """Coding 8x8 weights saves less than the decode call costs."""
    p = convert(tmp_path, clustered_fc(rows=8, depth=8))
    assert p.returncode == 0, p.stderr
    assert stored(tmp_path)["1"][0] == "dense"


@pytest.mark.parametrize("skewed,tensor,form", [(False, "op0.weights_table", "table4"),
                                                 (True, "op0.weights_huffman", "huffman")])
def test_analyze_lists_stored_bytes_format_and_dense_size(tmp_path, skewed, tensor, form):
    path = tmp_path / "m.tflite"
    path.write_bytes(clustered_fc(skewed=skewed))
    p = subprocess.run([module.tinyaot_bin(), "analyze", "--model.path", str(path), "--tensors",
                        "--format", "json"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    t = {t["id"]: t for t in json.loads(p.stdout)["tensors"]}
    assert (t[tensor]["stored_format"], t[tensor]["dense_bytes"]) == (form, 4096), t[tensor]
    assert t[tensor]["model_tensor"] == 1 and 0 < t[tensor]["bytes"] < 4096, t[tensor]
    residency = tmp_path / "out" / "m_residency.json"
    assert convert(tmp_path, clustered_fc(skewed=skewed), "--memory.dump_residency_json",
                   "true").returncode == 0
    rows = json.loads(residency.read_text())
    text = json.dumps(rows)
    assert f'"stored_format": "{form}"' in text, text[:400]


def test_clustered_module_equals_dense_module_and_tflm(tmp_path):
    model = clustered_fc()
    runs = oracle.random_inputs(model, np.random.default_rng(2), 4)
    outs = {}
    (tmp_path / "m.tflite").write_bytes(model)
    for fmt in ("auto", "dense"):
        m = module.convert(tmp_path / "m.tflite", tmp_path / fmt, keys={"weights.format": fmt})
        outs[fmt] = module.run(m, module.build(m), runs)
    assert difftest._count_diff(outs["auto"], outs["dense"])[1] == 0
    assert difftest._count_diff(outs["auto"], oracle.run_tflm(model, runs, isolated=True))[1] == 0


# ---- DECODE data that would make a bad table, when the DECODE feeds a CONV_2D

def decode_conv(encoded, ancillary):
    """A 1x1 CONV_2D whose [4,1,1,3] weights a TFLM_DECODE gives."""
    b = ModelBuilder()
    x = b.tensor([1, 2, 2, 3], "int8", Q(0.05, 0), name="x")
    enc = b.tensor([len(encoded)], "uint8", data=np.frombuffer(encoded, np.uint8), name="enc")
    anc = b.tensor([len(ancillary)], "uint8", data=np.frombuffer(ancillary, np.uint8),
                   name="anc")
    w = b.tensor([4, 1, 1, 3], "int8", Q(0.02, 0), name="w")
    b.custom_op("TFLM_DECODE", [enc, anc], [w])
    y = b.tensor([1, 2, 2, 4], "int8", Q(0.1, 0), name="y")
    b.op("CONV_2D", [x, w, -1], [y], "Conv2DOptions", padding="SAME", strideH=1, strideW=1)
    return b.build([x], [y])


def good_lut():
    indices = np.arange(12) % 4
    return tflm_decode.lut([np.array([-7, 3, 9, 100], np.int8)], indices, 2)


BAD = [
    ("truncated index stream", lambda e, a: (e[:2], a),
     "the encoded tensor has 2 bytes; 12 indices of 2 bits need 3"),
    ("table cut short: an index past the table", lambda e, a: (e, a[:18]),
     "element 2 reads value 2 of channel 0's table (stride 4), past the 2 values"),
    ("corrupted header: bit width 0", lambda e, a: (e, a[:5] + bytes([0xF0]) + a[6:]),
     "LUT index bit width 0 (TFLite Micro takes 1 to 7)"),
    ("index out of range", lambda e, a: tflm_decode.lut([np.array([-7, 3, 9], np.int8)],
                                                       np.arange(12) % 4, 2),
     "element 3 reads value 3 of channel 0's table (stride 3), past the 3 values"),
]


def test_good_decode_conv_is_kept_compressed(tmp_path):
    p = convert(tmp_path, decode_conv(*good_lut()), "--weights.format", "table")
    assert p.returncode == 0, p.stderr
    # 12 weights in the interleaved layout's 64 bytes: the bitmap is smallest
    assert stored(tmp_path)["op1.weights_table"][0] == "bitmap", stored(tmp_path)


@pytest.mark.parametrize("name,corrupt,says", BAD, ids=[b[0] for b in BAD])
def test_bad_lut_feeding_a_convolution_is_one_line(tmp_path, name, corrupt, says):
    p = convert(tmp_path, decode_conv(*corrupt(*good_lut())))
    assert p.returncode != 0
    lines = [line for line in p.stderr.splitlines() if "error" in line]
    assert len(lines) == 1, p.stderr
    assert "m.tflite: operator 0 (TFLM_DECODE): output 0" in lines[0] and says in lines[0], \
        lines[0]
    assert not (tmp_path / "out").exists()


# ---- Huffman data that would make a bad code, when the DECODE feeds a CONV_2D

def good_huffman():
    """12 weights of 6 values, a first lookup of 2 bits: longer codes go
    through second-level tables."""
    return tflm_decode.huffman(np.array([0, 0, 0, 0, 0, 0, 3, 3, -5, 17, -60, 101], np.int8),
                               True, 2)


def pointer_past_tables(encoded, ancillary):
    """A first-level entry that leads to a second table, its offset made
    to point past every entry."""
    a = bytearray(ancillary)
    for at in range(16, 16 + 4 * 4, 4):
        if not a[at + 3] & 0x80:  # not a symbol: the offset of a next table
            a[at:at + 2] = b"\xff\x7f"
            return encoded, bytes(a)
    raise AssertionError("no second-level table")


BAD_HUFFMAN = [
    ("corrupted table: a code leading past the tables", pointer_past_tables,
     "a code leads to table entry"),
    ("tables cut short", lambda e, a: (e, a[:20]), "past the 1 entries of the tables"),
    ("truncated stream", lambda e, a: (e[:1], a), "past the 8 bits of the code stream"),
    ("corrupted header: version 0", lambda e, a: (e, a[:4] + b"\x00" + a[5:]),
     "Huffman format version 0"),
]


@pytest.mark.parametrize("name,corrupt,says", BAD_HUFFMAN, ids=[b[0] for b in BAD_HUFFMAN])
def test_bad_huffman_feeding_a_convolution_is_one_line(tmp_path, name, corrupt, says):
    assert convert(tmp_path, decode_conv(*good_huffman())).returncode == 0
    (tmp_path / "bad").mkdir()
    p = convert(tmp_path / "bad", decode_conv(*corrupt(*good_huffman())))
    assert p.returncode != 0
    lines = [line for line in p.stderr.splitlines() if "error" in line]
    assert len(lines) == 1, p.stderr
    assert "m.tflite: operator 0 (TFLM_DECODE): output 0" in lines[0] and says in lines[0], \
        lines[0]
    assert not (tmp_path / "bad" / "out").exists()


# ---- Huffman and Prune: decoded at conversion, then kept compressed

def decode_fc(encoded, ancillary, rows, depth):
    """FULLY_CONNECTED [2, depth] -> [2, rows] whose weights a TFLM_DECODE gives."""
    b = ModelBuilder()
    x = b.tensor([2, depth], "int8", Q(0.05, 1), name="x")
    enc = b.tensor([len(encoded)], "uint8", data=np.frombuffer(encoded, np.uint8), name="enc")
    anc = b.tensor([len(ancillary)], "uint8", data=np.frombuffer(ancillary, np.uint8),
                   name="anc")
    w = b.tensor([rows, depth], "int8", Q(0.01, 0), name="w")
    b.custom_op("TFLM_DECODE", [enc, anc], [w])
    y = b.tensor([2, rows], "int8", Q(0.5, -3), name="y")
    b.op("FULLY_CONNECTED", [x, w, -1], [y], "FullyConnectedOptions")
    return b.build([x], [y])


def skewed_weights(rng, rows=24, depth=40):
    """Few values, most of them zero (what Huffman and Prune compress well)."""
    pool = np.array([0, 0, 0, 0, 0, 0, 3, -5, 17, -60, 101], np.int8)
    return pool[rng.integers(0, len(pool), (rows, depth))]


@pytest.mark.parametrize("form", ["huffman", "prune"])
def test_skewed_huffman_and_prune_weights_are_kept_as_huffman(tmp_path, form):
    w = skewed_weights(np.random.default_rng(9))
    encoded, ancillary = (tflm_decode.huffman(w, True, 3) if form == "huffman"
                          else tflm_decode.prune(w))
    model = decode_fc(encoded, ancillary, *w.shape)
    (tmp_path / "m.tflite").write_bytes(model)
    m = module.convert(tmp_path / "m.tflite", tmp_path / "out")
    s = {t["id"]: (t["stored_format"], t["nbytes"], t["dense_nbytes"])
         for t in m.views["tensors"] if t["kind"] == "constant"}
    # 6 values, half of them zeros: about 2.2 bits a weight, less than the
    # tables' 3-bit indices (368 bytes) and the bitmap (120 + 483 bytes)
    fmt, nbytes, dense = s["op1.weights_huffman"]
    assert (fmt, dense) == ("huffman", 960) and nbytes < 368, s
    assert "op1.weights_table" not in s, s
    runs = oracle.random_inputs(model, np.random.default_rng(3), 3)
    ours = module.run(m, module.build(m), runs)
    assert difftest._count_diff(ours, oracle.run_tflm(model, runs, isolated=True))[1] == 0


def test_pruned_weights_of_many_values_are_kept_as_a_bitmap(tmp_path):
    """TFLM_DECODE's Prune over weights of many values (too many for a
    table): the bitmap of the kept values, then those values."""
    rng = np.random.default_rng(4)
    w = np.where(rng.random((24, 40)) < 0.1, rng.integers(-127, 128, (24, 40)), 0).astype(np.int8)
    model = decode_fc(*tflm_decode.prune(w), *w.shape)
    (tmp_path / "m.tflite").write_bytes(model)
    m = module.convert(tmp_path / "m.tflite", tmp_path / "out")
    s = {t["id"]: (t["stored_format"], t["dense_nbytes"])
         for t in m.views["tensors"] if t["kind"] == "constant"}
    assert s["op1.weights_table"] == ("bitmap", 960), s
    nbytes = next(t["nbytes"] for t in m.views["tensors"] if t["id"] == "op1.weights_table")
    assert nbytes < 960 // 8 + np.count_nonzero(w) + 16, nbytes  # the bitmap, the values
    runs = oracle.random_inputs(model, np.random.default_rng(3), 3)
    ours = module.run(m, module.build(m), runs)
    assert difftest._count_diff(ours, oracle.run_tflm(model, runs, isolated=True))[1] == 0


# ---- the per-channel parameters of coded layers (runtime/kernels/ta_channel_params.h)

def clustered_dw_conv(channels=32, seed=9):
    """A 3x3 DEPTHWISE_CONV_2D (SAME: border pixels start from the unfolded
    bias; an input zero point, so that differs from the folded one) then a
    1x1 CONV_2D, both per channel with 16-value weights and a bias."""
    rng = np.random.default_rng(seed)
    pool = rng.choice(np.arange(-127, 128), 16, replace=False)
    scales = [0.004 + 0.0005 * c for c in range(channels)]
    b = ModelBuilder()
    x = b.tensor([1, 6, 6, channels], "int8", Q(0.05, -20), name="x")
    dw_w = b.const(pool[rng.integers(0, 16, [1, 3, 3, channels])], "int8", Q(scales, 0, 3),
                   name="dw_w")
    dw_b = b.tensor([channels], "int32", Q([0.05 * s for s in scales], 0, 0), name="dw_b",
                    data=rng.integers(-3000, 3000, channels))
    h = b.tensor([1, 6, 6, channels], "int8", Q(0.08, 4), name="h")
    b.op("DEPTHWISE_CONV_2D", [x, dw_w, dw_b], [h], "DepthwiseConv2DOptions", padding="SAME",
         strideH=1, strideW=1, depthMultiplier=1)
    pw_w = b.const(pool[rng.integers(0, 16, [channels, 1, 1, channels])], "int8",
                   Q(scales, 0, 0), name="pw_w")
    pw_b = b.tensor([channels], "int32", Q([0.08 * s for s in scales], 0, 0), name="pw_b",
                    data=rng.integers(-3000, 3000, channels))
    y = b.tensor([1, 6, 6, channels], "int8", Q(0.1, -3), name="y")
    b.op("CONV_2D", [h, pw_w, pw_b], [y], "Conv2DOptions", padding="SAME", strideH=1, strideW=1)
    return b.build([x], [y])


def test_coded_layers_store_compact_channel_params(tmp_path):
    """Shifts a byte each, the depthwise layer's unfolded bias rebuilt, not
    stored; the outputs those of the dense module and TFLite Micro."""
    model = clustered_dw_conv()
    assert convert(tmp_path, model, "--weights.format", "table").returncode == 0
    ids = stored(tmp_path)
    for op in ("op0", "op1"):
        assert ids[f"{op}.shifts_s8"][1] == 32 and f"{op}.shifts" not in ids, ids
    assert "op0.bias" not in ids and "op0.bias_sum" in ids, ids
    dense = tmp_path / "dense"
    dense.mkdir()
    assert convert(dense, model, "--weights.format", "dense").returncode == 0
    assert "op0.bias" in stored(dense) and "op0.shifts" in stored(dense)
    runs = oracle.random_inputs(model, np.random.default_rng(3), 3)
    outs = {}
    for fmt in ("table", "dense"):
        m = module.convert(tmp_path / "m.tflite", tmp_path / f"mod-{fmt}",
                           keys={"weights.format": fmt})
        outs[fmt] = module.run(m, module.build(m), runs)
    assert difftest._count_diff(outs["table"], outs["dense"])[1] == 0
    assert difftest._count_diff(outs["table"], oracle.run_tflm(model, runs, isolated=True))[1] == 0


@pytest.mark.qemu
@pytest.mark.parametrize("board,target", BOARDS, ids=[b for b, _ in BOARDS])
def test_compact_channel_params_match_tflm_on_boards(tmp_path, board, target):
    """The Helium and DSP depthwise paths, which read the rebuilt bias at
    the border."""
    models = [(f"dw_conv_{c}", clustered_dw_conv(c, seed=c)) for c in (16, 32, 40)]
    b = batch.build_batch_qemu(models, tmp_path, board, target, keys={"weights.format": "table"})
    assert not b.errors, b.errors
    runs = [oracle.random_inputs(m, np.random.default_rng(4), 2) for _, m in models]
    results = batch.run_cases_qemu(b, list(enumerate(runs)))
    for i, (name, model) in enumerate(models):
        expected = oracle.run_tflm(model, runs[i], isolated=True)
        assert not isinstance(results.get(i), str) and results.get(i) is not None, results.get(i)
        assert difftest._count_diff(results[i], expected)[1] == 0, name
