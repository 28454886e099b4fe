"""tinyaot: convert LiteRT models into C99 inference modules, from Python.

    import tinyaot
    result = tinyaot.convert(model_path="kws.tflite", module_path="out/kws", prefix="kws",
                             options={"memory.dump_residency_json": True})
    for op in result.operators:
        print(op.layer_index, op.type, op.macs)

    report = tinyaot.analyze(model_path="kws.tflite", options={"platform.name": "apollo510_evb"})
    print(report.analysis.total_macs, [m.free for m in report.analysis.memories])

This is a thin layer over the C library (include/tinyaot/tinyaot.h): the
same entry point the `tinyaot` command uses, with the same configuration
keys, returning the views of conversion-views.txt as frozen dataclasses.
"""

from __future__ import annotations

import ctypes
import dataclasses
import json
from typing import Mapping, Optional, Tuple

from . import _native
from .views import (Analysis, FlashEstimate, KernelStack, MemorySummary, MemoryType,
                    ModuleIdentity, OperatorAnalysis,
                    OperatorView, PlacementView, QuantizationView, RegionRole, RegionView,
                    TensorKind, TensorView, frozen_mapping)

__all__ = ["convert", "analyze", "config_keys", "ConfigKey", "Analysis", "OperatorAnalysis",
           "MemorySummary", "FlashEstimate", "KernelStack", "ModuleIdentity", "ConvertArgs", "ConversionResult", "AotConverter", "ConversionError",
           "OperatorView", "QuantizationView", "TensorView", "RegionView", "PlacementView",
           "TensorKind", "MemoryType", "RegionRole", "version"]

_LIB = None


def _lib():
    global _LIB
    if _LIB is None:
        _LIB = _native.load()
    return _LIB


def version() -> str:
    return _lib().tinyaot_version().decode()


class ConversionError(Exception):
    """The conversion failed; .diagnostics holds every message, .status the
    code, .analysis what analysis there is (the unsupported operators) or None."""

    def __init__(self, status, diagnostics, analysis=None):
        super().__init__("\n".join(diagnostics) or f"tinyaot status {status}")
        self.status = status
        self.diagnostics = tuple(diagnostics)
        self.analysis = analysis


@dataclasses.dataclass(frozen=True)
class ConvertArgs:
    """What to convert: a YAML file and/or configuration keys (dotted, as on
    the command line), plus the switches of the C API. `force` replaces
    module.path even if tinyaot did not write it (see tinyaot.h)."""

    config: Optional[str] = None
    options: Mapping[str, object] = dataclasses.field(default_factory=dict)
    strict: bool = False
    result_views: bool = True
    force: bool = False


@dataclasses.dataclass(frozen=True)
class ConversionResult:
    module_path: Optional[str]
    diagnostics: Tuple[str, ...]
    operators: Tuple[OperatorView, ...]
    tensors: Tuple[TensorView, ...]
    regions: Tuple[RegionView, ...]
    placements: Mapping[str, PlacementView]
    analysis: Optional[Analysis] = None  # what `tinyaot analyze` prints
    identity: Optional[ModuleIdentity] = None  # the header's identity block
    # Tensor id -> the model tensor's index: its own, or the one a created
    # constant (re-laid-out weights, a folded bias) was made from; None for
    # neither. Beside TensorView, whose fields follow the views spec.
    model_tensors: Mapping[str, Optional[int]] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class ConfigKey:
    """One configuration key as the loader accepts it ("[]": any list element)."""

    key: str
    type: str
    default: str
    meaning: str


def config_keys() -> Tuple[ConfigKey, ...]:
    """Every configuration key, from the table the loader checks keys against."""
    n = ctypes.c_size_t()
    keys = _lib().tinyaot_config_keys(ctypes.byref(n))
    return tuple(ConfigKey(keys[i].key.decode(), keys[i].type.decode(),
                           keys[i].default_value.decode(), keys[i].meaning.decode())
                 for i in range(n.value))


