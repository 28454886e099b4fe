"""Row streaming (docs/row-streaming.md): chains of window layers run band by
band with row buffers, bit-exact with TFLite Micro on the host; a row buffer
one row short is refused by the conversion's schedule check
(memory.row_streaming_test_shortfall); memory.row_streaming: off is today's
module."""

import os

import numpy as np
import pytest

from tests.gen.ops.chain import _conv, _input
from tests.harness import difftest, module, oracle

# Narrow input and output, wide intermediates: the chain makes the arena
# smaller, so least_ram keeps it. layers: (kind, out_c, k, stride, padding)
CASES = {
    "s1_same_conv_dw_conv": ([1, 12, 6, 2], [("conv", 16, 3, 1, "SAME"),
                                             ("dw", 16, 3, 1, "SAME"),
                                             ("conv", 2, 1, 1, "SAME")]),
    "s2_valid_dw_s2": ([1, 41, 9, 2], [("conv", 32, 3, 2, "VALID"),
                                       ("dw", 32, 3, 2, "SAME"),
                                       ("conv", 2, 1, 1, "VALID")]),
    "pools": ([1, 12, 8, 2], [("conv", 16, 3, 1, "SAME"), ("MAX_POOL_2D", 16, 2, 2, "SAME"),
                              ("conv", 16, 1, 1, "SAME"), ("AVERAGE_POOL_2D", 16, 3, 1, "SAME"),
                              ("conv", 2, 1, 1, "SAME")]),
    "one_row": ([1, 1, 20, 2], [("conv", 16, 3, 1, "SAME"), ("dw", 16, 3, 1, "SAME"),
                                ("conv", 2, 1, 1, "SAME")]),
    "one_column": ([1, 20, 1, 2], [("conv", 16, 3, 1, "SAME"), ("dw", 16, 3, 1, "SAME"),
                                   ("conv", 2, 1, 1, "SAME")]),
    # dilation 2 (SAME: the output size does not depend on it): spans 5 and 7 rows
    "dilated": ([1, 16, 6, 2], [("conv", 16, 3, 1, "SAME", 2), ("dw", 16, 4, 1, "SAME", 2),
                                ("conv", 2, 1, 1, "SAME")]),
    # an average pool over every row ends the chain, summing rows band by band
    "summing_pool": ([1, 20, 6, 2], [("conv", 16, 3, 1, "SAME"), ("dw", 16, 3, 2, "SAME"),
                                     ("conv", 16, 1, 1, "SAME"),
                                     ("AVERAGE_POOL_2D", 16, 10, 10, "SAME")]),
    # 21 channels: the summing pool's Helium pass of 16, a predicated 4 and
    # 1; its DSP words of 4 and a channel alone
    "summing_pool_21": ([1, 20, 6, 2], [("conv", 21, 3, 1, "SAME"), ("dw", 21, 3, 2, "SAME"),
                                        ("conv", 21, 1, 1, "SAME"),
                                        ("AVERAGE_POOL_2D", 21, 10, 10, "SAME")]),
    "kh10": ([1, 24, 12, 2], [("conv", 16, 1, 1, "SAME"), ("dw", 16, 10, 1, "VALID"),
                              ("conv", 2, 1, 1, "SAME")]),
    # average pools of several output rows whose windows tile the rows end
    # the chain summed band by band, each output row written as its
    # window completes: 3x3 stride 3 (no padding; SAME with a clipped
    # first and last window), 4x4 stride 4 VALID; and one whose last row is
    # in no window (VALID 21 rows), a window as before
    "pool_rows_s3": ([1, 18, 8, 2], [("conv", 16, 3, 1, "SAME"), ("dw", 16, 3, 1, "SAME"),
                                     ("AVERAGE_POOL_2D", 16, 3, 3, "SAME")]),
    "pool_rows_clipped": ([1, 16, 8, 2], [("conv", 16, 3, 1, "SAME"), ("dw", 16, 3, 1, "SAME"),
                                          ("AVERAGE_POOL_2D", 16, 3, 3, "SAME")]),
    "pool_rows_valid4": ([1, 20, 12, 2], [("conv", 16, 3, 1, "SAME"), ("conv", 16, 1, 1, "SAME"),
                                          ("AVERAGE_POOL_2D", 16, 4, 4, "VALID")]),
    "pool_rows_uncovered": ([1, 21, 12, 2], [("conv", 16, 3, 1, "SAME"),
                                             ("AVERAGE_POOL_2D", 16, 4, 4, "VALID"),
                                             ("conv", 2, 1, 1, "SAME")]),
    # pools whose windows overlap (stride < filter) in the middle of a
    # chain: a window like a convolution's, their input a ring of the
    # filter's rows (OVERLAPPING_POOLS)
    "overlap_max3s2_same": ([1, 21, 8, 2], [("conv", 16, 3, 1, "SAME"),
                                            ("MAX_POOL_2D", 16, 3, 2, "SAME"),
                                            ("dw", 16, 3, 1, "SAME"), ("conv", 2, 1, 1, "SAME")]),
    "overlap_avg3s2_valid": ([1, 20, 9, 2], [("conv", 16, 3, 1, "SAME"),
                                             ("AVERAGE_POOL_2D", 16, 3, 2, "VALID"),
                                             ("conv", 16, 1, 1, "SAME"),
                                             ("conv", 2, 1, 1, "SAME")]),
    "overlap_max5s1_avg4s3": ([1, 16, 8, 2], [("conv", 16, 1, 1, "SAME"),
                                              ("MAX_POOL_2D", 16, 5, 1, "SAME"),
                                              ("AVERAGE_POOL_2D", 16, 4, 3, "SAME"),
                                              ("conv", 2, 1, 1, "SAME")]),
}
# The overlapping pools' cases: the rows each row buffer keeps (buffer j:
# layer j - 1's output), the pools' inputs their filter's rows.
OVERLAPPING_POOLS = {"overlap_max3s2_same": [3, 3, 1], "overlap_avg3s2_valid": [3, 1, 1],
                     "overlap_max5s1_avg4s3": [5, 4, 1]}
# The cases whose pool is summed a band at a time with several output rows.
POOL_ROWS = {"pool_rows_s3", "pool_rows_clipped", "pool_rows_valid4"}


NO_SAVING = {"one_row"}


@pytest.fixture(autouse=True)
def testing_switch(monkeypatch):
    monkeypatch.setenv("TINYAOT_TESTING", "1")


