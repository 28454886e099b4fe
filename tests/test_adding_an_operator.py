"""docs/adding-an-operator.md lists, in a marked block, the hand-written
files an operator's change needed; the tree must agree: every file
that names the operator or its kernels, less the generated ones (a "do not
edit" header) and the page itself, is in the list, and nothing else."""

import re
import subprocess

from tests.harness import module

DOC = "docs/adding-an-operator.md"
BLOCK = re.compile(r"<!-- files-for-operator: (\w+) (\w+) -->\s*```text\n(.*?)```\s*"
                   r"<!-- end-files-for-operator -->", re.S)


def documented():
    m = BLOCK.search((module.ROOT / DOC).read_text())
    assert m, f"{DOC} has no files-for-operator block"
    return m.group(1), m.group(2), set(m.group(3).split())


def tree_files():
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                         cwd=module.ROOT, capture_output=True, text=True, check=True).stdout
    return [f for f in out.splitlines() if (module.ROOT / f).is_file()]


def naming(operator, kernel_prefix):
    """Hand-written files that name the operator (as a whole word), the
    kernel prefix (ta_foo.h) or an identifier that continues it after an
    underscore (ta_foo_s8, not ta_foobar)."""
    pattern = re.compile(r"\b{0}\b|\b{1}\b|\b{1}_\w".format(re.escape(operator),
                                                     re.escape(kernel_prefix)))
    found = set()
    for rel in tree_files():
        if rel == DOC:
            continue
        try:
            text = (module.ROOT / rel).read_text()
        except (UnicodeDecodeError, OSError):
            continue  # binary files: models, archives
        if "do not edit" in text[:400]:
            continue  # generated (kernel tables, flash sizes, the schema's tables)
        if pattern.search(text):
            found.add(rel)
    return found


def test_the_documented_files_are_the_files_the_operator_needs():
    operator, prefix, listed = documented()
    actual = naming(operator, prefix)
    assert actual == listed, {"in the tree, not in the page": sorted(actual - listed),
                              "in the page, not in the tree": sorted(listed - actual)}


def test_the_block_lists_the_places_the_page_names():
    """The list is the table's kinds of place: the lowering, ops.def, the
    kernel's header and source, a generator variant."""
    operator, prefix, listed = documented()
    assert "src/lower/ops.def" in listed
    assert any(f.startswith("src/lower/") and f.endswith(".c") for f in listed)
    assert f"runtime/kernels/{prefix}.h" in listed and f"runtime/kernels/{prefix}.c" in listed
    assert any(f.startswith("tests/gen/ops/") for f in listed)
