"""The user's own custom operators (custom_operators in the configuration,
docs/custom-operators.md): a model with a custom operator tinyaot does not
know converts with a kernel written here, the module builds warning-free
and its outputs match a NumPy computation of the same arithmetic (TFLite
Micro cannot run an unregistered custom operator); the scratch is planned;
views call the operator by its canonical key; every invalid entry is one
line naming the entry or the operator."""

import json
import re
import shutil
import subprocess

import numpy as np
import pytest

from tests.gen.builder import ModelBuilder, Q
from tests.harness import module

# y = sat8((a - a.zero_point) + k * b + c), k the first custom_options byte,
# c a constant input; the sums go through the scratch; total = sum of y.
KERNEL_H = """\
#ifndef SCALED_ADD_H
#define SCALED_ADD_H
#include "../runtime/include/ta_custom.h"
int user_scaled_add(const ta_custom_call_t *call);
#endif
"""

KERNEL_C = """\
#include "scaled_add.h"

int user_scaled_add(const ta_custom_call_t *call)
{
    const ta_custom_tensor_t *a = &call->inputs[0], *b = &call->inputs[1], *c = &call->inputs[2];
    const ta_custom_tensor_t *y = &call->outputs[0], *total = &call->outputs[1];
    int16_t *sum = call->scratch;
    int32_t n = y->num_elements, k, acc = 0;
    if (call->num_inputs != 3 || call->num_outputs != 2 || call->options_size != 1 ||
        a->dtype != TA_CUSTOM_INT8 || c->dtype != TA_CUSTOM_INT8 ||
        total->dtype != TA_CUSTOM_INT32 || y->rank != 2 || y->dims[1] != 4)
        return 1001;
    if (call->scratch_bytes < 2u * (uint32_t)n)
        return 1002;
    k = call->options[0];
    for (int32_t i = 0; i < n; i++)
        sum[i] = (int16_t)(((const int8_t *)a->data)[i] - a->zero_point +
                           k * ((const int8_t *)b->data)[i] + ((const int8_t *)c->data)[i]);
    for (int32_t i = 0; i < n; i++) {
        int32_t v = sum[i] > 127 ? 127 : sum[i] < -128 ? -128 : sum[i];
        ((int8_t *)y->data)[i] = (int8_t)v;
        acc += v;
    }
    ((int32_t *)total->data)[0] = acc;
    return 0;
}
"""

CONSTANT = np.array([[5, -7, 0, 100], [-100, 3, 9, -1]], dtype=np.int8)
K = 3
ZERO_POINT = -4

ENTRY = """\
custom_operators:
  - code: Scaled-Add
    function: user_scaled_add
    sources: [kernels/scaled_add.c]
    headers: [kernels/scaled_add.h]
    outputs:
      - {shape: same_as_input_0, dtype: same_as_input_0}
      - {shape: [1], dtype: int32}
    scratch_bytes: 16
"""


def model_bytes(code="Scaled-Add"):
    b = ModelBuilder()
    a = b.tensor([2, 4], "int8", Q(0.5, ZERO_POINT), name="a")
    x = b.tensor([2, 4], "int8", name="b")
    c = b.const(CONSTANT, "int8", name="c")
    y = b.tensor([2, 4], "int8", name="y")
    total = b.tensor([1], "int32", name="total")
    b.custom_op(code, [a, x, c], [y, total], bytes([K]))
    return b.build(inputs=[a, x], outputs=[y, total])


def expected(a, b):
    s = a.astype(np.int32) - ZERO_POINT + K * b.astype(np.int32) + CONSTANT
    y = np.clip(s, -128, 127).astype(np.int8)
    return [y, np.array([int(y.astype(np.int32).sum())], dtype=np.int32)]


def project(tmp_path, entry=ENTRY, extra="", code="Scaled-Add"):
    """A folder with the model, the kernel and a config; returns the config."""
    (tmp_path / "kernels").mkdir(exist_ok=True)
    (tmp_path / "kernels" / "scaled_add.c").write_text(KERNEL_C)
    (tmp_path / "kernels" / "scaled_add.h").write_text(KERNEL_H)
    (tmp_path / "other").mkdir(exist_ok=True)
    (tmp_path / "other" / "scaled_add.h").write_text(KERNEL_H)
    (tmp_path / "m.tflite").write_bytes(model_bytes(code))
    cfg = tmp_path / "tinyaot.yaml"
    cfg.write_text("model: {path: m.tflite}\nmodule: {path: out, prefix: m}\n"
                   "memory: {dump_residency_json: true}\n" + extra + entry)
    return cfg


