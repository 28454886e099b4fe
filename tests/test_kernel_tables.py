"""The kernel tables come from the kernel headers alone (issue 27.2):
scripts/gen_kernel_table.py writes the parameter descriptors and the
executor table from runtime/kernels/*.h, and names every kernel that
src/report/flash_sizes.inc has no measured sizes for. Run on a scratch
copy of the tree, with a kernel added to a header the way a contributor
adds one."""

import shutil
import subprocess
import sys

from tests.harness import module

SCRIPT = module.ROOT / "scripts" / "gen_kernel_table.py"
GENERATED = ["src/lower/kernel_params.h", "src/lower/kernel_params.c", "src/exec/kernel_table.c"]

NEW_HEADER = """#ifndef TA_NEW_KERNEL_H
#define TA_NEW_KERNEL_H
#include <stdint.h>
#include "../include/ta_params.h"
#define TA_NEW_KERNEL_PARAMS(FIELD, ARRAY, ARRAY_USED) FIELD(int32_t, size)
typedef struct {
    TA_PARAM_MEMBERS(TA_NEW_KERNEL_PARAMS)
} ta_new_kernel_params_t;
int ta_new_kernel_s8(const ta_new_kernel_params_t *p, const int8_t *input, int8_t *output);
#endif
"""


def generator(root, *args):
    return subprocess.run([sys.executable, str(SCRIPT), "--root", str(root), *args],
                          capture_output=True, text=True, timeout=60)


def scratch_tree(tmp_path):
    shutil.copytree(module.ROOT / "runtime", tmp_path / "runtime")
    for rel in GENERATED + ["src/report/flash_sizes.inc"]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(module.ROOT / rel, tmp_path / rel)
    return tmp_path


def test_the_tree_is_current_and_measured():
    r = generator(module.ROOT, "--check")
    assert r.returncode == 0, r.stderr


def test_a_new_kernel_is_registered_by_its_header_alone(tmp_path):
    root = scratch_tree(tmp_path)
    (root / "runtime" / "kernels" / "ta_new_kernel.h").write_text(NEW_HEADER)
    r = generator(root, "--check")
    assert r.returncode == 1
    for rel in GENERATED:
        assert f"{rel} is stale" in r.stderr
    assert generator(root).returncode == 0
    assert "extern const TaParamsDesc ta_new_kernel_params_t_desc;" in (
        root / "src/lower/kernel_params.h").read_text()
    assert "DESCRIBE(TA_NEW_KERNEL_PARAMS)" in (root / "src/lower/kernel_params.c").read_text()
    assert '{"ta_new_kernel_s8", 2, "r:int8_t w:int8_t", call_ta_new_kernel_s8},' in (
        root / "src/exec/kernel_table.c").read_text()
    # Current now, but not measured: named as unmeasured, so lint fails.
    r = generator(root, "--check")
    assert r.returncode == 1 and "stale" not in r.stderr
    assert "kernel ta_new_kernel_s8 has no measured stack (unmeasured)" in r.stderr


def test_a_new_source_without_a_size_is_named(tmp_path):
    root = scratch_tree(tmp_path)
    (root / "runtime" / "kernels" / "ta_new_kernel.c").write_text("int ta_unused;\n")
    r = generator(root, "--check")
    assert r.returncode == 1
    assert "runtime/kernels/ta_new_kernel.c has no measured flash size (unmeasured)" in r.stderr
