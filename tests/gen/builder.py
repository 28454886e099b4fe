"""Small helper for writing .tflite flatbuffers directly.

Uses the object API of the schema code generated for TFLite Micro's Python
package (ModelT, SubGraphT, ...), so every field of the file is under our
control: tensor types, per-tensor / per-channel quantization, buffers,
operator options.

    b = ModelBuilder()
    x = b.tensor([1, 8, 8, 3], "int8", Q(0.02, -5), name="input")
    w = b.const(weights, "int8", Q(scales, zeros, axis=0), name="filter")
    y = b.tensor([1, 8, 8, 4], "int8", Q(0.1, 3), name="output")
    b.op("CONV_2D", [x, w, bias], [y], "Conv2DOptions", padding=b.SAME, ...)
    model_bytes = b.build(inputs=[x], outputs=[y])

The output is deterministic: it depends only on the calls made.
"""

import flatbuffers
import numpy as np

from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as S

# name -> (TensorType enum value, numpy dtype)
DTYPES = {
    "float32": (S.TensorType.FLOAT32, np.float32),
    "int32": (S.TensorType.INT32, np.int32),
    "uint8": (S.TensorType.UINT8, np.uint8),
    "int64": (S.TensorType.INT64, np.int64),
    "bool": (S.TensorType.BOOL, np.bool_),
    "int16": (S.TensorType.INT16, np.int16),
    "int8": (S.TensorType.INT8, np.int8),
    "uint16": (S.TensorType.UINT16, np.uint16),
    "uint32": (S.TensorType.UINT32, np.uint32),
    "float16": (S.TensorType.FLOAT16, np.float16),
    "float64": (S.TensorType.FLOAT64, np.float64),
    "resource": (S.TensorType.RESOURCE, None),
    # Values -8..7 held as int8; stored packed two to a byte (pack_int4).
    "int4": (S.TensorType.INT4, np.int8),
}

_OPS = {k: v for k, v in vars(S.BuiltinOperator).items() if not k.startswith("_")}
_OPTIONS = {k: v for k, v in vars(S.BuiltinOptions).items() if not k.startswith("_")}

PADDING = {"SAME": S.Padding.SAME, "VALID": S.Padding.VALID}
ACTIVATIONS = {
    "NONE": S.ActivationFunctionType.NONE,
    "RELU": S.ActivationFunctionType.RELU,
    "RELU_N1_TO_1": S.ActivationFunctionType.RELU_N1_TO_1,
    "RELU6": S.ActivationFunctionType.RELU6,
    "TANH": S.ActivationFunctionType.TANH,
}

# 127 = PLACEHOLDER_FOR_GREATER_OP_CODES in the deprecated int8 field.
_PLACEHOLDER = 127


def tensor_type(dtype):
    return DTYPES[dtype][0]


def np_dtype(dtype):
    return DTYPES[dtype][1]


def pack_int4(values):
    """TFLite's dense INT4 layout: the flat values two to a byte, the first
    of each pair in the low nibble; an odd count leaves the last high
    nibble 0."""
    flat = np.asarray(values).astype(np.int64).reshape(-1)
    if flat.size and (flat.min() < -8 or flat.max() > 7):
        raise ValueError("int4 values must lie in -8..7")
    nibbles = (flat & 0xF).astype(np.uint8)
    if nibbles.size % 2:
        nibbles = np.append(nibbles, np.uint8(0))
    return (nibbles[0::2] | (nibbles[1::2] << 4)).astype(np.uint8).tobytes()


class Q:
    """Quantization parameters: scale(s), zero point(s), quantized axis."""

    def __init__(self, scale, zero_point=0, axis=0):
        self.scales = [float(np.float32(s)) for s in np.atleast_1d(scale)]
        zps = [int(z) for z in np.atleast_1d(zero_point)]
        if len(zps) == 1 and len(self.scales) > 1:
            zps = zps * len(self.scales)
        self.zero_points = zps
        self.axis = int(axis)

    @property
    def scale(self):
        return self.scales[0]

    @property
    def zero_point(self):
        return self.zero_points[0]

    def to_json(self):
        d = {"scale": self.scales if len(self.scales) > 1 else self.scales[0],
             "zero_point": (self.zero_points if len(self.zero_points) > 1
                            else self.zero_points[0])}
        if len(self.scales) > 1:
            d["axis"] = self.axis
        return d


class _AlignedBufferT(S.BufferT):
    """BufferT whose data vector is 16-byte aligned (as the converter does)."""

    def Pack(self, builder):
        data = None
        if self.data is not None:
            payload = bytes(self.data)
            builder.StartVector(1, len(payload), 16)
            builder.head = builder.head - len(payload)
            builder.Bytes[builder.head:builder.head + len(payload)] = payload
            data = builder.EndVector()
        S.BufferStart(builder)
        if data is not None:
            S.BufferAddData(builder, data)
        return S.BufferEnd(builder)


class _Graph:
    def __init__(self, name):
        self.name = name
        self.tensors = []      # TensorT
        self.summary = []      # JSON description, one per tensor
        self.operators = []


