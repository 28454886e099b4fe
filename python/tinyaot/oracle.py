"""Reference outputs from TensorFlow Lite Micro's interpreter, for
`tinyaot validate`.

    python -m tinyaot.oracle --probe
    python -m tinyaot.oracle MODEL INPUTS OUTPUTS RUNS [--layers DIR]

INPUTS holds RUNS records, each the raw bytes of every model input in the
model's input order; OUTPUTS receives RUNS records of every output, in the
model's output order (the layout of tinyaot's module runners). The runs
follow each other on one interpreter with no reset, as consecutive calls
on a device do, so stateful models carry their state from run to run.

--probe prints "TFLite Micro <version> (tflite_micro from <path>)" when
numpy and tflite_micro import. --layers DIR keeps every tensor
(kPreserveAllTensors) and writes each tensor an operator of subgraph 0
writes into DIR/<model tensor index>.bin, every run back to back, for
`tinyaot validate --layers`.

It needs only numpy and the tflite-micro package: `tinyaot validate`
writes this same file (built into the tinyaot binary) beside its module
and runs it with the Python it was told to use, so the tinyaot package
itself does not have to be installed there.

Exit status: 0 done; 2 usage; 3 tflite_micro cannot be imported; 4 the
interpreter refused the model or the files do not fit it.
"""

import sys

EXIT_USAGE = 2
EXIT_NO_ORACLE = 3
EXIT_FAILED = 4


def _import_runtime():
    try:
        import numpy  # noqa: F401 - the interpreter's data comes as arrays
        from tflite_micro.python.tflite_micro import runtime
    except Exception as e:  # noqa: BLE001 - any import failure means no oracle
        sys.stderr.write("tinyaot.oracle: cannot import numpy and tflite_micro (%s: %s)\n"
                         % (type(e).__name__, e))
        sys.exit(EXIT_NO_ORACLE)
    return runtime


def _arena_size(model):
    # Generous: TFLM only touches what it plans, so unused arena costs nothing.
    return 4 * len(model) + (16 << 20)


def _subgraph0(model):
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as schema
    return schema.Model.GetRootAsModel(bytearray(model), 0)


def _io_counts(model):
    """Inputs and outputs of subgraph 0, from the flatbuffer itself (asking
    the interpreter past its last tensor is not safe)."""
    sg = _subgraph0(model).Subgraphs(0)
    return sg.InputsLength(), sg.OutputsLength()


def _computed_tensors(model):
    """Indices of the tensors subgraph 0's operators write, in order."""
    sg = _subgraph0(model).Subgraphs(0)
    found = []
    for k in range(sg.OperatorsLength()):
        op = sg.Operators(k)
        for j in range(op.OutputsLength()):
            i = op.Outputs(j)
            if i >= 0 and i not in found:
                found.append(i)
    return found


def _write_layers(it, np, tensors, layers_dir, first):
    import os
    for i in tensors:
        t = it.GetTensor(i, 0)
        data = np.ascontiguousarray(t["tensor_data"]).tobytes()
        with open(os.path.join(layers_dir, "%d.bin" % i), "wb" if first else "ab") as f:
            f.write(data)


def _tensor_bytes(np, details):
    n = 1
    for d in details["shape"]:
        n *= int(d)
    return n * np.dtype(details["dtype"]).itemsize


def run(model_path, inputs_path, outputs_path, runs, layers_dir=None):
    runtime = _import_runtime()
    import numpy as np

    with open(model_path, "rb") as f:
        model = f.read()
    with open(inputs_path, "rb") as f:
        data = f.read()
    try:
        config = runtime.InterpreterConfig.kPreserveAllTensors if layers_dir else \
            runtime.InterpreterConfig.kAllocationRecording
        it = runtime.Interpreter.from_bytes(model, arena_size=_arena_size(model),
                                            intrepreter_config=config)
    except Exception as e:  # noqa: BLE001 - reported to validate
        sys.stderr.write("tinyaot.oracle: TFLite Micro cannot prepare %s: %s\n" % (model_path, e))
        return EXIT_FAILED
    num_in, num_out = _io_counts(model)
    ins = [it.get_input_details(k) for k in range(num_in)]
    outs = [it.get_output_details(k) for k in range(num_out)]
    record = sum(_tensor_bytes(np, d) for d in ins)
    if record * runs != len(data):
        sys.stderr.write("tinyaot.oracle: %s holds %d bytes; %d runs of the model's inputs "
                         "are %d bytes\n" % (inputs_path, len(data), runs, record * runs))
        return EXIT_FAILED
    pos = 0
    tensors = _computed_tensors(model) if layers_dir else []
    with open(outputs_path, "wb") as out:
        for r in range(runs):
            for k, d in enumerate(ins):
                n = _tensor_bytes(np, d)
                x = np.frombuffer(data[pos:pos + n], dtype=d["dtype"]).reshape(d["shape"])
                it.set_input(x.copy(), k)
                pos += n
            try:
                it.invoke()
            except Exception as e:  # noqa: BLE001 - reported to validate
                sys.stderr.write("tinyaot.oracle: TFLite Micro invoke failed: %s\n" % e)
                return EXIT_FAILED
            for k in range(len(outs)):
                out.write(np.ascontiguousarray(it.get_output(k)).tobytes())
            if layers_dir:
                _write_layers(it, np, tensors, layers_dir, r == 0)
    return 0


def main(argv):
    if argv == ["--probe"]:
        _import_runtime()
        import tflite_micro  # noqa: F401 - only its version and location are printed
        version = getattr(tflite_micro, "__version__", "?")
        print("TFLite Micro %s (tflite_micro from %s)"
              % (version, getattr(tflite_micro, "__file__", "?")))
        return 0
    layers_dir = None
    if len(argv) == 6 and argv[4] == "--layers":
        layers_dir = argv[5]
        argv = argv[:4]
    if len(argv) != 4 or not argv[3].isdigit():
        sys.stderr.write("usage: python -m tinyaot.oracle MODEL INPUTS OUTPUTS RUNS "
                         "[--layers DIR]\n"
                         "       python -m tinyaot.oracle --probe\n")
        return EXIT_USAGE
    return run(argv[0], argv[1], argv[2], int(argv[3]), layers_dir)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
