"""Memory placement (memory-placement spec): targets, rules and their
precedence, budgets and spilling, cold and staged constants, the address-zero
guard, and that every placed module still runs bit-exact."""

import json
import re
import subprocess

import numpy as np
import pytest

from tests.harness import difftest, module, oracle

AD01 = module.MODELS / "mlperf_tiny_ad01_int8.tflite"
HELLO = module.MODELS / "tflm_hello_world_int8.tflite"


def convert(tmp_path, model, yaml_text="", keys=None, name="mod", strict=False):
    cfg = tmp_path / f"{name}.yaml"
    cfg.write_text(yaml_text or "{}\n")
    k = {"memory.dump_residency_json": "true"}
    k.update(keys or {})
    m = module.convert(model, tmp_path / name, keys=k, config=cfg, strict=strict)
    m.residency = json.loads((m.path / "m_residency.json").read_text())
    return m


def convert_error(tmp_path, model, yaml_text, keys=None, strict=False, name="bad"):
    with pytest.raises(module.ConvertError) as e:
        convert(tmp_path, model, yaml_text, keys, strict=strict, name=name)
    assert not (tmp_path / name).exists()
    assert not list(tmp_path.glob(name + ".tinyaot-*"))
    return e.value.stderr


def rows(m):
    return {t["id"]: t for t in m.residency["tensors"]}


def region(m, rid):
    return m.residency["regions"][rid]


def memories(m):
    return {r["name"]: r for r in m.residency["memories"]}


def assert_bit_exact(m, model, runs=20):
    """Every placement case: the module compiles warning-free for Cortex-M55
    (each memory's arenas in their linker section) and runs bit-exact on the
    host."""
    c = subprocess.run(["arm-none-eabi-gcc", "-std=c99", "-mcpu=cortex-m55", "-mthumb",
                        "-mfloat-abi=hard", "-O2", "-Wall", "-Wextra", "-Werror", "-I", str(m.path),
                        "-c", *module.sources(m.path)], capture_output=True, text=True,
                       cwd=m.path.parent)
    assert c.returncode == 0, c.stderr
    exe = module.build(m)
    data = model.read_bytes()
    ins = oracle.random_inputs(data, np.random.default_rng(5), runs)
    total, diff = difftest._count_diff(module.run(m, exe, ins),
                                       oracle.run_tflm(data, ins, isolated=True))
    assert total > 0 and diff == 0, f"{diff} of {total} bytes differ"


SPEC_PLACED = """
platform: {name: apollo510_evb}
memory:
  tensors:
    - attributes:
        memory: DTCM
    - type: constant
      attributes:
        memory: MRAM
    - id: "11"
      attributes:
        constant_destination_memory: SRAM
        memory: MRAM
"""


def test_spec_placed_plan_stages_constant_11_into_sram(tmp_path):
    m = convert(tmp_path, AD01, SPEC_PLACED)
    r = rows(m)
    t11 = r["11"]
    assert (t11["memory"], t11["source_memory"], t11["staged"]) == ("SRAM", "MRAM", True)
    staged = region(m, t11["region_id"])
    assert staged["role"] == "constant" and staged["staged"] and staged["source_memory"] == "MRAM"
    assert staged["tensors"] == 1
    for tid, row in r.items():
        if row["kind"] == "constant" and tid != "11":
            assert (row["memory"], row["staged"]) == ("MRAM", False), tid
        if row["kind"] == "scratch":
            assert row["memory"] == "DTCM", tid
    roles = {(g["memory"], g["role"], g["staged"]) for g in m.residency["regions"]}
    assert roles == {("DTCM", "scratch", False), ("SRAM", "constant", True),
                     ("MRAM", "constant", False)}
    # The source blob lives in MRAM and is charged there as well.
    mem = memories(m)
    assert mem["SRAM"]["used"] == staged["size"]
    assert mem["MRAM"]["used"] >= staged["size"]
    assert_bit_exact(m, AD01)


