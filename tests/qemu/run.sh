#!/usr/bin/env bash
# run.sh - build C sources into a bare-metal ELF and run it on QEMU.
#
# Usage:
#   tests/qemu/run.sh [options] SOURCE... [-- PROGRAM-ARGS...]
#
#   SOURCE            .c, .S/.s, .o or .a files (paths relative to the
#                     current directory, or absolute)
#   -b, --board B     mps3-an547 (Cortex-M55 + Helium, the default) or
#                     mps2-an386 (Cortex-M4F); aliases: m55, m4
#   -I DIR            add an include directory (repeatable; -IDIR works too)
#   -D NAME[=VALUE]   define a macro (repeatable; -DNAME works too)
#   -O0 -O1 -O2 -O3 -Os -Og   optimisation level (default -O2)
#   --cflags "..."    extra compiler flags (split on spaces)
#   --ldflags "..."   extra linker flags, e.g. "-Wl,--defsym=__ta_stack_size=0x80000"
#   -o FILE           keep the ELF as FILE (and its map as FILE.map);
#                     otherwise it goes to a temporary directory
#   --build-only      build, do not run (needs -o)
#   --elf FILE        run an existing ELF, do not build
#   --timeout SECS    kill QEMU after SECS seconds (default 120, or
#                     $TA_QEMU_TIMEOUT)
#   --trace FILE      log the address of every instruction run to FILE
#                     (QEMU -singlestep -d exec,nochain; bench/func_profile.py)
#   --expect-status N exit 0 when the program's exit status is N, else 1
#   -v, --verbose     print the commands
#   --print-cflags    print the flags a source is compiled with (the board's,
#                     the options' -D, -O and --cflags; not -I), one per line,
#                     and exit: tests/harness/objects.py compiles the runtime
#                     kernels once per run with them
#   -- ARGS           passed to the program: QEMU's -append, read back with
#                     ta_semihost_cmdline() (word 0 is the ELF's path)
#
# The kit's startup.c, semihost.c and icount.c are always linked in, and
# tests/qemu is on the include path (semihost.h, icount.h). Sources are
# compiled with -std=c99 -Wall -Wextra -Werror -ffp-contract=off (no fused
# multiply-add: float kernels must round every product as TFLite Micro's
# reference does; override with --cflags, a later flag wins) and these macros: TA_QEMU=1, TA_QEMU_BOARD="<board>",
# TA_QEMU_BOARD_MPS3_AN547 or TA_QEMU_BOARD_MPS2_AN386, TA_QEMU_CPU_HZ,
# TA_ICOUNT_SHIFT=5, TA_QEMU_NUM_IRQ.
#
# QEMU runs in the caller's working directory, so semihosting file paths
# are relative to it; stdin is /dev/null. Guest output (semihosting and
# newlib stdio) goes to stdout.
#
# Exit status: the program's own (main's return value or exit()'s argument,
# modulo 256); 70 if it faulted (startup.c's fault handler); 124 if it timed
# out; 125 for a usage or build error.
#
# Tools: $ARM_NONE_EABI_GCC (default arm-none-eabi-gcc) and
# $QEMU_SYSTEM_ARM (default qemu-system-arm).
#
# Examples:
#   tests/qemu/run.sh tests/qemu/selftest.c
#   tests/qemu/run.sh -b m4 -I runtime/include my_test.c runtime/arena/*.c -- in.bin
# From CMake (tests/qemu/TaQemu.cmake wraps this):
#   add_test(NAME t COMMAND bash ${TA_QEMU_RUN} --board mps3-an547
#            -o ${CMAKE_CURRENT_BINARY_DIR}/t.elf t.c)

set -u

kit_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
gcc_bin=${ARM_NONE_EABI_GCC:-arm-none-eabi-gcc}
qemu_bin=${QEMU_SYSTEM_ARM:-qemu-system-arm}

die() {
    echo "run.sh: $*" >&2
    exit 125
}

board=mps3-an547
opt=-O2
timeout_s=${TA_QEMU_TIMEOUT:-120}
out=
elf=
trace=
build_only=0
print_cflags=0
verbose=0
expect=
extra_cflags=
extra_ldflags=
sources=()
includes=()
defines=()
prog_args=()

need_arg() {
    [ "$2" -ge 2 ] || die "option $1 needs an argument"
}

while [ $# -gt 0 ]; do
    case $1 in
    -b | --board) need_arg "$1" $#; board=$2; shift 2 ;;
    --board=*) board=${1#--board=}; shift ;;
    -I) need_arg "$1" $#; includes+=("-I$2"); shift 2 ;;
    -I*) includes+=("$1"); shift ;;
    -D) need_arg "$1" $#; defines+=("-D$2"); shift 2 ;;
    -D*) defines+=("$1"); shift ;;
    -O0 | -O1 | -O2 | -O3 | -Os | -Og) opt=$1; shift ;;
    --cflags) need_arg "$1" $#; extra_cflags="$extra_cflags $2"; shift 2 ;;
    --ldflags) need_arg "$1" $#; extra_ldflags="$extra_ldflags $2"; shift 2 ;;
    -o) need_arg "$1" $#; out=$2; shift 2 ;;
    --build-only) build_only=1; shift ;;
    --elf) need_arg "$1" $#; elf=$2; shift 2 ;;
    --timeout) need_arg "$1" $#; timeout_s=$2; shift 2 ;;
    --trace) need_arg "$1" $#; trace=$2; shift 2 ;;
    --expect-status) need_arg "$1" $#; expect=$2; shift 2 ;;
    -v | --verbose) verbose=1; shift ;;
    --print-cflags) print_cflags=1; shift ;;
    -h | --help) sed -n '2,/^$/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
    --) shift; prog_args=("$@"); break ;;
    -*) die "unknown option $1 (see --help)" ;;
    *) sources+=("$1"); shift ;;
    esac
