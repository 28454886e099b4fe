#!/bin/sh
# Keyword spotting from audio (docs/keyword-spotting.md):
# converts the audio preprocessor and micro_speech, builds kws.c with both
# modules and classifies the four shared recordings.
#   examples/keyword_spotting/run.sh [OUT]      (default /tmp/tinyaot-kws)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
models="$root/../shared/models"
out=${1:-/tmp/tinyaot-kws}
tinyaot=${TINYAOT_BIN:-$root/build/tinyaot}
mkdir -p "$out"
"$tinyaot" convert --quiet --force --model.path "$models/tflm_audio_preprocessor_int8.tflite" \
    --module.prefix pre --module.path "$out/pre"
"$tinyaot" convert --quiet --force --model.path "$models/tflm_micro_speech_quantized.tflite" \
    --module.prefix ms --module.path "$out/ms"
make -s -C "$here" PRE="$out/pre" MS="$out/ms" OUT="$out"
cd "$models/testdata"
"$out/kws" tflm_micro_speech_yes_1000ms.wav tflm_micro_speech_no_1000ms.wav \
    tflm_micro_speech_silence_1000ms.wav tflm_micro_speech_noise_1000ms.wav
