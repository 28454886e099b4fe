"""Read-only views of what a tinyaot conversion generated.

The classes and fields follow conversion-views.txt name for name. Each is a
frozen dataclass; tuples stand for sequences, and `kernel_calls` is a
read-only mapping. They describe the generated module, not the compiler's
internal graph.
"""

from __future__ import annotations

import dataclasses
import types
from typing import Literal, Mapping, Optional, Tuple

TensorKind = Literal["input", "output", "constant", "persistent", "scratch"]
MemoryType = Literal["ITCM", "DTCM", "SRAM", "PSRAM", "MRAM", "DRAM"]
RegionRole = Literal["scratch", "persistent", "constant"]

__all__ = ["OperatorView", "QuantizationView", "TensorView", "RegionView", "PlacementView",
           "OperatorAnalysis", "MemorySummary", "FlashEstimate", "Analysis", "ModuleIdentity",
           "TensorKind", "MemoryType", "RegionRole"]


@dataclasses.dataclass(frozen=True)
class OperatorView:
    """One generated operator, in execution order."""

    layer_index: int
    symbol: str
    type: str
    source_indices: Tuple[int, ...]
    input_ids: Tuple[str, ...]
    output_ids: Tuple[str, ...]
    local_tensor_ids: Tuple[str, ...]
    kernel_calls: Optional[Mapping[str, str]]
    macs: Optional[int]
    parameters: Optional[int]


@dataclasses.dataclass(frozen=True)
class QuantizationView:
    """real = (q - zero_point) * scale, per tensor or per channel along axis."""

    scale: Tuple[float, ...]
    zero_point: Tuple[int, ...]
    axis: int


@dataclasses.dataclass(frozen=True)
class TensorView:
    """One tensor of the generated module, in <prefix>_tensor_ident_t order."""

    id: str
    name: Optional[str]
    shape: Tuple[int, ...]
    dtype: str
    ctype: str
    quantization: Optional[QuantizationView]
    kind: TensorKind
    input_index: Optional[int]
    output_index: Optional[int]
    nbytes: int


@dataclasses.dataclass(frozen=True)
class RegionView:
    """One arena region, in <prefix>_arena_region_t order (id == index)."""

    id: int
    memory: MemoryType
    source_memory: MemoryType
    role: RegionRole
    offset: int
    size: int
    alignment: int
    symbol: Optional[str]
    source_symbol: Optional[str]
    source_offset: int
    sidecar_file: Optional[str]


@dataclasses.dataclass(frozen=True)
class PlacementView:
    """Where one tensor lives; ConversionResult.placements maps tensor ids to these."""

    region: Optional[int]
    offset: int
    size: int
    source_memory: MemoryType
    staged: bool


@dataclasses.dataclass(frozen=True)
class OperatorAnalysis:
    """Per operator, in execution order: scratch bytes live while it runs,
    the bytes of its outputs, the memory of its first output, and the stack
    bytes its deepest kernel needs on Cortex-M55 and Cortex-M4."""

    scratch_live: int
    output_bytes: int
    output_memory: Optional[MemoryType]
    kernel_stack_m55: int = 0
    kernel_stack_m4: int = 0
    # Multiply-accumulates: the view's macs, else tinyaot's own count
    # (UNIDIRECTIONAL_SEQUENCE_LSTM, SVDF); None for neither.
    macs: Optional[int] = None
    # SPARSE_CHANNELS (docs/design.md, "Pruned models"): output channels
    # no longer computed, constant input channels folded into the bias.
    channels_removed: int = 0
    channels_folded: int = 0


@dataclasses.dataclass(frozen=True)
class MemorySummary:
    """One memory of the target: what the plan puts there and what is left."""

    memory: MemoryType
    usable: bool
    scratch: int
    scratch_lower_bound: int
    persistent: int
    constants: int
    staged: int
    staged_sources: int
    used: int
    budget: int
    free: int
    # The planner of the scratch arena (None: no scratch here) and whether
    # its size is proven minimal (docs/placement.md, "Planners").
    scratch_planner: Optional[str] = None
    scratch_proven: bool = False


@dataclasses.dataclass(frozen=True)
class FlashEstimate:
    """Bytes of flash, estimated (`basis` says how), not linked."""

    code: int
    kernels: int
    constants: int
    total: int
    basis: str
    # Runtime sources used that have no size measured for the target's core.
    unmeasured: Tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class Analysis:
    """What `tinyaot analyze` prints. `unsupported` names each operator
    tinyaot cannot convert (empty when all are supported)."""

    platform: str
    operators: Tuple[OperatorAnalysis, ...]
    memories: Tuple[MemorySummary, ...]
    total_macs: int
    flash: Optional[FlashEstimate]
    unsupported: Tuple[str, ...]
    stack: Optional["KernelStack"] = None


@dataclasses.dataclass(frozen=True)
class KernelStack:
    """The most stack one operator's kernels need (outside the arenas), on
    Cortex-M55 and Cortex-M4, the layer that needs it, and how it is
    measured."""

    cortex_m55: int
    cortex_m4: int
    layer_index: int
    basis: str


@dataclasses.dataclass(frozen=True)
class ModuleIdentity:
    """What the module's header records about it: model.name,
    model.description, model.version, tinyaot's version and the plan hash
    (<PREFIX>_PLAN_HASH, over regions, placements and kernel calls)."""

    model_name: str
    model_description: str
    model_version: str
    compiler_version: str
    plan_hash: int


def frozen_mapping(d):
    return types.MappingProxyType(dict(d))
