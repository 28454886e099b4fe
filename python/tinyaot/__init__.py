"""tinyaot: convert LiteRT models into C99 inference modules, from Python.

    import tinyaot
    result = tinyaot.convert(model_path="kws.tflite", module_path="out/kws", prefix="kws",
                             options={"memory.dump_residency_json": True})
    for op in result.operators:
        print(op.layer_index, op.type, op.macs)

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
from .views import (MemoryType, OperatorView, PlacementView, QuantizationView, RegionRole,
                    RegionView, TensorKind, TensorView, frozen_mapping)

__all__ = ["convert", "ConvertArgs", "ConversionResult", "AotConverter", "ConversionError",
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
    """The conversion failed; .diagnostics holds every message, .status the code."""

    def __init__(self, status, diagnostics):
        super().__init__("\n".join(diagnostics) or f"tinyaot status {status}")
        self.status = status
        self.diagnostics = tuple(diagnostics)


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


def _value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float, str)):
        return str(v)
    return json.dumps(v)  # lists and maps: JSON is YAML


class AotConverter:
    """The converter object of conversion-views.txt: convert(args) -> result."""

    def convert(self, args: ConvertArgs) -> ConversionResult:
        lib = _lib()
        opts = [(_native.Option(k.encode(), _value(v).encode())) for k, v in args.options.items()]
        arr = (_native.Option * max(len(opts), 1))(*opts)
        c_args = _native.Args(config_path=args.config.encode() if args.config else None,
                              options=arr, num_options=len(opts), strict=int(args.strict),
                              result_views=int(args.result_views),
                              diagnostic=_native.DIAG_FN(lambda user, level, msg: None),
                              user=None, force=int(args.force))
        res = ctypes.POINTER(_native.Result)()
        status = lib.tinyaot_convert(ctypes.byref(c_args), ctypes.byref(res))
        if not res:  # not even the result could be allocated
            raise ConversionError(status, ())
        try:
            r = res.contents
            diagnostics = _strings(r.diagnostics, r.num_diagnostics)
            if status != 0:
                raise ConversionError(status, diagnostics)
            tensors = tuple(_tensor(r.tensors[i]) for i in range(r.num_tensors))
            return ConversionResult(
                module_path=_s(r.module_path), diagnostics=diagnostics,
                operators=tuple(_operator(r.operators[i]) for i in range(r.num_operators)),
                tensors=tensors,
                regions=tuple(_region(r.regions[i]) for i in range(r.num_regions)),
                placements=frozen_mapping((r.placements[i].tensor_id.decode(),
                                           _placement(r.placements[i]))
                                          for i in range(r.num_placements)))
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
