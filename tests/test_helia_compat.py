"""A tinyaot module is a drop-in for a helia-aot 1.1.0 module converted with
the same configuration (docs/helia-compat.md).

tests/helia_compat/app.c is firmware written against helia-aot's generated
API (prefix `hw`): every call, every status and every misuse path. Each case
converts the same model with the same configuration with both products,
compiles app.c against helia-aot's headers (headers only: helia-aot's
modules need its kernel library to link, so tests/helia_compat/kernel_stub
stands in for the one header they include), and builds and runs it, with
-Wall -Wextra -Werror, against tinyaot's module. A mechanical check then
takes every public name helia-aot's headers declare (enumerators with
their values, macros, functions, tables) and asserts tinyaot's module
declares the same, enumerator values equal.

helia-aot is found at $HELIA_AOT, else .venv-helia/bin/helia-aot, which
scripts/deps.sh (run by make test) prepares from tests/requirements-helia.txt;
without it these tests fail and say so.
"""

import os
import pathlib
import re
import shutil
import subprocess

import numpy as np
import pytest

from tests.harness import module, oracle

REPO = pathlib.Path(__file__).resolve().parent.parent
HERE = REPO / "tests" / "helia_compat"
HELLO = module.MODELS / "tflm_hello_world_int8.tflite"
MNIST_LSTM = module.MODELS / "tflm_mnist_lstm_int8.tflite"


def helia_aot():
    path = os.environ.get("HELIA_AOT", str(REPO / ".venv-helia" / "bin" / "helia-aot"))
    if not shutil.which(path):
        pytest.fail(f"helia-aot 1.1.0 not found at {path}: run scripts/deps.sh "
                    "or set HELIA_AOT")
    return path


def yaml_config(external, staged, persistent=False):
    lines = ["platform: {name: apollo510_evb}", "module: {schedule: table}", "memory:",
             f"  allocate_arenas: {'false' if external else 'true'}", "  tensors:",
             "    - attributes: {memory: DTCM}"]
    if persistent:
        lines.append("    - {type: persistent, attributes: {memory: SRAM}}")
    dest = ", constant_destination_memory: SRAM" if staged else ""
    lines.append(f"    - {{type: constant, attributes: {{memory: MRAM{dest}}}}}")
    return "\n".join(lines) + "\n"


# name: (model, external, staged, persistent, app defines)
CASES = {
    "external_cold": (HELLO, True, False, False,
                      ["APP_EXTERNAL", "APP_SCRATCH=hw_arena_dtcm", "APP_COLD=hw_arena_const_mram"]),
    "external_staged": (HELLO, True, True, False,
                        ["APP_EXTERNAL", "APP_SCRATCH=hw_arena_dtcm",
                         "APP_STAGED=hw_arena_const_sram"]),
    "own_staged": (HELLO, False, True, False, ["APP_STAGED=hw_arena_const_sram"]),
    "own_plain": (HELLO, False, False, False, []),
    "external_persistent": (MNIST_LSTM, True, False, True,
                            ["APP_EXTERNAL", "APP_SCRATCH=hw_arena_dtcm",
                             "APP_COLD=hw_arena_const_mram"]),
}


