"""Control flow: IF choosing between two small int8 chains, WHILE running a
counted loop whose body carries int8 (and int32) values. Each branch, cond
and body is a subgraph of its own; the models run 4 times so that both
branches and several trip counts are seen."""

import numpy as np

from ..common import ModelBuilder, Q, chance, draw_quant, pick, rand_values, randint
from ..core import variant
from .chain import _elementwise_op


def _chain(b, rng, x, shape, q, name):
    """One or two elementwise int8 operators on x; (output, kinds)."""
    kinds = []
    for i in range(randint(rng, 1, 2)):
        x, q, kind = _elementwise_op(b, rng, x, shape, q, "%s%d" % (name, i))
        kinds.append(kind)
    return x, kinds


def _branch(b, rng, shape, q, name):
    """A subgraph taking an int8 tensor and giving the chain's result."""
    sg = b.subgraph(name)
    b.select(sg)
    x = b.tensor(shape, "int8", q, name=name + "_in")
    y, kinds = _chain(b, rng, x, shape, q, name)
    b.set_io(sg, [x], [y])
    return sg, kinds


def _condition(b, rng):
    """The bool IF tests, from a bool input or an int8 GREATER; (cond, inputs)."""
    if chance(rng, 0.5):
        c = b.tensor([1], "bool", name="cond")
        return c, [c], "input"
    cq = Q(0.5, 0)
    a = b.tensor([1], "int8", cq, name="selector")
    t = b.const(np.array([randint(rng, -20, 20)], np.int8), "int8", cq, name="threshold")
    c = b.tensor([1], "bool", name="cond")
    b.op("GREATER", [a, t], [c])
    return c, [a], "greater"


@variant("IF.int8", "IF", n_runs=4)
def if_int8(rng):
    """IF (cond, x) -> y: the then and else subgraphs are each one or two of
    ADD (constant), LOGISTIC, RELU on x; the condition is a bool input or
    GREATER of an int8 input and a constant; x may first pass an operator
    of the main graph and y may feed one."""
    b = ModelBuilder()
    shape = [randint(rng, 1, 3), randint(rng, 1, 8)]
    q = draw_quant(rng, "int8", 1e-3, 0.5)
    x = b.tensor(shape, "int8", q, name="input")
    cond, inputs, cond_kind = _condition(b, rng)
    pre = chance(rng, 0.4)
    xin, xq = x, q
    if pre:
        xin, xq, _ = _elementwise_op(b, rng, x, shape, q, "pre")
    then_sg, then_kinds = _branch(b, rng, shape, xq, "then")
    else_sg, else_kinds = _branch(b, rng, shape, xq, "else")
    b.select(0)
    yq = draw_quant(rng, "int8", 1e-3, 0.5)
    y = b.tensor(shape, "int8", yq, name="if_out")
    b.op("IF", [cond, xin], [y], "IfOptions", thenSubgraphIndex=then_sg,
         elseSubgraphIndex=else_sg)
    out = y
    post = chance(rng, 0.4)
    if post:
        out, _, _ = _elementwise_op(b, rng, y, shape, yq, "post")
    return b.build([x] + inputs, [out]), {
        "shape": shape, "cond": cond_kind, "then": then_kinds, "else": else_kinds,
        "pre": pre, "post": post}


def _loop_values(b, shape, q, with_int32):
    """Tensors for the loop's values in the current subgraph: counter, data
    and (optionally) an int32 accumulator."""
    vals = [b.tensor([1], "int8", Q(0.5, 0), name="counter"),
            b.tensor(shape, "int8", q, name="data")]
    if with_int32:
        vals.append(b.tensor(shape, "int32", name="acc"))
    return vals


@variant("WHILE.counter", "WHILE", n_runs=4)
def while_counter(rng):
    """WHILE over (counter, data[, acc]): cond is LESS(counter, limit); the
    body adds 1 to the counter (int8, scale 0.5), runs one or two int8
    elementwise operators on data and, with an int32 accumulator, adds a
    constant to it (wrapping). The counter starts at a constant or at an
    input (so some runs loop 0 times)."""
    b = ModelBuilder()
    shape = [1, randint(rng, 1, 8)]
    q = draw_quant(rng, "int8", 1e-3, 0.5)
    with_int32 = chance(rng, 0.5)
    counter_from_input = chance(rng, 0.5)
    limit = randint(rng, 0, 6)
    counter_q = Q(0.5, 0)
    # The cond subgraph.
    cond_sg = b.subgraph("cond")
    b.select(cond_sg)
    cv = _loop_values(b, shape, q, with_int32)
    lim = b.const(np.array([2 * limit], np.int8), "int8", counter_q, name="limit")
    go = b.tensor([1], "bool", name="go_on")
    b.op("LESS", [cv[0], lim], [go])
    b.set_io(cond_sg, cv, [go])
    # The body subgraph.
    body_sg = b.subgraph("body")
    b.select(body_sg)
    bv = _loop_values(b, shape, q, with_int32)
    one = b.const(np.array([2], np.int8), "int8", counter_q, name="one")
    nxt = b.tensor([1], "int8", counter_q, name="counter_next")
    b.op("ADD", [bv[0], one], [nxt], "AddOptions", fusedActivationFunction="NONE")
    data, kinds = _chain(b, rng, bv[1], shape, q, "body")
    outs = [nxt, data]
    if with_int32:
        step = b.const(rand_values(rng, "int32", shape), "int32", name="step")
        acc = b.tensor(shape, "int32", name="acc_next")
        b.op("ADD", [bv[2], step], [acc], "AddOptions", fusedActivationFunction="NONE")
        outs.append(acc)
    b.set_io(body_sg, bv, outs)
    # The main graph.
    b.select(0)
    inputs = []
    if counter_from_input:
        c0 = b.tensor([1], "int8", counter_q, name="start")
        inputs.append(c0)
    else:
        c0 = b.const(np.array([pick(rng, [-4, 0, 2])], np.int8), "int8", counter_q,
                     name="start")
    x = b.tensor(shape, "int8", q, name="input")
    inputs.append(x)
    loop_in = [c0, x]
    if with_int32:
        a0 = b.tensor(shape, "int32", name="acc_start")
        inputs.append(a0)
        loop_in.append(a0)
    loop_out = [b.tensor([1], "int8", counter_q, name="counter_out"),
                b.tensor(shape, "int8", q, name="data_out")]
    if with_int32:
        loop_out.append(b.tensor(shape, "int32", name="acc_out"))
    b.op("WHILE", loop_in, loop_out, "WhileOptions", condSubgraphIndex=cond_sg,
         bodySubgraphIndex=body_sg)
    return b.build(inputs, loop_out), {
        "shape": shape, "limit": limit, "int32": with_int32,
        "counter_from_input": counter_from_input, "body": kinds}
