"""All variants: ALL maps a variant name ("CONV_2D.int8") to a Variant.

    from tests.gen import variants
    v = variants.ALL["CONV_2D.int8"]
    case = v.draw(rng)      # or v.case(seed) for a named, reproducible case
"""

import importlib

from .core import REGISTRY, Case, Variant  # noqa: F401
from .ops import MODULES

for _m in MODULES:
    importlib.import_module(".ops." + _m, __package__)

ALL = {name: REGISTRY[name] for name in sorted(REGISTRY)}


def select(spec):
    """Variants named by spec: 'all', a name, a comma list, or fnmatch
    patterns ('CONV_2D.*')."""
    import fnmatch
    if spec in (None, "", "all"):
        return list(ALL.values())
    out = []
    for part in spec.split(","):
        part = part.strip()
        hits = [v for n, v in ALL.items() if fnmatch.fnmatchcase(n, part)]
        if not hits:
            raise KeyError("no variant matches %r" % part)
        out.extend(h for h in hits if h not in out)
    return out
