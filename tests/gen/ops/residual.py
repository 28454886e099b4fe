"""Residual blocks, the pattern FUSE_RESIDUAL_ADD fuses: a CONV_2D whose
output only an ADD reads, the ADD's other operand an intermediate tensor
whose last reader is that ADD. RESIDUAL.conv_add draws the blocks of
ResNet-style models at small sizes; RESIDUAL.conv_add_simd (variants.SIMD,
run under QEMU by tests/test_simd.py) draws channel counts at the SIMD
kernels' lane counts and rows many pieces wide.

Modes: "identity" (the stem's output is the residual), "projection" (a
strided main path and a 1x1 shortcut, the shortcut before or after the
main path in the model's order) and "kept" (the residual is read again
after the ADD, so the sum may not take its bytes: not fused). An identity
block of one convolution is not fused either: that convolution reads the
residual the sum would overwrite."""

from ..common import (ModelBuilder, Q, chance, draw_quant, draw_simd_size,
                      draw_zero_point, f32, pick, randint)
from ..core import variant
from .chain import _conv


def _add(b, rng, lhs, rhs, shape, name, act=None):
    (a, aq), (s, sq) = lhs, rhs
    oq = Q(f32(max(aq.scale, sq.scale) * 10 ** rng.uniform(0.0, 0.6)),
           draw_zero_point(rng, "int8"))
    act = act or pick(rng, ["NONE", "NONE", "RELU", "RELU6"])
    y = b.tensor(shape, "int8", oq, name=name)
    operands = [a, s] if chance(rng, 0.5) else [s, a]
    b.op("ADD", operands, [y], "AddOptions", fusedActivationFunction=act)
    return y, oq, {"activation": act, "conv_first": operands[0] is a,
                   "quant": oq.to_json()}


def _block(rng, shape, channels, kernels):
    b = ModelBuilder()
    q = draw_quant(rng, "int8", 1e-3, 0.5)
    x = b.tensor(shape, "int8", q, name="input")
    mode = pick(rng, ["identity", "identity", "projection", "projection", "kept"])
    c = channels()
    r, rshape, rq, stem = _conv(b, rng, x, shape, q, c, k=pick(rng, [1, 3]), stride=1,
                                padding="SAME", name="stem")
    infos = {"stem": stem}
    if mode == "projection":
        stride, c2 = pick(rng, [1, 2, 2]), channels()
        shortcut_first = chance(rng, 0.5)
        if shortcut_first:
            s, sshape, sq, infos["shortcut"] = _conv(b, rng, r, rshape, rq, c2, k=1,
                                                     stride=stride, padding="SAME",
                                                     name="shortcut")
        m, mshape, mq, infos["main_a"] = _conv(b, rng, r, rshape, rq, c2, k=pick(rng, kernels),
                                               stride=stride, padding="SAME", name="main_a")
        m, mshape, mq, infos["main_b"] = _conv(b, rng, m, mshape, mq, c2,
                                               k=pick(rng, kernels), stride=1, padding="SAME",
                                               name="main_b")
        if not shortcut_first:
            s, sshape, sq, infos["shortcut"] = _conv(b, rng, r, rshape, rq, c2, k=1,
                                                     stride=stride, padding="SAME",
                                                     name="shortcut")
        infos["shortcut_first"] = shortcut_first
        residual = (s, sq)
    else:
        m, mshape, mq, infos["main_a"] = _conv(b, rng, r, rshape, rq, c, k=pick(rng, kernels),
                                               stride=1, padding="SAME", name="main_a")
        if chance(rng, 0.5):
            m, mshape, mq, infos["main_b"] = _conv(b, rng, m, mshape, mq, c,
                                                   k=pick(rng, kernels), stride=1,
                                                   padding="SAME", name="main_b")
        residual = (r, rq)
    y, yq, infos["add"] = _add(b, rng, (m, mq), residual, mshape, "sum")
    if mode == "kept":  # the residual outlives the ADD: a second ADD reads it
        y, yq, infos["add_again"] = _add(b, rng, (y, yq), residual, mshape, "sum_again")
    # One convolution reading the residual itself cannot write over it.
    fusable = mode != "kept" and "main_b" in infos
    return b.build([x], [y]), {"input_shape": shape, "mode": mode, "convs": infos,
                               "fusable": fusable}


@variant("RESIDUAL.conv_add", "RESIDUAL")
def conv_add(rng):
    """A residual block at small sizes: 1-24 channels (16 and 32 often),
    rows of 1-20 pixels, 1x1/3x3/5x5 kernels, batches of 1 or 2."""
    shape = [pick(rng, [1, 1, 1, 2]), randint(rng, 1, 8), randint(rng, 1, 20),
             randint(rng, 1, 8)]
    return _block(rng, shape, lambda: pick(rng, [randint(rng, 1, 24), 16, 32]), [1, 3, 3, 5])


@variant("RESIDUAL.conv_add_simd", "RESIDUAL", simd=True)
def conv_add_simd(rng):
    """A residual block at the SIMD kernels' sizes: channel counts at the
    lane counts and one either side (up to 65), 1x1 and 3x3 kernels, rows
    of up to 24 pixels (several 192-byte pieces each)."""
    shape = [1, randint(rng, 1, 6), randint(rng, 1, 24), draw_simd_size(rng, hi=33)]
    return _block(rng, shape, lambda: draw_simd_size(rng, hi=65), [1, 3, 3])
