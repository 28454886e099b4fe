#!/usr/bin/env python3
"""Writes every table the compiler keeps about the runtime kernels from the
kernel headers (runtime/kernels/*.h), the only hand-written place a kernel
is registered:

  src/lower/kernel_params.h  one TaParamsDesc declaration per parameter struct
  src/lower/kernel_params.c  the field tables, expanded from each struct's
                             X-macro list (src/lower/params_describe.h)
  src/exec/kernel_table.c    every kernel by name, with a thunk that calls it
                             with its own arity and its signature as data

    python3 scripts/gen_kernel_table.py          # rewrite what changed (the build runs this)
    python3 scripts/gen_kernel_table.py --check  # exit 1 if a file is stale or a kernel
                                                 # has no measured sizes (make lint)
    ... --root DIR                               # another tree (the tests' scratch copies)

A parameter struct is a `typedef struct { TA_PARAM_MEMBERS(LIST) } name;`.
A kernel is a function declared as `int name(const <...>_params_t *p,
<pointer>, ...)`; its signature is, per tensor argument, whether the kernel
only reads it (a const pointer) or writes it, and its element type (void:
any), which the lowering contract checks every call against
(src/lower/lower.c).

Flash and stack sizes need the cross compilers, so scripts/flash_sizes.py
measures them into the committed src/report/flash_sizes.inc; --check names
every kernel and runtime source it lacks (tinyaot analyze reports those as
unmeasured).
"""
import pathlib
import re
import sys

PLAIN = re.compile(r"\bint\s+(ta_\w+)\s*\(([^;{)]*)\)\s*;")
# A header that declares a family through a one-line macro (ta_cast.h).
FAMILY_MACRO = re.compile(r"#define\s+(\w+_DECLARE)\(name,[^)]*\)\s*\\\s*\n\s*int\s+name\s*\(([^;{)]*)\)\s*;")
PARAMS_STRUCT = re.compile(r"typedef\s+struct\s*\w*\s*\{\s*TA_PARAM_MEMBERS\((\w+)\)\s*\}\s*(\w+)\s*;")

ELEMENT = {"int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t",
           "float", "double", "bool", "void"}

GENERATED = "written by scripts/gen_kernel_table.py from the kernel headers; do not edit."


def strip_comments(text):
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


def signature(params):
    """'r:int8 w:int16 ...' for the tensor arguments after the parameter struct."""
    specs = []
    for p in params:
        m = re.fullmatch(r"(const\s+)?(\w+)\s*\*\s*\w*", p)
        if not m or m.group(2) not in ELEMENT:
            sys.exit(f"gen_kernel_table: cannot read the argument '{p}'")
        specs.append(("r:" if m.group(1) else "w:") + m.group(2))
    return " ".join(specs)


def headers(root):
    """(path relative to root, text without comments) of every kernel header."""
    for header in sorted((root / "runtime" / "kernels").glob("*.h")):
        yield header.relative_to(root).as_posix(), strip_comments(header.read_text())


def kernels(root):
    found = []
    for rel, text in headers(root):
        for m in PLAIN.finditer(text):
            params = [a.strip() for a in m.group(2).split(",")]
            if params[0].startswith("const ta_") and "params_t" in params[0]:
                found.append((m.group(1), signature(params[1:]), rel))
        for macro in FAMILY_MACRO.finditer(text):
            found += family(text, macro, rel)
    return sorted(found)


def param_structs(root):
    """(struct type, its X-macro list, header) of every parameter struct."""
    found = []
    for rel, text in headers(root):
        found += [(m.group(2), m.group(1), rel) for m in PARAMS_STRUCT.finditer(text)]
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


def includes(paths):
    return [f'#include "../../{h}"' for h in sorted(set(paths))]


def render_params_header(structs):
    out = ["/*",
           f" * kernel_params.h - {GENERATED}",
           " * The field table of every kernel parameter struct (kernel_params.c), which",
           " * the emitter walks to print a filled struct as a C initializer. A lowering",
           " * names the struct type, never a field string:",
           " *   ta_conv_2d_params_t *p = TA_CALL_PARAMS(L, c, ta_conv_2d_params_t);",
           " * finds `ta_conv_2d_params_t_desc` here.",
           " */",
           "#ifndef TA_KERNEL_PARAMS_H",
           "#define TA_KERNEL_PARAMS_H",
           "",
           '#include "../ir/ir.h"',
           ""]
    out += [f"extern const TaParamsDesc {name}_desc;" for name, _, _ in structs]
    out += ["", "#endif /* TA_KERNEL_PARAMS_H */"]
    return "\n".join(out) + "\n"


