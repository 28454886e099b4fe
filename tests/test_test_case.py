"""The built-in test case (test.enabled): <prefix>_test_case.c/.h, built and
run on the host for every shared model and on the Cortex-M55 board; its
expected outputs (from the in-process executor) against TFLite Micro; and
the faults it must catch: a flipped weight byte, a skipped hydration, a
section the loader does not load."""

import os
import re
import subprocess

import numpy as np
import pytest

from tests.harness import module, oracle
from tests.test_models import CONVERTED

MODELS = module.MODELS
KWS = MODELS / "mlperf_tiny_kws_ref_model.tflite"
AD01 = MODELS / "mlperf_tiny_ad01_int8.tflite"
HELLO = MODELS / "tflm_hello_world_int8.tflite"
MAIN = module.HARNESS / "test_case_main.c"
# Models with state carried from run to run (persistent arenas).
STATEFUL = {"tflm_audio_preprocessor_int8", "tflm_keyword_scrambled", "tflm_keyword_scrambled_8bit",
            "tflm_mnist_lstm_int8"}

STAGED = """
platform: {name: apollo510_evb}
memory:
  tensors:
    - attributes: {memory: DTCM}
    - type: constant
      attributes: {memory: MRAM}
    - id: "11"
      attributes: {memory: MRAM, constant_destination_memory: SRAM}
"""


def convert(tmp_path, model, name="mod", prefix="tc", keys=None, yaml_text=None):
    cfg = None
    if yaml_text is not None:
        cfg = tmp_path / f"{name}.yaml"
        cfg.write_text(yaml_text)
    keys = {"test.enabled": "true", **(keys or {})}
    return module.convert(model, tmp_path / name, prefix=prefix, keys=keys, config=cfg)


def build_and_run(m, main_c=MAIN, extra_srcs=()):
    """Builds the module with a main (default: test_case_main.c); returns
    (exit status, stdout)."""
    exe = m.path.parent / (m.path.name + ".tc")
    cmd = [os.environ.get("CC", "cc"), *module.cflags(), f"-DTA_PREFIX={m.prefix}",
           "-I", str(m.path), str(main_c), *module.cached_sources(m.path), *map(str, extra_srcs),
           "-lm", "-o", str(exe)]
    c = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert c.returncode == 0, c.stderr
    r = subprocess.run([str(exe)], capture_output=True, text=True, timeout=600)
    return r.returncode, r.stdout + r.stderr


def c_array(text, name, dtype):
    """The values of `const T name[N] = {...};` in generated C."""
    m = re.search(r"\b" + re.escape(name) + r"\[(\d+)\] = \{(.*?)\};", text, re.S)
    assert m, name
    body = re.sub(r"/\*.*?\*/", "", m.group(2), flags=re.S)
    body = body.replace("INT64_C", "").replace("(-2147483647 - 1)", "-2147483648")
    body = body.replace("(-(9223372036854775807) - 1)", "-9223372036854775808")
    words = [w.strip().strip("()") for w in body.split(",") if w.strip()]
    if np.dtype(dtype) == np.float32:
        return np.array([int(w.rstrip("u"), 16) for w in words], dtype=np.uint32).view(np.float32)
    assert len(words) == int(m.group(1))
    return np.array([int(w) for w in words], dtype=np.int64).astype(dtype)


def module_test_data(m):
    """(runs of inputs, runs of expected outputs) as written into the module."""
    text = (m.path / f"{m.prefix}_test_case.c").read_text()
    runs = int(re.search(r"#define \w+_TEST_CASE_RUNS (\d+)",
                         (m.path / f"{m.prefix}_test_case.h").read_text()).group(1))

    def split(kind, io):
        arrays = [c_array(text, f"{m.prefix}_test_case_{kind}{i}", dt).reshape(runs, *shape)
                  for i, (shape, dt) in enumerate(io)]
        return [[a[r] for a in arrays] for r in range(runs)]

    return split("input", m.io("input")), split("output", m.io("output"))


