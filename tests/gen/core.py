"""Variant registry and the Case record shared by every op family."""

import hashlib
import zlib

import numpy as np

REGISTRY = {}
# Variants that force the sizes where the SIMD kernels change path (lane
# counts and one either side, tails, size-1 dimensions); kept out of
# REGISTRY so that `--variants all` draws what it always drew.
SIMD_REGISTRY = {}


class Case:
    """One drawn model: name, variant, op, model (bytes), config (JSON-able
    dict), stateful, n_runs (how many consecutive runs exercise it)."""

    def __init__(self, name, variant, model, config):
        self.name = name
        self.variant = variant.name
        self.op = variant.op
        self.stateful = variant.stateful
        self.n_runs = variant.n_runs
        self.model = model
        self.config = config

    def meta(self):
        return {"name": self.name, "variant": self.variant, "op": self.op,
                "stateful": self.stateful, "n_runs": self.n_runs,
                "config": self.config}

    def __repr__(self):
        return "Case(%s, %d bytes)" % (self.name, len(self.model))


class Variant:
    """A family of random models. draw(rng) -> Case."""

    def __init__(self, name, op, fn, stateful=False, n_runs=None, doc="", compare=None,
                 keys=None, oracle="tflm"):
        self.name = name
        self.op = op
        self.fn = fn
        self.stateful = bool(stateful)
        self.n_runs = int(n_runs if n_runs is not None else (4 if stateful else 1))
        self.doc = doc
        # compare(ours_runs, expected_runs) -> (bytes compared, bytes differing),
        # for an operator whose reference leaves part of its output undefined
        # (None: every byte of every output).
        self.compare = compare
        # Configuration keys every conversion of the variant's models takes
        # (e.g. {"weights.format": "dense"}); None: the defaults.
        self.keys = keys
        # The reference the modules must match: "tflm" (TFLite Micro), or
        # "litert" for an operator TFLite Micro has no kernel for.
        self.oracle = oracle

    def draw(self, rng, name=None):
        model, config = self.fn(rng)
        config = jsonable(config)
        if name is None:
            name = "%s-x%s" % (self.name, hashlib.sha1(model).hexdigest()[:8])
        return Case(name, self, model, config)

    def rng_for(self, seed):
        """The generator used for (variant, seed): independent of anything
        but the variant's name and the seed."""
        return np.random.default_rng([int(seed), zlib.crc32(self.name.encode())])

    def case(self, seed):
        """Deterministic case for (variant, seed), named '<variant>-s<seed>'."""
        return self.draw(self.rng_for(seed), name="%s-s%d" % (self.name, seed))

    def __repr__(self):
        return "Variant(%s)" % self.name


def variant(name, op, stateful=False, n_runs=None, simd=False, compare=None, keys=None,
            oracle="tflm"):
    """Decorator registering fn(rng) -> (model_bytes, config), in
    SIMD_REGISTRY when simd is set; compare, keys and oracle as in Variant."""
    registry = SIMD_REGISTRY if simd else REGISTRY

    def deco(fn):
        if name in REGISTRY or name in SIMD_REGISTRY:
            raise ValueError("duplicate variant " + name)
        registry[name] = Variant(name, op, fn, stateful, n_runs,
                                 (fn.__doc__ or "").strip(), compare, keys, oracle)
        return fn

    return deco


def jsonable(x):
    """Convert numpy scalars/arrays and tuples to plain JSON types."""
    if isinstance(x, dict):
        return {str(k): jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    if isinstance(x, np.ndarray):
        return jsonable(x.tolist())
    if isinstance(x, (np.bool_, bool)):
        return bool(x)
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, np.floating):
        return float(x)
    if isinstance(x, bytes):
        return x.decode()
    return x