def convert_both(tmp_path, name, model, external, staged, persistent, prefix="hw"):
    cfg = tmp_path / f"{name}.yaml"
    cfg.write_text(yaml_config(external, staged, persistent))
    tiny = module.convert(model, tmp_path / f"{name}_tinyaot", prefix=prefix, config=cfg)
    out = tmp_path / f"{name}_helia"
    p = subprocess.run([helia_aot(), "convert", "--path", str(cfg), "--model.path", str(model),
                        "--module.path", str(out), "--module.prefix", prefix,
                        "--module.type", "cmake"], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    helia = out / "helia_aot_nn"
    return tiny, helia


def expected_output(tmp_path, model, tiny):
    """One input (a fixed pattern) and TFLite Micro's output for it, as files."""
    (shape, dtype), = tiny.io("input")[:1]
    x = (np.arange(int(np.prod(shape))) * 37 % 256 - 128).astype(dtype).reshape(shape)
    ins = [x] + [np.zeros(s, d) for s, d in tiny.io("input")[1:]]
    want = oracle.run_tflm(model.read_bytes(), [ins])[0][0]
    (tmp_path / "in.bin").write_bytes(x.tobytes())
    (tmp_path / "want.bin").write_bytes(np.asarray(want).tobytes())
    return tmp_path / "in.bin", tmp_path / "want.bin"


def app_flags(defines):
    return ["-std=c11", "-Wall", "-Wextra", "-Werror", *[f"-D{d}" for d in defines]]


def compile_against_helia(helia, defines):
    """app.c against helia-aot's own headers: every name it uses exists there."""
    cmd = [os.environ.get("CC", "cc"), *app_flags(defines), "-fsyntax-only",
           "-DHELIA_AOT_SKIP_TARGET_CHECK", "-I", str(HERE / "kernel_stub"),
           "-I", str(helia / "includes-api"), str(HERE / "app.c")]
    p = subprocess.run(cmd, capture_output=True, text=True)
    assert p.returncode == 0, " ".join(cmd) + "\n" + p.stderr


def compile_for_cortex_m(tiny, defines):
    """app.c against tinyaot's module with arm-none-eabi-gcc, where int32_t is
    long rather than int: the callback's and the functions' types must be
    helia-aot's exactly for the application to compile there."""
    cmd = ["arm-none-eabi-gcc", "-mcpu=cortex-m55", "-mthumb", "-mfloat-abi=hard",
           *app_flags(defines), "-fsyntax-only", "-I", str(tiny.path), str(HERE / "app.c")]
    p = subprocess.run(cmd, capture_output=True, text=True)
    assert p.returncode == 0, " ".join(cmd) + "\n" + p.stderr


def build(tmp_path, mods, main_c, defines, exe_name):
    """main_c (C11, the application's) and the modules (C99) into one program."""
    cc = os.environ.get("CC", "cc")
    san = [f for f in module.cflags() if f.startswith("-fsan") or f.startswith("-fno-")]
    incs = [a for m in mods for a in ("-I", str(m.path))]
    obj = tmp_path / (exe_name + ".o")
    p = subprocess.run([cc, *app_flags(defines), "-g", *san, *incs, "-c", str(main_c), "-o",
                        str(obj)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    srcs = [s for m in mods for s in module.sources(m.path) if "/runtime/" not in s]
    runtime = sorted({str(module.ROOT / os.path.relpath(s, m.path))
                      for m in mods for s in module.sources(m.path) if "/runtime/" in s})
    exe = tmp_path / exe_name
    p = subprocess.run([cc, *module.cflags(), *incs, str(obj), *srcs,
                        *module.cached_runtime(runtime, cc), "-lm", "-o", str(exe)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return exe


def run(exe, args):
    r = subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


@pytest.mark.parametrize("name", sorted(CASES))
def test_helia_application_runs_unchanged(tmp_path, name):
    model, external, staged, persistent, defines = CASES[name]
    tiny, helia = convert_both(tmp_path, name, model, external, staged, persistent)
    compile_against_helia(helia, defines)
    check_declarations(tmp_path, tiny, helia)
    # The sidecars the application loads carry helia-aot's names.
    for f in helia.glob("*.bin"):
        assert (tiny.path / f.name).is_file(), f.name
    compile_for_cortex_m(tiny, defines)
    inp, want = expected_output(tmp_path, model, tiny)
    exe = build(tmp_path, [tiny], HERE / "app.c", defines, "app")
    cold = tiny.path / "hw_arena_const_mram__blob.bin"
    out = run(exe, [inp, want, cold])
    assert "all checks passed" in out, out
    if external:
        assert "every refusal" in out
    if staged:
        assert "hydration required after clear_hydrated" in out, out


def test_replaced_hydration(tmp_path):
    """A replacement of the weak hydrate_constants: one that copies the
    staged source sidecar itself, and one returning a custom status, which
    model_init passes on unchanged (as helia-aot does)."""
    model, external, staged, persistent, defines = CASES["external_staged"]
    tiny, helia = convert_both(tmp_path, "replaced", model, external, staged, persistent)
    source = tiny.path / "hw_arena_const_sram__source.bin"
    assert source.is_file() and (helia / source.name).is_file()
    inp, want = expected_output(tmp_path, model, tiny)
    for variant in (1, 2):
        flags = defines + [f"APP_HYDRATE={variant}"]
        compile_against_helia(helia, flags)
        exe = build(tmp_path, [tiny], HERE / "app.c", flags, f"app_hydrate{variant}")
        out = run(exe, [inp, want, "-", source])
        assert ("custom status passes through" in out) == (variant == 2), out
        assert ("all checks passed" in out) == (variant == 1), out


def test_the_app_can_fail(tmp_path):
    """The application notices a wrong output: a module of another model
    under the same prefix gives other bytes."""
    model, external, staged, persistent, defines = CASES["own_plain"]
    cfg = tmp_path / "c.yaml"
    cfg.write_text(yaml_config(external, staged, persistent))
    tiny = module.convert(model, tmp_path / "m", prefix="hw", config=cfg)
    inp, want = expected_output(tmp_path, model, tiny)
    want.write_bytes(bytes(b ^ 1 for b in want.read_bytes()))
    exe = build(tmp_path, [tiny], HERE / "app.c", defines, "app")
    r = subprocess.run([str(exe), inp, want], capture_output=True, text=True, timeout=120)
    assert r.returncode != 0 and "FAIL" in r.stdout and "memcmp" in r.stdout, r.stdout


def test_two_models_as_the_document_spells_them(tmp_path):
    """memory-placement.txt's two-model example, its spellings as written."""
    mods, args = [], []
    for prefix in ("wake", "clf"):
        tiny, helia = convert_both(tmp_path, prefix, HELLO, True, False, False, prefix=prefix)
        blob = tiny.path / f"{prefix}_arena_const___blob.bin"
        assert blob.read_bytes() == (tiny.path / f"{prefix}_arena_const_mram__blob.bin").read_bytes()
        mods.append(tiny)
        args.append(blob)
    ios = []
    for prefix, m in zip(("wake", "clf"), mods):
        d = tmp_path / f"io_{prefix}"
        d.mkdir()
        ios += list(expected_output(d, HELLO, m))
    exe = build(tmp_path, mods, HERE / "two_models.c", [], "two_models")
    out = run(exe, args + ios)
    assert "outputs as expected" in out, out


def test_static_schedule_is_helia_aots_name_for_calls(tmp_path):
    a = module.convert(HELLO, tmp_path / "a", prefix="hw", keys={"module.schedule": "static"})
    b = module.convert(HELLO, tmp_path / "b", prefix="hw")
    assert (a.path / "hw_model.c").read_bytes() == (b.path / "hw_model.c").read_bytes()
    with pytest.raises(module.ConvertError) as e:
        module.convert(HELLO, tmp_path / "c", prefix="hw", keys={"module.schedule": "dynamic"})
    assert "calls, static, table" in e.value.stderr


# ---- the mechanical comparison of the declarations --------------------------

# Names helia-aot declares that a tinyaot module does not, each with why.
NOT_PROVIDED = {
    # "Internal accessors ... Not part of the stable public API" (its header).
    "hw_arena_buffers_table_view", "hw_arena_buffers_table_any_unbound",
    # The internal-arena pointer table; tinyaot's context has arena_buffers.
    "hw_arena_buffers",
    # helia-aot's own tensor numbering and descriptor table: tinyaot numbers
    # tensors as its views do (hw_tensor_ident_t, hw_inputs_id/outputs_id).
    "hw_num_tensors", "hw_tensor_descriptors", "hw_tensor_type_constant",
    "hw_tensor_type_persistent", "hw_tensor_type_scratch",
    # The staged-blob table behind its hydration; tinyaot's is internal.
    "hw_constant_blobs", "hw_num_constant_blobs",
    # The plan hash is another change (h14-features); platform hooks: tinyaot
    # places data with linker sections from the target file.
    "HW_PLAN_HASH", "HW_PRINTF",
    # Types of the tables above, and the context's internal fields ("Internal
    # fields" in its header; names starting with '_' are left out too).
    "hw_tensor_descriptor_t", "hw_tensor_type_t", "hw_constant_blob_t", "tensor_ptrs",
}


def helia_declarations(helia):
    text = "\n".join(p.read_text() for p in sorted((helia / "includes-api").glob("hw_*.h"))
                     if not re.search(r"hw_(kernels|operators|[a-z_]+_\d+)\.h$", p.name))
    text = re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.S)
    enums = {}
    for body, name in re.findall(r"typedef enum\s*\{(.*?)\}\s*(\w+)\s*;", text, re.S):
        value = -1
        for item in filter(None, (i.strip() for i in body.split(","))):
            key, _, v = (s.strip() for s in item.partition("="))
            value = int(v) if v else value + 1
            enums[key] = (name, value)
    macros = set(re.findall(r"#define\s+(hw_\w+|HW_\w+)", text)) - {
        m for m in re.findall(r"#define\s+(HW_PUT_\w+)", text)}
    functions = set(re.findall(r"\b(hw_\w+)\s*\(\s*(?:void|hw_model_context_t|hw_arena_region_t"
                               r"|void\s*\*\s*const)", text))
    objects = set(re.findall(r"extern\s+const\s+[\w\s\*]+?\b(hw_\w+)\s*\[", text))
    types = set(re.findall(r"\}\s*(hw_\w+_t)\s*;", text))
    types |= set(re.findall(r"typedef[^;{]*\(\s*\*\s*(hw_\w+)\s*\)", text))
    fields = {}
    for body, name in re.findall(r"typedef struct\s*\{(.*?)\}\s*(hw_\w+)\s*;", text, re.S):
        fields[name] = re.findall(r"(\w+)\s*(?:\[[^\]]*\])?\s*;", body)
    return enums, macros, functions, objects, types, fields


def check_declarations(tmp_path, tiny, helia):
    enums, macros, functions, objects, types, fields = helia_declarations(helia)
    assert "hw_status_ok" in enums and "hw_model_run" in functions and "hw_model_context_t" in types
    lines = ['#include "hw_model.h"', "#include <stdbool.h>"]
    for name, (enum, value) in sorted(enums.items()):
        if name in NOT_PROVIDED or name.startswith("hw_tensor_"):
            continue
        lines.append(f"_Static_assert({name} == {value}, \"{enum} {name} is {value}\");")
    for name in sorted(macros - NOT_PROVIDED):
        lines.append(f"#ifndef {name}\n#error \"{name} is not defined\"\n#endif")
    for t in sorted(types - NOT_PROVIDED):
        lines.append(f"typedef {t} check_{t};")
    for struct, names in sorted(fields.items()):
        if struct in NOT_PROVIDED:
            continue
        for f in names:
            if not f.startswith("_") and f not in NOT_PROVIDED:
                lines.append(f"_Static_assert(sizeof(((({struct} *)0)->{f})) > 0, \"{f}\");")
    lines.append("void *names[] = {")
    lines += [f"    (void *)&{n}," for n in sorted((functions | objects) - NOT_PROVIDED)]
    lines.append("};")
    check = tmp_path / "declarations.c"
    check.write_text("\n".join(lines) + "\n")
    p = subprocess.run([os.environ.get("CC", "cc"), "-std=c11", "-Wall", "-Wextra", "-Werror",
                        "-Wno-pedantic", "-fsyntax-only", "-I", str(tiny.path), str(check)],
                       capture_output=True, text=True)
    assert p.returncode == 0, check.read_text() + p.stderr
    # Every file name a helia-aot application includes.
    for h in (helia / "includes-api").glob("hw_*.h"):
        if h.stem in ("hw_model", "hw_context", "hw_common", "hw_platform", "hw_tensors"):
            assert (tiny.path / h.name).is_file(), h.name