@pytest.mark.parametrize("name", sorted(CONVERTED))
def test_passes_on_host_and_expected_outputs_equal_tflm(name, tmp_path):
    model = MODELS / f"{name}.tflite"
    m = convert(tmp_path, model)
    status, out = build_and_run(m)
    assert status == 0 and "test case: status 0 (ok)" in out, out
    inputs, expected = module_test_data(m)
    assert len(inputs) == (3 if name in STATEFUL else 2)
    tflm = oracle.run_tflm(model.read_bytes(), inputs, isolated=True)
    for r, (ours, theirs) in enumerate(zip(expected, tflm)):
        for o, (a, b) in enumerate(zip(ours, theirs)):
            b = np.asarray(b).astype(a.dtype).reshape(a.shape)
            assert a.tobytes() == b.tobytes(), f"run {r} output {o} differs from TFLite Micro"


def test_stateful_models_get_three_runs(tmp_path):
    m = convert(tmp_path, MODELS / "tflm_keyword_scrambled.tflite")
    assert "#define TC_TEST_CASE_RUNS 3" in (m.path / "tc_test_case.h").read_text()
    m = convert(tmp_path, HELLO, name="hello")
    assert "#define TC_TEST_CASE_RUNS 2" in (m.path / "tc_test_case.h").read_text()


def test_output_is_deterministic(tmp_path):
    a = convert(tmp_path, KWS, name="a")
    b = convert(tmp_path, KWS, name="b")
    for f in ("tc_test_case.c", "tc_test_case.h"):
        assert (a.path / f).read_bytes() == (b.path / f).read_bytes()
    assert "tc_test_case.c" in (a.path / "CMakeLists.txt").read_text()
    assert "tc_test_case.c" in (a.path / "tc.mk").read_text()


def test_lines_stay_short(tmp_path):
    m = convert(tmp_path, KWS, keys={"memory.allocate_arenas": "false"})
    for f in ("tc_test_case.h", "tc_model.h"):
        long_lines = [l for l in (m.path / f).read_text().splitlines() if len(l) > 100]
        assert not long_lines, (f, long_lines[:2])
    text = (m.path / "tc_test_case.c").read_text()
    code = text[text.index("static tc_test_case_report_t"):]
    assert not [l for l in code.splitlines() if len(l) > 100]
    model_c = (m.path / "tc_model.c").read_text()
    io = model_c[model_c.index("/* ---- Quantizing inputs"):]
    assert not [l for l in io.splitlines() if len(l) > 100]


def test_float_input_model(tmp_path):
    """A float input is drawn over the range its QUANTIZE covers and a bit
    beyond; a float output is compared as floats."""
    from tests.gen.common import ModelBuilder, Q
    b = ModelBuilder()
    x = b.tensor([1, 300], "float32", name="x")
    q = b.tensor([1, 300], "int8", Q(0.02, 3), name="q")
    y = b.tensor([1, 300], "float32", name="y")
    b.op("QUANTIZE", [x], [q])
    b.op("DEQUANTIZE", [q], [y])
    model = tmp_path / "float_io.tflite"
    model.write_bytes(b.build([x], [y]))
    m = convert(tmp_path, model)
    status, out = build_and_run(m)
    assert status == 0, out
    inputs, expected = module_test_data(m)
    lo, hi = (-128 - 3) * 0.02, (127 - 3) * 0.02
    stimulus = np.concatenate([r[0].reshape(-1) for r in inputs])
    assert stimulus.min() < lo and stimulus.max() > hi  # saturation is exercised
    assert stimulus.min() > lo - 0.2 * (hi - lo) and stimulus.max() < hi + 0.2 * (hi - lo)
    tflm = oracle.run_tflm(model.read_bytes(), inputs, isolated=True)
    for ours, theirs in zip(expected, tflm):
        assert ours[0].tobytes() == np.asarray(theirs[0], np.float32).tobytes()