def test_hydration_source_and_destination_share_layout(tmp_path):
    m = convert(tmp_path, AD01, SPEC_PLACED)
    staged = [g for g in m.residency["regions"] if g["staged"]][0]
    # Same bytes at the same relative offsets: the source blob is a byte
    # image of the destination region, padding included.
    src = (m.path / "m_constants.c").read_text()
    assert f"const uint8_t {staged['source_symbol']}[{staged['size']}]" in src
    assert "memcpy((uint8_t *)(uintptr_t)ctx->arena_buffers[M_ARENA_SRAM_STAGED_FROM_MRAM] + 0,\n" \
           f"           m_arena_sram_staged_from_mram_source + 0, {staged['size']});" \
        in (m.path / "m_model.c").read_text()


SPEC_BUDGET = """
platform: {name: apollo510_evb}
memory:
  constraints:
    - name: DTCM
      max_size: %d
    - name: SRAM
    - name: MRAM
  tensors:
    - attributes: {memory: DTCM}
"""


def test_spec_dtcm_budget_leaves_psram_unused(tmp_path):
    m = convert(tmp_path, AD01, SPEC_BUDGET % 458752)
    mem = memories(m)
    assert mem["DTCM"]["budget"] == 458752 and mem["DTCM"]["used"] <= 458752
    assert not mem["PSRAM"]["usable"] and mem["PSRAM"]["used"] == 0
    assert_bit_exact(m, AD01)


def test_budget_spills_in_target_order(tmp_path):
    """With no memory rule, tensors go along the target's spill order:
    scratch fills DTCM up to its budget, then SRAM; constants go to
    read-only MRAM first."""
    yaml_text = """
platform: {name: apollo510_evb}
memory:
  constraints:
    - name: DTCM
      max_size: 512
    - name: SRAM
    - name: MRAM
"""
    m = convert(tmp_path, AD01, yaml_text)
    mem = memories(m)
    assert 0 < mem["DTCM"]["used"] <= 512
    assert mem["SRAM"]["used"] > 0
    placed = {row["memory"] for row in m.residency["tensors"] if row["kind"] == "scratch"}
    assert placed == {"DTCM", "SRAM"}
    assert all(row["memory"] == "MRAM" for row in m.residency["tensors"]
               if row["kind"] == "constant")
    assert_bit_exact(m, AD01)


def test_arena_alignment_applies_to_base_and_every_slot(tmp_path):
    yaml_text = """
platform: {name: apollo510_evb}
memory:
  constraints:
    - name: DTCM
      arena_alignment: 64
    - name: MRAM
"""
    m = convert(tmp_path, AD01, yaml_text)
    dtcm = [g for g in m.residency["regions"] if g["memory"] == "DTCM"]
    assert dtcm and all(g["alignment"] == 64 for g in dtcm)
    for row in m.residency["tensors"]:
        if row["memory"] == "DTCM":
            assert row["offset"] % 64 == 0 and row["size"] % 64 == 0, row
    assert "TA_ALIGNED(64) uint8_t m_arena_dtcm_scratch" in (m.path / "m_arenas.c").read_text()
    mram = [g for g in m.residency["regions"] if g["memory"] == "MRAM"]
    assert all(g["alignment"] == 16 for g in mram)


def test_default_alignment_is_at_least_16(tmp_path):
    m = convert(tmp_path, HELLO)
    assert all(g["alignment"] >= 16 for g in m.residency["regions"])


def test_uppercase_kind_matches_nothing_and_warns(tmp_path):
    yaml_text = """
platform: {name: apollo510_evb}
memory:
  tensors:
    - type: CONSTANT
      attributes: {memory: SRAM}
"""
    m = convert(tmp_path, AD01, yaml_text)
    assert "rule memory.tensors[0] matches no tensor" in m.stderr
    assert "write 'constant', not 'CONSTANT'" in m.stderr
    assert all(row["memory"] == "MRAM" for row in m.residency["tensors"]
               if row["kind"] == "constant")
    err = convert_error(tmp_path, AD01, yaml_text, strict=True)
    assert "error:" in err and "write 'constant', not 'CONSTANT'" in err


def test_rule_naming_a_missing_id_warns(tmp_path):
    m = convert(tmp_path, HELLO, "memory:\n  tensors:\n    - id: '999'\n      attributes: {memory: DRAM}\n")
    assert "matches no tensor" in m.stderr and "'999'" in m.stderr


