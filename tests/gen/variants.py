"""All variants: ALL maps a variant name ("CONV_2D.int8") to a Variant;
SIMD the variants that force SIMD-relevant sizes ("CONV_2D.int8_simd":
channel counts at and beside the lane counts, tails, size-1 dimensions).

    from tests.gen import variants
    v = variants.ALL["CONV_2D.int8"]
    case = v.draw(rng)      # or v.case(seed) for a named, reproducible case
"""

import importlib

from .core import REGISTRY, SIMD_REGISTRY, Case, Variant  # noqa: F401
from .ops import MODULES

for _m in MODULES:
    importlib.import_module(".ops." + _m, __package__)

ALL = {name: REGISTRY[name] for name in sorted(REGISTRY)}
SIMD = {name: SIMD_REGISTRY[name] for name in sorted(SIMD_REGISTRY)}


def select(spec):
    """Variants named by spec: 'all', a name, a comma list, or fnmatch
    patterns ('CONV_2D.*') over ALL; 'simd' for every SIMD variant, or
    'simd:' before a name or pattern ('simd:CONV_2D.*') to pick among them."""
    import fnmatch
    if spec in (None, "", "all"):
        return list(ALL.values())
    if spec == "simd":
        return list(SIMD.values())
    out = []
    for part in spec.split(","):
        part = part.strip()
        pool = ALL
        if part.startswith("simd:"):
            pool, part = SIMD, part[len("simd:"):]
        hits = [v for n, v in pool.items() if fnmatch.fnmatchcase(n, part)]
        if not hits:
            raise KeyError("no variant matches %r" % part)
        out.extend(h for h in hits if h not in out)
    return out