def _identity(p):
    if not p:
        return None
    i = p.contents
    return ModuleIdentity(_s(i.model_name), _s(i.model_description), _s(i.model_version),
                          _s(i.compiler_version), int(i.plan_hash))


def _s(p):
    return None if p is None else p.decode()


def _strings(ptr, n):
    return tuple(ptr[i].decode() for i in range(n))


def _operator(v):
    calls = None
    if v.has_kernel_calls:
        calls = frozen_mapping((v.kernel_calls[i].role.decode(),
                                v.kernel_calls[i].function.decode())
                               for i in range(v.num_kernel_calls))
    return OperatorView(
        layer_index=v.layer_index, symbol=_s(v.symbol), type=_s(v.type),
        source_indices=tuple(v.source_indices[i] for i in range(v.num_source_indices)),
        input_ids=_strings(v.input_ids, v.num_input_ids),
        output_ids=_strings(v.output_ids, v.num_output_ids),
        local_tensor_ids=_strings(v.local_tensor_ids, v.num_local_tensor_ids),
        kernel_calls=calls, macs=v.macs if v.has_macs else None,
        parameters=v.parameters if v.has_parameters else None)


def _tensor(v):
    q = None
    if v.quantization:
        qv = v.quantization.contents
        q = QuantizationView(scale=tuple(qv.scale[i] for i in range(qv.num_scales)),
                             zero_point=tuple(qv.zero_point[i] for i in range(qv.num_zero_points)),
                             axis=qv.axis)
    return TensorView(id=_s(v.id), name=_s(v.name), shape=tuple(v.shape[i] for i in range(v.rank)),
                      dtype=_s(v.dtype), ctype=_s(v.ctype), quantization=q, kind=_s(v.kind),
                      input_index=v.input_index if v.input_index >= 0 else None,
                      output_index=v.output_index if v.output_index >= 0 else None,
                      nbytes=v.nbytes)


def _region(v):
    return RegionView(id=v.id, memory=_s(v.memory), source_memory=_s(v.source_memory),
                      role=_s(v.role), offset=v.offset, size=v.size, alignment=v.alignment,
                      symbol=_s(v.symbol), source_symbol=_s(v.source_symbol),
                      source_offset=v.source_offset, sidecar_file=_s(v.sidecar_file))


def _placement(v):
    return PlacementView(region=v.region if v.region >= 0 else None, offset=v.offset,
                         size=v.size, source_memory=_s(v.source_memory), staged=bool(v.staged))


def _analysis(a, num_operators):
    if not a:
        return None
    a = a.contents
    unsupported = _strings(a.unsupported, a.num_unsupported)
    ops = () if unsupported else tuple(
        OperatorAnalysis(scratch_live=a.operators[i].scratch_live,
                         output_bytes=a.operators[i].output_bytes,
                         output_memory=_s(a.operators[i].output_memory),
                         kernel_stack_m55=a.operators[i].kernel_stack_m55,
                         kernel_stack_m4=a.operators[i].kernel_stack_m4,
                         macs=a.operators[i].macs if a.operators[i].has_macs else None,
                         channels_removed=a.channels_removed[i],
                         channels_folded=a.channels_folded[i])
        for i in range(num_operators))
    mems = tuple(MemorySummary(memory=_s(m.memory), usable=bool(m.usable), scratch=m.scratch,
                               scratch_lower_bound=m.scratch_lower_bound,
                               persistent=m.persistent, constants=m.constants, staged=m.staged,
                               staged_sources=m.staged_sources, used=m.used, budget=m.budget,
                               free=m.free, scratch_planner=_s(a.scratch_planners[i]),
                               scratch_proven=bool(a.scratch_proven[i]))
                 for i, m in ((i, a.memories[i]) for i in range(a.num_memories)))
    flash = None if unsupported else FlashEstimate(
        code=a.flash_code, kernels=a.flash_kernels, constants=a.flash_constants,
        total=a.flash_total, basis=_s(a.flash_basis),
        unmeasured=_strings(a.flash_unmeasured, a.num_flash_unmeasured))
    stack = None if unsupported else KernelStack(
        cortex_m55=a.kernel_stack_m55, cortex_m4=a.kernel_stack_m4,
        layer_index=a.kernel_stack_layer, basis=_s(a.kernel_stack_basis))
    return Analysis(platform=_s(a.platform), operators=ops, memories=mems,
                    total_macs=a.total_macs, flash=flash, unsupported=unsupported, stack=stack)