def test_precedence_and_attribute_merge(tmp_path):
    yaml_text = """
platform: {name: apollo510_evb}
memory:
  tensors:
    - type: constant
      id: "11"
      attributes: {memory: MRAM}
    - type: constant
      attributes: {memory: SRAM}
    - id: "11"
      attributes: {memory: PSRAM, constant_destination_memory: DTCM}
    - attributes: {memory: DTCM}
    - type: constant
      attributes: {memory: PSRAM}
"""
    m = convert(tmp_path, AD01, yaml_text)
    r = rows(m)
    # kind+id outranks everything: tensor 11's bytes stay in MRAM; the
    # id-only rule still contributes constant_destination_memory (merge).
    assert (r["11"]["source_memory"], r["11"]["memory"], r["11"]["staged"]) == ("MRAM", "DTCM", True)
    # Among the two kind-only rules the later one wins.
    assert r["12"]["memory"] == "PSRAM"
    # The global rule places scratch.
    assert all(row["memory"] == "DTCM" for row in r.values() if row["kind"] == "scratch")
    assert_bit_exact(m, AD01)


def test_kind_only_outranks_id_only(tmp_path):
    yaml_text = """
platform: {name: apollo510_evb}
memory:
  tensors:
    - type: constant
      attributes: {memory: SRAM}
    - id: "12"
      attributes: {memory: PSRAM}
"""
    r = rows(convert(tmp_path, AD01, yaml_text))
    assert r["12"]["memory"] == "SRAM"


def test_scratch_in_mram_is_an_error(tmp_path):
    err = convert_error(tmp_path, AD01, """
platform: {name: apollo510_evb}
memory:
  tensors:
    - type: scratch
      attributes: {memory: MRAM}
""")
    assert "is scratch, but MRAM is read-only" in err


def test_memory_the_target_lacks_is_an_error(tmp_path):
    err = convert_error(tmp_path, AD01, """
platform: {name: mps2_an386}
memory:
  tensors:
    - attributes: {memory: DTCM}
""")
    assert "target mps2_an386 has no DTCM memory" in err


def test_memory_outside_the_constraint_list_is_an_error(tmp_path):
    err = convert_error(tmp_path, AD01, """
platform: {name: apollo510_evb}
memory:
  constraints:
    - name: DTCM
    - name: MRAM
  tensors:
    - type: constant
      attributes: {memory: PSRAM}
""")
    assert "PSRAM is not listed in memory.constraints" in err


def test_pinned_tensor_that_cannot_fit_says_by_how_much(tmp_path):
    err = convert_error(tmp_path, AD01, """
platform: {name: apollo510_evb}
memory:
  constraints:
    - name: DTCM
      max_size: 4096
    - name: MRAM
  tensors:
    - id: "11"
      attributes: {memory: DTCM}
""")
    # Tensor 11 is 128x640 int8 = 81920 bytes; DTCM also holds the scratch.
    assert "DTCM: the plan needs" in err and "budget is 4096" in err
    assert "bytes over" in err and "11" in err


def test_staged_constants_need_one_source_per_destination(tmp_path):
    err = convert_error(tmp_path, AD01, """
platform: {name: apollo510_evb}
memory:
  tensors:
    - id: "11"
      attributes: {memory: MRAM, constant_destination_memory: SRAM}
    - id: "12"
      attributes: {memory: PSRAM, constant_destination_memory: SRAM}
""")
    assert "staged into SRAM come from" in err and "one source memory" in err


def test_itcm_region_gets_an_address_zero_guard(tmp_path):
    m = convert(tmp_path, AD01, """
platform: {name: mps3_an547}
memory:
  tensors:
    - type: scratch
      attributes: {memory: ITCM}
""")
    itcm = [g for g in m.residency["regions"] if g["memory"] == "ITCM"]
    assert itcm and itcm[0]["offset"] == itcm[0]["alignment"] > 0
    views = m.views["regions"]
    assert views[itcm[0]["id"]]["offset"] == itcm[0]["offset"]
    assert "guard" not in json.dumps(m.views["placements"])
    assert_bit_exact(m, AD01)


