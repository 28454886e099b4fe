"""A model with operators tinyaot does not lower, for the tests of how a
conversion fails: the audio preprocessor with its SignalWindow renamed to a
custom code no one registers ("UserWindow", operator 0) and its DIV made an
LSH_PROJECTION (a builtin TFLite Micro has no kernel for, operator 17).

    path = unsupported.model(tmp_path)
"""

import flatbuffers

from tests.harness import module

CUSTOM = "UserWindow"
BUILTIN = "LSH_PROJECTION"
LSH_PROJECTION = 15


def model(directory):
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as schema

    data = (module.MODELS / "tflm_audio_preprocessor_int8.tflite").read_bytes()
    m = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(data, 0))
    for oc in m.operatorCodes:
        if oc.customCode == b"SignalWindow":
            oc.customCode = CUSTOM.encode()
        if max(oc.builtinCode, oc.deprecatedBuiltinCode) == schema.BuiltinOperator.DIV:
            oc.builtinCode = oc.deprecatedBuiltinCode = LSH_PROJECTION
    b = flatbuffers.Builder(0)
    b.Finish(m.Pack(b), file_identifier=b"TFL3")
    path = directory / "unsupported_ops.tflite"
    path.write_bytes(bytes(b.Output()))
    return path
