"""RESIZE_NEAREST_NEIGHBOR and RESIZE_BILINEAR (int8; output quantization =
input's; const int32 size). The draw takes float32 too (float_data.py)."""

import numpy as np

from ..common import ModelBuilder, Q, chance, draw_quant, pick, randint
from ..core import variant


def _resize(rng, op, dt):
    n = 2 if chance(rng, 0.15) else 1
    h, w, c = randint(rng, 1, 8), randint(rng, 1, 8), randint(rng, 1, 6)

    def out_size(d):
        mode = pick(rng, ["up2", "up", "down", "any"])
        if mode == "up2":
            return 2 * d
        if mode == "up":
            return randint(rng, d, 3 * d)
        if mode == "down":
            return randint(rng, 1, d)
        return randint(rng, 1, 16)

    oh, ow = out_size(h), out_size(w)
    flags = pick(rng, ["none", "align_corners", "half_pixel_centers"]
                 + (["both"] if op == "RESIZE_NEAREST_NEIGHBOR" else []))
    align = flags in ("align_corners", "both")
    half = flags in ("half_pixel_centers", "both")
    # float32 tensors carry no quantization
    q = None if dt == "float32" else draw_quant(rng, dt, 1e-3, 1.0)
    b = ModelBuilder()
    x = b.tensor([n, h, w, c], dt, q, name="input")
    s = b.const(np.array([oh, ow], np.int32), "int32", name="size")
    y = b.tensor([n, oh, ow, c], dt, q and Q(q.scale, q.zero_point), name="output")
    opts = ("ResizeBilinearOptions" if op == "RESIZE_BILINEAR"
            else "ResizeNearestNeighborOptions")
    b.op(op, [x, s], [y], opts, alignCorners=align, halfPixelCenters=half)
    return b.build([x], [y]), {"input_shape": [n, h, w, c], "size": [oh, ow],
                               "align_corners": align, "half_pixel_centers": half,
                               "quant": q and q.to_json()}


@variant("RESIZE_NEAREST_NEIGHBOR.int8", "RESIZE_NEAREST_NEIGHBOR")
def resize_nn_int8(rng):
    """int8 RESIZE_NEAREST_NEIGHBOR, up/down scaling to 1-48, align_corners
    and/or half_pixel_centers."""
    return _resize(rng, "RESIZE_NEAREST_NEIGHBOR", "int8")


@variant("RESIZE_BILINEAR.int8", "RESIZE_BILINEAR")
def resize_bilinear_int8(rng):
    """int8 RESIZE_BILINEAR, up/down scaling, align_corners or
    half_pixel_centers (never both)."""
    return _resize(rng, "RESIZE_BILINEAR", "int8")