def test_user_target_from_yaml_file(tmp_path):
    target = tmp_path / "board.yaml"
    target.write_text("""
name: my_board
description: two memories
core: cortex-m4
min_alignment: 32
sources: ["this test"]
memories:
  - {name: SRAM, base: 0x20000000, capacity: 65536, writable: true, executable: false,
     volatile: true, bss_section: .my_bss, data_section: .my_data}
  - {name: MRAM, base: 0x00000000, capacity: 1048576, writable: false, executable: true,
     volatile: false, data_section: .my_rodata}
spill_order: [SRAM, MRAM]
""")
    m = convert(tmp_path, AD01, keys={"platform.name": str(target)})
    assert m.residency["target"] == "my_board"
    assert all(g["alignment"] == 32 for g in m.residency["regions"])
    assert 'TA_SECTION(".my_bss.m")' in (m.path / "m_arenas.c").read_text()
    assert 'TA_SECTION(".my_rodata.m")' in (m.path / "m_constants.c").read_text()


def test_bad_target_file_is_reported(tmp_path):
    target = tmp_path / "broken_board.yaml"
    target.write_text("name: x\ncore: y\nmin_alignment: 16\nmemories:\n"
                      "  - {name: MRAM, base: 0, capacity: 10, writable: true, executable: false,"
                      " volatile: false}\nspill_order: [MRAM]\n")
    err = convert_error(tmp_path, HELLO, "", keys={"platform.name": str(target)})
    assert f"{target}:5" in err and "MRAM is read-only" in err


def test_code_and_scratch_placement_rules(tmp_path):
    m = convert(tmp_path, AD01, """
platform: {name: mps3_an547}
operators:
  - type: FULLY_CONNECTED
    id: 3
    attributes: {code_placement: ITCM}
""")
    src = (m.path / "ops" / "m_fully_connected_3.c").read_text()
    assert 'TA_SECTION(".itcm_text.m")' in src
    assert "TA_SECTION" not in (m.path / "ops" / "m_fully_connected_2.c").read_text()
    err = convert_error(tmp_path, AD01, "platform: {name: mps3_an547}\noperators:\n"
                        "  - attributes: {code_placement: DTCM}\n")
    assert "code_placement DTCM" in err


def test_operator_rule_with_lowercase_type_warns(tmp_path):
    m = convert(tmp_path, AD01, "operators:\n  - type: fully_connected\n"
                "    attributes: {scratch_placement: DRAM}\n")
    assert "write 'FULLY_CONNECTED', not 'fully_connected'" in m.stderr


def test_deprecated_auto_hydrate_warns_and_changes_nothing(tmp_path):
    a = convert(tmp_path, AD01, SPEC_PLACED, name="a")
    b = convert(tmp_path, AD01, SPEC_PLACED + "  auto_hydrate_constants: false\n", name="b")
    assert "auto_hydrate_constants is deprecated" in b.stderr
    assert (a.path / "m_model.c").read_text() == (b.path / "m_model.c").read_text()


@pytest.mark.parametrize("target", ["apollo510_evb",
                                    pytest.param("mps3_an547", marks=pytest.mark.qemu)])
def test_placed_module_runs_on_cortex_m55(tmp_path, target):
    """The placed module cross-compiles for Cortex-M55 with every memory in
    its own linker section (the QEMU board's script places them) and runs
    bit-exact under QEMU."""
    yaml_text = """
platform: {name: mps3_an547}
memory:
  tensors:
    - type: scratch
      attributes: {memory: DTCM}
    - type: constant
      attributes: {memory: MRAM}
    - id: "11"
      attributes: {memory: MRAM, constant_destination_memory: SRAM}
"""
    if target == "apollo510_evb":
        # Sections of the real part do not exist in the QEMU linker script:
        # compile only, for the Cortex-M55, warning-free.
        m = convert(tmp_path, AD01, SPEC_PLACED)
        for src in module.sources(m.path):
            c = subprocess.run(["arm-none-eabi-gcc", "-std=c99", "-mcpu=cortex-m55", "-mthumb",
                                "-mfloat-abi=hard", "-O2", "-Wall", "-Wextra", "-Werror", "-I", str(m.path), "-c",
                                src, "-o", str(tmp_path / "x.o")], capture_output=True, text=True)
            assert c.returncode == 0, c.stderr
        return
    m = convert(tmp_path, AD01, yaml_text)
    elf = module.build_qemu(m)
    data = AD01.read_bytes()
    ins = oracle.random_inputs(data, np.random.default_rng(9), 3)
    outs, log = module.run_qemu(m, elf, ins)
    total, diff = difftest._count_diff(outs, oracle.run_tflm(data, ins, isolated=True))
    assert diff == 0 and total == 3 * 640, log
    mapfile = (elf.parent / (elf.name + ".map")).read_text()
    for section in (".dtcm_bss", ".sram_bss", ".mram_data"):
        assert section in mapfile