def taps_reach(n, k, stride, dilation):
    """Whether every output of a SAME window (k taps `dilation` apart)
    along a dimension of n has a tap inside the input."""
    out, span = -(-n // stride), (k - 1) * dilation + 1
    pad = max((out - 1) * stride + span - n, 0) // 2
    return all(any(0 <= o * stride - pad + t * dilation < n for t in range(k)) for o in range(out))


def drawn_case(seed):
    """A random chain: 2-4 window layers, strides 1/2, SAME/VALID,
    dilation 1/2 (SAME), kernels up to 10 rows, one-row and one-column
    inputs among the shapes, wide intermediates and a narrow end."""
    rng = np.random.default_rng(1000 + seed)
    general = (int(rng.integers(8, 25)), int(rng.integers(2, 9)))
    h, w = [(1, 12), (16, 1), general, general][seed % 4]
    shape, layers = [1, h, w, 2], []
    for i in range(int(rng.integers(2, 5))):
        kind = ["conv", "dw", "MAX_POOL_2D", "AVERAGE_POOL_2D"][int(rng.integers(0, 4))] if i else "conv"
        k = int(rng.integers(1, min(10, h) + 1))
        if kind.endswith("POOL_2D"):
            k = min(k, w)  # square windows: at most as wide as the input
        stride = int(rng.integers(1, 3))
        dilation = int(rng.integers(1, 3)) if kind in ("conv", "dw") and k > 1 else 1
        padding = "SAME" if dilation > 1 or k > h or k > w or rng.random() < 0.5 else "VALID"
        if not (taps_reach(h, k, stride, dilation) and taps_reach(w, k, stride, dilation)):
            dilation = 1  # an output whose dilated window reads padding only
        layers.append((kind, 32, k, stride, padding) + ((dilation,) if dilation > 1 else ()))
        h = -(-h // stride) if padding == "SAME" else (h - k) // stride + 1
        w = -(-w // stride) if padding == "SAME" else (w - k) // stride + 1
    layers.append(("conv", 2, 1, 1, "SAME"))
    return shape, layers


# TINYAOT_ROW_DRAWN draws more (a longer sweep: 60 took 2 minutes).
DRAWN = int(os.environ.get("TINYAOT_ROW_DRAWN", "12"))


# A model whose outputs hardly vary (a layer saturating, which random
# weights and quantization sometimes draw) makes byte-equality with
# TFLite Micro show little: each model below is drawn again (seed + 1000,
# + 2000, ...) until the test inputs' outputs take at least VARIED values
# (half as many as there are, for smaller outputs).
VARIED = 8


def varied(build, seed):
    for i in range(50):
        path = build(seed + 1000 * i)
        data = path.read_bytes()
        outs = oracle.run_tflm(data, oracle.random_inputs(data, np.random.default_rng(7), 2))
        values = np.concatenate([np.asarray(o).ravel() for o in outs])
        if len(np.unique(values)) >= min(VARIED, len(values) // 2):
            return path
    raise AssertionError(f"{path.name}: 50 draws whose outputs hardly vary")


def chain_model(tmp_path, name, seed=0):
    shape, layers = CASES[name] if name in CASES else drawn_case(int(name.split("_")[1]))
    return varied(lambda s: build_model(tmp_path, name, shape, layers, s), seed)


def build_model(tmp_path, name, shape, layers, seed):
    from tests.gen.builder import ModelBuilder
    rng = np.random.default_rng(seed)
    b = ModelBuilder()
    x, q = _input(b, rng, shape)
    t, tshape, tq = x, shape, q
    plain_op = b.op
    for i, (kind, out_c, k, stride, padding, *dilation) in enumerate(layers):
        if dilation:
            d = dilation[0]
            b.op = lambda *a, **f: plain_op(*a, **f, dilationHFactor=d, dilationWFactor=d)
        else:
            b.op = plain_op
        if kind.endswith("POOL_2D"):
            oh = -(-tshape[1] // stride) if padding == "SAME" else (tshape[1] - k) // stride + 1
            ow = -(-tshape[2] // stride) if padding == "SAME" else (tshape[2] - k) // stride + 1
            y = b.tensor([1, oh, ow, tshape[3]], "int8", tq, name=f"pool{i}")
            b.op(kind, [t], [y], "Pool2DOptions", padding=padding, strideH=stride,
                 strideW=stride, filterHeight=k, filterWidth=k, fusedActivationFunction="NONE")
            t, tshape = y, [1, oh, ow, tshape[3]]
        else:
            t, tshape, tq, _ = _conv(b, rng, t, tshape, tq, out_c, kind=kind, k=k,
                                     stride=stride, padding=padding, name=f"layer{i}")
    b.op = plain_op
    path = tmp_path / f"{name}.tflite"
    path.write_bytes(b.build(inputs=[x], outputs=[t]))
    return path


def chained(m):
    return any("_row_steps[" in p.read_text() for p in (m.path / "ops").glob("*.c"))


@pytest.mark.parametrize("name", sorted(CASES))
def test_row_chain_is_bit_exact_on_the_host(tmp_path, name):
    model = chain_model(tmp_path, name)
    m = module.convert(model, tmp_path / "m", keys={"memory.row_streaming": "least_ram"})
    # A one-row input leaves nothing to save: no chain, the same outputs.
    assert chained(m) == (name not in NO_SAVING), "the case no longer tests what it says"
    exe = module.build(m)
    data = model.read_bytes()
    ins = oracle.random_inputs(data, np.random.default_rng(3), 4)
    total, diff = difftest._count_diff(module.run(m, exe, ins),
                                       oracle.run_tflm(data, ins, isolated=True))
    assert diff == 0, f"{diff} of {total} bytes differ from TFLite Micro"


def test_drawn_chains_are_bit_exact_on_the_host(tmp_path):
    """Random chains (drawn_case), bit-exact whether or not least_ram keeps
    their chain (it does where the arena shrinks: not for one-row inputs)."""
    kept = []
    for i in range(DRAWN):
        name = f"drawn_{i}"
        model = chain_model(tmp_path, name)
        m = module.convert(model, tmp_path / name, keys={"memory.row_streaming": "least_ram"})
        kept.append(chained(m))
        exe = module.build(m)
        data = model.read_bytes()
        ins = oracle.random_inputs(data, np.random.default_rng(i), 2)
        total, diff = difftest._count_diff(module.run(m, exe, ins),
                                           oracle.run_tflm(data, ins, isolated=True))
        assert diff == 0, f"{name} {drawn_case(i)}: {diff} of {total} bytes differ"
    assert sum(kept) >= DRAWN // 3, kept  # a one-row input never chains


@pytest.mark.qemu
@pytest.mark.parametrize("board", ["mps3-an547", "mps2-an386"])
def test_row_chains_are_bit_exact_on_cortex_m(tmp_path, board):
    """The Helium (M55) and DSP (M4) kernel paths on bands."""
    for name in sorted(set(CASES) - NO_SAVING) + ["drawn_2", "drawn_3", "drawn_7"]:
        model = chain_model(tmp_path, name, seed=1)
        m = module.convert(model, tmp_path / name, keys={"memory.row_streaming": "least_ram"})
        assert chained(m), name
        total, diff = difftest.against_tflm(m, model, seed=5, board=board)
        assert total > 0 and diff == 0, f"{name} on {board}: {diff} of {total} bytes differ"


def test_pools_of_several_rows_are_summed_per_row(tmp_path):
    """A pool in POOL_ROWS: its band functions add rows to the sums and
    write an output row where a window completes (no _finish at the end);
    its input a one-row buffer; the uncovered one a window of 4 rows."""
    for name in sorted(POOL_ROWS) + ["pool_rows_uncovered"]:
        model = chain_model(tmp_path, name)
        m = module.convert(model, tmp_path / name, keys={"memory.row_streaming": "least_ram"})
        text = "".join(p.read_text() for p in (m.path / "ops").glob("*.c"))
        per_row = "ta_average_pool_finish_s8(&p" in text and "_finish(void)" not in text
        assert per_row == (name in POOL_ROWS), name
        buffers = analyze(model, "least_ram")["row_chains"][0]["row_buffers"]
        pool_input = buffers[-1] if name in POOL_ROWS else buffers[0]  # the pool's layer
        assert pool_input["rows"] == (1 if name in POOL_ROWS else 4), (name, buffers)


@pytest.mark.parametrize("name", sorted(OVERLAPPING_POOLS))
def test_overlapping_pools_keep_a_ring_of_their_filter_rows(tmp_path, name):
    """A MAX or AVERAGE pool whose windows overlap, in the middle of a
    chain: its input keeps the filter's rows (no more), shown in analyze
    and the residency report; one row fewer is refused (the bit-exact
    runs: the CASES tests on the host and both boards)."""
    import json
    model = chain_model(tmp_path, name)
    a = analyze(model, "least_ram")
    (chain,) = a["row_chains"]
    assert (chain["first_layer"], chain["last_layer"]) == (0, 3)
    if name == "overlap_max3s2_same":  # docs/row-streaming.md's figures
        assert total_ram(a) <= 1008 and total_ram(analyze(model, "off")) == 2704
    assert [b["rows"] for b in chain["row_buffers"]] == OVERLAPPING_POOLS[name], chain
    m = module.convert(model, tmp_path / "m", keys={"memory.row_streaming": "least_ram",
                                                    "memory.dump_residency_json": "true"})
    residency = json.loads(next(m.path.glob("*residency*.json")).read_text())
    assert len([t for t in residency["tensors"] if t.get("row_buffer")]) == 3
    assert "ta_max_pool_s8" in band_kernels(m) or "ta_average_pool_s8" in band_kernels(m)
    refused_one_row_short(tmp_path, model)


def drawn_pool_rows(seed):
    """A chain ending in an average pool of k x k windows, stride k (SAME
    or VALID), over 2-30 rows of widths 1-12: summed per row where the
    windows tile the rows and that saves bytes, a window otherwise."""
    rng = np.random.default_rng(3000 + seed)
    h, w, k = int(rng.integers(2, 31)), int(rng.integers(1, 13)), int(rng.integers(2, 6))
    k = min(k, w, h)
    padding = "SAME" if rng.random() < 0.5 else "VALID"
    return [1, h, w, 2], [("conv", 16, 3, 1, "SAME"), ("dw", 16, 3, 1, "SAME"),
                          ("AVERAGE_POOL_2D", 16, k, k, padding)]


# TINYAOT_ROW_DRAWN_POOLS draws more.
DRAWN_POOLS = int(os.environ.get("TINYAOT_ROW_DRAWN_POOLS", "6"))


def test_drawn_pool_rows_are_bit_exact_on_the_host(tmp_path):
    for i in range(DRAWN_POOLS):
        shape, layers = drawn_pool_rows(i)
        model = varied(lambda s: build_model(tmp_path, f"pools_{i}", shape, layers, s), i)
        m = module.convert(model, tmp_path / f"pools_{i}", keys={"memory.row_streaming": "least_ram"})
        exact_on(m, model, 2)


@pytest.mark.parametrize("name", ["s1_same_conv_dw_conv", "kh10", "dilated", "pool_rows_clipped"])
def test_row_buffer_one_row_short_is_refused(tmp_path, name):
    refused_one_row_short(tmp_path, chain_model(tmp_path, name))


def refused_one_row_short(tmp_path, model):
    """Every row buffer a row short: the conversion's check refuses it."""
    with pytest.raises(module.ConvertError) as e:
        module.convert(model, tmp_path / "m", keys={"memory.row_streaming": "least_ram",
                                                    "memory.row_streaming_test_shortfall": "1"})
    assert "row chain at layer" in str(e.value)


# Run anyway (memory.row_streaming_test_unchecked), every row buffer one
# row short is scheduled losing the oldest rows its readers still need
# (a band reads them as padding): the outputs break, while at the size
# the conversion keeps they are TFLite Micro's. On the boards the keyword
# spotter, its Helium and DSP kernels.
SHORT_RUNS = [(n, None) for n in ("kws", "s1_same_conv_dw_conv", "kh10", "dilated", "pools",
                                          "pool_rows_clipped", "summing_pool")] + [
    pytest.param("kws", board, marks=pytest.mark.qemu) for board in ("mps3-an547", "mps2-an386")]


@pytest.mark.parametrize("name, board", SHORT_RUNS)
def test_row_buffer_one_row_short_breaks_the_output(tmp_path, name, board):
    model = KWS if name == "kws" else chain_model(tmp_path, name)
    keys = {"memory.row_streaming": "least_ram"}
    short = module.convert(model, tmp_path / "short",
                           keys={**keys, "memory.row_streaming_test_shortfall": "1",
                                 "memory.row_streaming_test_unchecked": "true"})
    assert "wrong results" in short.stderr and chained(short)
    total, diff = outputs_differ(short, model, board)
    assert total > 0 and diff > 0, f"{name}: buffers a row short gave the right bytes"
    real = module.convert(model, tmp_path / "real", keys=keys)
    total, diff = outputs_differ(real, model, board)
    assert total > 0 and diff == 0, f"{name}: {diff} of {total} bytes differ at the buffers' size"


def test_off_writes_no_chain(tmp_path):
    model = chain_model(tmp_path, "s1_same_conv_dw_conv")
    m = module.convert(model, tmp_path / "m", keys={"memory.row_streaming": "off"})
    assert not chained(m)


def analyze(model, mode):
    import json
    import subprocess
    p = subprocess.run([module.tinyaot_bin(), "analyze", "--model.path", str(model),
                        "--memory.row_streaming", mode, "--format", "json"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def total_ram(a):
    return sum(m["scratch"] + m["persistent"] for m in a["memories"])


def test_shared_models_ram():
    """person_detect and the keyword spotter by default (auto) reach this
    version's figures (docs/row-streaming.md); off leaves the keyword
    spotter as it was. Its four one-row buffers after the first depthwise
    layer share bytes with other row buffers (4,976 bytes, 6,256 before;
    issue 25's goal 5,000)."""
    pd = analyze(module.MODELS / "tflm_person_detect.tflite", "auto")
    assert total_ram(pd) <= 22272 < 32000 and len(pd["row_chains"]) == 2
    assert pd["row_arena_with"] < pd["row_arena_without"]
    kws = module.MODELS / "mlperf_tiny_kws_ref_model.tflite"
    least = analyze(kws, "least_ram")
    assert total_ram(least) <= 4976 < 5000 and least["row_chains"][0]["last_layer"] == 9
    shared = [b for b in least["row_chains"][0]["row_buffers"] if b["shares"]]
    assert len(shared) == 4 and all(b["rows"] == 1 for b in shared), shared
    auto = analyze(kws, "auto")
    assert total_ram(auto) == 4976 and len(auto["row_chains"]) == 1, auto["row_chains"]
    assert total_ram(analyze(kws, "off")) == 8768


KWS = module.MODELS / "mlperf_tiny_kws_ref_model.tflite"


@pytest.mark.parametrize("board", [None, pytest.param("mps3-an547", marks=pytest.mark.qemu),
                                   pytest.param("mps2-an386", marks=pytest.mark.qemu)])
def test_keyword_spotter_shared_row_buffers_are_bit_exact(tmp_path, board):
    """The keyword spotter with least_ram, its row buffers sharing bytes,
    byte-equal to TFLite Micro on the host and both boards."""
    m = module.convert(KWS, tmp_path / "m", keys={"memory.row_streaming": "least_ram"})
    assert chained(m)
    exact_on(m, KWS, 2, board)


@pytest.mark.parametrize("model, keys", [
    (KWS, {"memory.row_streaming_test_share_all": "true"}),
    (None, {"memory.row_streaming_test_share_all": "true"}),
    (KWS, {"memory.row_streaming_test_shortfall": "1"}),
])
def test_wrongly_shared_or_short_shared_row_buffer_is_refused(tmp_path, model, keys):
    """Row buffers sharing bytes while their rows are live (every one in the
    largest's bytes), or shared buffers one row short: the check replays the
    steps over the shared bytes and refuses the schedule."""
    model = model or chain_model(tmp_path, "s1_same_conv_dw_conv")
    with pytest.raises(module.ConvertError) as e:
        module.convert(model, tmp_path / "m", keys={"memory.row_streaming": "least_ram", **keys})
    assert "row chain at layer" in str(e.value)
    if "share_all" in str(keys):  # a band writing over its own input, or a row lost later
        assert ("sharing its bytes, overwrote" in str(e.value) or
                "writes over the rows it reads (its output shares their bytes)" in str(e.value))


def outputs_differ(m, model, board=None, runs=2):
    return difftest.against_tflm(m, model, runs=runs, seed=7, board=board)


# Poisoned sharings: every buffer in the largest's bytes (share_all), and
# an off-by-one one, each row's bytes free from the step before its last
# read (share_early: a band then writes its output over the rows it is
# reading).
POISONED_SHARING = [("kws", "share_all"), ("kws", "share_early"),
                    ("s1_same_conv_dw_conv", "share_all"), ("dilated", "share_all"),
                    ("summing_pool", "share_early")]
# Those whose real schedule shares bytes too (the others: none at all).
REALLY_SHARED = {"kws", "summing_pool"}


# On the boards: not share_early on Cortex-M4, whose keyword spotter then
# writes each 1x1 layer's output row over its own input row only, which
# the DSP 1x1 kernel takes in place (every pixel widened, in pairs and an
# odd last one, before its outputs are written): the right bytes.
@pytest.mark.parametrize("name, poison, board", [(*c, None) for c in POISONED_SHARING] + [
    pytest.param("kws", poison, board, marks=pytest.mark.qemu)
    for poison, board in (("share_all", "mps3-an547"), ("share_early", "mps3-an547"),
                          ("share_all", "mps2-an386"))])
def test_poisoned_sharing_is_refused_and_breaks_the_output(tmp_path, name, poison, board):
    """A wrong sharing of row buffers' bytes is refused at conversion; run
    anyway (memory.row_streaming_test_unchecked) it gives wrong outputs,
    while the real sharing gives TFLite Micro's, so the check guards
    something the outputs show. On the boards the keyword spotter (its
    Helium and DSP kernels)."""
    model = KWS if name == "kws" else chain_model(tmp_path, name)
    keys = {"memory.row_streaming": "least_ram", f"memory.row_streaming_test_{poison}": "true"}
    with pytest.raises(module.ConvertError) as e:
        module.convert(model, tmp_path / "refused", keys=keys)
    assert "row chain at layer" in str(e.value)
    bad = module.convert(model, tmp_path / "bad",
                         keys={**keys, "memory.row_streaming_test_unchecked": "true"})
    assert "wrong results" in bad.stderr and chained(bad)
    total, diff = outputs_differ(bad, model, board)
    assert total > 0 and diff > 0, f"{name} {poison}: the poisoned sharing gave the right bytes"
    real = module.convert(model, tmp_path / "real", keys={"memory.row_streaming": "least_ram"})
    assert "wrong results" not in real.stderr
    chains = analyze(model, "least_ram")["row_chains"]
    assert any(b["shares"] for c in chains for b in c["row_buffers"]) == (name in REALLY_SHARED)
    total, diff = outputs_differ(real, model, board)
    assert total > 0 and diff == 0, f"{name}: {diff} of {total} bytes differ with the real sharing"


def step_counts(m):
    """Entries of every chain's step table in the module."""
    import re
    return [int(n) for p in sorted((m.path / "ops").glob("*.c"))
            for n in re.findall(r"_row_steps\[(\d+)\] =", p.read_text())]


LOOP_CASES = ["s2_valid_dw_s2", "summing_pool", "pools"]


@pytest.mark.parametrize("name", LOOP_CASES)
def test_loops_run_the_table_schedule(tmp_path, name):
    """memory.row_streaming_loops (the default) stores a chain's repeating
    steps once: fewer table entries than the table of every step
    (row_streaming_loops: false), the same bytes out, TFLite Micro's."""
    model = chain_model(tmp_path, name)
    data = model.read_bytes()
    ins = oracle.random_inputs(data, np.random.default_rng(7), 2)
    want = oracle.run_tflm(data, ins, isolated=True)
    outs, counts = {}, {}
    for loops in ("true", "false"):
        m = module.convert(model, tmp_path / loops, keys={"memory.row_streaming": "least_ram",
                                                          "memory.row_streaming_loops": loops})
        counts[loops] = step_counts(m)
        outs[loops] = module.run(m, module.build(m), ins)
        total, diff = difftest._count_diff(outs[loops], want)
        assert total > 0 and diff == 0, f"loops {loops}: {diff} of {total} bytes differ"
    assert sum(counts["true"]) < sum(counts["false"]), counts


def test_person_detect_chains_run_as_loops(tmp_path):
    """person_detect's two chains: 235 and 115 steps as tables, a few dozen as loops."""
    model = module.MODELS / "tflm_person_detect.tflite"
    loops = step_counts(module.convert(model, tmp_path / "loops"))
    table = step_counts(module.convert(model, tmp_path / "table",
                                       keys={"memory.row_streaming_loops": "false"}))
    assert table == [235, 115] and sum(loops) <= 60, (loops, table)


@pytest.mark.qemu
@pytest.mark.parametrize("board", ["mps3-an547", "mps2-an386"])
def test_table_schedule_on_cortex_m(tmp_path, board):
    """The one-pass table (memory.row_streaming_loops: false) on both boards;
    the loops run in test_row_chains_are_bit_exact_on_cortex_m."""
    model = chain_model(tmp_path, "s2_valid_dw_s2", seed=1)
    m = module.convert(model, tmp_path / "m", keys={"memory.row_streaming": "least_ram",
                                                    "memory.row_streaming_loops": "false"})
    total, diff = difftest.against_tflm(m, model, seed=5, board=board)
    assert total > 0 and diff == 0, f"{diff} of {total} bytes differ on {board}"


def test_resnet8_ram():
    """ResNet-8 by default (auto): one chain of its three residual blocks
    and the summing pool, 15,168 bytes of RAM (issue 25's goal: 16,000;
    its fused convolutions' pieces a whole 512-byte row each, one call per
    band; the pool's one-row input in another row buffer's bytes); 32,960
    with off, as before residual blocks ran in chains."""
    r8 = module.MODELS / "mlperf_tiny_ic_resnet8_quant.tflite"
    auto = analyze(r8, "auto")
    assert total_ram(auto) <= 15168 < 16000, total_ram(auto)
    chains = auto["row_chains"]
    assert len(chains) == 1 and (chains[0]["first_layer"], chains[0]["last_layer"]) == (0, 9)
    residual = [b for b in chains[0]["row_buffers"] if b["residual_of"] >= 0]
    assert len(residual) == 3 and max(b["readers"] for b in residual) == 2
    assert total_ram(analyze(r8, "off")) == 32960


# Residual blocks in chains: stem CONV_2D -> block (main: CONV_2D stride s,
# CONV_2D; skip: the block input, or a 1x1 CONV_2D stride s) -> ADD ->
# a 1x1 CONV_2D to two channels. name: (input shape, width, stride, skip,
# main's padding, main's second layer). FUSE_RESIDUAL_ADD fuses the ADD
# into a convolution (the long branch's, or the 1x1 skip's after a
# depthwise one): the residual is the fused layer's second input, held in
# a row buffer; after a depthwise layer with an identity skip the ADD
# stays a layer of its own, its second operand read the same way.
RESIDUAL = {
    "identity_same": ([1, 14, 6, 2], 16, 1, "identity", "SAME", "conv"),
    "conv1x1_s2_same": ([1, 15, 7, 2], 16, 2, "conv", "SAME", "conv"),
    "conv1x1_s1": ([1, 12, 5, 2], 16, 1, "conv", "SAME", "conv"),
    "conv1x1_s2_even": ([1, 16, 6, 2], 32, 2, "conv", "SAME", "conv"),
    "separate_add": ([1, 13, 6, 2], 16, 1, "identity", "SAME", "dw"),
    "skip_fused_s2": ([1, 14, 5, 2], 16, 2, "conv", "SAME", "dw"),
}


def drawn_residual(seed):
    """A random residual block: heights 1-20, widths 1-9, stride 1 or 2,
    an identity skip (stride 1) or a 1x1 one, the long branch's layers of
    kernels 1-5 (the second a depthwise one at times), with a sum's second
    block behind the first half the time (RESIDUAL's tuple, plus blocks
    and kernels)."""
    rng = np.random.default_rng(2000 + seed)
    shape = [1, int(rng.integers(1, 21)), int(rng.integers(1, 10)), 2]
    stride = int(rng.integers(1, 3))
    skip = "conv" if stride == 2 or rng.random() < 0.4 else "identity"
    second = "dw" if rng.random() < 0.3 else "conv"
    kernels = (int(rng.choice([1, 3, 5])), int(rng.choice([1, 3])))
    return (shape, int(rng.choice([8, 16, 24])), stride, skip, "SAME", second,
            int(rng.integers(1, 3)), kernels)


def residual_model(tmp_path, name, seed=0):
    return varied(lambda s: _residual_model(tmp_path, name, s), seed)


def _residual_model(tmp_path, name, seed):
    from tests.gen.builder import ModelBuilder
    from tests.gen.common import Q, draw_zero_point, f32
    spec = RESIDUAL[name] if name in RESIDUAL else drawn_residual(int(name.split("_")[1]))
    shape, width, stride, skip, padding, second = spec[:6]
    blocks, (k1, k2) = spec[6:] if len(spec) > 6 else (1, (3, 3))
    rng = np.random.default_rng(seed)
    b = ModelBuilder()
    x, q = _input(b, rng, shape)
    t, tshape, tq, _ = _conv(b, rng, x, shape, q, width, k=3, stride=1, padding="SAME",
                             act="RELU", name="stem")
    for i in range(blocks):
        s_i = stride if i == 0 else 1  # a second block: identity skip
        a, ashape, aq, _ = _conv(b, rng, t, tshape, tq, width, k=k1, stride=s_i,
                                 padding=padding, act="RELU", name=f"main1_{i}")
        a, ashape, aq, _ = _conv(b, rng, a, ashape, aq, width, kind=second, k=k2, stride=1,
                                 padding="SAME", act="NONE", name=f"main2_{i}")
        if skip == "identity" or i > 0:
            s, sq = t, tq
        else:
            s, _, sq, _ = _conv(b, rng, t, tshape, tq, width, k=1, stride=s_i,
                                padding="SAME", act="NONE", name=f"skip_{i}")
        oq = Q(f32(max(aq.scale, sq.scale) * 2), draw_zero_point(rng, "int8"))
        y = b.tensor(ashape, "int8", oq, name=f"sum_{i}")
        b.op("ADD", [a, s], [y], "AddOptions", fusedActivationFunction="RELU")
        t, tshape, tq = y, ashape, oq
    out, _, _, _ = _conv(b, rng, t, tshape, tq, 2, k=1, stride=1, padding="SAME",
                         act="NONE", name="head")
    path = tmp_path / f"{name}.tflite"
    path.write_bytes(b.build(inputs=[x], outputs=[out]))
    return path


def residual_chained(m):
    """Whether a chain holds a residual (a step table with from2)."""
    return any("from2" in p.read_text() for p in (m.path / "ops").glob("*.c"))


def separate_add_chained(m):
    return any("_band(" in p.read_text() and "ta_add_s8(" in p.read_text()
               for p in (m.path / "ops").glob("*.c"))


def exact_on(m, model, runs, board=None):
    total, diff = outputs_differ(m, model, board, runs)
    assert total > 0 and diff == 0, f"{model.name} on {board or 'host'}: {diff} of {total} differ"


AUTO_TOO = {"identity_same", "conv1x1_s2_even"}
ON_BOARDS = ["conv1x1_s2_same", "identity_same", "separate_add", "skip_fused_s2"]


@pytest.mark.parametrize("name", sorted(RESIDUAL))
def test_residual_chain_is_bit_exact_on_the_host(tmp_path, name):
    model = residual_model(tmp_path, name)
    # auto (may leave a small model's chain out) on two of them: cheaper
    for mode in ("least_ram", "auto") if name in AUTO_TOO else ("least_ram",):
        m = module.convert(model, tmp_path / mode, keys={"memory.row_streaming": mode})
        assert residual_chained(m) or mode == "auto", f"{name}: no residual in a chain"
        if mode == "least_ram":
            assert separate_add_chained(m) == (name == "separate_add")
        exact_on(m, model, 3)


# TINYAOT_ROW_DRAWN_RESIDUAL draws more (100 took 93 s, 71 of them chained).
DRAWN_RESIDUAL = int(os.environ.get("TINYAOT_ROW_DRAWN_RESIDUAL", "4"))


def test_drawn_residual_chains_are_bit_exact_on_the_host(tmp_path):
    """Random residual blocks (drawn_residual), bit-exact whether or not
    least_ram keeps their chain (a one-row input never chains)."""
    kept = []
    for i in range(DRAWN_RESIDUAL):
        name = f"drawn_{i}"
        model = residual_model(tmp_path, name)
        m = module.convert(model, tmp_path / name, keys={"memory.row_streaming": "least_ram"})
        kept.append(residual_chained(m) or separate_add_chained(m))
        exact_on(m, model, 2)
    assert sum(kept) >= DRAWN_RESIDUAL // 3, kept


@pytest.mark.qemu
@pytest.mark.parametrize("board", ["mps3-an547", "mps2-an386"])
def test_residual_chains_are_bit_exact_on_cortex_m(tmp_path, board):
    for name in ON_BOARDS:
        model = residual_model(tmp_path, name, seed=1)
        m = module.convert(model, tmp_path / name, keys={"memory.row_streaming": "least_ram"})
        assert residual_chained(m), name
        exact_on(m, model, 2, board)


@pytest.mark.parametrize("name", ["identity_same", "conv1x1_s2_same", "skip_fused_s2"])
def test_residual_row_buffer_one_row_short_is_refused(tmp_path, name):
    """Every row buffer a row short (one-row buffers kept at one): refused.
    In skip_fused_s2 the block input's buffer holds 5 rows, 3 for the long
    branch's window and 2 more for the fused skip's rows, which the window
    has left: 4 would still fit the window."""
    model = residual_model(tmp_path, name)
    with pytest.raises(module.ConvertError) as e:
        module.convert(model, tmp_path / "m", keys={"memory.row_streaming": "least_ram",
                                                    "memory.row_streaming_test_shortfall": "1"})
    assert "row chain at layer" in str(e.value)


# ---- PAD and elementwise layers in chains -------------------------------------
# input -> PAD -> CONV_2D -> activation layer -> DEPTHWISE_CONV_2D 3x3 ->
# MUL by its LOGISTIC ("gate") or an activation layer -> 1x1 CONV_2D.
# name: (input shape, PAD's [[top, bottom], [left, right], [front, back]],
# the convolution's kernel, stride and padding, the first activation, the
# depthwise stride, "gate" or the second activation). Every layer runs in
# the chain (a PAD band of rows above or below its input reads none).
PAD_CHAINS = {
    "pad1_valid_s1_fused_relu6": ([1, 14, 12, 8], [[1, 1], [1, 1], [0, 0]], 3, 1, "VALID", "RELU6", 1,
                            "MUL"),
    "pad_tf_s2_valid_hswish": ([1, 15, 13, 8], [[0, 1], [0, 1], [0, 0]], 3, 2, "VALID",
                               "HARD_SWISH", 2, "LEAKY_RELU"),
    "pad3_same_s1_tanh": ([1, 9, 10, 8], [[3, 2], [2, 3], [0, 0]], 1, 1, "SAME", "TANH", 1,
                          "ELU"),
    "pad_channels_same_dw_s2": ([1, 12, 12, 8], [[2, 0], [1, 0], [1, 2]], 5, 1, "SAME",
                                "ABS", 2, "LOGISTIC,RELU6"),
    "pad_bottom_only_leaky": ([1, 10, 12, 8], [[0, 3], [0, 0], [0, 0]], 3, 1, "VALID",
                              "LEAKY_RELU", 2, "SUB"),
    # a converted MobileNet's stem: PAD before a VALID stride-2 convolution
    "stem_32x32": ([1, 32, 32, 8], [[0, 1], [0, 1], [0, 0]], 3, 2, "VALID", "HARD_SWISH", 1,
                   "MUL"),
    "pad_quantize_relu": ([1, 16, 12, 8], [[2, 2], [2, 2], [0, 0]], 5, 1, "VALID", "QUANTIZE", 1,
                          "RELU"),
}


def pad_chain_model(tmp_path, name, seed=0):
    return varied(lambda s: _pad_chain_model(tmp_path, name, s), seed)


def _pad_chain_model(tmp_path, name, seed):
    from tests.gen.builder import ModelBuilder
    from tests.gen.ops.chain import _binary_layer, _pad_layer, _unary_layer
    shape, pads, k, stride, padding, act1, dw_stride, last = PAD_CHAINS[name]
    rng = np.random.default_rng(seed)
    b = ModelBuilder()
    x, q = _input(b, rng, shape)
    t, tshape, tq, _ = _pad_layer(b, rng, x, shape, q, pads)
    t, tshape, tq, _ = _conv(b, rng, t, tshape, tq, 8, k=k, stride=stride, padding=padding,
                             act="NONE", name="conv")
    t, tshape, tq, _ = _unary_layer(b, rng, t, tshape, tq, kind=act1, name="act1")
    t, tshape, tq, _ = _conv(b, rng, t, tshape, tq, None, kind="dw", k=3, stride=dw_stride,
                             padding="SAME", act="NONE", name="dw")
    if last in ("MUL", "SUB"):  # by the LOGISTIC of its first operand
        g, _, gq, _ = _unary_layer(b, rng, t, tshape, tq, kind="LOGISTIC", name="gate")
        t, tshape, tq, _ = _binary_layer(b, rng, t, g, tshape, tq, gq, kind=last)
    else:
        for i, kind in enumerate(last.split(",")):
            t, tshape, tq, _ = _unary_layer(b, rng, t, tshape, tq, kind=kind, name=f"act{i + 2}")
    t, _, _, _ = _conv(b, rng, t, tshape, tq, 2, k=1, stride=1, padding="SAME", act="NONE",
                       name="head")
    path = tmp_path / f"{name}.tflite"
    path.write_bytes(b.build(inputs=[x], outputs=[t]))
    return path


def whole_chain(model, mode="least_ram"):
    """Whether one row chain runs every layer of the model (analyze)."""
    a = analyze(model, mode)
    return [(c["first_layer"], c["last_layer"]) for c in a["row_chains"]] == \
        [(0, len(a["operators"]) - 1)]


def band_kernels(m):
    """The kernels the module's band functions call (a statement of their
    own, not the struct copy of a band of other rows)."""
    import re
    return {f for p in (m.path / "ops").glob("*.c")
            for body in re.findall(r"_band\(int32_t in_rows[^{]*\{\n(.*?)\n\}\n", p.read_text(), re.S)
            for f in re.findall(r"^    (?:return )?(ta_\w+)\(", body, re.M)}


@pytest.mark.parametrize("name", sorted(PAD_CHAINS))
def test_pad_and_elementwise_chain_is_bit_exact_on_the_host(tmp_path, name):
    model = pad_chain_model(tmp_path, name)
    m = module.convert(model, tmp_path / "m", keys={"memory.row_streaming": "least_ram"})
    kernels = band_kernels(m)
    assert "ta_pad_rows_s8" in kernels and len(kernels) >= 4, kernels
    exact_on(m, model, 3)


def test_pad_and_elementwise_layers_run_in_the_chain(tmp_path):
    """Every kind of layer the cases have is a band function of the chain,
    and the chain's tables have its steps (a layer outside it has a _run)."""
    seen = set()
    for name in PAD_CHAINS:
        m = module.convert(pad_chain_model(tmp_path, name), tmp_path / name,
                           keys={"memory.row_streaming": "least_ram"})
        seen |= band_kernels(m)
        assert not any(re_run(p) for p in (m.path / "ops").glob("*.c")), name
    assert {"ta_pad_rows_s8", "ta_relu_s8", "ta_relu6_s8", "ta_leaky_relu_s8", "ta_hard_swish_s8",
            "ta_logistic_s8", "ta_tanh_s8", "ta_requantize_s8_s8", "ta_abs_s8", "ta_lut_s8",
            "ta_mul_s8", "ta_sub_s8"} <= seen, seen


def re_run(path):
    """Whether an operator file has a layer's own _run (not a chain's)."""
    text = path.read_text()
    return "_run(void)" in text and "_row_steps[" not in text


# TINYAOT_ROW_DRAWN_PAD draws more of tests/gen's CHAIN.pad_elementwise.
DRAWN_PAD = int(os.environ.get("TINYAOT_ROW_DRAWN_PAD", "8"))


def test_drawn_pad_elementwise_chains_are_bit_exact_on_the_host(tmp_path):
    """tests/gen CHAIN.pad_elementwise cases (random pads, kernels, strides,
    paddings, activations, heights 1-24) with least_ram: bit-exact, the
    PAD in a chain in at least half of them."""
    drawn_chains_exact(tmp_path, "CHAIN.pad_elementwise", DRAWN_PAD, "ta_pad_rows_s8")


def drawn_chains_exact(tmp_path, variant, count, band_kernel):
    """Seeds 0 .. count - 1 of a generator variant with least_ram: each
    byte-equal to TFLite Micro on the host, and `band_kernel` run in a
    chain in at least half of them."""
    from tests.gen import variants
    kept = []
    for seed in range(count):
        case = variants.ALL[variant].case(seed)
        model = tmp_path / f"{case.name}.tflite"
        model.write_bytes(case.model)
        m = module.convert(model, tmp_path / case.name, keys={"memory.row_streaming": "least_ram"})
        kept.append(band_kernel in band_kernels(m))
        exact_on(m, model, 2)
    assert sum(kept) >= count // 2, kept


def chains_exact_on(tmp_path, board, chains, build, band_kernel):
    """Every chain of `chains`, built by `build` with seed 1, runs its
    layers through `band_kernel` among others and matches TFLite Micro on
    `board`."""
    for name in sorted(chains):
        model = build(tmp_path, name, seed=1)
        m = module.convert(model, tmp_path / name, keys={"memory.row_streaming": "least_ram"})
        assert band_kernel in band_kernels(m), name
        exact_on(m, model, 2, board)


@pytest.mark.qemu
@pytest.mark.parametrize("board", ["mps3-an547", "mps2-an386"])
def test_pad_and_elementwise_chains_are_bit_exact_on_cortex_m(tmp_path, board):
    chains_exact_on(tmp_path, board, PAD_CHAINS, pad_chain_model, "ta_pad_rows_s8")


def test_stem_ram(tmp_path):
    """The MobileNet-like stem (docs/row-streaming.md): one chain of every
    layer with least_ram, 16,912 bytes as layers, 10,400 as a chain, 2,464
    with row-push input (the PAD's window: one input row)."""
    model = pad_chain_model(tmp_path, "stem_32x32")
    assert whole_chain(model)
    assert total_ram(analyze(model, "off")) == 16912
    assert total_ram(analyze(model, "least_ram")) <= 10400
    push = push_analysis(model)
    assert total_ram(push) <= 2464 and push["row_chains"][0]["row_buffers"][0]["rows"] == 1


@pytest.mark.parametrize("name", ["pad1_valid_s1_fused_relu6", "pad3_same_s1_tanh"])
def test_pad_chain_row_buffer_one_row_short_is_refused(tmp_path, name):
    refused_one_row_short(tmp_path, pad_chain_model(tmp_path, name))


# ---- elementwise layers with a constant operand, PRELU ------------------------
# input -> CONV_2D 3x3 to 16 channels -> ADD/SUB/MUL by a constant ->
# DEPTHWISE_CONV_2D 3x3 -> PRELU -> ADD/SUB/MUL by a constant -> 1x1 CONV_2D.
# name: (input shape, the convolution's stride, the depthwise stride, the
# first constant's layer and form, PRELU alpha's form, the second
# constant's layer and form); forms: tests/gen/ops/chain.py CONSTANT_FORMS.
BROADCAST_CHAINS = {
    "add_channel_prelu_channel_mul_scalar": ([1, 16, 6, 2], 1, 1, ("ADD", "channel"), "channel4",
                                             ("MUL", "scalar")),
    "mul_pixel_prelu_scalar_sub_channel": ([1, 14, 5, 2], 1, 2, ("MUL", "pixel"), "scalar",
                                           ("SUB", "channel4")),
    "sub_scalar4_prelu_pixel_add_pixel": ([1, 19, 7, 3], 2, 1, ("SUB", "scalar4"), "pixel",
                                          ("ADD", "pixel")),
    "one_column_add_pixel": ([1, 20, 1, 2], 1, 1, ("ADD", "pixel"), "channel",
                             ("MUL", "channel")),
}


def broadcast_chain_model(tmp_path, name, seed=0):
    return varied(lambda s: _broadcast_chain_model(tmp_path, name, s), seed)


def _broadcast_chain_model(tmp_path, name, seed):
    from tests.gen.builder import ModelBuilder
    from tests.gen.ops.chain import _constant_layer, _prelu_layer
    shape, stride, dw_stride, (kind1, form1), alpha, (kind2, form2) = BROADCAST_CHAINS[name]
    rng = np.random.default_rng(seed)
    b = ModelBuilder()
    x, q = _input(b, rng, shape)
    t, tshape, tq, _ = _conv(b, rng, x, shape, q, 16, k=3, stride=stride, padding="SAME",
                             act="NONE", name="conv")
    t, tshape, tq, _ = _constant_layer(b, rng, t, tshape, tq, kind1, form1, name="first")
    t, tshape, tq, _ = _conv(b, rng, t, tshape, tq, None, kind="dw", k=3, stride=dw_stride,
                             padding="SAME", act="NONE", name="dw")
    t, tshape, tq, _ = _prelu_layer(b, rng, t, tshape, tq, alpha)
    t, tshape, tq, _ = _constant_layer(b, rng, t, tshape, tq, kind2, form2, name="second")
    t, _, _, _ = _conv(b, rng, t, tshape, tq, 2, k=1, stride=1, padding="SAME", act="NONE",
                       name="head")
    path = tmp_path / f"{name}.tflite"
    path.write_bytes(b.build(inputs=[x], outputs=[t]))
    return path


@pytest.mark.parametrize("name", sorted(BROADCAST_CHAINS))
def test_constant_operand_and_prelu_chain_is_bit_exact_on_the_host(tmp_path, name):
    """Every layer in one chain (the constant layers and PRELU band
    functions, no layer's own _run), byte-equal to TFLite Micro."""
    model = broadcast_chain_model(tmp_path, name)
    m = module.convert(model, tmp_path / "m", keys={"memory.row_streaming": "least_ram"})
    kind1, kind2 = BROADCAST_CHAINS[name][3][0], BROADCAST_CHAINS[name][5][0]
    kernels = band_kernels(m)
    assert {"ta_prelu_s8", f"ta_{kind1.lower()}_s8", f"ta_{kind2.lower()}_s8"} <= kernels, kernels
    assert not any(re_run(p) for p in (m.path / "ops").glob("*.c")), name
    assert whole_chain(model)
    exact_on(m, model, 3)


@pytest.mark.qemu
@pytest.mark.parametrize("board", ["mps3-an547", "mps2-an386"])
def test_constant_operand_and_prelu_chains_are_bit_exact_on_cortex_m(tmp_path, board):
    chains_exact_on(tmp_path, board, BROADCAST_CHAINS, broadcast_chain_model, "ta_prelu_s8")


def test_constant_operand_layers_in_analyze_and_residency(tmp_path):
    """The chain's row buffers include the constant layers' and PRELU's
    outputs (analyze; the residency report marks them row_buffer), and
    the constants stay whole constants."""
    import json
    model = broadcast_chain_model(tmp_path, "add_channel_prelu_channel_mul_scalar")
    a = analyze(model, "least_ram")
    (chain,) = a["row_chains"]
    assert (chain["first_layer"], chain["last_layer"]) == (0, 5)
    # docs/row-streaming.md's figures: 3,072 bytes as layers, 864 as a chain
    assert total_ram(a) <= 864 and total_ram(analyze(model, "off")) == 3072
    assert len(chain["row_buffers"]) == 5 and all(b["rows"] < 16 for b in chain["row_buffers"])
    m = module.convert(model, tmp_path / "m", keys={"memory.row_streaming": "least_ram",
                                                    "memory.dump_residency_json": "true"})
    residency = json.loads(next(m.path.glob("*residency*.json")).read_text())
    rows = [t for t in residency["tensors"] if t.get("row_buffer")]
    assert len(rows) == 5, rows
    assert all("constant" not in str(t.get("region", "")).lower() for t in rows)


# TINYAOT_ROW_DRAWN_BROADCAST draws more of tests/gen's CHAIN.broadcast_elementwise.
DRAWN_BROADCAST = int(os.environ.get("TINYAOT_ROW_DRAWN_BROADCAST", "8"))


def test_drawn_broadcast_elementwise_chains_are_bit_exact_on_the_host(tmp_path):
    """tests/gen CHAIN.broadcast_elementwise cases (constants per channel,
    per pixel of a row, scalars; strides 1 and 2; heights 1-24) with
    least_ram: bit-exact, PRELU in a chain in at least half of them."""
    drawn_chains_exact(tmp_path, "CHAIN.broadcast_elementwise", DRAWN_BROADCAST, "ta_prelu_s8")


# ---- row-push input (module.input_rows: push) --------------------------------

PUSH = {"module.input_rows": "push"}


def analyze_keys(model, keys):
    import subprocess
    args = [module.tinyaot_bin(), "analyze", "--model.path", str(model), "--format", "json"]
    for k, v in keys.items():
        args += [f"--{k}", v]
    return subprocess.run(args, capture_output=True, text=True)


def push_analysis(model, mode="least_ram", **extra):
    import json
    p = analyze_keys(model, {"memory.row_streaming": mode, **PUSH, **extra})
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_push_input_plan_person_detect():
    """person_detect's input (96 x 96 bytes) becomes a row buffer of the
    first layer's window rows: total RAM at most 20,000 (22,272 whole)."""
    a = push_analysis(module.MODELS / "tflm_person_detect.tflite", "auto")
    first = a["row_chains"][0]
    assert first["first_layer"] == 0 and first["row_buffers"][0]["height"] == 96
    assert first["row_buffers"][0]["rows"] <= 4, first
    assert total_ram(a) <= 20000, total_ram(a)


def test_push_input_analysis_names_each_buffers_readers():
    """With row-push input the chain's input is row buffer 0: analyze's
    readers and residual_of are each buffer's own (ResNet-8: the pushed
    input read by the stem, three residual buffers, one of them read by
    both branches), as without push."""
    r8 = module.MODELS / "mlperf_tiny_ic_resnet8_quant.tflite"
    pushed = push_analysis(r8, "auto")["row_chains"][0]["row_buffers"]
    whole = analyze(r8, "auto")["row_chains"][0]["row_buffers"]
    assert pushed[0]["readers"] == 1 and pushed[0]["residual_of"] == -1, pushed[0]
    strip = ["id", "readers", "residual_of"]
    assert [[b[k] for k in strip] for b in pushed[1:]] == [[b[k] for k in strip] for b in whole]


PUSH_CASES = ["s1_same_conv_dw_conv", "s2_valid_dw_s2", "kh10", "dilated", "summing_pool",
              "drawn_2", "drawn_7"]


@pytest.mark.parametrize("name", PUSH_CASES)
def test_push_input_schedule_passes_its_check(tmp_path, name):
    """Every chain's schedule with push steps passes the check and its
    loops run it exactly (both at conversion); the input's row buffer
    holds at most its window's rows plus the stride."""
    shape, layers = CASES[name] if name in CASES else drawn_case(int(name.split("_")[1]))
    a = push_analysis(chain_model(tmp_path, name))
    buf = a["row_chains"][0]["row_buffers"][0]
    assert a["row_chains"][0]["first_layer"] == 0 and buf["height"] == shape[1], a["row_chains"]
    k, stride, dilation = layers[0][2], layers[0][3], (layers[0][5:] or (1,))[0]
    assert buf["rows"] <= min(shape[1], (k - 1) * dilation + 1 + stride), (buf, layers[0])


def test_push_input_row_buffer_one_row_short_is_refused(tmp_path):
    p = analyze_keys(chain_model(tmp_path, "kh10"),
                     {"memory.row_streaming": "least_ram", **PUSH,
                      "memory.row_streaming_test_shortfall": "1"})
    assert p.returncode != 0 and "row chain at layer 0" in p.stderr, p.stderr


def test_push_input_refusals(tmp_path):
    """One error line naming the model and the input where it cannot apply."""
    model = chain_model(tmp_path, "s1_same_conv_dw_conv")
    p = analyze_keys(model, {"memory.row_streaming": "off", **PUSH})
    assert p.returncode != 0 and str(model) in p.stderr and "module.input_rows" in p.stderr
    assert "not off" in p.stderr, p.stderr
    p = analyze_keys(model, {"memory.keep_inputs": "true", **PUSH})
    assert p.returncode != 0 and "memory.keep_inputs" in p.stderr, p.stderr
    hello = module.MODELS / "tflm_hello_world_int8.tflite"  # layer 0: FULLY_CONNECTED
    p = analyze_keys(hello, PUSH)
    assert p.returncode != 0 and "layer 0 is no row-chain window layer" in p.stderr, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1, p.stderr


def push_outputs_match(tmp_path, name):
    """Converts with row-push input; the runner pushes each run's rows in
    pieces of 1, 3, 2, ... rows; outputs byte-equal to TFLite Micro."""
    model = (pad_chain_model if name in PAD_CHAINS else chain_model)(tmp_path, name, seed=1)
    m = module.convert(model, tmp_path / name, keys={"memory.row_streaming": "least_ram",
                                                     "test.enabled": "true", **PUSH})
    assert "_model_push_rows" in (m.path / "m_model.h").read_text()
    total, diff = difftest.against_tflm(m, model, seed=7)
    assert total > 0 and diff == 0, f"{name}: {diff} of {total} bytes differ"
    return m


@pytest.mark.parametrize("name", ["s2_valid_dw_s2", "summing_pool", "dilated", "drawn_7",
                                  "stem_32x32", "pad3_same_s1_tanh", "pool_rows_clipped"])
def test_push_input_is_bit_exact_on_the_host(tmp_path, name):
    m = push_outputs_match(tmp_path, name)
    from tests.test_test_case import build_and_run  # the test case pushes rows too
    status, out = build_and_run(m)
    assert status == 0 and "status 0 (ok)" in out, out


MISUSE_MAIN = r"""
#include <stdio.h>
#include <string.h>
#include "m_model.h"
int main(void)
{
    static int8_t rows[M_INPUT0_ROWS * M_INPUT0_ROW_SIZE];
    m_model_context_t ctx;
    memset(&ctx, 0, sizeof ctx);
    printf("uninit %d\n", (int)m_model_push_rows(&ctx, rows, 1));
    printf("init %d\n", (int)m_model_init(&ctx));
    printf("negative %d\n", (int)m_model_push_rows(&ctx, rows, -1));
    printf("null %d\n", (int)m_model_push_rows(&ctx, NULL, 1));
    printf("first %d\n", (int)m_model_push_rows(&ctx, rows, 2));
    printf("run_early %d\n", (int)m_model_run(&ctx));
    printf("too_many %d\n", (int)m_model_push_rows(&ctx, rows, M_INPUT0_ROWS));
    printf("rest %d\n", (int)m_model_push_rows(&ctx, rows + 2 * M_INPUT0_ROW_SIZE,
                                               M_INPUT0_ROWS - 2));
    printf("again %d\n", (int)m_model_push_rows(&ctx, rows, M_INPUT0_ROWS));
    return 0;
}
"""


def test_push_input_misuse_statuses(tmp_path):
    import subprocess
    m = module.convert(chain_model(tmp_path, "s1_same_conv_dw_conv"), tmp_path / "m",
                       keys={"memory.row_streaming": "least_ram", **PUSH})
    main = tmp_path / "misuse.c"
    main.write_text(MISUSE_MAIN)
    exe = tmp_path / "misuse"
    c = subprocess.run([os.environ.get("CC", "cc"), *module.cflags(), "-I", str(m.path), str(main),
                        *module.cached_sources(m.path), "-o", str(exe)],
                       capture_output=True, text=True)
    assert c.returncode == 0, c.stderr
    out = dict(line.split() for line in subprocess.run([str(exe)], capture_output=True,
                                                       text=True, check=True).stdout.splitlines())
    assert out == {"uninit": "14", "init": "0", "negative": "500", "null": "500", "first": "0",
                   "run_early": "540", "too_many": "541", "rest": "0", "again": "0"}, out


@pytest.mark.qemu
@pytest.mark.parametrize("board", ["mps3_an547", "mps2_an386"])
def test_push_input_firmware_runs_its_test_case(tmp_path, board):
    """module.type firmware: the test case and the timed inference push the
    rows in uneven pieces; the test case passes on the board."""
    import re
    import subprocess
    model = chain_model(tmp_path, "s2_valid_dw_s2")
    m = module.convert(model, tmp_path / "fw", keys={
        "memory.row_streaming": "least_ram", "platform.name": board, "module.type": "firmware",
        **PUSH})
    main = (m.path / "firmware" / "main.c").read_text()
    assert "_model_push_rows" in main and "_model_run(ctx)" not in main
    p = subprocess.run(["make", "-s", "-C", str(m.path / "firmware"), f"OUT={tmp_path / 'b'}",
                        "run"], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0 and "m: test case passed" in p.stdout, p.stdout + p.stderr
    assert re.search(r"m: inference: \d+ instructions", p.stdout), p.stdout


@pytest.mark.qemu
@pytest.mark.parametrize("board", ["mps3_an547", "mps2_an386"])
def test_push_input_validate(tmp_path, board):
    """tinyaot validate: its host and QEMU runners push the rows in uneven
    pieces; every output matches TFLite Micro (the QEMU runner's Cortex-M
    test of row-push input)."""
    import subprocess
    model = chain_model(tmp_path, "summing_pool")
    p = subprocess.run([module.tinyaot_bin(), "validate", "--model.path", str(model),
                        "--memory.row_streaming", "least_ram", "--module.input_rows", "push",
                        "--platform.name", board, "--runs", "2"],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0 and "(QEMU)" in p.stdout and "OK: every output" in p.stdout, \
        p.stdout + p.stderr
