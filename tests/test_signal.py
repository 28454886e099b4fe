"""The audio preprocessor (TFLite Micro's micro_speech front end: the Signal
library's custom operators, DIV and int32 arithmetic) against TFLite Micro,
byte for byte: every window of each shared recording, and random audio with
every operator's output made a model output, so each Signal operator is
compared on its own (the energy output is left out: TFLite Micro leaves the
bins outside [start_index, end_index) unwritten, the next CAST copies them,
and the STRIDED_SLICE after it drops them)."""

import wave

import flatbuffers
import numpy as np
import pytest

from tests import conftest
from tests.harness import difftest, module, oracle

PRE = module.MODELS / "tflm_audio_preprocessor_int8.tflite"
WORDS = ("yes", "no", "silence", "noise")


def audio_windows(word):
    """Every 30 ms window (480 samples) every 20 ms of the recording."""
    w = wave.open(str(module.MODELS / "testdata" / f"tflm_micro_speech_{word}_1000ms.wav"))
    samples = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16)
    return [[samples[s:s + 480].reshape(1, 480)] for s in range(0, len(samples) - 479, 320)]


@pytest.mark.parametrize("word", WORDS)
def test_preprocessor_matches_tflm_on_recordings(word, tmp_path):
    runs = audio_windows(word)
    assert len(runs) == 49
    report = difftest.compare_model(PRE, tmp_path, runs=runs, name=f"preprocessor ({word})",
                                    litert=False)
    conftest.REPORTS.append(report)
    assert report.diff["tflm"] == 0, f"{report.diff['tflm']} bytes differ from TFLite Micro"


def internals_model():
    """The preprocessor with every operator output (but the energy's
    partly unwritten one and its cast) a model output."""
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as schema

    model = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(PRE.read_bytes(), 0))
    sg = model.subgraphs[0]
    codes = [oc.customCode for oc in model.operatorCodes]
    outputs = [int(t) for t in sg.outputs]
    skip = set()
    for op in sg.operators:
        if codes[op.opcodeIndex] == b"SignalEnergy":
            skip.add(int(op.outputs[0]))
        elif int(op.inputs[0]) in skip:  # the CAST of the energy
            skip.update(int(t) for t in op.outputs)
    for op in sg.operators:
        outputs += [int(t) for t in op.outputs if int(t) not in outputs and int(t) not in skip]
    sg.outputs = outputs
    b = flatbuffers.Builder(0)
    b.Finish(model.Pack(b), file_identifier=b"TFL3")
    return bytes(b.Output())


def test_every_signal_operator_matches_tflm_on_random_audio(tmp_path):
    """200 consecutive runs: random samples at full scale, quiet and silent
    stretches (the noise estimate and gain control follow them)."""
    rng = np.random.default_rng(2028)
    runs = []
    for i in range(200):
        amplitude = [32767, 3000, 200, 0][i % 4] if i % 10 < 8 else 32767
        x = rng.integers(-amplitude, amplitude + 1, size=(1, 480))
        if i % 17 == 0:  # extremes: -32768 has no headroom in the auto-scale
            x[0, rng.integers(0, 480)] = -32768
        runs.append([x.astype(np.int16)])
    report = difftest.compare_model(internals_model(), tmp_path, runs=runs,
                                    name="preprocessor (every operator)", litert=False)
    conftest.REPORTS.append(report)
    assert report.bytes > 200 * 480 * 2
    assert report.diff["tflm"] == 0, f"{report.diff['tflm']} bytes differ from TFLite Micro"


def with_window_options(options):
    """The preprocessor with SignalWindow's custom options replaced."""
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as schema

    model = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(PRE.read_bytes(), 0))
    model.subgraphs[0].operators[0].customOptions = list(options)
    b = flatbuffers.Builder(0)
    b.Finish(model.Pack(b), file_identifier=b"TFL3")
    return bytes(b.Output())


def flex_map(**values):
    from flatbuffers import flexbuffers
    return flexbuffers.Dumps(values)


