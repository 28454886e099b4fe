#!/usr/bin/env python3
"""Writes src/exec/kernel_table.c: one entry per runtime kernel, so the
compiler can call every kernel by the name a lowering gives it.

    python3 scripts/gen_kernel_table.py        # rewrite the table
    python3 scripts/gen_kernel_table.py --check  # exit 1 if it is stale

A kernel is a function a runtime/kernels/*.h header declares as
`int name(const <...>_params_t *p, <pointer>, ...)`; each entry is a thunk
that passes the argument vector on with the kernel's own arity, so the C
compiler checks every call against the real prototype, and the kernel's
signature as data: per tensor argument whether the kernel only reads it
(a const pointer) or writes it, and its element type (void: any),
which the lowering contract checks every call against (src/lower/lower.c).
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "exec" / "kernel_table.c"

PLAIN = re.compile(r"\bint\s+(ta_\w+)\s*\(([^;{)]*)\)\s*;")
# A header that declares a family through a one-line macro (ta_cast.h).
FAMILY_MACRO = re.compile(r"#define\s+(\w+_DECLARE)\(name,[^)]*\)\s*\\\s*\n\s*int\s+name\s*\(([^;{)]*)\)\s*;")


def strip_comments(text):
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


ELEMENT = {"int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t",
           "float", "double", "bool", "void"}


def signature(params):
    """'r:int8 w:int16 ...' for the tensor arguments after the parameter struct."""
    specs = []
    for p in params:
        m = re.fullmatch(r"(const\s+)?(\w+)\s*\*\s*\w*", p)
        if not m or m.group(2) not in ELEMENT:
            sys.exit(f"gen_kernel_table: cannot read the argument '{p}'")
        specs.append(("r:" if m.group(1) else "w:") + m.group(2))
    return " ".join(specs)


def kernels():
    found = []
    for header in sorted((ROOT / "runtime" / "kernels").glob("*.h")):
        text = strip_comments(header.read_text())
        rel = header.relative_to(ROOT).as_posix()
        for m in PLAIN.finditer(text):
            params = [a.strip() for a in m.group(2).split(",")]
            if params[0].startswith("const ta_") and "params_t" in params[0]:
                found.append((m.group(1), signature(params[1:]), rel))
        for macro in FAMILY_MACRO.finditer(text):
            found += family(text, macro, rel)
    return sorted(found)


def family(text, macro, rel):
    """The kernels a one-line family macro declares: `X_DECLARE(name, in_t, out_t)`
    with the macro's parameters standing for the element types."""
    params = [a.strip() for a in macro.group(2).split(",")][1:]
    header = re.search(r"#define\s+" + macro.group(1) + r"\(([^)]*)\)", text).group(1)
    names = [n.strip() for n in header.split(",")]
    out = []
    for use in re.finditer(r"^\s*" + macro.group(1) + r"\((ta_\w+)((?:,\s*\w+)*)\)", text, re.M):
        values = dict(zip(names[1:], [v.strip() for v in use.group(2).split(",")[1:]]))
        typed = [" ".join(values.get(w, w) for w in re.findall(r"\w+|\*", p)).replace(" *", " *")
                 for p in params]
        out.append((use.group(1), signature(typed), rel))
    return out


def render(entries):
    headers = sorted({h for _, _, h in entries})
    out = ["/* kernel_table.c - written by scripts/gen_kernel_table.py; do not edit.",
           " * Every runtime kernel by name, with a thunk that calls it with its own",
           " * arity (see kernel_table.h). */",
           '#include "kernel_table.h"', "", "#include <string.h>", ""]
    out += [f'#include "../../{h}"' for h in headers]
    out.append("")
    for name, sig, _ in entries:
        arity = len(sig.split())
        args = ", ".join(f"a[{i}]" for i in range(arity))
        out.append(f"static int call_{name}(const void *p, void *const *a)")
        out.append("{")
        if arity == 0:
            out.append("    (void)a;")
        out.append(f"    return {name}(p{', ' if args else ''}{args});")
        out.append("}")
    out.append("")
    out.append("/* Sorted by name, in strcmp order, for the binary search below. */")
    out.append("static const TaKernelEntry entries[] = {")
    for name, sig, _ in entries:
        out.append(f'    {{"{name}", {len(sig.split())}, "{sig}", call_{name}}},')
    out.append("};")
    out.append("")
    out.append("const TaKernelEntry *ta_kernel_find(const char *name)")
    out.append("{")
    out.append("    size_t lo = 0, hi = sizeof entries / sizeof entries[0];")
    out.append("    while (lo < hi) {")
    out.append("        size_t mid = lo + (hi - lo) / 2;")
    out.append("        int order = strcmp(name, entries[mid].name);")
    out.append("        if (order == 0)")
    out.append("            return &entries[mid];")
    out.append("        if (order < 0)")
    out.append("            hi = mid;")
    out.append("        else")
    out.append("            lo = mid + 1;")
    out.append("    }")
    out.append("    return NULL;")
    out.append("}")
    out.append("")
    out.append("size_t ta_kernel_count(void)")
    out.append("{")
    out.append("    return sizeof entries / sizeof entries[0];")
    out.append("}")
    out.append("")
    out.append("const TaKernelEntry *ta_kernel_at(size_t i)")
    out.append("{")
    out.append("    return i < ta_kernel_count() ? &entries[i] : NULL;")
    out.append("}")
    return "\n".join(out) + "\n"


def main():
    text = render(kernels())
    if "--check" in sys.argv[1:]:
        if not OUT.exists() or OUT.read_text() != text:
            print(f"{OUT.relative_to(ROOT)} is stale: run scripts/gen_kernel_table.py",
                  file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