class ModelBuilder:
    SAME = "SAME"
    VALID = "VALID"

    def __init__(self, description="tinyaot tests/gen"):
        self.description = description
        self.buffers = [_AlignedBufferT()]   # buffer 0: the empty sentinel
        self.opcodes = []
        self._opcode_index = {}
        self.graphs = [_Graph("main")]
        self.g = self.graphs[0]

    # ---------------------------------------------------------------- graphs
    def subgraph(self, name):
        """Start a new subgraph; returns its index. Use select() to switch."""
        self.graphs.append(_Graph(name))
        return len(self.graphs) - 1

    def select(self, index):
        self.g = self.graphs[index]

    # --------------------------------------------------------------- tensors
    def tensor(self, shape, dtype, quant=None, name=None, data=None,
               variable=False):
        """Add a tensor to the current subgraph and return its index.

        data: constant contents (anything numpy can convert); stored in a
        buffer of its own.
        """
        shape = [int(d) for d in shape]
        t = S.TensorT()
        t.shape = shape
        t.type = tensor_type(dtype)
        t.isVariable = bool(variable)
        idx = len(self.g.tensors)
        t.name = (name or "t%d" % idx).encode()
        t.buffer = 0
        if data is not None:
            if dtype == "resource":
                raise ValueError("resource tensors cannot be constant")
            arr = np.asarray(data).astype(np_dtype(dtype))
            if tuple(arr.shape) != tuple(shape):
                if arr.size != int(np.prod(shape, dtype=np.int64)):
                    raise ValueError("constant %s: data shape %s != %s"
                                     % (t.name, arr.shape, shape))
                arr = arr.reshape(shape)
            raw = np.ascontiguousarray(arr).astype(arr.dtype.newbyteorder("<"))
            buf = _AlignedBufferT()
            buf.data = pack_int4(arr) if dtype == "int4" else raw.tobytes()
            self.buffers.append(buf)
            t.buffer = len(self.buffers) - 1
        if quant is not None:
            qp = S.QuantizationParametersT()
            qp.scale = list(quant.scales)
            qp.zeroPoint = list(quant.zero_points)
            qp.quantizedDimension = quant.axis
            t.quantization = qp
        self.g.tensors.append(t)
        info = {"name": t.name.decode(), "shape": shape, "dtype": dtype}
        if quant is not None:
            info.update(quant.to_json())
        if data is not None:
            info["const"] = True
        if variable:
            info["variable"] = True
        self.g.summary.append(info)
        return idx

    def const(self, data, dtype, quant=None, name=None, shape=None):
        arr = np.asarray(data)
        if shape is None:
            shape = list(arr.shape)
        return self.tensor(shape, dtype, quant, name=name, data=arr)

    # ------------------------------------------------------------- operators
    def _opcode(self, opname):
        if opname not in self._opcode_index:
            code = _OPS[opname]
            oc = S.OperatorCodeT()
            oc.builtinCode = code
            oc.deprecatedBuiltinCode = code if code < _PLACEHOLDER else _PLACEHOLDER
            oc.version = 1
            self._opcode_index[opname] = len(self.opcodes)
            self.opcodes.append(oc)
        return self._opcode_index[opname]

    def op(self, opname, inputs, outputs, options=None, intermediates=None,
           **fields):
        """Add an operator. options: the BuiltinOptions table name (e.g.
        "Conv2DOptions"); fields: its members in the generated code's
        camelCase spelling. Padding/activation may be given as strings."""
        o = S.OperatorT()
        o.opcodeIndex = self._opcode(opname)
        o.inputs = [int(i) for i in inputs]
        o.outputs = [int(i) for i in outputs]
        if intermediates is not None:
            o.intermediates = [int(i) for i in intermediates]
        if options is not None:
            cls = getattr(S, options + "T")
            opt = cls()
            for k in sorted(fields):
                v = fields[k]
                if not hasattr(opt, k):
                    raise AttributeError("%s has no field %s" % (options, k))
                if k == "padding" and isinstance(v, str):
                    v = PADDING[v]
                if k == "fusedActivationFunction" and isinstance(v, str):
                    v = ACTIVATIONS[v]
                setattr(opt, k, v)
            o.builtinOptionsType = _OPTIONS[options]
            o.builtinOptions = opt
        elif fields:
            raise ValueError("fields given without an options table")
        self.g.operators.append(o)
        return len(self.g.operators) - 1

    def custom_op(self, custom_code, inputs, outputs, custom_options=b""):
        """Add a CUSTOM operator with this custom_code (one operator code
        per distinct code) and its raw custom_options bytes."""
        key = ("CUSTOM", custom_code)
        if key not in self._opcode_index:
            oc = S.OperatorCodeT()
            oc.builtinCode = oc.deprecatedBuiltinCode = S.BuiltinOperator.CUSTOM
            oc.customCode = custom_code.encode()
            oc.version = 1
            self._opcode_index[key] = len(self.opcodes)
            self.opcodes.append(oc)
        o = S.OperatorT()
        o.opcodeIndex = self._opcode_index[key]
        o.inputs = [int(i) for i in inputs]
        o.outputs = [int(i) for i in outputs]
        if custom_options:
            o.customOptions = list(bytes(custom_options))
        self.g.operators.append(o)
        return len(self.g.operators) - 1

    # ----------------------------------------------------------------- build
    def build(self, inputs, outputs, graph=0):
        """Set the inputs/outputs of subgraph `graph` and serialize the model.
        Other subgraphs must have had set_io() called."""
        self.set_io(graph, inputs, outputs)
        m = S.ModelT()
        m.version = 3
        m.description = self.description.encode()
        m.operatorCodes = self.opcodes
        m.buffers = self.buffers
        m.subgraphs = []
        for g in self.graphs:
            sg = S.SubGraphT()
            sg.tensors = g.tensors
            sg.inputs = g.inputs
            sg.outputs = g.outputs
            sg.operators = g.operators
            sg.name = g.name.encode()
            m.subgraphs.append(sg)
        fb = flatbuffers.Builder(1024)
        fb.Finish(m.Pack(fb), file_identifier=b"TFL3")
        return bytes(fb.Output())

    def set_io(self, graph, inputs, outputs):
        self.graphs[graph].inputs = [int(i) for i in inputs]
        self.graphs[graph].outputs = [int(i) for i in outputs]

    def tensor_summary(self, graph=0):
        return [dict(t) for t in self.graphs[graph].summary]
