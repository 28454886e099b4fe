"""The Signal library's custom operators beyond the audio front end (whose
operators tests/test_signal.py runs through the shared preprocessor), each
alone with its options as a FlexBuffers map under the keys TensorFlow's
signal ops write (TFLite Micro reads them by position in the sorted map):
the real FFT and its inverse (int16, int32, float32), and the stateful
stream operators SignalDelay, SignalFramer, SignalOverlapAdd and
SignalStacker, run several times in a row on one interpreter.

Framer and stacker frames that are not complete yet are left unwritten by
TFLite Micro (their contents are whatever the buffer held), so the drawn
models whose data output is compared always complete every frame; the
others output only the valid flag, which then turns false and true."""

from flatbuffers import flexbuffers
import numpy as np

from ..common import ModelBuilder, chance, pick, randint
from ..core import variant

TYPE_CODE = {"int16": 7, "int32": 2, "float32": 0}  # TensorType, the option T

# Even lengths whose halves factor into 4, 2, 3 and 5 (every butterfly)
FFT_LENGTHS = [4, 6, 8, 10, 12, 16, 18, 20, 24, 30, 32, 36, 40, 48, 50, 60, 64, 72, 80, 90,
               96, 100, 120, 128, 150, 160, 192, 240, 256]


def _options(**values):
    return flexbuffers.Dumps(values)


def _outer(rng, max_rank):
    """Leading dimensions: 0 to max_rank - 1 of them, 1-3 each."""
    return [randint(rng, 1, 3) for _ in range(randint(rng, 0, max_rank - 1))]


def _fft(rng, dtype, inverse):
    fft_length = pick(rng, FFT_LENGTHS)
    outer = _outer(rng, 3)
    if inverse:
        # the fft_length / 2 + 1 bins, sometimes with unused values after them
        in_len = fft_length + 2 + (2 * randint(rng, 1, 3) if chance(rng, 0.2) else 0)
        out_len = fft_length
    else:
        in_len = fft_length if chance(rng, 0.5) else randint(rng, 1, fft_length)
        out_len = fft_length + 2
    b = ModelBuilder()
    x = b.tensor(outer + [in_len], dtype, name="input")
    y = b.tensor(outer + [out_len], dtype, name="output")
    b.custom_op("SignalIrfft" if inverse else "SignalRfft", [x], [y],
                _options(T=TYPE_CODE[dtype], fft_length=fft_length))
    return b.build([x], [y]), {"fft_length": fft_length, "input_shape": outer + [in_len],
                               "output_shape": outer + [out_len], "dtype": dtype}


def _register_fft(dtype, inverse):
    op = "SignalIrfft" if inverse else "SignalRfft"
    name = "SIGNAL_%s.%s" % ("IRFFT" if inverse else "RFFT", dtype)

    def draw(rng):
        return _fft(rng, dtype, inverse)

    draw.__doc__ = ("%s on %s: fft_length 4-256 (halves of radices 4, 2, 3, 5), 0-2 outer "
                    "dimensions of 1-3 frames; %s" % (
                        op, dtype,
                        "bins of random values (full-range integers: the fixed point wraps "
                        "as in KISS FFT)" if inverse else "frames of 1 to fft_length samples, zero-padded"))
    variant(name, op)(draw)


for _dtype in ("int16", "int32", "float32"):
    _register_fft(_dtype, False)
    _register_fft(_dtype, True)


@variant("SIGNAL_DELAY.int16", "SignalDelay", stateful=True, n_runs=6)
def signal_delay(rng):
    """SignalDelay: rank 1-3, frames of 1-40 samples, delay 0-60 (shorter
    and longer than a frame). Stateful, 6 runs."""
    outer = _outer(rng, 3)
    size = randint(rng, 1, 40)
    delay = pick(rng, [0, randint(rng, 1, size), randint(rng, 1, 60)])
    b = ModelBuilder()
    x = b.tensor(outer + [size], "int16", name="input")
    y = b.tensor(outer + [size], "int16", name="output")
    b.custom_op("SignalDelay", [x], [y], _options(delay_length=delay))
    return b.build([x], [y]), {"shape": outer + [size], "delay_length": delay}