@pytest.mark.qemu
@pytest.mark.parametrize("board,target", [("mps3-an547", "mps3_an547"), ("mps2-an386", "mps2_an386")])
def test_simd_kernels_bit_exact_on_cortex_m(tmp_path, board, target):
    """The Helium (Cortex-M55) and DSP (Cortex-M4) paths of the kernels give
    the oracle's bytes; the figure printed is instructions per inference."""
    m = convert(tmp_path, AD01, keys={"platform.name": target})
    elf = module.build_qemu(m, board=board)
    data = AD01.read_bytes()
    ins = oracle.random_inputs(data, np.random.default_rng(12), 4)
    outs, log = module.run_qemu(m, elf, ins, board=board)
    total, diff = difftest._count_diff(outs, oracle.run_tflm(data, ins, isolated=True))
    print(f"{board}: {log.strip()}")
    assert total == 4 * 640 and diff == 0


def test_inplace_output_goes_below_the_separate_lower_bound(tmp_path):
    """FULLY_CONNECTED -> LOGISTIC -> FULLY_CONNECTED with a wide middle: the
    LOGISTIC writes its output over its input, which nothing reads later, so
    the arena holds one 512-byte tensor at that step instead of two."""
    from tests.gen.builder import ModelBuilder, Q
    rng = np.random.default_rng(3)
    b = ModelBuilder()
    x = b.tensor([1, 32], "int8", Q(0.05, 2), name="x")
    h = b.tensor([1, 512], "int8", Q(0.1, -3), name="h")
    s = b.tensor([1, 512], "int8", Q(1.0 / 256, -128), name="s")
    y = b.tensor([1, 8], "int8", Q(0.2, 5), name="y")
    w1 = b.const(rng.integers(-127, 128, (512, 32)).astype(np.int8), "int8", Q(0.01, 0))
    w2 = b.const(rng.integers(-127, 128, (8, 512)).astype(np.int8), "int8", Q(0.003, 0))
    b.op("FULLY_CONNECTED", [x, w1], [h], "FullyConnectedOptions")
    b.op("LOGISTIC", [h], [s])
    b.op("FULLY_CONNECTED", [s, w2], [y], "FullyConnectedOptions")
    data = b.build(inputs=[x], outputs=[y])
    path = tmp_path / "m.tflite"
    path.write_bytes(data)
    m = convert(tmp_path, path)
    r = rows(m)
    assert r["2"]["alias_of"] == "1" and r["2"]["offset"] == r["1"]["offset"]
    scratch = [g for g in m.residency["regions"] if g["role"] == "scratch"][0]
    # Apart, h and s would both be live at the LOGISTIC: 512 + 512 bytes.
    assert scratch["size"] < 1024 and scratch["size"] == scratch["lower_bound"]
    assert_bit_exact(m, path, runs=30)


KWS = module.MODELS / "mlperf_tiny_kws_ref_model.tflite"
# Without row chains: the scratch plan of whole tensors, outputs over inputs.
TIGHT_DTCM = """
platform: {name: mps3_an547}
memory:
  row_streaming: "off"
  constraints:
    - {name: DTCM, max_size: %d}
    - {name: ITCM}
  tensors:
    - {type: constant, attributes: {memory: ITCM}}
"""


