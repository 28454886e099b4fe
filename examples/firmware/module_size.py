#!/usr/bin/env python3
"""Flash and RAM that one archive's objects take in a linked image, read
from a GNU ld map: every input section that came from ARCHIVE, summed by
where its bytes live. Flash holds code, read-only data and the initial
bytes of anything copied to RAM at start-up; RAM holds what is written at
run time (.data, .bss, the module's *_bss arenas, code and constants in a
volatile memory).

    module_size.py firmware.map libdemo.a [mps3_an547|mps2_an386]
"""

import re
import sys

# Where each board keeps the MRAM, which with the program's code stands in for
# flash (targets/mps3_an547.yaml: QSPI ROM; targets/mps2_an386.yaml: the high
# half of SSRAM1).
MRAM = {"mps3_an547": (0x28000000, 0x28800000), "mps2_an386": (0x00200000, 0x00400000)}
# Output sections that take no target memory.
NOT_LOADED = (".debug", ".comment", ".ARM.attributes")


def module_bytes(map_text, archive, board="mps3_an547"):
    mram = MRAM[board]
    body = map_text.split("Linker script and memory map", 1)[1]
    flash = ram = 0
    out = None
    pending = None
    for line in body.splitlines():
        m = re.match(r"^(\.\S+|COMMON)\s+0x[0-9a-f]+\s+0x[0-9a-f]+", line)
        if m and not line.startswith(" "):
            out = m.group(1)
            continue
        if re.match(r"^(\.\S+)$", line):
            out = line.strip()
            continue
        m = re.match(r"^ (\S+)\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S+)$", line)
        if not m and pending:
            m2 = re.match(r"^\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S+)$", line)
            if m2:
                m = (pending,) + m2.groups()
        elif m:
            m = m.groups()
        pending = None
        if not m:
            name = re.match(r"^ (\S+)$", line)
            pending = name.group(1) if name else None
            continue
        _, addr, size, origin = m
        if archive not in origin or out is None or out.startswith(NOT_LOADED):
            continue
        addr, size = int(addr, 16), int(size, 16)
        if out in (".bss", ".noinit") or out.endswith("_bss"):
            ram += size
        elif out == ".data":
            ram += size
            flash += size
        elif re.match(r"^\.[A-Za-z_]\w*\.", out) and not mram[0] <= addr < mram[1]:
            ram += size  # a module section in a volatile memory, loaded from flash
            flash += size
        else:
            flash += size
    return flash, ram


def main():
    if len(sys.argv) not in (3, 4) or sys.argv[3:] and sys.argv[3] not in MRAM:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        flash, ram = module_bytes(f.read(), sys.argv[2], *sys.argv[3:])
    print(f"module ({sys.argv[2]}, every object linked from it): flash {flash} bytes, "
          f"RAM {ram} bytes")


if __name__ == "__main__":
    main()
