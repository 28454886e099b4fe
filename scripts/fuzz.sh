#!/bin/sh
# Runs the libFuzzer targets of tests/fuzz for a bounded time each.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET]  random seed, time-bounded (default 45;
#                                         make fuzz FUZZ_SECONDS=3600 for longer)
#   scripts/fuzz.sh --replayable          what make test runs: a fresh corpus, seed 1
#                                         and a fixed number of runs per target (about
#                                         30 s each on a 2-core machine for the first
#                                         three, seconds for convert_all and
#                                         module_api), so a finding
#                                         in CI is found again by the same command
#
# Builds build-fuzz with clang (-fsanitize=fuzzer,address,undefined), seeds
# each target's corpus (build-fuzz/corpus/<target>) with its seeds and
# regression inputs, and prints the executions and coverage libFuzzer
# reports. A crash, leak, timeout or failed check stops it with a non-zero
# status and names the input: copy that file into
# tests/fuzz/regressions/<target>/ so that ctest replays it from then on.
set -eu
cd "$(dirname "$0")/.."
replayable=0
seconds=45
case "${1:-}" in
    --replayable) replayable=1 ;;
    "") ;;
    *) seconds=$1 ;;
esac
# Runs per target in --replayable mode: each target's rate differs ~10x.
# convert_all (every output, the executor) runs ~20 a second under the
# sanitizers, module_api thousands: a few seconds each.
runs_convert=6000
runs_config=20000
runs_target=50000
runs_convert_all=200
runs_module_api=20000
root=$(pwd)
cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
      -DTINYAOT_SANITIZE=ON -DTINYAOT_FUZZ=ON -DTINYAOT_CROSS_TESTS=OFF >/dev/null
cmake --build build-fuzz -j "${JOBS:-2}" --target fuzz_convert fuzz_config fuzz_target \
      fuzz_convert_all fuzz_module_api >/dev/null

seeds_convert="$root/../shared/models"
seeds_config="$root/tests/fuzz/seeds/config"
seeds_target="$root/targets"
seeds_convert_all="$root/tests/fuzz/seeds/convert_all"
seeds_module_api="$root/tests/fuzz/seeds/module_api"
status=0
for t in convert config target convert_all module_api; do
    corpus="build-fuzz/corpus/$t"
    crashes="build-fuzz/crashes/$t"
    [ $replayable = 1 ] && rm -rf "$corpus"
    mkdir -p "$corpus" "$crashes"
    eval "seeds=\$seeds_$t"
    for f in "$seeds"/* "tests/fuzz/regressions/$t"/*; do
        [ -f "$f" ] && [ "$(basename "$f")" != README ] && cp "$f" "$corpus/seed-$(basename "$f")"
    done
    log="build-fuzz/fuzz_$t.log"
    # -timeout: one conversion takes milliseconds; 10 s means a hang.
    # -max_len: the largest shared model is about 300 KB.
    if [ $replayable = 1 ]; then
        eval "bound=\"-seed=1 -runs=\$runs_$t\""
    else
        bound="-max_total_time=$seconds"
    fi
    # $bound is two words or one; it is split on purpose.
    # shellcheck disable=SC2086
    if ASAN_OPTIONS=detect_leaks=1 build-fuzz/tests/fuzz/fuzz_$t "$corpus" \
           $bound -timeout=10 -rss_limit_mb=2048 -max_len=400000 \
           -print_final_stats=1 -artifact_prefix="$crashes/" >"$log" 2>&1; then
        execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
        ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1)
        echo "fuzz_$t: $bound, $execs executions, $cov, $ft, corpus $(ls "$corpus" | wc -l) inputs, no findings"
    else
        echo "fuzz_$t: FOUND A FAULT (log: $log); input:" >&2
        ls "$crashes" >&2
        echo "copy it into tests/fuzz/regressions/$t/ and fix the fault" >&2
        tail -40 "$log" >&2
        status=1
    fi
done
exit $status