def test_budget_shortfall_names_the_smallest_budget_that_fits(tmp_path):
    """The error names the max_size that fits (issue 22, finding 6): the
    scratch plan overlaps outputs with inputs, so the answer is neither the
    tensor's size nor the budget plus the missing bytes; the named size
    converts and one byte less does not."""
    err = convert_error(tmp_path, KWS, TIGHT_DTCM % 8000)
    assert err.count("error:") == 1, err
    found = re.search(r"set memory\.constraints\[0\]\.max_size \(DTCM\) to at least (\d+), "
                      r"the smallest that fits", err)
    assert found, err
    fit = int(found.group(1))
    assert 8000 < fit < 16000, err
    m = convert(tmp_path, KWS, TIGHT_DTCM % fit, name="fits")
    assert memories(m)["DTCM"]["used"] <= fit
    short = convert_error(tmp_path, KWS, TIGHT_DTCM % (fit - 1), name="short")
    assert f"to at least {fit}," in short, short


def test_budget_over_by_pinned_tensors_names_the_budget(tmp_path):
    """Pinned tensors over a budget: the same fix, the plan's size."""
    err = convert_error(tmp_path, AD01, SPEC_BUDGET % 300)
    found = re.search(r"set memory\.constraints\[0\]\.max_size \(DTCM\) to at least (\d+)", err)
    assert found, err
    fit = int(found.group(1))
    convert(tmp_path, AD01, SPEC_BUDGET % fit, name="fits")
    convert_error(tmp_path, AD01, SPEC_BUDGET % (fit - 1), name="short")


def test_a_rule_naming_a_model_tensor_places_the_constants_made_from_it(tmp_path):
    """Conv weights re-laid out for the kernel (op0.weights_interleaved)
    and a folded bias keep their model tensor's index (model_tensor) in the
    residency report, and a rule naming that model tensor by id places
    them (issue 22, finding 6)."""
    rules = """
platform: {name: mps3_an547}
memory:
  tensors:
    - id: "17"
      attributes: {memory: ITCM}
    - id: "3"
      attributes: {memory: SRAM}
"""
    m = convert(tmp_path, KWS, rules)
    r = rows(m)
    assert "17" not in r  # replaced by its interleaved copy
    assert r["op0.weights_interleaved"]["model_tensor"] == 17
    assert r["op0.weights_interleaved"]["memory"] == "ITCM"
    assert r["op0.bias_sum"]["model_tensor"] == 3 and r["op0.bias_sum"]["memory"] == "SRAM"
    assert r["16"]["model_tensor"] == 16 and r["op0.multipliers"]["model_tensor"] is None
    others = {row["memory"] for tid, row in r.items()
              if tid not in ("op0.weights_interleaved", "op0.bias_sum", "3")
              and row["memory"]}
    assert others.isdisjoint({"ITCM", "SRAM"}), others
    views = json.loads((m.path / "m_views.json").read_text())
    tv = {t["id"]: t for t in views["tensors"]}
    assert tv["op0.weights_interleaved"]["model_tensor"] == 17
    assert tv["0"]["model_tensor"] == 0


def test_rules_match_tensor_names_exactly_or_by_glob(tmp_path):
    rules = """
platform: {name: mps3_an547}
memory:
  tensors:
    - name: "*dense*"
      attributes: {memory: SRAM}
    - name: functional_1/dense/MatMul
      type: constant
      attributes: {memory: ITCM}
"""
    m = convert(tmp_path, KWS, rules)
    r = rows(m)
    assert r["16"]["name"] == "functional_1/dense/MatMul" and r["16"]["memory"] == "ITCM"
    assert r["33"]["name"] == "functional_1/dense/BiasAdd" and r["33"]["memory"] == "SRAM"
    # The fully connected layer's folded bias comes from a "dense" tensor.
    fc_bias = [row for tid, row in r.items() if tid.endswith(".bias_sum")
               and row["memory"] == "SRAM"]
    assert len(fc_bias) == 1, fc_bias
    conv = [row for row in r.values() if row["name"] and "conv2d" in row["name"]
            and "dense" not in row["name"]]
    assert conv and all(row["memory"] not in ("SRAM", "ITCM") for row in conv)


def test_a_name_given_as_an_id_says_to_use_name(tmp_path):
    p = subprocess.run([module.tinyaot_bin(), "analyze", "--model.path", str(KWS),
                        "--memory.tensors", "[{id: conv_weights, attributes: {memory: DRAM}}]"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "no tensor has id 'conv_weights': ids are the numbers the residency report lists; " \
        "to match the model's tensor name write name: 'conv_weights'" in p.stderr, p.stderr