def test_index_input_model(tmp_path):
    """An int32 input (GATHER's indices) gets a stimulus every such operand
    accepts; the expected outputs equal TFLite Micro's."""
    from tests.gen.common import ModelBuilder, Q
    b = ModelBuilder()
    x = b.tensor([5, 3], "int8", Q(0.1, 2), name="params")
    idx = b.tensor([4], "int32", name="indices")
    y = b.tensor([4, 3], "int8", Q(0.1, 2), name="output")
    b.op("GATHER", [x, idx], [y], "GatherOptions", axis=0, batchDims=0)
    model = tmp_path / "gather.tflite"
    model.write_bytes(b.build([x, idx], [y]))
    m = convert(tmp_path, model)
    status, out = build_and_run(m)
    assert status == 0, out
    inputs, expected = module_test_data(m)
    assert all((r[1] == 0).all() for r in inputs)
    tflm = oracle.run_tflm(model.read_bytes(), inputs, isolated=True)
    for ours, theirs in zip(expected, tflm):
        assert ours[0].tobytes() == np.asarray(theirs[0], np.int8).tobytes()


def test_disabled_means_no_test_case(tmp_path):
    m = module.convert(HELLO, tmp_path / "m", prefix="tc")
    assert not list(m.path.glob("*test_case*"))


def flip_first_weight_byte(path):
    """Flips the top bit of the first byte of the first tensor in the first
    constant blob of <prefix>_constants.c."""
    text = path.read_text()
    start = text.index("/* +", text.index("const uint8_t"))
    first = re.compile(r"\n    (\d+),").search(text, start)
    value = int(first.group(1)) ^ 0x80
    path.write_text(text[:first.start(1)] + str(value) + text[first.end(1):])


def test_flipped_weight_byte_fails(tmp_path):
    m = convert(tmp_path, KWS)
    flip_first_weight_byte(m.path / "tc_constants.c")
    status, out = build_and_run(m)
    assert status != 0 and "status 530 (test_mismatch)" in out and "mismatch: run 0 output 0" in out, out
    assert "test case: status 530 (test_mismatch)" in out


def test_skipped_hydration_fails(tmp_path):
    m = convert(tmp_path, AD01, yaml_text=STAGED)
    assert "tc_hydrate_constants" in (m.path / "tc_model.h").read_text()
    status, out = build_and_run(m)
    assert status == 0, out
    # A replacement that sets the latch without copying a byte.
    skip = tmp_path / "skip.c"
    skip.write_text('#include "tc_model.h"\n'
                    "int32_t tc_hydrate_constants(tc_model_context_t *ctx)\n{\n    (void)ctx;\n    tc_mark_hydrated();\n    return 0;\n}\n")
    status, out = build_and_run(m, extra_srcs=[skip])
    assert status != 0 and "status 530 (test_mismatch)" in out and "mismatch:" in out, out


BIND_MAIN = r"""
#define _POSIX_C_SOURCE 200112L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tc_test_case.h"

int main(int argc, char **argv)
{
    tc_model_context_t ctx;
    memset(&ctx, 0, sizeof ctx);
    int unbound = tc_test_case_run(&ctx);
    printf("unbound: %d\n", unbound);
    for (unsigned i = 0; i < tc_module_desc.num_regions; i++) {
        void *p = NULL;
        if (posix_memalign(&p, 64, tc_arena_sizes[i] + 64) != 0)
            return 99;
        const char *sidecar = tc_module_desc.sidecar_files[i];
        if (sidecar) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argc > 1 ? argv[1] : ".", sidecar);
            FILE *f = fopen(path, "rb");
            if (!f || fread(p, 1, tc_arena_sizes[i], f) != tc_arena_sizes[i])
                return 98;
            fclose(f);
        }
        if (tc_bind_arena((tc_arena_region_t)i, p, tc_arena_sizes[i]) != 0)
            return 97;
    }
    int bound = tc_test_case_run(&ctx);
    printf("bound: %d\n", bound);
    return unbound == TA_ERR_UNBOUND_REGION && bound == 0 ? 0 : 1;
}
"""