def render_params_source(structs):
    out = ["/*",
           f" * kernel_params.c - {GENERATED}",
           " * Each block sets STRUCT to the struct type and expands its list",
           " * (params_describe.h), so offsets and element types come from the real",
           " * struct: a list and a table cannot disagree.",
           " */",
           '#include "kernel_params.h"',
           "",
           "#include <stddef.h>",
           "#include <stdint.h>",
           ""]
    out += includes(h for _, _, h in structs)
    out += ["", '#include "params_describe.h"']
    for name, params_list, _ in structs:
        out += ["", f"#define STRUCT {name}", f"DESCRIBE({params_list})", "#undef STRUCT"]
    return "\n".join(out) + "\n"


def render_kernel_table(entries):
    out = [f"/* kernel_table.c - {GENERATED}",
           " * Every runtime kernel by name, with a thunk that calls it with its own",
           " * arity (see kernel_table.h). */",
           '#include "kernel_table.h"', "", "#include <string.h>", ""]
    out += includes(h for _, _, h in entries)
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
    out.append(KERNEL_LOOKUP)
    return "\n".join(out) + "\n"


KERNEL_LOOKUP = """
const TaKernelEntry *ta_kernel_find(const char *name)
{
    size_t lo = 0, hi = sizeof entries / sizeof entries[0];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int order = strcmp(name, entries[mid].name);
        if (order == 0)
            return &entries[mid];
        if (order < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

size_t ta_kernel_count(void)
{
    return sizeof entries / sizeof entries[0];
}

const TaKernelEntry *ta_kernel_at(size_t i)
{
    return i < ta_kernel_count() ? &entries[i] : NULL;
}"""


def generated_files(root):
    """{path relative to root: text} of every file this script writes."""
    structs, entries = param_structs(root), kernels(root)
    return {"src/lower/kernel_params.h": render_params_header(structs),
            "src/lower/kernel_params.c": render_params_source(structs),
            "src/exec/kernel_table.c": render_kernel_table(entries)}


def unmeasured(root):
    """Kernels and runtime sources src/report/flash_sizes.inc has no sizes for."""
    inc = (root / "src" / "report" / "flash_sizes.inc").read_text()
    stacks = set(re.findall(r'TA_KERNEL_STACK\("(\w+)"', inc))
    sizes = set(re.findall(r'TA_KERNEL_SIZE\("([^"]+)"', inc))
    sources = {p.relative_to(root).as_posix() for p in (root / "runtime").rglob("*.c")
               if "arena" not in p.relative_to(root).parts}
    return (sorted({name for name, _, _ in kernels(root)} - stacks), sorted(sources - sizes))


def check(root, files):
    status = 0
    for rel, text in files.items():
        path = root / rel
        if not path.exists() or path.read_text() != text:
            print(f"{rel} is stale: run scripts/gen_kernel_table.py (the build does)",
                  file=sys.stderr)
            status = 1
    kernel_names, sources = unmeasured(root)
    for name in kernel_names:
        print(f"src/report/flash_sizes.inc: kernel {name} has no measured stack "
              "(unmeasured): run scripts/flash_sizes.py", file=sys.stderr)
    for source in sources:
        print(f"src/report/flash_sizes.inc: {source} has no measured flash size "
              "(unmeasured): run scripts/flash_sizes.py", file=sys.stderr)
    return 1 if kernel_names or sources else status


def write(root, files):
    """Rewrites only what changed, so an unchanged table is not recompiled."""
    for rel, text in files.items():
        path = root / rel
        if not path.exists() or path.read_text() != text:
            tmp = path.with_suffix(path.suffix + ".tmp")
            tmp.write_text(text)
            tmp.replace(path)
    return 0


def main(argv):
    root = pathlib.Path(__file__).resolve().parents[1]
    if "--root" in argv:
        root = pathlib.Path(argv[argv.index("--root") + 1]).resolve()
    files = generated_files(root)
    return check(root, files) if "--check" in argv else write(root, files)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
