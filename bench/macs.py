"""Multiply-accumulates per layer: the module's views give them for the
convolution and matrix operators; for SVDF and LSTM, which the views leave
without a figure, they are counted here from the model's tensor shapes.

    per_layer = macs.of_module(m, model_bytes)   # {layer index: MACs or 0}
"""

import math

from tests.harness import oracle


def _shape(sg, index):
    return [int(d) for d in sg.tensors[index].shape]


def _svdf(sg, op):
    # feature matrix [filters, input] on every row, then the time filter
    # [filters, memory] over the state
    rows = math.prod(_shape(sg, op.inputs[0])[:-1])
    filters, depth = _shape(sg, op.inputs[1])
    memory = _shape(sg, op.inputs[2])[1]
    return rows * filters * (depth + memory)


def _lstm(sg, op):
    # four gates, each an input [cell, input] and a recurrent [cell, output]
    # matrix product per time step and batch row
    rows = math.prod(_shape(sg, op.inputs[0])[:-1])
    total = 0
    for w in list(op.inputs[1:5]) + list(op.inputs[5:9]):
        if w >= 0:
            total += math.prod(_shape(sg, w))
    return rows * total


COUNTED = {"SVDF": _svdf, "UNIDIRECTIONAL_SEQUENCE_LSTM": _lstm}


def of_module(m, data):
    model = oracle._model_obj(data)
    sg = model.subgraphs[0]
    out = {}
    for op in m.views["operators"]:
        n = op["macs"]
        src = op.get("source_indices") or []
        if n is None and op["type"] in COUNTED and len(src) == 1:
            n = COUNTED[op["type"]](sg, sg.operators[src[0]])
        out[op["layer_index"]] = n or 0
    return out