def test_caller_supplied_arenas_bind_first(tmp_path):
    m = convert(tmp_path, HELLO, keys={"memory.allocate_arenas": "false"})
    header = (m.path / "tc_test_case.h").read_text()
    assert "the application must bind every" in header and "TA_ERR_UNBOUND_REGION (10)" in header
    main_c = tmp_path / "bind.c"
    main_c.write_text(BIND_MAIN)
    exe = tmp_path / "bind"
    cmd = [os.environ.get("CC", "cc"), *module.cflags(), "-I", str(m.path), str(main_c),
           *module.cached_sources(m.path), "-lm", "-o", str(exe)]
    c = subprocess.run(cmd, capture_output=True, text=True)
    assert c.returncode == 0, c.stderr
    r = subprocess.run([str(exe), str(m.path)], capture_output=True, text=True)
    assert r.returncode == 0 and "unbound: 10" in r.stdout and "bound: 0" in r.stdout, r.stdout


def write_runs(path_of, io, runs):
    paths = []
    for i, (shape, dt) in enumerate(io):
        p = path_of(i)
        p.write_bytes(b"".join(np.ascontiguousarray(r[i], dtype=dt).tobytes() for r in runs))
        paths.append(str(p))
    return paths


def test_given_files_and_tolerance(tmp_path):
    data = KWS.read_bytes()
    plain = module.convert(KWS, tmp_path / "plain", prefix="tc")
    runs = oracle.random_inputs(data, np.random.default_rng(7), 4)
    tflm = oracle.run_tflm(data, runs, isolated=True)
    ins = write_runs(lambda i: tmp_path / f"in{i}.bin", plain.io("input"), runs)
    outs = write_runs(lambda i: tmp_path / f"out{i}.bin", plain.io("output"), tflm)
    keys = {"test.inputs": ins, "test.outputs": outs}
    m = convert(tmp_path, KWS, name="given", keys=keys)
    assert "#define TC_TEST_CASE_RUNS 4" in (m.path / "tc_test_case.h").read_text()
    assert "read from test.outputs" in (m.path / "tc_test_case.h").read_text()
    assert build_and_run(m)[0] == 0
    # The same stimulus with the host executor gives TFLite Micro's bytes.
    m = convert(tmp_path, KWS, name="computed", keys={"test.inputs": ins})
    assert module_test_data(m)[1][3][0].tobytes() == np.asarray(tflm[3][0]).tobytes()
    # One expected value off by one step: caught at tolerance 0, accepted at 1.
    off = np.asarray(tflm[2][0]).copy()
    off.reshape(-1)[5] += 1 if off.reshape(-1)[5] < 127 else -1
    bad = [tflm[0], tflm[1], [off], tflm[3]]
    outs = write_runs(lambda i: tmp_path / f"off{i}.bin", plain.io("output"), bad)
    m = convert(tmp_path, KWS, name="strict", keys={"test.inputs": ins, "test.outputs": outs})
    status, out = build_and_run(m)
    assert status != 0 and "status 530 (test_mismatch)" in out and "mismatch: run 2 output 0 element 5" in out, out
    m = convert(tmp_path, KWS, name="loose",
                keys={"test.inputs": ins, "test.outputs": outs, "test.tolerance": "1"})
    assert build_and_run(m)[0] == 0


def test_given_files_are_checked(tmp_path):
    short = tmp_path / "short.bin"
    short.write_bytes(b"\0" * 489)
    with pytest.raises(module.ConvertError) as e:
        convert(tmp_path, KWS, keys={"test.inputs": [str(short)]})
    assert str(short) in e.value.stderr and "input 0 (tensor" in e.value.stderr
    assert "489 bytes, expected a multiple of 490" in e.value.stderr
    with pytest.raises(module.ConvertError) as e:
        convert(tmp_path, KWS, keys={"test.inputs": [str(short), str(short)]})
    assert "test.inputs: 2 files given, the model has 1 input" in e.value.stderr
    good = tmp_path / "good.bin"
    good.write_bytes(b"\0" * 980)
    with pytest.raises(module.ConvertError) as e:
        convert(tmp_path, KWS, keys={"test.outputs": [str(good)]})
    assert "test.outputs needs test.inputs" in e.value.stderr
    with pytest.raises(module.ConvertError) as e:
        convert(tmp_path, KWS, keys={"test.inputs": [str(good)], "test.outputs": [str(good)]})
    assert str(good) in e.value.stderr and "output 0 (tensor" in e.value.stderr
    assert "980 bytes, expected a multiple of 12" in e.value.stderr


