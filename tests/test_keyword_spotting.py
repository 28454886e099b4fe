"""The keyword pipeline from audio as a user runs it (docs/keyword-spotting.md): examples/keyword_spotting/run.sh converts the audio
preprocessor and micro_speech, builds kws.c with both modules and labels
the four shared recordings as upstream expects (the noise recording as
silence, micro_speech_test.cc)."""

import os
import subprocess

from tests.harness import module

RUN = module.ROOT / "examples" / "keyword_spotting" / "run.sh"
EXPECTED = {"yes": "yes", "no": "no", "silence": "silence", "noise": "silence"}


def test_run_sh_labels_the_four_recordings(tmp_path):
    p = subprocess.run([RUN, tmp_path], capture_output=True, text=True, timeout=600,
                       env={**os.environ, "TINYAOT_BIN": module.tinyaot_bin()})
    assert p.returncode == 0, p.stdout + p.stderr
    lines = p.stdout.splitlines()
    assert len(lines) == 4, p.stdout
    for word, line in zip(EXPECTED, lines):
        name, rest = line.split(": ", 1)
        assert name == f"tflm_micro_speech_{word}_1000ms.wav"
        label, *scores = rest.split()
        assert label == EXPECTED[word], line
        values = {k: float(v) for k, v in (s.split("=") for s in scores)}
        assert max(values, key=values.get) == label
        assert abs(sum(values.values()) - 1.0) < 0.03  # softmax, dequantized
