"""The upstream examples' functional checks, on tinyaot's generated code:
person_detect tells a person from no person, and the keyword pipeline, the
audio preprocessor module feeding the micro_speech module, ranks the right
word for each recording."""

import struct
import wave

import numpy as np
import pytest

from tests.harness import module, oracle

DATA = module.MODELS / "testdata"
PRE = module.MODELS / "tflm_audio_preprocessor_int8.tflite"


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


def speech_features(wav_path, pre, pre_exe):
    """49 frames of 40 int8 features: 30 ms windows every 20 ms, through the
    audio preprocessor module (one instance, so its noise estimate carries
    from frame to frame as upstream), checked against TFLite Micro's."""
    w = wave.open(str(wav_path))
    samples = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16)
    windows = []
    start = 0
    while start + 480 <= len(samples) and len(windows) < 49:
        windows.append([samples[start:start + 480].reshape(1, 480)])
        start += 320
    feats = module.run(pre, pre_exe, windows)
    tflm = oracle.run_tflm(PRE.read_bytes(), windows, isolated=True)
    assert [f[0].tobytes() for f in feats] == [f[0].tobytes() for f in tflm]
    return np.concatenate([f[0].reshape(-1) for f in feats]).astype(np.int8)


# Labels: silence, unknown, yes, no. The upstream test expects "silence"
# for the noise recording too (micro_speech_test.cc).
@pytest.mark.parametrize("word,label", [("yes", 2), ("no", 3), ("silence", 0), ("noise", 0)])
def test_micro_speech_ranks_the_word(tmp_path, word, label):
    path = module.MODELS / "tflm_micro_speech_quantized.tflite"
    m = module.convert(path, tmp_path / "ms")
    exe = module.build(m)
    pre = module.convert(PRE, tmp_path / "pre", prefix="pre")
    shape, _ = m.io("input")[0]
    feats = speech_features(DATA / f"tflm_micro_speech_{word}_1000ms.wav", pre, module.build(pre))
    assert feats.size == 49 * 40
    (scores,), = module.run(m, exe, [[feats.reshape(shape)]])
    scores = scores.reshape(-1)
    assert int(np.argmax(scores)) == label, f"{word}: scores {scores}"
