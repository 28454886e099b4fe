#!/bin/sh
# Static analysis of the compiler (src/, tools/) and the runtime (runtime/):
# clang-tidy's clang-analyzer checks (.clang-tidy says which are off and
# why) and cppcheck's warning and portability checks; and the layout
# .clang-format describes, on every tracked C file (hand-laid inline
# assembly sits between clang-format off/on). Any finding fails.
# A false positive is suppressed only where it occurs, with a comment
# saying why (cppcheck: `// cppcheck-suppress id` with the reason).
#
#   scripts/lint.sh [BUILD_DIR]      (default build; needs its compile_commands.json)
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
if [ ! -f "$build/compile_commands.json" ]; then
    echo "lint: $build/compile_commands.json is missing: configure $build with cmake first" >&2
    exit 1
fi
jobs=${JOBS:-2}
status=0

# cppcheck 2.10 ignores C11's _Noreturn (so it thinks ta_bug returns) but
# reads the GNU attribute: spell it that way for cppcheck alone.
echo "clang-format: every tracked .c and .h"
# The fuzz regressions are inputs, not code; the demo windows are data; the
# kernel table is written by scripts/gen_kernel_table.py (checked below),
# one entry per line however long.
if ! git ls-files '*.c' '*.h' |
        grep -v '^tests/fuzz/regressions/\|^examples/.*_windows\.h$\|^src/exec/kernel_table\.c$' |
        xargs clang-format --dry-run --Werror; then
    echo "lint: run clang-format -i on the files above (or git clang-format)" >&2
    status=1
fi

# The kernel tables are written from the kernel headers (the build runs the
# script); flash and stack sizes are measured by scripts/flash_sizes.py,
# which needs the cross compilers: name every kernel it has not measured.
echo "kernel tables: current with the kernel headers, every kernel measured"
if ! python3 scripts/gen_kernel_table.py --check; then
    status=1
fi

echo "cppcheck: src/ tools/ runtime/"
if ! cppcheck --quiet --enable=warning,portability --std=c11 --error-exitcode=1 --inline-suppr \
        "-D_Noreturn=__attribute__((noreturn))" \
        -I src -I include -I runtime/include src tools runtime; then
    status=1
fi

# The compiler's files through its compile database; the runtime, which the
# compiler embeds rather than builds, as the C99 a module compiles it with.
echo "clang-tidy: src/ tools/ ($jobs jobs)"
if ! find src tools -name '*.c' | sort | xargs -P "$jobs" -n 8 \
        clang-tidy -p "$build" --quiet 2>/dev/null; then
    status=1
fi
echo "clang-tidy: runtime/"
if ! find runtime -name '*.c' | sort | xargs -P "$jobs" -n 8 sh -c \
        'clang-tidy --quiet "$@" -- -std=c99 -Iruntime/include -Iruntime/kernels -Iruntime/arena' \
        lint 2>/dev/null; then
    status=1
fi
[ $status = 0 ] && echo "static analysis: no findings"
exit $status