done

case $board in
mps3-an547 | an547 | m55 | cortex-m55)
    board=mps3-an547
    cpu_flags=(-mcpu=cortex-m55 -mfloat-abi=hard)
    board_macro=TA_QEMU_BOARD_MPS3_AN547
    cpu_hz=32000000
    num_irq=96
    script=$kit_dir/mps3_an547.ld
    ;;
mps2-an386 | an386 | m4 | cortex-m4)
    board=mps2-an386
    cpu_flags=(-mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16)
    board_macro=TA_QEMU_BOARD_MPS2_AN386
    cpu_hz=25000000
    num_irq=32
    script=$kit_dir/mps2_an386.ld
    ;;
*) die "unknown board '$board' (mps3-an547 or mps2-an386)" ;;
esac

case $timeout_s in '' | *[!0-9]*) die "--timeout needs whole seconds" ;; esac
if [ -n "$expect" ]; then
    case $expect in *[!0-9]*) die "--expect-status needs a number" ;; esac
fi

tmp_dir=
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
    if [ -n "$tmp_dir" ]; then rm -rf "$tmp_dir"; fi
}
trap cleanup EXIT

# SC2206: the extra flags are split on spaces on purpose.
# shellcheck disable=SC2206
compile_flags=("${cpu_flags[@]}" -std=c99 "$opt" -g
    -Wall -Wextra -Werror -ffp-contract=off -ffunction-sections -fdata-sections
    -DTA_QEMU=1 "-DTA_QEMU_BOARD=\"$board\"" "-D$board_macro=1"
    "-DTA_QEMU_CPU_HZ=$cpu_hz" -DTA_ICOUNT_SHIFT=5
    "-DTA_QEMU_NUM_IRQ=$num_irq" "${defines[@]}" $extra_cflags)
if [ "$print_cflags" = 1 ]; then
    printf '%s\n' "${compile_flags[@]}"
    exit 0
fi

if [ -z "$elf" ]; then
    [ ${#sources[@]} -gt 0 ] || die "no source files (see --help)"
    [ "$build_only" = 0 ] || [ -n "$out" ] || die "--build-only needs -o FILE"
    command -v "$gcc_bin" >/dev/null 2>&1 ||
        die "$gcc_bin not found (apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi)"
    if [ -n "$out" ]; then
        elf=$out
        mkdir -p "$(dirname "$out")" || die "cannot create $(dirname "$out")"
    else
        tmp_dir=$(mktemp -d "${TMPDIR:-/tmp}/ta_qemu.XXXXXX") || die "mktemp failed"
        elf=$tmp_dir/app.elf
    fi

    startfile() {
        "$gcc_bin" "${cpu_flags[@]}" -print-file-name="$1"
    }
    crt_begin=()
    for f in crti.o crtbegin.o crt0.o; do crt_begin+=("$(startfile $f)"); done
    crt_end=()
    for f in crtend.o crtn.o; do crt_end+=("$(startfile $f)"); done

    # SC2206: the extra flags are split on spaces on purpose.
    # SC2054: commas inside -Wl,... are not array separators.
    # shellcheck disable=SC2206,SC2054
    cmd=("$gcc_bin" "${compile_flags[@]}"
        "-I$kit_dir" "${includes[@]}"
        -nostartfiles --specs=rdimon.specs -T "$script"
        "${crt_begin[@]}"
        "$kit_dir/startup.c" "$kit_dir/semihost.c" "$kit_dir/icount.c"
        "${sources[@]}"
        "${crt_end[@]}"
        -lm
        -Wl,--gc-sections -Wl,--orphan-handling=error
        "-Wl,-Map=$elf.map" $extra_ldflags
        -o "$elf")
    [ "$verbose" = 1 ] && echo "+ ${cmd[*]}" >&2
    "${cmd[@]}" || die "build failed"
    [ "$build_only" = 1 ] && exit 0
fi

[ -f "$elf" ] || die "no ELF file '$elf'"
command -v "$qemu_bin" >/dev/null 2>&1 ||
    die "$qemu_bin not found (apt-get install qemu-system-arm)"

# -nographic puts the serial port and monitor on stdio as chardev "serial0";
# semihosting output is sent there too so that all guest text reaches
# stdout in order.
# shellcheck disable=SC2054 # the commas belong to QEMU's option syntax
qemu_cmd=("$qemu_bin" -M "$board" -nographic
    -semihosting-config enable=on,target=native,chardev=serial0
    -icount shift=5 -kernel "$elf")
if [ -n "$trace" ]; then
    qemu_cmd+=(-singlestep -d exec,nochain -D "$trace")
fi
if [ ${#prog_args[@]} -gt 0 ]; then
    qemu_cmd+=(-append "${prog_args[*]}")
fi
[ "$verbose" = 1 ] && echo "+ timeout -k 5 $timeout_s ${qemu_cmd[*]}" >&2

timeout -k 5 "$timeout_s" "${qemu_cmd[@]}" </dev/null
status=$?
if [ "$status" = 124 ] || [ "$status" = 137 ]; then
    echo "run.sh: timed out after ${timeout_s}s (--timeout): ${out:-${sources[*]:-$elf}}" >&2
    status=124
fi

if [ -n "$expect" ]; then
    if [ "$status" = "$expect" ]; then
        exit 0
    fi
    echo "run.sh: exit status $status, expected $expect" >&2
    exit 1
fi
exit "$status"