def tinyaot(*args):
    return subprocess.run([module.tinyaot_bin(), *map(str, args)], capture_output=True,
                          text=True, timeout=120)


def test_a_user_kernel_converts_builds_and_runs(tmp_path):
    cfg = project(tmp_path)
    p = tinyaot("convert", "--config", cfg)
    assert p.returncode == 0, p.stderr
    out = tmp_path / "out"
    # Copied byte for byte, and built with the module.
    assert (out / "custom" / "scaled_add.c").read_text() == KERNEL_C
    assert (out / "custom" / "scaled_add.h").read_text() == KERNEL_H
    assert "custom/scaled_add.c" in (out / "CMakeLists.txt").read_text()
    views = json.loads((out / "m_views.json").read_text())
    m = module.Module(out, "m", views, p.stdout, p.stderr)
    exe = module.build(m)  # -Wall -Wextra -Werror (and sanitizers with TINYAOT_SANITIZE)
    rng = np.random.default_rng(12)
    runs = [[rng.integers(-128, 128, size=(2, 4)).astype(np.int8) for _ in range(2)]
            for _ in range(20)]
    runs.append([np.full((2, 4), 127, np.int8), np.full((2, 4), 127, np.int8)])
    runs.append([np.full((2, 4), -128, np.int8), np.full((2, 4), -128, np.int8)])
    got = module.run(m, exe, runs)
    for r, outs in zip(runs, got):
        for g, e in zip(outs, expected(*r)):
            np.testing.assert_array_equal(g, e)


COMPILERS = [
    ["gcc", "-std=c99", "-pedantic"],
    ["clang", "-std=c99", "-pedantic"],
    ["arm-none-eabi-gcc", "-std=c99", "-mcpu=cortex-m55", "-mthumb", "-mfloat-abi=hard"],
]


@pytest.mark.parametrize("cc", COMPILERS, ids=[c[0] for c in COMPILERS])
def test_the_module_compiles_warning_free(tmp_path, cc):
    assert shutil.which(cc[0]), f"{cc[0]} is not installed (make deps installs it)"
    cfg = project(tmp_path)
    p = tinyaot("convert", "--config", cfg)
    assert p.returncode == 0, p.stderr
    out = tmp_path / "out"
    c = subprocess.run([*cc, "-O2", "-Wall", "-Wextra", "-Werror", "-I", str(out), "-c",
                        *module.sources(out)], capture_output=True, text=True, cwd=tmp_path)
    assert c.returncode == 0, c.stderr


def test_cmake_builds_a_module_whose_only_operator_is_a_user_kernel(tmp_path):
    """No runtime C at all: the runtime library is an INTERFACE one."""
    cfg = project(tmp_path, extra="")
    p = tinyaot("convert", "--config", cfg, "--module.name", "scaled")
    assert p.returncode == 0, p.stderr
    out = tmp_path / "out"
    assert "add_library(scaled_runtime INTERFACE" in (out / "CMakeLists.txt").read_text()
    app = tmp_path / "app"
    app.mkdir()
    (app / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.13)\nproject(app C)\n"
        f"add_subdirectory({out} module)\nadd_executable(app main.c)\n"
        "target_link_libraries(app PRIVATE scaled)\n")
    (app / "main.c").write_text('#include "m_model.h"\nint main(void) {\n'
                                "  m_model_context_t ctx;\n"
                                "  return m_model_run(&ctx) == TA_ERR_NOT_INITIALIZED ? 0 : 1;\n}\n")
    for cmd in (["cmake", "-S", app, "-B", app / "b", "-DCMAKE_C_FLAGS=-Wall -Wextra -Werror"],
                ["cmake", "--build", app / "b"], [app / "b" / "app"]):
        r = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stdout + r.stderr