@pytest.mark.parametrize("options,message", [
    (b"", "custom option 'shift' is missing"),
    (b"\x01\x02", "malformed FlexBuffers options"),
    (b"\x05\x04\x01", "options are not a FlexBuffers map"),
    (b"\xff\x00\x00\x00\x24\x01", "malformed FlexBuffers options"),
    ("shift=40", "custom option 'shift' is 40; tinyaot supports 0 to 31"),
    ("shift=-1", "custom option 'shift' is -1; tinyaot supports 0 to 31"),
    ("other=12", "custom option 'shift' is missing"),
    ("shift=str", "custom option 'shift' is not an integer"),
])
def test_bad_custom_options_are_one_line(tmp_path, options, message):
    if isinstance(options, str):
        key, value = options.split("=")
        options = flex_map(**{key: value if value == "str" else int(value)})
    path = tmp_path / "bad.tflite"
    path.write_bytes(with_window_options(options))
    with pytest.raises(module.ConvertError) as e:
        module.convert(path, tmp_path / "m")
    lines = [l for l in e.value.stderr.splitlines() if l.strip()]
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"tinyaot: error: {path}: operator 0 (SignalWindow): "), lines[0]
    assert message in lines[0], lines[0]
    assert not (tmp_path / "m").exists()


def test_flexbuffers_widths_and_indirect_values_read_alike(tmp_path):
    """Options written with wide or indirect integers (what other writers
    produce) convert to the same module."""
    from flatbuffers import flexbuffers
    b = flexbuffers.Builder(force_min_bit_width=flexbuffers.BitWidth.W64)
    with b.Map():
        b.Key("shift")
        b.IndirectInt(12, byte_width=8)
    wide = b.Finish()
    out = []
    for name, options in (("default", None), ("wide", bytes(wide))):
        data = PRE.read_bytes() if options is None else with_window_options(options)
        path = tmp_path / f"{name}.tflite"
        path.write_bytes(data)
        m = module.convert(path, tmp_path / name)
        out.append(sorted(p.read_bytes() for p in (m.path / "ops").glob("*window*.c")))
    assert out[0] == out[1]


def custom_op_model(code, options, inputs, outputs):
    """A one-operator model: custom operator `code` with FlexBuffers
    `options`; inputs and outputs are (shape, dtype) pairs, all graph I/O."""
    from tests.gen.builder import ModelBuilder, S

    b = ModelBuilder()
    ins = [b.tensor(shape, dt, name=f"in{i}") for i, (shape, dt) in enumerate(inputs)]
    outs = [b.tensor(shape, dt, name=f"out{i}") for i, (shape, dt) in enumerate(outputs)]
    oc = S.OperatorCodeT()
    oc.builtinCode = oc.deprecatedBuiltinCode = S.BuiltinOperator.CUSTOM
    oc.customCode = code.encode()
    oc.version = 1
    b.opcodes.append(oc)
    o = S.OperatorT()
    o.opcodeIndex = len(b.opcodes) - 1
    o.inputs, o.outputs = ins, outs
    o.customOptions = list(flex_map(**options))
    b.g.operators.append(o)
    return b.build(ins, outs)


# Complex lengths (fft_length / 2) through every butterfly: 4 only (the
# preprocessor's 256), 2 (8 = 4 * 2), 3 (48 = 4 * 4 * 3), 5 (20 = 4 * 5),
# 3 and 5 (240 = 4 * 4 * 3 * 5), 2, 3 and 5 (30); frames of fewer samples
# (zero padding) and several frames per run.
@pytest.mark.parametrize("fft_length,input_length,frames", [
    (512, 480, 1), (16, 16, 3), (96, 90, 2), (40, 40, 1), (480, 400, 2), (60, 33, 4)])
def test_rfft_matches_tflm_for_every_radix(tmp_path, fft_length, input_length, frames):
    data = custom_op_model("SignalRfft", {"T": 7, "fft_length": fft_length},
                           [((frames, input_length), "int16")],
                           [((frames, fft_length + 2), "int16")])
    report = difftest.compare_model(data, tmp_path, n_runs=30, seed=fft_length,
                                    name=f"SignalRfft {fft_length} ({input_length} x {frames})",
                                    litert=False)
    conftest.REPORTS.append(report)
    assert report.diff["tflm"] == 0, f"{report.diff['tflm']} bytes differ from TFLite Micro"


