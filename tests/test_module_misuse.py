"""Misuse of a generated module: tests/misuse/module_misuse.c drives every
status of every public function (context_init, model_init, model_run,
bind_arena, bind_arenas, the descriptor's bind, hydrate_constants and
mark_hydrated) against real modules, on the host and on Cortex-M55 under
QEMU: one module with its own arenas and one staged constant arena, one
with caller-supplied arenas (memory.allocate_arenas: false) whose
constants are all staged, so every region can be bound from RAM, and one
with neither, run through the operator table and its callback.
TA_ERR_KERNEL (7) is the one status no call can provoke: kernel arguments
are constants the converter checked."""

import os
import subprocess

import pytest

from tests.harness import module

HELLO = module.MODELS / "tflm_hello_world_int8.tflite"
PROGRAM = module.ROOT / "tests" / "misuse" / "module_misuse.c"

OWN_STAGED = """
platform: {name: mps3_an547}
memory:
  tensors:
    - type: constant
      attributes: {memory: MRAM}
    - id: "4"
      attributes: {memory: MRAM, constant_destination_memory: SRAM}
"""

CALLER_STAGED = """
platform: {name: mps3_an547}
memory:
  allocate_arenas: false
  tensors:
    - type: constant
      attributes: {memory: MRAM, constant_destination_memory: SRAM}
"""

OWN_TABLE = """
platform: {name: mps3_an547}
module: {schedule: table}
"""

CASES = {"own_staged": (OWN_STAGED, False), "caller_staged": (CALLER_STAGED, True),
         "own_table": (OWN_TABLE, False)}


def convert_case(tmp_path, name):
    yaml_text, caller = CASES[name]
    cfg = tmp_path / f"{name}.yaml"
    cfg.write_text(yaml_text)
    m = module.convert(HELLO, tmp_path / name, prefix="m", config=cfg)
    regions = m.views["regions"]
    # Every region is bindable from RAM: no sidecar to load.
    assert not caller or all(r["sidecar_file"] is None for r in regions)
    staged = [r for r in regions if r["source_symbol"]]
    defines = [f"MISUSE_STAGED={int(bool(staged))}", f"MISUSE_CALLER_ARENAS={int(caller)}",
               f"MISUSE_TABLE={int('schedule: table' in yaml_text)}"]
    if staged:
        assert len(staged) == 1, regions  # the program replaces one staged copy
        defines += [f"MISUSE_STAGED_DST=M_BASE_{region_name(m, staged[0])}",
                    f"MISUSE_STAGED_SRC={staged[0]['source_symbol']}"]
    return m, defines


def region_name(m, region):
    """The region's name as the internal header spells its base macro."""
    internal = (m.path / "m_internal.h").read_text()
    names = [line.split()[1][len("M_BASE_"):] for line in internal.splitlines()
             if line.startswith("#define M_BASE_")]
    matching = [n for n in names if f"M_ARENA_{n} = {region['id']}," in
                (m.path / "m_model.h").read_text()]
    assert len(matching) == 1, (names, region)
    return matching[0]


@pytest.mark.parametrize("name", sorted(CASES))
def test_misuse_on_host(tmp_path, name):
    m, defines = convert_case(tmp_path, name)
    exe = tmp_path / "misuse"
    cmd = [os.environ.get("CC", "cc"), *module.cflags(), *[f"-D{d}" for d in defines],
           "-I", str(m.path), str(PROGRAM), *module.cached_sources(m.path), "-lm", "-o", str(exe)]
    c = subprocess.run(cmd, capture_output=True, text=True)
    assert c.returncode == 0, c.stderr
    r = subprocess.run([str(exe)], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout + r.stderr


@pytest.mark.parametrize("name", sorted(CASES))
def test_misuse_on_cortex_m55(tmp_path, name):
    m, defines = convert_case(tmp_path, name)
    elf = tmp_path / "misuse.elf"
    run = module.QEMU_RUN
    build = subprocess.run(["bash", str(run), "--board", "mps3-an547", "-O2",
                            *[f"-D{d}" for d in defines], "-I", str(m.path), "-o", str(elf),
                            "--build-only", str(PROGRAM),
                            *module.cached_qemu_sources(m.path, "mps3-an547", "-O2",
                                                        [f"-D{d}" for d in defines])],
                           capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stdout + build.stderr
    r = subprocess.run(["bash", str(run), "--board", "mps3-an547", "--elf", str(elf),
                        "--timeout", "300"], capture_output=True, text=True, timeout=600,
                       cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stdout + r.stderr