def test_views_and_residency_name_the_canonical_key_and_the_planned_scratch(tmp_path):
    cfg = project(tmp_path)
    p = tinyaot("convert", "--config", cfg)
    assert p.returncode == 0, p.stderr
    out = tmp_path / "out"
    views = json.loads((out / "m_views.json").read_text())
    (op,) = views["operators"]
    assert op["type"] == "SCALED_ADD"
    assert op["kernel_calls"] == {"run": "user_scaled_add"}
    assert "op0.scratch" in op["local_tensor_ids"]
    residency = json.loads((out / "m_residency.json").read_text())
    scratch = [t for t in residency["tensors"] if t["id"] == "op0.scratch"]
    assert len(scratch) == 1
    assert scratch[0]["kind"] == "scratch" and scratch[0]["size"] == 16
    assert scratch[0]["first_op"] == scratch[0]["last_op"] == 0
    options = [t for t in residency["tensors"] if t["id"] == "op0.custom_options"]
    assert options and options[0]["kind"] == "constant"


def test_no_scratch_no_options_and_an_explicit_shape(tmp_path):
    entry = ENTRY.replace("    scratch_bytes: 16\n", "").replace(
        "{shape: same_as_input_0, dtype: same_as_input_0}", "{shape: [2, 4], dtype: int8}")
    cfg = project(tmp_path, entry)
    p = tinyaot("convert", "--config", cfg)
    assert p.returncode == 0, p.stderr
    views = json.loads((tmp_path / "out" / "m_views.json").read_text())
    assert "op0.scratch" not in views["operators"][0]["local_tensor_ids"]
    # The kernel refuses to run without its scratch: the status comes back.
    m = module.Module(tmp_path / "out", "m", views, p.stdout, p.stderr)
    exe = module.build(m)
    with pytest.raises(RuntimeError, match="1002"):
        module.run(m, exe, [[np.zeros((2, 4), np.int8)] * 2])


def test_test_case_needs_given_outputs(tmp_path):
    cfg = project(tmp_path, extra="test: {enabled: true}\n")
    p = tinyaot("convert", "--config", cfg)
    assert p.returncode != 0
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr
    assert "operator 0 (SCALED_ADD) calls the user kernel user_scaled_add" in lines[0]
    assert "test.outputs" in lines[0]
    a = np.arange(-4, 4, dtype=np.int8).reshape(2, 4)
    b = np.arange(8, dtype=np.int8).reshape(2, 4)
    (tmp_path / "a.bin").write_bytes(a.tobytes())
    (tmp_path / "b.bin").write_bytes(b.tobytes())
    y, total = expected(a, b)
    (tmp_path / "y.bin").write_bytes(y.tobytes())
    (tmp_path / "t.bin").write_bytes(total.tobytes())
    cfg = project(tmp_path, extra="test: {enabled: true, inputs: [a.bin, b.bin], "
                                  "outputs: [y.bin, t.bin]}\n")
    p = tinyaot("convert", "--config", cfg, "--force")
    assert p.returncode == 0, p.stderr
    # The test case passes with the right expected outputs, and fails with a
    # wrong byte in them.
    for flip, status in ((False, 0), (True, 1)):
        if flip:
            (tmp_path / "y.bin").write_bytes(bytes([y.tobytes()[0] ^ 1]) + y.tobytes()[1:])
            p = tinyaot("convert", "--config", cfg, "--force")
            assert p.returncode == 0, p.stderr
        out = tmp_path / "out"
        exe = tmp_path / "tc"
        c = subprocess.run(["cc", *module.cflags(), "-DTA_PREFIX=m", "-I", str(out),
                            str(module.HARNESS / "test_case_main.c"), *module.cached_sources(out, "cc"),
                            "-lm", "-o", str(exe)], capture_output=True, text=True, timeout=300)
        assert c.returncode == 0, c.stderr
        r = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
        assert (r.returncode != 0) == bool(status), r.stdout + r.stderr


def swap(old, new):
    return ENTRY.replace(old, new)


