#!/bin/sh
# The demo behind `make demo`: convert the bundled model (made by
# make_model.py), build the generated module with the host runner, classify
# one example window of each class and print what happened. Then convert the
# model for the Cortex-M55 (mps3_an547) and the Cortex-M4F (mps2_an386) with
# module.type firmware, build each generated application, run it on QEMU
# (the module's built-in test case, the outputs, the instructions per
# inference) and print the flash and RAM the module takes
# (examples/firmware/run.sh).
set -eu
cd "$(dirname "$0")/../.."
TINYAOT=${1:-build/tinyaot}
OUT=build/demo
rm -rf "$OUT"
mkdir -p "$OUT"

echo "== tinyaot convert examples/demo/demo.tflite"
"$TINYAOT" convert --model.path examples/demo/demo.tflite --module.path "$OUT/module" \
    --module.prefix demo --memory.dump_residency_json true

echo "== generated module ($OUT/module)"
(cd "$OUT/module" && find . -type f | sort | sed 's/^\.\//   /')

echo "== cc -std=c99 -Wall -Wextra -Werror (module + tests/harness/host_runner.c)"
# shellcheck disable=SC2046
${CC:-cc} -std=c99 -O2 -Wall -Wextra -Werror -DTA_PREFIX=demo -I "$OUT/module" -I tests/harness \
    tests/harness/host_runner.c $(find "$OUT/module" -name '*.c' | sort) -lm -o "$OUT/demo_runner"

echo "== run: one window of each class, four consecutive runs"
"$OUT/demo_runner" --module-dir "$OUT/module" examples/demo/inputs.bin "$OUT/outputs.bin" 4
od -An -v -t f4 -w16 "$OUT/outputs.bin" | awk '
BEGIN { split("flat rising falling oscillating", names, " ") }
{
    best = 1
    for (i = 2; i <= 4; i++) if ($i > $best) best = i
    printf "   window %d (%-11s): p = [%.4f %.4f %.4f %.4f] -> %s\n", NR, names[NR], $1, $2, $3, $4, names[best]
    if (best != NR) wrong++
}
END { if (wrong) { print "   " wrong " window(s) misclassified"; exit 1 } else print "   all 4 windows classified correctly" }'

for board in mps3_an547 mps2_an386; do
    case $board in
    mps3_an547) core="Cortex-M55 (QEMU mps3-an547)" ;;
    *) core="Cortex-M4F (QEMU mps2-an386)" ;;
    esac
    echo "== the same model on the emulated $core: module.type firmware"
    # The generated application (module/firmware): the built-in test case,
    # the outputs, the instructions per inference (QEMU -icount, exact).
    mkdir -p "$OUT/$board"
    status=0
    examples/firmware/run.sh "$TINYAOT" examples/demo/demo.tflite "$board" demo \
        "$PWD/$OUT/$board" >"$OUT/$board/run.log" 2>&1 || status=$?
    sed 's/^/   /' "$OUT/$board/run.log"
    [ "$status" -eq 0 ] || exit "$status"
done
