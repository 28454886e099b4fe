"""Compiled runtime kernels kept across batches and module builds.

Every batch (tests/harness/batch.py) links one copy of the runtime kernels
its modules call, the same bytes in every batch, and every module a test
builds (module.build) carries a copy of them; compiling each kernel once
per run instead of once per build takes most of the cost out of the
operator tests and the Python suites. An object is found by a hash of everything that decides it:
the compiler and its flags, the kernel's text and the text of every runtime
header (kernels include only those, by relative path, so no -I applies).

The objects live in TINYAOT_OBJECT_CACHE (tests/optest.py and conftest.py
set it to a folder of the run), else in a folder of this process removed at
exit. Each object is written under a name of its own and then renamed, so
processes can share the folder.
"""

import atexit
import functools
import hashlib
import os
import pathlib
import shutil
import subprocess
import tempfile

from tests.harness import module

RUNTIME = module.ROOT / "runtime"


@functools.lru_cache(maxsize=None)
def _headers_digest():
    h = hashlib.sha256()
    for p in sorted(RUNTIME.rglob("*.h")):
        h.update(str(p.relative_to(RUNTIME)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


@functools.lru_cache(maxsize=None)
def _folder():
    named = os.environ.get("TINYAOT_OBJECT_CACHE")
    if named:
        path = pathlib.Path(named)
        path.mkdir(parents=True, exist_ok=True)
        return path
    path = pathlib.Path(tempfile.mkdtemp(prefix="tinyaot-objects-"))
    atexit.register(shutil.rmtree, path, True)
    return path


def kernel_object(cc, flags, source):
    """The object of runtime source `source` compiled by `cc` with `flags`,
    compiled now unless an identical one was already."""
    source = pathlib.Path(source)
    h = hashlib.sha256()
    for part in (cc, *flags, _headers_digest()):
        h.update(part.encode() + b"\0")
    h.update(source.read_bytes())
    obj = _folder() / f"{source.stem}-{h.hexdigest()[:20]}.o"
    if obj.exists():
        return obj
    partial = obj.with_name(f"{obj.name}.{os.getpid()}.tmp")
    p = subprocess.run([cc, *flags, "-c", str(source), "-o", str(partial)],
                       capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        partial.unlink(missing_ok=True)
        raise RuntimeError(f"compiling the kernel {source} failed:\n{p.stderr[:4000]}")
    os.replace(partial, obj)
    return obj


def _same_runtime(module_dir):
    """Whether every runtime header the module carries is the tree's."""
    for h in (pathlib.Path(module_dir) / "runtime").rglob("*.h"):
        tree = RUNTIME / h.relative_to(pathlib.Path(module_dir) / "runtime")
        if not tree.is_file() or tree.read_bytes() != h.read_bytes():
            return False
    return True


def with_cached_kernels(cc, flags, module_dir, sources):
    """`sources` (a module's C files) with each runtime kernel that is the
    tree's own bytes replaced by its cached object; the rest unchanged. A
    module whose runtime headers differ from the tree's keeps every source."""
    module_dir = pathlib.Path(module_dir)
    if not _same_runtime(module_dir):
        return list(sources)
    out = []
    for s in sources:
        rel = pathlib.Path(s).relative_to(module_dir)
        tree = RUNTIME / pathlib.Path(*rel.parts[1:]) if rel.parts[0] == "runtime" else None
        if tree is not None and tree.is_file() and tree.read_bytes() == pathlib.Path(s).read_bytes():
            out.append(str(kernel_object(cc, flags, tree)))
        else:
            out.append(s)
    return out


@functools.lru_cache(maxsize=None)
def qemu_compile(board, opt="-O2", options=()):
    """(compiler, flags) tests/qemu/run.sh compiles a source with for `board`
    and its options (-D..., --cflags ...): the kit says, so the flags are
    written in one place."""
    p = subprocess.run(["bash", str(module.QEMU_RUN), "--board", board, opt, *options,
                        "--print-cflags"], capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise RuntimeError(f"run.sh --print-cflags failed:\n{p.stderr}")
    return os.environ.get("ARM_NONE_EABI_GCC", "arm-none-eabi-gcc"), tuple(p.stdout.splitlines())