BAD = [
    (swap("function: user_scaled_add", "function: 1bad"),
     r"tinyaot.yaml:6: custom_operators\[0\].function: '1bad' is not a C identifier"),
    (swap("    function: user_scaled_add\n", ""),
     r"tinyaot.yaml:5: custom_operators\[0\]: a custom operator needs 'function'"),
    (swap("kernels/scaled_add.c]", "kernels/missing.c]"),
     r"custom_operators\[0\].sources\[0\]: '.*kernels/missing.c' does not exist"),
    (swap("kernels/scaled_add.c]", "kernels/scaled_add.h]"),
     r"custom_operators\[0\].sources\[0\]: 'kernels/scaled_add.h' does not end in .c"),
    (swap("kernels/scaled_add.c]", "'kernels/scaled add.c']"),
     r"custom_operators\[0\].sources\[0\]: file name 'scaled add.c' is not copied"),
    (swap("headers: [kernels/scaled_add.h]", "headers: [kernels/scaled_add.h, other/scaled_add.h]"),
     r"'.*kernels/scaled_add.h' and '.*other/scaled_add.h' would both be copied to "
     r"custom/scaled_add.h"),
    (swap("code: Scaled-Add", "code: Scaled/Add"),
     r"custom_operators\[0\].code: 'Scaled/Add' has a character other than"),
    (swap("code: Scaled-Add", "code: SignalWindow"),
     r"custom_operators: code SignalWindow is tinyaot's own custom operator SignalWindow"),
    (ENTRY + ENTRY.replace("custom_operators:\n", "").replace("Scaled-Add", "SCALED_ADD"),
     r"tinyaot.yaml:13: custom operator SCALED_ADD: .*tinyaot.yaml:5 \(Scaled-Add\) already names "
     r"custom operator SCALED_ADD"),
    (swap("scratch_bytes: 16", "scratch_bytes: -1"),
     r"custom_operators\[0\].scratch_bytes: expected an integer from 0"),
    (swap("scratch_bytes: 16", "scratch: 16"),
     r"unknown key 'custom_operators\[0\].scratch'"),
    (swap("{shape: [1], dtype: int32}", "{shape: [1], dtype: int9}"),
     r"outputs\[1\].dtype: 'int9' is neither same_as_input_<N> nor a dtype"),
    (swap("{shape: [1], dtype: int32}", "{shape: [0], dtype: int32}"),
     r"outputs\[1\].shape\[0\]: expected a dimension of at least 1"),
    (swap("{shape: [1], dtype: int32}", "{dtype: int32}"),
     r"outputs\[1\]: an output needs 'shape' and 'dtype'"),
    (swap("{shape: [1], dtype: int32}", "{shape: [2], dtype: int32}"),
     r"m.tflite: operator 0 \(SCALED_ADD\): output 1 \(tensor 4\) has shape \[1\]; the "
     r"custom_operators entry at .*tinyaot.yaml:11 says \[2\]"),
    (swap("{shape: [1], dtype: int32}", "{shape: [1], dtype: int16}"),
     r"operator 0 \(SCALED_ADD\): output 1 \(tensor 4\) is int32; .* says int16"),
    (swap("{shape: [1], dtype: int32}", "{shape: [1], dtype: same_as_input_1}"),
     r"output 1 \(tensor 4\) is int32; .* says int8 \(the dtype of input 1\)"),
    (swap("{shape: same_as_input_0, dtype: same_as_input_0}",
          "{shape: same_as_input_7, dtype: int8}"),
     r"operator 0 \(SCALED_ADD\): output 0 follows input 7 .*, which it does not have"),
    (swap("      - {shape: [1], dtype: int32}\n", ""),
     r"operator 0 \(SCALED_ADD\): has 2 outputs; the custom_operators entry at .* describes 1"),
    (swap("code: Scaled-Add", "code: OtherOp"),
     r"operator 0 \(Scaled-Add\): operator type Scaled-Add is not supported by tinyaot \(a "
     r"custom operator: a custom_operators entry"),
]


@pytest.mark.parametrize("entry,message", BAD, ids=[f"bad{i}" for i in range(len(BAD))])
def test_each_invalid_entry_is_one_line(tmp_path, entry, message):
    cfg = project(tmp_path, entry)
    p = tinyaot("convert", "--config", cfg)
    assert p.returncode != 0
    errors = [line for line in p.stderr.strip().splitlines() if "warning" not in line]
    assert len(errors) == 1, p.stderr
    assert re.search(message, errors[0]), errors[0]
    assert not (tmp_path / "out").exists()


def test_an_entry_the_model_does_not_use_is_a_warning(tmp_path):
    extra = ENTRY.replace("custom_operators:\n", "").replace("Scaled-Add", "Unused")
    cfg = project(tmp_path, ENTRY + extra)
    p = tinyaot("convert", "--config", cfg)
    assert p.returncode == 0, p.stderr
    assert "custom_operators: Unused: the model has no operator with this code" in p.stderr
