"""What the benchmarks measure on a QEMU Cortex-M board, the way the
baselines in ../shared/baselines/ were measured.

- baseline_inputs(m): every input tensor filled with x[i] = (i*7+3)%256 - 128
  (an int8 value, sign-extended into wider integer inputs).
- first_run(...): converts, cross-builds (tests/qemu/module_runner.c, -O2)
  and runs one inference after model_init under QEMU -icount shift=5.
  tests/qemu/icount.c turns SysTick ticks into instructions (x 125/128 on
  mps3-an547, x 5/4 on mps2-an386) and subtracts an empty start/stop
  measurement, as the baselines do; the count covers the call of
  <prefix>_model_run only (input copies and output reads are outside).
- code_size(m, board): text + rodata of the module's objects (generated
  code + the runtime kernels it links) after the linker has dropped what
  model_init and model_run do not reach, without the constants file (the
  weights, biases and every constant the converter precomputed) and without
  the C library; RAM is data + bss of the same objects (arenas, context).
"""

import dataclasses
import pathlib
import re
import struct
import subprocess

from tests.harness import module

BOARDS = {"mps3-an547": "mps3_an547", "mps2-an386": "mps2_an386"}
SHORT = {"mps3-an547": "M55", "mps2-an386": "M4"}
CPU_FLAGS = {"mps3-an547": ["-mcpu=cortex-m55", "-mfloat-abi=hard"],
             "mps2-an386": ["-mcpu=cortex-m4", "-mfloat-abi=hard", "-mfpu=fpv4-sp-d16"]}


def baseline_inputs(m):
    return module.baseline_inputs(m)


def run_counts(log):
    """Instructions of each run printed by module_runner, in order."""
    return [int(n) for n in re.findall(r"run \d+: (\d+) instructions", log)]


def op_counts(log):
    """{layer index: instructions} printed by a TA_PROFILE_OPS runner."""
    return {int(a): int(b) for a, b in re.findall(r"op (\d+): (\d+) instructions", log)}


def first_run(path, workdir, board, keys=None, defines=()):
    """(module, outputs of the baseline input, runner log) of one inference."""
    m = module.convert(path, workdir, keys={"platform.name": BOARDS[board], **(keys or {})})
    elf = module.build_qemu(m, board=board, defines=defines)
    outs, log = module.run_qemu(m, elf, [baseline_inputs(m)], board=board)
    return m, outs, log


# --------------------------------------------------------------- code size

SHF_WRITE, SHF_ALLOC, SHF_EXECINSTR = 1, 2, 4
SHT_NOBITS = 8


def elf_sections(path):
    """[(name, type, flags, size)] of an ELF32 little-endian object."""
    data = pathlib.Path(path).read_bytes()
    shoff, = struct.unpack_from("<I", data, 0x20)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x2E)
    headers = [struct.unpack_from("<IIIIIIIIII", data, shoff + i * shentsize)
               for i in range(shnum)]
    strtab = headers[shstrndx][4]

    def name(off):
        end = data.index(b"\0", strtab + off)
        return data[strtab + off:end].decode()

    return [(name(h[0]), h[1], h[2], h[5]) for h in headers]


@dataclasses.dataclass
class Size:
    code: int      # text + rodata without the constants
    text: int
    rodata: int
    consts: int    # the constants file's bytes
    ram: int       # data + bss


def code_size(m, board, workdir):
    workdir = pathlib.Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    flags = [*CPU_FLAGS[board], "-mthumb", "-std=c99", "-O2", "-ffp-contract=off",
             "-ffunction-sections", "-fdata-sections"]
    objs = {}
    for i, src in enumerate(module.sources(m.path)):
        obj = workdir / f"o{i}_{pathlib.Path(src).stem}.o"
        subprocess.run(["arm-none-eabi-gcc", *flags, "-I", str(m.path), "-c", src, "-o", str(obj)],
                       check=True)
        objs[str(obj)] = src
    elf = workdir / "size.elf"
    p = subprocess.run(["arm-none-eabi-gcc", *CPU_FLAGS[board], "-nostartfiles",
                        "--specs=nosys.specs", "-Wl,--gc-sections", "-Wl,--print-gc-sections",
                        f"-Wl,-e,{m.prefix}_model_run", f"-Wl,-u,{m.prefix}_model_init",
                        *objs, "-o", str(elf)], capture_output=True, text=True, check=True)
    removed = set(re.findall(r"removing unused section '([^']+)' in file '([^']+)'", p.stderr))
    size = Size(0, 0, 0, 0, 0)
    for obj, src in objs.items():
        consts = pathlib.Path(src).name == f"{m.prefix}_constants.c"
        for name, typ, flags_, n in elf_sections(obj):
            if not flags_ & SHF_ALLOC or (name, obj) in removed or n == 0:
                continue
            if consts:
                size.consts += n
            elif flags_ & SHF_EXECINSTR:
                size.text += n
            elif not flags_ & SHF_WRITE:
                size.rodata += n
            else:
                size.ram += n
    size.code = size.text + size.rodata
    return size
