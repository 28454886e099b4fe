"""Generated code reads like hand-written C (issue 15, item 5): operators pass
named tensor pointers from the internal header, comment lines stay within 100
columns, the header's prose names statuses instead of numbers, and a module
without staged constants says nothing about hydration."""

import re

import pytest

from tests.harness import module

KWS = module.MODELS / "mlperf_tiny_kws_ref_model.tflite"  # long tensor names
AD01 = module.MODELS / "mlperf_tiny_ad01_int8.tflite"
HELLO = module.MODELS / "tflm_hello_world_int8.tflite"

STAGED = """
platform: {name: apollo510_evb}
memory:
  allocate_arenas: false
  tensors:
    - type: constant
      attributes: {memory: MRAM, constant_destination_memory: SRAM}
"""


def convert(tmp_path, model, name, yaml_text="{}\n"):
    cfg = tmp_path / f"{name}.yaml"
    cfg.write_text(yaml_text)
    return module.convert(model, tmp_path / name, prefix="kws", config=cfg)


def generated_files(m):
    """The module's own C sources and headers (not the runtime copy)."""
    return sorted(p for p in m.path.rglob("*.[ch]") if "runtime" not in p.relative_to(m.path).parts)


def comment_lines(text):
    """Every line that is, or holds part of, a block comment."""
    inside = False
    for line in text.splitlines():
        if inside or "/*" in line:
            yield line
        # A line's last comment opener or closer decides what the next line is.
        opened, closed = line.rfind("/*"), line.rfind("*/")
        if opened > closed:
            inside = True
        elif closed >= 0:
            inside = False


@pytest.mark.parametrize("model,yaml_text", [(KWS, "{}\n"), (AD01, STAGED)], ids=["kws", "ad01_staged"])
def test_comment_lines_fit_100_columns(tmp_path, model, yaml_text):
    m = convert(tmp_path, model, "mod", yaml_text)
    long_names = any(len(t["name"] or "") > 100 for t in m.views["tensors"])
    assert long_names or model != KWS, "the kws model is here for its long tensor names"
    checked = 0
    for path in generated_files(m):
        for line in comment_lines(path.read_text()):
            checked += 1
            assert len(line) <= 100, f"{path.name}: {len(line)} columns: {line}"
    assert checked > 0


def test_long_tensor_names_are_wrapped_not_cut(tmp_path):
    m = convert(tmp_path, KWS, "mod")
    name = max((t["name"] for t in m.views["tensors"] if t["name"]), key=len)
    assert len(name) > 100
    for path in (m.path / "ops").glob("*.c"):
        text = path.read_text()
        head = text[:text.index("*/")]
        # Joined again without the comment's line starts, the whole name is there.
        joined = "".join(re.sub(r"^ \*\s*", "", line) for line in head.splitlines())
        if name.split(";")[0] in head:
            assert name in joined
            break
    else:
        pytest.fail("no operator file describes the longest tensor")


@pytest.mark.parametrize("yaml_text", ["{}\n", STAGED], ids=["own", "caller_staged"])
def test_operators_pass_named_tensor_pointers(tmp_path, yaml_text):
    m = convert(tmp_path, AD01, "mod", yaml_text)
    internal = (m.path / "kws_internal.h").read_text()
    defined = dict(re.findall(r"^#define (KWS_T\w+) (.*)$", internal, re.M))
    assert defined and all(re.fullmatch(r"\(\((const )?\w+ \*\)\(KWS_BASE_\w+ \+ \d+\)\)", v)
                           for v in defined.values())
    used = set()
    for path in (m.path / "ops").glob("*.c"):
        text = path.read_text()
        code = text[text.index("*/") + 2:]
        assert "KWS_BASE_" not in code, path.name  # no "BASE + 8000" in calls
        assert not re.search(r"/\* *[\w.]+ *\*/", code), path.name  # no "/* 23 */" ids
        for call in re.findall(r"ta_\w+\((&\w+_params\d+,)?([^;]*)\);", code, re.S):
            args = [a.strip() for a in call[1].split(",") if a.strip()]
            assert all(a == "NULL" or a in defined for a in args), (path.name, args)
            used.update(args)
    assert set(defined) <= used  # the header names only what operators pass


def header_prose(m):
    """The text of every comment of the model header."""
    return "\n".join(re.findall(r"/\*.*?\*/", (m.path / "kws_model.h").read_text(), re.S))