def _value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float, str)):
        return str(v)
    return json.dumps(v)  # lists and maps: JSON is YAML


class AotConverter:
    """The converter object of conversion-views.txt: convert(args) -> result."""

    def convert(self, args: ConvertArgs) -> ConversionResult:
        return self._run(args, _lib().tinyaot_convert)

    def analyze(self, args: ConvertArgs) -> ConversionResult:
        """The same configuration; writes nothing; module_path is None."""
        return self._run(args, _lib().tinyaot_analyze)

    def _run(self, args, entry) -> ConversionResult:
        lib = _lib()
        opts = [(_native.Option(k.encode(), _value(v).encode())) for k, v in args.options.items()]
        arr = (_native.Option * max(len(opts), 1))(*opts)
        c_args = _native.Args(config_path=args.config.encode() if args.config else None,
                              options=arr, num_options=len(opts), strict=int(args.strict),
                              result_views=int(args.result_views),
                              diagnostic=_native.DIAG_FN(lambda user, level, msg: None),
                              user=None, force=int(args.force))
        res = ctypes.POINTER(_native.Result)()
        status = entry(ctypes.byref(c_args), ctypes.byref(res))
        if not res:  # not even the result could be allocated
            raise ConversionError(status, ())
        try:
            r = res.contents
            diagnostics = _strings(r.diagnostics, r.num_diagnostics)
            if status != 0:
                raise ConversionError(status, diagnostics, _analysis(r.analysis, 0))
            tensors = tuple(_tensor(r.tensors[i]) for i in range(r.num_tensors))
            return ConversionResult(
                module_path=_s(r.module_path), diagnostics=diagnostics,
                operators=tuple(_operator(r.operators[i]) for i in range(r.num_operators)),
                tensors=tensors,
                regions=tuple(_region(r.regions[i]) for i in range(r.num_regions)),
                placements=frozen_mapping((r.placements[i].tensor_id.decode(),
                                           _placement(r.placements[i]))
                                          for i in range(r.num_placements)),
                analysis=_analysis(r.analysis, r.num_operators),
                identity=_identity(r.identity),
                model_tensors=frozen_mapping(
                    (_s(r.tensors[i].id),
                     r.tensors[i].model_tensor if r.tensors[i].model_tensor >= 0 else None)
                    for i in range(r.num_tensors)))
        finally:
            lib.tinyaot_result_free(res)


def convert(model_path=None, module_path=None, prefix=None, config=None, options=None,
            strict=False, result_views=True, force=False) -> ConversionResult:
    """Converts a model. Keyword shortcuts set model.path, module.path and
    module.prefix; `options` holds any other configuration keys; `force`
    replaces a module.path that tinyaot did not write."""
    opts = dict(options or {})
    for key, value in (("model.path", model_path), ("module.path", module_path),
                       ("module.prefix", prefix)):
        if value is not None:
            opts[key] = str(value)
    return AotConverter().convert(ConvertArgs(config=str(config) if config else None,
                                              options=opts, strict=strict,
                                              result_views=result_views, force=force))


def analyze(model_path=None, prefix=None, config=None, options=None, strict=False
            ) -> ConversionResult:
    """What `tinyaot analyze` reports, without writing a module: the views
    and .analysis (per operator and per memory figures, MACs, a flash
    estimate). module.path is not needed; module_path is None. A model
    with unsupported operators raises ConversionError whose .analysis
    lists them."""
    opts = dict(options or {})
    for key, value in (("model.path", model_path), ("module.prefix", prefix)):
        if value is not None:
            opts[key] = str(value)
    return AotConverter().analyze(ConvertArgs(config=str(config) if config else None,
                                              options=opts, strict=strict, result_views=True))