def test_relative_test_files_resolve_from_the_config_folder(tmp_path):
    cfg_dir = tmp_path / "cfg"
    cfg_dir.mkdir()
    (cfg_dir / "in.bin").write_bytes(bytes(range(256)) * 2 + b"\0" * (490 * 2 - 512))
    m = convert(cfg_dir, KWS, yaml_text="test:\n  inputs: [in.bin]\n")
    assert "#define TC_TEST_CASE_RUNS 2" in (m.path / "tc_test_case.h").read_text()
    assert build_and_run(m)[0] == 0


def test_default_prefix_names_files_without_doubling(tmp_path):
    m = module.convert(HELLO, tmp_path / "m", prefix="model", keys={"test.enabled": "true"})
    names = sorted(p.name for p in m.path.iterdir())
    assert "model.h" in names and "model.c" in names
    assert not [n for n in names if n.startswith("model_model")]
    assert '#include "model.h"' in (m.path / "model_internal.h").read_text()
    assert '#include "model.h"' in (m.path / "model_test_case.h").read_text()
    assert "model.c" in (m.path / "CMakeLists.txt").read_text()
    # Symbols keep the documented <prefix>_model_* names.
    assert "int32_t model_model_init(model_model_context_t *ctx);" in \
        (m.path / "model.h").read_text()
    status, out = build_and_run(m)
    assert status == 0, out


MRAM = """
platform: {name: mps3_an547}
memory:
  tensors:
    - type: constant
      attributes: {memory: MRAM}
"""


@pytest.mark.qemu
def test_passes_on_m55_and_catches_an_unloaded_section(tmp_path):
    m = convert(tmp_path, KWS, yaml_text=MRAM)
    elf = tmp_path / "tc.elf"
    build = ["bash", str(module.QEMU_RUN), "--board", "mps3-an547", "-O2",
             f"-DTA_PREFIX={m.prefix}", "-I", str(m.path), "-o", str(elf), "--build-only",
             str(MAIN), *module.cached_qemu_sources(m.path, "mps3-an547", "-O2",
                                                    [f"-DTA_PREFIX={m.prefix}"])]
    p = subprocess.run(build, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr

    def run(path):
        r = subprocess.run(["bash", str(module.QEMU_RUN), "--board", "mps3-an547", "--elf",
                            str(path), "--timeout", "300"], capture_output=True, text=True,
                           timeout=600, cwd=tmp_path)
        return r.returncode, r.stdout

    status, out = run(elf)
    assert status == 0 and "test case: status 0 (ok)" in out, out
    # The image as a flash tool that does not program the MRAM section leaves
    # it: the constants read back as erased flash (0xff).
    sections = subprocess.run(["arm-none-eabi-objdump", "-h", str(elf)], capture_output=True,
                              text=True, check=True).stdout
    size = int(re.search(r"\s\.mram_data\s+([0-9a-f]+)", sections).group(1), 16)
    assert size > 0
    erased = tmp_path / "erased.bin"
    erased.write_bytes(b"\xff" * size)
    broken = tmp_path / "broken.elf"
    subprocess.run(["arm-none-eabi-objcopy", "--update-section", f".mram_data={erased}",
                    str(elf), str(broken)], check=True)
    status, out = run(broken)
    assert status != 0 and "status 530 (test_mismatch)" in out and "mismatch:" in out, out