@pytest.mark.parametrize("yaml_text", ["{}\n", STAGED], ids=["own", "caller_staged"])
def test_header_prose_names_statuses(tmp_path, yaml_text):
    m = convert(tmp_path, AD01, "mod", yaml_text)
    prose = header_prose(m)
    assert "TA_OK" in prose and "TA_ERR_NOT_INITIALIZED" in prose
    if yaml_text == STAGED:
        for name in ("TA_ERR_HYDRATION_FAILED", "TA_ERR_HYDRATION_REQUIRED",
                     "TA_ERR_ARENA_REBOUND"):
            assert name in prose
    # No status as a bare number. The I/O comments name tensors by id and
    # give shapes ("tensor 0 ..., int8 [1,640]"): those numbers are not statuses.
    prose = re.sub(r"\[[\d,]*\]", "", re.sub(r"\btensor \d+", "tensor", prose))
    assert not re.search(r"(?<![\w\[])\d+(?![\w\]])", prose), prose


def test_no_hydration_text_without_staged_constants(tmp_path):
    m = convert(tmp_path, HELLO, "mod")
    assert not any(r["source_symbol"] for r in m.views["regions"])
    for path in generated_files(m):
        for line in path.read_text().splitlines():
            rest = line.replace("kws_mark_hydrated", "")
            # helia-aot's status names are in every module's enumeration.
            rest = re.sub(r"\w*(_status_hydrat|TA_ERR_HYDRAT)\w*", "", rest)
            assert "hydrat" not in rest.lower(), f"{path.name}: {line}"
    # The function stays, so code written for any module links against it.
    assert "void kws_mark_hydrated(void);" in (m.path / "kws_model.h").read_text()


def test_hydration_text_with_staged_constants(tmp_path):
    m = convert(tmp_path, AD01, "mod", STAGED)
    assert any(r["source_symbol"] for r in m.views["regions"])
    header = (m.path / "kws_model.h").read_text()
    assert "hydration latch" in header
    assert "int32_t kws_hydrate_constants(kws_model_context_t *ctx);" in header
    assert "static bool kws_hydrated;" in (m.path / "kws_model.c").read_text()


def test_no_zero_fields_the_kernel_ignores(tmp_path):
    """With per-channel requantization arrays the convolution kernels never
    read the per-tensor multiplier and shift: the initializer leaves them out
    (zero all the same), while zero fields a kernel does read stay. Row
    chains off: a chained layer's band function builds its parameters."""
    m = convert(tmp_path, KWS, "mod", "memory: {row_streaming: 'off'}\n")
    checked = 0
    ops = {path: path.read_text() for path in (m.path / "ops").glob("*.c")}
    for path in sorted((m.path / "ops").glob("*conv_2d*.c")):
        call = re.search(r"ta_\w+\(&(\w+_params\d+),([^;]*)\);", ops[path], re.S)
        args = [a.strip() for a in call.group(2).split(",")]
        # The struct the call passes: its own, or an earlier layer's identical one.
        text = next(s for s in ops.values() if re.search(rf"const \w+ {call.group(1)} = {{", s))
        # The per-channel arrays are the lowering's created tensors of these names.
        assert any(a.endswith("_MULTIPLIERS") for a in args), path.name
        assert any(a.endswith("_SHIFTS") for a in args), path.name
        assert not re.search(r"^    \.(multiplier|shift) = ", text, re.M), path.name
        assert re.search(r"^    \.pad_top = \d+,$", text, re.M), path.name
        checked += 1
    assert checked >= 8


def test_glue_names_instead_of_numbers(tmp_path):
    """Issue 27.5: the context's I/O views, the region tables and the I/O
    tables name their values (tensor enumerators, region roles, the public
    header's macros) and write each quantization literal once."""
    m = convert(tmp_path, KWS, "mod")
    model_c = (m.path / "kws_model.c").read_text()
    header = (m.path / "kws_model.h").read_text()
    assert not re.search(r"\.id = \d", model_c), "a tensor id written as a number"
    assert not re.search(r"\.(size|zero_point|scale) = -?\d", model_c)
    roles = re.search(r"kws_region_roles\[\d+\] = \{([^}]*)\}", model_c).group(1)
    assert all(r.strip().startswith("TA_REGION_") for r in roles.split(",")), roles
    for kind in ("INPUT0", "OUTPUT0"):
        scale = re.search(rf"#define KWS_{kind}_SCALE (\S+)", header).group(1)
        zero_point = re.search(rf"#define KWS_{kind}_ZERO_POINT (\S+)", header).group(1)
        for literal in (scale, zero_point):
            assert literal not in model_c, f"{literal} is written again in kws_model.c"
            assert header.count(literal) == 1, f"{literal} is written more than once in kws_model.h"
    constants = (m.path / "kws_constants.c").read_text()
    assert "little-endian" in constants and "__BYTE_ORDER__" in constants