def test_rfft_with_a_prime_factor_above_5_is_refused(tmp_path):
    path = tmp_path / "rfft14.tflite"
    path.write_bytes(custom_op_model("SignalRfft", {"T": 7, "fft_length": 14},
                                     [((1, 14), "int16")], [((1, 16), "int16")]))
    with pytest.raises(module.ConvertError) as e:
        module.convert(path, tmp_path / "m")
    assert "operator 0 (SignalRfft): fft_length 14 has the prime factor 7" in e.value.stderr


# The other operators alone, on random full-range inputs, with options the
# preprocessor does not use (clamping, other shifts and scales).
SINGLE_OPS = {
    "window shift 0": ("SignalWindow", {"shift": 0},
                       [((2, 64), "int16"), ((32,), "int16")], [((2, 64), "int16")]),
    "window shift 15": ("SignalWindow", {"shift": 15},
                        [((3, 20), "int16"), ((60,), "int16")], [((3, 20), "int16")]),
    "energy": ("SignalEnergy", {"start_index": 0, "end_index": 33},
               [((66,), "int16")], [((33,), "uint32")]),
    "spectral subtraction, clamping": (
        "SignalFilterBankSpectralSubtraction",
        {"alternate_one_minus_smoothing": 15401, "alternate_smoothing": 983, "clamping": True,
         "min_signal_remaining": 819, "num_channels": 12, "one_minus_smoothing": 15975,
         "smoothing": 409, "smoothing_bits": 10, "spectral_subtraction_bits": 14},
        [((12,), "uint32")], [((12,), "uint32"), ((12,), "uint32")]),
    "spectral subtraction, other bits": (
        "SignalFilterBankSpectralSubtraction",
        {"alternate_one_minus_smoothing": 3000, "alternate_smoothing": 1096, "clamping": False,
         "min_signal_remaining": 100, "num_channels": 7, "one_minus_smoothing": 4000,
         "smoothing": 96, "smoothing_bits": 3, "spectral_subtraction_bits": 12},
        [((7,), "uint32")], [((7,), "uint32"), ((7,), "uint32")]),
    "pcan": ("SignalPCAN", {"snr_shift": 6},
             [((20,), "uint32"), ((20,), "uint32"), ((125,), "int16")], [((20,), "uint32")]),
    "pcan shift 0": ("SignalPCAN", {"snr_shift": 0},
                     [((9,), "uint32"), ((9,), "uint32"), ((125,), "int16")], [((9,), "uint32")]),
    "log": ("SignalFilterBankLog", {"input_correction_bits": 3, "output_scale": 64},
            [((40,), "uint32")], [((40,), "int16")]),
    "log, scale 1600": ("SignalFilterBankLog", {"input_correction_bits": 0, "output_scale": 1600},
                        [((25,), "uint32")], [((25,), "int16")]),
    "fft auto-scale": ("SignalFftAutoScale", {}, [((100,), "int16")],
                       [((100,), "int16"), ((), "int32")]),
    "window, odd size": ("SignalWindow", {"shift": 12},
                         [((3, 21), "int16"), ((21,), "int16")], [((3, 21), "int16")]),
}


@pytest.mark.parametrize("name", sorted(SINGLE_OPS))
def test_signal_operator_alone_matches_tflm(tmp_path, name):
    code, options, inputs, outputs = SINGLE_OPS[name]
    data = custom_op_model(code, options, inputs, outputs)
    report = difftest.compare_model(data, tmp_path, n_runs=40, seed=len(name),
                                    name=f"{code} ({name})", litert=False)
    conftest.REPORTS.append(report)
    assert report.diff["tflm"] == 0, f"{report.diff['tflm']} bytes differ from TFLite Micro"


@pytest.mark.qemu
@pytest.mark.parametrize("board,target", [("mps3-an547", "mps3_an547"),
                                          ("mps2-an386", "mps2_an386")])
def test_signal_operators_alone_match_tflm_on_both_boards(tmp_path, board, target):
    """The same operators on Cortex-M55 and Cortex-M4, where the window,
    energy and bit-length helpers take their DSP paths, in one image."""
    from tests.harness import batch

    names = sorted(SINGLE_OPS)
    models = [custom_op_model(*SINGLE_OPS[n]) for n in names]
    runs = [oracle.random_inputs(m, np.random.default_rng([9, i]), 6) for i, m in enumerate(models)]
    b = batch.build_batch_qemu([(n.replace(" ", "_").replace(",", ""), m)
                                for n, m in zip(names, models)], tmp_path, board, target)
    assert not b.errors, b.errors
    results = batch.run_cases_qemu(b, list(enumerate(runs)))
    for i, name in enumerate(names):
        ours = results.get(i)
        assert not isinstance(ours, str), f"{name}: {ours}"
        compared, differ = difftest._count_diff(ours, oracle.run_tflm(models[i], runs[i]))
        assert compared > 0 and differ == 0, f"{name} on {board}: {differ} of {compared} bytes differ"


