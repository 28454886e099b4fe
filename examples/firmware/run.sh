#!/bin/sh
# The firmware example: a model to a running Cortex-M image in three steps.
#   examples/firmware/run.sh TINYAOT MODEL BOARD PREFIX OUT
# converts MODEL with module.type firmware for BOARD (mps3_an547: Cortex-M55,
# mps2_an386: Cortex-M4F) into OUT/module, builds the generated application
# OUT/module/firmware with its Makefile, runs it under QEMU (the built-in
# test case, the outputs, the instructions per inference) and prints the
# flash and RAM the module takes in the image (module_size.py).
set -eu
[ $# -eq 5 ] || { sed -n '2,8s/^# \{0,1\}//p' "$0" >&2; exit 2; }
TINYAOT=$1 MODEL=$2 BOARD=$3 PREFIX=$4 OUT=$5
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"

"$TINYAOT" convert --model.path "$MODEL" --module.path "$OUT/module" --module.prefix "$PREFIX" \
    --platform.name "$BOARD" --module.type firmware --force --quiet
echo "converted for $BOARD: $OUT/module (firmware: $OUT/module/firmware)"
make -s -C "$OUT/module/firmware" OUT="$OUT/build" >"$OUT/build.log" 2>&1 ||
    { cat "$OUT/build.log"; exit 1; }
make -s -C "$OUT/module/firmware" OUT="$OUT/build" run
python3 "$HERE/module_size.py" "$OUT/build/firmware.map" "lib$PREFIX.a" "$BOARD"
