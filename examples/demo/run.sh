#!/bin/sh
# The demo behind `make demo`: convert the bundled model (made by
# make_model.py), build the generated module with the host runner, classify
# one example window of each class and print what happened. Then convert the
# model for the Cortex-M55 board (mps3_an547), build it into the example
# firmware (examples/firmware_m55, linked with the module's demo_sections.ld),
# run it on QEMU (the module's built-in test case first) and print the outputs, the instructions per inference and
# the flash and RAM the module takes.
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

echo "== the same model on the emulated Cortex-M55 (QEMU mps3-an547)"
"$TINYAOT" convert --model.path examples/demo/demo.tflite --module.path "$OUT/module_m55" \
    --module.prefix demo --platform.name mps3_an547 --test.enabled true --quiet
echo "   converted for mps3_an547: $OUT/module_m55 (linker fragment demo_sections.ld)"
echo "== arm-none-eabi-gcc -mcpu=cortex-m55: examples/firmware_m55 with the fragment"
make -s -C examples/firmware_m55 MODULE="$PWD/$OUT/module_m55" OUT="$PWD/$OUT/firmware" \
    >"$OUT/firmware_build.log" 2>&1 || { cat "$OUT/firmware_build.log"; exit 1; }
echo "== run on QEMU (instructions per inference counted with -icount, exact)"
make -s -C examples/firmware_m55 MODULE="$PWD/$OUT/module_m55" OUT="$PWD/$OUT/firmware" run |
    sed 's/^/   /'
make -s -C examples/firmware_m55 MODULE="$PWD/$OUT/module_m55" OUT="$PWD/$OUT/firmware" size |
    sed 's/^/   /'
