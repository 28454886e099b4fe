"""The upstream examples' functional checks, on tinyaot's generated code:
person_detect tells a person from no person, and micro_speech ranks the
right word for each recording (its features come from the audio
preprocessor run in TFLite Micro's interpreter: its custom Signal operators
are not tinyaot's)."""

import struct
import wave

import numpy as np
import pytest

from tests.harness import module, oracle

DATA = module.MODELS / "testdata"


def bmp_pixels(path):
    """An 8-bit BMP's pixels, top row first, as the upstream example feeds
    them (the bytes copied into the int8 input unchanged)."""
    data = path.read_bytes()
    offset = struct.unpack_from("<I", data, 10)[0]
    width, height = struct.unpack_from("<ii", data, 18)
    bpp = struct.unpack_from("<H", data, 28)[0]
    assert bpp == 8
    stride = (width + 3) & ~3
    rows = [data[offset + r * stride: offset + r * stride + width] for r in range(abs(height))]
    if height > 0:  # stored bottom-up
        rows.reverse()
    return np.frombuffer(b"".join(rows), dtype=np.uint8).view(np.int8)


def test_person_detect_scores(tmp_path):
    path = module.MODELS / "tflm_person_detect.tflite"
    m = module.convert(path, tmp_path / "pd")
    exe = module.build(m)
    shape, _ = m.io("input")[0]
    runs = [[bmp_pixels(DATA / f"tflm_person_detect_{n}.bmp").reshape(shape)]
            for n in ("person", "no_person")]
    (person,), (no_person,) = module.run(m, exe, runs)
    person, no_person = person.reshape(-1), no_person.reshape(-1)
    # Output [no person, person] scores.
    assert person[1] > person[0], f"person image: {person}"
    assert no_person[0] > no_person[1], f"no-person image: {no_person}"
    expected = oracle.run_tflm(path.read_bytes(), runs, isolated=True)
    assert [e[0].tobytes() for e in expected] == [person.tobytes(), no_person.tobytes()]


def speech_features(wav_path):
    """49 frames of 40 int8 features: 30 ms windows every 20 ms, through the
    audio preprocessor in TFLite Micro (one interpreter, so its noise and
    gain state carries from frame to frame as upstream)."""
    w = wave.open(str(wav_path))
    samples = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16)
    windows = []
    start = 0
    while start + 480 <= len(samples) and len(windows) < 49:
        windows.append([samples[start:start + 480].reshape(1, 480)])
        start += 320
    pre = (module.MODELS / "tflm_audio_preprocessor_int8.tflite").read_bytes()
    feats = oracle.run_tflm(pre, windows, isolated=True)
    return np.concatenate([f[0].reshape(-1) for f in feats]).astype(np.int8)


# Labels: silence, unknown, yes, no. The upstream test expects "silence"
# for the noise recording too (micro_speech_test.cc).
@pytest.mark.parametrize("word,label", [("yes", 2), ("no", 3), ("silence", 0), ("noise", 0)])
def test_micro_speech_ranks_the_word(tmp_path, word, label):
    path = module.MODELS / "tflm_micro_speech_quantized.tflite"
    m = module.convert(path, tmp_path / "ms")
    exe = module.build(m)
    shape, _ = m.io("input")[0]
    feats = speech_features(DATA / f"tflm_micro_speech_{word}_1000ms.wav")
    assert feats.size == 49 * 40
    (scores,), = module.run(m, exe, [[feats.reshape(shape)]])
    scores = scores.reshape(-1)
    assert int(np.argmax(scores)) == label, f"{word}: scores {scores}"