def one_op_model(code, options, inputs, outputs):
    """A model of one Signal operator: inputs and outputs as (shape, dtype)."""
    from tests.gen.common import ModelBuilder

    b = ModelBuilder()
    ins = [b.tensor(shape, dtype, name="in%d" % i) for i, (shape, dtype) in enumerate(inputs)]
    outs = [b.tensor(shape, dtype, name="out%d" % i) for i, (shape, dtype) in enumerate(outputs)]
    b.custom_op(code, ins, outs, flex_map(**options))
    return b.build(ins, outs)


@pytest.mark.parametrize("code,options,inputs,outputs,message", [
    ("SignalRfft", {"T": 9, "fft_length": 8}, [([8], "int8")], [([10], "int8")],
     "custom option 'T' is tensor type 9; tinyaot supports int16 (7), int32 (2) and float32 (0)"),
    ("SignalRfft", {"T": 2, "fft_length": 14}, [([14], "int32")], [([16], "int32")],
     "fft_length 14 has the prime factor 7"),
    ("SignalIrfft", {"T": 0, "fft_length": 8}, [([10], "float32")], [([6], "float32")],
     "do not fit fft_length 8"),
    ("SignalIrfft", {"T": 7, "fft_length": 8}, [([8], "int16")], [([8], "int16")],
     "do not fit fft_length 8"),
    ("SignalFramer", {"frame_size": 4, "frame_step": 6, "prefill": True}, [([12], "int16")],
     [([2, 4], "int16"), ([], "bool")], "prefill with frame_step 6 above frame_size 4"),
    ("SignalFramer", {"frame_size": 4, "frame_step": 3, "prefill": False}, [([8], "int16")],
     [([2, 4], "int16"), ([], "bool")], "not a multiple of frame_step 3"),
    ("SignalFramer", {"frame_size": 4, "frame_step": 2, "prefill": False}, [([8], "int16")],
     [([4, 4], "int16"), ([1], "bool")], "output 1 (valid) [1] is not a scalar"),
    ("SignalStacker", {"num_channels": 3, "stacker_left_context": 1,
                       "stacker_right_context": 0, "stacker_step": 3},
     [([3], "int16")], [([6], "int16"), ([], "bool")],
     "stacker_step 3 is more than the 2 frames of a window"),
    ("SignalStacker", {"num_channels": 3, "stacker_left_context": 1,
                       "stacker_right_context": 0, "stacker_step": 1},
     [([4], "int16")], [([6], "int16"), ([], "bool")], "do not fit 3 channels"),
    ("SignalOverlapAdd", {"T": 7, "frame_step": 5}, [([2, 4], "int16")], [([10], "int16")],
     "frame_step 5 is more than the frame size 4"),
    ("SignalOverlapAdd", {"T": 2, "frame_step": 2}, [([2, 4], "int32")], [([4], "int32")],
     "custom option 'T' is tensor type 2; tinyaot supports int16 (7) and float32 (0)"),
    ("SignalDelay", {"delay_length": -1}, [([4], "int16")], [([4], "int16")],
     "custom option 'delay_length' is -1"),
    ("SignalDelay", {"delay_length": 3}, [([2, 4], "int16")], [([2, 5], "int16")],
     "output [2,5] does not fit input [2,4]"),
])
def test_bad_stream_and_fft_operators_are_one_line(tmp_path, code, options, inputs, outputs,
                                                   message):
    path = tmp_path / "bad.tflite"
    path.write_bytes(one_op_model(code, options, inputs, outputs))
    with pytest.raises(module.ConvertError) as e:
        module.convert(path, tmp_path / "m")
    lines = [l for l in e.value.stderr.splitlines() if l.strip()]
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"tinyaot: error: {path}: operator 0 ({code}): "), lines[0]
    assert message in lines[0], lines[0]
