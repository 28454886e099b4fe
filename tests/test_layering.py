"""Where code lives (issue 15, item 3): src/emit only writes the module
directory, passes do not reach into the lowerings' helpers, and one
enumeration names the roles of tensors and regions. Issue 27, item 6:
every include goes down the layers docs/design.md lists, and no
includes form a cycle."""

import re

from tests.harness import module

SRC = module.ROOT / "src"


def includes(path):
    return re.findall(r'^#include "([^"]+)"', path.read_text(), re.M)


def test_passes_use_no_lowering_helpers():
    for path in sorted((SRC / "passes").glob("*.[ch]")):
        for inc in includes(path):
            assert "lower/common/" not in inc, f"{path.name} includes {inc}"


def test_emit_holds_only_module_writers():
    # The public result's views and the embedded-file table are read by
    # convert, report and config; they live with those.
    assert not (SRC / "emit" / "views.c").exists() and (SRC / "report" / "views.c").exists()
    assert not (SRC / "emit" / "resources.h").exists() and (SRC / "config" / "resources.h").exists()
    for path in sorted(SRC.rglob("*.[ch]")):
        for inc in includes(path):
            assert not re.search(r"(^|/)emit/(views|resources)\.h$", inc), (path.name, inc)


def test_one_role_enumeration():
    sources = [p for p in SRC.rglob("*.[ch]")]
    text = "\n".join(p.read_text() for p in sources)
    for old in ("TaKind", "TA_KIND_", "TaRole", "TA_ROLE_"):
        assert old not in text, old
    # One name table: the role names are spelled in one place only.
    spelled = [p for p in sources if re.search(r'return "persistent"', p.read_text())]
    assert [p.name for p in spelled] == ["graph.c"]


def test_ops_def_is_sorted_by_name():
    """ops.def says "Keep sorted by name" (issue 27.7): hold it to that."""
    names = re.findall(r"^DECLARE_OP\(\s*\d+,\s*(\w+)", (SRC / "lower" / "ops.def").read_text(), re.M)
    assert len(names) > 90 and names == sorted(names), [
        (a, b) for a, b in zip(names, names[1:]) if a > b]


# ---- the include graph (issue 27.6): every include goes down the layers ----

DESIGN = module.ROOT / "docs" / "design.md"
SCANNED = ("src", "tools", "include", "runtime")
SUFFIXES = {".c", ".h", ".inc", ".def"}
# Where a quoted include is looked for after the including file's folder:
# the compiler's include directories (CMakeLists.txt) and the runtime's
# (scripts/lint.sh).
INCLUDE_DIRS = ("src/config", "include", "runtime/include", "runtime/kernels", "runtime/arena")


def layer_order():
    """The layers docs/design.md lists, top first: a list of path lists."""
    section = DESIGN.read_text().split("\n## Code layout", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"\n### Layers\n.*?```text\n(.*?)```", section, re.S)
    assert block, "docs/design.md: Code layout has no ### Layers block"
    layers = []
    for line in block.group(1).splitlines():
        paths = []
        for token in line.split():
            if not re.fullmatch(r"[\w.-]+/([\w.-]+/)*|src/[\w.-]+\.c", token):
                break
            paths.append(token)
        assert paths, f"docs/design.md: a layer line names no directory: {line!r}"
        layers.append(paths)
    return layers


def layer_of(rel, layers):
    """The rank of a repository path (0 = top), by its longest listed prefix."""
    matches = [(len(p), rank) for rank, paths in enumerate(layers) for p in paths
               if rel == p or (p.endswith("/") and rel.startswith(p))]
    return max(matches)[1] if matches else None


