"""Where code lives (issue 15, item 3): src/emit only writes the module
directory, passes do not reach into the lowerings' helpers, and one
enumeration names the roles of tensors and regions."""

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
