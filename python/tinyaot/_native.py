"""ctypes declarations of include/tinyaot/tinyaot.h, and loading the library."""

import ctypes
import os
import pathlib

c_char_pp = ctypes.POINTER(ctypes.c_char_p)


class Option(ctypes.Structure):
    _fields_ = [("key", ctypes.c_char_p), ("value", ctypes.c_char_p)]


DIAG_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p)


class Args(ctypes.Structure):
    _fields_ = [("config_path", ctypes.c_char_p), ("options", ctypes.POINTER(Option)),
                ("num_options", ctypes.c_size_t), ("strict", ctypes.c_int),
                ("result_views", ctypes.c_int), ("diagnostic", DIAG_FN),
                ("user", ctypes.c_void_p), ("force", ctypes.c_int),
                ("dump_after", ctypes.c_char_p), ("verbose", ctypes.c_int)]


class KernelCall(ctypes.Structure):
    _fields_ = [("role", ctypes.c_char_p), ("function", ctypes.c_char_p)]


class OperatorView(ctypes.Structure):
    _fields_ = [("layer_index", ctypes.c_int), ("symbol", ctypes.c_char_p),
                ("type", ctypes.c_char_p),
                ("source_indices", ctypes.POINTER(ctypes.c_int)),
                ("num_source_indices", ctypes.c_size_t),
                ("input_ids", c_char_pp), ("num_input_ids", ctypes.c_size_t),
                ("output_ids", c_char_pp), ("num_output_ids", ctypes.c_size_t),
                ("local_tensor_ids", c_char_pp), ("num_local_tensor_ids", ctypes.c_size_t),
                ("has_kernel_calls", ctypes.c_int),
                ("kernel_calls", ctypes.POINTER(KernelCall)),
                ("num_kernel_calls", ctypes.c_size_t),
                ("has_macs", ctypes.c_int), ("macs", ctypes.c_int64),
                ("has_parameters", ctypes.c_int), ("parameters", ctypes.c_int64)]


class QuantizationView(ctypes.Structure):
    _fields_ = [("scale", ctypes.POINTER(ctypes.c_double)), ("num_scales", ctypes.c_size_t),
                ("zero_point", ctypes.POINTER(ctypes.c_int64)),
                ("num_zero_points", ctypes.c_size_t), ("axis", ctypes.c_int)]


class TensorView(ctypes.Structure):
    _fields_ = [("id", ctypes.c_char_p), ("name", ctypes.c_char_p),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("rank", ctypes.c_size_t),
                ("dtype", ctypes.c_char_p), ("ctype", ctypes.c_char_p),
                ("quantization", ctypes.POINTER(QuantizationView)),
                ("kind", ctypes.c_char_p), ("input_index", ctypes.c_int),
                ("output_index", ctypes.c_int), ("nbytes", ctypes.c_int64),
                ("model_tensor", ctypes.c_int), ("stored_format", ctypes.c_char_p),
                ("dense_nbytes", ctypes.c_int64)]


class RegionView(ctypes.Structure):
    _fields_ = [("id", ctypes.c_int), ("memory", ctypes.c_char_p),
                ("source_memory", ctypes.c_char_p), ("role", ctypes.c_char_p),
                ("offset", ctypes.c_int64), ("size", ctypes.c_int64),
                ("alignment", ctypes.c_int64), ("symbol", ctypes.c_char_p),
                ("source_symbol", ctypes.c_char_p), ("source_offset", ctypes.c_int64),
                ("sidecar_file", ctypes.c_char_p)]


class PlacementView(ctypes.Structure):
    _fields_ = [("tensor_id", ctypes.c_char_p), ("region", ctypes.c_int),
                ("offset", ctypes.c_int64), ("size", ctypes.c_int64),
                ("source_memory", ctypes.c_char_p), ("staged", ctypes.c_int)]


class OperatorAnalysis(ctypes.Structure):
    _fields_ = [("scratch_live", ctypes.c_int64), ("output_bytes", ctypes.c_int64),
                ("output_memory", ctypes.c_char_p), ("kernel_stack_m55", ctypes.c_int64),
                ("kernel_stack_m4", ctypes.c_int64), ("has_macs", ctypes.c_int),
                ("macs", ctypes.c_int64)]


class MemorySummary(ctypes.Structure):
    _fields_ = [("memory", ctypes.c_char_p), ("usable", ctypes.c_int),
                ("scratch", ctypes.c_int64), ("scratch_lower_bound", ctypes.c_int64),
                ("persistent", ctypes.c_int64), ("constants", ctypes.c_int64),
                ("staged", ctypes.c_int64), ("staged_sources", ctypes.c_int64),
                ("used", ctypes.c_int64), ("budget", ctypes.c_int64), ("free", ctypes.c_int64)]