def include_graph(root=module.ROOT):
    """{file: [included file, ...]} over the scanned trees, repository-relative,
    and the (file, include) pairs that name no file."""
    root = root.resolve()
    graph, unresolved = {}, []
    files = sorted(p for top in SCANNED for p in (root / top).rglob("*") if p.suffix in SUFFIXES)
    for path in files:
        rel = path.relative_to(root).as_posix()
        graph[rel] = []
        text = path.read_text(errors="replace")
        for inc in re.findall(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', text, re.M):
            for base in [path.parent] + [root / d for d in INCLUDE_DIRS]:
                target = (base / inc).resolve()
                if target.is_file() and target.is_relative_to(root):
                    graph[rel].append(target.relative_to(root).as_posix())
                    break
            else:
                unresolved.append((rel, inc))
    return graph, unresolved


def upward_includes(graph, layers):
    """(file, included, why) for every include that goes up the order, and
    every file outside the layers."""
    found = []
    for src, targets in sorted(graph.items()):
        rank = layer_of(src, layers)
        if rank is None:
            found.append((src, None, "in no layer of docs/design.md"))
            continue
        for dst in targets:
            dst_rank = layer_of(dst, layers)
            if dst_rank is None:
                found.append((src, dst, "includes a file in no layer"))
            elif dst_rank < rank:
                found.append((src, dst, f"includes up: {' '.join(layers[rank])} -> "
                                        f"{' '.join(layers[dst_rank])}"))
    return found


def include_cycles(graph):
    """Every cycle of includes found by a depth-first walk, as file lists."""
    state, stack, cycles = {}, [], []

    def walk(node):
        state[node] = "open"
        stack.append(node)
        for nxt in graph.get(node, ()):
            if state.get(nxt) == "open":
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                walk(nxt)
        stack.pop()
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            walk(node)
    return cycles


def directory_graph(graph):
    """The include graph between directories: src/<dir> (subfolders
    included), tools, ...; a file directly in src/ stands alone."""
    def folder(rel):
        parts = rel.split("/")[:-1]
        return rel if parts == ["src"] else "/".join(parts[:2])
    dirs = {}
    for src, targets in graph.items():
        edges = dirs.setdefault(folder(src), set())
        edges.update(folder(d) for d in targets if folder(d) != folder(src))
    return {d: sorted(e) for d, e in dirs.items()}


def test_includes_go_down_the_layers():
    layers = layer_order()
    assert [p for paths in layers for p in paths][:2] == ["tools/", "src/convert.c"], layers
    graph, unresolved = include_graph()
    assert unresolved == [], unresolved
    bad = upward_includes(graph, layers)
    assert bad == [], "\n".join(f"{s} -> {d}: {why}" for s, d, why in bad)


def test_no_include_cycle():
    """Neither files nor directories include each other in a circle."""
    graph = include_graph()[0]
    for g in (graph, directory_graph(graph)):
        cycles = include_cycles(g)
        assert cycles == [], "\n".join(" -> ".join(c) for c in cycles)


def test_layer_check_sees_a_violation(tmp_path):
    """The checks above can fail: an include up the order, a cycle and a
    directory no layer lists are each reported."""
    for rel, text in {
        "src/util/low.h": '#include "../report/high.h"\n',
        "src/report/high.h": '#include "../util/low.h"\n',
        "src/newdir/x.c": "",
        "tools/t.c": '#include "../src/report/high.h"\n',
    }.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    for top in SCANNED:
        (tmp_path / top).mkdir(exist_ok=True)
    graph, _ = include_graph(tmp_path)
    bad = upward_includes(graph, layer_order())
    assert ("src/util/low.h", "src/report/high.h") in [(s, d) for s, d, _ in bad]
    assert ("src/newdir/x.c", None, "in no layer of docs/design.md") in bad
    assert not any(s == "tools/t.c" or s == "src/report/high.h" for s, _, _ in bad), bad
    assert include_cycles(graph) == [["src/report/high.h", "src/util/low.h", "src/report/high.h"]]
    assert include_cycles(directory_graph(graph)) == [["src/report", "src/util", "src/report"]]
# One name per concept (issue 27, item 3; docs/design.md, "Glossary").

RUNTIME = module.ROOT / "runtime"
DTYPE_TOKEN = re.compile(r"^(?:[suif]\d+|b|bool|plain)$")


def runtime_functions():
    """Every ta_ function the runtime's headers declare (kernels and helpers)."""
    names = set()
    for path in sorted(RUNTIME.glob("*/*.h")):
        text = path.read_text()
        names |= set(re.findall(r"\b(ta_[a-z0-9_]+)\(", text))
        names |= set(re.findall(r"_DECLARE\((ta_[a-z0-9_]+),", text))
    return names


def dtype_suffix(name):
    tokens = name.split("_")
    at = len(tokens)
    while at > 2 and DTYPE_TOKEN.match(tokens[at - 1]):
        at -= 1
    return tokens[at:]


def test_kernel_suffixes_follow_the_glossary():
    """_s<N>: quantized values (scale and zero point apply); plain integers
    are _i<N> (or _u<N>), bool _b. int32 and int64 values carry a scale
    only where a requantize kernel reads or writes them."""
    names = runtime_functions()
    assert {"ta_add_i32", "ta_conv_2d_s8", "ta_cast_b_i8", "ta_requantize_s8_s32"} <= names
    glossary = (module.ROOT / "docs" / "design.md").read_text().split("## Glossary", 1)[-1]
    wrong = []
    for name in sorted(names):
        for token in dtype_suffix(name):
            if token in ("bool", "plain") or token in ("s32", "s64") and "requantize" not in name:
                wrong.append(name)
            elif f"`_{token}`" not in glossary:
                wrong.append(f"{name}: _{token} is not in docs/design.md's glossary")
    assert not wrong, wrong


def test_tensors_and_regions_name_their_role_alike():
    ir = (SRC / "ir" / "ir.h").read_text()
    plan = (SRC / "plan" / "plan.h").read_text()
    tensor = re.search(r"typedef struct TaTensor \{(.*?)\} TaTensor;", ir, re.S).group(1)
    region = re.search(r"typedef struct TaRegion \{(.*?)\} TaRegion;", plan, re.S).group(1)
    for struct in (tensor, region):
        assert re.search(r"ta_region_role_t role;", struct) and not re.search(r"\bkind;", struct)


def test_index_names():
    """index: position in tinyaot's lists; model_index: in the model file;
    id: a tensor's text key. The public views keep layer_index."""
    ir = (SRC / "ir" / "ir.h").read_text()
    for old in ("layer_index", "source_index", "source_subgraph"):
        assert not re.search(rf"\b{old}\b", ir), old
    graph = re.search(r"typedef struct TaGraph \{(.*?)\} TaGraph;", ir, re.S).group(1)
    assert "int model_index;" in graph and not re.search(r"\bint index;", graph)


def test_one_pass_signature():
    """Fixed passes and transforms: bool ta_pass_<name>(TaPassCtx *ctx)."""
    folder = SRC / "passes"
    headers = (folder / "passes.h").read_text() + (folder / "transforms.h").read_text()
    declared = re.findall(r"^\w+ (ta_\w+)\(([^)]*)\);", headers, re.M)
    passes = [n for n, _ in declared if n.startswith("ta_pass_")]
    assert len(passes) > 15
    odd = [(n, a) for n, a in declared
           if n.startswith("ta_pass_") != (a == "TaPassCtx *ctx") and n != "ta_run_transforms"]
    odd += [n for n in passes if not re.search(rf"^bool {n}\(TaPassCtx \*ctx\);", headers, re.M)]
    assert not odd, odd
    table = re.findall(r'\{"[A-Z_]+", (\w+),', (folder / "transforms.c").read_text())
    assert table and all(n.startswith("ta_pass_") for n in table), table


def test_op_facts_grouped_by_owner():
    """TaOp's lowering results, planner hints and rewrites are nested structs."""
    ir = (SRC / "ir" / "ir.h").read_text()
    op = re.search(r"typedef struct TaOp \{(.*?)\} TaOp;", ir, re.S).group(1)
    for member in ("TaOpLowered lowered;", "TaOpPlanHints plan_hints;", "TaOpRewrites rewrites;"):
        assert member in op, member
    for field in ("calls", "locals", "macs", "overlap_input", "folded_activation"):
        assert not re.search(rf"[ *]{field};", op), field