@variant("SIGNAL_FRAMER.int16", "SignalFramer", stateful=True, n_runs=6)
def signal_framer(rng):
    """SignalFramer: rank 1-2 input of 1-4 steps of 1-16 samples; with
    prefill frames of step to 3 steps, without it of up to one step (every
    frame complete), or longer frames with only the valid flag compared.
    Stateful, 6 runs."""
    outer = _outer(rng, 2)
    step = randint(rng, 1, 16)
    frames = randint(rng, 1, 4)
    mode = pick(rng, ["prefill", "short", "flag_only"])
    prefill = mode == "prefill"
    if prefill:
        size = randint(rng, step, 3 * step)
    elif mode == "short":
        size = randint(rng, 1, step)
    else:
        size = randint(rng, step + 1, 3 * step + 1)
    b = ModelBuilder()
    x = b.tensor(outer + [frames * step], "int16", name="input")
    y = b.tensor(outer + [frames, size], "int16", name="frames")
    v = b.tensor([], "bool", name="valid")
    b.custom_op("SignalFramer", [x], [y, v],
                _options(frame_size=size, frame_step=step, prefill=prefill))
    outputs = [v] if mode == "flag_only" else [y, v]
    return b.build([x], outputs), {"input_shape": outer + [frames * step], "frame_size": size,
                                   "frame_step": step, "prefill": prefill, "mode": mode}


def _overlap_add(rng, dtype):
    outer = _outer(rng, 2)
    size = randint(rng, 1, 32)
    step = pick(rng, [size, randint(rng, 1, size), max(1, size // 2)])
    frames = randint(rng, 1, 4)
    b = ModelBuilder()
    x = b.tensor(outer + [frames, size], dtype, name="input")
    y = b.tensor(outer + [frames * step], dtype, name="output")
    b.custom_op("SignalOverlapAdd", [x], [y],
                _options(T=TYPE_CODE[dtype], frame_step=step))
    return b.build([x], [y]), {"input_shape": outer + [frames, size], "frame_step": step,
                               "dtype": dtype}


@variant("SIGNAL_OVERLAP_ADD.int16", "SignalOverlapAdd", stateful=True, n_runs=6)
def signal_overlap_add_int16(rng):
    """SignalOverlapAdd on int16 (full-range samples: the sums saturate):
    [..., 1-4 frames, 1-32 samples], step 1 to the frame size. Stateful,
    6 runs."""
    return _overlap_add(rng, "int16")


@variant("SIGNAL_OVERLAP_ADD.float32", "SignalOverlapAdd", stateful=True, n_runs=6)
def signal_overlap_add_float32(rng):
    """SignalOverlapAdd on float32, shapes as the int16 variant. Stateful,
    6 runs."""
    return _overlap_add(rng, "float32")


@variant("SIGNAL_STACKER.int16", "SignalStacker", stateful=True, n_runs=8)
def signal_stacker(rng):
    """SignalStacker: 1-16 channels, left context 0-3; with right context 0
    and step 1 every window is complete and compared; otherwise (right
    context 1-2, step up to the window) only the valid flag is compared.
    Stateful, 8 runs."""
    channels = randint(rng, 1, 16)
    left = randint(rng, 0, 3)
    full = chance(rng, 0.6)
    right = 0 if full else randint(rng, 0, 2)
    step = 1 if full else randint(rng, 1, left + right + 1)
    window = channels * (left + right + 1)
    b = ModelBuilder()
    x = b.tensor([channels], "int16", name="input")
    y = b.tensor([window], "int16", name="stacked")
    v = b.tensor([], "bool", name="valid")
    b.custom_op("SignalStacker", [x], [y, v],
                _options(num_channels=channels, stacker_left_context=left,
                         stacker_right_context=right, stacker_step=step))
    return b.build([x], [y, v] if full else [v]), {
        "channels": channels, "left_context": left, "right_context": right, "step": step,
        "data_compared": full}