class RowChain(ctypes.Structure):
    _fields_ = [("first_layer", ctypes.c_int), ("last_layer", ctypes.c_int),
                ("ram_saved", ctypes.c_int64), ("calls", ctypes.c_int), ("moves", ctypes.c_int),
                ("moved_bytes", ctypes.c_int64), ("added_instructions", ctypes.c_int64),
                ("num_buffers", ctypes.c_size_t), ("buffer_ids", c_char_pp),
                ("buffer_rows", ctypes.POINTER(ctypes.c_int)),
                ("buffer_heights", ctypes.POINTER(ctypes.c_int)),
                ("buffer_bytes", ctypes.POINTER(ctypes.c_int64)),
                ("buffer_readers", ctypes.POINTER(ctypes.c_int)),
                ("buffer_residual_of", ctypes.POINTER(ctypes.c_int))]


class Analysis(ctypes.Structure):
    _fields_ = [("platform", ctypes.c_char_p),
                ("operators", ctypes.POINTER(OperatorAnalysis)),
                ("memories", ctypes.POINTER(MemorySummary)), ("num_memories", ctypes.c_size_t),
                ("total_macs", ctypes.c_int64), ("flash_code", ctypes.c_int64),
                ("flash_kernels", ctypes.c_int64), ("flash_constants", ctypes.c_int64),
                ("flash_total", ctypes.c_int64), ("flash_basis", ctypes.c_char_p),
                ("unsupported", c_char_pp), ("num_unsupported", ctypes.c_size_t),
                ("kernel_stack_m55", ctypes.c_int64), ("kernel_stack_m4", ctypes.c_int64),
                ("kernel_stack_layer", ctypes.c_int), ("kernel_stack_basis", ctypes.c_char_p),
                ("scratch_planners", c_char_pp), ("scratch_proven", ctypes.POINTER(ctypes.c_int)),
                ("flash_unmeasured", c_char_pp), ("num_flash_unmeasured", ctypes.c_size_t),
                ("channels_removed", ctypes.POINTER(ctypes.c_int)),
                ("channels_folded", ctypes.POINTER(ctypes.c_int)),
                ("row_chains", ctypes.POINTER(RowChain)), ("num_row_chains", ctypes.c_size_t),
                ("row_arena_with", ctypes.c_int64), ("row_arena_without", ctypes.c_int64)]


class ConfigKey(ctypes.Structure):
    _fields_ = [("key", ctypes.c_char_p), ("type", ctypes.c_char_p),
                ("default_value", ctypes.c_char_p), ("meaning", ctypes.c_char_p)]


class ModuleIdentity(ctypes.Structure):
    _fields_ = [("model_name", ctypes.c_char_p), ("model_description", ctypes.c_char_p),
                ("model_version", ctypes.c_char_p), ("compiler_version", ctypes.c_char_p),
                ("plan_hash", ctypes.c_uint64)]


class Result(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int), ("module_path", ctypes.c_char_p),
                ("diagnostics", c_char_pp), ("num_diagnostics", ctypes.c_size_t),
                ("operators", ctypes.POINTER(OperatorView)), ("num_operators", ctypes.c_size_t),
                ("tensors", ctypes.POINTER(TensorView)), ("num_tensors", ctypes.c_size_t),
                ("regions", ctypes.POINTER(RegionView)), ("num_regions", ctypes.c_size_t),
                ("placements", ctypes.POINTER(PlacementView)),
                ("num_placements", ctypes.c_size_t),
                ("region_lower_bounds", ctypes.POINTER(ctypes.c_int64)),
                ("analysis", ctypes.POINTER(Analysis)),
                ("identity", ctypes.POINTER(ModuleIdentity))]


# include/tinyaot/tinyaot.h's TINYAOT_ABI_VERSION for the structs above.
ABI_VERSION = 6


def _candidates():
    env = os.environ.get("TINYAOT_LIBRARY")
    if env:
        yield pathlib.Path(env)
    here = pathlib.Path(__file__).resolve().parent
    yield here / "libtinyaot.so"
    # Running from a source checkout: the CMake build next to python/.
    yield here.parents[1] / "build" / "libtinyaot.so"


def load():
    tried = []
    for path in _candidates():
        tried.append(str(path))
        if path.exists():
            lib = ctypes.CDLL(str(path))
            abi = getattr(lib, "tinyaot_abi_version", None)
            found = abi() if abi else 1
            if found != ABI_VERSION:
                raise OSError(f"{path}: its structs are of layout {found}, this package reads "
                              f"layout {ABI_VERSION}: rebuild the library or reinstall the "
                              "package (or set TINYAOT_LIBRARY to a matching build)")
            lib.tinyaot_convert.argtypes = [ctypes.POINTER(Args),
                                            ctypes.POINTER(ctypes.POINTER(Result))]
            lib.tinyaot_convert.restype = ctypes.c_int
            lib.tinyaot_analyze.argtypes = lib.tinyaot_convert.argtypes
            lib.tinyaot_analyze.restype = ctypes.c_int
            lib.tinyaot_config_keys.argtypes = [ctypes.POINTER(ctypes.c_size_t)]
            lib.tinyaot_config_keys.restype = ctypes.POINTER(ConfigKey)
            lib.tinyaot_result_free.argtypes = [ctypes.POINTER(Result)]
            lib.tinyaot_result_free.restype = None
            lib.tinyaot_version.restype = ctypes.c_char_p
            return lib
    raise OSError("libtinyaot.so not found (tried: " + ", ".join(tried) +
                  "); set TINYAOT_LIBRARY or reinstall the package")
