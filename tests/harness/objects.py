"""Compiled runtime kernels kept across batches.

Every batch (tests/harness/batch.py) links one copy of the runtime kernels
its modules call, the same bytes in every batch; compiling each kernel once
per run instead of once per batch takes most of their cost out of the
operator tests. An object is found by a hash of everything that decides it:
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
