"""float32 variants of the data-movement operators, and of the resizes:
the same draws as the int8 variants of tests/gen/ops/shape.py and
resize.py with float32 tensors (no quantization). tinyaot moves the data
movers' bytes whatever the dtype; these check that float32 is accepted
everywhere TFLite Micro accepts it and that every bit arrives (-0.0 and
NaN included, when the oracle draws them). RESIZE_BILINEAR is the one that
computes: TFLite's float blend (runtime/kernels/ta_resize_f32.h)."""

from ..core import variant
from . import resize, shape

# name -> (operator, the shape.py draw taking dt)
DRAWS = {
    "RESHAPE": ("RESHAPE", shape._reshape),
    "SQUEEZE": ("SQUEEZE", shape.squeeze_int8),
    "EXPAND_DIMS": ("EXPAND_DIMS", shape.expand_dims_int8),
    "CONCATENATION": ("CONCATENATION", shape._concat),
    "SPLIT": ("SPLIT", shape.split_int8),
    "SPLIT_V": ("SPLIT_V", shape.split_v_int8),
    "PACK": ("PACK", shape.pack_int8),
    "UNPACK": ("UNPACK", shape.unpack_int8),
    "SLICE": ("SLICE", shape.slice_int8),
    "STRIDED_SLICE": ("STRIDED_SLICE", lambda rng, dt: shape._strided_slice(rng, False, dt)),
    "TRANSPOSE": ("TRANSPOSE", shape.transpose_int8),
    "PAD": ("PAD", lambda rng, dt: shape._pad(rng, False, dt)),
    "PADV2": ("PADV2", lambda rng, dt: shape._pad(rng, True, dt)),
    "GATHER": ("GATHER", shape.gather_int8),
    "DEPTH_TO_SPACE": ("DEPTH_TO_SPACE", shape.depth_to_space_int8),
    "SPACE_TO_DEPTH": ("SPACE_TO_DEPTH", shape.space_to_depth_int8),
    "RESIZE_NEAREST_NEIGHBOR": ("RESIZE_NEAREST_NEIGHBOR",
                                lambda rng, dt: resize._resize(rng, "RESIZE_NEAREST_NEIGHBOR", dt)),
    # not data movement: TFLite's float bilinear blend (ta_resize_f32.h)
    "RESIZE_BILINEAR": ("RESIZE_BILINEAR",
                        lambda rng, dt: resize._resize(rng, "RESIZE_BILINEAR", dt)),
}

for _name, (_op, _draw) in DRAWS.items():
    def _make(name=_name, draw=_draw):
        def fn(rng):
            return draw(rng, "float32")
        fn.__doc__ = "float32 %s: drawn as %s.int8, without quantization." % (name, name)
        return fn
    variant("%s.float32" % _name, _op)(_make())
